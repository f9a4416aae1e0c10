/* rows.c — row-wise kernels on a rows x cols matrix: rowsum, rowmax, softmax, rmsnorm; and transpose.
 *
 * Tolerances (u = 2^-24; one ULP of fp32 is at most 2u relative; k = ceil(cols/WG) + log2(WG), the
 * longest addition chain of rows.glsl: a sequential walk per invocation, then a binary tree):
 *  - rowmax, transpose: exact.
 *  - rowsum: |err| <= gamma_k * sum_j |x_j| (Higham §4.2).
 *  - softmax: with R = max_j - min_j of the row, each exp(x_j - m) carries the argument's rounding
 *    (|x_j - m| u <= R u relative) and exp's 3 + 2R ULP (Vulkan precision appendix); the sum adds
 *    gamma_k; the division 2.5 ULP. Relative bound per element:
 *    2 (R u + (3 + 2R) 2u) + gamma_k + 2.5 * 2u  (numerator and denominator each carry one exp error).
 *  - rmsnorm: y = x g / sqrt(s/n + eps): the squares and the sum give gamma_{k+1} on s, the scale by
 *    1/n two more roundings, + eps one: gamma_{k+4} relative on the argument, halved by the square root;
 *    inversesqrt 2 ULP; two products 2u. Relative bound: gamma_{k+4}/2 + 2 * 2u + 2u.
 *  - fp16 storage adds one ULP of fp16 for the final conversion.
 */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "check.h"
#include "vkb.h"

#define WG 256u
#define LOG2_WG 8.0
#define U32 0x1p-24

enum { ROWSUM, ROWMAX, SOFTMAX, RMSNORM, TRANSPOSE };

typedef struct priv {
    double *want, *bound;
    void *want_t;  /* exact-typed results for rowmax / transpose */
} priv;

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
    return 0;
}

static void rows_fill(vkb_case *c, gsl_rng *r)
{
    int op = row_op(c);
    for (int b = 0; b < c->nbuf; b++) {
        if (c->buf[b].role != VKB_IN) continue;
        size_t n = c->buf[b].count;
        float *x = malloc(n * sizeof(float));
        if (!x) return;
        if (b == 3) vkb_fill_uniform_f32(r, x, n, 0.5, 1.5);        /* rmsnorm weights */
        else if (op == SOFTMAX) vkb_fill_uniform_f32(r, x, n, -10, 10); /* R <= 20 */
        else vkb_fill_normal_f32(r, x, n, 1.0);
        if (c->buf[b].type == VKB_F16) vkb_f32_to_f16_array(x, c->buf[b].host, n);
        else memcpy(c->buf[b].host, x, n * sizeof(float));
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
        double s = 0, a = 0, mx = -INFINITY, mn = INFINITY;
        for (size_t j = 0; j < cols; j++) {
            double v = vkb_elem(t, xb->host, i * cols + j);
            s += op == RMSNORM ? v * v : v;
            a += fabs(v);
            if (v > mx) mx = v;
            if (v < mn) mn = v;
        }
        if (op == ROWSUM || op == ROWMAX) {
            p->want[i] = op == ROWSUM ? s : mx;
            p->bound[i] = gamma_k(k) * a;
            ((float *)p->want_t)[i] = (float)mx;
        } else if (op == SOFTMAX) {
            double e = 0, R = mx - mn;
            for (size_t j = 0; j < cols; j++) e += exp(vkb_elem(t, xb->host, i * cols + j) - mx);
            double rel = 2 * (R * U32 + (3 + 2 * R) * 2 * U32) + gamma_k(k) + 2.5 * 2 * U32;
            for (size_t j = 0; j < cols; j++) {
                double y = exp(vkb_elem(t, xb->host, i * cols + j) - mx) / e;
                p->want[i * cols + j] = y;
                p->bound[i * cols + j] = rel * y;
            }
        } else if (op == RMSNORM) {
            double r = 1.0 / sqrt(s / (double)cols + (double)1e-5f);
            double rel = gamma_k(k + 4) / 2 + 2 * 2 * U32 + 2 * U32;
            for (size_t j = 0; j < cols; j++) {
                double y = vkb_elem(t, xb->host, i * cols + j) * vkb_elem(t, c->buf[3].host, j) * r;
                p->want[i * cols + j] = y;
                p->bound[i * cols + j] = rel * fabs(y);
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
        else vkb_cmp_ulp(r, t, c->buf[1].host, p->want_t, rows * cols, 0);
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

#define ROWS(name, doc) {name, "rows,cols,dtype", doc, rows_plan, rows_fill, rows_ref, rows_check, rows_release, "default"}
VKB_KERNEL(rowsum) = ROWS("rowsum", "sum of each row (fp32 result)");
VKB_KERNEL(rowmax) = ROWS("rowmax", "max of each row (fp32 result)");
VKB_KERNEL(softmax) = ROWS("softmax", "row softmax exp(x - max) / sum");
VKB_KERNEL(rmsnorm) = ROWS("rmsnorm", "row RMSNorm x * g / sqrt(mean(x^2) + 1e-5)");
VKB_KERNEL(transpose) = ROWS("transpose", "y = x^T for a rows x cols matrix");
