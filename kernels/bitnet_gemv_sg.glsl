// BitLinear GEMV in subgroup row blocks (algo=gemv_sg, the batch-1 default):
//   y[m][n] = (float(acc) * gamma') / s[m],  acc = sum_k w[n][k] * xq[m][k] in int32 (exact).
// Why a second GEMV: at batch 1 the weights are the only real traffic and the kernel must keep enough of
// them in flight. bitnet_gemv.glsl spreads one row block over a whole workgroup, so at K = 4096 each
// invocation has ONE 16 B load per row in flight, then a shared-memory reduction and a barrier.
// Here a row block of R rows belongs to T invocations: split x subgroup size (split = 1: one subgroup, no
// shared memory, no barrier), or a power-of-two part of a subgroup (lanes=, for short rows: K = 2560 has 40
// groups, which leave 24 of 32 lanes idle for one of two steps, but 5 whole steps of 8 lanes). Invocation v of the block takes the 64-weight groups c = c0 + u T + v,
// u < G, for all R rows and issues those G x R uvec4 loads (for fixed u, r: T consecutive uvec4 of one row,
// coalesced: 128 B at T = 8) before any math; for K <= 64 G T the whole row slice is one step. x (int8, 64 B per group) is
// read through L1 and reused for the R rows: x bytes per weight byte = 4 / R.
// Math as bitnet_gemv.glsl (layout T2): acc = a0 + a1/4 + a2/16 + a3/64 - sum(x), each a_j a multiple
// of 4^j in every partial sum, so the shifts are exact per invocation. With MT > 1 tokens the four bit planes of
// each weight word are shifted down once (codes 0..2) and shared by the tokens, and every output keeps one int32
// accumulator instead of four (the same exact sum): at MT = 8, R = 4 that is 32 registers of accumulators, not 128.
// Buffers: 0 packed W (N x Kp/16 words), 1 gamma', 2 xq (int8, M x Kp), 3 s (M), 4 y (M x N).
// Push: n = N, m = M, p0 = Kp/64 groups per row. Grid: (ceil(N / (R wg/T)), ceil(M/MT)).
// The host keeps T a multiple or a power-of-two divisor of the subgroup size, wg a multiple of both, <= 16 subgroups.
// SG_FUSED (bitnet_layer_fused.glsl): xq and s come from a prologue that quantizes the tile's tokens into shared
// memory (sg_prologue, sg_x, sg_s, defined by the including file after this one) instead of buffers 2 and 3; with
// PRE = 1 the first step's weight loads are issued before it, so the prologue runs while they are in flight.
#include "common.glsl"
#include "bitnet_common.glsl"
#extension GL_KHR_shader_subgroup_shuffle : require
layout(constant_id = 1) const uint R = 4u;   // rows per block
layout(constant_id = 2) const uint MT = 1u;  // tokens per workgroup
layout(constant_id = 3) const uint G = 2u;   // groups per invocation per step (loads issued together)
layout(constant_id = 4) const uint T = 32u;  // invocations per block: split x subgroup size, or lanes
#ifdef SG_FUSED
#define BITNET_OWN_X
#endif
#include "bitnet_bufs.glsl"
shared int red[R * MT * 16];  // split > 1: one partial per (block, output, subgroup)
#ifdef SG_FUSED
layout(constant_id = 7) const uint PRE = 1u;  // 1: the first step's weight loads before the prologue
void sg_prologue(uint tok0);            // every invocation calls it; ends with a barrier
uvec4 sg_x(uint tok0, uint t, uint c, uint q);
float sg_s(uint tok0, uint t);
#else
const uint PRE = 0u;
void sg_prologue(uint tok0) {}
// uvec4 q (of 4) of group c of token tok0 + t (clamped: a tail tile repeats the last token), and its scale.
uvec4 sg_x(uint tok0, uint t, uint c, uint q) { return VB_X[(min(tok0 + t, pc.m - 1u) * pc.p0 + c) * 4u + q]; }
float sg_s(uint tok0, uint t) { return VB_SC[min(tok0 + t, pc.m - 1u)]; }
#endif

// Output i (= r MT + t) of the block whose first row is row0.
void store(uint row0, uint tok0, uint i, int a) {
    uint row = row0 + i / MT, tok = tok0 + i % MT;
    precise float p = float(a) * VB_GAM[0];
    precise float o = p / sg_s(tok0, i % MT);
    if (row < pc.n && tok < pc.m) VB_Y[tok * pc.n + row] = o;
}

void main() {
    uint tid = gl_LocalInvocationID.x, nc = pc.p0, blk = tid / T, v = tid % T;
    uint row0 = (gl_WorkGroupID.x * (gl_WorkGroupSize.x / T) + blk) * R, tok0 = gl_WorkGroupID.y * MT;
    uint wrow[R];
    for (uint r = 0u; r < R; ++r) wrow[r] = min(row0 + r, pc.n - 1u) * nc;
    ivec4 acc[R * MT];  // MT == 1: the four planes' partial sums
    int acc1[R * MT];   // MT > 1: one exact sum per output
    int sx[MT];
    for (uint i = 0u; i < R * MT; ++i) acc[i] = ivec4(0), acc1[i] = 0;
    for (uint t = 0u; t < MT; ++t) sx[t] = 0;
    uint extra = 0u;  // gate self-test: extra weight reads (kernels/common.glsl), folded in as 0 below
    uvec4 wv[G * R];
    // every weight load of a step first; past the row: a valid duplicate
#define SG_LOAD(c0)                                         \
    for (uint u = 0u; u < G; ++u) {                         \
        uint c = min((c0) + u * T, nc - 1u);                \
        for (uint r = 0u; r < R; ++r) wv[u * R + r] = VB_W[wrow[r] + c]; \
    }
    if (PRE == 1u) SG_LOAD(v)
    sg_prologue(tok0);
    for (uint c0 = v; c0 < nc; c0 += T * G) {
        if (PRE == 0u || c0 != v) SG_LOAD(c0)
        for (uint u = 0u; u < G; ++u) {
            uint c = c0 + u * T;
            if (c >= nc) break;
            if (MT == 1u) {
                for (uint q = 0u; q < 4u; ++q) {
                    uvec4 xa = sg_x(tok0, 0u, c, q);
                    sx[0] += dot_ss(xa.x, 0x01010101u) + dot_ss(xa.y, 0x01010101u) + dot_ss(xa.z, 0x01010101u) +
                             dot_ss(xa.w, 0x01010101u);
                    for (uint r = 0u; r < R; ++r) {
                        uint wd = wv[u * R + r][q];
                        acc[r] += ivec4(dot_su(xa.x, wd & 0x03030303u), dot_su(xa.y, wd & 0x0C0C0C0Cu),
                                        dot_su(xa.z, wd & 0x30303030u), dot_su(xa.w, wd & 0xC0C0C0C0u));
                    }
                }
            } else {
                for (uint q = 0u; q < 4u; ++q) {
                    uvec4 pl[R];  // plane j of the row's word, codes 0..2 in each byte, for x component j
                    for (uint r = 0u; r < R; ++r) {
                        uint wd = wv[u * R + r][q];
                        pl[r] = uvec4(wd, wd >> 2u, wd >> 4u, wd >> 6u) & 0x03030303u;
                    }
                    for (uint t = 0u; t < MT; ++t) {
                        uvec4 xa = sg_x(tok0, t, c, q);
                        sx[t] += dot_ss(xa.x, 0x01010101u) + dot_ss(xa.y, 0x01010101u) + dot_ss(xa.z, 0x01010101u) +
                                 dot_ss(xa.w, 0x01010101u);
                        for (uint r = 0u; r < R; ++r)
                            acc1[r * MT + t] += dot_su(xa.x, pl[r].x) + dot_su(xa.y, pl[r].y) + dot_su(xa.z, pl[r].z) +
                                                dot_su(xa.w, pl[r].w);
                    }
                }
            }
        }
    }
    // Gate self-test only (pc.slow's memory bit): the extra weight reads come after the loop, never between the
    // weight loads, where a read loop kept them from issuing together.
    if (vkb_gate_mem())
        for (uint c = v; c < nc; c += T)
            for (uint r = 0u; r < R; ++r) VKB_SLOW_READ(extra, VB_W, wrow[r] + c, pc.n * nc);
    if (MT == 1u) acc[0].x = int(vkb_slow(uint(acc[0].x), extra));
    else acc1[0] = int(vkb_slow(uint(acc1[0]), extra));
    uint sg = gl_SubgroupSize, ns = T / sg;  // subgroups per block (0: several blocks per subgroup)
    for (uint i = 0u; i < R * MT; ++i) {
        ivec4 a = acc[i];
        int s = (MT == 1u ? a.x + (a.y >> 2) + (a.z >> 4) + (a.w >> 6) : acc1[i]) - sx[i % MT];
        if (T < sg) {  // butterfly within the block's T lanes: every lane of the block gets its sum
            for (uint o = T / 2u; o > 0u; o /= 2u) s += subgroupShuffleXor(s, o);
        } else {
            s = subgroupAdd(s);
        }
        if (ns <= 1u) {  // the block is (part of) this subgroup: its lanes store the outputs, no barrier
            if (v == i % T) store(row0, tok0, i, s);
        } else if (subgroupElect()) {
            red[(blk * R * MT + i) * ns + v / sg] = s;
        }
    }
    if (ns <= 1u) return;
    barrier();
    uint nout = gl_WorkGroupSize.x / T * R * MT;
    for (uint o = tid; o < nout; o += gl_WorkGroupSize.x) {
        int a = 0;
        for (uint g = 0u; g < ns; ++g) a += red[o * ns + g];
        store((gl_WorkGroupID.x * (gl_WorkGroupSize.x / T) + o / (R * MT)) * R, tok0, o % (R * MT), a);
    }
}
