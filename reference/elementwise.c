/* elementwise.c — copy, binary ops (add, sub, mul, div, scale_add; with row/scalar broadcast) and
 * unary ops (relu, gelu, silu, sigmoid), fp32 and fp16 storage.
 *
 * Tolerances (derived, kernels.md §3.2/§3.4; Vulkan's precision appendix):
 *  - add, sub, mul, scale_add in fp32: Vulkan rounds +, -, * correctly and the shader marks them
 *    `precise` (no fma contraction), so the result must equal the CPU's fp32 computation bit for bit.
 *    The CPU computes in double and rounds once: for +, -, *, / of two floats that double rounding is
 *    innocuous (53 >= 2*24 + 2), so it equals the correctly rounded float result. Threshold 0 ULP.
 *  - div fp32: Vulkan allows 2.5 ULP for division: |got - exact| <= 2.5 ulp(exact).
 *  - fp16 storage: arithmetic in fp32, then one conversion to fp16 whose rounding mode Vulkan does not
 *    fix: <= 1 ULP fp16 from the exact result rounded to fp16 (+ 2.5 ulp32 relative for div).
 *  - relu: exact; NaN propagates (relu(x) = x < 0 ? 0 : x, as torch.relu).
 *  - gelu/silu/sigmoid: 64 ULP of the result (fp16: 2 ULP fp16, a transcendental chain then rounding to
 *    fp16), plus for gelu 2^-20 |x| absolute where |x| <= 20 (kernels.md §3.4: where 1 + tanh cancels),
 *    plus whatever the derived relative error of the fp32 chain (sigmoid_chain_rel) has beyond that, and
 *    the saturation and flush allowances of unary_ref. Every term is finite and relative to |y| or |x|
 *    with |x| <= 20, so no finite x allows an arbitrary result.
 *  - IEEE specials (fill=special): what IEEE 754 gives for the formula, exactly (NaN where it gives NaN,
 *    the same infinity); an overflowing result may also be the largest finite (Vulkan's ULP rule, check.c).
 */
#include <float.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "check.h"
#include "vkb.h"

enum { OP_ADD, OP_SUB, OP_MUL, OP_DIV, OP_SCALE_ADD };
enum { U_RELU, U_GELU, U_SILU, U_SIGMOID };
enum { BC_NONE, BC_ROW, BC_SCALAR };
#define WG 256u

typedef struct priv {
    double *want;   /* exact result in double (bound checks) */
    void *want_t;   /* result in the storage type (bitwise/ULP checks) */
    double *bound;  /* per-element absolute allowance, where needed */
    void *alt[3];   /* fills with subnormals: the results with denormals flushed (see FLUSH) */
    int nalt;
    int fill;       /* F_* (fill_id of the fill's name) */
    float alpha;
} priv;

/* Fill names, default first (the distribution every row had before the axis existed):
 *   large      |x| log-uniform up to the type's largest finite: sums and products overflow to +-Inf,
 *              which the result must carry (fp16: near 65504)
 *   special    +-0, +-Inf, NaN, +-max, +-smallest normal and subnormal among ordinary values: every IEEE
 *              case (Inf - Inf, 0 * Inf, NaN anywhere) meets; the reference computes what IEEE 754 gives
 *              and the check accepts exactly that (a NaN only where IEEE gives NaN)
 *   subnormal  |x| around the smallest normal and below
 * The contract for NaN/Inf: binary.glsl and unary.glsl declare SignedZeroInfNanPreserve (without it Vulkan
 * may assume no NaN/Inf), so Inf and NaN propagate as IEEE says.
 * FLUSH: Vulkan may flush denormal inputs and results to zero unless DenormPreserve is declared (lavapipe
 * does not offer it). Where inputs or results are subnormal the check also accepts the result computed with
 * denormal inputs flushed, with the denormal result flushed, or both (exactly; nothing else). */
enum { F_DEFAULT, F_LARGE, F_SPECIAL, F_SUBNORMAL };
static const char *const bin_fills[] = {"normal", "large", "special", "subnormal", NULL};
static const char *const div_fills[] = {"normal", "special", NULL};
static const char *const un_fills[] = {"uniform", "large", "special", "subnormal", NULL};
static const char *const copy_fills[] = {"normal", "special", NULL};

/* A kernel's list is a subset, in its own order: the F_* of a fill comes from its name, never its index
 * (div's and copy's "special" is index 1, which is F_LARGE). The default (index 0) is F_DEFAULT. */
static const struct { const char *name; vkb_fill_kind kind; } fill_edges[] = {
    [F_LARGE] = {"large", VKB_FILL_LARGE}, [F_SPECIAL] = {"special", VKB_FILL_SPECIAL},
    [F_SUBNORMAL] = {"subnormal", VKB_FILL_SUBNORMAL}};
_Static_assert(sizeof(fill_edges) / sizeof(*fill_edges) == F_SUBNORMAL + 1, "one row per F_* after F_DEFAULT");

static int fill_id(const char *name)
{
    for (int i = F_LARGE; i <= F_SUBNORMAL; i++)
        if (!strcmp(name, fill_edges[i].name)) return i;
    return F_DEFAULT;
}

static double flush(vkb_dtype t, double v) { return fabs(v) < vkb_min_normal(t) ? copysign(0.0, v) : v; }


static double in_elem(const vkb_case *c, int b, size_t i) { return vkb_elem(c->buf[b].type, c->buf[b].host, i); }

static void store_t(vkb_dtype t, void *p, size_t i, double v)
{
    if (t == VKB_F16) ((uint16_t *)p)[i] = vkb_f32_to_f16((float)v);
    else ((float *)p)[i] = (float)v;
}

/* Common plan: dtype, size, fill, n/4 invocations of WG, c->priv. Returns 0 or 1 (skip/error set). */
static int plan_common(vkb_case *c, int64_t *n, vkb_dtype *t, const char *const *fills)
{
    int fill = vkb_fill_pick(c, fills);
    if (fill < 0 || vkb_case_dtype(c, t)) return 1;
    if (*t != VKB_F32 && *t != VKB_F16) return vkb_error(c, "dtype %s: expected f32 or f16", c->dtype) < 0;
    *n = vkb_param_int(c, "n", -1);
    if (*n <= 0 || *n > 0xFFFFFFF0ll) return vkb_error(c, "n=%s: expected an integer in [1, 2^32-16]",
                                                        vkb_param_str(c, "n", "(missing)")) < 0;
    if (*t == VKB_F16 && !(c->caps.f16 && c->caps.storage16))
        return vkb_skip(c, "device lacks shaderFloat16 + storageBuffer16BitAccess");
    if (fills != copy_fills && !(c->caps.ieee32 && (*t != VKB_F16 || c->caps.ieee16)))
        return vkb_skip(c, "device lacks shaderSignedZeroInfNanPreserveFloat%s (the shader keeps NaN/Inf, ieee.glsl)",
                        c->caps.ieee32 ? "16" : "32");
    priv *p = calloc(1, sizeof(priv));
    if (!p) return vkb_error(c, "out of memory") < 0;
    p->fill = fill_id(fills[fill]);
    c->priv = p;
    return 0;
}

/* Inputs of a fill other than the default, in the buffer's type. */
static void fill_edge(vkb_case *c, gsl_rng *r, int b, int fill)
{
    vkb_buf *buf = &c->buf[b];
    float *x = malloc(buf->count * sizeof(float));
    if (!x) return;
    vkb_fill_edge(r, x, buf->count, buf->type, fill_edges[fill].kind);
    vkb_store_f32(buf, x, buf->count);
    free(x);
}

static void dispatch_n(vkb_case *c, int pipe, uint64_t n)
{
    uint32_t g[3];
    vkb_grid_1d(c, (n + 3) / 4, WG, g);
    vkb_dispatch *d = vkb_add_dispatch(c, pipe, g[0], g[1], 1);
    if (d) d->push.n = (uint32_t)n;
}

/* ---------------- copy ---------------- */

static int copy_plan(vkb_case *c)
{
    int64_t n;
    vkb_dtype t;
    if (plan_common(c, &n, &t, copy_fills)) return 0;
    if (t != VKB_F32) return vkb_error(c, "copy is fp32 only");
    vkb_add_buf(c, "a", VKB_F32, (size_t)n, VKB_IN);
    vkb_add_buf(c, "b", VKB_F32, (size_t)n, VKB_OUT);
    uint32_t spec[1] = {WG};
    dispatch_n(c, vkb_add_pipe(c, "copy", 1, spec), (uint64_t)n);
    c->bytes = 8.0 * (double)n;
    c->flops = 0;
    return 0;
}

/* fill=special: NaN, Inf, subnormals must come through (loads and stores never flush, Vulkan appendix). */
static void copy_fill(vkb_case *c, gsl_rng *r)
{
    if (((priv *)c->priv)->fill == F_SPECIAL) fill_edge(c, r, 0, F_SPECIAL);
    else vkb_fill_normal_f32(r, c->buf[0].host, c->buf[0].count, 1.0);
}
/* A real scalar copy, element by element, so ref_time_s is the time of one (it was a no-op, which made the
 * naive reference look like 6 TB/s). */
static double copy_ref(vkb_case *c)
{
    priv *p = c->priv;
    size_t n = c->buf[0].count;
    if (!p || !(p->want_t = malloc(n * sizeof(float)))) return 1.0;
    for (size_t i = 0; i < n; i++) store_t(VKB_F32, p->want_t, i, in_elem(c, 0, i));
    return 1.0;
}
static void copy_check(vkb_case *c, vkb_check *r)
{
    priv *p = c->priv;
    vkb_check_begin(r, "exact", 0);
    if (!p || !p->want_t) {
        snprintf(r->detail, sizeof(r->detail), "reference ran out of memory");
        r->metric = NAN;
        vkb_check_end(r);
        return;
    }
    vkb_cmp_bits(r, VKB_F32, c->buf[1].host, p->want_t, NULL, 0, c->buf[0].count, VKB_NAN_BITS);
}
static void priv_release(vkb_case *c);

VKB_KERNEL(copy) = {"copy", "n,dtype,fill", "b = a (fp32): the bandwidth yardstick", copy_plan, copy_fill, copy_ref,
                    copy_check, priv_release, "default"};

/* ---------------- binary ---------------- */

static int binary_op(const vkb_case *c)
{
    static const char *const names[] = {"add", "sub", "mul", "div", "scale_add"};
    for (int i = 0; i < 5; i++)
        if (!strcmp(c->k->name, names[i])) return i;
    return OP_ADD;
}

static int binary_plan(vkb_case *c)
{
    int64_t n;
    vkb_dtype t;
    if (plan_common(c, &n, &t, binary_op(c) == OP_DIV ? div_fills : bin_fills)) return 0;
    const char *bc = vkb_param_str(c, "bcast", "none");
    uint32_t mode = !strcmp(bc, "none") ? BC_NONE : !strcmp(bc, "row") ? BC_ROW : !strcmp(bc, "scalar") ? BC_SCALAR : 99;
    if (mode == 99) return vkb_error(c, "bcast=%s: expected none, row or scalar", bc) < 0;
    int64_t cols = vkb_param_int(c, "cols", n < 1024 ? n : 1024);
    if (mode == BC_ROW && (cols <= 0 || cols > n)) return vkb_error(c, "cols=%lld: expected 1..n", (long long)cols) < 0;
    size_t nb = mode == BC_NONE ? (size_t)n : mode == BC_ROW ? (size_t)cols : 1;
    snprintf(c->variant, sizeof(c->variant), "%s", mode == BC_NONE ? "default" : mode == BC_ROW ? "bcast_row" : "bcast_scalar");
    vkb_add_buf(c, "a", t, (size_t)n, VKB_IN);
    vkb_add_buf(c, "b", t, nb, VKB_IN);
    vkb_add_buf(c, "c", t, (size_t)n, VKB_OUT);
    uint32_t spec[3] = {WG, (uint32_t)binary_op(c), mode};
    dispatch_n(c, vkb_add_pipe(c, t == VKB_F16 ? "binary_f16" : "binary", 3, spec), (uint64_t)n);
    if (c->ndisp) c->disp[0].push.m = (uint32_t)cols;
    size_t es = vkb_dtype_size(t);
    c->bytes = (double)es * (2.0 * (double)n + (double)nb);
    c->flops = (binary_op(c) == OP_SCALE_ADD ? 2.0 : 1.0) * (double)n;
    if (binary_op(c) == OP_DIV && ((priv *)c->priv)->fill)
        snprintf(c->note, sizeof(c->note), "dividends %s, divisors +-[0.25, 2.25]: Vulkan's 2.5 ULP holds for "
                 "|b| in [2^-126, 2^126] only", vkb_param_str(c, "fill", ""));
    return 0;
}

static void binary_fill(vkb_case *c, gsl_rng *r)
{
    priv *p = c->priv;
    size_t n = c->buf[0].count, nb = c->buf[1].count;
    float *a = malloc(n * sizeof(float)), *b = malloc(nb * sizeof(float));
    if (!a || !b) goto out;
    vkb_fill_normal_f32(r, a, n, 1.0);
    vkb_fill_uniform_f32(r, b, nb, -2.0, 2.0);
    if (binary_op(c) == OP_DIV)  /* keep divisors inside [2^-126, 2^126] and away from 0 */
        for (size_t i = 0; i < nb; i++) b[i] = b[i] < 0 ? b[i] - 0.25f : b[i] + 0.25f;
    p->alpha = (float)(0.5 + gsl_rng_uniform(r));
    vkb_store_f32(&c->buf[0], a, n);
    vkb_store_f32(&c->buf[1], b, nb);
    if (p->fill) fill_edge(c, r, 0, p->fill);
    if (p->fill && binary_op(c) != OP_DIV) fill_edge(c, r, 1, p->fill);
    if (c->ndisp) c->disp[0].push.alpha = p->alpha;
out:
    free(a);
    free(b);
}

/* op(a, b) in double (exact for +, -, * of two floats; / rounds once), with the denormal flushes of FLUSH:
 * daz flushes the inputs (and scale_add's fp32 product alpha*a), ftz the result in the storage type. */
static double binary_eval(int op, double a, double b, float alpha, vkb_dtype t, int daz, int ftz)
{
    double y;
    if (daz) a = flush(t, a), b = flush(t, b);
    switch (op) {
    case OP_ADD: y = a + b; break;
    case OP_SUB: y = a - b; break;
    case OP_MUL: y = a * b; break;
    case OP_DIV: y = a / b; break;
    default: {  /* two fp32 roundings, as the shader */
        double s = (double)(float)((double)alpha * a);
        y = (daz ? flush(VKB_F32, s) : s) + b;
    }
    }
    y = t == VKB_F16 ? (double)vkb_f16_to_f32(vkb_f32_to_f16((float)y)) : (double)(float)y;
    return ftz ? flush(t, y) : y;
}

static double binary_ref(vkb_case *c)
{
    priv *p = c->priv;
    size_t n = c->buf[0].count, nb = c->buf[1].count, es = vkb_dtype_size(c->buf[0].type);
    vkb_dtype t = c->buf[0].type;
    int op = binary_op(c);
    p->want = malloc(n * sizeof(double));
    p->want_t = malloc(n * es);
    if (op == OP_DIV) p->bound = calloc(n, sizeof(double));
    if (!p->want || !p->want_t || (op == OP_DIV && !p->bound)) return 1.0;
    p->nalt = p->fill == F_SPECIAL || p->fill == F_SUBNORMAL ? 3 : 0;
    for (int k = 0; k < p->nalt; k++)
        if (!(p->alt[k] = malloc(n * es))) p->nalt = 0;
    for (size_t i = 0; i < n; i++) {
        double a = in_elem(c, 0, i), b = in_elem(c, 1, nb == n ? i : nb == 1 ? 0 : i % nb);
        p->want[i] = op == OP_DIV ? a / b : binary_eval(op, a, b, p->alpha, VKB_F32, 0, 0);
        if (op == OP_DIV && (fabs(a) < vkb_min_normal(t) || fabs(p->want[i]) < vkb_min_normal(t)))
            p->bound[i] = fabs(p->want[i]);  /* FLUSH for a quotient: a subnormal dividend or quotient may give 0 */
        store_t(t, p->want_t, i, binary_eval(op, a, b, p->alpha, t, 0, 0));
        for (int k = 0; k < p->nalt; k++) store_t(t, p->alt[k], i, binary_eval(op, a, b, p->alpha, t, k != 1, k != 0));
    }
    return 1.0;
}

static void binary_check(vkb_case *c, vkb_check *r)
{
    priv *p = c->priv;
    vkb_dtype t = c->buf[0].type;
    size_t n = c->buf[0].count;
    const void *got = c->buf[2].host;
    if (!p->want || !p->want_t || (binary_op(c) == OP_DIV && !p->bound)) {
        vkb_check_begin(r, "exact", 0);
        snprintf(r->detail, sizeof(r->detail), "reference ran out of memory");
        r->metric = NAN;
        vkb_check_end(r);
        return;
    }
    if (binary_op(c) == OP_DIV) {
        vkb_check_begin(r, "bound", 1);
        vkb_tol tol = {.ulps = t == VKB_F16 ? 1.0 : 2.5, .rel = t == VKB_F16 ? 2.5 * 0x1p-23 : 0, .bound = p->bound};
        vkb_cmp_bound(r, t, got, p->want, n, tol);
    } else {
        vkb_check_begin(r, t == VKB_F16 ? "ulp" : "exact", 0);
        if (t == VKB_F16) vkb_cmp_ulp_alt(r, t, got, p->want_t, (const void *const *)p->alt, p->nalt, n, 1.0);
        else vkb_cmp_bits(r, t, got, p->want_t, (const void *const *)p->alt, p->nalt, n, VKB_NAN_ANY);
    }
}

static void priv_release(vkb_case *c)
{
    priv *p = c->priv;
    if (!p) return;
    free(p->want);
    free(p->want_t);
    free(p->bound);
    for (int k = 0; k < 3; k++) free(p->alt[k]);
}

#define BINARY(name, doc) {name, "n,dtype,bcast,cols,fill", doc, binary_plan, binary_fill, binary_ref, binary_check, priv_release, "default, bcast_row, bcast_scalar (from bcast=)"}
VKB_KERNEL(add) = BINARY("add", "c = a + b (bcast=row|scalar broadcasts b)");
VKB_KERNEL(sub) = BINARY("sub", "c = a - b (bcast=row|scalar broadcasts b)");
VKB_KERNEL(mul) = BINARY("mul", "c = a * b (bcast=row|scalar broadcasts b)");
VKB_KERNEL(div) = BINARY("div", "c = a / b (bcast=row|scalar broadcasts b)");
VKB_KERNEL(scale_add) = BINARY("scale_add", "c = alpha*a + b, fused in one pass (bcast=row|scalar broadcasts b)");

/* ---------------- unary ---------------- */

static int unary_op(const vkb_case *c)
{
    static const char *const names[] = {"relu", "gelu", "silu", "sigmoid"};
    for (int i = 0; i < 4; i++)
        if (!strcmp(c->k->name, names[i])) return i;
    return U_RELU;
}

static int unary_plan(vkb_case *c)
{
    int64_t n;
    vkb_dtype t;
    if (plan_common(c, &n, &t, un_fills)) return 0;
    vkb_add_buf(c, "x", t, (size_t)n, VKB_IN);
    vkb_add_buf(c, "y", t, (size_t)n, VKB_OUT);
    uint32_t spec[2] = {WG, (uint32_t)unary_op(c)};
    dispatch_n(c, vkb_add_pipe(c, t == VKB_F16 ? "unary_f16" : "unary", 2, spec), (uint64_t)n);
    c->bytes = 2.0 * (double)vkb_dtype_size(t) * (double)n;
    static const double flops_per[] = {1, 14, 4, 3};  /* counted as written in unary.glsl; exp as one */
    c->flops = flops_per[unary_op(c)] * (double)n;
    return 0;
}

static void unary_fill(vkb_case *c, gsl_rng *r)
{
    size_t n = c->buf[0].count;
    if (((priv *)c->priv)->fill) return fill_edge(c, r, 0, ((priv *)c->priv)->fill);
    float *x = malloc(n * sizeof(float));
    if (!x) return;
    vkb_fill_uniform_f32(r, x, n, -10.0, 10.0);
    vkb_store_f32(&c->buf[0], x, n);
    free(x);
}

/* The error of unary.glsl's fp32 chain for gelu, silu and sigmoid, y = num / (1 + E), E = exp(arg), num = x
 * (sigmoid: 1), u = 2^-24. The shader's argument â has relative error at most darg: 0 for silu and sigmoid
 * (arg = -x, exact); gamma_7 for gelu (arg = -2 c1 (x + c2 x^3): c1 and c2 rounded to fp32, three products,
 * a sum of two terms of one sign, the product by c1; -2 is exact, and an fma contraction only drops roundings).
 *  - exp(â) = E e^(â - arg) with |â - arg| <= darg |arg|, and exp adds 3 + 2|â| ULP <= (3 + 2|arg|(1 + darg)) 2u
 *    relative (E normal): |Ê - E| <= eps E, eps = (g - 1) + (3 + 2|arg|(1 + darg)) 2u g, g = e^(darg |arg|).
 *  - 1 + Ê = (1 + E)(1 + theta), |theta| <= eta = s eps, s = E / (1 + E): E's error counts as much as E weighs in
 *    the divisor (s -> 0 where gelu and silu tend to x, sigmoid to 1).
 *  - the add rounds once (u), the division 2.5 ULP <= 5u for a divisor in [1, 2^126]:
 *    |ŷ / y - 1| <= (1 + 5u) / ((1 - eta)(1 - u)) - 1.
 * Where arg <= -87 (E < 2^-125) Ê is a subnormal, 0, or below 2^-125: eta <= 2^-124 (taken in every case).
 * Beyond SAT the divisor may pass 2^126 (saturation, unary_ref): the chain is bounded at arg = SAT. */
#define SAT 87.33  /* 126 ln 2 = 87.3365 less a margin above the argument's and exp's errors there (< 1e-4) */
static double sigmoid_chain_rel(double arg, double darg)
{
    const double u = 0x1p-24;
    double eta = 0x1p-124;
    if (arg > -87) {
        double a = fmin(arg, SAT), g = exp(darg * fabs(a)), e = exp(a);
        eta += e / (1 + e) * ((g - 1) + (3 + 2 * fabs(a) * (1 + darg)) * 2 * u * g);
    }
    return (1 + 5 * u) / ((1 - eta) * (1 - u)) - 1;
}

static double unary_ref(vkb_case *c)
{
    priv *p = c->priv;
    size_t n = c->buf[0].count;
    vkb_dtype t = c->buf[0].type;
    int op = unary_op(c);
    p->want = malloc(n * sizeof(double));
    p->want_t = malloc(n * vkb_dtype_size(t));
    p->bound = calloc(n, sizeof(double));
    if (!p->want || !p->want_t || !p->bound) return 1.0;
    p->nalt = op == U_RELU && (p->fill == F_SPECIAL || p->fill == F_SUBNORMAL);
    if (p->nalt && !(p->alt[0] = malloc(n * vkb_dtype_size(t)))) p->nalt = 0;
    /* the part of unary_check's tol.ulps that the chain may use, as a relative error (ULP >= u |y|): 64 ULP
     * fp32; fp16: one of its 2 ULP (the other is the conversion to fp16) */
    const double covered = t == VKB_F16 ? 0x1p-11 : 64 * 0x1p-24, gamma7 = 7 * 0x1p-24 / (1 - 7 * 0x1p-24);
    for (size_t i = 0; i < n; i++) {
        double x = in_elem(c, 0, i), y, arg, num = x, darg = 0;  /* arg: the argument of exp in unary.glsl */
        switch (op) {
        case U_RELU: y = x < 0 ? 0 : x; arg = 0; break;  /* NaN stays NaN (as torch.relu) */
        case U_GELU:
            arg = -2 * 0.79788456080286535588 * (x + 0.044715 * x * x * x);
            y = 0.5 * x * (1.0 + tanh(0.79788456080286535588 * (x + 0.044715 * x * x * x)));
            darg = gamma7;
            /* kernels.md §3.4, for |x| <= 20 only. It also covers this reference: below x = -6.5, 1 + tanh
             * cancels in double (absolute error <= |x| 2^-52, no relative accuracy); below -20 both it and
             * the true value (|y| < 20 e^-603) are 0 to far below fp32's smallest subnormal. */
            if (fabs(x) <= 20) p->bound[i] = 0x1p-20 * fabs(x);
            break;
        case U_SILU: y = x / (1.0 + exp(-x)); arg = -x; break;
        default: y = 1.0 / (1.0 + exp(-x)); arg = -x; num = 1; break;
        }
        p->want[i] = y;
        store_t(t, p->want_t, i, y);
        if (p->nalt) store_t(t, p->alt[0], i, flush(t, y));
        if (op == U_RELU || !isfinite(x) || !isfinite(y)) continue;  /* IEEE specials: exact (check.c) */
        double rel = sigmoid_chain_rel(arg, darg);
        p->bound[i] += fmax(0, rel - covered) * fabs(y);
        /* Saturation: where arg > SAT the divisor may pass 2^126, beyond which Vulkan sets no precision for a
         * division, and exp of an overflowing result may be +Inf or the largest finite (check.c's ULP rule). We
         * accept a result between 0 and num / d (the quotient by the smallest divisor the device can form,
         * correctly rounded or flushed to 0): d = min(1 + E, FLT_MAX), or +Inf where the fp32 argument itself
         * is +Inf (|arg| > 2^129, gelu's x^3 overflows: exp(+Inf) = +Inf, y = +-0). The allowance is below
         * |num| 2^-126 (1 + rel): a result of the size of x (gelu returning x for x < -1e23, say) fails.
         * Flush: a result below the smallest normal of the type may be flushed to 0 (FLUSH). */
        if (arg > SAT && fabs(arg) <= 0x1p129) p->bound[i] += fabs(num) / fmin(1 + exp(arg), FLT_MAX) * (1 + rel);
        if (fabs(y) < vkb_min_normal(t)) p->bound[i] += fabs(y);
    }
    return 1.0;
}

static void unary_check(vkb_case *c, vkb_check *r)
{
    priv *p = c->priv;
    vkb_dtype t = c->buf[0].type;
    size_t n = c->buf[0].count;
    if (!p->want || !p->bound) {
        vkb_check_begin(r, "bound", 1);
        r->metric = NAN;
        snprintf(r->detail, sizeof(r->detail), "reference ran out of memory");
        vkb_check_end(r);
        return;
    }
    if (unary_op(c) == U_RELU) {   /* bitwise, zeros' signs included; a NaN is max()'s own (H200 fp16: 0x7fff) */
        vkb_check_begin(r, "exact", 0);
        vkb_cmp_bits(r, t, c->buf[1].host, p->want_t, (const void *const *)p->alt, p->nalt, n, VKB_NAN_ANY);
        return;
    }
    vkb_check_begin(r, "bound", 1);
    vkb_tol tol = {.ulps = t == VKB_F16 ? 2.0 : 64.0, .bound = p->bound};
    vkb_cmp_bound(r, t, c->buf[1].host, p->want, n, tol);
}

#define UNARY(name, doc) {name, "n,dtype,fill", doc, unary_plan, unary_fill, unary_ref, unary_check, priv_release, "default"}
VKB_KERNEL(relu) = UNARY("relu", "y = max(x, 0)");
VKB_KERNEL(gelu) = UNARY("gelu", "y = 0.5 x (1 + tanh(sqrt(2/pi) (x + 0.044715 x^3)))");
VKB_KERNEL(silu) = UNARY("silu", "y = x / (1 + e^-x)");
VKB_KERNEL(sigmoid) = UNARY("sigmoid", "y = 1 / (1 + e^-x)");
