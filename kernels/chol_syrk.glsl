// Cholesky trailing update A22 -= L21 * L21^T on the lower TM x TN tiles only (tile row >= tile column;
// diagonal tiles are updated whole, their upper half is never read). pc.n = n, pc.p0 = j0, pc.p1 = jb.
// Workgroup g -> lower tile (ti, tj), g = ti (ti + 1) / 2 + tj. With pc.p2 = 1 (after chol_panel) one
// group more, g = the tile count, copies the panel's L11 from ws into the diagonal block: its columns
// 0..jb-1, or those before the failing pivot when info points into this block (ignoring info otherwise). The including shader defines TM = TN,
// RM, RN, TK (see decomp_tile.glsl): chol_syrk.comp 64x64 tiles of 4x4, chol_syrk128.comp 128x128 of 8x8.
#extension GL_GOOGLE_include_directive : require
#include "common.glsl"
#ifndef CHOL_AHEAD  // chol_ahead.comp declares them read-write, for its panel groups
layout(binding = 1) buffer L { float l[]; };
layout(binding = 2) readonly buffer Info { uint info[]; };
layout(binding = 3) readonly buffer WS { float ws[]; };
#endif
#define A_KFAST 1
#define B_KFAST 1
uint g_n, g_j0, g_ra, g_rb;
float tile_a(uint r, uint k) { return g_ra + r < g_n ? l[(g_ra + r) * g_n + g_j0 + k] : 0.0; }
float tile_b(uint k, uint c) { return g_rb + c < g_n ? l[(g_rb + c) * g_n + g_j0 + k] : 0.0; }
#include "decomp_tile.glsl"

void copy_l11(uint j0, uint jb, uint off) {
    uint f = info[0], cols = f == 0u ? jb : f - 1u >= j0 ? f - 1u - j0 : 0u;
    for (uint e = gl_LocalInvocationID.x; e < jb * jb; e += gl_WorkGroupSize.x) {
        uint r = e / jb, c = e % jb;
        if (c <= r && c < cols) l[(j0 + r) * pc.n + j0 + c] = ws[off + r * 64u + c];
    }
}

uvec2 tri_tile(uint g) {  // g = ti (ti + 1) / 2 + tj -> (ti, tj), tj <= ti
    uint ti = uint((sqrt(8.0 * float(g) + 1.0) - 1.0) * 0.5);
    while (ti * (ti + 1u) / 2u > g) --ti;
    while ((ti + 1u) * (ti + 2u) / 2u <= g) ++ti;
    return uvec2(ti, g - ti * (ti + 1u) / 2u);
}

void syrk_tile(uint ti, uint tj) {
    uint s0 = pc.p0 + pc.p1;
    g_n = pc.n; g_j0 = pc.p0; g_ra = s0 + ti * TM; g_rb = s0 + tj * TN;
    if (g_ra >= g_n) return;
    float acc[RM][RN];
    for (uint i = 0u; i < RM; ++i)
        for (uint j = 0u; j < RN; ++j) acc[i][j] = 0.0;
    tile_mul(pc.p1, acc);
    for (uint i = 0u; i < RM; ++i)
        for (uint j = 0u; j < RN; ++j) {
            uint r = g_ra + tile_row(i), c = g_rb + tile_col(j);
            if (r < g_n && c < g_n) l[r * g_n + c] -= acc[i][j];
        }
}

#ifndef CHOL_AHEAD
void main() {
    uint g = vkb_group_id(), nt = (pc.n - pc.p0 - pc.p1 + TM - 1u) / TM;
    if (pc.p2 != 0u && g == nt * (nt + 1u) / 2u) { copy_l11(pc.p0, pc.p1, 0u); return; }
    if (info[0] != 0u) return;
    uvec2 t = tri_tile(g);
    syrk_tile(t.x, t.y);
}
#endif
