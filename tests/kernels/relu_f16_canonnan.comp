#version 450
#extension GL_GOOGLE_include_directive : require
#extension GL_EXT_shader_16bit_storage : require
#extension GL_EXT_shader_explicit_arithmetic_types_int16 : require
// A correct fp16 relu for tests/run.sh (`--shader unary_f16=relu_f16_canonnan`), bindings as unary_f16.comp, that
// returns every NaN as the canonical 0x7fff: what an H200 returned for relu's NaNs (session 18, tests/gpu/run.sh
// validate: 178 of 4097 NaN inputs, each 0x7fff). IEEE 754 fixes no NaN payload, so this must PASS; -0 stays -0.
#include "common.glsl"
layout(binding = 0) readonly buffer A1 { uint16_t a1[]; };
layout(binding = 1) writeonly buffer C1 { uint16_t c1[]; };
void main() {
    uint n = pc.n, i0 = 4u * vkb_global_id();
    for (uint j = i0; j < min(i0 + 4u, n); ++j) {
        uint b = uint(a1[j]);
        bool nan = (b & 0x7fffu) > 0x7c00u, neg = (b & 0x8000u) != 0u && (b & 0x7fffu) != 0u;
        c1[j] = uint16_t(nan ? 0x7fffu : neg ? 0u : b);
    }
}
