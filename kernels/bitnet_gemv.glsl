// BitLinear for small batches (GEMV at batch 1, up to MT tokens per workgroup):
//   y[m][n] = (float(acc) * gamma') / s[m],  acc = sum_k w[n][k] * xq[m][k] in int32 (exact).
// A workgroup owns R rows x MT tokens. Its invocations stride over the 64-weight groups of the rows: per
// group one uvec4 (16 B, coalesced across invocations) of packed weights per row and 4 uvec4 of int8
// activations per token, reused for all R rows (served from L1/L2: x is small and shared by every workgroup).
// No shifts: with codes c = w + 1, word & (0x03030303 << 2j) holds 4^j * c for the 4 consecutive weights
// 16q + 4j + 0..3 (bitnet_layout.glsl), an unsigned byte <= 128 that goes straight into a signed x unsigned
// 4x8 dot product; the four sums a_j are rescaled exactly at the end (a_j is a multiple of 4^j):
//   acc = a0 + a1/4 + a2/16 + a3/64 - sum(x).   Per 16 weights: 4 AND + 4 dot products.
// Buffers: 0 packed W (N x Kp/16 words), 1 gamma', 2 xq (int8, M x Kp), 3 s (M), 4 y (M x N).
// Push: n = N, m = M, p0 = Kp/64 groups per row. Grid: (ceil(N/R), ceil(M/MT)).
#include "common.glsl"
#include "bitnet_common.glsl"
layout(constant_id = 1) const uint R = 4u;
layout(constant_id = 2) const uint MT = 1u;
layout(binding = 0) readonly buffer Wb { uvec4 w[]; };
layout(binding = 1) readonly buffer Gb { float gam[]; };
layout(binding = 2) readonly buffer Xb { uvec4 x[]; };
layout(binding = 3) readonly buffer Sb { float sc[]; };
layout(binding = 4) writeonly buffer Yb { float y[]; };
shared int red[R * MT * 16];  // per-subgroup sums; the host keeps workgroups to <= 16 subgroups

void main() {
    uint tid = gl_LocalInvocationID.x, nc = pc.p0;
    uint row0 = gl_WorkGroupID.x * R, tok0 = gl_WorkGroupID.y * MT;
    ivec4 acc[R * MT];
    int sx[MT];
    for (uint i = 0u; i < R * MT; ++i) acc[i] = ivec4(0);
    for (uint t = 0u; t < MT; ++t) sx[t] = 0;
    uint extra = 0u;  // gate self-test: extra weight reads (kernels/common.glsl), folded in as 0 below
    for (uint c = tid; c < nc; c += gl_WorkGroupSize.x) {
        uvec4 wv[R];
        for (uint r = 0u; r < R; ++r) wv[r] = w[min(row0 + r, pc.n - 1u) * nc + c];
        for (uint t = 0u; t < MT; ++t) {
            uint xb = (min(tok0 + t, pc.m - 1u) * nc + c) * 4u;
            for (uint q = 0u; q < 4u; ++q) {
                uvec4 xa = x[xb + q];
                sx[t] += dot_ss(xa.x, 0x01010101u) + dot_ss(xa.y, 0x01010101u) + dot_ss(xa.z, 0x01010101u) +
                         dot_ss(xa.w, 0x01010101u);
                for (uint r = 0u; r < R; ++r) {
                    uint wd = wv[r][q];
                    acc[r * MT + t] += ivec4(dot_su(xa.x, wd & 0x03030303u), dot_su(xa.y, wd & 0x0C0C0C0Cu),
                                             dot_su(xa.z, wd & 0x30303030u), dot_su(xa.w, wd & 0xC0C0C0C0u));
                }
            }
        }
    }
    // Gate self-test only (pc.slow's memory bit): the extra weight reads come after the loop, never inside it,
    // where a read loop between the row loads kept them from issuing together.
    if (vkb_gate_mem())
        for (uint c = tid; c < nc; c += gl_WorkGroupSize.x)
            for (uint r = 0u; r < R; ++r) VKB_SLOW_READ(extra, w, min(row0 + r, pc.n - 1u) * nc + c, pc.n * nc);
    acc[0].x = int(vkb_slow(uint(acc[0].x), extra));
    for (uint i = 0u; i < R * MT; ++i) {
        ivec4 a = acc[i];
        int v = subgroupAdd(a.x + (a.y >> 2) + (a.z >> 4) + (a.w >> 6) - sx[i % MT]);
        if (subgroupElect()) red[i * 16u + gl_SubgroupID] = v;
    }
    barrier();
    if (tid < R * MT) {
        uint row = row0 + tid / MT, tok = tok0 + tid % MT;
        int a = 0;
        for (uint g = 0u; g < gl_NumSubgroups; ++g) a += red[tid * 16u + g];
        precise float p = float(a) * gam[0];
        precise float o = p / sc[min(tok, pc.m - 1u)];
        if (row < pc.n && tok < pc.m) y[tok * pc.n + row] = o;
    }
}
