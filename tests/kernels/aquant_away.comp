#version 450
#extension GL_GOOGLE_include_directive : require
// A deliberately broken per-token int8 quantizer for tests/run.sh (`--shader bitnet_aquant=aquant_away`),
// variant=plain only, bindings as kernels/bitnet_aquant.comp: s = 127/max(max|x|, eps) as there, but
// q = round half AWAY from zero (C lroundf's rule) instead of half to even. Bit-identical wherever x s
// never lands on k + 0.5, which random inputs never do; bitnet_aquant fill=ties plants such values.
#include "common.glsl"
#include "bitnet_common.glsl"
layout(binding = 0) readonly buffer X { float x[]; };
layout(binding = 1) writeonly buffer Q { uint q[]; };
layout(binding = 2) writeonly buffer S { float s_out[]; };

void main() {
    uint row = vkb_group_id(), tid = gl_LocalInvocationID.x, WG = gl_WorkGroupSize.x;
    if (row >= pc.m) return;
    uint K = pc.k, Kp = BITNET_PAD(K);
    float mx = 0.0;
    for (uint j = tid; j < K; j += WG) mx = max(mx, abs(x[row * K + j]));
    float s = 127.0 / max(wg_max(mx), BITNET_EPS);
    if (tid == 0u) s_out[row] = s;
    for (uint k0 = 4u * tid; k0 < Kp; k0 += 4u * WG) {
        uint word = 0u;
        for (uint b = 0u; b < 4u; ++b) {
            precise float p = k0 + b < K ? x[row * K + k0 + b] * s : 0.0;
            int c = clamp(int(sign(p) * floor(abs(p) + 0.5)), -128, 127);   // BUG: ties away from zero
            word |= uint(c & 255) << (8u * b);
        }
        q[(row * Kp + k0) >> 2] = word;
    }
}
