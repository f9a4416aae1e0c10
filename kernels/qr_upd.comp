#version 450
// QR block reflector, step 3: C -= V * W2 on 64x64 tiles of C = cbuf[j0:m, col0:n] (group x: column
// tile, y: row tile), K = jb.
#extension GL_GOOGLE_include_directive : require
#include "qr_common.glsl"
#define TM 64u
#define TN 64u
#define TK 16u
#define RM 4u
#define RN 4u
#define A_KFAST 1
#define B_KFAST 0
uint g_r0, g_c0;
float tile_a(uint rr, uint k) { return qr_v(g_r0 + rr, k); }
float tile_b(uint k, uint c) { return g_c0 + c < pc.n ? ws[pc.q2 + k * pc.n + g_c0 + c] : 0.0; }
#include "decomp_tile.glsl"

void main() {
    g_r0 = gl_WorkGroupID.y * TM;
    g_c0 = pc.p3 + gl_WorkGroupID.x * TN;
    float acc[RM][RN];
    for (uint i = 0u; i < RM; ++i)
        for (uint j = 0u; j < RN; ++j) acc[i][j] = 0.0;
    tile_mul(pc.p1, acc);
    for (uint i = 0u; i < RM; ++i)
        for (uint j = 0u; j < RN; ++j) {
            uint row = pc.p0 + g_r0 + tile_row(i), col = g_c0 + tile_col(j);
            if (row >= pc.m || col >= pc.n) continue;
            if (CBUF == 1u) r[row * pc.n + col] -= acc[i][j];
            else q[row * pc.n + col] -= acc[i][j];
        }
}
