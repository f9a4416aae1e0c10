// BitLinear on int8 matrix units (algo=mma): y[m][n] = (float(acc) * gamma') / s[m], acc = sum_k w[n][k] xq[m][k]
// exact in int32. Why: at batch 32, 28672x4096 is 3.8 G int8 multiply-adds, ~56 us of SIMT packed dot products on an
// H200, while its 2-bit weights are 7 us of bytes; matrix units (GL_NV_cooperative_matrix, sint8 x sint8 -> sint32)
// take the arithmetic off the critical path.
// Operands: W is A (LM rows x LK weights, row-major in shared memory), the tokens are B (x row-major M x K read
// column-major: LK x LN), so a token tile is LN wide (8 or 16): batch 8 fills a 16x8x32 fragment without padding.
// A is the CODE c = w + 1 in {0, 1, 2}, decoded from the T2 layout (bitnet_layout.glsl) with one shift and one
// mask per 4 weights: (word >> 2j) & 0x03030303 holds weights 16q + 4j + 0..3 of the group, one per byte, in
// order. The matrix units then give sum c x = acc + sum_k x, and the epilogue subtracts each token's sum_k x
// (accumulated in int32 while x is staged: a per-invocation running sum per staged slot, added into shared
// memory once at the end). Codes past N rows are 0, codes past K are 1 (padding) against x = 0.
// Tiling (as dense_coopmat.glsl): a workgroup of SGS subgroups owns BN = SGS WN LM rows x TN = LN MT tokens (all
// of m <= 64 in one pass over W; grid z for more) and one K slice (grid y; split-K). Per BK-weight step it
// stages BN x BK decoded codes and TN x BK bytes of x in double-buffered shared memory (16 bytes of row
// padding). The packed loads (BN BK / 4 bytes a step) go into registers RB steps ahead (spec 8: RB register sets;
// each set is stashed into the free stage after a step's MMAs and then refilled). One barrier per step.
// Output: each accumulator goes through the subgroup's slice of shared memory (column-major: a token's LM rows
// consecutive). One slice (pc.p2 == 1): y directly. Else part[slice][M][N] = the slice's exact int32 sum
// (its own sum_k x subtracted), and bitnet_mma_sum.comp adds the slices and scales: exact in any order.
// Buffers: 0 W (packed, N x Kp/16 words), 1 gamma', 2 xq (int8 M x Kp), 3 s (M), 4 y (fp32 M x N), 5 part
// (int32 p2 x M x N; one element when p2 == 1). Push: n, m, p0 = Kp/64 groups per row, p1 = groups per slice
// (a multiple of BK/64), p2 = slices. Grid (ceil(N/BN), p2, ceil(M/TN)). Spec: 0 workgroup size = subgroup
// size x SGS, 1 LM, 2 LN, 3 LK, 4 WN, 5 SGS, 6 MT, 7 BK (a multiple of 64 and LK), 8 RB (1 or 2). The host checks that the
// shapes are a device configuration and that the shared memory fits.
// The matrix operations are macros: bitnet_mma.comp maps them to GL_NV_cooperative_matrix, bitnet_mma_emu.comp to
// plain loops over shared memory with the same semantics, so lavapipe validates the decode, tiling, correction
// and split-K at every element.
#include "bitnet_mma_io.glsl"
layout(constant_id = 7) const uint BK = 128u;
layout(constant_id = 8) const uint RB = 1u;     // register sets: global loads in flight for RB steps of math

const uint BN = SGS * WN * LM;
const uint GK = BK / 64u;                        // packed uvec4 (64-weight groups) per tile row and step
const uint CK = BK / 16u, STR = CK + 1u;         // uvec4 of int8 per tile row; padded row stride
const uint FK = LK / 16u;                        // uvec4 per fragment row
const uint WSZ = BN * STR, XSZ = TN * STR, BUF = WSZ + XSZ;
const uint NWT = BN * GK, NW = (NWT + WG - 1u) / WG;
const uint NXT = TN * CK, NX = (NXT + WG - 1u) / WG;
shared uvec4 sm[2u * BUF];                       // [buffer]{W codes, x}; reused to stage the output
shared int sxs[TN];                              // sum_k x of the slice, per token of the tile

uvec4 rw0[NW], rx0[NX], rw1[NW], rx1[NX];        // register sets 0 and 1 (1 unused when RB = 1)
int sxr[NX];                                     // running sum_k x of this invocation's x slots

#include "bitnet_mma_ops.glsl"

// The packed weights and x of the step at group c0 (< cend, the slice's end) into register set (RW, RX): zeros past
// N, M, cend. Macros, so that each register set is named, never indexed at run time (that would be local memory).
#define FETCH(RW, RX, c0_) {                                                                          \
        uint t_ = gl_LocalInvocationID.x, nc_ = pc.p0, cs_ = (c0_);                                   \
        [[unroll]] for (uint s = 0u; s < NW; ++s) {                                                   \
            uint v = t_ + s * WG, row = n0 + v / GK, g = cs_ + v % GK;                                \
            RW[s] = v < NWT && row < pc.n && g < cend ? VB_W[row * nc_ + g] : uvec4(0u);                 \
        }                                                                                             \
        [[unroll]] for (uint s = 0u; s < NX; ++s) {                                                   \
            uint v = t_ + s * WG, tok = t0 + v / CK, c = 4u * cs_ + v % CK;                           \
            RX[s] = v < NXT && tok < pc.m && c < 4u * cend ? VB_X[tok * 4u * nc_ + c] : uvec4(0u);       \
        }                                                                                             \
    }

// Register set (RW, RX) into buffer base of sm: each packed uvec4 (64 weights) becomes 4 uvec4 of codes; x as is, summed.
#define STASH(RW, RX, base_) {                                                                        \
        uint t_ = gl_LocalInvocationID.x, b_ = (base_);                                               \
        [[unroll]] for (uint s = 0u; s < NW; ++s) {                                                   \
            uint v = t_ + s * WG, o = b_ + (v / GK) * STR + (v % GK) * 4u;                            \
            if (v < NWT)                                                                              \
                [[unroll]] for (uint q = 0u; q < 4u; ++q)                                             \
                    sm[o + q] = bitnet_codes(RW[s][q]);                                                \
        }                                                                                             \
        [[unroll]] for (uint s = 0u; s < NX; ++s) {                                                   \
            uint v = t_ + s * WG;                                                                     \
            if (v < NXT) {                                                                            \
                sm[b_ + WSZ + (v / CK) * STR + v % CK] = RX[s];                                       \
                sxr[s] += bytesum(RX[s].x) + bytesum(RX[s].y) + bytesum(RX[s].z) + bytesum(RX[s].w);  \
            }                                                                                         \
        }                                                                                             \
    }

// Step st: the MMAs on the stage st holds, then (RW, RX), which hold step st + 1, into the other stage, and the refill
// of (RW, RX) with step st + 1 + RB. The refill reads only global memory, so it is issued before the barrier: its
// loads fly while the workgroup waits there and through the next RB steps of math.
#define STEP(st_, RW, RX) {                                                                           \
        uint base = ((st_) & 1u) * BUF;                                                               \
        [[unroll]] for (uint kk = 0u; kk < BK / LK; ++kk) {                                           \
            FRAG_B fb[MT];                                                                            \
            FRAG_A fa;                                                                                \
            [[unroll]] for (uint j = 0u; j < MT; ++j) LOAD_COL(fb[j], base + WSZ + LN * j * STR + FK * kk, STR); \
            [[unroll]] for (uint i = 0u; i < WN; ++i) {                                               \
                LOAD_ROW(fa, base + (sg * WN + i) * LM * STR + FK * kk, STR);                         \
                [[unroll]] for (uint j = 0u; j < MT; ++j) acc[i][j] = MMA(fa, fb[j], acc[i][j]);      \
            }                                                                                         \
        }                                                                                             \
        if ((st_) + 1u < ns) STASH(RW, RX, (((st_) & 1u) ^ 1u) * BUF)                                 \
        if ((st_) + 1u + RB < ns) FETCH(RW, RX, c0 + ((st_) + 1u + RB) * GK)                          \
        barrier();                                                                                    \
    }

void main() {
    uint sg = gl_SubgroupID, tid = gl_LocalInvocationID.x, n0 = gl_WorkGroupID.x * BN, t0 = gl_WorkGroupID.z * TN;
    uint c0 = gl_WorkGroupID.y * pc.p1, cend = min(pc.p0, c0 + pc.p1), ns = (cend - c0 + GK - 1u) / GK;
    for (uint i = tid; i < TN; i += WG) sxs[i] = 0;
    [[unroll]] for (uint s = 0u; s < NX; ++s) sxr[s] = 0;
    ACC acc[WN][MT];
    [[unroll]] for (uint i = 0u; i < WN; ++i)
        [[unroll]] for (uint j = 0u; j < MT; ++j) acc[i][j] = ACC_ZERO;
    FETCH(rw0, rx0, c0)
    STASH(rw0, rx0, 0u)
    if (1u < ns) FETCH(rw0, rx0, c0 + GK)
    if (RB == 2u && 2u < ns) FETCH(rw1, rx1, c0 + 2u * GK)
    barrier();
    if (RB == 1u) {
        for (uint st = 0u; st < ns; ++st) STEP(st, rw0, rx0)
    } else {  // two steps per trip, so that each register set is named: set 0 holds odd steps, set 1 even ones
        for (uint st = 0u; st < ns; st += 2u) {
            STEP(st, rw0, rx0)
            if (st + 1u < ns) STEP(st + 1u, rw1, rx1)
        }
    }
    [[unroll]] for (uint s = 0u; s < NX; ++s) {
        uint v = tid + s * WG;
        if (v < NXT) atomicAdd(sxs[v / CK], sxr[s]);
    }
    barrier();
    // Each subgroup stages one LM x LN int32 tile (LM LN / 4 uvec4) in its own slice of sm, column-major.
    uint ys = sg * (LM * LN / 4u);
    [[unroll]] for (uint i = 0u; i < WN; ++i)
        [[unroll]] for (uint j = 0u; j < MT; ++j) MMA_OUT(acc[i][j], ys, n0 + (sg * WN + i) * LM, t0, j, gl_WorkGroupID.y)
}
