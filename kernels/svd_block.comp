#version 450
// One round of block one-sided Jacobi: the columns are cut into blocks of B (spec constant 1: 2, 4, 8
// or 16; nb' = ceil(n/B) rounded up to even), and workgroup k takes the block pair (P, Q) of the
// round-robin over blocks (as svd_round.comp over columns: nb'-1 rounds, nb'/2 disjoint block pairs
// each). It rotates the B^2 column pairs (P_e, Q_(e+s) mod B) in B inner rounds s of B disjoint pairs,
// and in round 0, where every block appears once, first the B(B-1)/2 pairs inside P and inside Q in
// B-1 inner rounds (round-robin within the block, B/2 pairs of each). So every column pair meets once a
// sweep, a cyclic Jacobi ordering, in nb'-1 dispatches instead of n'-1: B times fewer barriers and
// launches, which bound the column-pair kernel. Each pair is treated exactly as svd_round.comp does
// (alpha, beta, gamma from the current columns, threshold tol, Rutishauser's rotation on X and Y).
// Invocation t owns rows t, t + wg, ... of every column (X and Y): it reads back only what it wrote,
// so the inner rounds need no memory barrier; the 3B dot products of an inner round are reduced by
// subgroupAdd and one shared-memory pass, the B rotations computed by B invocations and broadcast.
// pc.p0 = round r, pc.p1 = nb' (blocks, even), pc.eps = tol. Columns >= n (the last block's padding,
// the dummy block of an odd count) make their pairs no-ops.
#extension GL_GOOGLE_include_directive : require
#extension GL_EXT_control_flow_attributes : enable
#extension GL_KHR_shader_subgroup_basic : require
#extension GL_KHR_shader_subgroup_arithmetic : require
#include "svd_common.glsl"
layout(constant_id = 1) const uint B = 8u;
shared float red[3u * B][64];  // per-subgroup partial sums (<= 64 subgroups: a subgroup of >= 4 lanes)
shared vec2 rot[B];            // (cos, sin) of each pair; (1, 0) = no rotation
shared uint nrot;

// pair e of inner round s: columns (p, q); intra: round-robin inside P (e < B/2) and Q (e >= B/2).
uvec2 pair_cols(uint P, uint Q, uint s, uint e, bool intra) {
    if (!intra) return uvec2(P * B + e, Q * B + (e + s) % B);
    uint blk = e < B / 2u ? P : Q, k = e % (B / 2u);
    uint p = k == 0u ? B - 1u : (s + k) % (B - 1u), q = k == 0u ? s : (s + B - 1u - k) % (B - 1u);
    return uvec2(blk * B + p, blk * B + q);
}

void main() {
    if (info[1] != 0u) return;
    uint n = pc.n, m = pc.m, nbp = pc.p1, r = pc.p0, k = vkb_group_id(), lid = gl_LocalInvocationID.x;
    uint wg = gl_WorkGroupSize.x, y0 = svd_y0();
    if (k >= nbp / 2u) return;  // padding of a split grid
    uint P = k == 0u ? nbp - 1u : (r + k) % (nbp - 1u);
    uint Q = k == 0u ? r : (r + nbp - 1u - k) % (nbp - 1u);
    if (lid == 0u) nrot = 0u;
    uint inner = r == 0u ? 2u * B - 1u : B;
    for (uint it = 0u; it < inner; ++it) {
        bool intra = it + 1u < B && r == 0u;
        uint s = intra ? it : it - (r == 0u ? B - 1u : 0u);
        uvec2 pq[B];
        float al[B], be[B], ga[B];
        [[unroll]] for (uint e = 0u; e < B; ++e) {
            pq[e] = pair_cols(P, Q, s, e, intra);
            al[e] = 0.0; be[e] = 0.0; ga[e] = 0.0;
        }
        for (uint i = lid; i < m; i += wg)
            [[unroll]] for (uint e = 0u; e < B; ++e)
                if (pq[e].x < n && pq[e].y < n) {
                    float xp = ws[pq[e].x * m + i], xq = ws[pq[e].y * m + i];
                    al[e] += xp * xp;
                    be[e] += xq * xq;
                    ga[e] += xp * xq;
                }
        [[unroll]] for (uint e = 0u; e < B; ++e) {
            float a = subgroupAdd(al[e]), b = subgroupAdd(be[e]), g = subgroupAdd(ga[e]);
            if (subgroupElect()) {
                red[3u * e][gl_SubgroupID] = a;
                red[3u * e + 1u][gl_SubgroupID] = b;
                red[3u * e + 2u][gl_SubgroupID] = g;
            }
        }
        barrier();
        if (lid < B) {
            uint e = lid;
            uvec2 pe = pair_cols(P, Q, s, e, intra);  // not pq[e]: a dynamic index would put pq in memory
            float a = 0.0, b = 0.0, g = 0.0;
            for (uint j = 0u; j < gl_NumSubgroups; ++j) {
                a += red[3u * e][j];
                b += red[3u * e + 1u][j];
                g += red[3u * e + 2u][j];
            }
            vec2 cs = vec2(1.0, 0.0);
            if (pe.x < n && pe.y < n && abs(g) > pc.eps * sqrt(a) * sqrt(b)) {
                float zeta = (b - a) / (2.0 * g);
                float t = abs(zeta) > 1e15 ? 0.5 / zeta : sign(zeta) / (abs(zeta) + sqrt(1.0 + zeta * zeta));
                if (zeta == 0.0) t = 1.0;
                float c = inversesqrt(1.0 + t * t);
                cs = vec2(c, c * t);
                atomicAdd(nrot, 1u);
            }
            rot[e] = cs;
        }
        barrier();
        vec2 cs[B];
        [[unroll]] for (uint e = 0u; e < B; ++e) cs[e] = rot[e];
        for (uint i = lid; i < m; i += wg)
            [[unroll]] for (uint e = 0u; e < B; ++e)
                if (cs[e].y != 0.0) {
                    uint ip = pq[e].x * m + i, iq = pq[e].y * m + i;
                    float xp = ws[ip], xq = ws[iq];
                    ws[ip] = cs[e].x * xp - cs[e].y * xq;
                    ws[iq] = cs[e].y * xp + cs[e].x * xq;
                }
        for (uint i = lid; i < n; i += wg)
            [[unroll]] for (uint e = 0u; e < B; ++e)
                if (cs[e].y != 0.0) {
                    uint ip = y0 + pq[e].x * n + i, iq = y0 + pq[e].y * n + i;
                    float yp = ws[ip], yq = ws[iq];
                    ws[ip] = cs[e].x * yp - cs[e].y * yq;
                    ws[iq] = cs[e].y * yp + cs[e].x * yq;
                }
        // the next inner round overwrites red and rot only after every invocation passed this barrier
        barrier();
    }
    if (lid == 0u && nrot != 0u) atomicAdd(info[2], 1u);
}
