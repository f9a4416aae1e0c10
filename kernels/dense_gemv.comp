#version 450
// twin: bda -- make also builds dense_gemv_bda.spv from this stub with VKB_BDA: its buffers by address (kernels/bda.glsl)
#extension GL_GOOGLE_include_directive : require
// Dense fp16-weight baseline for BitLinear, small batches: y[m][n] = sum_k W[n][k] x[m][k], fp16 W and x,
// fp32 accumulation. Same structure as bitnet_gemv.glsl so the comparison is fair: a workgroup owns R rows x
// MT tokens, invocations stride over 8-element chunks (one 16-byte uvec4 of W per row, coalesced; x from
// L1/L2), two fp32 fma chains per (row, token), subgroup + shared-memory reduction.
// Buffers: 0 W (fp16, N x Kp8, Kp8 = K rounded up to 8, zero padding), 1 x (fp16, M x Kp8), 2 y (fp32 M x N).
// Push: n = N, m = M, p0 = Kp8 / 8. Grid: (ceil(N/R), ceil(M/MT)).
#extension GL_KHR_shader_subgroup_basic : require
#extension GL_KHR_shader_subgroup_arithmetic : require
#include "common.glsl"
layout(constant_id = 1) const uint R = 4u;
layout(constant_id = 2) const uint MT = 1u;
#include "dense_bufs.glsl"
shared float red[R * MT * 16];  // per-subgroup sums; the host keeps workgroups to <= 16 subgroups

vec2 h2(uint v) { return unpackHalf2x16(v); }

void main() {
    uint tid = gl_LocalInvocationID.x, nc = pc.p0;
    uint row0 = gl_WorkGroupID.x * R, tok0 = gl_WorkGroupID.y * MT;
    vec2 acc[R * MT];
    for (uint i = 0u; i < R * MT; ++i) acc[i] = vec2(0.0);
    for (uint c = tid; c < nc; c += gl_WorkGroupSize.x) {
        uvec4 wv[R];
        for (uint r = 0u; r < R; ++r) wv[r] = VB_W[min(row0 + r, pc.n - 1u) * nc + c];
        for (uint t = 0u; t < MT; ++t) {
            uvec4 xv = VB_X[min(tok0 + t, pc.m - 1u) * nc + c];
            for (uint r = 0u; r < R; ++r) {
                vec2 a = acc[r * MT + t];
                a = fma(h2(wv[r].x), h2(xv.x), a);
                a = fma(h2(wv[r].y), h2(xv.y), a);
                a = fma(h2(wv[r].z), h2(xv.z), a);
                a = fma(h2(wv[r].w), h2(xv.w), a);
                acc[r * MT + t] = a;
            }
        }
    }
    for (uint i = 0u; i < R * MT; ++i) {
        float v = subgroupAdd(acc[i].x + acc[i].y);
        if (subgroupElect()) red[i * 16u + gl_SubgroupID] = v;
    }
    barrier();
    if (tid < R * MT) {
        uint row = row0 + tid / MT, tok = tok0 + tid % MT;
        float a = 0.0;
        for (uint g = 0u; g < gl_NumSubgroups; ++g) a += red[tid * 16u + g];
        if (row < pc.n && tok < pc.m) VB_Y[tok * pc.n + row] = a;
    }
}
