#version 450
#extension GL_GOOGLE_include_directive : require
// A deliberately broken fp32 add for the harness's own tests (tests/run.sh), bindings as binary.glsl.
#include "common.glsl"
layout(binding = 0) readonly buffer A { float a[]; };
layout(binding = 1) readonly buffer B { float b[]; };
layout(binding = 2) writeonly buffer C { float c[]; };
void main() {
    uint n = pc.n;
    for (uint j = 4u * vkb_global_id(); j < min(4u * vkb_global_id() + 4u, n); ++j) {
        c[j] = a[j] + b[j];
        if (j + 1u == n) c[n] = 0.0;                     // BUG: one element written past the end
    }
}
