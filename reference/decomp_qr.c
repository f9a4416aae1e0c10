/* decomp_qr.c — blocked Householder QR A = Q R in fp32 on the GPU (m x n, m >= n, row-major), Q formed.
 *
 * Dispatches: qr_init (copy A, Q = I), then per 32-column panel: qr_panel (one workgroup factors the
 * panel, builds T of the compact WY form H_1..H_jb = I - V T V^T, LAPACK xGEQR2 + xLARFT), and for the
 * trailing columns C -= V (T^T (V^T C)) as three dispatches: qr_vtc (split-K tiled V^T C), qr_tw (sum the
 * splits, multiply by T^T), qr_upd (tiled C -= V W). Q is then formed explicitly as in xORGQR, applying
 * the panels last to first to the identity with the same three dispatches (T instead of T^T).
 * The panel's two passes per column issue the loads of 8 rows before using any (unroll=8, default; unroll=1
 * is the first version, a row at a time: latency-bound at ~30 GB/s on one SM, ~1 ms a 4096-row panel).
 * So 1 + 7 n/32 dispatches, all timed: the row is geqrf + orgqr; c->flops counts geqrf only.
 * panel=tsqr (issue 16) replaces the one-workgroup panel, which streams the m x 32 panel from L2 twice per
 * column (~1 us a round trip on one SM: most of QR 4096's time), by TSQR over leaves of <= leaf= rows in
 * shared memory, a tree over their R factors, and Householder vectors rebuilt from the explicit Q
 * (kernels/qr_tsqr.glsl): V, T and R have the form the trailing update and orgqr already take. A panel of
 * <= leaf rows is one dispatch; else 2 L + 2 (L tree levels, fan-in 8 above 128-row leaves, else 4).
 *
 * Reference: gsl_linalg_QR_decomp_r in double. Check (LAPACK TESTING/LIN/sqrt01.f, 1-norms, eps = 2^-24):
 *   ||A - Q R||_1 / (m ||A||_1 eps) and ||I - Q^T Q||_1 / (m eps), in double from the fp32 outputs; pass
 *   < 30 (dtest.in). Householder QR is normwise backward stable, ||A - QR|| <= c m n eps ||A|| in the worst
 *   case (Higham Thm 19.4), with c n replaced by ~sqrt(n) in practice; LAPACK's threshold encodes that.
 * fill= normal: independent N(0,1) entries | graded: rows scaled by 2^(-30 i/(m-1)) (rounded to powers of 2):
 *   every column's lower part is small against its top, and Householder QR without row pivoting is still
 *   normwise stable (Higham §19.4) | tinytail: A = U + 2^-10 L, U upper triangular (N(0,1) above the diagonal,
 *   +-[1, 2) on it), L strictly lower N(0,1): at every step the column below the diagonal is ~1e-3 of its first
 *   element, where the sign of beta decides: beta = -sign(alpha)||x|| (LAPACK xLARFG) keeps alpha - beta free
 *   of cancellation; +sign(alpha) loses ~log2(alpha^2/|tail|^2) bits of v and tau, and Q's orthogonality with
 *   them (tests/kernels/qr_panel_badsign.comp) | spread: A = U diag(sigma) V^T, sigma from 1 down to 2^-24
 *   (near singular, LAPACK's test matrices). The residual ratios stay O(1) for all: the threshold applies.
 */
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <gsl/gsl_linalg.h>
#include <gsl/gsl_randist.h>

#include "check.h"
#include "decomp.h"
#include "vkb.h"

#define THRESH 30.0
#define JB 32u
#define SMAX 32u

typedef struct priv { size_t m, n; int fill; } priv;
static const char *const qr_fills[] = {"normal", "graded", "tinytail", "spread", NULL};
enum { QF_NORMAL, QF_GRADED, QF_TINYTAIL, QF_SPREAD };

enum { P_INIT, P_PANEL, P_VTC, P_TW, P_UPD }; /* pipeline index = kind + 3 * (C is q) for the last three */

/* C -= V op(T) V^T C for panel j0 (width jb) on the columns col0..n of C (r or q); V^T C split over the
 * rows to make about wgs workgroups (qr wgs=, default 264: 2 per SM on an H100). Each split is a serial chain
 * of 16-row steps (load, barrier, 128 FMAs, barrier): at n = 4096 and j0 = 0, 4 splits of 1024 rows make
 * 64 steps of ~1 us of L2 latency; wgs = 1056 makes 16 splits of 256 rows. */
static int qr_apply(vkb_case *c, int pipe0, uint32_t m, uint32_t n, uint32_t j0, uint32_t jb, uint32_t col0,
                    const uint32_t off[3], uint32_t wgs)
{
    uint32_t tiles = (n - col0 + 63) / 64, mp = m - j0;
    uint32_t s = wgs / tiles, smax = (mp + 127) / 128;
    s = s < 1 ? 1 : s > smax ? smax : s > SMAX ? SMAX : s;
    uint32_t ks = ((mp + s - 1) / s + 15) / 16 * 16;
    s = (mp + ks - 1) / ks;
    uint32_t gx[3] = {tiles, tiles, tiles}, gy[3] = {s, 1, (mp + 63) / 64};
    for (int k = 0; k < 3; k++) {
        vkb_dispatch *d = vkb_add_dispatch(c, pipe0 + k, gx[k], gy[k], 1);
        if (!d) return -1;
        d->push = (vkb_push){.n = n, .m = m, .k = ks, .p0 = j0, .p1 = jb, .p2 = s, .p3 = col0,
                             .q1 = off[0], .q2 = off[1], .q3 = off[2] + j0 * JB};
    }
    return 0;
}

/* panel=tsqr (kernels/qr_tsqr.comp): leaves of <= leaf rows, a tree of fan-in 8 (leaf > 128) or 4 over their R factors, then
 * the explicit Q down the tree and Householder vectors reconstructed from it. Scratch per level l (P_l nodes,
 * P_0 leaves, P_{l+1} = ceil(P_l / fan) down to the root): three 32 x 32 blocks per node (R, X, T), after
 * U and TOP (32 x 32 each). The shader computes the same layout from the panel's own P_0. */
static uint32_t tsqr_scratch(uint32_t p0, uint32_t fan)
{
    uint32_t total = 2048, p = p0;
    for (;;) {
        total += 3 * p * 1024;
        if (p == 1) return total;
        p = (p + fan - 1) / fan;
    }
}

/* Dispatches of one panel: one leaf when mp <= leaf rows (final at once), else leaves up, the tree up
 * (its root finishes: LU of the top block, T, R), the tree down, leaves down: 2 L + 2 dispatches. */
static int qr_tsqr_panel(vkb_case *c, uint32_t m, uint32_t n, uint32_t j0, uint32_t jb, uint32_t leaf,
                         uint32_t fan, uint32_t base, uint32_t tslot)
{
    enum { P_TSQR = 8 };
    uint32_t mp = m - j0, p0 = (mp + leaf - 1) / leaf, levels = 0, cnt[32];
    cnt[0] = p0;
    while (cnt[levels] > 1) {
        cnt[levels + 1] = (cnt[levels] + fan - 1) / fan;
        levels++;
    }
    vkb_push push = {.n = n, .m = m, .p0 = j0, .p1 = jb, .p2 = p0, .ld = levels, .q1 = base, .q3 = tslot};
    uint32_t mode[64], lvl[64], nd = 0;
    mode[nd] = 0, lvl[nd++] = 0;
    for (uint32_t l = 1; l <= levels; l++) mode[nd] = 1, lvl[nd++] = l;
    for (uint32_t l = levels; p0 > 1 && --l > 0;) mode[nd] = 2, lvl[nd++] = l;
    if (p0 > 1) mode[nd] = 3, lvl[nd++] = 0;
    for (uint32_t i = 0; i < nd; i++) {
        vkb_dispatch *d = vkb_add_dispatch(c, P_TSQR + (int)mode[i], cnt[lvl[i]], 1, 1);
        if (!d) return -1;
        d->push = push;
        d->push.p3 = lvl[i];
    }
    return 0;
}

/* Shared memory of the TSQR shader whose leaves hold up to nr rows: qr_tsqr128 (fan-in 4) at nr = 128, qr_tsqr
 * (fan-in 8) at 256. */
static uint32_t tsqr_shared(uint32_t nr) { return nr == 256 ? 48288u : 31392u; }

static int qr_plan(vkb_case *c)
{
    int64_t n = vkb_param_int(c, "n", -1), m = vkb_param_int(c, "m", n), unroll = vkb_param_int(c, "unroll", 8);
    /* Default panel=tsqr with the largest leaf this device's shared memory holds (else the one-workgroup panel): on an
     * H200 (tests/gpu/sweep_decomp2.txt, 2026-11-23, ms) QR 1024 took 10.37 (one) / 8.93 (tsqr 128) / 8.40 (tsqr 256),
     * QR 4096 133.4 / 70.6 / 71.9, and 66.6 at tsqr 256 wgs=1056 (wgs unchanged: measured at one size only). */
    int dflt = c->caps.max_shared >= tsqr_shared(256) ? 256 : c->caps.max_shared >= tsqr_shared(128) ? 128 : 0;
    int64_t wgs = vkb_param_int(c, "wgs", 264), leaf = vkb_param_int(c, "leaf", dflt ? dflt : 256);
    /* unroll= shapes the one-workgroup panel, so naming it alone keeps that panel */
    const char *panel = vkb_param_str(c, "panel", dflt && !vkb_param_str(c, "unroll", NULL) ? "tsqr" : "one");
    int tsqr = !strcmp(panel, "tsqr");
    if (!tsqr && strcmp(panel, "one")) return vkb_error(c, "panel=%s: expected one or tsqr", panel);
    if (leaf < 64 || leaf > 256) return vkb_error(c, "leaf=%lld: expected 64..256 rows", (long long)leaf);
    int fill = vkb_fill_pick(c, qr_fills);
    if (fill < 0) return -1;
    if (n < 1 || m < n || m * n > (1ll << 30))
        return vkb_error(c, "m=%lld n=%lld: expected 1 <= n <= m, m*n <= 2^30", (long long)m, (long long)n);
    if (wgs < 1 || wgs > 1 << 20) return vkb_error(c, "wgs=%lld: expected 1..2^20", (long long)wgs);
    if (unroll != 1 && unroll != 8) return vkb_error(c, "unroll=%lld: expected 8 or 1", (long long)unroll);
    if (c->caps.max_wg_size < 256) return vkb_skip(c, "needs workgroups of 256 invocations");
    uint32_t nr = leaf > 128 ? 256 : 128, fan = nr / 32;
    if (tsqr && c->caps.max_shared < tsqr_shared(nr))
        return vkb_skip(c, "panel=tsqr leaf=%lld needs %u B of shared memory", (long long)leaf, tsqr_shared(nr));
    if (tsqr && (m + leaf - 1) / leaf > (int64_t)c->caps.max_wg_count_x)
        return vkb_error(c, "m=%lld leaf=%lld: more leaves than workgroups in x", (long long)m, (long long)leaf);
    uint32_t un = (uint32_t)n, um = (uint32_t)m, np = (un + JB - 1) / JB;
    uint32_t rg = c->caps.max_wg_size / 32 < 32 ? c->caps.max_wg_size / 32 : 32;
    /* ws: tau (n) | T per panel (np*32*32) | split partials of V^T C (SMAX*32*n) | W2 (32*n) */
    uint32_t off[3] = {un + np * JB * JB, un + np * JB * JB + SMAX * JB * un, un};
    size_t mn = (size_t)m * (size_t)n;
    vkb_add_buf(c, "a", VKB_F32, mn, VKB_IN);
    vkb_add_buf(c, "r", VKB_F32, mn, VKB_OUT);
    vkb_add_buf(c, "q", VKB_F32, mn, VKB_OUT);
    uint32_t tbase = off[1] + JB * un;
    vkb_add_buf(c, "ws", VKB_F32, (size_t)tbase + (tsqr ? tsqr_scratch((uint32_t)((m + leaf - 1) / leaf), fan) : 0), VKB_SCRATCH);
    static const char *const names[] = {"qr_init", "qr_panel", "qr_vtc", "qr_tw", "qr_upd"};
    for (uint32_t p = 0; p < 8; p++) {
        uint32_t kind = p < 5 ? p : p - 3, isq = p >= 5;
        uint32_t spec[4] = {kind == P_PANEL ? 32 * rg : 256, rg, isq ? 2 : 1, isq ? 0 : 1};
        const char *name = kind == P_PANEL && unroll == 1 ? "qr_panel_u1" : names[kind];
        if (vkb_add_pipe(c, name, 4, spec) < 0) return -1;
    }
    for (uint32_t mode = 0; tsqr && mode < 4; mode++) {
        uint32_t spec[4] = {256, 0, 0, mode};
        if (vkb_add_pipe(c, nr == 256 ? "qr_tsqr" : "qr_tsqr128", 4, spec) < 0) return -1;
    }
    uint32_t g[3];
    vkb_grid_1d(c, mn, 256, g);
    vkb_dispatch *d = vkb_add_dispatch(c, P_INIT, g[0], g[1], 1);
    if (!d) return -1;
    d->push.n = un;
    d->push.m = um;
    for (uint32_t j0 = 0; j0 < un; j0 += JB) {
        uint32_t jb = un - j0 < JB ? un - j0 : JB;
        if (tsqr) {
            if (qr_tsqr_panel(c, um, un, j0, jb, (uint32_t)leaf, fan, tbase, off[2] + j0 * JB)) return -1;
        } else {
            if (!(d = vkb_add_dispatch(c, P_PANEL, 1, 1, 1))) return -1;
            d->push = (vkb_push){.n = un, .m = um, .p0 = j0, .p1 = jb, .q3 = off[2] + j0 * JB};
        }
        if (j0 + jb < un && qr_apply(c, P_VTC, um, un, j0, jb, j0 + jb, off, (uint32_t)wgs)) return -1;
    }
    for (uint32_t p = np; p-- > 0;) {
        uint32_t j0 = p * JB, jb = un - j0 < JB ? un - j0 : JB;
        if (qr_apply(c, P_VTC + 3, um, un, j0, jb, j0, off, (uint32_t)wgs)) return -1;
    }
    if (tsqr) snprintf(c->variant, sizeof(c->variant), "householder_nb32_tsqr%lld", (long long)leaf);
    else if (unroll == 1) snprintf(c->variant, sizeof(c->variant), "householder_nb32");
    else snprintf(c->variant, sizeof(c->variant), "householder_nb32_u%lld", (long long)unroll);
    if (wgs != 264) {
        size_t len = strlen(c->variant);
        snprintf(c->variant + len, sizeof(c->variant) - len, "_wgs%lld", (long long)wgs);
    }
    c->flops = 2.0 * (double)m * (double)n * (double)n - 2.0 * pow((double)n, 3) / 3.0;
    c->bytes = 4.0 * (2.0 * (double)mn + (double)n * (double)(n + 1) / 2.0); /* read A, write Q and R */
    priv *pv = calloc(1, sizeof(*pv));
    if (!pv) return -1;
    pv->m = (size_t)m;
    pv->n = (size_t)n;
    pv->fill = fill;
    c->priv = pv;
    return 0;
}

static void qr_fill(vkb_case *c, gsl_rng *r)
{
    const priv *p = c->priv;
    size_t m = p->m, n = p->n;
    float *a = c->buf[0].host;
    vkb_fill_normal_f32(r, a, m * n, 1.0);
    if (p->fill == QF_SPREAD) {
        double *sg = malloc(n * sizeof(double)), *ad = malloc(m * n * sizeof(double));
        for (size_t i = 0; sg && i < n; i++) sg[i] = ldexp(1.0, -vkb_dc_grade(i, n, 24));
        if (sg && ad && !vkb_dc_from_svals(r, m, n, sg, ad))
            for (size_t i = 0; i < m * n; i++) a[i] = (float)ad[i];
        free(sg);
        free(ad);
    }
    for (size_t i = 0; i < m && (p->fill == QF_GRADED || p->fill == QF_TINYTAIL); i++)
        for (size_t j = 0; j < n; j++) {
            float *e = &a[i * n + j];
            if (p->fill == QF_GRADED) *e = ldexpf(*e, -vkb_dc_grade(i, m, 30));
            else if (i > j) *e = ldexpf(*e, -10);
            else if (i == j) *e = (*e < 0 ? -1.0f : 1.0f) * (float)(1.0 + gsl_rng_uniform(r));
        }
}

static double qr_ref(vkb_case *c)
{
    const priv *p = c->priv;
    gsl_matrix *a = gsl_matrix_alloc(p->m, p->n), *t = gsl_matrix_alloc(p->n, p->n);
    if (a && t) {
        const float *af = c->buf[0].host;
        for (size_t i = 0; i < p->m * p->n; i++) a->data[i] = af[i];
        gsl_linalg_QR_decomp_r(a, t);
    }
    gsl_matrix_free(a);
    gsl_matrix_free(t);
    return 1.0;
}

static void qr_check(vkb_case *c, vkb_check *r)
{
    const priv *p = c->priv;
    size_t m = p->m, n = p->n;
    const float *af = c->buf[0].host, *rf = c->buf[1].host, *qf = c->buf[2].host;
    double *a = vkb_dc_to_double(af, m, n, n), *q = vkb_dc_to_double(qf, m, n, n), *rr = calloc(n * n, sizeof(double));
    double *qt = malloc(m * n * sizeof(double)), *e = malloc(m * n * sizeof(double));
    vkb_check_begin(r, "lapack", THRESH);
    if (!a || !q || !rr || !qt || !e) {
        r->metric = NAN;
        snprintf(c->note, sizeof(c->note), "check out of memory");
        goto out;
    }
    for (size_t i = 0; i < m; i++)
        for (size_t j = 0; j < n; j++) {
            if (!isfinite(q[i * n + j])) r->nnan++;
            qt[j * m + i] = q[i * n + j];
            if (i <= j && i < n) {
                rr[i * n + j] = rf[i * n + j];
                if (!isfinite(rr[i * n + j])) r->nnan++;
            }
        }
    r->nchecked = m * n + n * (n + 1) / 2;
    vkb_dc_matmul(q, rr, e, m, n, n, VKB_DC_B_UPPER);
    for (size_t i = 0; i < m * n; i++) e[i] = a[i] - e[i];
    double anorm = vkb_dc_norm1(a, m, n);
    double res = vkb_dc_norm1(e, m, n) / ((double)m * (anorm > 0 ? anorm : 1) * VKB_DC_EPS);
    vkb_dc_matmul(qt, q, e, n, m, n, VKB_DC_C_LOWER);
    double orth = vkb_dc_orth1(e, n) / ((double)m * VKB_DC_EPS);
    r->metric = res > orth || isnan(res) ? res : orth;
    snprintf(c->note, sizeof(c->note), "resid=%.3g orth=%.3g", res, orth);
out:
    r->fraction = 1;  /* every element of Q and R enters the residual norms; n_checked counts R's triangle */
    vkb_check_end(r);
    free(a);
    free(q);
    free(rr);
    free(qt);
    free(e);
}

VKB_KERNEL(qr) = {"qr", "m,n,fill,unroll,wgs,panel,leaf", "blocked Householder QR A = Q R (fp32, Q formed), LAPACK residuals vs GSL", qr_plan,
                  qr_fill, qr_ref, qr_check, NULL, "householder_nb32_tsqrR (the panel as TSQR over leaves of <= R rows, R = 256 or 128 as shared memory allows; panel=one: householder_nb32_u8, one workgroup per panel; with unroll=1: householder_nb32, a row at a time)"};
