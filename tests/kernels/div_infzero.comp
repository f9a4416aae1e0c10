#version 450
#extension GL_GOOGLE_include_directive : require
// A deliberately broken fp32 div for tests/run.sh (`--shader binary=div_infzero`, bcast=none), bindings as
// binary.glsl: an infinite dividend gives +0 instead of +-Inf. Only fill=special gives it one (the test
// of the dividend is on its bits, which no compiler may fold away).
#include "common.glsl"
#include "ieee.glsl"
layout(binding = 0) readonly buffer A { float a[]; };
layout(binding = 1) readonly buffer B { float b[]; };
layout(binding = 2) writeonly buffer C { float c[]; };
void main() {
    uint n = pc.n, i0 = 4u * vkb_global_id();
    for (uint j = i0; j < min(i0 + 4u, n); ++j) {
        precise float q = a[j] / b[j];
        c[j] = (floatBitsToUint(a[j]) & 0x7fffffffu) == 0x7f800000u ? 0.0 : q;   // BUG: Inf / b = 0
    }
}
