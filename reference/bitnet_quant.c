/* bitnet_quant.c — BitNet b1.58 quantizers (kernels.md §1, §2): absmean ternary weight quantization
 * (packed 2-bit "T2" layout of kernels/bitnet_layout.glsl, or int8), dequantization, and per-token int8
 * activation quantization, optionally fused with the RMSNorm before it.
 *
 * Rounding rule, both sides: round half to even (GLSL roundEven, C nearbyintf), as torch.round.
 * Scales: the GPU computes gamma', r (RMSNorm) and s itself and writes them out. The check
 *   1. bounds each scale against a double reference (derivations at the check functions), then
 *   2. recomputes every quantized value on the CPU from the GPU's own scales with the same fp32
 *      operations, and demands bit-exact equality: no near-tie excuse is needed anywhere.
 *   Informational: ntie counts values whose code would differ had the correctly rounded reference scale
 *   been used instead of the GPU's (the "near-tie" differences kernels.md §1 warns about).
 * Weight rule: round-half-even(W / gamma') clamped to [-1, 1] equals sign(W) * (|W| > gamma'/2), evaluated
 *   with an exact comparison (gamma'/2 is exact), so no division enters the codes. The released PyTorch
 *   code computes W * (1/gamma) in fp32 instead; the two differ only where |W/gamma| is within 2 ulp of 0.5.
 * eps: gamma' = max(mean|W|, 1e-5) and s = 127 / max(max|x|, 1e-5) (the released code's placement).
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "bitnet_layout.glsl"
#include "bitnet_quant.h"
#include "check.h"
#include "vkb.h"

_Static_assert(BITNET_GROUP == 4 * BITNET_WORD && BITNET_WORD == 16, "T2: 64-weight groups of four 16-weight words");
_Static_assert(BITNET_PAD(1u) == 64u && BITNET_PAD(64u) == 64u && BITNET_PAD(65u) == 128u, "rows pad to 64");

#define WG 256u
#define U32 0x1p-24  /* unit roundoff of fp32 */

/* Dimensions from shape=AxB or from the two named axes. */
static int dims(vkb_case *c, const char *rk, const char *ck, int64_t *rows, int64_t *cols)
{
    const char *sh = vkb_param_str(c, "shape", NULL);
    long long a = -1, b = -1;
    if (sh && sscanf(sh, "%lldx%lld", &a, &b) != 2) a = -1;
    *rows = sh ? a : vkb_param_int(c, rk, -1);
    *cols = sh ? b : vkb_param_int(c, ck, -1);
    if (*rows <= 0 || *cols <= 0 || *rows * BITNET_PAD((uint64_t)*cols) >= (1ll << 32))
        return vkb_error(c, "shape %s / %s=%lld %s=%lld: expected positive sizes with %s*Kp < 2^32",
                         sh ? sh : "-", rk, (long long)*rows, ck, (long long)*cols, rk);
    return 0;
}

/* Code (w + 1) of weight x under scale gp: exact comparison with gp/2 (see the header). */
static unsigned ternary_code(float x, float gp)
{
    float h = 0.5f * gp;
    return x > h ? 2u : x < -h ? 0u : 1u;
}

static unsigned packed_code(const uint32_t *q, size_t kp, size_t row, size_t k)
{
    uint32_t w = q[(row * kp + k) / BITNET_WORD];
    return (w >> BITNET_SHIFT(k)) & 3u;
}

static void check_fail_oom(vkb_check *r, const char *method)
{
    vkb_check_begin(r, method, 0);
    snprintf(r->detail, sizeof(r->detail), "reference ran out of memory");
    r->metric = NAN;
    vkb_check_end(r);
}

/* Records a failed scale bound in the detail text (the value has no element index). */
static void scale_bad(vkb_check *r, const char *what, size_t row, double got, double want, double allowed)
{
    size_t len = strlen(r->detail);
    snprintf(r->detail + len, sizeof(r->detail) - len, "%s%s[%zu] got=%.9g want=%.9g allowed=%.3g", len ? "; " : "",
             what, row, got, want, allowed);
    r->nbad++;
}

/* ---------------- weight quantization ---------------- */

enum { WQ_PACKED, WQ_INT8, WQ_GIVEN };

typedef struct wq_priv {
    int variant;
    uint32_t groups;     /* PASS-0 workgroups */
    double gamma_ref;    /* max(mean|W|, eps) in double */
    double gamma_bound;  /* relative bound on the GPU's gamma' */
} wq_priv;

/* fill= normal | tiny: N(0, 1e-6), mean|W| below eps, gamma' = eps | ties: |W| in {h, 3h}, h = 1/4, in equal
 * numbers, so gamma' = mean|W| = 2h and every W = +-h is an exact tie W/gamma' = +-0.5 (-> 0, half to even)
 * and +-3h a tie at +-1.5 (-> +-2, clamped): a code rule of >= instead of > fails (all sums exact in fp32
 * below 2^25 weights; gamma' exact where the division is correctly rounded, as on lavapipe). */
static const char *const wq_fills[] = {"normal", "tiny", "ties", NULL};
enum { WQF_NORMAL, WQF_TINY, WQF_TIES };

static int wquant_plan(vkb_case *c)
{
    int64_t n, k;
    if (dims(c, "n", "k", &n, &k) || vkb_fill_pick(c, wq_fills) < 0) return -1;
    const char *v = vkb_param_str(c, "variant", "packed");
    int var = !strcmp(v, "packed") ? WQ_PACKED : !strcmp(v, "int8") ? WQ_INT8 : !strcmp(v, "packed_given") ? WQ_GIVEN : -1;
    if (var < 0) return vkb_error(c, "variant=%s: expected packed, int8 or packed_given", v);
    snprintf(c->variant, sizeof(c->variant), "%s", v);
    wq_priv *p = calloc(1, sizeof(*p));
    if (!p) return vkb_error(c, "out of memory");
    c->priv = p;
    p->variant = var;
    size_t total = (size_t)n * (size_t)k, kp = BITNET_PAD((size_t)k), nv = total / 4;
    /* PASS 0: ~16 vec4 per invocation, at most 4096 partials. */
    size_t g = (nv + 16 * WG - 1) / (16 * WG);
    p->groups = (uint32_t)(g < 1 ? 1 : g > 4096 ? 4096 : g);
    vkb_add_buf(c, "w", VKB_F32, total, VKB_IN);
    if (var == WQ_INT8) vkb_add_buf(c, "q", VKB_I8, (size_t)n * kp, VKB_OUT);
    else vkb_add_buf(c, "q", VKB_U32, (size_t)n * kp / BITNET_WORD, VKB_OUT);
    vkb_add_buf(c, "gamma", VKB_F32, 1, var == WQ_GIVEN ? VKB_IN : VKB_OUT);
    vkb_add_buf(c, "partial", VKB_F32, var == WQ_GIVEN ? 1 : p->groups, VKB_SCRATCH);
    for (uint32_t pass = var == WQ_GIVEN ? 2 : 0; pass < 3; pass++) {
        uint32_t spec[3] = {WG, pass, var == WQ_INT8}, grid[3] = {p->groups, 1, 1};
        if (pass == 1) grid[0] = 1;
        if (pass == 2) vkb_grid_1d(c, (uint64_t)n * kp / 4, WG, grid);
        vkb_dispatch *d = vkb_add_dispatch(c, vkb_add_pipe(c, "bitnet_wquant", 3, spec), grid[0], grid[1], 1);
        if (!d) return vkb_error(c, "out of memory");
        d->push.n = (uint32_t)n;
        d->push.k = (uint32_t)k;
        d->push.m = p->groups;
    }
    /* Minimum bytes: W once, the codes, gamma. The two-pass variants read W twice (pass 0 and 2), so they
     * move 8.25 B per weight (packed) while 4.25 are counted: their ceiling is ~52% of copy unless W stays
     * in the L2 between the passes. packed_given gets gamma' from the host: one pass, the full ceiling. */
    c->bytes = 4.0 * (double)total + (var == WQ_INT8 ? 1.0 : 0.25) * (double)total + 4;
    c->flops = 3.0 * (double)total;
    if (var != WQ_GIVEN)
        snprintf(c->note, sizeof(c->note), "two passes over W: moves %.2f B/weight, %.2f counted",
                 var == WQ_INT8 ? 9.0 : 8.25, var == WQ_INT8 ? 5.0 : 4.25);
    /* Relative bound on gamma' (all terms >= 0, so the sum's relative error is at most the longest chain of
     * fp32 additions times u, Higham §4.2): per-invocation loop L, vec4 fold 2, subgroup add SG-1 (order
     * unknown: assume a chain), SG partials per workgroup WG/SG, PASS 1 loop, again SG-1 and WG/SG; then the
     * division by N*K: float(N*K) rounds (u) and the quotient has 2.5 ulp <= 5u. +1 for second-order terms. */
    double sg = c->caps.subgroup ? c->caps.subgroup : 1, per = ceil((double)nv / ((double)p->groups * WG));
    double chain = per + 2 + 2 * (sg - 1) + 2 * (WG / sg) + ceil(p->groups / (double)WG);
    p->gamma_bound = (chain + 7) * U32;
    return 0;
}

static void wquant_fill(vkb_case *c, gsl_rng *r)
{
    wq_priv *p = c->priv;
    float *w = c->buf[0].host;
    size_t n = c->buf[0].count, k = (size_t)c->disp[0].push.k, rows = n / k;
    int f = vkb_fill_pick(c, wq_fills);
    vkb_fill_normal_f32(r, w, n, f == WQF_TINY ? 1e-6 : 1.0);  /* tiny: mean|W| < eps, gamma' = eps */
    if (f == WQF_TIES)
        for (size_t i = 0; i < n; i++)  /* h, 3h alternately (2h for a last odd one): mean exactly 2h */
            w[i] = (w[i] < 0 ? -0.25f : 0.25f) * (i + 1 == n && n % 2 ? 2.0f : i % 2 ? 3.0f : 1.0f);
    else if (rows >= 3) {
        memset(w, 0, k * sizeof(*w));                 /* an all-zero row */
        w[k + k / 2] = f == WQF_TINY ? 1e-3f : 1000.0f;  /* a row with one huge outlier */
    }
    if (p->variant != WQ_GIVEN) return;
    double s = 0;
    for (size_t i = 0; i < n; i++) s += fabs((double)w[i]);
    float gp = (float)fmax(s / (double)n, BITNET_EPS);
    ((float *)c->buf[2].host)[0] = gp;
    /* With gamma' known, plant exact ties and their neighbours in row 2 (if any): W/gamma' = +-0.5 -> 0
     * (half to even), +-1.5 -> 2 -> clamped to 1, the next floats above 0.5 -> +-1. */
    if (rows >= 3 && k >= 6 && f != WQF_TIES) {
        float h = 0.5f * gp, *t = w + 2 * k;
        t[0] = h, t[1] = -h, t[2] = 3 * h, t[3] = -3 * h, t[4] = nextafterf(h, 1e30f), t[5] = -nextafterf(h, 1e30f);
    }
}

static double wquant_ref(vkb_case *c)
{
    wq_priv *p = c->priv;
    const float *w = c->buf[0].host;
    size_t n = c->buf[0].count;
    double s = 0;
    for (size_t i = 0; i < n; i++) s += fabs((double)w[i]);
    p->gamma_ref = fmax(s / (double)n, BITNET_EPS);
    return 1.0;
}

typedef struct wq_span {
    const wq_priv *p;
    const float *w;
    const void *q;     /* the kernel's codes: int8 or packed */
    size_t k, kp;
    float gp, gref;
} wq_span;

/* Codes e in [lo, hi) of the padded rows (e = i * kp + j), for vkb_check_spans. */
static void wquant_codes(const void *arg, vkb_check *r, size_t lo, size_t hi)
{
    const wq_span *a = arg;
    int int8 = a->p->variant == WQ_INT8;
    for (size_t e = lo; e < hi; e++) {
        size_t i = e / a->kp, j = e % a->kp;
        float x = j < a->k ? a->w[i * a->k + j] : 0.0f;
        unsigned want = ternary_code(x, a->gp), got;
        r->ntie += want != ternary_code(x, a->gref);
        r->nchecked++;
        /* Poison (int8 -128, a packed word of code 3) before the code: an unwritten code is unwritten. */
        if (int8 ? vkb_is_poison(VKB_I8, a->q, e) : vkb_is_poison(VKB_U32, a->q, e / BITNET_WORD)) {
            vkb_check_unwritten(r, e, int8 ? -128 : 2, (double)want - 1);
            continue;
        }
        got = int8 ? (unsigned)(((const int8_t *)a->q)[e] + 1) : packed_code(a->q, a->kp, i, j);
        if (got != want) vkb_check_bad(r, e, (double)got - 1, (double)want - 1);
    }
}

static void wquant_check(vkb_case *c, vkb_check *r)
{
    wq_priv *p = c->priv;
    size_t k = c->disp[0].push.k, rows = c->buf[0].count / k, kp = BITNET_PAD(k);
    float gp = ((const float *)c->buf[2].host)[0];
    wq_span a = {p, c->buf[0].host, c->buf[1].host, k, kp, gp, p->variant == WQ_GIVEN ? gp : (float)p->gamma_ref};
    vkb_check_begin(r, "exact", 0);
    if (p->variant != WQ_GIVEN && vkb_is_poison(VKB_F32, c->buf[2].host, 0)) {
        snprintf(r->detail, sizeof(r->detail), "gamma unwritten");
        r->nunwritten++;
    } else if (p->variant != WQ_GIVEN) {
        double err = fabs(gp - p->gamma_ref), allowed = p->gamma_bound * p->gamma_ref;
        r->max_rel = err / p->gamma_ref;
        if (!(err <= allowed)) scale_bad(r, "gamma", 0, gp, p->gamma_ref, allowed);
    }
    vkb_check_spans(r, rows * kp, wquant_codes, &a);
    r->metric = (double)(r->nbad + r->nunwritten);
    r->fraction = 1;  /* every code compared above, the scale beside them; n_checked counts the codes */
    vkb_check_end(r);
}

VKB_KERNEL(bitnet_wquant) = {"bitnet_wquant", "n,k,shape,fill",
                             "absmean ternary W (variant packed|int8|packed_given), gamma' = max(mean|W|, 1e-5)",
                             wquant_plan, wquant_fill, wquant_ref, wquant_check, NULL, "packed, int8, packed_given"};

/* ---------------- dequantization ---------------- */

/* fill= normal: gamma' in [0.01, 1.01] | large: gamma' log-uniform over [2^100, FLT_MAX] (fp16: [2^15, 2^17):
 * past 65504 the output overflows to +-Inf, or 65504 under round-toward-zero, 1 ulp) | tiny: gamma' subnormal in
 * the output type (the output may be flushed to 0: Vulkan's default denormal rule, accepted exactly). */
static const char *const dq_fills[] = {"normal", "large", "tiny", NULL};

static int dequant_plan(vkb_case *c)
{
    int64_t n, k;
    vkb_dtype t;
    if (dims(c, "n", "k", &n, &k) || vkb_case_dtype(c, &t) || vkb_fill_pick(c, dq_fills) < 0) return -1;
    if (t != VKB_F32 && t != VKB_F16) return vkb_error(c, "dtype %s: expected f32 or f16", c->dtype);
    if (t == VKB_F16 && !(c->caps.f16 && c->caps.storage16))
        return vkb_skip(c, "device lacks shaderFloat16 + storageBuffer16BitAccess");
    size_t kp = BITNET_PAD((size_t)k), total = (size_t)n * (size_t)k;
    vkb_add_buf(c, "q", VKB_U32, (size_t)n * kp / BITNET_WORD, VKB_IN);
    vkb_add_buf(c, "gamma", VKB_F32, 1, VKB_IN);
    vkb_add_buf(c, "out", t, total, VKB_OUT);
    uint32_t spec[1] = {WG}, g[3];
    vkb_grid_1d(c, (uint64_t)n * kp / 4, WG, g);
    vkb_dispatch *d = vkb_add_dispatch(c, vkb_add_pipe(c, t == VKB_F16 ? "bitnet_dequant_f16" : "bitnet_dequant", 1, spec),
                                       g[0], g[1], 1);
    if (!d) return vkb_error(c, "out of memory");
    d->push.n = (uint32_t)n;
    d->push.k = (uint32_t)k;
    c->bytes = 0.25 * (double)total + 4 + (double)vkb_dtype_size(t) * (double)total;
    c->flops = (double)total;
    return 0;
}

static void dequant_fill(vkb_case *c, gsl_rng *r)
{
    uint32_t *q = c->buf[0].host;
    size_t k = c->disp[0].push.k, kp = BITNET_PAD(k), rows = c->disp[0].push.n;
    for (size_t i = 0; i < rows; i++)
        for (size_t j = 0; j < kp; j++) {
            uint32_t code = j < k ? (uint32_t)gsl_rng_uniform_int(r, 3) : 1u;  /* padding holds w = 0 */
            q[(i * kp + j) / BITNET_WORD] |= code << BITNET_SHIFT(j);
        }
    int f = vkb_fill_pick(c, dq_fills), f16 = c->buf[2].type == VKB_F16;
    double u = gsl_rng_uniform(r);
    ((float *)c->buf[1].host)[0] = f == 0 ? (float)(0.01 + u)
                                 : f == 1 ? (f16 ? (float)ldexp(1 + 3 * u, 15) : (float)ldexp(1 + u, 100 + (int)(27 * u)))
                                          : (f16 ? vkb_f16_to_f32((uint16_t)(1 + 1022 * u)) : (float)ldexp(1 + 1022 * u, -149));
}

static double dequant_ref(vkb_case *c) { (void)c; return 1.0; }

typedef struct dq_want {
    const uint32_t *q;
    void *want;
    size_t k, kp;
    float gp;
    vkb_dtype t;
} dq_want;

/* Expected values e in [lo, hi) (e = i * k + j), for vkb_par_spans. */
static void dequant_want(const void *arg, size_t lo, size_t hi)
{
    const dq_want *a = arg;
    for (size_t e = lo; e < hi; e++) {
        float v = ((float)packed_code(a->q, a->kp, e / a->k, e % a->k) - 1.0f) * a->gp;
        if (a->t == VKB_F16) ((uint16_t *)a->want)[e] = vkb_f32_to_f16(v);
        else ((float *)a->want)[e] = v;
    }
}

/* Expected value (code - 1) * gamma' is exact in fp32 (0 or +-gamma'): bitwise equality. In fp16 the one
 * conversion of +-gamma' has an unspecified rounding mode in Vulkan: <= 1 ulp fp16. */
static void dequant_check(vkb_case *c, vkb_check *r)
{
    vkb_dtype t = c->buf[2].type;
    size_t k = c->disp[0].push.k, kp = BITNET_PAD(k), rows = c->disp[0].push.n, n = rows * k;
    float gp = ((const float *)c->buf[1].host)[0];
    void *want = malloc(n * vkb_dtype_size(t)), *zero = calloc(n, vkb_dtype_size(t));  /* zero: flushed denormals */
    if (!want || !zero) {
        free(want);
        free(zero);
        return check_fail_oom(r, "exact");
    }
    dq_want a = {c->buf[0].host, want, k, kp, gp, t};
    vkb_par_spans(n, dequant_want, &a);
    int tiny = fabs(gp) < vkb_min_normal(t);
    vkb_check_begin(r, t == VKB_F16 ? "ulp" : "exact", 0);
    if (t == VKB_F16) {
        const void *alt[1] = {zero};
        vkb_cmp_ulp_alt(r, t, c->buf[2].host, want, alt, tiny, n, 1.0);
    } else {
        /* Bit for bit (w = 0 gives +0, never -0); a flushed subnormal -gamma' may keep its sign or not. */
        float *signed0 = tiny ? malloc(n * sizeof(float)) : NULL;
        for (size_t i = 0; signed0 && i < n; i++) signed0[i] = copysignf(0.0f, ((const float *)want)[i]);
        const void *alt[2] = {zero, signed0};
        vkb_cmp_bits(r, t, c->buf[2].host, want, alt, signed0 ? 2 : tiny, n, VKB_NAN_BITS);
        free(signed0);
    }
    free(want);
    free(zero);
}

VKB_KERNEL(bitnet_dequant) = {"bitnet_dequant", "n,k,shape,dtype,fill", "packed ternary -> (code-1)*gamma' in f32|f16",
                              dequant_plan, dequant_fill, dequant_ref, dequant_check, NULL, "default"};

/* ---------------- activation quantization ---------------- */

/* fill= normal | ties: each row's max |x| is 127 2^e (e in [-8, 8]), so s = 2^-e exactly wherever the division
 *   is correctly rounded (lavapipe), and half the row is (k + 1/2) 2^e: x s lands exactly on k + 0.5, where
 *   round-half-to-even and half-away-from-zero differ for even k. Exact ties need s known on the host, so only
 *   variant=plain gets them (rmsnorm's r comes from the GPU's inversesqrt; its rows are still checked bit for
 *   bit from the GPU's r and s) | tiny: |x| ~ 1e-6, max|x| below eps: s = 127/eps. */
static const char *const aq_fills[] = {"normal", "ties", "tiny", NULL};
enum { AQF_NORMAL, AQF_TIES, AQF_TINY };

typedef struct aq_priv {
    int norm, fill;
    double *r_ref;   /* RMSNorm factor per row (double) */
    double r_bound;  /* relative bound on the GPU's r */
} aq_priv;

static int aquant_plan(vkb_case *c)
{
    int64_t m, k;
    if (dims(c, "m", "k", &m, &k)) return -1;
    const char *v = vkb_param_str(c, "variant", "plain");
    int norm = !strcmp(v, "rmsnorm") ? 1 : !strcmp(v, "plain") ? 0 : -1, fill = vkb_fill_pick(c, aq_fills);
    if (norm < 0) return vkb_error(c, "variant=%s: expected plain or rmsnorm", v);
    if (fill < 0) return -1;
    snprintf(c->variant, sizeof(c->variant), "%s", v);
    size_t kp = BITNET_PAD((size_t)k), nv = (kp / 4 + WG - 1) / WG;
    if (nv > 32) return vkb_error(c, "k=%lld: at most %u per row (a row lives in registers)", (long long)k, 32 * 4 * WG);
    aq_priv *p = calloc(1, sizeof(*p));
    if (!p) return vkb_error(c, "out of memory");
    c->priv = p;
    p->norm = norm;
    p->fill = fill;
    if (fill == AQF_TIES && norm) snprintf(c->note, sizeof(c->note), "ties are exact for variant=plain only (r from the GPU)");
    vkb_add_buf(c, "x", VKB_F32, (size_t)(m * k), VKB_IN);
    vkb_add_buf(c, "q", VKB_I8, (size_t)m * kp, VKB_OUT);
    vkb_add_buf(c, "s", VKB_F32, (size_t)m, VKB_OUT);
    vkb_add_buf(c, "g", VKB_F32, norm ? (size_t)k : 1, VKB_IN);
    vkb_add_buf(c, "r", VKB_F32, norm ? (size_t)m : 1, norm ? VKB_OUT : VKB_SCRATCH);
    uint32_t spec[3] = {WG, (uint32_t)norm, (uint32_t)nv}, g[3];
    vkb_grid_1d(c, (uint64_t)m, 1, g);
    vkb_dispatch *d = vkb_add_dispatch(c, vkb_add_pipe(c, "bitnet_aquant", 3, spec), g[0], g[1], 1);
    if (!d) return vkb_error(c, "out of memory");
    d->push.m = (uint32_t)m;
    d->push.k = (uint32_t)k;
    d->push.eps = 1e-5f;  /* RMSNorm eps of BitNet 2B4T */
    double mk = (double)m * (double)k;
    c->bytes = 4 * mk + mk + 4.0 * (double)m + (norm ? 4.0 * (double)k + 4.0 * (double)m : 0);
    c->flops = (norm ? 6.0 : 3.0) * mk;
    /* r = inversesqrt(S/K + eps), S = sum x^2 >= 0: S carries at most (chain + 1) u relative (chain =
     * 4 NV per invocation + SG-1 subgroup + WG/SG; +1 for the squares), /K 2.5 ulp <= 5u, +eps u; the
     * argument's relative error halves under the square root, and inversesqrt adds 2 ulp <= 4u.
     * +0.5u for second-order terms. */
    p->r_bound = bitnet_aquant_r_bound(c->caps.subgroup, nv, WG);
    return 0;
}

double bitnet_aquant_r_bound(uint32_t subgroup, size_t nv, uint32_t wg)
{
    double sg = subgroup ? subgroup : 1;
    double chain = 4.0 * (double)nv + (sg - 1) + wg / sg;
    return ((chain + 1 + 5 + 1) / 2 + 4.5) * U32;
}

static void aquant_fill(vkb_case *c, gsl_rng *r)
{
    aq_priv *p = c->priv;
    float *x = c->buf[0].host;
    size_t k = c->disp[0].push.k, m = c->disp[0].push.m;
    vkb_fill_normal_f32(r, x, m * k, p->fill == AQF_TINY ? 1e-6 : 1.0);
    for (size_t i = 0; p->fill == AQF_TIES && i < m; i++) {
        int e = (int)gsl_rng_uniform_int(r, 17) - 8;
        float *xr = x + i * k;
        for (size_t j = 0; j < k; j++) {
            double t = (double)gsl_rng_uniform_int(r, 254) - 126.5;  /* k + 1/2, |t| <= 126.5 */
            xr[j] = (float)ldexp(j % 2 ? t : fmax(-126.0, fmin(126.0, 40.0 * xr[j])), e);
        }
        xr[gsl_rng_uniform_int(r, k)] = (float)ldexp(gsl_rng_uniform(r) < 0.5 ? -127 : 127, e);  /* the max */
    }
    if (m >= 3 && p->fill != AQF_TIES) {
        memset(x, 0, k * sizeof(*x));  /* all-zero row: the eps guard */
        x[k + k / 2] = p->fill == AQF_TINY ? 3e-6f : 1000.0f;  /* one outlier: the rest of the row quantizes to ~0 */
    }
    if (p->norm) vkb_fill_uniform_f32(r, c->buf[3].host, k, 0.5, 1.5);
}

static double aquant_ref(vkb_case *c)
{
    aq_priv *p = c->priv;
    if (!p->norm) return 1.0;
    const float *x = c->buf[0].host;
    size_t k = c->disp[0].push.k, m = c->disp[0].push.m;
    p->r_ref = malloc(m * sizeof(double));
    if (p->r_ref) bitnet_aquant_r_ref(x, m, k, c->disp[0].push.eps, p->r_ref);
    return 1.0;
}

void bitnet_aquant_r_ref(const float *x, size_t m, size_t k, float eps, double *r_ref)
{
    for (size_t i = 0; i < m; i++) {
        double s = 0;
        for (size_t j = 0; j < k; j++) s += (double)x[i * k + j] * x[i * k + j];
        r_ref[i] = 1.0 / sqrt(s / (double)k + (double)eps);
    }
}

static int8_t quant8(float y, float s)
{
    float v = nearbyintf(y * s);  /* fp32 product as the shader's `precise`, then half to even */
    return (int8_t)(v > 127 ? 127 : v < -128 || isnan(v) ? -128 : v);  /* NaN: an unwritten s (poison) */
}

/* Per row: r within r_bound of the double reference (NORM); y recomputed from the GPU's r exactly as the
 * shader does ((x*r)*g, two correctly rounded fp32 products); s within 2.5 ulp (Vulkan's division) of
 * 127/max(max|y|, eps) -- max|y| is exact; then every q from the GPU's s bit for bit. */
int bitnet_aquant_check_rows(const bitnet_aq_rows *a, vkb_check *r, int8_t *want)
{
    size_t k = a->k, kp = BITNET_PAD(k);
    float *y = malloc(k * sizeof(*y));
    if (!y) return -1;
    for (size_t i = 0; i < a->m; i++) {
        float amax = 0;
        for (size_t j = 0; j < k; j++) {
            y[j] = a->g ? (a->x[i * k + j] * a->r[i]) * a->g[j] : a->x[i * k + j];
            amax = fmaxf(amax, fabsf(y[j]));
        }
        if (a->g && vkb_is_poison(VKB_F32, a->r, i)) {
            r->nunwritten++;  /* y above is then NaN, and so is every code's reference: s and q are judged below */
        } else if (a->g) {
            double err = fabs(a->r[i] - a->r_ref[i]), allowed = a->r_bound * a->r_ref[i];
            if (err / a->r_ref[i] > r->max_rel) r->max_rel = err / a->r_ref[i];
            if (!(err <= allowed)) scale_bad(r, "r", i, a->r[i], a->r_ref[i], allowed);
        }
        double s_exact = 127.0 / fmax(amax, (double)(float)BITNET_EPS), allowed = 2.5 * vkb_ulp(VKB_F32, s_exact);
        if (vkb_is_poison(VKB_F32, a->s, i)) r->nunwritten++;
        else if (!(fabs(a->s[i] - s_exact) <= allowed)) scale_bad(r, "s", i, a->s[i], s_exact, allowed);
        for (size_t j = 0; j < kp; j++) {
            int8_t w = j < k ? quant8(y[j], a->s[i]) : 0;
            r->ntie += j < k && w != quant8(y[j], (float)s_exact);
            r->nchecked++;
            if (want) want[i * kp + j] = w;
            /* Poison (-128, never a code) first: an unwritten code whose expected value is anything is unwritten. */
            if (vkb_is_poison(VKB_I8, a->q, i * kp + j)) vkb_check_unwritten(r, i * kp + j, a->q[i * kp + j], w);
            else if (a->q[i * kp + j] != w) vkb_check_bad(r, i * kp + j, a->q[i * kp + j], w);
        }
    }
    free(y);
    return 0;
}

static void aquant_check(vkb_case *c, vkb_check *r)
{
    aq_priv *p = c->priv;
    bitnet_aq_rows a = {c->buf[0].host, p->norm ? c->buf[3].host : NULL, c->buf[4].host, c->buf[2].host, c->buf[1].host,
                        p->r_ref, p->r_bound, c->disp[0].push.m, c->disp[0].push.k};
    if (p->norm && !p->r_ref) return check_fail_oom(r, "exact");
    vkb_check_begin(r, "exact", 0);
    if (bitnet_aquant_check_rows(&a, r, NULL)) return check_fail_oom(r, "exact");
    r->metric = (double)(r->nbad + r->nunwritten);
    r->fraction = 1;  /* every code compared above, the per-token scales beside them; n_checked counts the codes */
    vkb_check_end(r);
}

static void aquant_release(vkb_case *c)
{
    aq_priv *p = c->priv;
    if (p) free(p->r_ref);
}

VKB_KERNEL(bitnet_aquant) = {"bitnet_aquant", "m,k,shape,fill",
                             "per-token int8: s = 127/max|x|, q = round(x s) (variant plain|rmsnorm: RMSNorm fused)",
                             aquant_plan, aquant_fill, aquant_ref, aquant_check, aquant_release, "plain, rmsnorm"};
