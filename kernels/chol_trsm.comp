#version 450
// Cholesky panel: L21 = A21 * L11^-T for the rows below the diagonal block, 64 rows per workgroup,
// one row per invocation by forward substitution (no barriers inside; L11 and the rows in shared memory).
// pc.n = n, pc.p0 = j0, pc.p1 = jb. Workgroup size 64.
#extension GL_GOOGLE_include_directive : require
#include "common.glsl"
layout(binding = 1) buffer L { float l[]; };
layout(binding = 2) readonly buffer Info { uint info[]; };
shared float Ls[64 * 65 / 2];  // L11 packed by rows (lavapipe has 32 KiB of shared memory)
shared float X[64][65];

void main() {
    uint n = pc.n, j0 = pc.p0, jb = pc.p1, lid = gl_LocalInvocationID.x;
    uint r0 = j0 + jb + vkb_group_id() * 64u;
    if (info[0] != 0u) return;
    for (uint e = lid; e < jb * jb; e += 64u) {
        uint r = e / jb, c = e % jb;
        if (c <= r) Ls[r * (r + 1u) / 2u + c] = l[(j0 + r) * n + j0 + c];
    }
    for (uint e = lid; e < 64u * jb; e += 64u) {
        uint r = e / jb, c = e % jb;
        X[r][c] = r0 + r < n ? l[(r0 + r) * n + j0 + c] : 0.0;
    }
    barrier();
    for (uint j = 0u; j < jb; ++j) {
        uint lj = j * (j + 1u) / 2u;
        float s = X[lid][j];
        for (uint k = 0u; k < j; ++k) s -= X[lid][k] * Ls[lj + k];
        X[lid][j] = s / Ls[lj + j];
    }
    barrier();
    for (uint e = lid; e < 64u * jb; e += 64u) {
        uint r = e / jb, c = e % jb;
        if (r0 + r < n) l[(r0 + r) * n + j0 + c] = X[r][c];
    }
}
