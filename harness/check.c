/* check.c — comparators. The order (unwritten, NaN/Inf, metric) matters: a poisoned element is a
 * NaN too, and reporting it as "unwritten" tells the kernel author where to look. */
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

int vkb_is_poison(vkb_dtype t, const void *p, size_t i)
{
    switch (t) {
    case VKB_F32: return ((const uint32_t *)p)[i] == VKB_POISON_F32;
    case VKB_F16: return ((const uint16_t *)p)[i] == VKB_POISON_F16;
    case VKB_I8:
    case VKB_U8: return ((const uint8_t *)p)[i] == VKB_POISON_BYTE;
    case VKB_I32:
    case VKB_U32: return ((const uint32_t *)p)[i] == 0xA5A5A5A5u;
    }
    return 0;
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

/* Common first steps: unwritten, then non-finite. Returns 1 when the element was judged. */
static int judge_special(vkb_check *r, vkb_dtype t, const void *got, size_t i, double g, double w)
{
    if (vkb_is_poison(t, got, i)) {
        if (r->nunwritten < 10 && r->nbad < 10) vkb_check_bad(r, i, g, w), r->nbad--;
        r->nunwritten++;
        return 1;
    }
    if (!isfinite(g) && !(isinf(w) && g == w)) {
        if (r->nnan < 10 && r->nbad < 10) vkb_check_bad(r, i, g, w), r->nbad--;
        r->nnan++;
        return 1;
    }
    return 0;
}

void vkb_cmp_ulp(vkb_check *r, vkb_dtype t, const void *got, const void *want, size_t n, double max_ulp)
{
    double se = 0, sw = 0;
    for (size_t i = 0; i < n; i++) {
        double g = vkb_elem(t, got, i), w = vkb_elem(t, want, i);
        r->nchecked++;
        if (judge_special(r, t, got, i, g, w)) continue;
        double d = vkb_ulp_dist(t, got, want, i), e = fabs(g - w);
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
    size_t over = 0;
    r->threshold = 1;
    for (size_t i = 0; i < n; i++) {
        double g = vkb_elem(t, got, i), w = want[i];
        r->nchecked++;
        if (judge_special(r, t, got, i, g, w)) continue;
        double e = fabs(g - w);
        double allowed = tol.abs + tol.rel * fabs(w) + tol.ulps * vkb_ulp(t, w) + (tol.bound ? tol.bound[i] : 0);
        double ratio = allowed > 0 ? e / allowed : (e > 0 ? INFINITY : 0);
        if (ratio > r->metric) r->metric = ratio;
        if (e > r->max_abs) r->max_abs = e;
        if (w != 0 && e / fabs(w) > r->max_rel) r->max_rel = e / fabs(w);
        se += e * e;
        sw += w * w;
        if (ratio > 1) {
            vkb_check_bad(r, i, g, w);
            over++;
        }
    }
    r->nmse = sw > 0 ? se / sw : se;
    r->nbad = over;
    vkb_check_end(r);
}

void vkb_cmp_exact(vkb_check *r, vkb_dtype t, const void *got, const void *want, size_t n)
{
    size_t sz = vkb_dtype_size(t);
    r->threshold = 0;
    for (size_t i = 0; i < n; i++) {
        double g = vkb_elem(t, got, i), w = vkb_elem(t, want, i);
        r->nchecked++;
        if (memcmp((const char *)got + i * sz, (const char *)want + i * sz, sz) == 0) continue;
        if (vkb_is_poison(t, got, i)) {
            if (r->nbad < 10) vkb_check_bad(r, i, g, w), r->nbad--;
            r->nunwritten++;
            continue;
        }
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
