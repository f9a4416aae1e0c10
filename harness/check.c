/* check.c — comparators. The order (unwritten, NaN/Inf, metric) matters: a poisoned element is a
 * NaN too, and reporting it as "unwritten" tells the kernel author where to look. */
#include <float.h>
#include <math.h>
#include <stdio.h>
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

void vkb_cmp_ulp(vkb_check *r, vkb_dtype t, const void *got, const void *want, size_t n, double max_ulp)
{
    vkb_cmp_ulp_alt(r, t, got, want, NULL, 0, n, max_ulp);
}

void vkb_cmp_ulp_alt(vkb_check *r, vkb_dtype t, const void *got, const void *want, const void *const *alt, int nalt,
                     size_t n, double max_ulp)
{
    double se = 0, sw = 0;
    for (size_t i = 0; i < n; i++) {
        const void *wp = want;  /* the reference, or an allowed alternative that matches this element closer */
        double g = vkb_elem(t, got, i), w = vkb_elem(t, want, i);
        r->nchecked++;
        for (int k = 0; k < nalt; k++) {
            double a = vkb_elem(t, alt[k], i);
            if ((isnan(a) && isnan(g)) || (isinf(a) && g == a) ||
                (isfinite(g) && vkb_ulp_dist(t, got, alt[k], i) < vkb_ulp_dist(t, got, wp, i)))
                wp = alt[k], w = a;
        }
        if (judge_special(r, t, got, i, g, w)) continue;
        double d = vkb_ulp_dist(t, got, wp, i), e = fabs(g - w);
        if (d > r->metric) r->metric = d;
        if (e > r->max_abs) r->max_abs = e;
        if (w != 0 && e / fabs(w) > r->max_rel) r->max_rel = e / fabs(w);
        se += e * e;
        sw += w * w;
        if (d > max_ulp) vkb_check_bad(r, i, g, w);
    }
    r->nmse = sw > 0 ? se / sw : se;
    r->threshold = max_ulp;
    vkb_check_end(r);
}

void vkb_cmp_bound(vkb_check *r, vkb_dtype t, const void *got, const double *want, size_t n, vkb_tol tol)
{
    double se = 0, sw = 0;
    double max_t = t == VKB_F16 ? 65504.0 : FLT_MAX;
    r->threshold = 1;
    for (size_t i = 0; i < n; i++) {
        double g = vkb_elem(t, got, i), w = want[i];
        double allowed = tol.abs + tol.rel * fabs(w) + tol.ulps * vkb_ulp(t, w) + (tol.bound ? tol.bound[i] : 0);
        r->nchecked++;
        /* Vulkan's ULP rule: where the allowed range reaches past the largest finite value, the infinity or
         * the largest finite of the same sign may be returned instead. */
        if (isfinite(w) && fabs(w) + allowed > max_t && (isinf(g) || fabs(g) == max_t) && (g < 0) == (w < 0) &&
            !vkb_is_poison(t, got, i))
            continue;
        if (judge_special(r, t, got, i, g, w)) continue;
        /* An infinite double reference is an IEEE infinity from an infinite input (the references compute in
         * double from fp32/fp16 inputs and none overflows it), which the kernel must carry exactly: no
         * allowance reaches it (Inf/Inf would be NaN and compare false), nor does the largest finite. */
        if (isinf(w)) {
            vkb_check_bad(r, i, g, w);
            r->metric = INFINITY;
            continue;
        }
        double e = fabs(g - w);
        /* An exact match passes; otherwise a NaN allowance (e.g. 0 * Inf from a broken bound) fails. */
        double ratio = e == 0 ? 0 : allowed > 0 ? e / allowed : INFINITY;
        if (!(ratio <= r->metric)) r->metric = ratio;
        if (e > r->max_abs) r->max_abs = e;
        if (w != 0 && e / fabs(w) > r->max_rel) r->max_rel = e / fabs(w);
        se += e * e;
        sw += w * w;
        if (!(ratio <= 1)) vkb_check_bad(r, i, g, w);
    }
    r->nmse = sw > 0 ? se / sw : se;
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

void vkb_cmp_bits(vkb_check *r, vkb_dtype t, const void *got, const void *want, const void *const *alt, int nalt,
                  size_t n, vkb_nan_rule nan)
{
    double se = 0, sw = 0;
    for (size_t i = 0; i < n; i++) {
        uint32_t gb = float_bits(t, got, i), wb = float_bits(t, want, i);
        double g = vkb_elem(t, got, i), w = vkb_elem(t, want, i);
        r->nchecked++;
        if (vkb_is_poison(t, got, i)) {
            vkb_check_unwritten(r, i, g, w);
            continue;
        }
        int same = gb == wb || (nan == VKB_NAN_ANY && isnan(g) && isnan(w));
        for (int k = 0; k < nalt && !same; k++) {
            double a = vkb_elem(t, alt[k], i);
            same = gb == float_bits(t, alt[k], i) || (nan == VKB_NAN_ANY && isnan(g) && isnan(a));
        }
        if (isfinite(g) && isfinite(w)) {
            double e = fabs(g - w);
            if (e > r->max_abs) r->max_abs = e;
            if (w != 0 && e / fabs(w) > r->max_rel) r->max_rel = e / fabs(w);
            se += e * e;
            sw += w * w;
        }
        if (same) continue;
        if (!isfinite(g) && isfinite(w)) {  /* NaN or Inf where the reference is finite, as judge_special */
            if (r->nnan < 10 && r->nbad < 10) bad_bits(r, t, i, g, w, gb, wb), r->nbad--;
            r->nnan++;
        } else {
            bad_bits(r, t, i, g, w, gb, wb);
        }
    }
    r->nmse = sw > 0 ? se / sw : se;
    r->metric = (double)(r->nbad + r->nnan + r->nunwritten);
    r->threshold = 0;
    vkb_check_end(r);
}

void vkb_cmp_exact(vkb_check *r, vkb_dtype t, const void *got, const void *want, size_t n)
{
    size_t sz = vkb_dtype_size(t);
    r->threshold = 0;
    for (size_t i = 0; i < n; i++) {
        double g = vkb_elem(t, got, i), w = vkb_elem(t, want, i);
        r->nchecked++;
        /* Poison first: an unwritten element whose expected value happens to equal the poison is unwritten. */
        if (vkb_is_poison(t, got, i)) {
            vkb_check_unwritten(r, i, g, w);
            continue;
        }
        if (memcmp((const char *)got + i * sz, (const char *)want + i * sz, sz) == 0) continue;
        double e = fabs(g - w);
        if (e > r->max_abs) r->max_abs = e;
        vkb_check_bad(r, i, g, w);
    }
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
