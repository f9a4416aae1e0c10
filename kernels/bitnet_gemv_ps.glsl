// BitLinear GEMV, persistent and pipelined (algo=gemv_ps): gemv_sg's row blocks (R rows, T lanes, G 64-weight
// groups per lane per step: see bitnet_gemv_sg.glsl for the layout and the exact integer math), but each block
// of T lanes is a WORKER that runs J row blocks one after another, and issues the weight loads of its next step
// before the math of the current one.
// Why: at batch 1 a gemv_sg lane has ONE step (K = 4096, T = 32, G = 2: its whole slice of the row), so every
// subgroup loads, waits a full memory latency, reduces and exits; at ~100 registers the 7168 blocks of
// 28672x4096 are about two waves, and each wave pays the latency and its ramp again. Here the grid is about
// one resident wave (W = ceil(blocks / J) workers) and while step i's weights are on the bus, step i-1 is
// decoded, reduced and stored: the latency is paid once per worker.
// Worker w takes row blocks w, w + W, w + 2W, ... (J of them; past the last row a block re-reads the last row,
// L2-resident, and stores nothing), so at any moment the workers stream neighbouring rows. sum(x) over a lane's
// K slice is the same for every block, so it is computed during the first block only.
// Buffers as gemv_sg. Push: n = N, m = M, p0 = Kp/64. Grid: (ceil(ceil(N/R) / (J wg/T)), ceil(M/MT)).
// T is the subgroup size or a power-of-two divisor of it (no split-K, no shared memory, no barrier).
#include "common.glsl"
#include "bitnet_common.glsl"
#extension GL_KHR_shader_subgroup_shuffle : require
layout(constant_id = 1) const uint R = 4u;   // rows per block
layout(constant_id = 2) const uint MT = 1u;  // tokens per workgroup
layout(constant_id = 3) const uint G = 2u;   // groups per lane per step
layout(constant_id = 4) const uint T = 32u;  // lanes per block
layout(constant_id = 5) const uint J = 2u;   // row blocks per worker
layout(binding = 0) readonly buffer Wb { uvec4 w[]; };
layout(binding = 1) readonly buffer Gb { float gam[]; };
layout(binding = 2) readonly buffer Xb { uvec4 x[]; };
layout(binding = 3) readonly buffer Sb { float sc[]; };
layout(binding = 4) writeonly buffer Yb { float y[]; };

uint nc, v, wk, nw, tok0, steps;
ivec4 acc[R * MT];
int sx[MT];
uvec4 wv[2][G * R];  // the two weight buffers of the ping-pong (globals: spec-constant-sized arrays stay out of signatures)
#ifndef PS_ODD
#define PS_ODD 1u  // the buffer odd items are read from (tests/kernels/bitnet_gemv_ps_pingpong.comp breaks it)
#endif

// Item i of this worker: block j = i / steps, step s = i % steps.
uint block_row0(uint i) { return (wk + (i / steps) * nw) * R; }

void load_item(uint i, uint b) {
    uint row0 = block_row0(i), c0 = v + (i % steps) * T * G;
    for (uint u = 0u; u < G; ++u) {  // past the row: a valid duplicate, not used
        uint c = min(c0 + u * T, nc - 1u);
        for (uint r = 0u; r < R; ++r) wv[b][u * R + r] = w[min(row0 + r, pc.n - 1u) * nc + c];
    }
}

void math_item(uint i, uint b) {
    uint c0 = v + (i % steps) * T * G;
    bool first = i < steps;  // sum(x) of this lane's slice: the first block's steps only
    for (uint u = 0u; u < G; ++u) {
        uint c = c0 + u * T;
        if (c >= nc) break;
        for (uint t = 0u; t < MT; ++t) {
            uint xb = (min(tok0 + t, pc.m - 1u) * nc + c) * 4u;
            for (uint q = 0u; q < 4u; ++q) {
                uvec4 xa = x[xb + q];
                if (first)
                    sx[t] += dot_ss(xa.x, 0x01010101u) + dot_ss(xa.y, 0x01010101u) + dot_ss(xa.z, 0x01010101u) +
                             dot_ss(xa.w, 0x01010101u);
                for (uint r = 0u; r < R; ++r) {
                    uint wd = wv[b][u * R + r][q];
                    acc[r * MT + t] += ivec4(dot_su(xa.x, wd & 0x03030303u), dot_su(xa.y, wd & 0x0C0C0C0Cu),
                                             dot_su(xa.z, wd & 0x30303030u), dot_su(xa.w, wd & 0xC0C0C0C0u));
                }
            }
        }
    }
    if (i % steps != steps - 1u) return;
    // The block's last step: reduce over its T lanes, store, start the next block from zero.
    uint row0 = block_row0(i);
    for (uint o = 0u; o < R * MT; ++o) {
        ivec4 a = acc[o];
        int s = a.x + (a.y >> 2) + (a.z >> 4) + (a.w >> 6) - sx[o % MT];
        if (T < gl_SubgroupSize) {
            for (uint h = T / 2u; h > 0u; h /= 2u) s += subgroupShuffleXor(s, h);
        } else {
            s = subgroupAdd(s);
        }
        uint row = row0 + o / MT, tok = tok0 + o % MT;
        if (v == o % T && row < pc.n && tok < pc.m) {
            precise float p = float(s) * gam[0];
            precise float q = p / sc[tok];
            y[tok * pc.n + row] = q;
        }
        acc[o] = ivec4(0);
    }
}

void main() {
    uint tid = gl_LocalInvocationID.x, per = gl_WorkGroupSize.x / T;
    nc = pc.p0, v = tid % T, tok0 = gl_WorkGroupID.y * MT;
    wk = gl_WorkGroupID.x * per + tid / T, nw = gl_NumWorkGroups.x * per;
    steps = (nc + T * G - 1u) / (T * G);
    for (uint o = 0u; o < R * MT; ++o) acc[o] = ivec4(0);
    for (uint t = 0u; t < MT; ++t) sx[t] = 0;
    // Gate self-test only (pc.slow's memory bit): extra weight reads before the loop, folded into sum(x) as 0.
    uint extra = 0u;
    if (vkb_gate_mem())
        for (uint c = v; c < nc; c += T) VKB_SLOW_READ(extra, w, min(wk * R, pc.n - 1u) * nc + c, pc.n * nc);
    sx[0] = int(vkb_slow(0u, extra));
    uint items = J * steps;
    load_item(0u, 0u);
    for (uint i = 0u; i < items; i += 2u) {  // ping-pong: the next item's loads go out before this item's math
        if (i + 1u < items) load_item(i + 1u, 1u);
        math_item(i, 0u);
        if (i + 1u >= items) break;
        if (i + 2u < items) load_item(i + 2u, 0u);
        math_item(i + 1u, PS_ODD);
    }
}
