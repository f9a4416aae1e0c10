#version 450
#extension GL_GOOGLE_include_directive : require
// A deliberately broken fp16 div for tests/run.sh (`--shader binary_f16=div_f16_infnan`, bcast=none),
// bindings as binary.glsl with VKB_F16: an infinite dividend gives NaN instead of +-Inf. Only fill=special
// gives it one.
#define VKB_F16
#include "common.glsl"
#include "types.glsl"
#include "ieee.glsl"
layout(binding = 0) readonly buffer A { float16_t a[]; };
layout(binding = 1) readonly buffer B { float16_t b[]; };
layout(binding = 2) writeonly buffer C { float16_t c[]; };
void main() {
    uint n = pc.n, i0 = 4u * vkb_global_id();
    for (uint j = i0; j < min(i0 + 4u, n); ++j) {
        float av = float(a[j]);
        precise float q = av / float(b[j]);
        c[j] = float16_t((floatBitsToUint(av) & 0x7fffffffu) == 0x7f800000u ? uintBitsToFloat(0x7fc00000u) : q);  // BUG
    }
}
