/* dense.c — the fp16-weight baseline beside BitLinear (issue 3): y[m][n] = sum_k W[n][k] x[m][k] with fp16 W
 * and x, fp32 accumulation and output, at the same shapes and batches as bitnet_linear.
 * algo=gemv (default for m <= 32, kernels/dense_gemv.comp) or gemm (kernels/dense_gemm.comp, SIMT fp32).
 *
 * Tolerance: products of two fp16 values are exact in fp32 (11 + 11 significant bits <= 24), and unpacking
 * fp16 is exact, so only the K - 1 additions round, in whatever order the GPU uses: |y - y_exact| <=
 * gamma_{K-1} sum_k |W[n][k] x[m][k]|, gamma_j = j u / (1 - j u), u = 2^-24 (Higham §3.1). Reference in double.
 * Reference cost: all outputs while M N K <= 2^27; above, tokens 0 and M-1 in full plus random outputs up to
 * that budget (ref_fraction).
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <gsl/gsl_randist.h>

#include "check.h"
#include "vkb.h"

#define BUDGET (1u << 27)

typedef struct dense_priv {
    size_t n, k, m, kp;   /* kp: row stride, K rounded up to 8 */
    size_t *pick, npick;  /* sampled outputs (m * N + n), or none = all */
    double *want, *bound;
} dense_priv;

static int dense_plan(vkb_case *c)
{
    const char *sh = vkb_param_str(c, "shape", NULL);
    long long n = -1, k = -1;
    if (sh && sscanf(sh, "%lldx%lld", &n, &k) != 2) n = -1;
    if (!sh) n = vkb_param_int(c, "n", -1), k = vkb_param_int(c, "k", -1);
    int64_t m = vkb_param_int(c, "m", 1);
    if (n <= 0 || k <= 0 || m <= 0 || (double)(m > n ? m : n) * (double)(k + 8) >= 2147483648.0 ||
        (double)n * (double)m >= 4294967296.0)
        return vkb_error(c, "n=%lld k=%lld m=%lld: expected positive sizes, products < 2^31", n, k, (long long)m);
    snprintf(c->dtype, sizeof(c->dtype), "f16");
    if (!c->caps.storage16) return vkb_skip(c, "device lacks storageBuffer16BitAccess");
    const char *algo = vkb_param_str(c, "algo", m <= 32 ? "gemv" : "gemm");
    int gemm = !strcmp(algo, "gemm");
    if (!gemm && strcmp(algo, "gemv")) return vkb_error(c, "algo=%s: expected gemv or gemm", algo);
    dense_priv *p = calloc(1, sizeof(*p));
    if (!p) return vkb_error(c, "out of memory");
    c->priv = p;
    p->n = (size_t)n, p->k = (size_t)k, p->m = (size_t)m, p->kp = ((size_t)k + 7) / 8 * 8;
    vkb_add_buf(c, "w", VKB_F16, p->n * p->kp, VKB_IN);
    vkb_add_buf(c, "x", VKB_F16, p->m * p->kp, VKB_IN);
    vkb_add_buf(c, "y", VKB_F32, p->m * p->n, VKB_OUT);
    uint32_t sg = c->caps.subgroup ? c->caps.subgroup : 32, nc = (uint32_t)(p->kp / 8), gx, gy, spec[3];
    if (gemm) {
        uint32_t bm = (uint32_t)vkb_param_int(c, "bm", m >= 64 && ((n + 63) / 64) * ((m + 63) / 64) >= 264 ? 64 : 32);
        if (bm != 16 && bm != 32 && bm != 64) return vkb_error(c, "bm=%u: expected 16, 32 or 64", bm);
        spec[0] = 256, spec[1] = bm;
        gx = (uint32_t)((n + 63) / 64), gy = (uint32_t)((m + bm - 1) / bm);
        snprintf(c->note, sizeof(c->note), "gemm tile 64x%u (SIMT fp32)", bm);
    } else {
        uint32_t mt = (uint32_t)vkb_param_int(c, "mt", m < 8 ? m : 8);
        uint32_t rows = (uint32_t)vkb_param_int(c, "rows", m == 1 ? 4 : 2);
        uint32_t wg = (uint32_t)vkb_param_int(c, "wg", nc <= 512 ? 64 : 128);
        if (mt < 1 || mt > 16 || rows < 1 || rows > 16 || wg < sg || wg % sg || wg / sg > 16 || wg > c->caps.max_wg_size)
            return vkb_error(c, "mt=%u rows=%u wg=%u: expected 1..16, 1..16, a multiple of the subgroup (%u) with <= 16 subgroups",
                             mt, rows, wg, sg);
        spec[0] = wg, spec[1] = rows, spec[2] = mt;
        gx = (uint32_t)((n + rows - 1) / rows), gy = (uint32_t)((m + mt - 1) / mt);
        snprintf(c->note, sizeof(c->note), "gemv rows=%u mt=%u wg=%u", rows, mt, wg);
    }
    if (gx > c->caps.max_wg_count_x || gy > 65535) return vkb_error(c, "grid %ux%u too large", gx, gy);
    vkb_dispatch *d = vkb_add_dispatch(c, vkb_add_pipe(c, gemm ? "dense_gemm" : "dense_gemv", gemm ? 2 : 3, spec), gx, gy, 1);
    if (!d) return vkb_error(c, "out of memory");
    d->push.n = (uint32_t)n, d->push.m = (uint32_t)m, d->push.k = (uint32_t)k, d->push.p0 = nc;
    c->bytes = 2.0 * (double)n * (double)k + 2.0 * (double)m * (double)k + 4.0 * (double)m * (double)n;
    c->flops = 2.0 * (double)m * (double)n * (double)k;
    return 0;
}

static void fill_rows(gsl_rng *r, uint16_t *h, size_t rows, size_t k, size_t kp)
{
    for (size_t i = 0; i < rows; i++)
        for (size_t j = 0; j < kp; j++) h[i * kp + j] = j < k ? vkb_f32_to_f16((float)gsl_ran_gaussian_ziggurat(r, 1.0)) : 0;
}

static void dense_fill(vkb_case *c, gsl_rng *r)
{
    dense_priv *p = c->priv;
    fill_rows(r, c->buf[0].host, p->n, p->k, p->kp);
    fill_rows(r, c->buf[1].host, p->m, p->k, p->kp);
    size_t total = p->m * p->n, budget = BUDGET / p->k;
    if (total <= budget) return;
    p->npick = 2 * p->n + (budget > 2 * p->n ? budget - 2 * p->n : 0);
    p->pick = malloc(p->npick * sizeof(*p->pick));
    if (!p->pick) return;
    for (size_t i = 0; i < p->npick; i++)
        p->pick[i] = i < p->n ? i : i < 2 * p->n ? (p->m - 1) * p->n + (i - p->n) : (size_t)gsl_rng_uniform_int(r, total);
    size_t len = strlen(c->note);
    snprintf(c->note + len, sizeof(c->note) - len, "; checked: tokens 0, M-1 + %zu random outputs", p->npick - 2 * p->n);
}

static double dense_ref(vkb_case *c)
{
    dense_priv *p = c->priv;
    size_t cnt = p->pick ? p->npick : p->m * p->n;
    p->want = malloc(cnt * sizeof(double));
    p->bound = malloc(cnt * sizeof(double));
    if (!p->want || !p->bound) return 1.0;
    const uint16_t *w = c->buf[0].host, *x = c->buf[1].host;
    double km1 = (double)(p->k - 1) * 0x1p-24, gam = km1 / (1 - km1);
    for (size_t i = 0; i < cnt; i++) {
        size_t o = p->pick ? p->pick[i] : i, t = o / p->n, row = o % p->n;
        double s = 0, sa = 0;
        for (size_t j = 0; j < p->k; j++) {
            double v = (double)vkb_f16_to_f32(w[row * p->kp + j]) * vkb_f16_to_f32(x[t * p->kp + j]);
            s += v;
            sa += fabs(v);
        }
        p->want[i] = s;
        p->bound[i] = gam * sa;
    }
    return (double)cnt / (double)(p->m * p->n);
}

static void dense_check(vkb_case *c, vkb_check *r)
{
    dense_priv *p = c->priv;
    const float *y = c->buf[2].host;
    vkb_check_begin(r, "bound", 1);
    if (!p->want || !p->bound || (p->npick && !p->pick)) {
        snprintf(r->detail, sizeof(r->detail), "reference ran out of memory");
        r->metric = NAN;
        vkb_check_end(r);
        return;
    }
    if (!p->pick) {
        vkb_cmp_bound(r, VKB_F32, y, p->want, p->m * p->n, (vkb_tol){.bound = p->bound});
        return;
    }
    float *got = malloc(p->npick * sizeof(*got));
    if (!got) {
        r->metric = NAN;
        vkb_check_end(r);
        return;
    }
    for (size_t i = 0; i < p->npick; i++) got[i] = y[p->pick[i]];  /* indices in detail are sample numbers */
    vkb_cmp_bound(r, VKB_F32, got, p->want, p->npick, (vkb_tol){.bound = p->bound});
    free(got);
}

static void dense_release(vkb_case *c)
{
    dense_priv *p = c->priv;
    if (p) free(p->pick), free(p->want), free(p->bound);
    free(p);
    c->priv = NULL;
}

VKB_KERNEL(dense_f16) = {"dense_f16", "n,k,m,shape,algo,rows,mt,wg,bm",
                         "fp16-weight GEMV/GEMM baseline for bitnet_linear: fp16 W, x; fp32 accumulate and y",
                         dense_plan, dense_fill, dense_ref, dense_check, dense_release};
