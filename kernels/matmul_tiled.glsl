// Tiled matmul, the portable fast path: C (BM x BN per workgroup) = A (M x K) * B (K x N).
// Layouts: A row-major M x K, B row-major K x N (as given, no transpose), C row-major M x N in fp32.
// Each invocation owns a TM x TN register tile in 4x4 sub-blocks; A and B tiles of depth BK go through shared
// memory; global loads of step k+1 go to registers before the math of step k; loads and C stores are vec4
// when VEC = 1.
// Two maps of invocations to sub-blocks (WARP, spec 8), both with conflict-free vec4 shared reads:
// - WARP = 0: the invocations form a TR x TC grid over the block; sub-block (g, h) of invocation (tr, tc)
//   starts at row 4 (tr + g TR), column 4 (tc + h TC).
// - WARP = 1 (CUTLASS's SIMT sgemm, siboehm's "kernel 10"): invocations are taken 32 at a time as a warp tile
//   of 4 TM x 8 TN (a thread -> (row, col) map only: no subgroup operations, any subgroup size is correct);
//   its lanes form a 4 x 8 grid (lr, lc) and sub-block (g, h) starts 16 rows / 32 columns apart. Per k a warp
//   reads 8 + 16 distinct vec4 from shared memory for 8x8 (384 B) where WARP = 0's 2 x 16 lane grid reads
//   4 + 32 (576 B); per row of C a quarter-warp writes 128 contiguous bytes.
// STAGES (spec 7) = 2: double-buffered shared memory, one barrier per BK step. 1: one buffer (half the
// shared memory, so BK = 16 costs what BK = 8 does), a barrier before the stores and one after.
// Spec constants: 0 workgroup size = (BM/TM)*(BN/TN) (WARP: a multiple of 32), 1 BM, 2 BN, 3 BK, 4 TM, 5 TN
// (multiples of 4; WARP: BM % 4 TM == 0, BN % 8 TN == 0), 6 VEC (1 when K % 4 == 0 and N % 4 == 0; else scalar
// loads with bounds checks), 7 STAGES, 8 WARP.
// Push: pc.m = M, pc.n = N, pc.k = K. Grid (ceil(N/BN), ceil(M/BM)). Out-of-range elements load as 0.
#extension GL_EXT_control_flow_attributes : enable
#include "common.glsl"
#include "types.glsl"
layout(constant_id = 1) const uint BM = 128u;
layout(constant_id = 2) const uint BN = 128u;
layout(constant_id = 3) const uint BK = 8u;
layout(constant_id = 4) const uint TM = 8u;
layout(constant_id = 5) const uint TN = 8u;
layout(constant_id = 6) const uint VEC = 1u;
layout(constant_id = 7) const uint STAGES = 2u;
layout(constant_id = 8) const uint WARP = 0u;

layout(binding = 0) readonly buffer A4 { T4 a4[]; };
layout(binding = 0) readonly buffer A1 { T a1[]; };
layout(binding = 1) readonly buffer B4 { T4 b4[]; };
layout(binding = 1) readonly buffer B1 { T b1[]; };
layout(binding = 2) writeonly buffer C4 { vec4 c4[]; };
layout(binding = 2) writeonly buffer C1 { float c1[]; };

const uint WG = (BM / TM) * (BN / TN);
const uint TR = BM / TM, TC = BN / TN;        // invocation grid over the tile
const uint AS = BM / 4u + 1u;                 // vec4 per k-row of As: A^T plus one vec4 of padding,
                                              // so the transposed scalar stores hit distinct banks
const uint NA = BM * BK / 4u / WG, NB = BK * BN / 4u / WG;  // vec4 each invocation fetches per step
const uint WM = 4u * TM, WN = 8u * TN;        // WARP = 1: one warp tile (4 x 8 lanes)
shared vec4 As[STAGES * BK * AS];             // [buffer][k][m/4], A transposed
shared vec4 Bs[STAGES * BK * (BN / 4u)];      // [buffer][k][n/4]

vec4 ra[NA], rb[NB];                          // next tile, in flight from global memory

// X[row][col .. col+3] of the rows x cols matrix X (A when isa, else B), zeros outside.
vec4 load4(bool isa, uint row, uint col, uint rows, uint cols) {
    uint i0 = row * cols + col;
    if (VEC == 1u) return row < rows && col < cols ? vec4(isa ? a4[i0 / 4u] : b4[i0 / 4u]) : vec4(0.0);
    vec4 r = vec4(0.0);
    [[unroll]] for (uint i = 0u; i < 4u; ++i)
        if (row < rows && col + i < cols) r[i] = float(isa ? a1[i0 + i] : b1[i0 + i]);
    return r;
}

void fetch(uint m0, uint n0, uint k0) {
    uint t = gl_LocalInvocationID.x;
    [[unroll]] for (uint s = 0u; s < NA; ++s) {
        uint v = t + s * WG;
        ra[s] = load4(true, m0 + v / (BK / 4u), k0 + 4u * (v % (BK / 4u)), pc.m, pc.k);
    }
    [[unroll]] for (uint s = 0u; s < NB; ++s) {
        uint v = t + s * WG;
        rb[s] = load4(false, k0 + v / (BN / 4u), n0 + 4u * (v % (BN / 4u)), pc.k, pc.n);
    }
}

void stash(uint buf) {
    uint t = gl_LocalInvocationID.x;
    [[unroll]] for (uint s = 0u; s < NA; ++s) {
        uint v = t + s * WG, row = v / (BK / 4u), k = 4u * (v % (BK / 4u));
        [[unroll]] for (uint i = 0u; i < 4u; ++i) As[(buf * BK + k + i) * AS + row / 4u][row % 4u] = ra[s][i];
    }
    [[unroll]] for (uint s = 0u; s < NB; ++s) {
        uint v = t + s * WG;
        Bs[(buf * BK + v / (BN / 4u)) * (BN / 4u) + v % (BN / 4u)] = rb[s];
    }
}

void main() {
    uint t = gl_LocalInvocationID.x, w = t / 32u, l = t % 32u;
    uint m0 = gl_WorkGroupID.y * BM, n0 = gl_WorkGroupID.x * BN;
    // Sub-block (g, h) of this invocation: vec4 ai + g * sa of an As k-row (rows 4 (ai + g sa) + 0..3), vec4
    // bi + h * sb of a Bs k-row (columns 4 (bi + h sb) + 0..3).
    uint ai = WARP == 1u ? (w / (BN / WN)) * (WM / 4u) + l / 8u : t / TC, sa = WARP == 1u ? 4u : TR;
    uint bi = WARP == 1u ? (w % (BN / WN)) * (WN / 4u) + l % 8u : t % TC, sb = WARP == 1u ? 8u : TC;
    float acc[TM][TN];
    [[unroll]] for (uint i = 0u; i < TM; ++i)
        [[unroll]] for (uint j = 0u; j < TN; ++j) acc[i][j] = 0.0;
    uint nk = (pc.k + BK - 1u) / BK;
    fetch(m0, n0, 0u);
    stash(0u);
    barrier();
    for (uint kt = 0u; kt < nk; ++kt) {
        uint cur = STAGES == 2u ? kt & 1u : 0u;
        if (kt + 1u < nk) fetch(m0, n0, (kt + 1u) * BK);  // overlaps the loads with the math below
        [[unroll]] for (uint k = 0u; k < BK; ++k) {
            vec4 av[TM / 4u], bv[TN / 4u];
            [[unroll]] for (uint g = 0u; g < TM / 4u; ++g) av[g] = As[(cur * BK + k) * AS + ai + g * sa];
            [[unroll]] for (uint g = 0u; g < TN / 4u; ++g) bv[g] = Bs[(cur * BK + k) * (BN / 4u) + bi + g * sb];
            [[unroll]] for (uint i = 0u; i < TM; ++i)
                [[unroll]] for (uint j = 0u; j < TN; ++j)
                    acc[i][j] = fma(av[i / 4u][i % 4u], bv[j / 4u][j % 4u], acc[i][j]);
        }
        if (kt + 1u < nk) {
            if (STAGES == 1u) barrier();  // every read of the one buffer is done before it is overwritten
            stash(STAGES == 2u ? cur ^ 1u : 0u);  // two stages: the other buffer, nobody reads it until the barrier
            barrier();
        }
    }
    [[unroll]] for (uint i = 0u; i < TM; ++i) {
        uint row = m0 + 4u * (ai + (i / 4u) * sa) + i % 4u;
        if (row >= pc.m) continue;
        [[unroll]] for (uint g = 0u; g < TN / 4u; ++g) {
            uint col = n0 + 4u * (bi + g * sb);
            vec4 v = vec4(acc[i][4u * g], acc[i][4u * g + 1u], acc[i][4u * g + 2u], acc[i][4u * g + 3u]);
            if (VEC == 1u) {
                if (col < pc.n) c4[(row * pc.n + col) / 4u] = v;
            } else {
                [[unroll]] for (uint j = 0u; j < 4u; ++j)
                    if (col + j < pc.n) c1[row * pc.n + col + j] = v[j];
            }
        }
    }
}
