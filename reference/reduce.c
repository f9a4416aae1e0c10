/* reduce.c — whole-vector sum and max (any length), fp32 or fp16 input, fp32 result.
 *
 * Tolerances:
 *  - max: exact (max of floats is exact).
 *  - sum: |got - exact| <= gamma_k * sum|x_i|, gamma_k = k u / (1 - k u), u = 2^-24 (fp32 accumulation),
 *    k = the longest chain of additions any input passes through in reduce.glsl:
 *    steps per lane (ceil(vec4s / invocations) + 1 for the tail) + 2 (lane fold) + log2(WG) (tree),
 *    then ceil(G / WG) + log2(WG) in the second dispatch (Higham, Accuracy and Stability, §4.2).
 * fill= (default first): sum normal | large: |x| log-uniform over [2^-27, 2^101], random signs (fp16: [1, 65504],
 *   where an fp16 accumulator overflows after two elements); max normal | neg: every value negative, every
 *   7th -Inf (a max started at 0 fails) | equal: one value everywhere (a tie everywhere).
 */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include <gsl/gsl_randist.h>

#include "check.h"
#include "vkb.h"

#define WG 256u
#define LOG2_WG 8u

typedef struct priv {
    double want, abs_sum;
    float want_max;
    double k;
    int fill;
} priv;

static const char *const sum_fills[] = {"normal", "large", NULL}, *const max_fills[] = {"normal", "neg", "equal", NULL};

static int is_max(const vkb_case *c) { return strcmp(c->k->name, "max") == 0; }

static int reduce_plan(vkb_case *c)
{
    vkb_dtype t;
    if (vkb_case_dtype(c, &t)) return -1;
    if (t != VKB_F32 && t != VKB_F16) return vkb_error(c, "dtype %s: expected f32 or f16", c->dtype);
    int64_t n = vkb_param_int(c, "n", -1);
    int fill = vkb_fill_pick(c, is_max(c) ? max_fills : sum_fills);
    if (fill < 0) return -1;
    if (n <= 0 || n > 0xFFFFFFF0ll)
        return vkb_error(c, "n=%s: expected an integer in [1, 2^32-16]", vkb_param_str(c, "n", "(missing)"));
    if (t == VKB_F16 && !(c->caps.f16 && c->caps.storage16))
        return vkb_skip(c, "device lacks shaderFloat16 + storageBuffer16BitAccess");
    uint64_t nv = (uint64_t)n / 4, max_groups = c->caps.is_cpu ? 64 : 2048;
    uint64_t G = (nv + WG - 1) / WG;
    if (G > max_groups) G = max_groups;
    if (G == 0) G = 1;
    vkb_add_buf(c, "x", t, (size_t)n, VKB_IN);
    vkb_add_buf(c, "partial", VKB_F32, (size_t)G, VKB_SCRATCH);
    vkb_add_buf(c, "out", VKB_F32, 1, VKB_OUT);
    uint32_t s0[3] = {WG, is_max(c), 0}, s1[3] = {WG, is_max(c), 1};
    vkb_dispatch *d = vkb_add_dispatch(c, vkb_add_pipe(c, t == VKB_F16 ? "reduce_f16" : "reduce", 3, s0), (uint32_t)G, 1, 1);
    if (!d) return vkb_error(c, "out of memory");
    d->push.n = (uint32_t)n;
    d = vkb_add_dispatch(c, vkb_add_pipe(c, t == VKB_F16 ? "reduce_f16" : "reduce", 3, s1), 1, 1, 1);
    if (!d) return vkb_error(c, "out of memory");
    d->push.m = (uint32_t)G;
    c->bytes = (double)n * (double)vkb_dtype_size(t) + 4.0;
    c->flops = (double)n;
    priv *p = calloc(1, sizeof(*p));
    if (!p) return vkb_error(c, "out of memory");
    uint64_t per_lane = (nv + G * WG - 1) / (G * WG) + 1;
    p->k = (double)(per_lane + 2 + LOG2_WG + (G + WG - 1) / WG + LOG2_WG);
    p->fill = fill;
    c->priv = p;
    return 0;
}

static void reduce_fill(vkb_case *c, gsl_rng *r)
{
    vkb_buf *b = &c->buf[0];
    int fill = ((priv *)c->priv)->fill, f16 = b->type == VKB_F16;
    float *x = malloc(b->count * sizeof(float)), v = (float)gsl_ran_gaussian_ziggurat(r, 1.0);
    if (!x) return;
    if (fill && !is_max(c)) vkb_fill_edge(r, x, b->count, b->type, VKB_FILL_LARGE);
    else vkb_fill_normal_f32(r, x, b->count, 1.0);
    for (size_t i = 0; fill && i < b->count; i++) {
        if (!is_max(c)) x[i] = f16 ? x[i] : ldexpf(x[i], -27);  /* fp32 partial sums stay finite */
        else if (fill == 1) x[i] = i % 7 == 6 ? -INFINITY : -fabsf(x[i]) - 0x1p-10f;
        else x[i] = v;
    }
    vkb_store_f32(b, x, b->count);
    free(x);
}

static double reduce_ref(vkb_case *c)
{
    priv *p = c->priv;
    const vkb_buf *x = &c->buf[0];
    double s = 0, a = 0, m = -INFINITY;
    for (size_t i = 0; i < x->count; i++) {
        double v = vkb_elem(x->type, x->host, i);
        s += v;
        a += fabs(v);
        if (v > m) m = v;
    }
    p->want = is_max(c) ? m : s;
    p->abs_sum = a;
    p->want_max = (float)m;
    return 1.0;
}

static void reduce_check(vkb_case *c, vkb_check *r)
{
    priv *p = c->priv;
    if (is_max(c)) {
        vkb_check_begin(r, "exact", 0);
        vkb_cmp_ulp(r, VKB_F32, c->buf[2].host, &p->want_max, 1, 0);
        return;
    }
    double u = 0x1p-24, gamma = p->k * u / (1 - p->k * u);
    vkb_check_begin(r, "bound", 1);
    vkb_tol tol = {.abs = gamma * p->abs_sum};
    vkb_cmp_bound(r, VKB_F32, c->buf[2].host, &p->want, 1, tol);
    snprintf(r->detail + strlen(r->detail), sizeof(r->detail) - strlen(r->detail),
             "%sbound gamma_%.0f * sum|x| = %.3g", r->detail[0] ? "; " : "", p->k, gamma * p->abs_sum);
}

VKB_KERNEL(sum) = {"sum", "n,dtype,fill", "sum of a whole vector (fp32 accumulation)", reduce_plan, reduce_fill,
                   reduce_ref, reduce_check, NULL, "default"};
VKB_KERNEL(max) = {"max", "n,dtype,fill", "max of a whole vector", reduce_plan, reduce_fill, reduce_ref, reduce_check,
                   NULL, "default"};
