#version 450
// One round of one-sided Jacobi: workgroup k rotates the pair (p, q) of the round-robin (circle method:
// n' = n rounded up to even, player n'-1 fixed, round r pairs it with r and r+k with r-k mod n'-1), so the
// n'/2 pairs of a round are disjoint and n'-1 rounds make a sweep that meets every pair once.
// Per pair: alpha = |x_p|^2, beta = |x_q|^2, gamma = x_p.x_q; rotate when |gamma| > tol sqrt(alpha beta)
// (tol = sqrt(m) eps, LAPACK xGESVJ's CTOL) with Rutishauser's formulas, the same rotation applied to
// the rows p, q of Y (the columns of V). Exits at once when a previous sweep converged.
// pc.p0 = round r, pc.p1 = n', pc.eps = tol.
#extension GL_GOOGLE_include_directive : require
#include "svd_common.glsl"
shared float ra[gl_WorkGroupSize.x], rb[gl_WorkGroupSize.x], rg[gl_WorkGroupSize.x];

void main() {
    if (info[1] != 0u) return;
    uint n = pc.n, m = pc.m, np = pc.p1, r = pc.p0, k = vkb_group_id(), lid = gl_LocalInvocationID.x;
    uint wg = gl_WorkGroupSize.x;
    if (k >= np / 2u) return;  // padding of a split grid
    uint p = k == 0u ? np - 1u : (r + k) % (np - 1u);
    uint q = k == 0u ? r : (r + np - 1u - k) % (np - 1u);
    if (p >= n || q >= n) return;  // the dummy player of an odd n
    float al = 0.0, be = 0.0, ga = 0.0;
    for (uint i = lid; i < m; i += wg) {
        float xp = ws[p * m + i], xq = ws[q * m + i];
        al += xp * xp;
        be += xq * xq;
        ga += xp * xq;
    }
    ra[lid] = al; rb[lid] = be; rg[lid] = ga;
    barrier();
    for (uint h = wg / 2u; h > 0u; h /= 2u) {
        if (lid < h) { ra[lid] += ra[lid + h]; rb[lid] += rb[lid + h]; rg[lid] += rg[lid + h]; }
        barrier();
    }
    al = ra[0]; be = rb[0]; ga = rg[0];
    if (!(abs(ga) > pc.eps * sqrt(al) * sqrt(be))) return;  // uniform: shared values
    float zeta = (be - al) / (2.0 * ga);
    float t = abs(zeta) > 1e15 ? 0.5 / zeta : sign(zeta) / (abs(zeta) + sqrt(1.0 + zeta * zeta));
    if (zeta == 0.0) t = 1.0;
    float cs = inversesqrt(1.0 + t * t), sn = cs * t;
    for (uint i = lid; i < m; i += wg) {
        float xp = ws[p * m + i], xq = ws[q * m + i];
        ws[p * m + i] = cs * xp - sn * xq;
        ws[q * m + i] = sn * xp + cs * xq;
    }
    uint y0 = svd_y0();
    for (uint i = lid; i < n; i += wg) {
        float yp = ws[y0 + p * n + i], yq = ws[y0 + q * n + i];
        ws[y0 + p * n + i] = cs * yp - sn * yq;
        ws[y0 + q * n + i] = sn * yp + cs * yq;
    }
    if (lid == 0u) atomicAdd(info[2], 1u);
}
