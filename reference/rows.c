/* rows.c — row-wise kernels on a rows x cols matrix: rowsum, rowmax, softmax, rmsnorm; and transpose.
 *
 * Tolerances (u = 2^-24; one ULP of fp32 is at most 2u relative; k = ceil(cols/WG) + log2(WG), the
 * longest addition chain of rows.glsl: a sequential walk per invocation, then a binary tree):
 *  - rowmax, transpose: exact.
 *  - rowsum: |err| <= gamma_k * sum_j |x_j| (Higham §4.2).
 *  - softmax: with d_j = m - x_j, each e_j = exp(x_j - m) carries the argument's rounding (d_j u relative)
 *    and exp's 3 + 2 d_j ULP (Vulkan precision appendix): eps_j = d_j u + (3 + 2 d_j) 2u. The sum S carries
 *    the e_j-weighted mean of the eps_j plus gamma_k; the division 2.5 ULP. Relative bound per element:
 *    eps_j + sum_k(e_k eps_k)/S + gamma_k + 2.5 * 2u. (It replaces 2 (R u + (3 + 2R) 2u) + ..., R = max - min,
 *    which it never exceeds: the weighted mean is at most the largest eps_k.) An e_j below 2^-126 may be
 *    flushed to 0 (Vulkan's default denormal rule): y_j may then be 0, and S lose cols 2^-126.
 *  - rmsnorm: y = x g / sqrt(s/n + eps), rows.glsl computing inversesqrt(s * (1.0 / float(n)) + eps): the
 *    squares and the sum give gamma_{k+1} on s; float(n) is exact below 2^24 (else one rounding, u); the
 *    division 1.0 / float(n) carries Vulkan's 2.5 ULP <= 5u (as bitnet_aquant_r_bound counts it), the
 *    product by s one rounding, + eps one: gamma_{k+8} (gamma_{k+9}) relative on the argument, halved by
 *    the square root; inversesqrt 2 ULP; two products 2u. Relative bound: gamma_{k+8}/2 + 2 * 2u + 2u.
 *  - fp16 storage adds one ULP of fp16 for the final conversion.
 */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include <gsl/gsl_randist.h>

#include "check.h"
#include "vkb.h"

#define WG 256u
#define LOG2_WG 8.0
#define U32 0x1p-24

enum { ROWSUM, ROWMAX, SOFTMAX, RMSNORM, TRANSPOSE };

typedef struct priv {
    double *want, *bound;
    void *want_t;  /* exact-typed results for rowmax / transpose */
    int fill;
} priv;

/* fill= per kernel, default (today's distribution) first:
 *   large   rowsum: |x| log-uniform over [2^-27, 2^101] (fp16: [1, 65504], where an fp16 accumulator
 *           overflows); softmax: row offset U(-B, B) + U(-10, 10), B = 1e4 (fp16: 6e4), and row 0 spread
 *           over U(-B, B): exp without the max subtraction overflows; rmsnorm: rows scaled by 2^[0, 40]
 *           (fp16: |x| in [2^12, 65504]: squares overflow fp16, not fp32)
 *   equal   every row one value (rowmax ties; softmax = 1/cols exactly; some rows at +-B or +-0 ties)
 *   neg     rowmax: every value negative, every 4th row all -Inf (a max started at 0 or -FLT_MAX fails)
 *   tiny    rmsnorm: rows scaled by 2^-[8, 20]: mean x^2 below eps (fp16: subnormal inputs)
 *   special transpose: NaN, Inf, +-0, subnormals: moved bit for bit */
static const char *const *row_fills(int op)
{
    static const char *const sum[] = {"normal", "large", "equal", NULL}, *const max[] = {"normal", "neg", "equal", NULL},
                             *const sm[] = {"uniform", "large", "equal", NULL}, *const rms[] = {"normal", "large", "tiny", NULL},
                             *const tr[] = {"normal", "special", NULL};
    static const char *const *const by_op[] = {sum, max, sm, rms, tr};
    return by_op[op];
}
enum { F_DEFAULT, F_LARGE, F_EQUAL, F_NEG = 1, F_TINY = 2, F_SPECIAL = 1 };

static int row_op(const vkb_case *c)
{
    static const char *const names[] = {"rowsum", "rowmax", "softmax", "rmsnorm", "transpose"};
    for (int i = 0; i < 5; i++)
        if (!strcmp(c->k->name, names[i])) return i;
    return ROWSUM;
}

static double gamma_k(double k) { return k * U32 / (1 - k * U32); }

static int rows_plan(vkb_case *c)
{
    vkb_dtype t;
    if (vkb_case_dtype(c, &t)) return -1;
    if (t != VKB_F32 && t != VKB_F16) return vkb_error(c, "dtype %s: expected f32 or f16", c->dtype);
    int64_t rows = vkb_param_int(c, "rows", -1), cols = vkb_param_int(c, "cols", -1);
    int fill = vkb_fill_pick(c, row_fills(row_op(c)));
    if (fill < 0) return -1;
    if (rows <= 0 || cols <= 0 || (double)rows * (double)cols > 4294967280.0)
        return vkb_error(c, "rows=%s cols=%s: expected positive integers with rows*cols < 2^32",
                         vkb_param_str(c, "rows", "(missing)"), vkb_param_str(c, "cols", "(missing)"));
    if (t == VKB_F16 && !(c->caps.f16 && c->caps.storage16))
        return vkb_skip(c, "device lacks shaderFloat16 + storageBuffer16BitAccess");
    int op = row_op(c);
    size_t n = (size_t)rows * (size_t)cols, es = vkb_dtype_size(t);
    const char *shader = op == TRANSPOSE ? (t == VKB_F16 ? "transpose_f16" : "transpose")
                                         : (t == VKB_F16 ? "rows_f16" : "rows");
    vkb_add_buf(c, "x", t, n, VKB_IN);
    vkb_add_buf(c, "y", t, op >= SOFTMAX ? n : 1, op >= SOFTMAX ? VKB_OUT : VKB_SCRATCH);
    if (op != TRANSPOSE) {
        vkb_add_buf(c, "out", VKB_F32, op <= ROWMAX ? (size_t)rows : 1, op <= ROWMAX ? VKB_OUT : VKB_SCRATCH);
        vkb_add_buf(c, "g", t, op == RMSNORM ? (size_t)cols : 1, VKB_IN);
    }
    uint32_t spec[2] = {WG, (uint32_t)op}, g[3];
    int pipe = vkb_add_pipe(c, shader, 2, spec);
    if (op == TRANSPOSE) {
        g[0] = (uint32_t)((cols + 31) / 32);
        g[1] = (uint32_t)((rows + 31) / 32);
    } else {
        vkb_grid_1d(c, (uint64_t)rows, 1, g);
    }
    vkb_dispatch *d = vkb_add_dispatch(c, pipe, g[0], g[1], 1);
    if (!d) return vkb_error(c, "out of memory");
    d->push.n = (uint32_t)rows;
    d->push.m = (uint32_t)cols;
    d->push.eps = 1e-5f;
    static const double rw[] = {1, 1, 2, 2, 2}, fl[] = {1, 1, 5, 4, 0};
    c->bytes = rw[op] * (double)n * (double)es + (op <= ROWMAX ? 4.0 * (double)rows : 0) +
               (op == RMSNORM ? (double)cols * (double)es : 0);
    c->flops = fl[op] * (double)n;
    if (!(c->priv = calloc(1, sizeof(priv)))) return vkb_error(c, "out of memory");
    ((priv *)c->priv)->fill = fill;
    return 0;
}

/* The input x (rows x cols, as floats) of a fill other than the default. */
static void rows_fill_x(vkb_case *c, gsl_rng *r, float *x, size_t rows, size_t cols, int fill)
{
    int op = row_op(c), f16 = c->buf[0].type == VKB_F16;
    double B = f16 ? 6e4 : 1e4;
    if (op == TRANSPOSE || (op == ROWSUM && fill == F_LARGE)) {
        vkb_fill_edge(r, x, rows * cols, c->buf[0].type, op == TRANSPOSE ? VKB_FILL_SPECIAL : VKB_FILL_LARGE);
        if (op == ROWSUM && !f16)
            for (size_t i = 0; i < rows * cols; i++) x[i] = ldexpf(x[i], -27);  /* sums stay finite in fp32 */
        return;
    }
    for (size_t i = 0; i < rows; i++) {
        float *xr = x + i * cols;
        double v = gsl_ran_gaussian_ziggurat(r, 1.0), L = B * (2 * gsl_rng_uniform(r) - 1);
        for (size_t j = 0; j < cols; j++) {
            double z = gsl_ran_gaussian_ziggurat(r, 1.0);
            if (fill == F_EQUAL) xr[j] = (float)(i % 3 == 1 ? L : i % 3 == 2 ? (j & 1 ? 0.0 : -0.0) : v);
            else if (op == ROWMAX) xr[j] = i % 4 == 3 ? -INFINITY : (float)(-fabs(z) - 0x1p-10);
            else if (op == SOFTMAX) xr[j] = (float)(i == 0 ? B * (2 * gsl_rng_uniform(r) - 1) : L + 20 * gsl_rng_uniform(r) - 10);
            else if (f16) xr[j] = (float)(fill == F_LARGE ? (z < 0 ? -1 : 1) * ldexp(1 + gsl_rng_uniform(r) * 0.999, 12 + (int)(i % 4))
                                                          : ldexp(z, -8 - (int)(i % 13)));
            else xr[j] = (float)ldexp(z, fill == F_LARGE ? (int)(i % 41) : -8 - (int)(i % 13));
        }
    }
}

static void rows_fill(vkb_case *c, gsl_rng *r)
{
    int op = row_op(c), fill = ((priv *)c->priv)->fill;
    for (int b = 0; b < c->nbuf; b++) {
        if (c->buf[b].role != VKB_IN) continue;
        size_t n = c->buf[b].count;
        float *x = malloc(n * sizeof(float));
        if (!x) return;
        if (b == 3) vkb_fill_uniform_f32(r, x, n, 0.5, 1.5);        /* rmsnorm weights */
        else if (fill) rows_fill_x(c, r, x, c->disp[0].push.n, c->disp[0].push.m, fill);
        else if (op == SOFTMAX) vkb_fill_uniform_f32(r, x, n, -10, 10); /* R <= 20 */
        else vkb_fill_normal_f32(r, x, n, 1.0);
        vkb_store_f32(&c->buf[b], x, n);
        free(x);
    }
}

static double rows_ref(vkb_case *c)
{
    priv *p = c->priv;
    const vkb_buf *xb = &c->buf[0];
    vkb_dtype t = xb->type;
    int op = row_op(c);
    size_t rows = c->disp[0].push.n, cols = c->disp[0].push.m, nout = op <= ROWMAX ? rows : rows * cols;
    double k = ceil((double)cols / WG) + LOG2_WG;
    p->want = malloc(nout * sizeof(double));
    p->bound = calloc(nout, sizeof(double));
    p->want_t = malloc(nout * 4);
    if (!p->want || !p->bound || !p->want_t) return 1.0;
    for (size_t i = 0; i < rows; i++) {
        double s = 0, a = 0, mx = -INFINITY;
        for (size_t j = 0; j < cols; j++) {
            double v = vkb_elem(t, xb->host, i * cols + j);
            s += op == RMSNORM ? v * v : v;
            a += fabs(v);
            if (v > mx) mx = v;
        }
        if (op == ROWSUM || op == ROWMAX) {
            p->want[i] = op == ROWSUM ? s : mx;
            p->bound[i] = gamma_k(k) * a;
            ((float *)p->want_t)[i] = (float)mx;
        } else if (op == SOFTMAX) {
            double e = 0, we = 0;  /* S and sum_k e_k eps_k */
            for (size_t j = 0; j < cols; j++) {
                double d = mx - vkb_elem(t, xb->host, i * cols + j), ej = exp(-d);
                e += ej;
                we += ej * (d * U32 + (3 + 2 * d) * 2 * U32);
            }
            double rel_s = we / e + gamma_k(k) + (double)cols * 0x1p-126 / e + 2.5 * 2 * U32;
            for (size_t j = 0; j < cols; j++) {
                double d = mx - vkb_elem(t, xb->host, i * cols + j), y = exp(-d) / e;
                p->want[i * cols + j] = y;
                p->bound[i * cols + j] = (d * U32 + (3 + 2 * d) * 2 * U32 + rel_s) * y + (exp(-d) < 0x1p-126 ? y : 0);
            }
        } else if (op == RMSNORM) {
            double r = 1.0 / sqrt(s / (double)cols + (double)1e-5f);
            double rel = gamma_k(k + 8 + (cols > 1u << 24)) / 2 + 2 * 2 * U32 + 2 * U32;  /* see the header */
            for (size_t j = 0; j < cols; j++) {
                double xv = vkb_elem(t, xb->host, i * cols + j), y = xv * vkb_elem(t, c->buf[3].host, j) * r;
                p->want[i * cols + j] = y;
                /* a subnormal input may be flushed to 0 (Vulkan's default): y may then be 0 */
                p->bound[i * cols + j] = rel * fabs(y) + (fabs(xv) < vkb_min_normal(t) ? fabs(y) : 0);
            }
        } else {  /* transpose: copy the bits */
            for (size_t j = 0; j < cols; j++)
                memcpy((char *)p->want_t + (j * rows + i) * vkb_dtype_size(t),
                       (const char *)xb->host + (i * cols + j) * vkb_dtype_size(t), vkb_dtype_size(t));
        }
    }
    return 1.0;
}

static void rows_check(vkb_case *c, vkb_check *r)
{
    priv *p = c->priv;
    int op = row_op(c);
    vkb_dtype t = c->buf[0].type;
    size_t rows = c->disp[0].push.n, cols = c->disp[0].push.m;
    if (!p->want || !p->bound || !p->want_t) {
        vkb_check_begin(r, "bound", 1);
        r->metric = NAN;
        snprintf(r->detail, sizeof(r->detail), "reference ran out of memory");
        vkb_check_end(r);
        return;
    }
    if (op == ROWMAX || op == TRANSPOSE) {
        vkb_check_begin(r, "exact", 0);
        if (op == ROWMAX) vkb_cmp_ulp(r, VKB_F32, c->buf[2].host, p->want_t, rows, 0);
        else vkb_cmp_bits(r, t, c->buf[1].host, p->want_t, NULL, 0, rows * cols, VKB_NAN_BITS);
        return;
    }
    vkb_check_begin(r, "bound", 1);
    vkb_tol tol = {.bound = p->bound, .ulps = (op >= SOFTMAX && t == VKB_F16) ? 1.0 : 0};
    if (op == ROWSUM) vkb_cmp_bound(r, VKB_F32, c->buf[2].host, p->want, rows, tol);
    else vkb_cmp_bound(r, t, c->buf[1].host, p->want, rows * cols, tol);
}

static void rows_release(vkb_case *c)
{
    priv *p = c->priv;
    if (!p) return;
    free(p->want);
    free(p->bound);
    free(p->want_t);
}

#define ROWS(name, doc) {name, "rows,cols,dtype,fill", doc, rows_plan, rows_fill, rows_ref, rows_check, rows_release, "default"}
VKB_KERNEL(rowsum) = ROWS("rowsum", "sum of each row (fp32 result)");
VKB_KERNEL(rowmax) = ROWS("rowmax", "max of each row (fp32 result)");
VKB_KERNEL(softmax) = ROWS("softmax", "row softmax exp(x - max) / sum");
VKB_KERNEL(rmsnorm) = ROWS("rmsnorm", "row RMSNorm x * g / sqrt(mean(x^2) + 1e-5)");
VKB_KERNEL(transpose) = ROWS("transpose", "y = x^T for a rows x cols matrix");
