// Householder QR of one panel P = r[j0:m, j0:j0+jb] (jb <= 32) in one workgroup of 32*RG invocations:
// invocation (g, c) owns column c of the rows i = g (mod RG), so row segments load coalesced and each
// element is written by one invocation only. Per column j (LAPACK xGEQR2 + xLARFT in one pass):
//   pass 1: d_c = x^T P[:,c] (x = P[j:,j]; c > j includes row j, c <= j starts below it), reduced over g
//   beta = -sign(alpha) sqrt(alpha^2 + |x_below|^2), tau = (beta - alpha)/beta, v = x/(alpha - beta), v_j = 1
//   w_c = v^T P[:,c] = (d_c - beta P[j,c]) / (alpha - beta)  (c > j);  pass 2: P[:,c] -= tau v w_c
//   the idle columns c < j give G[c][j] = v_c^T v_j, hence T[0:j, j] = -tau T[0:j,0:j] G[0:j, j]
// Columns keep the unscaled x until the end (no one reads them after their step), then v and beta are
// written. Outputs: V below the diagonal, R on and above it, tau and T (jb x jb, row-major) in ws.
// pc.n = n (ld), pc.m = m, pc.p0 = j0, pc.p1 = jb, pc.q3 = offset of this panel's T in ws.
#extension GL_EXT_control_flow_attributes : enable
#include "common.glsl"
// Rows per invocation and pass whose loads are all issued before the first is used. The passes are
// latency-bound (one workgroup streams the m x 32 panel from L2 twice per column): one row at a time keeps
// two loads in flight per invocation, ~30 GB/s on one SM, ~1 ms per 4096-row panel; QR_U rows keep 2 QR_U.
// The sums and updates run in the same order as one row at a time: the results are the same.
#ifndef QR_U
#define QR_U 8u
#endif
layout(binding = 1) coherent buffer R { float r[]; };
layout(binding = 3) buffer WS { float ws[]; };
layout(constant_id = 1) const uint RG = 32u;  // row groups; workgroup size 32 * RG
shared float red[RG][33];
shared float dot_s[32], prow[32], scale_s[32], beta_s[32], G_s[32];
shared float T_s[32][33];
#include "qr_house.glsl"

void main() {
    uint n = pc.n, m = pc.m, j0 = pc.p0, jb = pc.p1;
    uint c = gl_LocalInvocationID.x % 32u, g = gl_LocalInvocationID.x / 32u;
    uint mp = m - j0;  // panel rows
    for (uint j = 0u; j < jb; ++j) {
        float d = 0.0;
        if (c < jb) {
            uint first = c > j ? j : j + 1u;  // rows below j, plus row j for the columns right of j
            for (uint i = g; i < mp; i += QR_U * RG) {
                float xj[QR_U], xc[QR_U];  // all loads of QR_U rows issued before the first use
                [[unroll]] for (uint u = 0u; u < QR_U; ++u) {
                    uint ii = i + u * RG;
                    bool ok = ii < mp && ii >= first;
                    xj[u] = ok ? r[(j0 + ii) * n + j0 + j] : 0.0;
                    xc[u] = ok ? r[(j0 + ii) * n + j0 + c] : 0.0;
                }
                [[unroll]] for (uint u = 0u; u < QR_U; ++u) d += xj[u] * xc[u];  // same order as row by row
            }
            if (g == j % RG) prow[c] = r[(j0 + j) * n + j0 + c];
        }
        float alpha, beta, tau, scale;
        qr_column(g, c, j, d, alpha, beta, tau, scale);
        if (g == 0u && c < j) G_s[c] = scale_s[c] * (prow[c] + scale * dot_s[c]);
        if (g == 0u && c == j) { scale_s[j] = scale; beta_s[j] = beta; ws[j0 + j] = tau; }
        barrier();
        if (g == 0u && c < j) {
            float t = 0.0;
            for (uint k = c; k < j; ++k) t += T_s[c][k] * G_s[k];
            T_s[c][j] = -tau * t;
        }
        if (g == 0u && c == j) T_s[j][j] = tau;
        if (c > j && c < jb) {
            float w = tau * scale * (dot_s[c] - beta * prow[c]);
            for (uint i = g; i < mp; i += QR_U * RG) {
                float xj[QR_U], xc[QR_U];
                [[unroll]] for (uint u = 0u; u < QR_U; ++u) {
                    uint ii = i + u * RG;
                    bool ok = ii < mp && ii > j;
                    xj[u] = ok ? r[(j0 + ii) * n + j0 + j] : 0.0;
                    xc[u] = ii < mp && ii >= j ? r[(j0 + ii) * n + j0 + c] : 0.0;
                }
                [[unroll]] for (uint u = 0u; u < QR_U; ++u) {
                    uint ii = i + u * RG;
                    float v = ii == j ? 1.0 : xj[u] * scale;
                    if (ii < mp && ii >= j) r[(j0 + ii) * n + j0 + c] = xc[u] - v * w;
                }
            }
        }
        memoryBarrierBuffer();
        barrier();
    }
    if (c < jb) {
        for (uint i = g; i < mp; i += RG) {
            if (i == c) r[(j0 + i) * n + j0 + c] = beta_s[c];
            else if (i > c) r[(j0 + i) * n + j0 + c] *= scale_s[c];
        }
    }
    for (uint e = gl_LocalInvocationID.x; e < jb * jb; e += 32u * RG)
        ws[pc.q3 + e] = e % jb >= e / jb ? T_s[e / jb][e % jb] : 0.0;
}
