#version 450
// Cholesky: factor the jb x jb diagonal block at (j0, j0) in one workgroup's shared memory (unblocked,
// right-looking). pc.n = n (row-major, ld n), pc.p0 = j0, pc.p1 = jb (<= 64).
// One barrier per column: step j subtracts a_ij a_cj / d_j from the trailing triangle with the unscaled
// column (d_j = a_jj, the pivot), and the columns are scaled by 1/sqrt(d_j) once at the end.
// A pivot that is not > 0 (NaN included, as LAPACK's xPOTRF) stops the factorization: info = j0 + j + 1
// (1-based, like LAPACK's INFO), the leading j columns are written back factored, later dispatches exit.
#extension GL_GOOGLE_include_directive : require
#include "common.glsl"
layout(binding = 1) buffer L { float l[]; };
layout(binding = 2) buffer Info { uint info[]; };
shared float S[64][65];

void main() {
    uint n = pc.n, j0 = pc.p0, jb = pc.p1, lid = gl_LocalInvocationID.x, wg = gl_WorkGroupSize.x;
    if (info[0] != 0u) return;
    for (uint e = lid; e < jb * jb; e += wg) {
        uint r = e / jb, c = e % jb;
        if (c <= r) S[r][c] = l[(j0 + r) * n + j0 + c];
    }
    barrier();
    uint done = jb;
    for (uint j = 0u; j < jb; ++j) {
        float d = S[j][j];
        if (!(d > 0.0)) { done = j; break; }  // uniform: every invocation reads the same shared value
        float rd = 1.0 / d;
        uint m = jb - j - 1u;                  // trailing triangle (j < c <= r < jb), flattened as m*m square
        for (uint e = lid; e < m * m; e += wg) {
            uint r = j + 1u + e / m, c = j + 1u + e % m;
            if (c <= r) S[r][c] -= S[r][j] * S[c][j] * rd;
        }
        barrier();
    }
    for (uint e = lid; e < jb * jb; e += wg) {
        uint r = e / jb, c = e % jb;
        if (c <= r && c < done) {
            float s = sqrt(S[c][c]);
            l[(j0 + r) * n + j0 + c] = r == c ? s : S[r][c] / s;
        }
    }
    if (done < jb && lid == 0u) info[0] = j0 + done + 1u;
}
