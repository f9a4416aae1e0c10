// Matmul on matrix units for small sizes (issue 16: n = 256 .. 1024, where coopmat_64's 64 workgroups of 32
// barrier-separated 16-deep steps leave half an H200 idle and every step waits on global -> shared -> fragments).
// GL_NV_cooperative_matrix 16x16x16 fp16 x fp16 -> fp32 at subgroup scope; A M x K, B K x N row-major fp16, C
// M x N fp32 row-major, as matmul_coopmat.glsl.
// - No shared-memory staging and no barrier in the K loop: every fragment is loaded by coopMatLoadNV straight
//   from A and B (L2-resident at these sizes: 512^2 fp16 is 0.5 MB per operand), so subgroups never wait on
//   each other.
// - Chunks of UK 16-deep steps (spec 3): a chunk's UK x (WM + WN) fragments are all loaded before its
//   UK x WM x WN MMAs, and the next chunk's loads are issued before the current chunk's MMAs (two named
//   register sets, two chunks per loop trip), so a chunk of loads is always in flight behind the math.
// - Split-K inside the workgroup (spec 6, SK): SK groups of SM x SN subgroups; group s computes the whole
//   BM x BN block over K slice [s K / SK, (s + 1) K / SK). The slices are then summed by a fixed pairwise
//   tree through shared memory: in round h = 1, 2, 4, .. group s with s % 2h == h stores its fp32
//   accumulators, a barrier, group s - h adds them to its own, a barrier; group 0 stores C. The order of
//   the adds is fixed by SK alone, so the result is deterministic (same bits every run); each element is
//   still an fp32 sum of its K products in some order, so matmul.c's bound 2 K u32 (|A||B|)_ij holds as
//   is. floor(SK / 2) block-sized slots of shared memory (64x64 blocks take split 4 in 32 KiB). More
//   workgroups' worth of subgroups (tiles x SK) fill the GPU without a second dispatch (~2 us).
// Spec: 0 workgroup size = subgroup size x SM x SN x SK, 1 BM, 2 BN, 3 UK, 4 SM, 5 SN, 6 SK. Push pc.m, pc.n,
// pc.k. Grid (N / BN, M / BM). Whole tiles only (the host checks): M % BM == 0, N % BN == 0, K % (16 UK SK)
// == 0, so there is no bounds code at all; other sizes take another variant. Stubs
// matmul_coopmat_s[_emu]_wIxJ.comp fix the per-subgroup accumulator grid WM x WN = I x J (BM = 16 I SM,
// BN = 16 J SN); the _emu build maps the matrix operations to matmul_coopmat_s_emu.glsl so that lavapipe
// validates this file's addressing and reduction.
#extension GL_EXT_control_flow_attributes : enable
#extension GL_EXT_shader_16bit_storage : require
#extension GL_EXT_shader_explicit_arithmetic_types_float16 : require
#extension GL_KHR_shader_subgroup_basic : require
#include "common.glsl"
layout(constant_id = 1) const uint BM = 32u;
layout(constant_id = 2) const uint BN = 32u;
layout(constant_id = 3) const uint UK = 4u;
layout(constant_id = 4) const uint SM = 1u;
layout(constant_id = 5) const uint SN = 1u;
layout(constant_id = 6) const uint SK = 4u;

layout(binding = 0) readonly buffer A8 { uvec4 a8[]; };
layout(binding = 1) readonly buffer B8 { uvec4 b8[]; };
layout(binding = 2) writeonly buffer C1 { float c1[]; };

const uint WM = MM_WM, WN = MM_WN;
const uint NFA = UK * WM, NFB = UK * WN;           // fragments per chunk
shared float red[(SK / 2u + (SK < 2u ? 1u : 0u)) * BM * BN];  // the tree's slots: fp32 blocks, row-major BM x BN

#ifdef VKB_COOP_EMU
#include "matmul_coopmat_s_emu.glsl"
#else
#define FRAG fcoopmatNV<16, gl_ScopeSubgroup, 16, 16>
#define ACC fcoopmatNV<32, gl_ScopeSubgroup, 16, 16>
#define ACC_ZERO ACC(0.0)
#define LOAD_GA(f, elem, stride) coopMatLoadNV(f, a8, elem, stride, false)
#define LOAD_GB(f, elem, stride) coopMatLoadNV(f, b8, elem, stride, false)
#define MMA(a, b, c) coopMatMulAddNV(a, b, c)
#define ACC_ADD(a, b) ((a) + (b))
#define STORE_C(acc, elem, stride) coopMatStoreNV(acc, c1, elem, stride, false)
#define STORE_RED(acc, elem, stride) coopMatStoreNV(acc, red, elem, stride, false)
#define LOAD_RED(acc, elem, stride) coopMatLoadNV(acc, red, elem, stride, false)
#endif

// Chunk ch of this subgroup's K slice into (FA, FB): fragment (u, i) of A = rows m0 + sr + 16 i, columns
// k + 16 u; fragment (u, j) of B = rows k + 16 u, columns n0 + sc + 16 j. Elements and strides in uvec4.
#define LOAD_CHUNK(FA, FB, ch) {                                                                  \
        uint k_ = kb + (ch) * 16u * UK;                                                           \
        [[unroll]] for (uint u = 0u; u < UK; ++u) {                                               \
            [[unroll]] for (uint i = 0u; i < WM; ++i)                                             \
                LOAD_GA(FA[u * WM + i], ((m0 + sr + 16u * i) * pc.k + k_ + 16u * u) / 8u, pc.k / 8u); \
            [[unroll]] for (uint j = 0u; j < WN; ++j)                                             \
                LOAD_GB(FB[u * WN + j], ((k_ + 16u * u) * pc.n + n0 + sc + 16u * j) / 8u, pc.n / 8u); \
        }                                                                                         \
    }
#define MATH(FA, FB) {                                                                            \
        [[unroll]] for (uint u = 0u; u < UK; ++u)                                                 \
            [[unroll]] for (uint i = 0u; i < WM; ++i)                                             \
                [[unroll]] for (uint j = 0u; j < WN; ++j)                                         \
                    acc[i][j] = MMA(FA[u * WM + i], FB[u * WN + j], acc[i][j]);                   \
    }

void main() {
    uint m0 = vkb_slow(gl_WorkGroupID.y * BM, 0u), n0 = gl_WorkGroupID.x * BN;  // vkb_slow: gate self-test ALU work
    uint sg = gl_SubgroupID, ks = sg / (SM * SN), sp = sg % (SM * SN);
    uint sr = (sp / SN) * WM * 16u, sc = (sp % SN) * WN * 16u;  // subgroup's corner in the block
    uint kper = pc.k / SK, kb = ks * kper, nch = kper / (16u * UK);
    ACC acc[WM][WN];
    [[unroll]] for (uint i = 0u; i < WM; ++i)
        [[unroll]] for (uint j = 0u; j < WN; ++j) acc[i][j] = ACC_ZERO;
    FRAG fa0[NFA], fb0[NFB], fa1[NFA], fb1[NFB];
    LOAD_CHUNK(fa0, fb0, 0u)
    for (uint ch = 0u; ch < nch; ch += 2u) {  // set 0 holds even chunks, set 1 odd ones
        if (ch + 1u < nch) LOAD_CHUNK(fa1, fb1, ch + 1u)
        MATH(fa0, fb0)
        if (ch + 1u < nch) {
            if (ch + 2u < nch) LOAD_CHUNK(fa0, fb0, ch + 2u)
            MATH(fa1, fb1)
        }
    }
    for (uint h = 1u; h < SK; h *= 2u) {  // uniform: every invocation meets both barriers of every round
        uint slot = (ks / (2u * h)) * BM * BN;
        if (ks % (2u * h) == h)
            [[unroll]] for (uint i = 0u; i < WM; ++i)
                [[unroll]] for (uint j = 0u; j < WN; ++j)
                    STORE_RED(acc[i][j], slot + (sr + 16u * i) * BN + sc + 16u * j, BN);
        barrier();
        if (ks % (2u * h) == 0u && ks + h < SK)
            [[unroll]] for (uint i = 0u; i < WM; ++i)
                [[unroll]] for (uint j = 0u; j < WN; ++j) {
                    ACC t;
                    LOAD_RED(t, slot + (sr + 16u * i) * BN + sc + 16u * j, BN);
                    acc[i][j] = ACC_ADD(acc[i][j], t);
                }
        barrier();
    }
    if (ks > 0u) return;
    [[unroll]] for (uint i = 0u; i < WM; ++i)
        [[unroll]] for (uint j = 0u; j < WN; ++j)
            STORE_C(acc[i][j], (m0 + sr + 16u * i) * pc.n + n0 + sc + 16u * j, pc.n);
}
