/* lapack.c — Cholesky, QR (Q formed) and SVD through OpenBLAS's LAPACK in fp32 (spotrf; sgelqf + sorglq;
 * sgesdd), all cores. The GPU's matrices are row-major, LAPACK's column-major: a row-major matrix is its
 * transpose in column-major, so
 *   cholesky: spotrf('U') on the row-major A gives U = L^T column-major, i.e. L row-major;
 *   qr: A^T = L' Q' (LQ of the column-major view) is A = Q'^T L'^T: sorglq leaves Q'^T row-major in place
 *       and R = L'^T is the upper triangle of the first n rows of the row-major buffer;
 *   svd: A^T = U' S V'^T gives A = V' S U'^T: U = V' (ldvt = n: already row-major), V = U' (transposed).
 * Layouts as reference/decomp_{chol,qr,svd}.c; the outputs pass the same LAPACK-style residual checks. */
#include <stdlib.h>
#include <string.h>

#include "cpu.h"

void spotrf_(const char *uplo, const int *n, float *a, const int *lda, int *info);
void sgelqf_(const int *m, const int *n, float *a, const int *lda, float *tau, float *work, const int *lwork, int *info);
void sorglq_(const int *m, const int *n, const int *k, float *a, const int *lda, const float *tau, float *work,
             const int *lwork, int *info);
void sgesdd_(const char *jobz, const int *m, const int *n, float *a, const int *lda, float *s, float *u, const int *ldu,
             float *vt, const int *ldvt, float *work, const int *lwork, int *iwork, int *info);

static const char *chol_run(vkb_case *c, void *st)
{
    (void)st;
    int n = (int)vkb_param_int(c, "n", 1), info = 0;
    float *l = c->buf[1].host;
    memcpy(l, c->buf[0].host, (size_t)n * (size_t)n * sizeof(float));
    spotrf_("U", &n, l, &n, &info);
    uint32_t *inf = c->buf[2].host;
    inf[0] = (uint32_t)(info > 0 ? info : 0), inf[1] = inf[2] = inf[3] = 0;
    return info < 0 ? "spotrf rejected an argument" : NULL;
}

VKB_BASELINE(cholesky) = {"cholesky", "openblas lapack spotrf", chol_run, NULL, NULL, 1};

/* Workspace for sgelqf/sorglq/sgesdd, sized by a workspace query in prep(). */
typedef struct ws { float *work, *tau, *a, *u; int *iwork; int lwork; } ws;

static void ws_done(void *st)
{
    ws *w = st;
    free(w->work), free(w->tau), free(w->a), free(w->u), free(w->iwork), free(w);
}

static void *qr_prep(vkb_case *c)
{
    int n = (int)vkb_param_int(c, "n", 1), m = (int)vkb_param_int(c, "m", n), info, q = -1;
    float wq1 = 0, wq2 = 0;
    ws *w = calloc(1, sizeof(*w));
    if (!w) return NULL;
    sgelqf_(&n, &m, NULL, &n, NULL, &wq1, &q, &info);
    sorglq_(&n, &m, &n, NULL, &n, NULL, &wq2, &q, &info);
    w->lwork = (int)(wq1 > wq2 ? wq1 : wq2) + 1;
    w->work = malloc((size_t)w->lwork * sizeof(float));
    w->tau = malloc((size_t)n * sizeof(float));
    if (!w->work || !w->tau) return ws_done(w), NULL;
    return w;
}

static const char *qr_run(vkb_case *c, void *st)
{
    ws *w = st;
    int n = (int)vkb_param_int(c, "n", 1), m = (int)vkb_param_int(c, "m", n), info = 0;
    size_t un = (size_t)n;
    float *q = c->buf[2].host, *r = c->buf[1].host;
    memcpy(q, c->buf[0].host, (size_t)m * un * sizeof(float));
    sgelqf_(&n, &m, q, &n, w->tau, w->work, &w->lwork, &info);
    memset(r, 0, (size_t)m * un * sizeof(float));
    for (size_t i = 0; i < un; i++) memcpy(r + i * un + i, q + i * un + i, (un - i) * sizeof(float));
    sorglq_(&n, &m, &n, q, &n, w->tau, w->work, &w->lwork, &info);
    return info < 0 ? "sgelqf/sorglq rejected an argument" : NULL;
}

VKB_BASELINE(qr) = {"qr", "openblas lapack sgelqf + sorglq", qr_run, qr_prep, ws_done, 1};

static void *svd_prep(vkb_case *c)
{
    int n = (int)vkb_param_int(c, "n", 1), m = (int)vkb_param_int(c, "m", n), info, q = -1;
    float wq = 0;
    ws *w = calloc(1, sizeof(*w));
    if (!w) return NULL;
    sgesdd_("S", &n, &m, NULL, &n, NULL, NULL, &n, NULL, &n, &wq, &q, NULL, &info);
    w->lwork = (int)wq + 1;
    w->work = malloc((size_t)w->lwork * sizeof(float));
    w->iwork = malloc(8 * (size_t)n * sizeof(int));
    w->a = malloc((size_t)m * (size_t)n * sizeof(float));
    w->u = malloc((size_t)n * (size_t)n * sizeof(float));
    if (!w->work || !w->iwork || !w->a || !w->u) return ws_done(w), NULL;
    return w;
}

static const char *svd_run(vkb_case *c, void *st)
{
    ws *w = st;
    int n = (int)vkb_param_int(c, "n", 1), m = (int)vkb_param_int(c, "m", n), info = 0;
    size_t un = (size_t)n;
    float *v = c->buf[3].host;
    memcpy(w->a, c->buf[0].host, (size_t)m * un * sizeof(float));
    sgesdd_("S", &n, &m, w->a, &n, c->buf[2].host, w->u, &n, c->buf[1].host, &n, w->work, &w->lwork, w->iwork, &info);
    for (size_t i = 0; i < un; i++)  /* V = U' : row-major V[i][j] = U'(i, j) = u[i + j n] */
        for (size_t j = 0; j < un; j++) v[i * un + j] = w->u[i + j * un];
    uint32_t *inf = c->buf[5].host;  /* as the GPU's: [0] sweeps (none here), [1] converged */
    inf[0] = 0, inf[1] = info == 0, inf[2] = inf[3] = 0;
    return info < 0 ? "sgesdd rejected an argument" : NULL;
}

VKB_BASELINE(svd) = {"svd", "openblas lapack sgesdd", svd_run, svd_prep, ws_done, 1};
