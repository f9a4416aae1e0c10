/* check.h — comparing GPU outputs with the reference (pure: no Vulkan).
 * Order of judgement, for every comparator: unwritten elements (poison still there), then NaN/Inf
 * where the reference is finite, then the metric against its threshold. A NaN passes only where the
 * reference is NaN too, an infinity only where the reference is the same infinity (IEEE propagation from
 * NaN/Inf inputs, what fill=special asks for); a finite value where the reference is NaN is a mismatch.
 * The first 10 mismatches go into r->detail as "i=IDX got=G want=W". */
#ifndef VKB_CHECK_H
#define VKB_CHECK_H
#include <stddef.h>
#include <stdint.h>
#include "vkb.h"

/* Start a check: method name and threshold; clears counters, pass = 1. */
void vkb_check_begin(vkb_check *r, const char *method, double threshold);
/* Finish: pass = no unwritten, no NaN, nbad == 0, metric <= threshold (metric NAN fails). */
void vkb_check_end(vkb_check *r);

/* Bitwise/ULP comparison of fp32 (or fp16 when t == VKB_F16) outputs with an expected array of
 * the same type. metric = largest ULP distance; passes when <= max_ulp. */
void vkb_cmp_ulp(vkb_check *r, vkb_dtype t, const void *got, const void *want, size_t n, double max_ulp);
/* As vkb_cmp_ulp, and element i also passes within max_ulp of alt[k][i] for any of the nalt arrays (type t):
 * results the kernel's contract allows besides the reference, e.g. with denormals flushed to zero. */
void vkb_cmp_ulp_alt(vkb_check *r, vkb_dtype t, const void *got, const void *want, const void *const *alt, int nalt,
                     size_t n, double max_ulp);

/* Bound comparison against a double reference: element i passes when
 * |got_i - want_i| <= abs + rel*|want_i| + ulps*ulp_t(want_i) + (bound ? bound[i] : 0).
 * metric = max_i |err_i| / allowed_i (threshold 1). Also fills max_abs, max_rel, nmse. */
typedef struct vkb_tol { double abs, rel, ulps; const double *bound; } vkb_tol;
void vkb_cmp_bound(vkb_check *r, vkb_dtype t, const void *got, const double *want, size_t n, vkb_tol tol);

/* Exact integer comparison (t is an integer type). metric = number of mismatches, threshold 0. */
void vkb_cmp_exact(vkb_check *r, vkb_dtype t, const void *got, const void *want, size_t n);

/* Note one mismatch in r (counts it and records the first 10 in detail). */
void vkb_check_bad(vkb_check *r, size_t i, double got, double want);

/* Element helpers. */
double vkb_elem(vkb_dtype t, const void *p, size_t i);
int vkb_is_poison(vkb_dtype t, const void *p, size_t i);
double vkb_ulp(vkb_dtype t, double x);   /* spacing of type t at |x| (subnormal floor included) */
/* ULP distance between two finite values of type t (given as raw bits via p/q at i). */
double vkb_ulp_dist(vkb_dtype t, const void *p, const void *q, size_t i);

/* A fast full reference (cpu/fastref.h) checked against the scalar oracle on a sample: add each sampled
 * value pair, then vkb_check_ref after the elementwise comparison. Agreement needs |fast - oracle| <= tol
 * (tol derived by the kernel; 0 for exact integers). */
typedef struct vkb_refcmp {
    size_t n, nbad;
    double worst;       /* largest |fast - oracle| / tol (INFINITY when tol = 0 and they differ) */
    char first[120];    /* the first disagreement, for the detail */
} vkb_refcmp;
void vkb_refcmp_add(vkb_refcmp *rc, const char *what, size_t i, size_t j, double fast, double oracle, double tol);
/* Record how r's expected values were made (ref_method, fraction = 1: every element was compared). On a
 * disagreement the check fails as an ERROR naming the reference: ref_error = 1, pass = 0, method
 * "reference-mismatch", metric = rc->worst against threshold 1, ref_method "<ref_method> MISMATCH". */
void vkb_check_ref(vkb_check *r, const vkb_refcmp *rc, const char *ref_method);

/* Guard regions: the driver fills guard bytes with a pattern and checks them after the run.
 * Returns the offset of the first changed byte or -1. */
long vkb_guard_first_change(const uint8_t *g, size_t n, uint8_t pattern);

#endif
