/* blas.c — matmul and the dense fp16-weight GEMV/GEMM through OpenBLAS (GSL's CBLAS interface, linked
 * to libopenblas), fp32. fp16 operands are widened to fp32 once in prep(), untimed: OpenBLAS has no
 * fp16 GEMM on x86, and a CPU user keeps fp32 copies of the weights. Layouts as reference/matmul.c
 * (A MxK, B KxN, C MxN row-major) and reference/dense.c (W NxKp, x MxKp fp16, y MxN fp32). */
#include <stdlib.h>
#include <string.h>
#include <gsl/gsl_cblas.h>

#include "cpu.h"

typedef struct wide { float *a, *b; } wide;

/* fp32 copy of fp16 buffer b (NULL for an fp32 one), or of the n elements at logical (c->in0_logical) when not NULL. */
static float *widen(const vkb_buf *b, const void *logical, size_t n)
{
    if (b->type == VKB_F32) return NULL;
    const uint16_t *h = logical ? logical : b->host;
    if (!logical) n = b->count;
    float *w = malloc(n * sizeof(float));
    if (w)
#pragma omp parallel for simd schedule(static)
        for (size_t i = 0; i < n; i++) w[i] = vkb_cpu_h2f(h[i]);
    return w;
}

static void *wide_prep(vkb_case *c)
{
    wide *w = calloc(1, sizeof(*w));
    if (!w) return NULL;
    w->a = widen(&c->buf[0], c->in0_logical.host, c->in0_logical.count);
    w->b = widen(&c->buf[1], NULL, 0);
    if ((c->buf[0].type != VKB_F32 && !w->a) || (c->buf[1].type != VKB_F32 && !w->b)) {
        free(w->a), free(w->b), free(w);
        return NULL;
    }
    return w;
}

static void wide_done(void *st)
{
    wide *w = st;
    free(w->a), free(w->b), free(w);
}

static const char *matmul_run(vkb_case *c, void *st)
{
    wide *w = st;
    int n = (int)vkb_param_int(c, "n", 1), m = (int)vkb_param_int(c, "m", n), k = (int)vkb_param_int(c, "k", n);
    const float *a = w->a ? w->a : c->buf[0].host, *b = w->b ? w->b : c->buf[1].host;
    cblas_sgemm(CblasRowMajor, CblasNoTrans, CblasNoTrans, m, n, k, 1.0f, a, k, b, n, 0.0f, c->buf[2].host, n);
    return NULL;
}

VKB_BASELINE(matmul) = {"matmul", "openblas sgemm (fp16 inputs widened untimed)", matmul_run, wide_prep, wide_done, 1};

static const char *dense_run(vkb_case *c, void *st)
{
    wide *w = st;
    const char *sh = vkb_param_str(c, "shape", NULL);
    long long n = vkb_param_int(c, "n", -1), k = vkb_param_int(c, "k", -1), m = vkb_param_int(c, "m", 1);
    if (sh && sscanf(sh, "%lldx%lld", &n, &k) != 2) return "shape unreadable";
    int kp = (int)((k + 7) / 8 * 8);
    /* algo=coopmat_g pads W and x to 16 rows/tokens and K to 16, stream and coopmat_g lay=panel permute W: readable
     * only where the plan gave the row-major W at this row stride (c->in0_logical; then x's rows have it too) */
    if (!c->in0_logical.host && (c->buf[0].count != (size_t)n * (size_t)kp || c->buf[1].count != (size_t)m * (size_t)kp))
        return "padded operand layout (algo=coopmat_g pads rows, tokens and K to 16): the BLAS baseline reads the unpadded one, "
               "or the row-major W that lay=panel keeps where K is a multiple of 16";
    float *y = c->buf[2].host;
    if (m == 1) cblas_sgemv(CblasRowMajor, CblasNoTrans, (int)n, (int)k, 1.0f, w->a, kp, w->b, 1, 0.0f, y, 1);
    else cblas_sgemm(CblasRowMajor, CblasNoTrans, CblasTrans, (int)m, (int)n, (int)k, 1.0f, w->b, kp, w->a, kp, 0.0f, y, (int)n);
    return NULL;
}

VKB_BASELINE(dense_f16) = {"dense_f16", "openblas sgemv/sgemm (fp16 weights widened untimed)", dense_run, wide_prep,
                           wide_done, 1};
