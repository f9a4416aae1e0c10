#version 450
// Cholesky step 0: copy the input into the work matrix (the factorization runs in place, and a hot
// repeat must start from A again) and clear info. pc.n = n*n elements.
#extension GL_GOOGLE_include_directive : require
#include "common.glsl"
layout(binding = 0) readonly buffer A { float a[]; };
layout(binding = 1) writeonly buffer L { float l[]; };
layout(binding = 2) buffer Info { uint info[]; };

void main() {
    uint i = vkb_global_id();
    if (i < pc.n) l[i] = a[i];
    if (i == 0u) info[0] = 0u;
}
