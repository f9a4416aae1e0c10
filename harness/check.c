/* check.c — comparators. The order (unwritten, NaN/Inf, metric) matters: a poisoned element is a
 * NaN too, and reporting it as "unwritten" tells the kernel author where to look. */
#include <float.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "check.h"

void vkb_check_begin(vkb_check *r, const char *method, double threshold)
{
    memset(r, 0, sizeof(*r));
    snprintf(r->method, sizeof(r->method), "%s", method);
    r->threshold = threshold;
    r->metric = 0;
    r->max_abs = r->max_rel = r->nmse = 0;
    r->fraction = NAN;  /* unset: the driver derives it from nchecked and the output sizes */
    r->pass = 1;
}

void vkb_check_end(vkb_check *r)
{
    r->pass = r->nunwritten == 0 && r->nnan == 0 && r->nbad == 0 && !isnan(r->metric) &&
              r->metric <= r->threshold;
}

void vkb_check_bad(vkb_check *r, size_t i, double got, double want)
{
    if (r->nbad < 10) {
        size_t len = strlen(r->detail);
        snprintf(r->detail + len, sizeof(r->detail) - len, "%si=%zu got=%.9g want=%.9g",
                 len ? "; " : "", i, got, want);
    }
    r->nbad++;
}

double vkb_elem(vkb_dtype t, const void *p, size_t i)
{
    switch (t) {
    case VKB_F32: return ((const float *)p)[i];
    case VKB_F16: return vkb_f16_to_f32(((const uint16_t *)p)[i]);
    case VKB_I8: return ((const int8_t *)p)[i];
    case VKB_U8: return ((const uint8_t *)p)[i];
    case VKB_I32: return ((const int32_t *)p)[i];
    case VKB_U32: return ((const uint32_t *)p)[i];
    }
    return NAN;
}

/* vkb_elem with fp32, the commonest type, read in place (the comparators' inner loops). */
static inline double elem(vkb_dtype t, const void *p, size_t i)
{
    return t == VKB_F32 ? ((const float *)p)[i] : vkb_elem(t, p, i);
}

/* The poison of type t as raw bits (kernels/abi.h says why each is never a result). */
static uint32_t poison_bits(vkb_dtype t)
{
    switch (t) {
    case VKB_F32: return VKB_POISON_F32;
    case VKB_F16: return VKB_POISON_F16;
    case VKB_I8: return VKB_POISON_I8;
    case VKB_U8: return VKB_POISON_U8;
    case VKB_I32: return VKB_POISON_I32;
    case VKB_U32: return VKB_POISON_U32;
    }
    return 0;
}

void vkb_poison_fill(vkb_dtype t, void *p, size_t n)
{
    uint32_t b = poison_bits(t);
    switch (vkb_dtype_size(t)) {
    case 4: for (size_t i = 0; i < n; i++) ((uint32_t *)p)[i] = b; break;
    case 2: for (size_t i = 0; i < n; i++) ((uint16_t *)p)[i] = (uint16_t)b; break;
    default: memset(p, (int)b, n); break;
    }
}

int vkb_is_poison(vkb_dtype t, const void *p, size_t i)
{
    switch (vkb_dtype_size(t)) {
    case 4: return ((const uint32_t *)p)[i] == poison_bits(t);
    case 2: return ((const uint16_t *)p)[i] == poison_bits(t);
    default: return ((const uint8_t *)p)[i] == poison_bits(t);
    }
}

void vkb_check_unwritten(vkb_check *r, size_t i, double got, double want)
{
    if (r->nunwritten < 10 && r->nbad < 10) vkb_check_bad(r, i, got, want), r->nbad--;
    r->nunwritten++;
}

double vkb_ulp(vkb_dtype t, double x)
{
    int digits = t == VKB_F16 ? 11 : 24, emin = t == VKB_F16 ? -14 : -126;
    int e;
    if (x == 0 || !isfinite(x)) return ldexp(1.0, emin - digits + 1);
    frexp(fabs(x), &e);  /* |x| in [2^(e-1), 2^e) */
    if (e - 1 < emin) e = emin + 1;
    return ldexp(1.0, e - digits);
}

/* Map the bits of a float type to a monotone integer line so the difference counts ULPs. */
static int64_t ordered(vkb_dtype t, const void *p, size_t i)
{
    if (t == VKB_F16) {
        int32_t h = ((const uint16_t *)p)[i];
        return (h & 0x8000) ? -(int64_t)(h & 0x7fff) : h;
    }
    int64_t b = ((const uint32_t *)p)[i];
    return (b & 0x80000000) ? -(b & 0x7fffffff) : b;
}

double vkb_ulp_dist(vkb_dtype t, const void *p, const void *q, size_t i)
{
    int64_t d = ordered(t, p, i) - ordered(t, q, i);
    return (double)(d < 0 ? -d : d);
}

/* Common first steps: unwritten, then non-finite values. Returns 1 when the element was judged.
 * IEEE specials are matched here, exactly: a NaN where the reference is NaN (any payload: IEEE 754 fixes
 * none), an infinity equal to the reference's. A finite value where the reference is NaN is a mismatch
 * (counted in nbad); a NaN or infinity anywhere else is counted in nnan. An infinite reference with a
 * finite result is left to the caller: vkb_cmp_ulp measures its ULP distance (a reference stored in fp16 may
 * have rounded 65520 up to Inf where the device rounded down to 65504), vkb_cmp_bound fails it. */
static int judge_special(vkb_check *r, vkb_dtype t, const void *got, size_t i, double g, double w)
{
    if (vkb_is_poison(t, got, i)) {
        vkb_check_unwritten(r, i, g, w);
        return 1;
    }
    if ((isnan(w) && isnan(g)) || (isinf(w) && g == w)) return 1;
    if (isnan(w)) {  /* no distance to a NaN: the metric says infinitely far */
        vkb_check_bad(r, i, g, w);
        r->metric = INFINITY;
        return 1;
    }
    if (!isfinite(g)) {
        if (r->nnan < 10 && r->nbad < 10) vkb_check_bad(r, i, g, w), r->nbad--;
        r->nnan++;
        return 1;
    }
    return 0;
}

/* The comparators split [0, n) into fixed spans of SPAN elements, compare them on up to check_threads threads and
 * merge the spans' results in index order. The spans do not depend on the thread count, so neither does any
 * field of the result: a 2^26-element output checked on one thread or on ten gives the same verdict, counts,
 * metric, sums and detail (an H200 host spent 50 s of the default suite's 175 waiting for single-threaded
 * checks). Outputs of at most SPAN elements are one span, compared as a plain loop; the detail keeps the
 * first 10 entries, mismatches and unwritten or NaN elements alike. */
enum { SPAN = 1 << 20 };
static int check_threads = 1;

void vkb_check_set_threads(int n) { check_threads = n < 1 ? 1 : n > 64 ? 64 : n; }

typedef struct part {
    vkb_check c;    /* the span's counters, metric, maxima and first mismatches */
    double se, sw;  /* sums of squared errors and of squared references, for nmse */
} part;
typedef void (*span_fn)(const void *arg, part *p, size_t lo, size_t hi);
typedef struct spans {
    span_fn fn;
    const void *arg;
    part *p;
    size_t n;
} spans;

static void span_one(void *a, size_t k)
{
    const spans *s = a;
    s->fn(s->arg, &s->p[k], k * SPAN, (k + 1) * SPAN < s->n ? (k + 1) * SPAN : s->n);
}

/* Fold a span's detail entries ("; "-separated) into r's, up to the 10 the serial comparators keep. */
static void merge_detail(vkb_check *r, const char *d)
{
    size_t have = 0;
    for (const char *q = r->detail; *q; q++) have += q[0] == ';' && q[1] == ' ';
    have += r->detail[0] != 0;
    while (*d && have < 10) {
        const char *e = strstr(d, "; ");
        size_t len = e ? (size_t)(e - d) : strlen(d), used = strlen(r->detail);
        snprintf(r->detail + used, sizeof(r->detail) - used, "%s%.*s", used ? "; " : "", (int)len, d);
        have++;
        d = e ? e + 2 : d + len;
    }
}

/* Runs fn over [0, n) in spans and merges them into r; returns the spans' nmse (sum of squared errors over the sum
 * of squared references, or the former where the references are all 0). */
static double run_spans(vkb_check *r, span_fn fn, const void *arg, size_t n)
{
    part one, *p = &one;
    size_t count = n ? (n + SPAN - 1) / SPAN : 0;
    if (count <= 1 || !(p = calloc(count, sizeof(*p)))) {  /* one span (or no memory for more) */
        p = &one;
        memset(&one, 0, sizeof(one));
        fn(arg, &one, 0, n);
        count = 1;
    } else {
        spans s = {fn, arg, p, n};
        vkb_par_for(count, check_threads, span_one, &s);
    }
    double se = 0, sw = 0;
    for (size_t k = 0; k < count; k++) {
        const vkb_check *c = &p[k].c;
        merge_detail(r, c->detail);
        r->nbad += c->nbad;
        r->nnan += c->nnan;
        r->nunwritten += c->nunwritten;
        r->nchecked += c->nchecked;
        r->ntie += c->ntie;
        if (!(c->metric <= r->metric)) r->metric = c->metric;
        if (c->max_abs > r->max_abs) r->max_abs = c->max_abs;
        if (c->max_rel > r->max_rel) r->max_rel = c->max_rel;
        se += p[k].se;
        sw += p[k].sw;
    }
    if (p != &one) free(p);
    return sw > 0 ? se / sw : se;
}

typedef struct pub_arg {
    vkb_span_fn fn;
    const void *arg;
} pub_arg;

static void pub_span(const void *a, part *p, size_t lo, size_t hi)
{
    const pub_arg *q = a;
    q->fn(q->arg, &p->c, lo, hi);
}

void vkb_check_spans(vkb_check *r, size_t n, vkb_span_fn fn, const void *arg)
{
    pub_arg a = {fn, arg};
    run_spans(r, pub_span, &a, n);
}

typedef struct plain_spans {
    void (*fn)(const void *arg, size_t lo, size_t hi);
    const void *arg;
    size_t n;
} plain_spans;

static void plain_one(void *a, size_t k)
{
    const plain_spans *s = a;
    s->fn(s->arg, k * SPAN, (k + 1) * SPAN < s->n ? (k + 1) * SPAN : s->n);
}

void vkb_par_spans(size_t n, void (*fn)(const void *arg, size_t lo, size_t hi), const void *arg)
{
    plain_spans s = {fn, arg, n};
    vkb_par_for((n + SPAN - 1) / SPAN, check_threads, plain_one, &s);
}

/* One comparator call's operands, for its span function. */
typedef struct cmp_arg {
    vkb_dtype t;
    const void *got, *want;  /* want: type t (ulp, bits, exact) */
    const double *dwant;     /* bound: the double reference */
    const void *const *alt;
    int nalt;
    double max_ulp;
    vkb_nan_rule nan;
    vkb_tol tol;
} cmp_arg;

void vkb_cmp_ulp(vkb_check *r, vkb_dtype t, const void *got, const void *want, size_t n, double max_ulp)
{
    vkb_cmp_ulp_alt(r, t, got, want, NULL, 0, n, max_ulp);
}

static void ulp_span(const void *arg, part *p, size_t lo, size_t hi)
{
    const cmp_arg *a = arg;
    vkb_check *r = &p->c;
    vkb_dtype t = a->t;
    int flt = t == VKB_F32 || t == VKB_F16;
    for (size_t i = lo; i < hi; i++) {
        const void *wp = a->want;  /* the reference, or an allowed alternative that matches this element closer */
        double g = elem(t, a->got, i), w = elem(t, a->want, i);
        r->nchecked++;
        for (int k = 0; k < a->nalt; k++) {
            double x = elem(t, a->alt[k], i);
            if ((isnan(x) && isnan(g)) || (isinf(x) && g == x) ||
                (isfinite(g) && vkb_ulp_dist(t, a->got, a->alt[k], i) < vkb_ulp_dist(t, a->got, wp, i)))
                wp = a->alt[k], w = x;
        }
        /* float poisons are NaNs: with both finite, judge_special finds nothing */
        if (!(flt && isfinite(g) && isfinite(w)) && judge_special(r, t, a->got, i, g, w)) continue;
        double d = vkb_ulp_dist(t, a->got, wp, i), e = fabs(g - w);
        if (d > r->metric) r->metric = d;
        if (e > r->max_abs) r->max_abs = e;
        if (w != 0 && e / fabs(w) > r->max_rel) r->max_rel = e / fabs(w);
        p->se += e * e;
        p->sw += w * w;
        if (d > a->max_ulp) vkb_check_bad(r, i, g, w);
    }
}

void vkb_cmp_ulp_alt(vkb_check *r, vkb_dtype t, const void *got, const void *want, const void *const *alt, int nalt,
                     size_t n, double max_ulp)
{
    cmp_arg a = {.t = t, .got = got, .want = want, .alt = alt, .nalt = nalt, .max_ulp = max_ulp};
    r->nmse = run_spans(r, ulp_span, &a, n);
    r->threshold = max_ulp;
    vkb_check_end(r);
}

static void bound_span(const void *arg, part *p, size_t lo, size_t hi)
{
    const cmp_arg *a = arg;
    vkb_check *r = &p->c;
    vkb_dtype t = a->t;
    vkb_tol tol = a->tol;
    double max_t = t == VKB_F16 ? 65504.0 : FLT_MAX;
    int flt = t == VKB_F32 || t == VKB_F16;  /* float poisons are NaNs: a finite value is written */
    for (size_t i = lo; i < hi; i++) {
        double g = elem(t, a->got, i), w = a->dwant[i];
        /* tol.ulps is 0 in most checks: vkb_ulp's frexp and ldexp were a quarter of a comparison's time */
        double allowed = tol.abs + tol.rel * fabs(w) + (tol.ulps != 0 ? tol.ulps * vkb_ulp(t, w) : 0) +
                         (tol.bound ? tol.bound[i] : 0);
        r->nchecked++;
        /* Vulkan's ULP rule: where the allowed range reaches past the largest finite value, the infinity or
         * the largest finite of the same sign may be returned instead. */
        int ulp_rule = isfinite(w) && fabs(w) + allowed > max_t && (isinf(g) || fabs(g) == max_t) && (g < 0) == (w < 0);
        if (flt && isfinite(g) && isfinite(w)) {  /* the common case: judge_special and the Inf test find nothing */
            if (ulp_rule) continue;
        } else {
            if (ulp_rule && !vkb_is_poison(t, a->got, i)) continue;
            if (judge_special(r, t, a->got, i, g, w)) continue;
            /* An infinite double reference is an IEEE infinity from an infinite input (the references compute in
             * double from fp32/fp16 inputs and none overflows it), which the kernel must carry exactly: no
             * allowance reaches it (Inf/Inf would be NaN and compare false), nor does the largest finite. */
            if (isinf(w)) {
                vkb_check_bad(r, i, g, w);
                r->metric = INFINITY;
                continue;
            }
        }
        double e = fabs(g - w);
        /* An exact match passes; otherwise a NaN allowance (e.g. 0 * Inf from a broken bound) fails. */
        double ratio = e == 0 ? 0 : allowed > 0 ? e / allowed : INFINITY;
        if (!(ratio <= r->metric)) r->metric = ratio;
        if (e > r->max_abs) r->max_abs = e;
        if (w != 0 && e / fabs(w) > r->max_rel) r->max_rel = e / fabs(w);
        p->se += e * e;
        p->sw += w * w;
        if (!(ratio <= 1)) vkb_check_bad(r, i, g, w);
    }
}

void vkb_cmp_bound(vkb_check *r, vkb_dtype t, const void *got, const double *want, size_t n, vkb_tol tol)
{
    cmp_arg a = {.t = t, .got = got, .dwant = want, .tol = tol};
    r->threshold = 1;
    r->nmse = run_spans(r, bound_span, &a, n);
    vkb_check_end(r);
}

static uint32_t float_bits(vkb_dtype t, const void *p, size_t i)
{
    return t == VKB_F16 ? ((const uint16_t *)p)[i] : ((const uint32_t *)p)[i];
}

/* A bitwise mismatch: the values alone cannot show -0 against +0 or two NaNs apart, so the bits go along. */
static void bad_bits(vkb_check *r, vkb_dtype t, size_t i, double g, double w, uint32_t gb, uint32_t wb)
{
    if (r->nbad < 10) {
        size_t len = strlen(r->detail);
        int hex = t == VKB_F16 ? 4 : 8;
        snprintf(r->detail + len, sizeof(r->detail) - len, "%si=%zu got=%.9g want=%.9g (bits 0x%0*x vs 0x%0*x)",
                 len ? "; " : "", i, g, w, hex, gb, hex, wb);
    }
    r->nbad++;
}

static void bits_span(const void *arg, part *p, size_t lo, size_t hi)
{
    const cmp_arg *a = arg;
    vkb_check *r = &p->c;
    vkb_dtype t = a->t;
    for (size_t i = lo; i < hi; i++) {
        uint32_t gb = float_bits(t, a->got, i), wb = float_bits(t, a->want, i);
        double g = elem(t, a->got, i), w = elem(t, a->want, i);
        r->nchecked++;
        if (vkb_is_poison(t, a->got, i)) {
            vkb_check_unwritten(r, i, g, w);
            continue;
        }
        int same = gb == wb || (a->nan == VKB_NAN_ANY && isnan(g) && isnan(w));
        for (int k = 0; k < a->nalt && !same; k++) {
            double x = elem(t, a->alt[k], i);
            same = gb == float_bits(t, a->alt[k], i) || (a->nan == VKB_NAN_ANY && isnan(g) && isnan(x));
        }
        if (isfinite(g) && isfinite(w)) {
            double e = fabs(g - w);
            if (e > r->max_abs) r->max_abs = e;
            if (w != 0 && e / fabs(w) > r->max_rel) r->max_rel = e / fabs(w);
            p->se += e * e;
            p->sw += w * w;
        }
        if (same) continue;
        if (!isfinite(g) && isfinite(w)) {  /* NaN or Inf where the reference is finite, as judge_special */
            if (r->nnan < 10 && r->nbad < 10) bad_bits(r, t, i, g, w, gb, wb), r->nbad--;
            r->nnan++;
        } else {
            bad_bits(r, t, i, g, w, gb, wb);
        }
    }
}

void vkb_cmp_bits(vkb_check *r, vkb_dtype t, const void *got, const void *want, const void *const *alt, int nalt,
                  size_t n, vkb_nan_rule nan)
{
    cmp_arg a = {.t = t, .got = got, .want = want, .alt = alt, .nalt = nalt, .nan = nan};
    r->nmse = run_spans(r, bits_span, &a, n);
    r->metric = (double)(r->nbad + r->nnan + r->nunwritten);
    r->threshold = 0;
    vkb_check_end(r);
}

static void exact_span(const void *arg, part *p, size_t lo, size_t hi)
{
    const cmp_arg *a = arg;
    vkb_check *r = &p->c;
    size_t sz = vkb_dtype_size(a->t);
    for (size_t i = lo; i < hi; i++) {
        double g = elem(a->t, a->got, i), w = elem(a->t, a->want, i);
        r->nchecked++;
        /* Poison first: an unwritten element whose expected value happens to equal the poison is unwritten. */
        if (vkb_is_poison(a->t, a->got, i)) {
            vkb_check_unwritten(r, i, g, w);
            continue;
        }
        if (memcmp((const char *)a->got + i * sz, (const char *)a->want + i * sz, sz) == 0) continue;
        double e = fabs(g - w);
        if (e > r->max_abs) r->max_abs = e;
        vkb_check_bad(r, i, g, w);
    }
}

void vkb_cmp_exact(vkb_check *r, vkb_dtype t, const void *got, const void *want, size_t n)
{
    cmp_arg a = {.t = t, .got = got, .want = want};
    r->threshold = 0;
    run_spans(r, exact_span, &a, n);
    r->metric = (double)(r->nbad + r->nunwritten);
    vkb_check_end(r);
}

long vkb_guard_first_change(const uint8_t *g, size_t n, uint8_t pattern)
{
    for (size_t i = 0; i < n; i++)
        if (g[i] != pattern) return (long)i;
    return -1;
}

void vkb_refcmp_add(vkb_refcmp *rc, const char *what, size_t i, size_t j, double fast, double oracle, double tol)
{
    double e = fabs(fast - oracle), ratio = tol > 0 ? e / tol : e > 0 || isnan(e) ? INFINITY : 0;
    rc->n++;
    if (!(ratio <= 1)) {
        if (!rc->nbad)
            snprintf(rc->first, sizeof(rc->first), "%s (%zu,%zu) fast=%.17g oracle=%.17g tol=%.3g", what, i, j, fast,
                     oracle, tol);
        rc->nbad++;
    }
    if (!(ratio <= rc->worst)) rc->worst = ratio;
}

void vkb_check_ref(vkb_check *r, const vkb_refcmp *rc, const char *ref_method)
{
    r->fraction = 1;
    snprintf(r->ref_method, sizeof(r->ref_method), "%s", ref_method);
    if (!rc || !rc->nbad) return;
    r->ref_error = 1;
    r->pass = 0;
    snprintf(r->method, sizeof(r->method), "reference-mismatch");
    snprintf(r->ref_method, sizeof(r->ref_method), "%s MISMATCH", ref_method);
    r->metric = rc->worst;
    r->threshold = 1;
    snprintf(r->detail, sizeof(r->detail), "fast reference (%s) disagrees with the scalar oracle in %zu of %zu sampled "
             "values; first: %s", ref_method, rc->nbad, rc->n, rc->first);
}
