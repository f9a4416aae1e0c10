// BitLinear on int8 matrix units with K parts in the workgroup and no token stage (algo=mma_kp): y[m][n] =
// (float(acc) * gamma') / s[m], acc = sum_k w[n][k] xq[m][k] exact in int32, codes c = w + 1 as A and tokens as B as in
// bitnet_mma_sg.glsl. Why a third MMA kernel: session 14's ablations put about half of mma_sg's m=8 time outside its K
// loop (the token stage, its two workgroup barriers, the split-K sum dispatch), and its loop at ~0.3 us a step per
// subgroup with ~one workgroup (8 subgroups) per SM, because the stage fills the SM's shared memory. Here no subgroup
// shares anything until the end: each streams its own RS = WN LM rows over its own part of K, and stages both operands of
// a step, the decoded W group and the TN tokens' 64 bytes of x, in its own slab (x is read from L1/L2 by every row
// tile). So a workgroup needs ~3 KiB of shared memory a subgroup, several fit an SM, and K is split among the subgroups
// of a workgroup (SK parts), summed through shared memory at the end: one dispatch, no partial sums in memory.
// sum_k x (the codes' correction) is one more MMA a fragment: a block of ones times the token fragment gives, in every
// row, each token's sum, subtracted from the accumulators before they are staged (no byte sums on the ALU).
// Workgroup: SGS = SR x SK subgroups; subgroup sg takes row tile sr = sg % SR (rows r0 .. r0 + RS - 1) and K part
// ks = sg / SR (64-weight groups [ks p1, (ks + 1) p1) of the row). A step is one group: lane l loads row l (+ SS ..) of
// the tile (one uvec4) and uvec4 l (+ SS ..) of the TN x 4 uvec4 of x, AH (4, or 2) steps ahead in named register sets;
// then a subgroup barrier (the previous step's fragment loads are done), the decode into the slab, a subgroup barrier,
// the 2 (LK = 32) x (WN x MT + MT) MMAs. At the end each subgroup stages its WN x MT accumulators (column-major int32)
// in its slab, one workgroup barrier, and every invocation sums an output's SK parts in part order and writes y.
// Buffers as bitnet_mma_io.glsl (0 W, 1 gamma', 2 xq, 3 s, 4 y; 5 part is not used). Push: n, m, p0 = groups per row,
// p1 = groups per K part. Grid (ceil(N / (SR RS)), 1, ceil(M / TN)). Spec: 0 workgroup size = SS SGS, 1 LM, 2 LN, 3 LK
// (32), 4 WN, 5 SGS, 6 MT, 7 SK (SGS % SK == 0), 8 SS (the subgroup size the host reads off the device), 9 PANEL, 10 GS,
// 11 AH, 12 XS.
// Measured on an H200 (session 16, rotate): 21-33% under mma_sg at m=8 and 9-43% under mma at m=32 on the six issue-15
// shapes (reference/bitnet_linear.c linear_default_algo has the figures; the tilings: reference/bitnet_mma.c
// kp_auto). Ablated (sweep_s16c.txt) the K loop is mostly the on-chip step, not DRAM: loads 8 steps ahead were no faster
// (sweep_s16c.txt), nor x 2 steps ahead (sweep_s16b.txt).
// Session 17 (H200, rotate), against that on-chip step: W stored in each lane's own A-fragment order and decoded in
// registers (lay=frag, the order probed per device) validated but took 1.1-1.9x this kernel's time: NVIDIA's compiler
// writes a fragment's int8 components one or more instructions each, in the NV and the KHR form alike (sweep_s17a.txt,
// s17b, s17i; session 14's mma_sg fill=reg had found the same, sweep_s14a.txt, s14b), so it was removed. GS = 2 stages
// two groups between one pair of barriers: 6 of 24 rows faster, 18 slower (sweep_s17c.txt); GS = 1 stays. Neither a
// rolled K loop (a quarter of the code: less cold-mode fetch, slower in rotate, sweep_s17e.txt) nor reading the output
// scales before the loop (sweep_s17d.txt) helped.
// Session 33 (H200): XS = 1 stages a step's x once per K part for the workgroup's SR row tiles (x's own loads and staging
// were 4-12 us of the m=32 time, sweep_s33b.txt). With one wave of workgroups of SR row tiles and K parts it took m=32
// on 13824x2560 from 17.3 to 15.1 us rotate, 20480x3200 from 30.4 to 21.8 (x's reads from L2 had bound it), and with
// sk=1 sgs=4 28672x4096 from 39.9 to 35.9, and at m=64 20480x3200 from 61.8 to 35.4: the default there
// (reference/bitnet_linear.h bitnet_kp_xs_rule); it lost at m=8 and where the row tiles are too few (sweep_s33c.txt).
// x's int8 fragments loaded straight from the x buffer by coopMatLoadNV took 1.7-3.9x this kernel's time, and W
// decoded to signed int8 (no sum_k x MMA) 1-22% more (sweep_s33a.txt): neither kept.
// Session 34 (H200): XSUM = 1 sums x per token from the staged x words (packed dot products) instead of the ones MMA:
// 28672x4096 m=32 (xs, one K part) from 35.8 to 33.9 us rotate, 38.0 to 37.1 cold; with two K parts (20480x3200) or two
// token tiles it lost (sweep_s34d.txt), so the host takes it at one K part and one token tile.
// Session 40 (H200): XS with GS = 2 stages two groups' x between workgroup barriers (half of them: the barrier a step
// had cost 12-16% at m=32, sweep_s34d.txt's noxbar) and decodes the pair's W one group at a time through the one-group
// slab behind subgroup barriers (two groups' slabs do not fit 48 KiB beside the stages): 28672x4096 m=32 33.4 -> 30.1 us
// rotate, 34.3 -> 31.0 cold, 20480x3200 21.4 -> 20.4 and 22.2 -> 21.2 (sweep_s40c.txt); the host takes it with the xs
// rule's tiling at one token tile where it fits (reference/bitnet_linear.h bitnet_kp_xs_gs).
#include "bitnet_mma_io.glsl"
#define BITNET_DOT
#include "bitnet_dot.glsl"
#define KP_XSUM(v) (dot_ss((v).x, 0x01010101u) + dot_ss((v).y, 0x01010101u) + dot_ss((v).z, 0x01010101u) + dot_ss((v).w, 0x01010101u))
layout(constant_id = 7) const uint SK = 4u;
layout(constant_id = 8) const uint SS = 32u;
layout(constant_id = 9) const uint PANEL = 1u;  // W's layout: 0 rows (T2, row-major); 1 16-row panels (w_at)
layout(constant_id = 10) const uint GS = 1u;    // groups a stage (1, 2): their W and x staged, then their MMAs
layout(constant_id = 11) const uint AH = 4u;    // groups in flight: 4 register sets, or 2 (fewer registers; GS = 1 only)
layout(constant_id = 12) const uint XS = 0u;    // 1: a step's x staged once per K part, shared by its SR row tiles (GS = 1)
layout(constant_id = 13) const uint XSUM = 0u;  // 1 (XS only): sum_k x per token from the staged x words by packed dot
// products, one per word, summed over the workgroup at the end (KXS), instead of the ones MMA a fragment every step

const uint SR = SGS / SK;                         // row tiles per workgroup
const uint RS = WN * LM;                          // rows per subgroup
const uint LPL = (RS + SS - 1u) / SS;             // W rows (uvec4 loads) per lane per step
const uint XLN = XS != 0u ? SR * SS : SS;         // lanes that load and stage a step's x: the part's, or the subgroup's
const uint XQ = TN * 4u, XPL = (XQ + XLN - 1u) / XLN;  // x: uvec4 per step, per lane
const uint WST = 4u * GS + 1u;                    // slab row stride (uvec4): GS groups + 1 of padding (conflict-free)
// XS with GS = 2: x is staged two groups at a time (one workgroup barrier a pair), W one group at a time in a slab of
// one group's rows (WSW = 5), decoded again for the pair's second group behind subgroup barriers; else WSW = WST.
const uint WSW = XS != 0u ? 5u : WST;
const uint WSL = RS * WSW;                        // slab: RS decoded rows, then TN tokens
const uint SLAB = XS != 0u ? WSL : WSL + TN * WST;  // XS: x is in the part's two stages after the ones instead
const uint TILE = LM * LN / 4u;                   // uvec4 of one staged int32 accumulator
const uint ACS = WN * MT * TILE;                  // a subgroup's staged accumulators
const uint SLOT = XS != 0u ? SLAB : (SLAB > ACS ? SLAB : ACS);
const uint ONES = SGS * SLOT;                     // an LM x LK block of ones (2 uvec4 a row): sum_k x by MMA
const uint XB = ONES + 2u * LM;                   // XS: stage b of part ks at XB + (2 ks + b) TN WST, TN rows of WST
const uint XE = XB + XS * SK * 2u * TN * WST;
const uint ASL = XS != 0u ? ACS : SLOT;           // accumulators of subgroup sg at sg ASL (XS: over the whole array)
const uint KXS = XE > SGS * ASL ? XE : SGS * ASL; // XSUM: sum_k x of token t of the tile at component t % 4 of KXS + t / 4
#ifdef KP_PAD  // tests/kernels/bitnet_mma_kp_pad*.comp: KP_PAD uvec4 more, unused (the occupancy probe, tests/gpu/run.sh)
#define KP_SM_PAD + KP_PAD
#else
#define KP_SM_PAD
#endif
shared uvec4 sm[KXS + (XSUM != 0u ? TN / 4u : 0u) KP_SM_PAD];  // (none without: the 48 KiB tilings use every byte)
#ifndef KP_SUM_END
#define KP_SUM_END SK  // K parts summed; tests/kernels/bitnet_mma_kp_emu_droppart.comp sums one fewer
#endif

#include "bitnet_mma_ops.glsl"
#ifdef VKB_COOP_EMU
AccEmu emu_sub(AccEmu a, AccEmu b) {
    for (uint i = 0u; i < 32u; ++i) a.x[i] -= b.x[i];
    return a;
}
#define ACC_SUB(a, b) emu_sub(a, b)
// Emulated, each MMA is a few hundred instructions for lavapipe's LLVM: loops it cannot unroll (a trip count it cannot
// see, equal to the constant) keep one copy a step instead of one a fragment (a cold compile of 28.6 s took 23.9).
#define KP_N(x) ((x) + (pc.n >> 31))
#else
#define ACC_SUB(a, b) ((a) - (b))
#define KP_N(x) (x)
#endif

#include "bitnet_mma_rows.glsl"

// Group c0 + S of this lane's uvec4 of x into Q (zeros past M and the part).
#define LOADX(Q, S) {                                                                                 \
        uint g_ = c0 + (S);                                                                           \
        [[unroll]] for (uint q = 0u; q < XPL; ++q) {                                                  \
            uint e_ = xl + q * XLN, t_ = t0 + e_ / 4u;                                                \
            Q[q] = e_ < XQ && t_ < pc.m && g_ < cend ? VB_X[(t_ * pc.p0 + g_) * 4u + e_ % 4u] : uvec4(0u); \
        }                                                                                             \
    }
// Group S's W (P) and x (Q) into half H of the stage (uvec4 4 H .. 4 H + 3 of each slab row); x's rows at xa_.
#define STAGE_W(P, H) {                                                                               \
        [[unroll]] for (uint q = 0u; q < LPL; ++q) {                                                  \
            uint r_ = lane + q * SS;                                                                  \
            if (r_ < RS)                                                                              \
                [[unroll]] for (uint u = 0u; u < 4u; ++u) sm[slab + r_ * WSW + 4u * (H) + u] = bitnet_codes(P[q][u]); \
        }                                                                                             \
    }
#define STAGE_X(Q, H) {                                                                               \
        [[unroll]] for (uint q = 0u; q < XPL; ++q) {                                                  \
            uint e_ = xl + q * XLN;                                                                   \
            if (e_ < XQ) sm[xa_ + (e_ / 4u) * WST + 4u * (H) + e_ % 4u] = Q[q];                      \
            if (XSUM != 0u && e_ < XQ) xsa[q] += KP_XSUM(Q[q]);                                       \
        }                                                                                             \
    }
#define STAGE(P, Q, H) { STAGE_W(P, H) STAGE_X(Q, H) }
// Steps S .. S + GS - 1 on register sets P, Q (and PB, QB when GS = 2; past the part they hold zeros, which add
// nothing); then each set takes the step AH later. XS: x in the part's stage (S / GS) & 1, which every subgroup last
// read two stages ago, before the workgroup barrier of the stage between; so one barrier a stage (uniform: ns = p1 for
// all). XS with GS = 2: the pair's x in one stage, its W one group at a time in the one-group slab (MMAS' kk 0 .. 1
// read slab columns 2 (kk % 2), x columns 2 kk).
#define MMAS(K0, K1) [[unroll]] for (uint kk = (K0); kk < KP_N(K1); ++kk) {                            \
            FRAG_B fb[MT];                                                                            \
            FRAG_A fa;                                                                                \
            [[unroll]] for (uint j = 0u; j < KP_N(MT); ++j) {                                         \
                LOAD_COL(fb[j], xa_ + LN * j * WST + 2u * kk, WST);                                   \
                if (XSUM == 0u) asx[j] = MMA(ones, fb[j], asx[j]);                                    \
            }                                                                                         \
            [[unroll]] for (uint i = 0u; i < KP_N(WN); ++i) {                                         \
                LOAD_ROW(fa, slab + i * LM * WSW + 2u * (XS != 0u ? kk % 2u : kk), WSW);             \
                [[unroll]] for (uint j = 0u; j < KP_N(MT); ++j) acc[i][j] = MMA(fa, fb[j], acc[i][j]);\
            }                                                                                         \
        }
#define STEP(P, Q, PB, QB, S) if ((S) < ns) {                                                         \
        uint xa_ = XS != 0u ? XB + (2u * ks + (((S) / GS) & 1u)) * TN * WST : slab + WSL;             \
        subgroupBarrier();  /* the previous stage's fragment loads are done */                        \
        STAGE(P, Q, 0u)                                                                               \
        if (GS == 2u && XS != 0u) STAGE_X(QB, 1u)                                                     \
        else if (GS == 2u) STAGE(PB, QB, 1u)                                                          \
        if (XS != 0u) {                                                                               \
            memoryBarrierShared();                                                                    \
            barrier();                                                                                \
        } else {                                                                                      \
            subgroupMemoryBarrierShared();                                                            \
            subgroupBarrier();                                                                        \
        }                                                                                             \
        if (GS == 2u && XS != 0u) {                                                                   \
            MMAS(0u, 2u)                                                                              \
            subgroupBarrier();  /* the first group's slab reads are done */                           \
            STAGE_W(PB, 0u)                                                                           \
            subgroupMemoryBarrierShared();                                                            \
            subgroupBarrier();                                                                        \
            MMAS(2u, 4u)                                                                              \
        } else {                                                                                      \
            MMAS(0u, 2u * GS)                                                                         \
        }                                                                                             \
        LOADW(P, (S) + AH)                                                                            \
        LOADX(Q, (S) + AH)                                                                            \
        if (GS == 2u) {                                                                               \
            LOADW(PB, (S) + AH + 1u)                                                                  \
            LOADX(QB, (S) + AH + 1u)                                                                  \
        }                                                                                             \
    }

void main() {
    uint sg = gl_SubgroupID, lane = gl_SubgroupInvocationID, tid = gl_LocalInvocationID.x;
    uint ks = sg / SR, sr = sg % SR, n0 = gl_WorkGroupID.x * SR * RS, r0 = n0 + sr * RS, t0 = gl_WorkGroupID.z * TN;
    uint c0 = min(pc.p0, ks * pc.p1), cend = min(pc.p0, c0 + pc.p1), ns = XS != 0u ? pc.p1 : cend - c0, slab = sg * SLOT;
    uint xl = XS != 0u ? sr * SS + lane : lane;  // this lane's share of a step's x
    uvec4 p0[LPL], p1[LPL], p2[LPL], p3[LPL], q0[XPL], q1[XPL], q2[XPL], q3[XPL];
    LOADW(p0, 0u) LOADW(p1, 1u) LOADX(q0, 0u) LOADX(q1, 1u)  // in flight while the ones are written
    if (AH == 4u) {
        LOADW(p2, 2u) LOADW(p3, 3u) LOADX(q2, 2u) LOADX(q3, 3u)
    }
    for (uint e = tid; e < 2u * LM; e += WG) sm[ONES + e] = uvec4(0x01010101u);
    int xsa[XPL];  // XSUM: this lane's sum of its staged x words (token (xl + q XLN) / 4 of the tile)
    [[unroll]] for (uint q = 0u; q < XPL; ++q) xsa[q] = 0;
    if (XSUM != 0u)
        for (uint e = tid; e < TN / 4u; e += WG) sm[KXS + e] = uvec4(0u);
    barrier();
    FRAG_A ones;
    LOAD_ROW(ones, ONES, 2u);
    ACC acc[WN][MT], asx[MT];
    [[unroll]] for (uint j = 0u; j < MT; ++j) {
        asx[j] = ACC_ZERO;
        [[unroll]] for (uint i = 0u; i < WN; ++i) acc[i][j] = ACC_ZERO;
    }
    for (uint st = 0u; st < ns; st += AH) {
        if (GS == 2u) {
            STEP(p0, q0, p1, q1, st) STEP(p2, q2, p3, q3, st + 2u)
        } else if (AH == 4u) {
            STEP(p0, q0, p1, q1, st) STEP(p1, q1, p0, q0, st + 1u) STEP(p2, q2, p3, q3, st + 2u) STEP(p3, q3, p2, q2, st + 3u)
        } else {
            STEP(p0, q0, p1, q1, st) STEP(p1, q1, p0, q0, st + 1u)
        }
    }
    // The part's exact sums, acc - sum_k x, staged column-major in the subgroup's own slab (its last fragment loads came
    // before this subgroup barrier; XS: at sg ASL over the slabs, the ones and the x stages, after every subgroup's last
    // fragment loads); then every part of every tile is in shared memory after one workgroup barrier.
    if (XSUM != 0u)
        [[unroll]] for (uint q = 0u; q < XPL; ++q) {
            uint e = xl + q * XLN, t = e / 4u;  // the staged uvec4 and its token, as STAGE took them
            if (e < XQ) atomicAdd(sm[KXS + t / 4u][t % 4u], uint(xsa[q]));
        }
    subgroupBarrier();
    if (XS != 0u) barrier();
    [[unroll]] for (uint i = 0u; i < WN; ++i)
        [[unroll]] for (uint j = 0u; j < MT; ++j) STORE_COL(ACC_SUB(acc[i][j], asx[j]), sg * ASL + (i * MT + j) * TILE, LM / 4u);
    barrier();
    // Output e: row tile e / (RS TN), then token, then row (consecutive invocations write consecutive rows of a token).
    for (uint e = tid; e < SR * RS * TN; e += WG) {
        uint tr = e / (RS * TN), tl = (e / RS) % TN, rr = e % RS, tok = t0 + tl, row = n0 + tr * RS + rr;
        uint o = ((rr / LM) * MT + tl / LN) * TILE * 4u + (tl % LN) * LM + rr % LM;  // int32 index within a slot
        int a = 0;
        for (uint q = 0u; q < KP_SUM_END; ++q) a += int(sm[(q * SR + tr) * ASL + o / 4u][o % 4u]);
        if (XSUM != 0u) a -= int(sm[KXS + tl / 4u][tl % 4u]);
        if (tok < pc.m && row < pc.n) {
            precise float p = float(a) * VB_GAM[0];
            precise float v = p / VB_SC[tok];
            VB_Y[tok * pc.n + row] = v;
        }
    }
}
