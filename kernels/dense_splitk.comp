#version 450
// twin: bda -- make also builds dense_splitk_bda.spv from this stub with VKB_BDA: its buffers by address (kernels/bda.glsl)
// Split-K reduction for dense_coopmat.glsl: y[i] = part[0][i] + part[1][i] + ... + part[p2 - 1][i], in slice
// order (deterministic). Buffers as dense_coopmat.glsl: 2 y (fp32 M x N), 3 part (fp32 p2 x M x N).
// Push: n = N, m = M, p2 = slices. Grid: vkb_grid_1d over M N, one output per invocation.
#extension GL_GOOGLE_include_directive : require
#include "common.glsl"
#ifdef VKB_BDA  // the twin dense_splitk_bda: by address (kernels/dense_bufs.glsl)
#include "dense_bufs.glsl"
#else
layout(binding = 2) writeonly buffer Yb { float y[]; };
layout(binding = 3) readonly buffer Pb { float part[]; };
#define VB_Y y
#define VB_PART part
#endif

void main() {
    uint i = vkb_global_id(), mn = pc.m * pc.n;
    if (i >= mn) return;
    float s = VB_PART[i];
    for (uint j = 1u; j < pc.p2; ++j) s += VB_PART[j * mn + i];
    VB_Y[i] = s;
}
