/* fastref.c — the fast full references of fastref.h: OpenBLAS dgemm in double, and exact integer loops,
 * on all cores. Not timed as baselines; their cost lands in the row's reference time. */
#include <omp.h>
#include <pthread.h>
#include <sched.h>
#include <stdlib.h>
#include <gsl/gsl_cblas.h>

#include "bitnet_layout.glsl"
#include "cpu.h"
#include "fastref.h"
#include "fsutil.h"

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

/* The CPU guard (vkb.h) is held per slice of the work, not around a whole reference: a driver's CPU baseline
 * waiting for the CPU to itself then waits for one slice (~2^35 flops or 2^31 multiply-adds), not for a whole
 * reference. On an H200 host the dgemm pair of matmul 8192 took 5-10 s under one guard, and a baseline waited
 * 4.5 s of it (bitnet_linear 2560x2560 m=1: cpu_fast_s 4.46 s for 12 ms of runs); with slices, 0.47 s at most. */

/* VKB_FASTREF_SLICE (a test hook, fastref.h), or NULL when unset or empty. */
static const char *slice_hook(void)
{
    const char *e = getenv("VKB_FASTREF_SLICE");
    return e && *e ? e : NULL;
}

/* Rows (or K steps) of a slice whose work (rows × per_row) is about `work`, and at least min_rows; the test hook
 * makes it about its value, at least one. */
static size_t slice_rows(double per_row, double work, size_t min_rows)
{
    const char *e = slice_hook();
    if (e) work = strtod(e, NULL), min_rows = 1;
    double r = work / per_row;
    return r < (double)min_rows ? min_rows : (size_t)r;
}

/* OpenBLAS's thread count is one global: each slice sets all cores and puts back 1 (cpu/driver.c's setting, so
 * that the scalar references stay single-threaded) under this lock. The guard is taken inside it, so that one
 * slice at a time holds it: a baseline waits for one slice, not for one of every worker's. */
static pthread_mutex_t blas_lock = PTHREAD_MUTEX_INITIALIZER;

typedef struct blas_slice {
    enum CBLAS_TRANSPOSE ta, tb;
    int m, n, k, lda, ldb;
    const double *a, *b;
    double beta, *c;
} blas_slice;

/* The thread that calls OpenBLAS for the prefetch workers. OpenBLAS splits a call statically over its threads and
 * the caller is one of them, so a slice runs at the pace of its slowest share. A worker runs at SCHED_IDLE, where any
 * normal-priority thread (the submitting thread's fence waits, a check's team) takes its core first, and the other
 * threads waited for its share: on an H200 host matmul 8192's two references took 12.9-21.0 s each inside the default
 * suite, 5.5-8.2 s alone. Called from this thread (started at normal priority by vkb_fast_start, before the workers:
 * a worker cannot leave SCHED_IDLE without privilege, sched(7)) they took 7.0-11.5 s, and the main thread's wait for
 * references fell from 5.9 s to 3.6 s in a back-to-back pair of suites. Not started, slices run on their callers. */
static struct {
    pthread_mutex_t m;
    pthread_cond_t cv;
    pthread_t tid;
    int up, stop;
    const blas_slice *job;
} srv = {.m = PTHREAD_MUTEX_INITIALIZER, .cv = PTHREAD_COND_INITIALIZER};

static void slice_run(const blas_slice *j)
{
    double t0 = vkb_now_s();
    openblas_set_num_threads(vkb_cpu_threads());
    cblas_dgemm(CblasRowMajor, j->ta, j->tb, j->m, j->n, j->k, 1.0, j->a, j->lda, j->b, j->ldb, j->beta, j->c, j->n);
    openblas_set_num_threads(1);
    int pol = sched_getscheduler(0);  /* VKB_TRACE: the policy of the thread that called OpenBLAS (tests/run.sh) */
    vkb_trace("blas_slice", pol == SCHED_IDLE ? "caller_idle" : pol == SCHED_OTHER ? "caller_normal" : "caller_other",
              t0);
}

static void *slice_server(void *arg)
{
    (void)arg;
    pthread_mutex_lock(&srv.m);
    while (!srv.stop || srv.job) {  /* a job posted before the stop is still done: its caller waits for it */
        const blas_slice *j = srv.job;
        if (!j) {
            pthread_cond_wait(&srv.cv, &srv.m);
            continue;
        }
        pthread_mutex_unlock(&srv.m);
        slice_run(j);
        pthread_mutex_lock(&srv.m);
        srv.job = NULL;
        pthread_cond_broadcast(&srv.cv);
    }
    pthread_mutex_unlock(&srv.m);
    return NULL;
}

int vkb_fast_start(void)
{
    pthread_mutex_lock(&srv.m);
    if (!srv.up) {
        srv.stop = 0;
        srv.up = pthread_create(&srv.tid, NULL, slice_server, NULL) == 0;
    }
    int up = srv.up;
    pthread_mutex_unlock(&srv.m);
    return up ? 0 : -1;
}

void vkb_fast_stop(void)
{
    pthread_mutex_lock(&srv.m);
    int up = srv.up;
    srv.stop = 1;
    pthread_cond_broadcast(&srv.cv);
    pthread_mutex_unlock(&srv.m);
    if (up) pthread_join(srv.tid, NULL);
    pthread_mutex_lock(&srv.m);
    srv.up = 0;
    pthread_mutex_unlock(&srv.m);
}

/* One slice on the server when it is up (blas_lock held: one job at a time), else here. */
static void slice_call(const blas_slice *j)
{
    pthread_mutex_lock(&srv.m);
    if (!srv.up || srv.stop) {
        pthread_mutex_unlock(&srv.m);
        slice_run(j);
        return;
    }
    srv.job = j;
    pthread_cond_broadcast(&srv.cv);
    while (srv.job) pthread_cond_wait(&srv.cv, &srv.m);
    pthread_mutex_unlock(&srv.m);
}

/* c (m×n) = op(A)·op(B) by slices of the K dimension, c += A[:, k0:k1]·B[k0:k1, :], each about 2^35 flops and a
 * multiple of 256 deep. Not by rows: every call packs all of the other operand again, and 256-row slices made
 * matmul 8192's reference 4-5x slower on an H200 host (5 s -> 20-33 s). Measured there over the default suite
 * (warm driver cache): the baselines' waits summed 2.3-2.6 s with these slices, 6.0 s with slices of 2^37 flops,
 * and ~9 s without slices (the difference in cpu_fast_s). One slice at a time holds the lock, so the workers'
 * references queue behind each other's slices. */
static void gemm_slices(enum CBLAS_TRANSPOSE ta, enum CBLAS_TRANSPOSE tb, size_t m, size_t n, size_t k,
                        const double *ad, int lda, const double *bd, int ldb, double *c)
{
    size_t step = slice_rows(2.0 * (double)m * (double)n + 1, 0x1p35, 256);
    if (!slice_hook()) step = (step + 255) / 256 * 256;
    size_t k0 = 0;
    do {  /* k = 0 still makes one call: c = 0 */
        size_t kk = k - k0 < step ? k - k0 : step;
        /* Column k0 of op(A) is stored column k0 (row k0 when A is stored transposed); row k0 of op(B) likewise. */
        blas_slice j = {ta, tb, (int)m, (int)n, (int)kk, lda, ldb, ta == CblasTrans ? ad + k0 * (size_t)lda : ad + k0,
                        tb == CblasTrans ? bd + k0 : bd + k0 * (size_t)ldb, k0 ? 1.0 : 0.0, c};
        pthread_mutex_lock(&blas_lock);
        vkb_cpu_shared_begin();
        slice_call(&j);
        vkb_cpu_shared_end();
        pthread_mutex_unlock(&blas_lock);
        k0 += step;
    } while (k0 < k);
}

int vkb_fast_gemm(vkb_fast_mat a, vkb_fast_mat b, size_t m, size_t n, size_t k, double *c, double *s, double *secs)
{
    double t0 = omp_get_wtime();
    /* As stored: A is m×k (or k×m when transposed), B k×n (or n×k). */
    vkb_cpu_shared_begin();
    double *ad = widen(a, a.trans ? k : m, a.trans ? m : k), *bd = widen(b, b.trans ? n : k, b.trans ? k : n);
    vkb_cpu_shared_end();
    int rc = -1;
    if (!ad || !bd) goto out;
    int lda = (int)(a.trans ? m : k), ldb = (int)(b.trans ? k : n);
    enum CBLAS_TRANSPOSE ta = a.trans ? CblasTrans : CblasNoTrans, tb = b.trans ? CblasTrans : CblasNoTrans;
    gemm_slices(ta, tb, m, n, k, ad, lda, bd, ldb, c);
    if (s) {
        vkb_cpu_shared_begin();
        absolute(ad, m * k);
        absolute(bd, k * n);
        vkb_cpu_shared_end();
        gemm_slices(ta, tb, m, n, k, ad, lda, bd, ldb, s);
    }
    if (corrupt() && m > 0 && n > 0) c[0] += 1.0;
    rc = 0;
out:
    free(ad);
    free(bd);
    *secs += omp_get_wtime() - t0;
    return rc;
}

int vkb_fast_ternary_acc(const uint32_t *w, const int8_t *x, size_t n, size_t k, size_t kp, size_t m, int64_t *acc,
                          double *secs)
{
    double t0 = omp_get_wtime();
    int rc = 0;
    size_t step = slice_rows((double)k * (double)(m + 1), 0x1p31, 64);  /* ~2^31 multiply-adds a slice */
    for (size_t r0 = 0; r0 < n && !rc; r0 += step) {
        size_t r1 = n - r0 < step ? n : r0 + step;
        vkb_cpu_shared_begin();
#pragma omp parallel num_threads(vkb_cpu_threads()) reduction(| : rc)
        {
            int8_t *row = malloc(k + 1);  /* one weight row unpacked to −1/0/+1, then dotted with every token */
            if (!row) rc = -1;
#pragma omp for schedule(dynamic, 16)
            for (size_t r = r0; r < r1; r++) {
                if (!row) continue;
                for (size_t j = 0; j < k; j++) row[j] = (int8_t)((int)((w[(r * kp + j) / BITNET_WORD] >> BITNET_SHIFT(j)) & 3u) - 1);
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
        vkb_cpu_shared_end();
    }
    if (!rc && corrupt() && m > 0 && n > 0) acc[0] += 1;
    *secs += omp_get_wtime() - t0;
    return rc ? -1 : 0;
}
