/* decomp_util.c — helpers for the decomposition checks and inputs (see decomp.h). */
#include <math.h>
#include <pthread.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <gsl/gsl_linalg.h>
#include <gsl/gsl_matrix.h>
#include <gsl/gsl_randist.h>

#include "decomp.h"

/* vkb_dc_matmul in GotoBLAS's blocking: B packed in KC x NR strips of an NC-wide panel (each thread packs its
 * own copy: O(k n) a thread against O(m k n / threads) of products), MR x NR tiles of C held in registers over
 * a KC step, row tiles dealt round-robin to the threads (triangular work stays balanced). Every element is
 * ((0 + a_i0 b_0j) + a_i1 b_1j) + ... in ascending p, one rounding per product and per sum, on one thread:
 * the same bits as the plain i-p-j loops it replaced (those skipped a zero a_ip; adding its +-0 product changes
 * no nonzero sum), whatever the thread count, with AVX or without (no FMA: a fused product would round once;
 * the Makefile builds this file with -ffp-contract=off, so no compiler fuses them either).
 * Session 22: the QR 4096 check's two products (Q R, Q^T Q) were most of the main thread's 2.8 s wait for that
 * check on an H200 host (16 threads); on this project's 2-core AMD EPYC host they took 10.2 s with the plain
 * loops and 4.5 s blocked (MR 6: 12 accumulators, ~15% over MR 4), with the same bits. */
#define MR 6
#define NR 8
#define KC 256
#define NC 512
#define MAXTHR 32

typedef double v4d __attribute__((vector_size(32)));

typedef struct mm_job {
    const double *a, *b;
    double *c;
    size_t m, k, n;
    int flags, tid, nthr;
} mm_job;

/* C[i0 .. i0 + MR) x [j0 .. j0 + NR) (clipped to m, n; with C_LOWER to j <= i) += A[rows, p0 .. p1) x the
 * packed strip bp (KC x NR, row p - p0), starting from 0 when p0 == 0. Rows past m read row m - 1, unstored. */
#define MM_TILE_BODY                                                                                        \
    v4d acc[MR][2];                                                                                         \
    const double *ar[MR];                                                                                   \
    for (int ii = 0; ii < MR; ii++) {                                                                       \
        size_t i = i0 + (size_t)ii < j->m ? i0 + (size_t)ii : j->m - 1;                                    \
        ar[ii] = j->a + i * j->k;                                                                           \
        double t[NR] = {0};                                                                                 \
        if (p0 > 0)                                                                                         \
            for (int jj = 0; jj < NR && j0 + (size_t)jj < j->n; jj++) t[jj] = j->c[i * j->n + j0 + (size_t)jj]; \
        memcpy(&acc[ii][0], t, sizeof(acc[ii]));                                                           \
    }                                                                                                       \
    for (size_t p = p0; p < p1; p++) {                                                                      \
        v4d b0, b1;                                                                                         \
        memcpy(&b0, bp + (p - p0) * NR, sizeof(b0));                                                        \
        memcpy(&b1, bp + (p - p0) * NR + 4, sizeof(b1));                                                    \
        for (int ii = 0; ii < MR; ii++) {                                                                   \
            v4d av = {ar[ii][p], ar[ii][p], ar[ii][p], ar[ii][p]};                                          \
            acc[ii][0] = acc[ii][0] + av * b0;                                                              \
            acc[ii][1] = acc[ii][1] + av * b1;                                                              \
        }                                                                                                   \
    }                                                                                                       \
    for (int ii = 0; ii < MR && i0 + (size_t)ii < j->m; ii++) {                                             \
        double t[NR];                                                                                       \
        memcpy(t, &acc[ii][0], sizeof(t));                                                                 \
        size_t i = i0 + (size_t)ii, hi = (j->flags & VKB_DC_C_LOWER) && i + 1 < j->n ? i + 1 : j->n;       \
        for (int jj = 0; jj < NR && j0 + (size_t)jj < hi; jj++) j->c[i * j->n + j0 + (size_t)jj] = t[jj];   \
    }
#if defined(__x86_64__) || defined(__i386__)
__attribute__((target("avx"))) static void mm_tile_avx(const mm_job *j, const double *bp, size_t i0, size_t j0,
                                                       size_t p0, size_t p1)
{
    MM_TILE_BODY
}
#define MM_HAS_AVX() __builtin_cpu_supports("avx")
#else
#define mm_tile_avx mm_tile_sse
#define MM_HAS_AVX() 0
#endif
static void mm_tile_sse(const mm_job *j, const double *bp, size_t i0, size_t j0, size_t p0, size_t p1)
{
    MM_TILE_BODY
}
#undef MM_TILE_BODY

/* A worker's rows (the same tiles) by plain loops, in the same order of operations: when its panel buffer cannot
 * be had. */
static void mm_plain(const mm_job *j)
{
    for (size_t i0 = (size_t)j->tid * MR; i0 < j->m; i0 += (size_t)j->nthr * MR)
        for (size_t i = i0; i < i0 + MR && i < j->m; i++) {
            size_t hi = (j->flags & VKB_DC_C_LOWER) ? i + 1 : j->n;
            for (size_t c = 0; c < hi && c < j->n; c++) {
                double acc = 0;
                for (size_t p = 0; p < j->k; p++) acc = acc + j->a[i * j->k + p] * j->b[p * j->n + c];
                j->c[i * j->n + c] = acc;
            }
        }
}

static void *mm_worker(void *arg)
{
    const mm_job *j = arg;
    size_t m = j->m, k = j->k, n = j->n;
    int avx = MM_HAS_AVX();
    double *bp = aligned_alloc(64, (size_t)KC * NC * sizeof(double));
    if (!bp || getenv("VKB_DC_PLAIN")) {   /* VKB_DC_PLAIN: a test hook, the plain loops on every thread */
        free(bp);
        mm_plain(j);
        return NULL;
    }
    for (size_t jc = 0; jc < n; jc += NC) {
        size_t nc = n - jc < NC ? n - jc : NC;
        for (size_t pc = 0; pc == 0 || pc < k; pc += KC) {   /* k = 0 still makes one pass: c = 0 */
            size_t kc = k - pc < KC ? k - pc : KC;
            /* The panel's strips: row p of strip s at bp[(s * KC + p) * NR], zero past n and, with B_UPPER, below p. */
            for (size_t s = 0; s * NR < nc; s++)
                for (size_t p = 0; p < kc; p++)
                    for (size_t jj = 0; jj < NR; jj++) {
                        size_t col = jc + s * NR + jj, row = pc + p;
                        int zero = col >= n || ((j->flags & VKB_DC_B_UPPER) && col < row);
                        bp[(s * KC + p) * NR + jj] = zero ? 0.0 : j->b[row * n + col];
                    }
            for (size_t i0 = (size_t)j->tid * MR; i0 < m; i0 += (size_t)j->nthr * MR) {
                size_t ilast = i0 + MR - 1 < m ? i0 + MR - 1 : m - 1;
                size_t p1 = pc + kc;
                if ((j->flags & VKB_DC_A_LOWER) && p1 > ilast + 1) p1 = ilast + 1 > pc ? ilast + 1 : pc;
                for (size_t s = 0; s * NR < nc; s++) {
                    size_t j0 = jc + s * NR;
                    if ((j->flags & VKB_DC_C_LOWER) && j0 > ilast) break;
                    size_t q1 = p1;   /* B_UPPER: rows past the strip's last column are zero */
                    if ((j->flags & VKB_DC_B_UPPER) && q1 > j0 + NR) q1 = j0 + NR > pc ? j0 + NR : pc;
                    if (q1 == pc && pc > 0) continue;   /* nothing to add; the first pass still writes the zeros */
                    if (avx) mm_tile_avx(j, bp + s * KC * NR, i0, j0, pc, q1);
                    else mm_tile_sse(j, bp + s * KC * NR, i0, j0, pc, q1);
                }
            }
        }
    }
    free(bp);
    return NULL;
}

void vkb_dc_matmul(const double *a, const double *b, double *c, size_t m, size_t k, size_t n, int flags)
{
    if (m == 0 || n == 0) return;
    long ncpu = sysconf(_SC_NPROCESSORS_ONLN);
    int nthr = ncpu < 1 ? 1 : ncpu > MAXTHR ? MAXTHR : (int)ncpu;
    if ((double)m * (double)k * (double)n < 1e7) nthr = 1;
    pthread_t th[MAXTHR];
    mm_job job[MAXTHR];
    int ok[MAXTHR] = {0};
    for (int t = 0; t < nthr; t++) {
        job[t] = (mm_job){a, b, c, m, k, n, flags, t, nthr};
        if (t > 0) ok[t] = pthread_create(&th[t], NULL, mm_worker, &job[t]) == 0;
    }
    mm_worker(&job[0]);
    for (int t = 1; t < nthr; t++) {
        if (ok[t]) pthread_join(th[t], NULL);
        else mm_worker(&job[t]);  /* no thread: do its share here */
    }
}

double vkb_dc_norm1(const double *x, size_t m, size_t n)
{
    double *col = calloc(n ? n : 1, sizeof(double)), best = 0;
    if (!col) return NAN;
    for (size_t i = 0; i < m; i++)
        for (size_t j = 0; j < n; j++) col[j] += fabs(x[i * n + j]);
    for (size_t j = 0; j < n; j++) best = col[j] > best || isnan(col[j]) ? col[j] : best;
    free(col);
    return best;
}

double vkb_dc_norm1_lower(const double *x, size_t n)
{
    double *col = calloc(n ? n : 1, sizeof(double)), best = 0;
    if (!col) return NAN;
    for (size_t i = 0; i < n; i++)
        for (size_t j = 0; j <= i; j++) {
            double v = fabs(x[i * n + j]);
            col[j] += v;
            if (j < i) col[i] += v;
        }
    for (size_t j = 0; j < n; j++) best = col[j] > best || isnan(col[j]) ? col[j] : best;
    free(col);
    return best;
}

double vkb_dc_orth1(double *g, size_t n)
{
    for (size_t i = 0; i < n; i++) {
        for (size_t j = 0; j < i; j++) g[i * n + j] = -g[i * n + j];
        g[i * n + i] = 1.0 - g[i * n + i];
    }
    return vkb_dc_norm1_lower(g, n);
}

double *vkb_dc_to_double(const float *x, size_t m, size_t n, size_t ld)
{
    double *d = malloc((m * n > 0 ? m * n : 1) * sizeof(double));
    if (!d) return NULL;
    for (size_t i = 0; i < m; i++)
        for (size_t j = 0; j < n; j++) d[i * n + j] = x[i * ld + j];
    return d;
}

/* Q^T of a QR (GSL, Householder) of a random normal rows x min(rows, 8) matrix applied from the left to the
 * rows x cols matrix b: an orthogonal transformation in O(8 rows cols). Returns 0, or -1 out of memory. */
static int random_reflect(gsl_rng *r, gsl_matrix *b)
{
    size_t rows = b->size1, k = rows < 8 ? rows : 8;
    gsl_matrix *x = gsl_matrix_alloc(rows, k);
    gsl_vector *tau = gsl_vector_alloc(k);
    int rc = -1;
    if (x && tau) {
        for (size_t i = 0; i < rows; i++)
            for (size_t j = 0; j < k; j++) gsl_matrix_set(x, i, j, gsl_ran_gaussian(r, 1.0));
        gsl_linalg_QR_decomp(x, tau);
        gsl_linalg_QR_QTmat(x, tau, b);
        rc = 0;
    }
    gsl_matrix_free(x);
    gsl_vector_free(tau);
    return rc;
}

int vkb_dc_sym_from_eigs(gsl_rng *r, size_t n, const double *lambda, double *a)
{
    size_t k = n < 8 ? n : 8;
    gsl_matrix *x = gsl_matrix_alloc(n, k), *b = gsl_matrix_calloc(n, n);
    gsl_vector *tau = gsl_vector_alloc(k);
    int rc = -1;
    if (!x || !b || !tau) goto out;
    for (size_t i = 0; i < n; i++)
        for (size_t j = 0; j < k; j++) gsl_matrix_set(x, i, j, gsl_ran_gaussian(r, 1.0));
    gsl_linalg_QR_decomp(x, tau);
    for (size_t i = 0; i < n; i++) gsl_matrix_set(b, i, i, lambda[i]);
    gsl_linalg_QR_QTmat(x, tau, b);  /* Q^T diag */
    gsl_matrix_transpose(b);         /* diag Q (diag symmetric) */
    gsl_linalg_QR_QTmat(x, tau, b);  /* Q^T diag Q */
    for (size_t i = 0; i < n; i++)   /* symmetrise away the rounding of the two passes */
        for (size_t j = 0; j <= i; j++)
            a[i * n + j] = a[j * n + i] = 0.5 * (gsl_matrix_get(b, i, j) + gsl_matrix_get(b, j, i));
    rc = 0;
out:
    gsl_matrix_free(x);
    gsl_matrix_free(b);
    gsl_vector_free(tau);
    return rc;
}

int vkb_dc_from_svals(gsl_rng *r, size_t m, size_t n, const double *sigma, double *a)
{
    gsl_matrix *b = gsl_matrix_calloc(m, n), *bt = gsl_matrix_alloc(n, m);
    int rc = -1;
    if (!b || !bt) goto out;
    for (size_t i = 0; i < n; i++) gsl_matrix_set(b, i, i, sigma[i]);
    if (random_reflect(r, b)) goto out;  /* U diag(sigma) */
    gsl_matrix_transpose_memcpy(bt, b);
    if (random_reflect(r, bt)) goto out; /* V^T (U diag(sigma))^T */
    for (size_t i = 0; i < m; i++)
        for (size_t j = 0; j < n; j++) a[i * n + j] = gsl_matrix_get(bt, j, i);
    rc = 0;
out:
    gsl_matrix_free(b);
    gsl_matrix_free(bt);
    return rc;
}

int vkb_dc_grade(size_t i, size_t count, int span)
{
    return count > 1 ? (int)lround((double)span * (double)i / (double)(count - 1)) : 0;
}

void vkb_dc_note(char *note, size_t len, const char *fmt, ...)
{
    size_t used = strlen(note);
    if (used + 2 >= len) return;
    if (used) {
        note[used++] = ' ';
        note[used] = 0;
    }
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(note + used, len - used, fmt, ap);
    va_end(ap);
}
