// Matmul on matrix units (GL_NV_cooperative_matrix, 16x16x16 fp16 x fp16 -> fp32 at subgroup scope).
// Layouts: A row-major M x K fp16, B row-major K x N fp16 (as given), C row-major M x N fp32.
// A workgroup computes a BM x BN block with SM x SN subgroups; each subgroup owns (BM/SM) x (BN/SN),
// i.e. WM x WN accumulators. A (BM x BK) and B (BK x BN) tiles are staged in double-buffered shared
// memory with 8 halfs of row padding (ldmatrix-style reads of 8 rows x 16 bytes fall in distinct banks);
// the next tile's global loads are issued before the math (register prefetch), one barrier per BK step.
// Spec constants: 0 workgroup size = subgroup size * SM * SN, 1 BM, 2 BN, 3 BK (multiple of 16),
// 4 SM, 5 SN, 6 VEC (1 when K % 8 == 0 and N % 8 == 0: 16-byte global loads, direct C stores for full
// blocks; otherwise scalar loads with bounds checks), 7 FULL (1 when moreover M % BM, N % BN and K % BK
// are 0: no bounds arithmetic and no edge path at all, so after specialization the accumulators are only
// ever indexed by unrolled constants; 2: the same, with every fragment loaded by coopMatLoadNV straight
// from A and B in global memory, rows 16-byte aligned, no shared memory and no barriers). Push: pc.m, pc.n, pc.k. Grid (ceil(N/BN), ceil(M/BM)).
// Edge blocks go through shared memory and are written element by element with bounds checks.
// Stubs matmul_coopmat_wIxJ.comp define MM_WM = I, MM_WN = J: the per-subgroup accumulator grid (and so
// every coopmat array and loop bound) is then a compile-time constant instead of a spec-constant
// expression, as in the peak probe; the host picks the stub whose I x J matches BM/SM/16 x BN/SN/16.
// The matrix operations are macros: matmul_coopmat.comp maps them to GL_NV_cooperative_matrix,
// matmul_coopmat_emu.comp to per-invocation loops with the same semantics, so that this file's tiling
// can be validated on devices without matrix units (lavapipe).
#extension GL_EXT_control_flow_attributes : enable
#extension GL_EXT_shader_16bit_storage : require
#extension GL_EXT_shader_explicit_arithmetic_types_float16 : require
#extension GL_KHR_shader_subgroup_basic : require
// The gate self-test's ALU knob (vkb_slow below) stays compiled in: without it coopmat_f256 took 9-11% longer at 512
// and 2048 on an H200 (tests/gpu/sweep_s29c.txt; kernels/common.glsl).
#define VKB_KNOB_ALWAYS
#include "common.glsl"
layout(constant_id = 1) const uint BM = 128u;
layout(constant_id = 2) const uint BN = 128u;
layout(constant_id = 3) const uint BK = 32u;
layout(constant_id = 4) const uint SM = 2u;
layout(constant_id = 5) const uint SN = 4u;
layout(constant_id = 6) const uint VEC = 1u;
layout(constant_id = 7) const uint FULL = 0u;

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
shared uvec4 sm[2u * BUF];                            // [buffer]{A tile, B tile}; reused to stage edge C

uvec4 ra[NA], rb[NB];

#ifdef VKB_COOP_EMU
#include "matmul_coopmat_emu.glsl"
#else
#define FRAG fcoopmatNV<16, gl_ScopeSubgroup, 16, 16>
#define ACC fcoopmatNV<32, gl_ScopeSubgroup, 16, 16>
#define ACC_ZERO ACC(0.0)
#define LOAD_SM(f, elem, stride) coopMatLoadNV(f, sm, elem, stride, false)
#define LOAD_GA(f, elem, stride) coopMatLoadNV(f, a8, elem, stride, false)
#define LOAD_GB(f, elem, stride) coopMatLoadNV(f, b8, elem, stride, false)
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

void fetch(uint m0, uint n0, uint k0) {
    uint t = gl_LocalInvocationID.x;
    [[unroll]] for (uint s = 0u; s < NA; ++s) {
        uint v = t + s * WG, row = m0 + v / (BK / 8u), col = k0 + 8u * (v % (BK / 8u));
        uint avail = FULL != 0u ? 8u : row < pc.m && col < pc.k ? min(pc.k - col, 8u) : 0u;
        ra[s] = load8(VEC == 1u, (row * pc.k + col) / 8u, row * pc.k + col, avail, true);
    }
    [[unroll]] for (uint s = 0u; s < NB; ++s) {
        uint v = t + s * WG, row = k0 + v / (BN / 8u), col = n0 + 8u * (v % (BN / 8u));
        uint avail = FULL != 0u ? 8u : row < pc.k && col < pc.n ? min(pc.n - col, 8u) : 0u;
        rb[s] = load8(VEC == 1u, (row * pc.n + col) / 8u, row * pc.n + col, avail, false);
    }
}

void stash(uint buf) {
    uint t = gl_LocalInvocationID.x;
    [[unroll]] for (uint s = 0u; s < NA; ++s) {
        uint v = t + s * WG;
        sm[buf * BUF + (v / (BK / 8u)) * ASTR + v % (BK / 8u)] = ra[s];
    }
    [[unroll]] for (uint s = 0u; s < NB; ++s) {
        uint v = t + s * WG;
        sm[buf * BUF + ASZ + (v / (BN / 8u)) * BSTR + v % (BN / 8u)] = rb[s];
    }
}

// One 16-deep step: the subgroup's WM A fragments, then its WN B fragments one at a time, each used WM
// times. LA loads fa[i], LB loads fb (for the i, j of the loops).
#define K_STEP(LA, LB) {                                                                         \
        FRAG fa[WM], fb;                                                                         \
        [[unroll]] for (uint i = 0u; i < WM; ++i) LA;                                            \
        [[unroll]] for (uint j = 0u; j < WN; ++j) {                                              \
            LB;                                                                                  \
            [[unroll]] for (uint i = 0u; i < WM; ++i) acc[i][j] = MMA(fa[i], fb, acc[i][j]);     \
        }                                                                                        \
    }

void main() {
    uint m0 = vkb_slow(gl_WorkGroupID.y * BM, 0u), n0 = gl_WorkGroupID.x * BN;  // vkb_slow: gate self-test ALU work
    uint sg = gl_SubgroupID, sr = (sg / SN) * WM * 16u, sc = (sg % SN) * WN * 16u;  // subgroup's corner
    ACC acc[WM][WN];
    [[unroll]] for (uint i = 0u; i < WM; ++i)
        [[unroll]] for (uint j = 0u; j < WN; ++j) acc[i][j] = ACC_ZERO;
    if (FULL == 2u) {  // fragments straight from global memory (L1/L2), no staging, no barriers
        for (uint k0 = 0u; k0 < pc.k; k0 += 16u)
            K_STEP(LOAD_GA(fa[i], ((m0 + sr + 16u * i) * pc.k + k0) / 8u, pc.k / 8u),
                   LOAD_GB(fb, (k0 * pc.n + n0 + sc + 16u * j) / 8u, pc.n / 8u))
    } else {
        uint nk = (pc.k + BK - 1u) / BK;
        fetch(m0, n0, 0u);
        stash(0u);
        barrier();
        for (uint kt = 0u; kt < nk; ++kt) {
            uint base = (kt & 1u) * BUF;
            if (kt + 1u < nk) fetch(m0, n0, (kt + 1u) * BK);
            [[unroll]] for (uint kk = 0u; kk < BK / 16u; ++kk)
                K_STEP(LOAD_SM(fa[i], base + (sr + 16u * i) * ASTR + 2u * kk, ASTR),
                       LOAD_SM(fb, base + ASZ + 16u * kk * BSTR + (sc + 16u * j) / 8u, BSTR))
            if (kt + 1u < nk) stash((kt & 1u) ^ 1u);
            barrier();
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
