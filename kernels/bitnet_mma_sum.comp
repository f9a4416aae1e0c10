#version 450
// Split-K epilogue of bitnet_mma.glsl: acc = part[0][i] + ... + part[p2 - 1][i] (exact int32 slice sums, so any
// order gives the same acc), then y[i] = (float(acc) * gamma') / s[token], as the one-slice path.
// Buffers as bitnet_mma.glsl: 1 gamma', 3 s, 4 y (fp32 M x N), 5 part (int32 p2 x M x N).
// Push: n = N, m = M, p2 = slices. Grid: vkb_grid_1d over M N, one output per invocation.
#extension GL_GOOGLE_include_directive : require
#include "common.glsl"
layout(binding = 1) readonly buffer Gb { float gam[]; };
layout(binding = 3) readonly buffer Sb { float sc[]; };
layout(binding = 4) writeonly buffer Yb { float y[]; };
layout(binding = 5) readonly buffer Pb { int part[]; };

void main() {
    uint i = vkb_global_id(), mn = pc.m * pc.n;
    if (i >= mn) return;
    int a = part[i];
    for (uint j = 1u; j < pc.p2; ++j) a += part[j * mn + i];
    precise float p = float(a) * gam[0];
    precise float o = p / sc[i / pc.n];
    y[i] = o;
}
