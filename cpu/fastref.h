/* fastref.h — fast, independent full references for the checks above the scalar oracle's budget.
 *
 * reference/NAME.c computes every expected value with its scalar oracle while the case fits the oracle's
 * budget (vkb_case.oracle_budget multiply-adds, or the kernel's default). Above it, these compute EVERY
 * output on all cores instead, and the kernel's check compares every element with its elementwise bound;
 * the scalar oracle then recomputes a sample of rows and columns (first, last, random) and the kernel
 * demands that this fast reference agree with it within a derived tolerance, else the row is an ERROR
 * naming the reference (vkb_check.ref_error). Implementations differ from the oracle's loops on purpose
 * (OpenBLAS dgemm; a row-unpacked integer loop), so one bug cannot hide in both.
 *
 * Test hook: with the environment variable VKB_FASTREF_CORRUPT=1 each function adds 1 to its first output
 * (the oracle samples the first row and column of every case), so tests/run.sh can watch the mismatch
 * become an ERROR. VKB_FASTREF_SLICE=W cuts the work into slices of about W flops (multiply-adds for the
 * ternary one), at least one K step (dgemm) or row (ternary) each, so that the slicing (below) shows at sizes a
 * test can afford. Nothing
 * else reads them.
 */
#ifndef VKB_FASTREF_H
#define VKB_FASTREF_H
#include <stddef.h>
#include <stdint.h>

#include "vkb.h"

/* An operand as stored: type VKB_F32 or VKB_F16, row-major with row stride ld (elements); trans: the
 * stored matrix is the operand's transpose (rows of the stored matrix are the operand's columns). */
typedef struct vkb_fast_mat {
    const void *p;
    vkb_dtype type;
    size_t ld;
    int trans;
} vkb_fast_mat;

/* c = A·B and s = |A|·|B| (m×n row-major, double) for A m×k and B k×n, on the stored values widened to
 * double (every product of two fp32 or fp16 values is exact in double), by OpenBLAS dgemm on all cores.
 * s may be NULL. Adds its wall time to *secs (c->fast_ref_s). Returns 0, or -1 when out of memory. */
int vkb_fast_gemm(vkb_fast_mat a, vkb_fast_mat b, size_t m, size_t n, size_t k, double *c, double *s, double *secs);

/* BitLinear accumulators acc[t·n + r] = Σ_{j<k} (code(r, j) − 1)·x[t·kp + j], exact, for the packed
 * ternary W (n rows of kp weights, kernels/bitnet_layout.glsl) and int8 x (m rows of kp), k <= 10^5.
 * OpenMP over weight rows. Adds its wall time to *secs. Returns 0, or -1 when out of memory. */
int vkb_fast_ternary_acc(const uint32_t *w, const int8_t *x, size_t n, size_t k, size_t kp, size_t m, int64_t *acc,
                         double *secs);

/* Both run each slice of their work inside the CPU guard (vkb_cpu_shared_begin, vkb.h). */

/* vkb_fast_gemm's OpenBLAS calls on a thread of their own, started by the caller (at normal priority: the driver,
 * before its idle-priority prefetch workers start) and stopped once no reference runs; without it each slice runs on
 * the calling thread. vkb_fast_start returns 0, or -1 when the thread did not start; a second start or stop is a
 * no-op. */
int vkb_fast_start(void);
void vkb_fast_stop(void);

#endif
