/* decomp_chol.c — blocked Cholesky A = L L^T in fp32 on the GPU (lower, row-major, in place).
 *
 * Dispatches: chol_init (copy A, clear info), then per nb-column block j0:
 *   panel=fused (default): chol_panel (potrf of the diagonal block fused with the TRSM of the panel, one
 *     workgroup per 64 panel rows plus one, each factoring the diagonal block itself), chol_syrk: 1 + 2 n/nb;
 *   panel=split (the first version): chol_potrf (the diagonal block in one workgroup), chol_trsm (the panel
 *     below it, 64 rows per workgroup, one row per invocation), chol_syrk: 1 + 3 n/nb dispatches.
 *   panel=ahead (nb=64 tile=64): block 0's panel, then per block one dispatch holding block k's update less its
 *     first tile column, the copy of block k's L11, and block k + 1's panel, whose groups apply that column
 *     themselves (kernels/chol_ahead.comp): 2 + (n/nb - 1) dispatches, the panel beside the update.
 *   tile=128 | 64 (default): the syrk's lower tiles, 128x128 with 8x8 per invocation (chol_syrk128) or
 *     64x64 with 4x4 (chol_syrk). The first version is panel=split tile=64.
 * A pivot that is not > 0 stops it: the GPU writes info = first failing pivot (1-based, LAPACK's INFO) and
 * the later dispatches exit.
 * Time at n = 4096, nb = 64 (64 blocks) from first principles: the split panel is latency-bound, ~25 us of
 * potrf (87k updates with an index division each, on one workgroup) and ~35 us of TRSM (a 2080-long
 * dependent chain of shared loads and FMAs per invocation, 2 warps per SM) per block, ~4 ms in all with
 * 192 barriers; the fused panel keeps the block in registers, 16 elements per invocation, one barrier per
 * column: ~64 steps x ~150 cycles twice, ~10 us per block, ~0.7 ms in all with 128 barriers. Measured on
 * the H200 (--profile): 57 us a block, 3.67 ms of 5.83 at n = 4096 (3.2x cuSOLVER). Folding the TRSM into
 * the potrf's steps (one right-looking loop over a 128-row panel, no predicate per element; chol_panel.glsl)
 * halved the steps and dropped the predicate from every element update: 24 us a block, 3.71 ms in all (0.63
 * at 1024), where the syrk (2.24 ms) is now the larger part. The syrk is
 * n^3/3 = 22.9 GFLOP: 4x4 tiles are bound by shared loads (8 per 16 FMAs, <= 50 % of the 67 TFLOP/s
 * fp32 peak), 8x8 tiles by the FMAs (16 per 64). Expect ~2.5-4 ms in place of 10.3 ms on an H200.
 *
 * Reference: gsl_linalg_cholesky_decomp1 in double (its status, GSL_EDOM for not positive definite,
 * is kept for the check). Check (LAPACK TESTING/LIN/spot01.f, 1-norms, eps = 2^-24):
 *   ratio = ||A - L L^T||_1 / (n ||A||_1 eps), computed in double from the fp32 A and L; pass < 30
 *   (LAPACK's dtest.in threshold). A backward-stable Cholesky has ||A - L L^T|| <= c n eps ||A|| with
 *   c = O(1) (Higham, Thm 10.3: |dA| <= gamma_{n+1} |L||L^T|, and || |L||L^T| ||_1 <= n ||A||_1 for SPD),
 *   so the ratio is O(1) whatever the condition number.
 * Inputs: spd=1: A = Q^T diag(lambda) Q, lambda geometric from 1 down to 1/cond, shuffled (cond axis);
 *   spd=0: A = L D L^T with L unit lower (entries U(-0.5,0.5)/sqrt(n), well conditioned) and D_k = -1 at
 *   k = 2n/3, D_i in [1, 2] elsewhere: the leading minors are positive up to k and negative at k, so the
 *   first non-positive pivot is k + 1 (1-based) without ambiguity (|pivot| ~ 1, far above rounding).
 *   That case PASSes only if the kernel reports info = k + 1, GSL reports GSL_EDOM, and the leading
 *   k x k factor it left passes the residual test; the note says so.
 * fill= normal (the above) | graded: A = D A0 D with A0 the above and D_i = 2^(-10 i/(n-1)): entries span
 *   2^-20 (D_i rounded to powers of 2) and kappa(A) reaches 2^20 kappa(A0), beyond 1/u at cond=1e3, yet Cholesky succeeds and is stable
 *   in fp32, because what decides is kappa of the unit-diagonal scaling D^-1 A D^-1 (van der Sluis; Demmel
 *   1989; Higham Thm 10.7), about kappa(A0); the normwise residual ratio stays O(1). A kernel with an absolute
 *   pivot threshold or a fixed shift fails it. Positive D keeps the inertia of every leading minor, so spd=0
 *   still fails first at pivot k + 1. Near-singular inputs are the cond axis (1e6 = 1/(16 u); beyond ~1/(n u)
 *   the fp32 factor need not exist, which excludes them from the kernel's contract).
 */
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <gsl/gsl_errno.h>
#include <gsl/gsl_linalg.h>
#include <gsl/gsl_randist.h>

#include "check.h"
#include "decomp.h"
#include "vkb.h"

#define THRESH 30.0

static const char *const chol_fills[] = {"normal", "graded", NULL};
static const char *const chol_panels[] = {"fused", "split", "ahead", NULL};

/* Index of param key's value in names (names[0] when absent), or -1 with the case's error set. */
static int chol_pick(vkb_case *c, const char *key, const char *const *names)
{
    const char *v = vkb_param_str(c, key, names[0]);
    for (int i = 0; names[i]; i++)
        if (!strcmp(v, names[i])) return i;
    return vkb_error(c, "%s=%s: expected %s, %s%s%s", key, v, names[0], names[1], names[2] ? " or " : "",
                     names[2] ? names[2] : "");
}

typedef struct priv {
    double *a;      /* the fp32 input, in double */
    int spd, fill;
    uint32_t want_info; /* 0, or the pivot the spd=0 input must fail at (1-based) */
    int gsl_status;
} priv;

static int chol_plan_end(vkb_case *c, uint32_t n, int spd, int fill)
{
    c->flops = (double)n * (double)n * (double)n / 3.0;
    c->bytes = 4.0 * (double)n * (double)(n + 1); /* read and write the lower triangle */
    priv *p = calloc(1, sizeof(*p));
    if (!p) return -1;
    p->spd = spd;
    p->fill = fill;
    c->priv = p;
    return 0;
}

/* panel=ahead (kernels/chol_ahead.comp): chol_init, block 0's panel, then per block k < last one dispatch
 * with block k's update (less its first tile column), the copy of its L11 and block k + 1's panel, which
 * applies that column itself: 2 + (blocks - 1) dispatches against 1 + 2 blocks. L11 alternates between
 * two 64 x 64 buffers of ws. */
static int chol_plan_ahead(vkb_case *c, uint32_t n, int pp, int spd, int fill)
{
    uint32_t s256[1] = {256}, g[3], nblk = (n + 63) / 64;
    int pa = vkb_add_pipe(c, "chol_ahead", 1, s256);
    if (pa < 0) return -1;
    vkb_grid_1d(c, 1 + (uint64_t)(n > 64 ? (n - 64 + 63) / 64 : 0), 1, g);
    vkb_dispatch *d = vkb_add_dispatch(c, pp, g[0], g[1], 1);
    if (!d) return -1;
    d->push = (vkb_push){.n = n, .p0 = 0, .p1 = n < 64 ? n : 64, .p2 = n > 64};
    for (uint32_t k = 0; k + 1 < nblk; k++) {
        uint32_t j0 = 64 * k, t = (n - j0 - 64 + 63) / 64, j1 = j0 + 64, jb1 = n - j1 < 64 ? n - j1 : 64;
        uint64_t groups = (uint64_t)t * (t - 1) / 2 + 2 + (n - j1 - jb1 + 63) / 64;
        vkb_grid_1d(c, groups, 1, g);
        if (!(d = vkb_add_dispatch(c, pa, g[0], g[1], 1))) return -1;
        d->push = (vkb_push){.n = n, .p0 = j0, .p1 = 64, .q1 = (k % 2) * 4096, .q2 = ((k + 1) % 2) * 4096};
    }
    snprintf(c->variant, sizeof(c->variant), "blocked_nb64_ahead_t64");
    return chol_plan_end(c, n, spd, fill);
}

static int chol_plan(vkb_case *c)
{
    int64_t n = vkb_param_int(c, "n", -1), nb = vkb_param_int(c, "nb", 64), spd = vkb_param_int(c, "spd", 1);
    double cond = vkb_param_num(c, "cond", 1e3);
    /* 64: on an H200 the fused panel with 64x64 update tiles took 5.87 ms at n=4096 (1.15 ms at 1024) against
     * 7.16 ms (1.44) with 128x128 tiles (tests/gpu/sweep_decomp.txt). */
    int64_t tile = vkb_param_int(c, "tile", 64);
    int fill = vkb_fill_pick(c, chol_fills), panel = chol_pick(c, "panel", chol_panels), split = panel == 1;
    if (fill < 0 || panel < 0) return -1;
    if (panel == 2 && (nb != 64 || tile != 64))
        return vkb_error(c, "panel=ahead: needs nb=64 tile=64 (the panel's groups apply the first 64-wide tile column)");
    if (tile != 64 && tile != 128) return vkb_error(c, "tile=%lld: expected 64 or 128", (long long)tile);
    if (n < 1 || n > 32768) return vkb_error(c, "n=%s: expected 1..32768", vkb_param_str(c, "n", "(missing)"));
    if (nb < 1 || nb > 64) return vkb_error(c, "nb=%lld: expected 1..64", (long long)nb);
    if (spd != 0 && spd != 1) return vkb_error(c, "spd=%lld: expected 0 or 1", (long long)spd);
    if (!(cond >= 1)) return vkb_error(c, "cond=%s: expected >= 1", vkb_param_str(c, "cond", ""));
    if (!spd && n > 2048) return vkb_error(c, "spd=0 builds L D L^T in O(n^3): n=%lld > 2048", (long long)n);
    size_t nn = (size_t)n * (size_t)n;
    vkb_add_buf(c, "a", VKB_F32, nn, VKB_IN);
    vkb_add_buf(c, "l", VKB_F32, nn, VKB_OUT);
    vkb_add_buf(c, "info", VKB_U32, 4, VKB_OUT);
    vkb_add_buf(c, "ws", VKB_F32, 2 * 64 * 64, VKB_SCRATCH); /* the fused panel's L11, until syrk copies it */
    uint32_t s256[1] = {256}, s64[1] = {64}, ts = (uint32_t)tile;
    int pi = vkb_add_pipe(c, "chol_init", 1, s256), ps = vkb_add_pipe(c, tile == 128 ? "chol_syrk128" : "chol_syrk", 1, s256);
    int pp = split ? vkb_add_pipe(c, "chol_potrf", 1, s256) : vkb_add_pipe(c, "chol_panel", 1, s256);
    int pt = split ? vkb_add_pipe(c, "chol_trsm", 1, s64) : -1;
    uint32_t g[3];
    vkb_grid_1d(c, nn, 256, g);
    vkb_dispatch *d = vkb_add_dispatch(c, pi, g[0], g[1], 1);
    if (!d) return -1;
    d->push.n = (uint32_t)nn;
    if (panel == 2) return chol_plan_ahead(c, (uint32_t)n, pp, (int)spd, fill);
    for (uint32_t j0 = 0; j0 < (uint32_t)n; j0 += (uint32_t)nb) {
        uint32_t jb = (uint32_t)n - j0 < (uint32_t)nb ? (uint32_t)n - j0 : (uint32_t)nb;
        uint32_t rest = (uint32_t)n - j0 - jb, t = (rest + 63) / 64, ty = (rest + ts - 1) / ts;
        /* split: potrf, trsm, syrk; fused: panel (1 + t groups), syrk; no trailing matrix: the panel alone */
        int pipes[3] = {pp, split ? pt : ps, ps};
        uint64_t groups[3] = {split ? 1 : 1 + (uint64_t)t, split ? t : (uint64_t)ty * (ty + 1) / 2 + 1,
                              (uint64_t)ty * (ty + 1) / 2};
        for (int s = 0; s < (rest ? 3 - !split : 1); s++) {
            vkb_grid_1d(c, groups[s], 1, g);
            if (!(d = vkb_add_dispatch(c, pipes[s], g[0], g[1], 1))) return -1;
            d->push.n = (uint32_t)n;
            d->push.p0 = j0;
            d->push.p1 = jb;
            d->push.p2 = !split && rest; /* fused: L11 goes through ws, syrk's extra group writes it */
        }
    }
    if (!split || tile != 64)
        snprintf(c->variant, sizeof(c->variant), "blocked_nb%lld_%s_t%lld", (long long)nb, chol_panels[panel],
                 (long long)tile);
    else
        snprintf(c->variant, sizeof(c->variant), "blocked_nb%lld", (long long)nb);
    return chol_plan_end(c, (uint32_t)n, (int)spd, fill);
}

static void chol_fill(vkb_case *c, gsl_rng *r)
{
    priv *p = c->priv;
    size_t n = (size_t)vkb_param_int(c, "n", 1), nn = n * n;
    double *a = calloc(nn, sizeof(double)), *lam = malloc(n * sizeof(double)), cond = vkb_param_num(c, "cond", 1e3);
    double *l = p->spd ? NULL : calloc(nn, sizeof(double));
    float *af = c->buf[0].host;
    if (!a || !lam || (!p->spd && !l)) goto out;
    if (p->spd) {
        for (size_t i = 0; i < n; i++) lam[i] = n > 1 ? pow(cond, -(double)i / (double)(n - 1)) : 1.0;
        gsl_ran_shuffle(r, lam, n, sizeof(double));
        if (vkb_dc_sym_from_eigs(r, n, lam, a)) goto out;
    } else {
        size_t k = 2 * n / 3;
        for (size_t i = 0; i < n; i++) {
            lam[i] = i == k ? -1.0 : 1.0 + gsl_rng_uniform(r);
            for (size_t j = 0; j < i; j++) l[i * n + j] = (gsl_rng_uniform(r) - 0.5) / sqrt((double)n);
            l[i * n + i] = 1.0;
        }
        for (size_t i = 0; i < n; i++)
            for (size_t j = 0; j <= i; j++) {
                double s = 0;
                for (size_t q = 0; q <= j; q++) s += l[i * n + q] * lam[q] * l[j * n + q];
                a[i * n + j] = a[j * n + i] = s;
            }
        p->want_info = (uint32_t)k + 1;
    }
    for (size_t i = 0; p->fill && n > 1 && i < n; i++)  /* graded: D A0 D, D_i = 2^-e_i (exact scalings) */
        for (size_t j = 0; j < n; j++) a[i * n + j] = ldexp(a[i * n + j], -vkb_dc_grade(i, n, 10) - vkb_dc_grade(j, n, 10));
    p->a = a;
    a = NULL;
    for (size_t i = 0; i < nn; i++) {
        af[i] = (float)p->a[i];
        p->a[i] = af[i]; /* GSL and the check see the same rounded input as the GPU */
    }
out:
    free(a);
    free(lam);
    free(l);
}

static double chol_ref(vkb_case *c)
{
    priv *p = c->priv;
    size_t n = (size_t)vkb_param_int(c, "n", 1);
    if (!p->a) return 1.0;
    gsl_matrix *m = gsl_matrix_alloc(n, n);
    if (!m) return 1.0;
    memcpy(m->data, p->a, n * n * sizeof(double));
    gsl_error_handler_t *old = gsl_set_error_handler_off(); /* GSL_EDOM is an answer here, not an abort */
    p->gsl_status = gsl_linalg_cholesky_decomp1(m);
    gsl_set_error_handler(old);
    gsl_matrix_free(m);
    return 1.0;
}

/* ||A_k - L_k L_k^T||_1 / (k ||A_k||_1 eps) over the leading k x k block; counts NaN/poison in L_k. */
static double chol_ratio(const priv *p, const float *lf, size_t n, size_t k, vkb_check *r)
{
    if (k == 0) return 0;
    double *l = vkb_dc_to_double(lf, k, k, n), *lt = calloc(k * k, sizeof(double)), *e = malloc(k * k * sizeof(double));
    double ratio = NAN;
    if (!l || !lt || !e) goto out;
    for (size_t i = 0; i < k; i++)
        for (size_t j = 0; j < k; j++) {
            if (j > i) l[i * k + j] = 0;
            else if (!isfinite(l[i * k + j])) r->nnan++;
            lt[j * k + i] = l[i * k + j];
        }
    vkb_dc_matmul(l, lt, e, k, k, k, VKB_DC_A_LOWER | VKB_DC_B_UPPER | VKB_DC_C_LOWER);
    double *col = calloc(k, sizeof(double)), anorm = 0;
    if (!col) goto out;
    for (size_t i = 0; i < k; i++)
        for (size_t j = 0; j < k; j++) {
            col[j] += fabs(p->a[i * n + j]);
            if (j <= i) e[i * k + j] = p->a[i * n + j] - e[i * k + j];
        }
    for (size_t j = 0; j < k; j++) anorm = col[j] > anorm ? col[j] : anorm;
    free(col);
    r->nchecked = k * (k + 1) / 2;
    ratio = anorm > 0 ? vkb_dc_norm1_lower(e, k) / ((double)k * anorm * VKB_DC_EPS) : vkb_dc_norm1_lower(e, k) / VKB_DC_EPS;
out:
    free(l);
    free(lt);
    free(e);
    return ratio;
}

static void chol_check(vkb_case *c, vkb_check *r)
{
    priv *p = c->priv;
    size_t n = (size_t)vkb_param_int(c, "n", 1);
    uint32_t info = ((const uint32_t *)c->buf[2].host)[0];
    vkb_check_begin(r, "lapack", THRESH);
    if (!p->a) {
        vkb_check_bad(r, 0, NAN, 0);
        snprintf(c->note, sizeof(c->note), "input could not be built (out of memory)");
        return vkb_check_end(r);
    }
    if (info > n) { /* the poison 0xFFFFFFFF: never written */
        r->nunwritten = 1;
        snprintf(c->note, sizeof(c->note), "info never written (%#x)", info);
        return vkb_check_end(r);
    }
    size_t k = info ? info - 1 : n;
    r->metric = chol_ratio(p, c->buf[1].host, n, k, r);
    const char *gsl = p->gsl_status == GSL_EDOM ? "GSL_EDOM" : p->gsl_status ? "GSL error" : "GSL ok";
    if (p->spd) {
        snprintf(c->note, sizeof(c->note), "resid=%.3g info=%u %s", r->metric, info, gsl);
        if (info) {
            snprintf(r->detail, sizeof(r->detail), "kernel reported not positive definite at pivot %u (%s)", info, gsl);
            r->nbad++;
        }
    } else {
        snprintf(c->note, sizeof(c->note), "not SPD: kernel info=%u (want %u), %s; leading-minor resid=%.3g", info,
                 p->want_info, gsl, r->metric);
        if (info != p->want_info || p->gsl_status != GSL_EDOM) {
            snprintf(r->detail, sizeof(r->detail), "kernel info=%u, expected %u with GSL_EDOM (GSL: %s)", info,
                     p->want_info, gsl);
            r->nbad++;
        }
    }
    r->fraction = 1;  /* every element enters the residual norms; n_checked counts the factor's triangle */
    vkb_check_end(r);
}

static void chol_release(vkb_case *c)
{
    priv *p = c->priv;
    if (p) free(p->a);
}

VKB_KERNEL(cholesky) = {"cholesky", "n,nb,spd,cond,fill,panel,tile", "blocked Cholesky A = L L^T (fp32), LAPACK residual vs GSL",
                        chol_plan, chol_fill, chol_ref, chol_check, chol_release, "blocked_nb64_fused_t64 (nb=, panel=fused|split|ahead, tile=64|128; panel=split tile=64 is blocked_nbNB; "
                        "panel=ahead (nb=64 tile=64): block k+1's panel in the dispatch of block k's update)"};
