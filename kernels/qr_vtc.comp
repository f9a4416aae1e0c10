#version 450
// QR block reflector, step 1: W_s = V^T C over the rows of split s (split-K: group y = s), where
// C = cbuf[j0:m, col0:n]; partial s goes to ws[q1 + s*32*n + row*n + col]. qr_tw sums the splits.
#extension GL_GOOGLE_include_directive : require
#include "qr_common.glsl"
#define TM 32u
#define TN 64u
#define TK 16u
#define RM 2u
#define RN 4u
#define A_KFAST 0
#define B_KFAST 0
uint g_k0, g_c0;
float tile_a(uint rr, uint k) { return qr_v(g_k0 + k, rr); }
float tile_b(uint k, uint c) {
    return g_c0 + c < pc.n ? qr_c(pc.p0 + g_k0 + k, g_c0 + c) : 0.0;
}
#include "decomp_tile.glsl"

void main() {
    uint mp = pc.m - pc.p0, s = gl_WorkGroupID.y;
    g_k0 = s * pc.k;
    g_c0 = pc.p3 + gl_WorkGroupID.x * TN;
    uint klen = g_k0 < mp ? min(pc.k, mp - g_k0) : 0u;
    float acc[RM][RN];
    for (uint i = 0u; i < RM; ++i)
        for (uint j = 0u; j < RN; ++j) acc[i][j] = 0.0;
    tile_mul(klen, acc);
    for (uint i = 0u; i < RM; ++i)
        for (uint j = 0u; j < RN; ++j) {
            uint row = tile_row(i), col = g_c0 + tile_col(j);
            if (col < pc.n) ws[pc.q1 + s * 32u * pc.n + row * pc.n + col] = acc[i][j];
        }
}
