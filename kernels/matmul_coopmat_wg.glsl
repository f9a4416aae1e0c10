// Matmul on workgroup-scope matrices (VK_NV_cooperative_matrix2, issue 16): the workgroup owns one BM x BN fp32
// accumulator and multiplies BM x BK by BK x BN fp16 tiles loaded straight from A and B; how the tiles are staged
// (shared memory, pipelining, the MMA instructions) is the driver's choice. glslang 12 compiles this as
// GL_NV_cooperative_matrix with workgroup scope, and harness/spvkhr.c rewrites it to SPV_KHR_cooperative_matrix
// when the module is loaded. The dimensions are spec constants, so A's and B's types stay distinct (the rewrite reads
// each type's Use from the MulAdd).
// A M x K, B K x N row-major fp16, C M x N fp32 row-major; whole tiles only (the host checks M % BM, N % BN,
// K % BK). Spec: 0 workgroup size (= the stub's N), 1 BM, 2 BN, 3 BK. Push pc.m, pc.n, pc.k. Grid (N / BN, M / BM).
// VKB_COOP_EMU (matmul_coopmat_wg_emu.comp): each invocation sums its elements of the block over K with scalar loops,
// so that lavapipe validates the addressing; VKB_WG_STAGED below has its own emulation.
#extension GL_EXT_control_flow_attributes : enable
#extension GL_EXT_shader_16bit_storage : require
#extension GL_EXT_shader_explicit_arithmetic_types_float16 : require
#ifndef VKB_COOP_EMU
#extension GL_KHR_memory_scope_semantics : require
#extension GL_NV_cooperative_matrix : require
#endif
// The workgroup size: stubs matmul_coopmat_wg_tN.comp compile N as the default of spec 0, and the host runs the one whose
// N is the size it specializes. NVIDIA's 580 driver lays workgroup-scope matrices out by the module's default: with
// the default 1 it died of SIGFPE, with 128 specialized to 256 it wrote past the end of C (a guard caught it).
#ifndef VKB_WG_DEFAULT
#define VKB_WG_DEFAULT 128
#endif
#include "common.glsl"
layout(constant_id = 1) const uint BM = 128u;
layout(constant_id = 2) const uint BN = 128u;
layout(constant_id = 3) const uint BK = 32u;

// VKB_WG_BT (stubs dense_wgs*, dense_f16's algo=wgs: y = x W^T): A = x (M tokens x K) at binding 1, B = W^T read from
// W (N x K row-major) at binding 0, i.e. B column-major: its tile is staged as BN rows of BK (as A's) and loaded
// column-major.
#ifdef VKB_WG_BT
#define WG_A_BINDING 1
#define WG_B_BINDING 0
#else
#define WG_A_BINDING 0
#define WG_B_BINDING 1
#endif
layout(binding = WG_A_BINDING) readonly buffer A { float16_t a[]; };
layout(binding = WG_B_BINDING) readonly buffer B { float16_t b[]; };
layout(binding = 2) writeonly buffer C { float c[]; };

#if defined(VKB_WG_STAGED)
// Staged (stubs matmul_coopmat_wg_sN.comp, emulated in matmul_coopmat_wg_s_emu.comp): the tiles go through shared memory
// by our own 16-byte loads, two buffers, one barrier a step, the next step's loads in registers during this step's
// MulAdd; the workgroup-scope matrices load from shared memory (rows padded by one uvec4, as matmul_coopmat.glsl).
// Whole uvec4 per invocation (the host checks).
// Loads AHEAD steps ahead (stubs _sNaA compile VKB_WG_AHEAD = A; the emulation takes it as spec 5): a ring of AHEAD
// register sets, step s in set s % AHEAD, the loop unrolled AHEAD times so that each set has a constant name; the last
// K / BK % AHEAD steps follow the whole rounds. Without VKB_WG_AHEAD the GPU stubs run the ring with one set.
// Split-K (spec 4 SPLIT = S, grid z = the slice): slice z takes K / S; with S > 1 each slice stores its block's partial
// sums in part[z][M][N], takes a ticket (splitk_fold.glsl), and the tile's last workgroup adds the slices in slice order
// 0, 1, .. (the same bits whichever arrives last) and stores C. Bindings 3 part (fp32, coherent), 4 the tickets.
#if defined(VKB_BDA) && defined(VKB_WG_BT)  // dense_wgs_*'s twins: dense_f16's buffers by address (dense_bufs.glsl)
#include "dense_bufs.glsl"
#define WG_A8 VB_X
#define WG_B8 VB_W
#define WG_C VB_Y
#define WG_PART VB_PART
#elif defined(VKB_BDA)  // matmul_coopmat_wg_s*'s twins: the matmul's buffers 0 A, 1 B, 2 C, 3 part by address (bda.glsl)
#include "bda.glsl"
VKB_REF(MmA8, readonly, uvec4, 16);
VKB_REF(MmB8, readonly, uvec4, 16);
VKB_REF(MmC, writeonly, float, 4);
VKB_REF(MmP, coherent, float, 4);
#define WG_A8 MmA8(VKB_ADDR(0u)).v
#define WG_B8 MmB8(VKB_ADDR(1u)).v
#define WG_C MmC(VKB_ADDR(2u)).v
#define WG_PART MmP(VKB_ADDR(3u)).v
#else
layout(binding = WG_A_BINDING) readonly buffer A8 { uvec4 a8[]; };
layout(binding = WG_B_BINDING) readonly buffer B8 { uvec4 b8[]; };
layout(binding = 3) coherent buffer Part { float part[]; };
#define WG_A8 a8
#define WG_B8 b8
#define WG_C c
#define WG_PART part
#endif
layout(constant_id = 4) const uint SPLIT = 1u;
#ifdef VKB_WG_AHEAD
const uint AHEAD = VKB_WG_AHEAD;
#elif defined(VKB_COOP_EMU)
layout(constant_id = 5) const uint AHEAD = 1u;  // the emulation's steps of loads in flight
#else
const uint AHEAD = 1u;  // stubs _sN: one set
#endif
#define FOLD_CNT_BINDING 4
#include "splitk_fold.glsl"
const uint WG = gl_WorkGroupSize.x;
const uint ASTR = BK / 8u + 1u, ASZ = BM * ASTR;
#ifdef VKB_WG_BT
const uint BSTR = BK / 8u + 1u, BSZ = BN * BSTR;  // BN rows of B^T
// B's uvec4 x of the step at K offset kr (global) and in the staged tile: row x / (BK / 8) of W from col0
#define WG_B_AT(x, kr) (((col0 + (x) / (BK / 8u)) * kq + (kr) / 8u + (x) % (BK / 8u)))
#define WG_B_SM(x) ((x) / (BK / 8u) * BSTR + (x) % (BK / 8u))
#define WG_B_COLMAJOR true
#define WG_B_HALF(base, kk, q) wg_half((base) + (q) * BSTR, kk)
#else
const uint BSTR = BN / 8u + 1u, BSZ = BK * BSTR;
#define WG_B_AT(x, kr) ((((kr) + (x) / (BN / 8u)) * nq + col0 / 8u + (x) % (BN / 8u)))
#define WG_B_SM(x) ((x) / (BN / 8u) * BSTR + (x) % (BN / 8u))
#define WG_B_COLMAJOR false
#define WG_B_HALF(base, kk, q) wg_half((base) + (kk) * BSTR, q)
#endif
const uint NA = BM * BK / 8u / WG, NB = BK * BN / 8u / WG;
// BUFS (spec 6): 2 shared buffers (one barrier a step), or 1 (a barrier before each stash as well), which leaves room
// for deeper tiles (128x256 at chunk 32).
layout(constant_id = 6) const uint BUFS = 2u;
// GROUP (spec 7): the order in which the grid's workgroups take the output tiles. Workgroups start in the order of
// their linear id (x fastest), so by default a wave of them covers a few block-rows across all of N and streams
// the whole of B through L2 for each such band. GROUP > 1 walks GROUP block-rows down M before moving right along N
// (the last band takes the rows that are left), so that a wave shares fewer, more reused panels of A and B. On an
// H200 (tests/gpu/sweep_s38a.txt) it moved nothing beyond noise: _l at 4096 took 521-526 us at group 2..32 against
// 525-533 at 1, _xl at 8192 4091-4181 against 4099: L2 and DRAM traffic are not what holds these tiles back.
layout(constant_id = 7) const uint GROUP = 1u;
uvec2 wg_tile()
{
    if (GROUP <= 1u) return gl_WorkGroupID.xy;
    const uint gx = gl_NumWorkGroups.x, id = gl_WorkGroupID.y * gx + gl_WorkGroupID.x, band = id / (GROUP * gx);
    const uint first = band * GROUP, rows = min(GROUP, gl_NumWorkGroups.y - first), r = id - band * GROUP * gx;
    return uvec2(r / rows, first + r % rows);
}
shared uvec4 sm[BUFS * (ASZ + BSZ)];
#ifndef VKB_COOP_EMU
#define WG_ACC_ZERO fcoopmatNV<32, gl_ScopeWorkgroup, BM, BN> acc = fcoopmatNV<32, gl_ScopeWorkgroup, BM, BN>(0.0)
#define WG_STEP(base) do { fcoopmatNV<16, gl_ScopeWorkgroup, BM, BK> ta; fcoopmatNV<16, gl_ScopeWorkgroup, BK, BN> tb; \
    coopMatLoadNV(ta, sm, base, ASTR, false); coopMatLoadNV(tb, sm, base + ASZ, BSTR, WG_B_COLMAJOR); \
    acc = coopMatMulAddNV(ta, tb, acc); } while (false)
#define WG_STORE coopMatStoreNV(acc, WG_C, row0 * pc.n + col0, pc.n, false)
#define WG_STORE_PART(z) coopMatStoreNV(acc, WG_PART, ((z) * pc.m + row0) * pc.n + col0, pc.n, false)
#define WG_FOLD do { coopMatLoadNV(acc, WG_PART, row0 * pc.n + col0, pc.n, false); \
    [[dont_unroll]] for (uint z = 1u; z < SPLIT; z++) { fcoopmatNV<32, gl_ScopeWorkgroup, BM, BN> p_; \
        coopMatLoadNV(p_, WG_PART, (z * pc.m + row0) * pc.n + col0, pc.n, false); acc = acc + p_; } } while (false)
#else
// The emulation (matmul_coopmat_wg_s_emu.comp): each invocation owns BM x BN / WG elements of the block (strided by
// WG) and sums them from the shared tiles, fp32 in k order; loops not unrolled, so that llvmpipe compiles it quickly.
const uint PER = BM * BN / WG;
float wg_half(uint at, uint h) { const uvec4 v = sm[at + h / 8u]; return unpackHalf2x16(v[(h % 8u) / 2u])[h % 2u]; }
#define WG_ACC_ZERO float acc[PER]; [[dont_unroll]] for (uint e = 0u; e < PER; e++) acc[e] = 0.0
#define WG_STEP(base) [[dont_unroll]] for (uint e = 0u; e < PER; e++) { const uint x = t + e * WG, r = x / BN, q = x % BN; \
    float z = acc[e]; [[dont_unroll]] for (uint kk = 0u; kk < BK; kk++) \
        z += wg_half(base + r * ASTR, kk) * WG_B_HALF(base + ASZ, kk, q); acc[e] = z; }
#define WG_STORE [[dont_unroll]] for (uint e = 0u; e < PER; e++) { const uint x = t + e * WG; \
    WG_C[(row0 + x / BN) * pc.n + col0 + x % BN] = acc[e]; }
#define WG_STORE_PART(z) [[dont_unroll]] for (uint e = 0u; e < PER; e++) { const uint x = t + e * WG; \
    WG_PART[((z) * pc.m + row0 + x / BN) * pc.n + col0 + x % BN] = acc[e]; }
#define WG_FOLD [[dont_unroll]] for (uint e = 0u; e < PER; e++) { const uint x = t + e * WG; \
    const uint at = (row0 + x / BN) * pc.n + col0 + x % BN; float z_ = WG_PART[at]; \
    [[dont_unroll]] for (uint z = 1u; z < SPLIT; z++) z_ += WG_PART[z * pc.m * pc.n + at]; acc[e] = z_; }
#endif
void main()
{
    const uvec2 tile = wg_tile();
    const uint row0 = tile.y * BM, col0 = tile.x * BN, t = gl_LocalInvocationID.x;
    const uint kq = pc.k / 8u, nq = pc.n / 8u, ns = pc.k / SPLIT / BK, k0 = gl_WorkGroupID.z * ns * BK;
    // Step st's loads into register set u of the ring.
#define WG_LOADS(u, st) {                                                                                      \
        const uint kr = k0 + (st) * BK;                                                                      \
        [[unroll]] for (uint i = 0u; i < NA; i++) {                                                          \
            const uint x = t + i * WG;                                                                       \
            ra[u][i] = WG_A8[(row0 + x / (BK / 8u)) * kq + kr / 8u + x % (BK / 8u)];                            \
        }                                                                                                    \
        [[unroll]] for (uint i = 0u; i < NB; i++) {                                                          \
            const uint x = t + i * WG;                                                                       \
            rb[u][i] = WG_B8[WG_B_AT(x, kr)];                                                                   \
        }                                                                                                    \
    }
    // Step s from register set u: into shared buffer s % 2, a barrier, step s + AHEAD's loads into the set, the MulAdd.
#define WG_RING_STEP(u, s) {                                                                                   \
        const uint base = BUFS == 2u ? ((s) & 1u) * (ASZ + BSZ) : 0u;                                        \
        if (BUFS == 1u) barrier();                                                                           \
        [[unroll]] for (uint i = 0u; i < NA; i++) {                                                          \
            const uint x = t + i * WG;                                                                       \
            sm[base + (x / (BK / 8u)) * ASTR + x % (BK / 8u)] = ra[u][i];                                    \
        }                                                                                                    \
        [[unroll]] for (uint i = 0u; i < NB; i++) {                                                          \
            const uint x = t + i * WG;                                                                       \
            sm[base + ASZ + WG_B_SM(x)] = rb[u][i];                                                          \
        }                                                                                                    \
        barrier();                                                                                           \
        if ((s) + AHEAD < ns) WG_LOADS(u, (s) + AHEAD)                                                       \
        WG_STEP(base);                                                                                       \
    }
    uvec4 ra[AHEAD][NA], rb[AHEAD][NB];
    [[unroll]] for (uint u = 0u; u < AHEAD; u++)
        if (u < ns) WG_LOADS(u, u)
    WG_ACC_ZERO;
    // Whole rounds of AHEAD steps with no guard around the barrier; then the last ns % AHEAD steps (uniform guards).
    uint s0 = 0u;
    [[dont_unroll]] for (; s0 + AHEAD <= ns; s0 += AHEAD)
        [[unroll]] for (uint u = 0u; u < AHEAD; u++) WG_RING_STEP(u, s0 + u)
    [[unroll]] for (uint u = 0u; u + 1u < AHEAD; u++)
        if (s0 + u < ns) WG_RING_STEP(u, s0 + u)
    if (SPLIT == 1u) {
        WG_STORE;
    } else {
        WG_STORE_PART(gl_WorkGroupID.z);
        if (fold_arrive(tile.y * gl_NumWorkGroups.x + tile.x, SPLIT)) {
            WG_FOLD;
            WG_STORE;
        }
    }
}
#elif !defined(VKB_COOP_EMU)
#ifdef VKB_WG_TENSOR
// Stubs matmul_coopmat_wg_xN.comp: this name tells harness/spvkhr.c to turn the loads below into tensor-addressed ones
// (SPV_NV_tensor_addressing: the form llama.cpp's coopmat2 GEMM uses), which glslang 12 cannot write.
layout(constant_id = 15) const uint vkb_tensor_loads = 1u;
#endif
void main()
{
    const uint row0 = gl_WorkGroupID.y * BM, col0 = gl_WorkGroupID.x * BN;
    fcoopmatNV<32, gl_ScopeWorkgroup, BM, BN> acc = fcoopmatNV<32, gl_ScopeWorkgroup, BM, BN>(0.0);
    [[dont_unroll]] for (uint k0 = 0u; k0 < pc.k; k0 += BK) {
        fcoopmatNV<16, gl_ScopeWorkgroup, BM, BK> ta;
        fcoopmatNV<16, gl_ScopeWorkgroup, BK, BN> tb;
        coopMatLoadNV(ta, a, row0 * pc.k + k0, pc.k, false);
        coopMatLoadNV(tb, b, k0 * pc.n + col0, pc.n, false);
        acc = coopMatMulAddNV(ta, tb, acc);
    }
    coopMatStoreNV(acc, c, row0 * pc.n + col0, pc.n, false);
}
#else
// Each invocation owns BM x BN / WG elements of the block (strided by WG) and sums each over K in BK-deep tiles, fp32
// products of fp16 in k order: the addressing of the tiles, not their staging (which is the driver's). No arrays, no
// unrolled loops: llvmpipe compiles it in a second.
void main()
{
    const uint row0 = gl_WorkGroupID.y * BM, col0 = gl_WorkGroupID.x * BN, wg = gl_WorkGroupSize.x;
    for (uint idx = gl_LocalInvocationID.x; idx < BM * BN; idx += wg) {
        const uint r = idx / BN, q = idx % BN;
        float acc = 0.0;
        for (uint k0 = 0u; k0 < pc.k; k0 += BK)
            for (uint kk = 0u; kk < BK; kk++)
                acc += float(a[(row0 + r) * pc.k + k0 + kk]) * float(b[(k0 + kk) * pc.n + col0 + q]);
        c[(row0 + r) * pc.n + col0 + q] = acc;
    }
}
#endif
