#version 450
#extension GL_GOOGLE_include_directive : require
// Dense fp16-weight baseline at small batch (m <= 8 per workgroup) on plain fp32 FMA: y[m][n] = sum_k W[n][k]
// x[m][k]. Why beside dense_gemv.comp: at m = 8 its defaults (2 rows x 8 tokens) issue 8 x loads and convert
// 8 x 8 halves for every 2 W loads, and convert each x element again per row; here a workgroup owns R rows x T
// tokens, each invocation converts a 16-byte chunk of W once per row and a chunk of x once per token, and does
// 8 R T fma on them (R = 4, T = 8: 256 fma per 96 conversions and 12 loads, x from L1 at T / R the W bytes).
// The next chunk's R W loads are issued before this chunk's math (register prefetch), so 2 R x 16 bytes per
// invocation are in flight. Invocations stride over 8-element chunks (consecutive lanes, consecutive 16 bytes:
// coalesced), one fp32 fma chain per (row, token), then subgroup + shared-memory reduction as dense_gemv.
// Every product of two fp16 values is exact in fp32; only the K - 1 additions round (any order: the bound holds).
// Buffers: 0 W (fp16, N x Kp8, zero padding), 1 x (fp16, M x Kp8), 2 y (fp32 M x N). Push: n = N, m = M,
// p0 = Kp8 / 8. Spec: 0 workgroup size (<= 16 subgroups), 1 R, 2 T. Grid: (ceil(N/R), ceil(M/T)).
#extension GL_EXT_control_flow_attributes : enable
#extension GL_KHR_shader_subgroup_basic : require
#extension GL_KHR_shader_subgroup_arithmetic : require
#include "common.glsl"
layout(constant_id = 1) const uint R = 4u;
layout(constant_id = 2) const uint T = 8u;
layout(binding = 0) readonly buffer Wb { uvec4 w[]; };
layout(binding = 1) readonly buffer Xb { uvec4 x[]; };
layout(binding = 2) writeonly buffer Yb { float y[]; };
shared float red[R * T * 16u];

void main() {
    uint tid = gl_LocalInvocationID.x, nc = pc.p0, row0 = gl_WorkGroupID.x * R, tok0 = gl_WorkGroupID.y * T;
    uint wr[R], xr[T];  // first chunk of each row / token; past N or M: the last one, never stored
    [[unroll]] for (uint r = 0u; r < R; ++r) wr[r] = min(row0 + r, pc.n - 1u) * nc;
    [[unroll]] for (uint t = 0u; t < T; ++t) xr[t] = min(tok0 + t, pc.m - 1u) * nc;
    float acc[R * T];
    [[unroll]] for (uint i = 0u; i < R * T; ++i) acc[i] = 0.0;
    uvec4 wn[R];
    if (tid < nc)
        [[unroll]] for (uint r = 0u; r < R; ++r) wn[r] = w[wr[r] + tid];
    for (uint c = tid; c < nc; c += gl_WorkGroupSize.x) {
        float wf[R * 8u];
        [[unroll]] for (uint r = 0u; r < R; ++r)
            [[unroll]] for (uint q = 0u; q < 4u; ++q) {
                vec2 h = unpackHalf2x16(wn[r][q]);
                wf[r * 8u + 2u * q] = h.x;
                wf[r * 8u + 2u * q + 1u] = h.y;
            }
        uint cn = c + gl_WorkGroupSize.x;
        if (cn < nc)
            [[unroll]] for (uint r = 0u; r < R; ++r) wn[r] = w[wr[r] + cn];
        [[unroll]] for (uint t = 0u; t < T; ++t) {
            uvec4 xv = x[xr[t] + c];
            float xf[8];
            [[unroll]] for (uint q = 0u; q < 4u; ++q) {
                vec2 h = unpackHalf2x16(xv[q]);
                xf[2u * q] = h.x;
                xf[2u * q + 1u] = h.y;
            }
            [[unroll]] for (uint r = 0u; r < R; ++r) {
                float a = acc[r * T + t];
                [[unroll]] for (uint e = 0u; e < 8u; ++e) a = fma(wf[r * 8u + e], xf[e], a);
                acc[r * T + t] = a;
            }
        }
    }
    [[unroll]] for (uint i = 0u; i < R * T; ++i) {
        float v = subgroupAdd(acc[i]);
        if (subgroupElect()) red[i * 16u + gl_SubgroupID] = v;
    }
    barrier();
    for (uint i = tid; i < R * T; i += gl_WorkGroupSize.x) {
        uint row = row0 + i / T, tok = tok0 + i % T;
        float a = 0.0;
        for (uint g = 0u; g < gl_NumSubgroups; ++g) a += red[i * 16u + g];
        if (row < pc.n && tok < pc.m) y[tok * pc.n + row] = a;
    }
}
