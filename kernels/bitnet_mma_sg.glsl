// BitLinear on int8 matrix units, one pipeline per subgroup (algo=mma_sg): y[m][n] = (float(acc) * gamma') / s[m],
// acc = sum_k w[n][k] xq[m][k] exact in int32, as bitnet_mma.glsl (codes c = w + 1 as A, tokens as B, sum_k x
// subtracted at the end). Why a second MMA kernel: with shaders ablated on an H200 (session 9), bitnet_mma.glsl's
// 28672x4096 m=8 call added its parts one after another (skeleton 15 us, + MMAs 8, + decode 7, + load latency 18)
// instead of overlapping them, because every step of every subgroup waits at a workgroup barrier for the slowest
// one. Here the workgroup meets at a barrier once, after staging its tokens; then each subgroup streams its own
// RS = WN LM rows through its own slice of shared memory with subgroup barriers only, so the subgroups of an SM
// overlap each other's load latency, decode and MMAs the way the SIMT GEMV's subgroups do.
// Measured (H200, m=8, wn=2 sgs=8 sb=1, tests/gpu/sweep_mma9e.txt): 20.5 us on 20480x3200 against bitnet_mma's 37.8 and
// 32.0 on 28672x4096 against the SIMT gemv_sg's 51.4; 3.5x and 4.1x dense_f16 in the acceptance run.
// Workgroup: SGS subgroups x RS rows (BN = SGS RS), TN = LN MT tokens, one K slice [c0, cend) of 64-weight groups
// (grid y; split-K through part[] and bitnet_mma_sum.comp as bitnet_mma). Its tokens' slice is staged once in shared
// memory (TN rows of XG groups, 16 bytes of row padding; XG, spec 7, bounds the slice) with sum_k x per token.
// A step is one group (64 weights) of the subgroup's RS rows: lane l loads rows l, l + SS, .. (one uvec4 each), decodes
// them into its slab (SB buffers, by step parity when 2; RS rows x 4 uvec4 of codes + 1 of padding), a subgroup barrier, then
// the 2 (LK = 32) x WN x MT MMAs of the group. The loads run D = 4 steps ahead in four named register sets.
// Buffers and push as bitnet_mma.glsl (0 W, 1 gamma', 2 xq, 3 s, 4 y, 5 part; n, m, p0 = groups per row, p1 = groups
// per slice, p2 = slices). Grid (ceil(N / BN), slices, ceil(M / TN)). Spec: 0 workgroup size = SS SGS, 1 LM, 2 LN,
// 3 LK (32), 4 WN, 5 SGS, 6 MT, 7 XG (>= p1), 8 SS (the subgroup size the host reads off the device), 9 SB (1, 2),
// 10 PANEL (W's layout), 11 FOLD (split-K summed in this kernel: 6 the tickets, uint, one per tile, and 7 the sums, int32
// M x N, both zero between calls).
#include "bitnet_mma_io.glsl"
#extension GL_KHR_shader_subgroup_arithmetic : require
layout(constant_id = 7) const uint XG = 64u;
layout(constant_id = 8) const uint SS = 32u;
layout(constant_id = 9) const uint SB = 2u;   // slab buffers: 2 (by step parity) or 1 (a subgroup barrier more a step, room for XG)
layout(constant_id = 10) const uint PANEL = 0u; // W's layout: 0 rows (T2, row-major); 1 16-row panels (w_at)
layout(constant_id = 11) const uint FOLD = 0u;  // 1: split-K summed in this kernel (splitk_fold.glsl; below)
#define FOLD_CNT_BINDING 6
#include "splitk_fold.glsl"
#ifdef VKB_BDA
VKB_REF(BitSum, coherent, int, 4);
#define VB_FSUM BitSum(VKB_ADDR(7u)).v
#else
layout(binding = 7) coherent buffer Sum { int fsum[]; };  // FOLD: the tiles' exact int32 sums (M x N, zero between calls)
#define VB_FSUM fsum
#endif
#define MMA_PART(PI, OI, A) if (FOLD != 0u) atomicAdd(VB_FSUM[OI], (A)); else VB_PART[PI] = (A)

const uint RS = WN * LM;
const uint LPL = RS > SS ? RS / SS : 1u;         // rows (uvec4 loads) per lane per step
const uint XSTR = 4u * XG + 1u, XSZ = TN * XSTR; // the token stage: TN rows of XG groups (uvec4 of int8), padded
const uint SLAB = SB * RS * 5u;                  // a subgroup's SB buffers of RS decoded rows (4 uvec4 + 1 padding)
shared uvec4 sm[XSZ + SGS * SLAB];
shared int sxs[TN];

#include "bitnet_mma_ops.glsl"

#include "bitnet_mma_rows.glsl"

// Step S on register set P: decode into the slab (buffer S & 1 when SB = 2; with SB = 1 after a subgroup barrier that
// ends the previous step's fragment loads), subgroup barrier, the group's MMAs; then P takes step S + 4.
#define STEP(P, S) if ((S) < ns) {                                                                    \
        uint b_ = slab + (SB == 2u ? ((S) & 1u) * RS * 5u : 0u);                                      \
        if (SB == 1u) subgroupBarrier();  /* the previous step's fragment loads are done */           \
        [[unroll]] for (uint q = 0u; q < LPL; ++q) {                                                  \
            uint r_ = lane + q * SS;                                                                  \
            if (r_ < RS)                                                                              \
                [[unroll]] for (uint u = 0u; u < 4u; ++u)                                             \
                    sm[b_ + r_ * 5u + u] = bitnet_codes(P[q][u]);                                     \
        }                                                                                             \
        subgroupMemoryBarrierShared();                                                                \
        subgroupBarrier();                                                                            \
        [[unroll]] for (uint kk = 0u; kk < 2u; ++kk) {                                                \
            FRAG_B fb[MT];                                                                            \
            FRAG_A fa;                                                                                \
            [[unroll]] for (uint j = 0u; j < MT; ++j) LOAD_COL(fb[j], LN * j * XSTR + 4u * (S) + 2u * kk, XSTR); \
            [[unroll]] for (uint i = 0u; i < WN; ++i) {                                               \
                LOAD_ROW(fa, b_ + i * LM * 5u + 2u * kk, 5u);                                         \
                [[unroll]] for (uint j = 0u; j < MT; ++j) acc[i][j] = MMA(fa, fb[j], acc[i][j]);      \
            }                                                                                         \
        }                                                                                             \
        LOADW(P, (S) + 4u)                                                                            \
    }

void main() {
    uint sg = gl_SubgroupID, lane = gl_SubgroupInvocationID, tid = gl_LocalInvocationID.x;
    uint n0 = gl_WorkGroupID.x * SGS * RS, r0 = n0 + sg * RS, t0 = gl_WorkGroupID.z * TN;
    uint c0 = gl_WorkGroupID.y * pc.p1, cend = min(pc.p0, c0 + pc.p1), ns = cend - c0, slab = XSZ + sg * SLAB;
    uvec4 p0[LPL], p1[LPL], p2[LPL], p3[LPL];
    LOADW(p0, 0u) LOADW(p1, 1u) LOADW(p2, 2u) LOADW(p3, 3u)  // in flight while the tokens are staged
    // The stage in one pass over all invocations (a token at a time left most of them idle behind 8 load latencies),
    // then sum_k x per token from shared memory, one subgroup per token, no atomics (one per staged uvec4 on 8
    // addresses cost 6 us of a 41.5 us 28672x4096 m=8 call on the H200).
    uint ntl = 4u * ns;
    for (uint e = tid; e < TN * ntl; e += WG) {
        uint tl = e / ntl, c = e % ntl, tok = t0 + tl;
        sm[tl * XSTR + c] = tok < pc.m ? VB_X[tok * 4u * pc.p0 + 4u * c0 + c] : uvec4(0u);
    }
    barrier();
    for (uint tl = sg; tl < TN; tl += SGS) {
        int s = 0;
        for (uint c = lane; c < ntl; c += gl_SubgroupSize) {
            uvec4 v = sm[tl * XSTR + c];
            s += bytesum(v.x) + bytesum(v.y) + bytesum(v.z) + bytesum(v.w);
        }
        s = subgroupAdd(s);
        if (subgroupElect()) sxs[tl] = s;
    }
    barrier();
    ACC acc[WN][MT];
    [[unroll]] for (uint i = 0u; i < WN; ++i)
        [[unroll]] for (uint j = 0u; j < MT; ++j) acc[i][j] = ACC_ZERO;
    for (uint st = 0u; st < ns; st += 4u) {
        STEP(p0, st) STEP(p1, st + 1u) STEP(p2, st + 2u) STEP(p3, st + 3u)
    }
    // Each subgroup stages its outputs in its own slab (free now: its last reads came before this subgroup barrier).
    subgroupBarrier();
    [[unroll]] for (uint i = 0u; i < WN; ++i)
        [[unroll]] for (uint j = 0u; j < MT; ++j) MMA_OUT(acc[i][j], slab, r0 + i * LM, t0, j, gl_WorkGroupID.y)
    // FOLD: every slice adds its exact int32 partial sums into fsum with atomics (any order gives the same sums); the
    // tile's last workgroup takes each sum and leaves a zero in one atomic exchange, then rounds as bitnet_mma_sum.comp.
    if (FOLD != 0u && pc.p2 > 1u && fold_arrive(gl_WorkGroupID.z * gl_NumWorkGroups.x + gl_WorkGroupID.x, pc.p2)) {
        for (uint e = tid; e < SGS * RS * TN; e += WG) {
            uint tok = t0 + e / (SGS * RS), row = n0 + e % (SGS * RS);
            if (tok < pc.m && row < pc.n) {
                uint i = tok * pc.n + row;
                int a = atomicExchange(VB_FSUM[i], 0);
                precise float p = float(a) * VB_GAM[0];
                precise float o = p / VB_SC[tok];
                VB_Y[i] = o;
            }
        }
    }
}
