/* fastref.c — the fast full references of fastref.h: OpenBLAS dgemm in double, and exact integer loops,
 * on all cores. Not timed as baselines; their cost lands in the row's reference time. */
#include <omp.h>
#include <stdlib.h>
#include <gsl/gsl_cblas.h>

#include "bitnet_layout.glsl"
#include "cpu.h"
#include "fastref.h"

void openblas_set_num_threads(int n);  /* OpenBLAS's own control; GSL's CBLAS header lacks it */

static int corrupt(void)
{
    const char *e = getenv("VKB_FASTREF_CORRUPT");
    return e && e[0] == '1';
}

/* The operand as a dense double matrix (rows × cols as stored, row stride cols), absolute values when
 * mag. Returns NULL when out of memory. */
static double *widen(vkb_fast_mat a, size_t rows, size_t cols)
{
    double *d = malloc(rows * cols * sizeof(double) + 1);
    if (!d) return NULL;
#pragma omp parallel for schedule(static) num_threads(vkb_cpu_threads())
    for (size_t i = 0; i < rows; i++)
        for (size_t j = 0; j < cols; j++)
            d[i * cols + j] = a.type == VKB_F16 ? (double)vkb_cpu_h2f(((const uint16_t *)a.p)[i * a.ld + j])
                                                : (double)((const float *)a.p)[i * a.ld + j];
    return d;
}

static void absolute(double *d, size_t count)
{
#pragma omp parallel for simd schedule(static) num_threads(vkb_cpu_threads())
    for (size_t i = 0; i < count; i++) d[i] = d[i] < 0 ? -d[i] : d[i];
}

static int fast_gemm(vkb_fast_mat a, vkb_fast_mat b, size_t m, size_t n, size_t k, double *c, double *s, double *secs)
{
    double t0 = omp_get_wtime();
    /* As stored: A is m×k (or k×m when transposed), B k×n (or n×k). */
    double *ad = widen(a, a.trans ? k : m, a.trans ? m : k), *bd = widen(b, b.trans ? n : k, b.trans ? k : n);
    int rc = -1;
    if (!ad || !bd) goto out;
    int lda = (int)(a.trans ? m : k), ldb = (int)(b.trans ? k : n);
    enum CBLAS_TRANSPOSE ta = a.trans ? CblasTrans : CblasNoTrans, tb = b.trans ? CblasTrans : CblasNoTrans;
    openblas_set_num_threads(vkb_cpu_threads());
    cblas_dgemm(CblasRowMajor, ta, tb, (int)m, (int)n, (int)k, 1.0, ad, lda, bd, ldb, 0.0, c, (int)n);
    if (s) {
        absolute(ad, m * k);
        absolute(bd, k * n);
        cblas_dgemm(CblasRowMajor, ta, tb, (int)m, (int)n, (int)k, 1.0, ad, lda, bd, ldb, 0.0, s, (int)n);
    }
    openblas_set_num_threads(1);  /* as cpu/driver.c leaves it: the scalar references stay single-threaded */
    if (corrupt() && m > 0 && n > 0) c[0] += 1.0;
    rc = 0;
out:
    free(ad);
    free(bd);
    *secs += omp_get_wtime() - t0;
    return rc;
}

#define SHIFT(j) (8 * ((j) % 4) + 2 * (((j) % 16) / 4))  /* bit position of weight j inside its word */

static int fast_ternary_acc(const uint32_t *w, const int8_t *x, size_t n, size_t k, size_t kp, size_t m, int64_t *acc,
                         double *secs)
{
    double t0 = omp_get_wtime();
    int rc = 0;
#pragma omp parallel num_threads(vkb_cpu_threads()) reduction(| : rc)
    {
        int8_t *row = malloc(k + 1);  /* one weight row unpacked to −1/0/+1, then dotted with every token */
        if (!row) rc = -1;
#pragma omp for schedule(dynamic, 16)
        for (size_t r = 0; r < n; r++) {
            if (!row) continue;
            for (size_t j = 0; j < k; j++) row[j] = (int8_t)((int)((w[(r * kp + j) / BITNET_WORD] >> SHIFT(j)) & 3u) - 1);
            for (size_t t = 0; t < m; t++) {
                /* |partial sums| <= 127 k <= 1.27e7 < 2^31 (plan caps k at 10^5): int32 is exact here. */
                int32_t a = 0;
                const int8_t *xt = x + t * kp;
#pragma omp simd reduction(+ : a)
                for (size_t j = 0; j < k; j++) a += row[j] * xt[j];
                acc[t * n + r] = a;
            }
        }
        free(row);
    }
    if (!rc && corrupt() && m > 0 && n > 0) acc[0] += 1;
    *secs += omp_get_wtime() - t0;
    return rc ? -1 : 0;
}

static void (*guard_enter)(void *), (*guard_leave)(void *);
static void *guard_arg;

void vkb_fastref_set_guard(void (*enter)(void *), void (*leave)(void *), void *arg)
{
    guard_enter = enter;
    guard_leave = leave;
    guard_arg = arg;
}

int vkb_fast_gemm(vkb_fast_mat a, vkb_fast_mat b, size_t m, size_t n, size_t k, double *c, double *s, double *secs)
{
    if (guard_enter) guard_enter(guard_arg);
    int rc = fast_gemm(a, b, m, n, k, c, s, secs);
    if (guard_leave) guard_leave(guard_arg);
    return rc;
}

int vkb_fast_ternary_acc(const uint32_t *w, const int8_t *x, size_t n, size_t k, size_t kp, size_t m, int64_t *acc,
                         double *secs)
{
    if (guard_enter) guard_enter(guard_arg);
    int rc = fast_ternary_acc(w, x, n, k, kp, m, acc, secs);
    if (guard_leave) guard_leave(guard_arg);
    return rc;
}
