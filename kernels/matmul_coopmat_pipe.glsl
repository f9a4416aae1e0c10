// Matmul on matrix units, pipelined (GL_NV_cooperative_matrix 16x16x16 fp16 x fp16 -> fp32, subgroup
// scope): matmul_coopmat.glsl's tiling (A MxK, B KxN row-major fp16, C fp32; BM x BN block per workgroup,
// SM x SN subgroups of WM x WN accumulators, shared tiles with 16-byte row padding) with three levers:
// - BK (spec 3) 16, 32 or 64: the MMAs between two barriers (BK/16 x WM x WN per subgroup);
// - RB (spec 9) register buffers, 1 or 2: global loads for tile k+RB are issued as soon as a buffer is
//   free (after its stash, before the step's barrier), so they have RB k-steps of math to land. Without
//   an asynchronous copy (cp.async has no Vulkan form), registers are the only place a load can be in
//   flight: a third shared stage would add no depth, only bytes;
// - STAGES (spec 8) 1 or 2 shared stages: 2 = one barrier per k-step (stash into the stage the previous
//   step read); 1 = half the shared memory (BK 32 at 128x256 fits 48 KiB) for two barriers per k-step;
// - GROUP (spec 10): workgroups rasterized in groups of GROUP block-rows along M (0 or 1: plain order),
//   so the workgroups resident at once share B panels in L2.
// Spec constants 0..7 as matmul_coopmat.glsl (FULL 0 or 1; no FULL = 2 path here). Grid (ceil(N/BN),
// ceil(M/BM)). Stubs matmul_coopmat_pipe[_emu]_wIxJ.comp fix the accumulator grid; the _emu build maps the
// matrix operations to matmul_coopmat_pipe_emu.glsl so that lavapipe validates this file's addressing.
#extension GL_EXT_control_flow_attributes : enable
#extension GL_EXT_shader_16bit_storage : require
#extension GL_EXT_shader_explicit_arithmetic_types_float16 : require
#extension GL_KHR_shader_subgroup_basic : require
#include "common.glsl"
layout(constant_id = 1) const uint BM = 128u;
layout(constant_id = 2) const uint BN = 256u;
layout(constant_id = 3) const uint BK = 16u;
layout(constant_id = 4) const uint SM = 2u;
layout(constant_id = 5) const uint SN = 4u;
layout(constant_id = 6) const uint VEC = 1u;
layout(constant_id = 7) const uint FULL = 0u;
layout(constant_id = 8) const uint STAGES = 2u;
layout(constant_id = 9) const uint RB = 1u;
layout(constant_id = 10) const uint GROUP = 8u;

layout(binding = 0) readonly buffer A8 { uvec4 a8[]; };
layout(binding = 0) readonly buffer A1 { float16_t a1[]; };
layout(binding = 1) readonly buffer B8 { uvec4 b8[]; };
layout(binding = 1) readonly buffer B1 { float16_t b1[]; };
layout(binding = 2) writeonly buffer C1 { float c1[]; };

const uint WG = gl_WorkGroupSize.x;
#ifdef MM_WM
const uint WM = MM_WM, WN = MM_WN;
#else
const uint WM = BM / SM / 16u, WN = BN / SN / 16u;
#endif
const uint ASTR = BK / 8u + 1u, BSTR = BN / 8u + 1u;  // uvec4 (8 halfs) per padded tile row
const uint ASZ = BM * ASTR, BSZ = BK * BSTR, BUF = ASZ + BSZ;
const uint NA = BM * BK / 8u / WG, NB = BK * BN / 8u / WG;
shared uvec4 sm[STAGES * BUF];                        // [stage]{A tile, B tile}; reused to stage edge C

uvec4 ra0[NA], rb0[NB], ra1[NA], rb1[NB];             // register buffers 0 and 1 (1 unused when RB = 1)

#ifdef VKB_COOP_EMU
#include "matmul_coopmat_pipe_emu.glsl"
#else
#define FRAG fcoopmatNV<16, gl_ScopeSubgroup, 16, 16>
#define ACC fcoopmatNV<32, gl_ScopeSubgroup, 16, 16>
#define ACC_ZERO ACC(0.0)
#define LOAD_SM(f, elem, stride) coopMatLoadNV(f, sm, elem, stride, false)
#define MMA(a, b, c) coopMatMulAddNV(a, b, c)
#define STORE_C(acc, elem, stride) coopMatStoreNV(acc, c1, elem, stride, false)
#define STORE_SM(acc, elem, stride) coopMatStoreNV(acc, sm, elem, stride, false)
#endif

uvec4 load8(bool vec, uint idx8, uint idx, uint avail, bool isa) {  // 8 halfs from idx, zeros past avail
    if (vec) return avail >= 8u ? (isa ? a8[idx8] : b8[idx8]) : uvec4(0u);
    float16_t h[8];
    [[unroll]] for (uint i = 0u; i < 8u; ++i) h[i] = i < avail ? (isa ? a1[idx + i] : b1[idx + i]) : float16_t(0.0);
    return uvec4(packFloat2x16(f16vec2(h[0], h[1])), packFloat2x16(f16vec2(h[2], h[3])),
                 packFloat2x16(f16vec2(h[4], h[5])), packFloat2x16(f16vec2(h[6], h[7])));
}

uvec4 fetch_a(uint s, uint m0, uint k0) {
    uint v = gl_LocalInvocationID.x + s * WG, row = m0 + v / (BK / 8u), col = k0 + 8u * (v % (BK / 8u));
    uint avail = FULL != 0u ? 8u : row < pc.m && col < pc.k ? min(pc.k - col, 8u) : 0u;
    return load8(VEC == 1u, (row * pc.k + col) / 8u, row * pc.k + col, avail, true);
}

uvec4 fetch_b(uint s, uint n0, uint k0) {
    uint v = gl_LocalInvocationID.x + s * WG, row = k0 + v / (BN / 8u), col = n0 + 8u * (v % (BN / 8u));
    uint avail = FULL != 0u ? 8u : row < pc.k && col < pc.n ? min(pc.n - col, 8u) : 0u;
    return load8(VEC == 1u, (row * pc.n + col) / 8u, row * pc.n + col, avail, false);
}

uint a_slot(uint s) { uint v = gl_LocalInvocationID.x + s * WG; return (v / (BK / 8u)) * ASTR + v % (BK / 8u); }
uint b_slot(uint s) { uint v = gl_LocalInvocationID.x + s * WG; return ASZ + (v / (BN / 8u)) * BSTR + v % (BN / 8u); }

// Register buffers by name, never by a run-time index (that would put them in local memory).
#define FETCH(RA, RBB, kt) {                                                                     \
        [[unroll]] for (uint s = 0u; s < NA; ++s) RA[s] = fetch_a(s, m0, (kt) * BK);             \
        [[unroll]] for (uint s = 0u; s < NB; ++s) RBB[s] = fetch_b(s, n0, (kt) * BK);            \
    }
#define STASH(RA, RBB, kt) {                                                                     \
        uint base_ = ((kt) % STAGES) * BUF;                                                      \
        [[unroll]] for (uint s = 0u; s < NA; ++s) sm[base_ + a_slot(s)] = RA[s];                 \
        [[unroll]] for (uint s = 0u; s < NB; ++s) sm[base_ + b_slot(s)] = RBB[s];                \
    }

// One BK-deep step on stage (kt % STAGES): per 16-deep slice the subgroup's WM A fragments, then its WN
// B fragments one at a time, each used WM times.
#define COMPUTE(kt) {                                                                            \
        uint base_ = ((kt) % STAGES) * BUF;                                                      \
        [[unroll]] for (uint kk = 0u; kk < BK / 16u; ++kk) {                                     \
            FRAG fa[WM], fb;                                                                     \
            [[unroll]] for (uint i = 0u; i < WM; ++i)                                            \
                LOAD_SM(fa[i], base_ + (sr + 16u * i) * ASTR + 2u * kk, ASTR);                   \
            [[unroll]] for (uint j = 0u; j < WN; ++j) {                                          \
                LOAD_SM(fb, base_ + ASZ + 16u * kk * BSTR + (sc + 16u * j) / 8u, BSTR);          \
                [[unroll]] for (uint i = 0u; i < WM; ++i) acc[i][j] = MMA(fa[i], fb, acc[i][j]); \
            }                                                                                    \
        }                                                                                        \
    }

// Step kt of the main loop, with (RA, RBB) holding tile kt + 1: math on tile kt, stash tile kt + 1 (after
// a barrier when the one stage is still being read), refill the buffer with tile kt + 1 + RB, barrier.
// The refill reads only global memory, so it is issued before the barrier: the loads fly while the
// workgroup waits there.
#define STEP(kt, RA, RBB) {                                                                      \
        COMPUTE(kt)                                                                              \
        if ((kt) + 1u < nk) {                                                                    \
            if (STAGES == 1u) barrier();                                                         \
            STASH(RA, RBB, (kt) + 1u)                                                            \
        }                                                                                        \
        if ((kt) + 1u + RB < nk) FETCH(RA, RBB, (kt) + 1u + RB)                                  \
        barrier();                                                                               \
    }

void main() {
    // Raster: consecutive workgroup ids walk GROUP block-rows down M before moving right along N.
    uint nbn = gl_NumWorkGroups.x, nbm = gl_NumWorkGroups.y, bx = gl_WorkGroupID.x, by = gl_WorkGroupID.y;
    if (GROUP > 1u) {
        uint lin = by * nbn + bx, per = GROUP * nbn, first = (lin / per) * GROUP, rows = min(nbm - first, GROUP);
        by = first + (lin % per) % rows;
        bx = (lin % per) / rows;
    }
    uint m0 = vkb_slow(by * BM, 0u), n0 = bx * BN;  // vkb_slow: gate self-test ALU work
    uint sg = gl_SubgroupID, sr = (sg / SN) * WM * 16u, sc = (sg % SN) * WN * 16u;  // subgroup's corner
    ACC acc[WM][WN];
    [[unroll]] for (uint i = 0u; i < WM; ++i)
        [[unroll]] for (uint j = 0u; j < WN; ++j) acc[i][j] = ACC_ZERO;
    uint nk = (pc.k + BK - 1u) / BK;
    FETCH(ra0, rb0, 0u)
    STASH(ra0, rb0, 0u)
    if (1u < nk) FETCH(ra0, rb0, 1u)
    if (RB == 2u && 2u < nk) FETCH(ra1, rb1, 2u)
    barrier();
    if (RB == 1u) {
        for (uint kt = 0u; kt < nk; ++kt) STEP(kt, ra0, rb0)
    } else {  // two steps per trip so that each register buffer is named: buffer 0 holds odd tiles, 1 even
        for (uint kt = 0u; kt < nk; kt += 2u) {
            STEP(kt, ra0, rb0)
            if (kt + 1u < nk) STEP(kt + 1u, ra1, rb1)
        }
    }
    if (FULL != 0u || (VEC == 1u && m0 + BM <= pc.m && n0 + BN <= pc.n)) {  // whole block inside: rows 32-byte aligned
        [[unroll]] for (uint i = 0u; i < WM; ++i)
            [[unroll]] for (uint j = 0u; j < WN; ++j)
                STORE_C(acc[i][j], (m0 + sr + 16u * i) * pc.n + n0 + sc + 16u * j, pc.n);
        return;
    }
    // Edge block: each subgroup stages one 16 x 16 fp32 tile (64 uvec4) in its own slice of sm (free
    // after the last barrier above) and writes the elements that fall inside C.
    uint st = sg * 64u;
    [[unroll]] for (uint i = 0u; i < WM; ++i)
        [[unroll]] for (uint j = 0u; j < WN; ++j) {
            STORE_SM(acc[i][j], st, 4u);
            subgroupBarrier();
            for (uint e = gl_SubgroupInvocationID; e < 256u; e += gl_SubgroupSize) {
                uint row = m0 + sr + 16u * i + e / 16u, col = n0 + sc + 16u * j + e % 16u;
                if (row < pc.m && col < pc.n) c1[row * pc.n + col] = uintBitsToFloat(sm[st + e / 4u][e % 4u]);
            }
            subgroupBarrier();
        }
}
