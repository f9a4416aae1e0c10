#version 450
// Cholesky trailing update A22 -= L21 * L21^T on the lower 64x64 tiles only (tile row >= tile column;
// diagonal tiles are updated whole, their upper half is never read). pc.n = n, pc.p0 = j0, pc.p1 = jb.
// Workgroup g -> lower tile (ti, tj), g = ti (ti + 1) / 2 + tj.
#extension GL_GOOGLE_include_directive : require
#include "common.glsl"
layout(binding = 1) buffer L { float l[]; };
layout(binding = 2) readonly buffer Info { uint info[]; };
#define TM 64u
#define TN 64u
#define TK 16u
#define RM 4u
#define RN 4u
#define A_KFAST 1
#define B_KFAST 1
uint g_n, g_j0, g_ra, g_rb;
float tile_a(uint r, uint k) { return g_ra + r < g_n ? l[(g_ra + r) * g_n + g_j0 + k] : 0.0; }
float tile_b(uint k, uint c) { return g_rb + c < g_n ? l[(g_rb + c) * g_n + g_j0 + k] : 0.0; }
#include "decomp_tile.glsl"

void main() {
    if (info[0] != 0u) return;
    uint g = vkb_group_id();
    uint ti = uint((sqrt(8.0 * float(g) + 1.0) - 1.0) * 0.5);
    while (ti * (ti + 1u) / 2u > g) --ti;
    while ((ti + 1u) * (ti + 2u) / 2u <= g) ++ti;
    uint tj = g - ti * (ti + 1u) / 2u;
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
