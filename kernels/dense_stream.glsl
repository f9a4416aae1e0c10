// Dense fp16-weight baseline at batch >= 8 on matrix units (GL_NV_cooperative_matrix, 16x16x16 fp16 x fp16 -> fp32
// at subgroup scope), built to stream W at copy bandwidth: y^T (N x M) = W (N x K) . x^T (K x M).
// Why not dense_coopmat.glsl: it stages one BK step of the whole workgroup's W tile and ends every step in a
// workgroup barrier, so an SM waits on its slowest warp with only one step in flight (~2 TB/s on an H200), and
// its fragment arrays are sized by spec constants. Why not dense_coopmat_g.glsl: fragments loaded from row-major W
// in global memory ran 5-10x slower still (with W in panels it is the faster kernel at m <= 16, the default there;
// reference/bitnet_linear.c). Here every subgroup streams on its own:
// - it owns WN row fragments (16 WN rows of W) x MT token fragments over one K slice, and its own staging area
//   in shared memory (W 16 WN x BK and x 16 MT x BK halves, rows padded by 16 bytes against bank conflicts);
// - W and x come in as 16-byte loads (consecutive lanes, consecutive 16 bytes of a row: whole 128-byte lines
//   at BK = 64) into RB register buffers (2 by default): while step s is computed, steps s + 1 and s + 2 are in
//   flight, 2 x 32 WN BK bytes of W per subgroup (8 KiB at WN = 2, BK = 64), independent of every other subgroup;
// - it waits only on itself: subgroupBarrier around its own staging, no workgroup barrier in the K loop.
// x is reloaded per step by every subgroup (the subgroups of a workgroup at the same K read it from L1; only
// tokens < M are loaded, staged rows past M stay zero, so m = 8 pads to the 16-row fragment for free).
// The workgroup is SR x SK subgroups: SR split the rows (BN = 16 WN SR rows per workgroup), SK split the K
// range in-kernel; at the end the SK partial tiles are summed in shared memory in slice order (deterministic),
// after one workgroup barrier. Grid y splits K further (split-K across workgroups, as dense_coopmat.glsl:
// part[slice][M][N] summed in slice order by dense_splitk.comp). Empty slices contribute zeros.
// Output: each 16x16 accumulator through shared memory (column-major), then written with bounds checks as 16
// consecutive rows of one token.
// W's layout (PANEL): 0 = rows, row-major N x Kp8 (a step reads 2 BK bytes of each of its 16 WN rows); 1 = panels of
// 16 rows, 16-byte chunk major: chunk c (8 halves) of row r at uvec4 ((r / 16) p0 + c) 16 + r % 16, rows padded to a
// multiple of 16 with zeros. A panel's K range is then one contiguous run, so a step reads 32 BK contiguous bytes
// per panel and a 32-lane load instruction 512 contiguous bytes (as the m = 1 GEMV does).
// Buffers: 0 W (fp16, N x Kp8 (rows) or N16 x Kp8 (panels), Kp8 = K rounded up to 8, zero padding),
// 1 x (fp16, M x Kp8), 2 y (fp32 M x N), 3 part (fp32, p2 x M x N; one element when p2 == 1). Push: n = N, m = M,
// p0 = Kp8 / 8 (uvec4 per row), p1 = uvec4 per K slice (a multiple of BK / 8), p2 = grid slices.
// Grid (ceil(N / BN), p2, ceil(M / 16 MT)).
// Spec: 0 workgroup size = SG x SR x SK, 1 SG = the subgroup size, 2 SR, 3 SK, 4 BK, 5 PANEL (W's layout, above),
// 6 RB, 7 XPRE (the register buffers, at DS_BUFFER). WN and MT are compiled in by the stubs dense_stream_wIxJ.comp
// (I = WN, J = MT) so that fragment arrays have constant sizes. The host checks BK % 16 == 0, that 16 BK / 8 splits
// evenly over SG lanes and that the staging fits in shared memory. dense_stream_emu_wIxJ.comp emulate the matrix
// operations (lavapipe validates this file's indexing).
#extension GL_EXT_control_flow_attributes : enable
#extension GL_EXT_shader_16bit_storage : require
#extension GL_EXT_shader_explicit_arithmetic_types_float16 : require
#extension GL_KHR_shader_subgroup_basic : require
#include "common.glsl"
layout(constant_id = 1) const uint SG = 32u;
layout(constant_id = 2) const uint SR = 2u;
layout(constant_id = 3) const uint SK = 2u;
layout(constant_id = 4) const uint BK = 64u;
layout(constant_id = 5) const uint PANEL = 0u;
layout(constant_id = 6) const uint RB = 2u;    // register buffers: W steps in flight (1, 2 or 4)
layout(constant_id = 7) const uint XPRE = 1u;  // 1: x prefetched with W; 0: loaded when staged
const uint WN = DS_WN, MT = DS_MT;
#ifndef DS_SUM_END
#define DS_SUM_END SK  // in-kernel slices summed; tests/kernels/dense_stream_emu_dropslice.comp sums one fewer
#endif

layout(binding = 0) readonly buffer Wb { uvec4 w[]; };
layout(binding = 1) readonly buffer Xb { uvec4 x[]; };
layout(binding = 2) writeonly buffer Yb { float y[]; };
layout(binding = 3) writeonly buffer Pb { float part[]; };

const uint CK = BK / 8u, STR = CK + 1u, RW = 16u * WN, RX = 16u * MT;
const uint SUB0 = (RW + RX) * STR, SUBY = 64u * WN * MT;
const uint SUB = SUB0 > SUBY ? SUB0 : SUBY;  // uvec4 per subgroup: W tile, then x tile; at the end its output tiles
const uint NW = RW * CK / SG, NX = RX * CK / SG;
shared uvec4 sm[SR * SK * SUB];

#ifdef VKB_COOP_EMU
// Emulated (kernels/dense_coop_emu.glsl): a fragment is a handle into sm, read by the MMA.
#include "dense_coop_emu.glsl"
float emu_h(FragEmu f, uint r, uint c) {  // fp16 element (r, c), in halves from the start of sm
    uint e = f.col ? (f.elem + c * f.stride) * 8u + r : (f.elem + r * f.stride) * 8u + c;
    return unpackHalf2x16(sm[e / 8u][(e % 8u) / 2u])[e % 2u];
}
#define LOAD_ROW(f, elem, stride) f = FragEmu(elem, stride, false)
#define LOAD_COL(f, elem, stride) f = FragEmu(elem, stride, true)
// lavapipe runs a subgroup as one SIMD thread, so its lanes are in program order; its subgroupBarrier becomes a
// coroutine suspend point, and with the accumulators live across four of them per step LLVM's coroutine split
// ran for tens of minutes. The emulation keeps the memory barrier (no reordering of the staging accesses).
#define SG_SYNC() subgroupMemoryBarrierShared()
#define UNROLL  // and plain loops: the fully unrolled emulation was too big for lavapipe's compiler
#else
#define FRAG fcoopmatNV<16, gl_ScopeSubgroup, 16, 16>
#define ACC fcoopmatNV<32, gl_ScopeSubgroup, 16, 16>
#define ACC_ZERO ACC(0.0)
#define LOAD_ROW(f, elem, stride) coopMatLoadNV(f, sm, elem, stride, false)
#define LOAD_COL(f, elem, stride) coopMatLoadNV(f, sm, elem, stride, true)
#define MMA(a, b, c) coopMatMulAddNV(a, b, c)
#define STORE_COL(acc, elem) coopMatStoreNV(acc, sm, elem, 4u, true)
#define SG_SYNC() subgroupBarrier()
#define UNROLL [[unroll]]
#endif

uint lane, n0, t0, cend;

// The v-th uvec4 of a subgroup's W step (v < RW CK, consecutive v at consecutive addresses): its row within
// the subgroup's RW rows and its chunk within the step; w_at: the uvec4 index of (row, chunk) in W.
uint w_row(uint v) { return PANEL != 0u ? (v / (16u * CK)) * 16u + v % 16u : v / CK; }
uint w_col(uint v) { return PANEL != 0u ? (v % (16u * CK)) / 16u : v % CK; }
uint w_at(uint row, uint col) { return PANEL != 0u ? ((row / 16u) * pc.p0 + col) * 16u + row % 16u : row * pc.p0 + col; }

// Register buffers B = 0 .. RB - 1 (RB, spec 6: 1, 2 or 4; 1: the next step's loads are issued after this step's
// staging, so they fly only while it computes), each one BK step of this subgroup's W rows, and with
// XPRE (spec 7) = 1 its x tokens. fetchB issues the step at uvec4 column c (zeros past N, M and the slice's end);
// stashB stores it into the staging area at base. With XPRE = 0 the x tokens are not held in registers: stashB
// loads them itself (x is L1/L2-resident: a short wait), so the registers go to W steps in flight instead.
#define DS_BUFFER(B)                                                                            \
    uvec4 rw##B[NW], rx##B[NX];                                                                 \
    void fetch##B(uint c) {                                                                     \
        UNROLL for (uint s = 0u; s < NW; ++s) {                                             \
            uint v = lane + s * SG, row = n0 + w_row(v), col = c + w_col(v);                    \
            rw##B[s] = row < pc.n && col < cend ? w[w_at(row, col)] : uvec4(0u);               \
        }                                                                                       \
        if (XPRE != 0u)                                                                         \
            UNROLL for (uint s = 0u; s < NX; ++s) rx##B[s] = x_at(c, lane + s * SG);          \
    }                                                                                           \
    void stash##B(uint base, uint c) {                                                          \
        UNROLL for (uint s = 0u; s < NW; ++s) {                                             \
            uint v = lane + s * SG;                                                             \
            sm[base + w_row(v) * STR + w_col(v)] = rw##B[s];                                    \
        }                                                                                       \
        UNROLL for (uint s = 0u; s < NX; ++s) {                                             \
            uint v = lane + s * SG;                                                             \
            sm[base + (RW + v / CK) * STR + v % CK] = XPRE != 0u ? rx##B[s] : x_at(c, v);       \
        }                                                                                       \
    }
// The v-th uvec4 of the subgroup's x step at uvec4 column c (token t0 + v / CK), zero past M and the slice.
uvec4 x_at(uint c, uint v) {
    uint tok = t0 + v / CK, col = c + v % CK;
    return tok < pc.m && col < cend ? x[tok * pc.p0 + col] : uvec4(0u);
}
DS_BUFFER(0)
DS_BUFFER(1)
DS_BUFFER(2)
DS_BUFFER(3)

// One BK step from the staging area at base into the accumulators (a macro: acc stays a local of main).
#define COMPUTE(base)                                                                                       \
    UNROLL for (uint kk = 0u; kk < BK / 16u; ++kk) {                                                    \
        FRAG fb[MT], fa;                                                                                    \
        UNROLL for (uint j = 0u; j < MT; ++j) LOAD_COL(fb[j], base + (RW + 16u * j) * STR + 2u * kk, STR); \
        UNROLL for (uint i = 0u; i < WN; ++i) {                                                         \
            LOAD_ROW(fa, base + 16u * i * STR + 2u * kk, STR);                                              \
            UNROLL for (uint j = 0u; j < MT; ++j) acc[i][j] = MMA(fa, fb[j], acc[i][j]);                \
        }                                                                                                   \
    }

void main() {
    uint g = gl_SubgroupID, r = g % SR, ks = g / SR, base = g * SUB;
    lane = gl_SubgroupInvocationID;
    ACC acc[WN][MT];
    n0 = (gl_WorkGroupID.x * SR + r) * RW, t0 = gl_WorkGroupID.z * RX;
    uint c0 = (gl_WorkGroupID.y * SK + ks) * pc.p1;
    cend = min(pc.p0, c0 + pc.p1);
    uint ns = c0 < cend ? (cend - c0 + CK - 1u) / CK : 0u;
    UNROLL for (uint i = 0u; i < WN; ++i)
        UNROLL for (uint j = 0u; j < MT; ++j) acc[i][j] = ACC_ZERO;
    if (ns > 0u) fetch0(c0);
    if (RB > 1u && ns > 1u) fetch1(c0 + CK);
    if (RB > 2u && ns > 2u) fetch2(c0 + 2u * CK);
    if (RB > 2u && ns > 3u) fetch3(c0 + 3u * CK);
    for (uint st = 0u; st < ns; ++st) {  // subgroup-uniform branches pick the register buffer statically
        uint b = st % RB, c = c0 + st * CK, cn = c + RB * CK;
        bool more = st + RB < ns;
        SG_SYNC();  // every lane is done reading the previous step's staging
        if (b == 0u) {
            stash0(base, c);
            SG_SYNC();
            if (more) fetch0(cn);
        } else if (RB > 1u && b == 1u) {
            stash1(base, c);
            SG_SYNC();
            if (more) fetch1(cn);
        } else if (RB > 2u && b == 2u) {
            stash2(base, c);
            SG_SYNC();
            if (more) fetch2(cn);
        } else if (RB > 2u) {
            stash3(base, c);
            SG_SYNC();
            if (more) fetch3(cn);
        }
        COMPUTE(base)
    }
    // Each subgroup stages its WN MT fp32 tiles (64 uvec4 each) in its own area, column-major: element (row
    // e % 16, token e / 16) of tile (i, j) at 64 (i MT + j) + e. One workgroup barrier, then the SK subgroups
    // of a row block (g = r + SR ks) are summed in ks order by subgroup r. (One barrier, not one per tile:
    // lavapipe compiles each workgroup barrier into a coroutine suspend point.)
    SG_SYNC();
    UNROLL for (uint i = 0u; i < WN; ++i)
        UNROLL for (uint j = 0u; j < MT; ++j) STORE_COL(acc[i][j], base + 64u * (i * MT + j));
    barrier();
    if (ks == 0u) {
        uint slice = gl_WorkGroupID.y;
        for (uint e = lane; e < 256u * WN * MT; e += SG) {
            uint t = e / 256u, i = t / MT, j = t % MT, f = e % 256u;
            uint tok = t0 + 16u * j + f / 16u, row = n0 + 16u * i + f % 16u;
            float v = uintBitsToFloat(sm[base + e / 4u][e % 4u]);
            for (uint q = 1u; q < DS_SUM_END; ++q) v += uintBitsToFloat(sm[base + q * SR * SUB + e / 4u][e % 4u]);
            if (tok < pc.m && row < pc.n) {
                if (pc.p2 == 1u) y[tok * pc.n + row] = v;
                else part[(slice * pc.m + tok) * pc.n + row] = v;
            }
        }
    }
}
