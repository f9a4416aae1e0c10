#version 450
// QR step 0: copy A (m x n) into the work matrix r (factored in place; hot repeats start from A again)
// and set q = the first n columns of the m x m identity. pc.n = n, pc.m = m.
#extension GL_GOOGLE_include_directive : require
#include "common.glsl"
layout(binding = 0) readonly buffer A { float a[]; };
layout(binding = 1) writeonly buffer R { float r[]; };
layout(binding = 2) writeonly buffer Q { float q[]; };

void main() {
    uint e = vkb_global_id();
    if (e >= pc.m * pc.n) return;
    r[e] = a[e];
    q[e] = e / pc.n == e % pc.n ? 1.0 : 0.0;
}
