// fp16/int8 matrix-unit peak probe, shared by kernels/peak_coopmat*.comp (reference/peak.c plans it).
// Each subgroup holds a GM x GN grid of accumulator fragments (lM x lN), GM fragments A_i (lM x lK) and two
// sets of GN fragments B0_j, B1_j (lK x lN), all in registers, and runs iters rounds of
//     acc_ij <- A_i * B0_j + acc_ij  for every (i, j), then  acc_ij <- A_i * B1_j + acc_ij
// : 2 * GM * GN matrix operations per round, GM * GN independent chains, no memory traffic inside the loop
// (the fragments are loaded once and reused, as a GEMM reuses a loaded A and B). Every operation's
// accumulator is the previous result, so no compiler can merge steps.
// The shape (lM, lN, lK) and the grid (GM, GN) are specialization constants 1..5, so one SPIR-V module runs
// every shape the device reports; the component types come from the including file:
//   A_T, C_T      buffer element types of A/B and of the accumulators (A_BYTES, C_BYTES their sizes)
//   FRAG_A(r, c)  the A/B fragment type, FRAG_C(r, c) the accumulator type
// Inputs are small integers chosen by the host so every value stays exact in C_T (peak.c, cm_fill).
// Buffers (rows padded to 16 bytes, so every load is 16-byte aligned whatever the shape):
//   0 ab: A_0..A_{GM-1}, B0_0..B0_{GN-1}, B1_0..B1_{GN-1}     1 c0: acc0_ij, (i, j) row-major
//   2 y : pc.p1 subgroups x GM x GN results
// Push: pc.n subgroups, pc.m rounds, pc.p1 subgroups that store (a run-time count: all work stays live).
#extension GL_GOOGLE_include_directive : require
#include "peak_coopmat_spec.glsl"
const uint SA = (lK * A_BYTES + 15u) / 16u * (16u / A_BYTES);  // row strides in elements
const uint SB = (lN * A_BYTES + 15u) / 16u * (16u / A_BYTES);
const uint SC = (lN * C_BYTES + 15u) / 16u * (16u / C_BYTES);
const uint B_BASE = GM * lM * SA;

layout(binding = 0) readonly buffer AB { A_T ab[]; };
layout(binding = 1) readonly buffer C0 { C_T c0[]; };
layout(binding = 2) writeonly buffer Y { C_T y[]; };

#ifndef PEAK_EMULATED
void main() {
    uint sg = vkb_group_id() * gl_NumSubgroups + gl_SubgroupID;
    if (sg >= pc.n) return;  // uniform in the subgroup
    FRAG_A(lM, lK) a[GM];
    FRAG_A(lK, lN) b0[GN], b1[GN];
    FRAG_C(lM, lN) acc[GM][GN];
    [[unroll]] for (uint i = 0u; i < GM; ++i) coopMatLoadNV(a[i], ab, i * lM * SA, SA, false);
    [[unroll]] for (uint j = 0u; j < GN; ++j) {
        coopMatLoadNV(b0[j], ab, B_BASE + j * lK * SB, SB, false);
        coopMatLoadNV(b1[j], ab, B_BASE + (GN + j) * lK * SB, SB, false);
    }
    [[unroll]] for (uint i = 0u; i < GM; ++i)
        [[unroll]] for (uint j = 0u; j < GN; ++j) coopMatLoadNV(acc[i][j], c0, (i * GN + j) * lM * SC, SC, false);
    for (uint it = 0u; it < pc.m; ++it) {
        [[unroll]] for (uint i = 0u; i < GM; ++i)
            [[unroll]] for (uint j = 0u; j < GN; ++j) acc[i][j] = coopMatMulAddNV(a[i], b0[j], acc[i][j]);
        [[unroll]] for (uint i = 0u; i < GM; ++i)
            [[unroll]] for (uint j = 0u; j < GN; ++j) acc[i][j] = coopMatMulAddNV(a[i], b1[j], acc[i][j]);
    }
    if (sg < pc.p1)
        [[unroll]] for (uint i = 0u; i < GM; ++i)
            [[unroll]] for (uint j = 0u; j < GN; ++j)
                coopMatStoreNV(acc[i][j], y, ((sg * GM + i) * GN + j) * lM * SC, SC, false);
}
#else
// The same computation with plain arithmetic (a device without matrix units runs the probe's host side,
// layouts, inputs and checks, through it; its rate is never a ceiling). Each invocation owns the
// accumulator elements lane, lane + subgroup size, ...; sums are exact integers, so the order differs
// from the matrix unit's without changing a bit.
C_T dot_row_col(uint a_off, uint b_off, uint r, uint c) {
    C_T s = C_T(0);
    for (uint k = 0u; k < lK; ++k) s += C_T(ab[a_off + r * SA + k]) * C_T(ab[b_off + k * SB + c]);
    return s;
}
#ifndef PEAK_NO_MAIN  // tests/kernels/peak_coopmat_emu_skip.comp brings its own (broken) main
void main() {
    uint sg = vkb_group_id() * gl_NumSubgroups + gl_SubgroupID;
    if (sg >= pc.n) return;
    for (uint e = gl_SubgroupInvocationID; e < GM * GN * lM * lN; e += gl_SubgroupSize) {
        uint c = e % lN, r = (e / lN) % lM, j = (e / (lN * lM)) % GN, i = e / (lN * lM * GN);
        uint o = (i * GN + j) * lM * SC + r * SC + c;
        C_T acc = c0[o];
        for (uint it = 0u; it < pc.m; ++it) {
            acc += dot_row_col(i * lM * SA, B_BASE + j * lK * SB, r, c);
            acc += dot_row_col(i * lM * SA, B_BASE + (GN + j) * lK * SB, r, c);
        }
        if (sg < pc.p1) y[sg * GM * GN * lM * SC + o] = acc;
    }
}
#endif
#endif
