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
// the 2 (LK = 32) x WN x MT MMAs of the group. The loads run D = 4 (or 8: ahead=) steps ahead in D named register sets.
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
layout(constant_id = 12) const uint FILL = 0u;  // 1: A fragments filled in registers, no slab (below)
layout(constant_id = 13) const uint XDIR = 0u;  // 1 (xin=direct): no token stage; B from x itself, signed weights (below)
// The loads run D steps ahead in D named register sets: 4, or VKB_MMA_AHEAD (8: the stub bitnet_mma_sg_a8.comp).
#ifndef VKB_MMA_AHEAD
#define VKB_MMA_AHEAD 4
#endif
const uint D = VKB_MMA_AHEAD;
#define FOLD_CNT_BINDING 6
#include "splitk_fold.glsl"
layout(binding = 7) coherent buffer Sum { int fsum[]; };  // FOLD: the tiles' exact int32 sums (M x N, zero between calls)
#define MMA_PART(PI, OI, A) if (FOLD != 0u) atomicAdd(fsum[OI], (A)); else part[PI] = (A)

const uint RS = WN * LM;
const uint LPL = RS > SS ? RS / SS : 1u;         // rows (uvec4 loads) per lane per step
const uint XSTR = 4u * XG + 1u, XSZ = XDIR != 0u ? 0u : TN * XSTR; // the token stage: TN rows of XG groups (uvec4 of int8), padded
// A subgroup's SB buffers of RS decoded rows (4 uvec4 + 1 padding); with FILL on matrix units only its output stage
// (one accumulator, LM LN int32).
#ifdef VKB_COOP_EMU
const uint SLAB = SB * RS * 5u;
#else
const uint SLAB = FILL != 0u ? LM * LN / 4u : SB * RS * 5u;
#endif
shared uvec4 sm[XSZ + SGS * SLAB];
shared int sxs[TN];

// XDIR = 1 (xin=direct): the B fragments come straight from x (L1 / L2: 8 tokens x K bytes), so there is no token stage,
// no workgroup barrier and no sum_k x: the slab takes signed weights w = c - 1, per byte ((c | 0x80) - 1) ^ 0x80 (no
// borrow crosses a byte), and the accumulators are the sums themselves. With no stage a workgroup's shared memory is its
// slabs, so small workgroups and a grid without K slices cost no more staging. Needs M a multiple of TN (no rows past x).
#define MMA_XSUM(TL) (XDIR != 0u ? 0 : sxs[TL])
uint wdec(uint c) { return XDIR != 0u ? ((c | 0x80808080u) - 0x01010101u) ^ 0x80808080u : c; }  // a word of codes as A takes it
#include "bitnet_mma_ops.glsl"

// The uvec4 (64-weight group g) of row r in W: row-major T2, or (PANEL) 16-row panels, group major: a panel's groups
// are one contiguous run and the 16 lanes loading one panel's rows read 256 contiguous bytes (reference/bitnet_linear.c
// panel_row).
uint w_at(uint r, uint g) { return PANEL != 0u ? ((r / 16u) * pc.p0 + g) * 16u + r % 16u : r * pc.p0 + g; }

// Group c0 + S of this lane's rows into register set P (zeros past N and the slice).
#define LOADW(P, S) {                                                                                 \
        uint g_ = c0 + (S);                                                                           \
        [[unroll]] for (uint q = 0u; q < LPL; ++q) {                                                  \
            uint r_ = lane + q * SS;                                                                  \
            P[q] = r_ < RS && r0 + r_ < pc.n && g_ < cend ? w[w_at(r0 + r_, g_)] : uvec4(0u);        \
        }                                                                                             \
    }
// Token fragment J of step S, half KK: from the stage, or (XDIR) from x (token rows of 4 p0 uvec4).
#define LOAD_X(F, J, S, KK) LOAD_COL_X(F, (t0 + LN * (J)) * 4u * pc.p0 + 4u * (c0 + (S)) + 2u * (KK), 4u * pc.p0)
// XDIR in the slab loop: step S's token fragments into ring set B (2 MT fragments), D steps ahead as W's loads.
#define LOADX(B, S) if (XDIR != 0u && (S) < ns) {                                                     \
        [[unroll]] for (uint kk = 0u; kk < 2u; ++kk)                                                  \
            [[unroll]] for (uint j = 0u; j < MT; ++j) LOAD_X(B[kk * MT + j], j, S, kk);               \
    }
#define LOAD_B(F, J, S, KK) if (XDIR != 0u) LOAD_X(F, J, S, KK);                                      \
                            else LOAD_COL(F, LN * (J) * XSTR + 4u * (S) + 2u * (KK), XSTR)
// Step S on register set P: decode into the slab (buffer S & 1 when SB = 2; with SB = 1 after a subgroup barrier that
// ends the previous step's fragment loads), subgroup barrier, the group's MMAs; then P takes step S + D.
#define STEP(P, B, S) if ((S) < ns) {                                                                 \
        uint b_ = slab + (SB == 2u ? ((S) & 1u) * RS * 5u : 0u);                                      \
        if (SB == 1u) subgroupBarrier();  /* the previous step's fragment loads are done */           \
        [[unroll]] for (uint q = 0u; q < LPL; ++q) {                                                  \
            uint r_ = lane + q * SS;                                                                  \
            if (r_ < RS)                                                                              \
                [[unroll]] for (uint u = 0u; u < 4u; ++u)                                             \
                    sm[b_ + r_ * 5u + u] = uvec4(wdec(bitnet_codes(P[q][u]).x), wdec(bitnet_codes(P[q][u]).y), \
                                                 wdec(bitnet_codes(P[q][u]).z), wdec(bitnet_codes(P[q][u]).w)); \
        }                                                                                             \
        subgroupMemoryBarrierShared();                                                                \
        subgroupBarrier();                                                                            \
        [[unroll]] for (uint kk = 0u; kk < 2u; ++kk) {                                                \
            FRAG_B fb[MT];                                                                            \
            FRAG_A fa;                                                                                \
            [[unroll]] for (uint j = 0u; j < MT; ++j) {                                               \
                if (XDIR != 0u) fb[j] = B[kk * MT + j];                                               \
                else LOAD_COL(fb[j], LN * j * XSTR + 4u * (S) + 2u * kk, XSTR);                       \
            }                                                                                         \
            [[unroll]] for (uint i = 0u; i < WN; ++i) {                                               \
                LOAD_ROW(fa, b_ + i * LM * 5u + 2u * kk, 5u);                                         \
                [[unroll]] for (uint j = 0u; j < MT; ++j) acc[i][j] = MMA(fa, fb[j], acc[i][j]);      \
            }                                                                                         \
        }                                                                                             \
        LOADX(B, (S) + D)                                                                             \
        LOADW(P, (S) + D)                                                                             \
    }

// FILL = 1 (fill=reg): no slab and no subgroup barrier in the K loop. The A fragment (16 x 32 codes) is filled element
// by element in the order NVIDIA's driver uses (kernel coopmat_layout measures it; PTX's mma.m16n8k32 order with its
// second and third registers swapped): invocation l (quad q = l / 4, t = l % 4) holds, in elements 4e .. 4e + 3, row q
// (e < 2) or q + 8 (e >= 2) at columns 16 (e & 1) + 4t .. + 3. For it W's words are transposed within each group
// (layout T2F, reference/bitnet_linear.c w_layout): word t, byte b, bit pair j holds weight 16 j + 4 t + b (T2: word j,
// bit pair t). So invocation l loads word t of rows q and q + 8 of its row fragments, one uint each (a subgroup reads
// 128 contiguous bytes per load with panels), and (word >> 2j) & 0x03030303 is its register for columns 16 j + 4t ..
// of the group: j = 2 kk + (e & 1) for the K = 32 fragment kk.
// The emulation has FV = 32 / SS virtual invocations each (the order names 32) and writes those registers into the
// slab at the positions the order gives, then loads the fragment from it as FILL = 0 does: it validates the layout,
// the loads and the ring on lavapipe; the register order within an invocation is the driver's, which coopmat_layout checks.
layout(binding = 0) readonly buffer Wu { uint wu[]; };  // W as words (FILL)
const uint FV = FILL != 0u ? (32u + SS - 1u) / SS : 1u;  // virtual invocations per invocation
const uint FR = 2u * WN * FV;                            // words a register set: rows q and q + 8 of each fragment
#define LOADF(P, S) {                                                                                 \
        uint g_ = c0 + (S);                                                                           \
        [[unroll]] for (uint v = 0u; v < FV; ++v) {                                                   \
            [[unroll]] for (uint q = 0u; q < 2u * WN; ++q) {                                          \
                uint vl_ = lane + v * SS, r_ = r0 + 16u * (q >> 1u) + 8u * (q & 1u) + (vl_ >> 2u);   \
                P[v * 2u * WN + q] = vl_ < 32u && r_ < pc.n && g_ < cend ? wu[4u * w_at(r_, g_) + (vl_ & 3u)] : 0u; \
            }                                                                                         \
        }                                                                                             \
    }
#ifdef VKB_COOP_EMU
// The registers at their places in the slab (row r at b_ + 5 r, uint column 4 j + t), then the fragments from it as
// STEP loads them.
#define FILL_A(P, b_)                                                                                 \
        if (SB == 1u) subgroupBarrier();                                                              \
        [[unroll]] for (uint v = 0u; v < FV; ++v) {                                                   \
            uint vl_ = lane + v * SS;                                                                 \
            [[unroll]] for (uint q = 0u; q < 2u * WN; ++q) {                                          \
                [[unroll]] for (uint j = 0u; j < 4u; ++j) {                                           \
                    uint row_ = 16u * (q >> 1u) + 8u * (q & 1u) + (vl_ >> 2u);                       \
                    uint o_ = ((b_) + row_ * 5u) * 4u + 4u * j + (vl_ & 3u);                          \
                    if (vl_ < 32u) sm[o_ / 4u][o_ % 4u] = wdec((P[v * 2u * WN + q] >> (2u * j)) & 0x03030303u); \
                }                                                                                     \
            }                                                                                         \
        }                                                                                             \
        subgroupMemoryBarrierShared();                                                                \
        subgroupBarrier();
#define FRAG_FILL(fa, P, i, kk, b_) LOAD_ROW(fa, (b_) + (i) * LM * 5u + 2u * (kk), 5u);
#else
#define FILL_A(P, b_)
#define FRAG_FILL(fa, P, i, kk, b_) {                                                                 \
        uvec4 e_ = (uvec4(P[2u * (i)], P[2u * (i)], P[2u * (i) + 1u], P[2u * (i) + 1u]) >>            \
                    uvec4(4u * (kk), 4u * (kk) + 2u, 4u * (kk), 4u * (kk) + 2u)) & 0x03030303u;       \
        e_ = uvec4(wdec(e_.x), wdec(e_.y), wdec(e_.z), wdec(e_.w));                                  \
        [[unroll]] for (uint c_ = 0u; c_ < 16u; ++c_) fa[c_] = int8_t(bitfieldExtract(int(e_[c_ >> 2u]), 8 * int(c_ & 3u), 8)); \
    }
#endif
// Step S of the FILL loop on register set P: the group's MMAs from fragments filled from P; then P takes step S + D.
#define STEPF(P, S) if ((S) < ns) {                                                                   \
        uint b_ = slab + (SB == 2u ? ((S) & 1u) * RS * 5u : 0u);                                      \
        FILL_A(P, b_)                                                                                 \
        [[unroll]] for (uint kk = 0u; kk < 2u; ++kk) {                                                \
            FRAG_B fb[MT];                                                                            \
            FRAG_A fa;                                                                                \
            [[unroll]] for (uint j = 0u; j < MT; ++j) LOAD_B(fb[j], j, S, kk);                        \
            [[unroll]] for (uint i = 0u; i < WN; ++i) {                                               \
                FRAG_FILL(fa, P, i, kk, b_)                                                           \
                [[unroll]] for (uint j = 0u; j < MT; ++j) acc[i][j] = MMA(fa, fb[j], acc[i][j]);      \
            }                                                                                         \
        }                                                                                             \
        LOADF(P, (S) + D)                                                                             \
    }

void main() {
    uint sg = gl_SubgroupID, lane = gl_SubgroupInvocationID, tid = gl_LocalInvocationID.x;
    uint n0 = gl_WorkGroupID.x * SGS * RS, r0 = n0 + sg * RS, t0 = gl_WorkGroupID.z * TN;
    uint c0 = gl_WorkGroupID.y * pc.p1, cend = min(pc.p0, c0 + pc.p1), ns = cend - c0, slab = XSZ + sg * SLAB;
    uvec4 p0[LPL], p1[LPL], p2[LPL], p3[LPL];
    uint f0[FR], f1[FR], f2[FR], f3[FR];
    FRAG_B b0[2u * MT], b1[2u * MT], b2[2u * MT], b3[2u * MT];  // XDIR: the token fragments' ring
#if VKB_MMA_AHEAD == 8
    FRAG_B b4[2u * MT], b5[2u * MT], b6[2u * MT], b7[2u * MT];
    uvec4 p4[LPL], p5[LPL], p6[LPL], p7[LPL];
    uint f4[FR], f5[FR], f6[FR], f7[FR];
#endif
    if (FILL != 0u) {  // in flight while the tokens are staged
        LOADF(f0, 0u) LOADF(f1, 1u) LOADF(f2, 2u) LOADF(f3, 3u)
#if VKB_MMA_AHEAD == 8
        LOADF(f4, 4u) LOADF(f5, 5u) LOADF(f6, 6u) LOADF(f7, 7u)
#endif
    } else {
        LOADW(p0, 0u) LOADW(p1, 1u) LOADW(p2, 2u) LOADW(p3, 3u)
        LOADX(b0, 0u) LOADX(b1, 1u) LOADX(b2, 2u) LOADX(b3, 3u)
#if VKB_MMA_AHEAD == 8
        LOADW(p4, 4u) LOADW(p5, 5u) LOADW(p6, 6u) LOADW(p7, 7u)
        LOADX(b4, 4u) LOADX(b5, 5u) LOADX(b6, 6u) LOADX(b7, 7u)
#endif
    }
    if (XDIR == 0u) {
        uint ntl = 4u * ns;
        for (uint e = tid; e < TN * ntl; e += WG) {
            uint tl = e / ntl, c = e % ntl, tok = t0 + tl;
            sm[tl * XSTR + c] = tok < pc.m ? x[tok * 4u * pc.p0 + 4u * c0 + c] : uvec4(0u);
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
    }
    ACC acc[WN][MT];
    [[unroll]] for (uint i = 0u; i < WN; ++i)
        [[unroll]] for (uint j = 0u; j < MT; ++j) acc[i][j] = ACC_ZERO;
    if (FILL != 0u) {
        for (uint st = 0u; st < ns; st += D) {
            STEPF(f0, st) STEPF(f1, st + 1u) STEPF(f2, st + 2u) STEPF(f3, st + 3u)
#if VKB_MMA_AHEAD == 8
            STEPF(f4, st + 4u) STEPF(f5, st + 5u) STEPF(f6, st + 6u) STEPF(f7, st + 7u)
#endif
        }
    } else {
        for (uint st = 0u; st < ns; st += D) {
            STEP(p0, b0, st) STEP(p1, b1, st + 1u) STEP(p2, b2, st + 2u) STEP(p3, b3, st + 3u)
#if VKB_MMA_AHEAD == 8
            STEP(p4, b4, st + 4u) STEP(p5, b5, st + 5u) STEP(p6, b6, st + 6u) STEP(p7, b7, st + 7u)
#endif
        }
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
                int a = atomicExchange(fsum[i], 0);
                precise float p = float(a) * gam[0];
                precise float o = p / sc[tok];
                y[i] = o;
            }
        }
    }
}
