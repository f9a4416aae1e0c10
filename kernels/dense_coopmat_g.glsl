// Dense fp16-weight baseline at batch 8 .. 64 on matrix units (GL_NV_cooperative_matrix, 16x16x16 fp16 x fp16
// -> fp32 at subgroup scope, or 16x8x16 with LN = 8 tokens per fragment: DG_LN below), every fragment loaded straight from global memory: no shared-memory staging of W,
// no barrier in the K loop. y^T (N x M) = W (N x K) . x^T (K x M): W row-major is exactly a row-major A matrix
// (16 rows x 32 bytes per fragment), x row-major M x K is x^T column-major, loaded as B fragments (L1/L2: every
// subgroup of a workgroup reads the same x at about the same time). Subgroups are independent: each owns WN row
// fragments (16 WN rows of W) x MT token fragments over one K slice (split-K: grid y); the workgroup (SGS
// subgroups, BN = 16 WN SGS / (TS SK) rows) only shares x in L1 and a tile of grid. One loop iteration loads UK = 4
// consecutive 16-deep fragments per row block before any MMA: 16 rows x 128 bytes, whole cache lines, and
// 4 WN x 512 bytes of W in flight per subgroup, independent of the other subgroups (no barrier to wait on).
// Padding (host): W has N16 = N rounded up to 16 rows and x LN MT TS ceil(M / (LN MT TS)) rows, both with Kp16 =
// K rounded up to 16 columns, zeros in the padding, so every fragment is in bounds and adds zeros; a row block
// wholly past N16 (the workgroup's last tile) reads block 0 instead and its results are never stored.
// Output as dense_coopmat.glsl: each 16 x LN accumulator through the subgroup's own 1 KiB of shared memory
// (column-major; with SK > 1 or MT > 1 all tiles at once, then summed over the parts, below), then written with bounds checks as 16 consecutive rows of one token: into y when
// pc.p2 == 1, else part[slice][M][N], summed in slice order by dense_splitk.comp or (FOLD) in this kernel.
// Buffers: 0 W (fp16, N16 x Kp16), 1 x (fp16, Mp x Kp16), 2 y (fp32 M x N), 3 part (fp32 p2 x M x N; one
// element when p2 == 1), 4 the tickets of FOLD (uint, one per tile of the grid, zero between calls). Push: n = N, m = M, p0 = Kp16 / 8 (uvec4 per row, even), p1 = uvec4 per K slice
// (a multiple of 8 = one iteration), p2 = slices, p3 = N16. Grid (ceil(N/BN) x Mp / (LN MT TS), p2, 1): row block
// x / (Mp / (LN MT TS)), token block x % (Mp / (LN MT TS)); BN = 16 WN SGS / (TS SK).
// Spec: 0 workgroup size = subgroup size x SGS, 1 SGS, 2 PANEL, 3 FOLD (split-K summed in the kernel), 4 TS (token sets),
// 5 SK (K parts within the workgroup: BN = 16 WN SGS / (TS SK)), 6 XC (x read past L1), 7 UB (blocks of 4 K steps an
// iteration). WN and MT are compiled in by the stubs dense_coopmat_g_wIxJ.comp (I = WN, J = MT) so that every fragment
// array has a constant size (the form that keeps matmul's accumulators out of dynamically indexed memory).
// dense_coopmat_g_emu_wIxJ.comp emulate the matrix operations with the same semantics on any device (lavapipe validates
// this file's indexing).
#extension GL_EXT_control_flow_attributes : enable
#extension GL_EXT_shader_16bit_storage : require
#extension GL_EXT_shader_explicit_arithmetic_types_float16 : require
#extension GL_KHR_shader_subgroup_basic : require
#include "common.glsl"
layout(constant_id = 1) const uint SGS = 4u;
// W's layout: 0 rows; 1 16-row panels of 32-byte chunks (WF below); 2 (lay=frag) those panels with each 512-byte
// fragment in the order its invocations hold a 16x16 fp16 A matrix (reference/bitnet_linear.c frag_slot): invocation
// l's 8 halves are uvec4 l of the fragment, so one 16-byte load an invocation fills the fragment from registers (4
// 4-byte loads of 8 rows each through coopMatLoadNV otherwise). Subgroups of 32 only (the host checks). 3 (lay=fragx):
// lay=frag with K permuted in 64-column blocks (reference/bitnet_linear.c fragx_col), so that x's B fragments for one
// iteration's 4 steps come in as MT LN / 4 16-byte loads an invocation (LOAD_XS) instead of coopMatLoadNV's 2-byte
// elements; Kp16 is then a multiple of 64 (the host pads), so the tail loop below never runs.
layout(constant_id = 2) const uint PANEL = 0u;
#ifndef DG_LN
#define DG_LN 16u
#endif
const uint WN = DG_WN, MT = DG_MT, UK = 4u, LN = DG_LN;  // LN: tokens per fragment (16, or 8 where m <= 8: 16x8x16 MMAs)

#include "dense_bufs.glsl"  // XC: x again, read past L1 (below); Y4, PART4: FOLD's sums where N % 4 == 0, 4 rows at a time
layout(constant_id = 3) const uint FOLD = 0u;  // 1: the last workgroup of a tile sums the slices (splitk_fold.glsl);
// 2: the same where N % 4 == 0, 4 rows at a time (one path compiled: less code for a cold dispatch to fetch)
layout(constant_id = 4) const uint TS = 1u;    // token sets: TS subgroups of a workgroup share each row block (SGS % TS == 0)
layout(constant_id = 5) const uint SK = 1u;    // K parts: SK subgroups of a workgroup split each tile's K slice (below)
layout(constant_id = 6) const uint XC = 0u;    // 1: x read through a coherent view (device-scope coherence, which a
// non-coherent L1 cannot serve: the aim is L2), so that x, re-read from L2 by every row tile, does not evict the W lines a
// workgroup's other token set is about to read from L1. On an H200 at m=32 (two token sets, K parts, 32-row subgroups)
// that took 8-10% off 13824x2560 and 6144x4096, 5% off 20480x3200, and 0-5% off m=16; it cost 1-6% on 28672x4096,
// 2560x6912 and 4096x14336 (tests/gpu/sweep_s31b.txt), but took 6% off 28672x4096 in 64-row subgroups (sweep_s31c.txt).
// W through such a view instead, or both, lost.
#define XLD(i) (XC != 0u ? VB_XC[i] : VB_X[i])
layout(constant_id = 7) const uint UB = 1u;    // blocks of UK steps an iteration (KLOOP below): W's fragments of 4 UB steps in
// flight before the first MMA. On an H200 (session 34, m=32, tests/gpu/sweep_s34a.txt) UB = 2 took 28672x4096's 64-row
// subgroups from 77.8 to 69.4 us rotate (79.0 to 72.3 cold): a subgroup there streams 256 KiB of W a K part in 32
// iterations at UB = 1, and their round trips, not the bandwidth, set its time.
const uint SR = SGS / SK;                      // subgroups per K part (SGS % (TS SK) == 0)
#define FOLD_CNT_BINDING 4
#include "splitk_fold.glsl"
// The output's staging: one 16 x LN fp32 tile (1 KiB slot) per subgroup; with SK > 1 or MT > 1 all of its WN x MT tiles
// at once. Why MT > 1 too: staged a tile at a time (a subgroup barrier and a loop inside the tile loops), NVIDIA's 580
// driver indexed acc dynamically and kept all of it in local memory (128 B at WN = 2, 256 at 4: the pipeline
// statistics), and mt=2 took 1.5-3x mt=1's time; staged at once, no local memory (tests/gpu/sweep_s26b.txt).
shared uvec4 sm[(SK > 1u || MT > 1u ? SGS * WN * MT : SGS) * 64u];

#ifdef VKB_COOP_EMU
// Emulated (kernels/dense_coop_emu.glsl): a fragment is a handle into W (row-major) or x (column-major), read by the
// MMA. K = 6912 at split 1 stays below lavapipe's loop limit there.
#define EMU_LN DG_LN
#include "dense_coop_emu.glsl"
// lay=frag: the invocation and the component that hold W's element (r, c) of a fragment (reference/bitnet_linear.c
// frag_slot); tests/kernels/dense_coopmat_g_emu_fragswap.comp names another order, which the checks must catch.
#ifndef DG_FRAG_LANE
#define DG_FRAG_LANE(r, c) VKB_FRAG_LANE(r, c)
#define DG_FRAG_COMP(r, c) VKB_FRAG_COMP(r, c)
#endif
// lay=fragx: the uvec4 of a 64-column block and the half of its step's word that hold K row r of a step (fragx_col);
// tests/kernels/dense_coopmat_g_emu_fragxswap.comp names the unpermuted pairing, which the checks must catch.
#ifndef DG_FRAGX_VEC
#define DG_FRAGX_VEC(r) ((r) % 8u)
#define DG_FRAGX_HALF(r) ((r) / 8u)
#endif
float emu_h(FragEmu f, uint r, uint c) {
    if (f.col && PANEL == 3u)  // lay=fragx: step u = (elem % 8) / 2 of the block at elem - elem % 8 (rows start there)
        return unpackHalf2x16(XLD(f.elem - f.elem % 8u + c * f.stride + DG_FRAGX_VEC(r))[(f.elem % 8u) / 2u])[DG_FRAGX_HALF(r)];
    if (f.col) return unpackHalf2x16(XLD(f.elem + c * f.stride + r / 8u)[(r % 8u) / 2u])[r % 2u];
    if (f.stride == 0u) {  // lay=frag: component i of invocation l (frag_slot's order)
        const uint l = DG_FRAG_LANE(r, c), i = DG_FRAG_COMP(r, c);
        return unpackHalf2x16(VB_W[f.elem + l][i / 2u])[i % 2u];
    }
    return unpackHalf2x16(VB_W[f.elem + r * f.stride + c / 8u][(c % 8u) / 2u])[c % 2u];
}
#define LOAD_W(f, elem, stride) f = FragEmu(elem, stride, false)
#define LOAD_X(f, elem, stride) f = FragEmu(elem, stride, true)
#define LOAD_XS(fb, c) [[unroll]] for (uint u_ = 0u; u_ < UK; ++u_)                                       \
        [[unroll]] for (uint j_ = 0u; j_ < MT; ++j_) LOAD_X(fb[u_][j_], xb[j_] + (c) + 2u * u_, ld)
#else
#define FRAG fcoopmatNV<16, gl_ScopeSubgroup, 16, 16>
#define FRAGB fcoopmatNV<16, gl_ScopeSubgroup, 16, LN>
#define ACC fcoopmatNV<32, gl_ScopeSubgroup, 16, LN>
#define ACC_ZERO ACC(0.0)
// lay=frag: the invocation's uvec4 of the fragment holds its 8 components in order.
#define LOAD_W(f, elem, stride) if (PANEL >= 2u) {                                                            \
        const uvec4 v_ = VB_W[(elem) + gl_SubgroupInvocationID];                                              \
        VKB_FRAG_FILL(f, v_)                                                                               \
    } else coopMatLoadNV(f, VB_W, elem, stride, false)
#define LOAD_X(f, elem, stride) if (XC != 0u) coopMatLoadNV(f, VB_XC, elem, stride, true); else coopMatLoadNV(f, VB_X, elem, stride, true)
// One iteration's B fragments fb[UK][MT] from uvec4 column c (a multiple of 8). lay=fragx: invocation 4 q + t holds
// K rows q (low halves) and q + 8 (high) of tokens 2 t + h % 2 + 8 (h / 2), h < LN / 4 (cl_want's B order), and the
// permutation puts row q of step u at half 2 u of x's uvec4 q, row q + 8 at half 2 u + 1: component u of one load.
#define LOAD_XS(fb, c) if (PANEL == 3u) {                                                                  \
        uvec4 xv_[MT][LN / 4u];                                                                            \
        [[unroll]] for (uint j_ = 0u; j_ < MT; ++j_)                                                       \
            [[unroll]] for (uint h_ = 0u; h_ < LN / 4u; ++h_) xv_[j_][h_] = XLD(xb[j_] + xt[h_] + (c));    \
        [[unroll]] for (uint u_ = 0u; u_ < UK; ++u_)                                                       \
            [[unroll]] for (uint j_ = 0u; j_ < MT; ++j_)                                                   \
                [[unroll]] for (uint h_ = 0u; h_ < LN / 4u; ++h_) {                                        \
                    const f16vec2 p_ = unpackFloat2x16(xv_[j_][h_][u_]);                                   \
                    fb[u_][j_][h_] = p_.x;                                                                 \
                    fb[u_][j_][h_ + LN / 4u] = p_.y;                                                       \
                }                                                                                          \
    } else [[unroll]] for (uint u_ = 0u; u_ < UK; ++u_)                                                    \
        [[unroll]] for (uint j_ = 0u; j_ < MT; ++j_) LOAD_X(fb[u_][j_], xb[j_] + (c) + 2u * u_, ld)
#define MMA(a, b, c) coopMatMulAddNV(a, b, c)
#define STORE_COL(acc, elem) coopMatStoreNV(acc, sm, elem, 4u, true)
#endif

void main() {
    // Grid x = row block x token block, token block fastest: the workgroups that read the same rows of W for different
    // tokens are launched side by side, so all but the first find W in L2 (m > LN MT: grid z used to hold the token
    // blocks, and each re-read W from memory after all row blocks of the one before).
    // TS > 1: subgroups sg and sg + 1 .. of one workgroup load the same W fragments for different token blocks, at the
    // same time, from the same L1. A workgroup covers BN = 16 WN SGS / (TS SK) rows and TS LN MT tokens.
    // SK > 1: subgroup sg takes part ks = sg / SR of the slice's K range (whole 64-deep iterations) for the tile of
    // sr = sg % SR; the SK partial tiles are summed in shared memory in part order at the end (in-kernel split-K: no
    // second dispatch, no partial sums through L2).
    uint sg = gl_SubgroupID, ks = sg / SR, sr = sg % SR;
    uint bn = 16u * WN * (SR / TS), tw = LN * MT * TS;
    uint gz = (pc.m + tw - 1u) / tw, wx = gl_WorkGroupID.x / gz, tb = gl_WorkGroupID.x % gz;
    uint n0 = wx * bn + (sr / TS) * 16u * WN, t0 = tb * tw + (sr % TS) * LN * MT;
    uint slice = gl_WorkGroupID.y, q8 = (pc.p1 / 8u + SK - 1u) / SK * 8u, ld = pc.p0;
    uint c0 = min(pc.p0, slice * pc.p1 + ks * q8), cend = min(min(pc.p0, slice * pc.p1 + pc.p1), c0 + q8);
    uint wb[WN], xb[MT];  // first uvec4 of each row block / token block
    [[unroll]] for (uint i = 0u; i < WN; ++i) {
        uint r = n0 + 16u * i;
        wb[i] = (r < pc.p3 ? r : 0u) * ld;  // panels: the block's panel starts there too (16 rows x ld uvec4)
    }
    // The fragment of row block i at uvec4 column cc (even) and its row stride: rows, or (PANEL) the 512 contiguous
    // bytes of chunk cc / 2 of the block's panel (reference/bitnet_linear.c panel_row, 32-byte chunks; frag_row).
    uint wstr = PANEL == 1u ? 2u : PANEL >= 2u ? 0u : ld;  // 0: lay=frag, fragx (LOAD_W)
#define WF(i, cc) (PANEL != 0u ? wb[i] + (cc) * 16u : wb[i] + (cc))
    [[unroll]] for (uint j = 0u; j < MT; ++j) xb[j] = (t0 + LN * j) * ld;
    uint xt[LN / 4u];  // lay=fragx: this invocation's tokens' rows of x (LOAD_XS), and its uvec4 of each 64-column block
    [[unroll]] for (uint h = 0u; h < LN / 4u; ++h)
        xt[h] = (2u * (gl_SubgroupInvocationID % 4u) + h % 2u + 8u * (h / 2u)) * ld + gl_SubgroupInvocationID / 4u;
    ACC acc[WN][MT];
    [[unroll]] for (uint i = 0u; i < WN; ++i)
        [[unroll]] for (uint j = 0u; j < MT; ++j) acc[i][j] = ACC_ZERO;
    uint c = c0;
    // NB blocks of UK steps an iteration: W's fragments of UK NB steps and x's of NB 64-column blocks (8 uvec4 each) all
    // loaded before the first MMA. UB blocks, then (UB > 1) one at a time for what is left of the slice.
#define KLOOP(NB) for (; c + 2u * UK * (NB) <= cend; c += 2u * UK * (NB)) {                                  \
        FRAG fa[NB][UK][WN];                                                                                 \
        FRAGB fb[NB][UK][MT];                                                                                \
        [[unroll]] for (uint b = 0u; b < (NB); ++b)                                                          \
            [[unroll]] for (uint u = 0u; u < UK; ++u)                                                        \
                [[unroll]] for (uint i = 0u; i < WN; ++i) LOAD_W(fa[b][u][i], WF(i, c + 8u * b + 2u * u), wstr); \
        [[unroll]] for (uint b = 0u; b < (NB); ++b) LOAD_XS(fb[b], c + 8u * b);                              \
        [[unroll]] for (uint b = 0u; b < (NB); ++b)                                                          \
            [[unroll]] for (uint u = 0u; u < UK; ++u)                                                        \
                [[unroll]] for (uint i = 0u; i < WN; ++i)                                                    \
                    [[unroll]] for (uint j = 0u; j < MT; ++j) acc[i][j] = MMA(fa[b][u][i], fb[b][u][j], acc[i][j]); \
    }
    KLOOP(UB)
    if (UB > 1u) KLOOP(1u)
    for (; c < cend; c += 2u) {  // the last slice's tail: K steps of 16 (p0 is even)
        FRAG fa[WN];
        FRAGB fb[MT];
        [[unroll]] for (uint i = 0u; i < WN; ++i) LOAD_W(fa[i], WF(i, c), wstr);
        [[unroll]] for (uint j = 0u; j < MT; ++j) LOAD_X(fb[j], xb[j] + c, ld);
        [[unroll]] for (uint i = 0u; i < WN; ++i)
            [[unroll]] for (uint j = 0u; j < MT; ++j) acc[i][j] = MMA(fa[i], fb[j], acc[i][j]);
    }
    // Each subgroup stages one 16 x LN fp32 tile (in a 64-uvec4 slot) in its own slice of sm, column-major: element
    // (row r, token c) at 16 c + r, so the invocations write 64-byte runs of one token's outputs.
    if (SK > 1u || MT > 1u) {
        [[unroll]] for (uint i = 0u; i < WN; ++i)
            [[unroll]] for (uint j = 0u; j < MT; ++j) STORE_COL(acc[i][j], ((sg * WN + i) * MT + j) * 64u);
        barrier();
        // element el of tile (r, i, j): token LN j + el / 16, row 16 i + el % 16 of part r's block (column-major)
        for (uint e = gl_LocalInvocationIndex; e < SR * WN * MT * 16u * LN; e += gl_WorkGroupSize.x) {
            uint el = e % (16u * LN), tt = e / (16u * LN), j = tt % MT, i = (tt / MT) % WN, r = tt / (MT * WN);
            float v = uintBitsToFloat(sm[((r * WN + i) * MT + j) * 64u + el / 4u][el % 4u]);
            for (uint q = 1u; q < SK; ++q) v += uintBitsToFloat(sm[(((q * SR + r) * WN + i) * MT + j) * 64u + el / 4u][el % 4u]);
            uint tok = tb * tw + (r % TS) * LN * MT + LN * j + el / 16u, row = wx * bn + (r / TS) * 16u * WN + 16u * i + el % 16u;
            if (tok < pc.m && row < pc.n) {
                if (pc.p2 == 1u) VB_Y[tok * pc.n + row] = v;
                else VB_PART[(slice * pc.m + tok) * pc.n + row] = v;
            }
        }
    } else
    [[unroll]] for (uint i = 0u; i < WN; ++i)
        [[unroll]] for (uint j = 0u; j < MT; ++j) {
            uint ys = sg * 64u;
            STORE_COL(acc[i][j], ys);
            subgroupBarrier();
            for (uint e = gl_SubgroupInvocationID; e < 16u * LN; e += gl_SubgroupSize) {
                uint tok = t0 + LN * j + e / 16u, row = n0 + 16u * i + e % 16u;
                float v = uintBitsToFloat(sm[ys + e / 4u][e % 4u]);
                if (tok < pc.m && row < pc.n) {
                    if (pc.p2 == 1u) VB_Y[tok * pc.n + row] = v;
                    else VB_PART[(slice * pc.m + tok) * pc.n + row] = v;
                }
            }
            subgroupBarrier();
        }
    // FOLD: the tile's last workgroup sums its BN rows x (up to) TS LN MT tokens over the slices, in slice order as
    // dense_splitk.comp (the same sums, bit for bit). FOLD = 2 (N % 4 == 0): an invocation takes 4 rows a pass and
    // loads 4 slices of them before adding. Session 35 (H200, tests/gpu/sweep_s35a.txt (i)): 16 vec4 in flight (4 groups
    // of rows) and both paths in one binary took 17.3 KB against this form's 9.7, and 2560x6912 m=32 (split 3) 16.96 /
    // 20.03 us rotate / cold against 16.71 / 18.24: a cold dispatch fetches its code from DRAM.
    if (FOLD != 0u && pc.p2 > 1u && fold_arrive(gl_WorkGroupID.x, pc.p2)) {
        uint nb = wx * bn, mn = pc.m * pc.n;
        t0 = tb * tw;  // the workgroup's tokens from here on
        uint ntok = min(pc.m, t0 + tw) - t0;
        uint lid = gl_LocalInvocationIndex, wgs = gl_WorkGroupSize.x;
        if (FOLD == 2u) {
            uint nq = bn / 4u, mn4 = mn / 4u;
            [[dont_unroll]] for (uint e = lid; e < nq * ntok; e += wgs) {
                uint row = nb + 4u * (e % nq), idx = ((t0 + e / nq) * pc.n + row) / 4u;
                if (row < pc.n) {
                    vec4 s = VB_PART4[idx];
                    [[dont_unroll]] for (uint j0 = 1u; j0 < pc.p2; j0 += 4u) {
                        vec4 v[4];
                        [[unroll]] for (uint u = 0u; u < 4u; ++u) v[u] = j0 + u < pc.p2 ? VB_PART4[(j0 + u) * mn4 + idx] : vec4(0.0);
                        [[unroll]] for (uint u = 0u; u < 4u; ++u)
                            if (j0 + u < pc.p2) s += v[u];
                    }
                    VB_Y4[idx] = s;
                }
            }
        } else {
            for (uint e = lid; e < bn * ntok; e += wgs) {
                uint row = nb + e % bn, i = (t0 + e / bn) * pc.n + row;
                if (row < pc.n) {
                    float s = VB_PART[i];
                    for (uint j = 1u; j < pc.p2; ++j) s += VB_PART[j * mn + i];
                    VB_Y[i] = s;
                }
            }
        }
    }
}
