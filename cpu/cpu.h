/* cpu.h — optimized CPU baselines: what a CPU user would actually run for the same case, on all cores.
 *
 * A baseline is one `vkb_baseline` value in cpu/FAMILY.c, marked VKB_BASELINE(kernel) so `make` finds it
 * (harness/registry.sh, as the kernel registry). For each case that PASSes planning, the driver (cpu/driver.c)
 * calls, after the scalar reference and before the GPU:
 *   prep(c)       optional, untimed: what a CPU user keeps between calls (e.g. fp16 weights as fp32 for BLAS)
 *   run(c, st)    compute the case's outputs into c->buf[i].host (role VKB_OUT) from its inputs;
 *                 returns NULL, or a reason why this case has no baseline (status NA)
 *   done(st)      free what prep returned
 * It times run() (median of warm runs, OpenMP threads pinned one per core through hwloc, OpenBLAS on as
 * many threads), then validates the last run's outputs with the kernel's own check(): same tolerance as
 * the GPU. Elementwise/rows/reductions/quantizers are OpenMP + vectorizable C; matmul and dense GEMV/GEMM
 * are OpenBLAS through GSL's CBLAS interface; decompositions are LAPACK (OpenBLAS's) in fp32.
 */
#ifndef VKB_CPU_H
#define VKB_CPU_H
#include <math.h>
#include <stddef.h>
#include <stdint.h>
#ifdef __F16C__
#include <immintrin.h>
#endif

#include "result.h"
#include "vkb.h"

/* Vector transcendental functions: glibc's libmvec (linked through libm) has SSE/AVX2/AVX-512 variants of
 * these (documented error <= 4 ulp), which `omp simd` loops call once the functions are declared simd
 * (math.h does so only under -ffast-math, which would also license reassociation the checks forbid).
 * A baseline calling scalar libm here would run ~10x slower than what a CPU user would compile. */
#if defined(__GLIBC__) && defined(__x86_64__)
float expf(float) __attribute__((simd("notinbranch")));         /* libmvec since glibc 2.22 */
#if __GLIBC_PREREQ(2, 35)
float tanhf(float) __attribute__((simd("notinbranch")));        /* since 2.35; older: scalar tanhf */
#endif
#endif

typedef struct vkb_baseline {
    const char *name;   /* the kernel it stands beside */
    const char *impl;   /* what it is, for the row: e.g. "openblas sgemm", "openmp simd" */
    const char *(*run)(vkb_case *c, void *state);
    void *(*prep)(vkb_case *c);
    void (*done)(void *state);
    int blas;           /* calls OpenBLAS: only then are its threads raised (idle ones spin and steal cores) */
} vkb_baseline;

/* Registry marker: the Makefile greps the cpu/ files for VKB_BASELINE(name) and lists &vkb_baseline_name. */
#define VKB_BASELINE(name) const vkb_baseline vkb_baseline_##name

extern const vkb_baseline *const vkb_baselines[];  /* NULL-terminated, generated */

/* Run the case's optimized CPU baseline (if any) on its filled inputs and fill the cpu_fast_* columns of
 * r: time (median of warm runs), threads, implementation, status PASS/FAIL (kernel's check) or NA with
 * the reason in cpu_fast_why. Leaves inputs, c->note and the calling thread's CPU binding as it found
 * them; outputs hold the baseline's result (the GPU upload poisons them again). budget > 0: seconds for the
 * warm-up and the timed runs together; the runs are cut to fit, down to one (then no CI). */
void vkb_cpu_baseline(vkb_case *c, vkb_result *r, double budget);

/* Worker threads the baselines use: one per core (hwloc), at least 1. */
int vkb_cpu_threads(void);

/* fp16 <-> fp32 for the baselines (round to nearest even, as vkb_f32_to_f16). */
static inline float vkb_cpu_h2f(uint16_t h)
{
    _Float16 x;
    __builtin_memcpy(&x, &h, 2);
    return (float)x;
}
static inline uint16_t vkb_cpu_f2h(float f)
{
    _Float16 x = (_Float16)f;
    uint16_t h;
    __builtin_memcpy(&h, &x, 2);
    return h;
}

/* n values at a time, the same roundings: F16C converts 8 per instruction where the CPU has it (GCC 12
 * cannot vectorize _Float16 conversions without AVX512-FP16, so a loop of the scalar ones stays scalar). */
#define VKB_F16_CHUNK 1024   /* fp16 loops: convert this many to fp32, compute, round back */
static inline size_t vkb_cpu_chunk(size_t n, size_t s) { return n - s < VKB_F16_CHUNK ? n - s : VKB_F16_CHUNK; }
static inline void vkb_cpu_h2f_n(const uint16_t *h, float *f, size_t n)
{
    size_t i = 0;
#ifdef __F16C__
    for (; i + 8 <= n; i += 8) _mm256_storeu_ps(f + i, _mm256_cvtph_ps(_mm_loadu_si128((const __m128i *)(h + i))));
#endif
    for (; i < n; i++) f[i] = vkb_cpu_h2f(h[i]);
}
static inline void vkb_cpu_f2h_n(const float *f, uint16_t *h, size_t n)
{
    size_t i = 0;
#ifdef __F16C__
    for (; i + 8 <= n; i += 8)
        _mm_storeu_si128((__m128i *)(h + i), _mm256_cvtps_ph(_mm256_loadu_ps(f + i), _MM_FROUND_TO_NEAREST_INT | _MM_FROUND_NO_EXC));
#endif
    for (; i < n; i++) h[i] = vkb_cpu_f2h(f[i]);
}

#endif
