// One column step of Householder QR, the part shared by qr_panel.glsl (panel streamed from L2) and
// qr_tsqr.glsl (rows in shared memory): reduce the partial dot products over the row groups, then the
// reflector's scalars. The includer declares RG, shared red[RG][33], dot_s[32] and prow[32] (prow[c] = P[j][c],
// written before the call), and may define QR_BETA_SIGN.
#ifndef QR_HOUSE_GLSL
#define QR_HOUSE_GLSL
// beta = -sign(alpha) ||x|| makes alpha - beta a sum of like-signed terms (LAPACK xLARFG). QR_BETA_SIGN is
// for tests/kernels/qr_panel_badsign.comp, which sets +1.0: the choice that cancels when the tail is small.
#ifndef QR_BETA_SIGN
#define QR_BETA_SIGN (-1.0)
#endif
// d: this invocation's partial x^T P[:,c]. After: dot_s[c] = x^T P[:,c] for every c, alpha = P[j][j],
// beta, tau = (beta - alpha)/beta and scale = 1/(alpha - beta) (all 0, beta = alpha, when x below j is 0).
void qr_column(uint g, uint c, uint j, float d, out float alpha, out float beta, out float tau, out float scale) {
    red[g][c] = d;
    barrier();
    if (g == 0u) {
        float s = 0.0;
        for (uint h = 0u; h < RG; ++h) s += red[h][c];
        dot_s[c] = s;
    }
    barrier();
    alpha = prow[j];
    float s2 = dot_s[j];
    beta = s2 > 0.0 ? QR_BETA_SIGN * (alpha >= 0.0 ? 1.0 : -1.0) * sqrt(alpha * alpha + s2) : alpha;
    tau = s2 > 0.0 ? (beta - alpha) / beta : 0.0;
    scale = s2 > 0.0 ? 1.0 / (alpha - beta) : 0.0;
}
#endif
