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

/* ULP comparison of fp32 (or fp16 when t == VKB_F16) outputs with an expected array of the same type.
 * metric = largest ULP distance; passes when <= max_ulp. Numeric, not bitwise even at max_ulp = 0: +0 and -0
 * are 0 ULP apart and any NaN matches a NaN reference (use vkb_cmp_bits where the contract is bitwise). */
void vkb_cmp_ulp(vkb_check *r, vkb_dtype t, const void *got, const void *want, size_t n, double max_ulp);
/* As vkb_cmp_ulp, and element i also passes within max_ulp of alt[k][i] for any of the nalt arrays (type t):
 * results the kernel's contract allows besides the reference, e.g. with denormals flushed to zero. */
void vkb_cmp_ulp_alt(vkb_check *r, vkb_dtype t, const void *got, const void *want, const void *const *alt, int nalt,
                     size_t n, double max_ulp);

/* Bit-for-bit comparison of fp32 (or fp16 when t == VKB_F16) outputs with an expected array of type t, for
 * kernels whose contract is bitwise: element i passes only when its bits equal want[i]'s or those of one of the
 * nalt arrays alt[k] (type t; e.g. the result with denormals flushed), so -0 never matches +0. nan says how a
 * NaN is judged: VKB_NAN_BITS, bit for bit like any value (data movement: copy, transpose);
 * VKB_NAN_ANY, any NaN matches a NaN reference (arithmetic, max() included: IEEE 754 fixes neither payload nor
 * sign of a NaN result, and NVIDIA's fp16 max returns its canonical 0x7fff for any NaN, measured on an H200). metric = number of elements that differ (threshold 0); mismatches are recorded with their bits. */
typedef enum { VKB_NAN_ANY, VKB_NAN_BITS } vkb_nan_rule;
void vkb_cmp_bits(vkb_check *r, vkb_dtype t, const void *got, const void *want, const void *const *alt, int nalt,
                  size_t n, vkb_nan_rule nan);

/* Bound comparison against a double reference: element i passes when
 * |got_i - want_i| <= abs + rel*|want_i| + ulps*ulp_t(want_i) + (bound ? bound[i] : 0).
 * An infinite want_i (an IEEE infinity: no reference overflows double) passes only the same infinity, whatever
 * the allowance; an allowance that is NaN fails every element that is not exactly equal.
 * metric = max_i |err_i| / allowed_i (threshold 1). Also fills max_abs, max_rel, nmse. */
typedef struct vkb_tol { double abs, rel, ulps; const double *bound; } vkb_tol;
void vkb_cmp_bound(vkb_check *r, vkb_dtype t, const void *got, const double *want, size_t n, vkb_tol tol);

/* Exact integer comparison (t is an integer type): poison first (an element still holding it is unwritten,
 * whatever its expected value), then equality. metric = mismatches + unwritten, threshold 0. */
void vkb_cmp_exact(vkb_check *r, vkb_dtype t, const void *got, const void *want, size_t n);

/* Threads the comparators above may use for one call (default 1; at most 64). The spans they compare are fixed
 * (2^20 elements), so every field of the result is the same for any thread count. */
void vkb_check_set_threads(int n);
/* A kernel's own element loop on the same spans and threads: fn(arg, part, lo, hi) judges [lo, hi) into part (a
 * zeroed vkb_check of its own, used as the comparators use r), and the parts are merged into r in index order:
 * counts added, metric, max_abs and max_rel the largest, the first 10 detail entries kept. */
typedef void (*vkb_span_fn)(const void *arg, vkb_check *part, size_t lo, size_t hi);
void vkb_check_spans(vkb_check *r, size_t n, vkb_span_fn fn, const void *arg);
/* Any loop over [0, n) whose iterations are independent (e.g. expected values built in the check), on the same
 * spans and threads. */
void vkb_par_spans(size_t n, void (*fn)(const void *arg, size_t lo, size_t hi), const void *arg);

/* Note one mismatch in r (counts it and records the first 10 in detail). */
void vkb_check_bad(vkb_check *r, size_t i, double got, double want);
/* Note one unwritten element in r (counts it in nunwritten; recorded in detail like a mismatch). */
void vkb_check_unwritten(vkb_check *r, size_t i, double got, double want);

/* Poison: fill n elements of type t at p with the type's poison (kernels/abi.h), which no kernel produces.
 * The drivers call it on every output before a validated run; vkb_is_poison tests element i for it. */
void vkb_poison_fill(vkb_dtype t, void *p, size_t n);
int vkb_is_poison(vkb_dtype t, const void *p, size_t i);

/* Element helpers. */
double vkb_elem(vkb_dtype t, const void *p, size_t i);
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
