#version 450
// Split-K reduction for dense_coopmat.glsl: y[i] = part[0][i] + part[1][i] + ... + part[p2 - 1][i], in slice
// order (deterministic). Buffers as dense_coopmat.glsl: 2 y (fp32 M x N), 3 part (fp32 p2 x M x N).
// Push: n = N, m = M, p2 = slices. Grid: vkb_grid_1d over M N, one output per invocation.
#extension GL_GOOGLE_include_directive : require
#include "common.glsl"
layout(binding = 2) writeonly buffer Yb { float y[]; };
layout(binding = 3) readonly buffer Pb { float part[]; };

void main() {
    uint i = vkb_global_id(), mn = pc.m * pc.n;
    if (i >= mn) return;
    float s = part[i];
    for (uint j = 1u; j < pc.p2; ++j) s += part[j * mn + i];
    y[i] = s;
}
