// Matmul on matrix units for small sizes, every global load of the workgroup issued at its start (issue 16: n = 512,
// where a GEMM's time is latency: coopmat_64 takes 16 barrier steps each waiting on one BK step's loads, and
// coopmat_s's fragment loads from row-major A and B read 16 rows x 32 bytes apiece).
// GL_NV_cooperative_matrix 16x16x16 fp16 x fp16 -> fp32 at subgroup scope; A M x K, B K x N row-major fp16, C
// M x N fp32 row-major, as matmul_coopmat.glsl.
// - A workgroup's whole A (BM x K) and B (K x BN) panels are loaded into registers at once, 16 bytes per load,
//   NS = K / BK steps of them: ~BM K + K BN bytes in flight per workgroup from the first instruction on, where a
//   register prefetch one step ahead keeps 1 / NS of that.
// - Then NS steps: stash step s's registers in shared memory (8 halfs of row padding, as matmul_coopmat.glsl),
//   a barrier, the BK / 16 k-steps of MMAs on fragments from shared memory. One buffer: a barrier before each
//   stash but the first keeps the previous step's fragment loads ahead of it.
// - SM x SN subgroups own WM x WN accumulators each, SK times over (spec 7): group ks of SM x SN subgroups takes
//   the ks-th SK-th of each step's k-steps, so that SK subgroups share a block's latency chain. Groups 1 .. SK - 1
//   then store their fp32 accumulators in shared memory (where the tiles were), and group 0 adds them in the order
//   1, 2, .. (fixed: the same bits every run) and stores C straight from its accumulators.
// Whole tiles only (the host checks): M % BM, N % BN, K % BK == 0, K / BK == NS, so there is no bounds code.
// Spec: 0 workgroup size = subgroup size x SM x SN x SK, 1 BM, 2 BN, 3 BK, 4 SM, 5 SN, 6 NS, 7 SK (BK / 16 % SK == 0).
// Push pc.m, pc.n, pc.k.
// Grid (N / BN, M / BM). Stubs matmul_coopmat_r[_emu]_wIxJ.comp fix WM x WN = I x J; _emu maps the matrix
// operations to matmul_coopmat_r_emu.glsl so that lavapipe validates this file's addressing and reduction.
#extension GL_EXT_control_flow_attributes : enable
#extension GL_EXT_shader_16bit_storage : require
#extension GL_EXT_shader_explicit_arithmetic_types_float16 : require
#extension GL_KHR_shader_subgroup_basic : require
#include "common.glsl"
layout(constant_id = 1) const uint BM = 64u;
layout(constant_id = 2) const uint BN = 32u;
layout(constant_id = 3) const uint BK = 128u;
layout(constant_id = 4) const uint SM = 4u;
layout(constant_id = 5) const uint SN = 2u;
layout(constant_id = 6) const uint NS = 4u;
layout(constant_id = 7) const uint SK = 1u;

layout(binding = 0) readonly buffer A8 { uvec4 a8[]; };
layout(binding = 1) readonly buffer B8 { uvec4 b8[]; };
layout(binding = 2) writeonly buffer C1 { float c1[]; };

const uint WG = gl_WorkGroupSize.x;
const uint WM = MM_WM, WN = MM_WN;
const uint ASTR = BK / 8u + 1u, BSTR = BN / 8u + 1u;  // uvec4 (8 halfs) per padded row
const uint ASZ = BM * ASTR, BSZ = BK * BSTR;
const uint NA = BM * BK / 8u / WG, NB = BK * BN / 8u / WG;  // uvec4 per invocation per step
const uint KPS = BK / 16u / SK;                              // k-steps per group per step
const uint RED = (SK - 1u) * BM * BN / 4u;                  // groups 1 .. SK - 1's fp32 blocks, row-major, in uvec4
shared uvec4 sm[ASZ + BSZ > RED ? ASZ + BSZ : RED];                     // a step's A and B tiles; after the last step, the blocks
uvec4 ra[NS * NA], rb[NS * NB];

#ifdef VKB_COOP_EMU
#include "matmul_coopmat_r_emu.glsl"
#else
#define FRAG fcoopmatNV<16, gl_ScopeSubgroup, 16, 16>
#define ACC fcoopmatNV<32, gl_ScopeSubgroup, 16, 16>
#define ACC_ZERO ACC(0.0)
#define LOAD_SM(f, elem, stride) coopMatLoadNV(f, sm, elem, stride, false)
#define MMA(a, b, c) coopMatMulAddNV(a, b, c)
#define ACC_ADD(a, b) ((a) + (b))
#define STORE_C(acc, elem, stride) coopMatStoreNV(acc, c1, elem, stride, false)
#define STORE_RED(acc, elem, stride) coopMatStoreNV(acc, sm, elem, stride, false)
#define LOAD_RED(acc, elem, stride) coopMatLoadNV(acc, sm, elem, stride, false)
#endif

void main() {
    uint m0 = gl_WorkGroupID.y * BM, n0 = gl_WorkGroupID.x * BN, t = gl_LocalInvocationID.x;
    uint sg = gl_SubgroupID, ks = sg / (SM * SN), sp = sg % (SM * SN);
    uint sr = (sp / SN) * WM * 16u, sc = (sp % SN) * WN * 16u;  // the subgroup's corner in the block
    uint lda = pc.k / 8u, ldb = pc.n / 8u;
    [[unroll]] for (uint s = 0u; s < NS; ++s) {
        [[unroll]] for (uint q = 0u; q < NA; ++q) {
            uint v = t + q * WG;
            ra[s * NA + q] = a8[(m0 + v / (BK / 8u)) * lda + s * (BK / 8u) + v % (BK / 8u)];
        }
        [[unroll]] for (uint q = 0u; q < NB; ++q) {
            uint v = t + q * WG;
            rb[s * NB + q] = b8[(s * BK + v / (BN / 8u)) * ldb + n0 / 8u + v % (BN / 8u)];
        }
    }
    ACC acc[WM][WN];
    [[unroll]] for (uint i = 0u; i < WM; ++i)
        [[unroll]] for (uint j = 0u; j < WN; ++j) acc[i][j] = ACC_ZERO;
    [[unroll]] for (uint s = 0u; s < NS; ++s) {
        if (s > 0u) barrier();  // every subgroup's fragment loads of step s - 1 are done
        [[unroll]] for (uint q = 0u; q < NA; ++q) {
            uint v = t + q * WG;
            sm[(v / (BK / 8u)) * ASTR + v % (BK / 8u)] = ra[s * NA + q];
        }
        [[unroll]] for (uint q = 0u; q < NB; ++q) {
            uint v = t + q * WG;
            sm[ASZ + (v / (BN / 8u)) * BSTR + v % (BN / 8u)] = rb[s * NB + q];
        }
        barrier();
        // All of the group's fragments of this step first, then its MMAs: one shared-memory latency a step, not one
        // per k-step (an ablation on the H200 put 1.5 us of a 5.8 us n=512 call in the fragment loads and MMAs).
        FRAG fa[KPS][WM], fb[KPS][WN];
        [[unroll]] for (uint u = 0u; u < KPS; ++u) {
            uint kk = ks * KPS + u;
            [[unroll]] for (uint i = 0u; i < WM; ++i) LOAD_SM(fa[u][i], (sr + 16u * i) * ASTR + 2u * kk, ASTR);
            [[unroll]] for (uint j = 0u; j < WN; ++j) LOAD_SM(fb[u][j], ASZ + 16u * kk * BSTR + (sc + 16u * j) / 8u, BSTR);
        }
        [[unroll]] for (uint u = 0u; u < KPS; ++u)
            [[unroll]] for (uint j = 0u; j < WN; ++j)
                [[unroll]] for (uint i = 0u; i < WM; ++i) acc[i][j] = MMA(fa[u][i], fb[u][j], acc[i][j]);
    }
    if (SK > 1u) {  // the blocks go where the tiles were: a barrier first, for the last step's fragment loads
        barrier();
        if (ks > 0u)
            [[unroll]] for (uint i = 0u; i < WM; ++i)
                [[unroll]] for (uint j = 0u; j < WN; ++j)
                    STORE_RED(acc[i][j], ((ks - 1u) * BM * BN + (sr + 16u * i) * BN + sc + 16u * j) / 4u, BN / 4u);
        barrier();
        if (ks > 0u) return;
        for (uint g = 1u; g < SK; ++g)
            [[unroll]] for (uint i = 0u; i < WM; ++i)
                [[unroll]] for (uint j = 0u; j < WN; ++j) {
                    ACC t;
                    LOAD_RED(t, ((g - 1u) * BM * BN + (sr + 16u * i) * BN + sc + 16u * j) / 4u, BN / 4u);
                    acc[i][j] = ACC_ADD(acc[i][j], t);
                }
    }
    [[unroll]] for (uint i = 0u; i < WM; ++i)
        [[unroll]] for (uint j = 0u; j < WN; ++j) STORE_C(acc[i][j], (m0 + sr + 16u * i) * pc.n + n0 + sc + 16u * j, pc.n);
}
