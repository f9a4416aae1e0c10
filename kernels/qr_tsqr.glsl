// QR panel as TSQR with Householder reconstruction (qr panel=tsqr; Anderson, Ballard, Demmel, Keutzer 2011;
// Ballard et al., "Reconstructing Householder vectors from tall-skinny QR", IPDPS 2014), so that the m x 32
// panel is factored by many workgroups instead of one streaming it from L2 (qr_panel.glsl).
// Each workgroup (256 invocations: 8 row groups x 32 columns) factors at most NR x jb rows (NR = 256,
// qr_tsqr.comp, 46 KiB of shared memory; NR = 128, qr_tsqr128.comp, 30 KiB) in shared memory with the same column step as qr_panel.glsl (xGEQR2 + in-pass xLARFT). Spec constant 3 MODE:
//   0 leaf up:   leaf i (rows spread evenly, >= 32 each) -> V_i in place in r, T_i, R_i (32 x 32) to a stack.
//                With one leaf (p2 = 1) it is the whole panel: V, R, T and tau are final (one dispatch).
//   1 tree up:   node k of level l stacks the R of children FAN k.. (FAN = NR / 32), factors them, writes V
//                over the children's R, its T and its R. The root (l = ld) then forms its explicit Q
//                = [I; 0] - V T V1^T (the children's X), follows the leftmost path down to leaf 0 to get the
//                top jb x jb block Q1 of the panel's explicit Q, and factors Q1 - S = Y1 U (LU without pivoting,
//                S_kk = -sign of the pivot, so |U_kk| >= 1). Then H = I - Y T Y^T with T = -U S Y1^-T has
//                H[:, 0:jb] = Q S, R = S R_root: U, T (final, with tau), and R over Y1 (TOP) are written.
//   2 tree down: node k of level l: Q_node = [X; 0] - V (T (V1^T X)) -> the children's X blocks.
//   3 leaf down: leaf i: Q_i = [X_i; 0] - V_i (T_i (V_i1^T X_i)), then Y_i = Q_i U^-1 (rows >= jb), written
//                into r as the panel's Householder vectors; rows < jb take TOP (R over Y1).
// Zero rows (rows >= jb of each 32-row R block) stay zero in every explicit Q: each column's pivot row is a
// real row of block 0, and every leaf has >= 32 rows (the host keeps leaves >= 64 rows before the split).
// Push: n (ld of r), m, p0 = j0, p1 = jb, p2 = leaves P0, p3 = level l, ld = levels L, q1 = scratch base in
// ws, q3 = this panel's T slot (jb x jb, as qr_panel writes it). Scratch: U (32x32) | TOP (32x32) | per level
// l = 0..L with P_l nodes (P_{l+1} = ceil(P_l / FAN)): STACK_l (R of each node, 32x32) | X_l | T_l.
#extension GL_GOOGLE_include_directive : require
#extension GL_EXT_control_flow_attributes : enable
#include "common.glsl"
layout(binding = 1) buffer R { float r[]; };
layout(binding = 3) buffer WS { float ws[]; };
layout(constant_id = 3) const uint MODE = 0u;
#ifndef NR
#define NR 256u
#endif
// S_kk = -sign(pivot) makes |U_kk| = |pivot| + 1 >= 1 (Ballard et al.). TSQR_LU_SIGN is for
// tests/kernels/qr_tsqr128_badsign.comp, which sets -1.0: S_kk = +sign, |U_kk| = 1 - |pivot|, ~0 where Q1 ~ I.
#ifndef TSQR_LU_SIGN
#define TSQR_LU_SIGN 1.0
#endif
const uint RG = 8u, FAN = NR / 32u, OR = NR / RG;  // OR: rows per invocation in node_apply
const uint XO = NR, WO = NR + 32u, TO = NR + 64u;  // rows of S: X block, W/Z scratch, T
shared float S[NR + 96u][33];                       // rows 0..NR-1: the node's rows (V after the QR)
shared float red[RG][33];
shared float dot_s[32], prow[32], scale_s[32], beta_s[32], G_s[32], sign_s[32];
#include "qr_house.glsl"

uint lvl_count(uint l) {
    uint p = pc.p2;
    for (uint i = 0u; i < l; ++i) p = (p + FAN - 1u) / FAN;
    return p;
}
uint lvl_base(uint l) {  // STACK_l; X_l = STACK_l + P_l * 1024, T_l = STACK_l + 2 P_l * 1024
    uint off = pc.q1 + 2048u, p = pc.p2;
    for (uint i = 0u; i < l; ++i) { off += 3u * p * 1024u; p = (p + FAN - 1u) / FAN; }
    return off;
}
uint stack_off(uint l) { return lvl_base(l); }
uint x_off(uint l) { return lvl_base(l) + lvl_count(l) * 1024u; }
uint t_off(uint l) { return lvl_base(l) + 2u * lvl_count(l) * 1024u; }
void leaf_rows(uint i, out uint r0, out uint rows) {
    uint mp = pc.m - pc.p0, q = mp / pc.p2, rem = mp % pc.p2;
    r0 = i * q + min(i, rem);
    rows = q + (i < rem ? 1u : 0u);
}
// Householder vector k at row i of the node: unit diagonal, zero above, stored below
float vm(uint i, uint k) { return i > k ? S[i][k] : i == k ? 1.0 : 0.0; }

// Householder QR of S[0:rows, 0:jb] in place (qr_panel.glsl's column step): V below the diagonal, R on and
// above it, T in S[TO + a][b] (a <= b).
void smem_qr(uint rows, uint jb) {
    uint c = gl_LocalInvocationID.x % 32u, g = gl_LocalInvocationID.x / 32u;
    for (uint j = 0u; j < jb; ++j) {
        float d = 0.0;
        if (c < jb) {
            uint first = c > j ? j : j + 1u;
            for (uint i = g; i < rows; i += RG)
                if (i >= first) d += S[i][j] * S[i][c];
            if (g == 0u) prow[c] = S[j][c];
        }
        float alpha, beta, tau, scale;
        qr_column(g, c, j, d, alpha, beta, tau, scale);
        if (g == 0u && c < j) G_s[c] = scale_s[c] * (prow[c] + scale * dot_s[c]);
        if (g == 0u && c == j) { scale_s[j] = scale; beta_s[j] = beta; }
        barrier();
        if (g == 0u && c < j) {
            float t = 0.0;
            for (uint k = c; k < j; ++k) t += S[TO + c][k] * G_s[k];
            S[TO + c][j] = -tau * t;
        }
        if (g == 0u && c == j) S[TO + j][j] = tau;
        if (c > j && c < jb) {
            float w = tau * scale * (dot_s[c] - beta * prow[c]);
            for (uint i = g; i < rows; i += RG) {
                if (i < j) continue;
                float v = i == j ? 1.0 : S[i][j] * scale;
                S[i][c] -= v * w;
            }
        }
        barrier();
    }
    for (uint i = g; i < rows; i += RG)
        if (c < jb) {
            if (i == c) S[i][c] = beta_s[c];
            else if (i > c) S[i][c] *= scale_s[c];
        }
    barrier();
}

// o[t] = row g + 8t, column c of [X; 0] - V (T (V1^T X)), X = S[XO:XO+32, 0:jb], V = S[0:rows], T = S[TO:].
// Uses S[WO:WO+32] as scratch; leaves X, V and T as they were.
void node_apply(uint rows, uint jb, out float o[OR]) {
    uint c = gl_LocalInvocationID.x % 32u, g = gl_LocalInvocationID.x / 32u;
    float w[4];
    [[unroll]] for (uint t = 0u; t < 4u; ++t) {  // W = V1^T X (jb x jb)
        uint k = g + 8u * t;
        float s = 0.0;
        if (k < jb && c < jb)
            for (uint i = k; i < 32u; ++i) s += vm(i, k) * S[XO + i][c];
        w[t] = s;
    }
    [[unroll]] for (uint t = 0u; t < 4u; ++t) S[WO + g + 8u * t][c] = w[t];
    barrier();
    [[unroll]] for (uint t = 0u; t < 4u; ++t) {  // Z = T W
        uint k = g + 8u * t;
        float s = 0.0;
        if (k < jb && c < jb)
            for (uint kk = k; kk < jb; ++kk) s += S[TO + k][kk] * S[WO + kk][c];
        w[t] = s;
    }
    barrier();
    [[unroll]] for (uint t = 0u; t < 4u; ++t) S[WO + g + 8u * t][c] = w[t];
    barrier();
    [[unroll]] for (uint t = 0u; t < OR; ++t) {
        uint i = g + 8u * t;
        float s = i < 32u ? S[XO + i][c] : 0.0;
        if (i < rows && c < jb)
            for (uint k = 0u; k < min(jb, i + 1u); ++k) s -= vm(i, k) * S[WO + k][c];
        o[t] = s;
    }
}

void load_t(uint off, uint jb) {  // T (32 x 32 block, upper) into S[TO:]
    uint c = gl_LocalInvocationID.x % 32u, g = gl_LocalInvocationID.x / 32u;
    for (uint a = g; a < 32u; a += RG) S[TO + a][c] = a <= c && c < jb ? ws[off + a * 32u + c] : 0.0;
}
void store_t_r(uint toff, uint roff, uint jb) {  // T and R (upper, zero elsewhere) as 32 x 32 blocks
    uint c = gl_LocalInvocationID.x % 32u, g = gl_LocalInvocationID.x / 32u;
    for (uint a = g; a < 32u; a += RG) {
        bool up = a <= c && c < jb;
        ws[toff + a * 32u + c] = up ? S[TO + a][c] : 0.0;
        ws[roff + a * 32u + c] = up ? S[a][c] : 0.0;
    }
}

// Root of the tree (level L, its node's V in S[0:rows], T in S[TO:]): see the header.
void root_finish(uint rows, uint jb) {
    uint c = gl_LocalInvocationID.x % 32u, g = gl_LocalInvocationID.x / 32u, L = pc.p3;
    float rr[4], o[OR];
    [[unroll]] for (uint t = 0u; t < 4u; ++t) rr[t] = S[g + 8u * t][c];  // R_root, rows g + 8t
    for (uint a = g; a < 32u; a += RG) S[XO + a][c] = a == c ? 1.0 : 0.0;
    barrier();
    node_apply(rows, jb, o);
    uint xo = x_off(L - 1u);
    [[unroll]] for (uint t = 0u; t < OR; ++t) {
        uint i = g + 8u * t;
        if (i < rows) ws[xo + i * 32u + c] = c < jb ? o[t] : 0.0;
    }
    barrier();
    [[unroll]] for (uint t = 0u; t < 4u; ++t) S[XO + g + 8u * t][c] = o[t];
    for (uint lev = L; lev-- > 0u;) {  // node 0 of level lev, down to leaf 0
        for (uint a = g; a < 32u; a += RG)
            S[a][c] = c >= jb ? 0.0 : lev > 0u ? ws[stack_off(lev - 1u) + a * 32u + c]
                                                  : r[(pc.p0 + a) * pc.n + pc.p0 + c];
        load_t(t_off(lev), jb);
        barrier();
        node_apply(32u, jb, o);
        barrier();
        [[unroll]] for (uint t = 0u; t < 4u; ++t) S[XO + g + 8u * t][c] = o[t];
        barrier();
    }
    for (uint k = 0u; k < jb; ++k) {  // Q1 - S = Y1 U in place in S[XO:], S_kk = -sign(pivot)
        if (gl_LocalInvocationID.x == 0u) {
            float s = TSQR_LU_SIGN * (S[XO + k][k] >= 0.0 ? -1.0 : 1.0);
            sign_s[k] = s;
            S[XO + k][k] -= s;
        }
        barrier();
        float l[4];
        [[unroll]] for (uint t = 0u; t < 4u; ++t) l[t] = S[XO + g + 8u * t][k] / S[XO + k][k];
        barrier();
        [[unroll]] for (uint t = 0u; t < 4u; ++t) {
            uint a = g + 8u * t;
            if (a > k && a < jb) {
                if (c > k && c < jb) S[XO + a][c] -= l[t] * S[XO + k][c];
                else if (c == k) S[XO + a][k] = l[t];
            }
        }
        barrier();
    }
    if (g == 0u && c < jb) {  // T Y1^T = -U S, row c of T by forward substitution (Y1 unit lower)
        for (uint b = 0u; b < jb; ++b) {
            float s = c <= b ? -S[XO + c][b] * sign_s[b] : 0.0;
            for (uint k = c; k < b; ++k) s -= S[WO + c][k] * S[XO + b][k];
            S[WO + c][b] = b < c ? 0.0 : s;
        }
    }
    barrier();
    uint top = pc.q1 + 1024u;
    [[unroll]] for (uint t = 0u; t < 4u; ++t) {
        uint a = g + 8u * t;
        if (a < jb && c < jb) {
            ws[pc.q3 + a * jb + c] = a <= c ? S[WO + a][c] : 0.0;
            ws[pc.q1 + a * 32u + c] = a <= c ? S[XO + a][c] : 0.0;
            ws[top + a * 32u + c] = a <= c ? sign_s[a] * rr[t] : S[XO + a][c];
            if (a == c) ws[pc.p0 + a] = S[WO + a][a];
        }
    }
}

void main() {
    uint n = pc.n, j0 = pc.p0, jb = pc.p1, l = pc.p3, node = vkb_group_id();
    uint c = gl_LocalInvocationID.x % 32u, g = gl_LocalInvocationID.x / 32u;
    uint r0 = 0u, rows, src = 0u;
    if (MODE == 0u || MODE == 3u) leaf_rows(node, r0, rows);
    else {
        uint nch = min(FAN, lvl_count(l - 1u) - FAN * node);
        rows = 32u * nch;
        src = stack_off(l - 1u) + FAN * node * 1024u;
    }
    for (uint i = g; i < rows; i += RG)
        S[i][c] = c >= jb ? 0.0 : MODE == 0u || MODE == 3u ? r[(j0 + r0 + i) * n + j0 + c] : ws[src + i * 32u + c];
    if (MODE == 2u || MODE == 3u) {
        load_t(t_off(l) + node * 1024u, jb);
        for (uint a = g; a < 32u; a += RG) S[XO + a][c] = c < jb ? ws[x_off(l) + node * 1024u + a * 32u + c] : 0.0;
    }
    barrier();
    if (MODE == 0u || MODE == 1u) {
        smem_qr(rows, jb);
        if (MODE == 0u && pc.p2 == 1u) {  // the whole panel in one leaf: final as qr_panel writes it
            for (uint i = g; i < rows; i += RG)
                if (c < jb) r[(j0 + i) * n + j0 + c] = S[i][c];
            for (uint a = g; a < jb; a += RG)
                if (c < jb) {
                    ws[pc.q3 + a * jb + c] = a <= c ? S[TO + a][c] : 0.0;
                    if (a == c) ws[j0 + a] = S[TO + a][a];
                }
            return;
        }
        for (uint i = g; i < rows; i += RG)
            if (c < jb) {
                if (MODE == 0u) r[(j0 + r0 + i) * n + j0 + c] = S[i][c];
                else ws[src + i * 32u + c] = S[i][c];
            }
        store_t_r(t_off(l) + node * 1024u, stack_off(l) + node * 1024u, jb);
        if (MODE == 1u && l == pc.ld) root_finish(rows, jb);
        return;
    }
    float o[OR];
    node_apply(rows, jb, o);
    if (MODE == 2u) {
        uint xo = x_off(l - 1u) + FAN * node * 1024u;
        [[unroll]] for (uint t = 0u; t < OR; ++t) {
            uint i = g + 8u * t;
            if (i < rows) ws[xo + i * 32u + c] = c < jb ? o[t] : 0.0;
        }
        return;
    }
    barrier();  // MODE 3: Q_i into S, U into S[XO:], then Y = Q U^-1 row by row
    [[unroll]] for (uint t = 0u; t < OR; ++t) S[g + 8u * t][c] = o[t];
    for (uint a = g; a < 32u; a += RG) S[XO + a][c] = a <= c && c < jb ? ws[pc.q1 + a * 32u + c] : 0.0;
    barrier();
    uint i = gl_LocalInvocationID.x;
    if (i < rows && r0 + i >= jb)
        for (uint b = 0u; b < jb; ++b) {
            float s = S[i][b];
            for (uint k = 0u; k < b; ++k) s -= S[i][k] * S[XO + k][b];
            S[i][b] = s / S[XO + b][b];
        }
    barrier();
    uint top = pc.q1 + 1024u;
    for (uint t = g; t < rows; t += RG)
        if (c < jb) r[(j0 + r0 + t) * n + j0 + c] = r0 + t < jb ? ws[top + (r0 + t) * 32u + c] : S[t][c];
}
