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

#define ROWBLK 16
#define MAXTHR 32

typedef struct mm_job {
    const double *a, *b;
    double *c;
    size_t m, k, n;
    int flags, tid, nthr;
} mm_job;

/* y += a x; restrict lets the compiler vectorise it without alias checks. */
static void axpy(double *restrict y, const double *restrict x, double a, size_t n)
{
    size_t q = 0;
    for (; q + 4 <= n; q += 4) {
        y[q] += a * x[q];
        y[q + 1] += a * x[q + 1];
        y[q + 2] += a * x[q + 2];
        y[q + 3] += a * x[q + 3];
    }
    for (; q < n; q++) y[q] += a * x[q];
}

static void *mm_worker(void *arg)
{
    const mm_job *j = arg;
    size_t n = j->n, k = j->k;
    /* Row blocks dealt round-robin: triangular work stays balanced. */
    for (size_t i0 = (size_t)j->tid * ROWBLK; i0 < j->m; i0 += (size_t)j->nthr * ROWBLK) {
        size_t i1 = i0 + ROWBLK < j->m ? i0 + ROWBLK : j->m;
        for (size_t i = i0; i < i1; i++) {
            size_t hi = (j->flags & VKB_DC_C_LOWER) ? i + 1 : n;
            memset(j->c + i * n, 0, hi * sizeof(double));
        }
        size_t pmax = (j->flags & VKB_DC_A_LOWER) ? (i1 < k ? i1 : k) : k;
        for (size_t p = 0; p < pmax; p++) {
            const double *brow = j->b + p * n;
            for (size_t i = i0; i < i1; i++) {
                double aip = j->a[i * k + p];
                if (aip == 0) continue;
                size_t lo = (j->flags & VKB_DC_B_UPPER) ? p : 0;
                size_t hi = (j->flags & VKB_DC_C_LOWER) ? i + 1 : n;
                if (hi > lo) axpy(j->c + i * n + lo, brow + lo, aip, hi - lo);
            }
        }
    }
    return NULL;
}

void vkb_dc_matmul(const double *a, const double *b, double *c, size_t m, size_t k, size_t n, int flags)
{
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
