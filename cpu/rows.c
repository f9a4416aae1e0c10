/* rows.c — whole-vector sum/max and the row kernels (rowsum, rowmax, softmax, rmsnorm, transpose):
 * OpenMP over rows (or chunks of the vector), SIMD inside. Sums accumulate in double, as a careful CPU
 * implementation of an fp32 reduction would (numpy uses pairwise fp32; double is at least as accurate),
 * so the GPU's tolerance (derived for its own summation tree) is met with room. Buffer order as
 * reference/reduce.c (x, partial, out) and reference/rows.c (x, y, out, g). */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "cpu.h"


static const char *reduce_run(vkb_case *c, void *st)
{
    (void)st;
    const void *x = c->buf[0].host;
    size_t n = c->buf[0].count;
    vkb_dtype t = c->buf[0].type;
    float *out = c->buf[2].host;
    if (!strcmp(c->k->name, "max")) {
        float m = -INFINITY;
        if (t == VKB_F32) {
            const float *xf = x;
#pragma omp parallel for simd reduction(max : m) schedule(static)
            for (size_t i = 0; i < n; i++) m = xf[i] > m ? xf[i] : m;
        } else {
#pragma omp parallel for reduction(max : m) schedule(static)
            for (size_t b = 0; b < n; b += VKB_F16_CHUNK) {
                float v[VKB_F16_CHUNK];
                size_t e = vkb_cpu_chunk(n, b);
                vkb_cpu_h2f_n((const uint16_t *)x + b, v, e);
#pragma GCC diagnostic push
#pragma GCC diagnostic ignored "-Wmaybe-uninitialized"   /* v[0..e) was just written; GCC 12 cannot see it */
#pragma omp simd reduction(max : m)
                for (size_t j = 0; j < e; j++) m = v[j] > m ? v[j] : m;
#pragma GCC diagnostic pop
            }
        }
        out[0] = m;
        return NULL;
    }
    double s = 0;
    if (t == VKB_F32) {
        const float *xf = x;
#pragma omp parallel for simd reduction(+ : s) schedule(static)
        for (size_t i = 0; i < n; i++) s += xf[i];
    } else {
#pragma omp parallel for reduction(+ : s) schedule(static)
        for (size_t b = 0; b < n; b += VKB_F16_CHUNK) {
            float v[VKB_F16_CHUNK];
            size_t e = vkb_cpu_chunk(n, b);
            vkb_cpu_h2f_n((const uint16_t *)x + b, v, e);
#pragma omp simd reduction(+ : s)
            for (size_t j = 0; j < e; j++) s += v[j];
        }
    }
    out[0] = (float)s;
    return NULL;
}

VKB_BASELINE(sum) = {"sum", "openmp simd, double accumulation", reduce_run, NULL, NULL, 0};
VKB_BASELINE(max) = {"max", "openmp simd", reduce_run, NULL, NULL, 0};

static const char *rows_run(vkb_case *c, void *st)
{
    (void)st;
    const char *k = c->k->name;
    size_t rows = c->disp[0].push.n, cols = c->disp[0].push.m;
    const void *x = c->buf[0].host;
    void *y = c->buf[1].host;
    vkb_dtype t = c->buf[0].type;
    float eps = c->disp[0].push.eps;
    if (!strcmp(k, "transpose")) {
        size_t es = vkb_dtype_size(t), B = 32;
#pragma omp parallel for collapse(2) schedule(static)
        for (size_t i0 = 0; i0 < rows; i0 += B)
            for (size_t j0 = 0; j0 < cols; j0 += B)
                for (size_t i = i0; i < i0 + B && i < rows; i++)
                    for (size_t j = j0; j < j0 + B && j < cols; j++)
                        if (es == 4) ((uint32_t *)y)[j * rows + i] = ((const uint32_t *)x)[i * cols + j];
                        else ((uint16_t *)y)[j * rows + i] = ((const uint16_t *)x)[i * cols + j];
        return NULL;
    }
    int op = !strcmp(k, "rowsum") ? 0 : !strcmp(k, "rowmax") ? 1 : !strcmp(k, "softmax") ? 2 : 3;
    float *out = c->buf[2].host;
    const int f16 = t == VKB_F16;
    /* fp16 rows are converted to fp32 (F16C) into per-thread buffers, computed as fp32 rows, and the
     * outputs rounded once on the way back; the rmsnorm gain is converted once. */
    float *gf = NULL;
    if (op == 3 && f16) {
        if (!(gf = malloc(cols * sizeof(*gf)))) return "out of memory";
        vkb_cpu_h2f_n(c->buf[3].host, gf, cols);
    }
    const float *gr = op != 3 ? NULL : f16 ? gf : c->buf[3].host;
    int oom = 0;
#pragma omp parallel
    {
        float *xb = f16 ? malloc(2 * cols * sizeof(*xb)) : NULL;
        if (f16 && !xb) {
#pragma omp atomic write
            oom = 1;
        }
#pragma omp for schedule(static)
        for (size_t i = 0; i < rows; i++) {
            if (f16 && !xb) continue;
            const float *xr = f16 ? xb : (const float *)x + i * cols;
            float *yr = f16 ? xb + cols : op >= 2 ? (float *)y + i * cols : NULL;   /* y: softmax, rmsnorm only */
            if (f16) vkb_cpu_h2f_n((const uint16_t *)x + i * cols, xb, cols);
            double s = 0;
            float m = -INFINITY;
            if (op == 0 || op == 3) {
#pragma omp simd reduction(+ : s)
                for (size_t j = 0; j < cols; j++) {
                    double v = xr[j];
                    s += op == 3 ? v * v : v;
                }
            }
            if (op == 1 || op == 2) {
#pragma omp simd reduction(max : m)
                for (size_t j = 0; j < cols; j++) m = xr[j] > m ? xr[j] : m;   /* not fmaxf: 60x slower here */
            }
            if (op <= 1) {
                out[i] = op == 0 ? (float)s : m;
                continue;
            }
            if (op == 2) {   /* yr holds e^(x - m) until the sum is known */
#pragma omp simd reduction(+ : s)
                for (size_t j = 0; j < cols; j++) {
                    float e = expf(xr[j] - m);
                    s += e;
                    yr[j] = e;
                }
                double inv = 1.0 / s;
#pragma omp simd
                for (size_t j = 0; j < cols; j++) yr[j] = (float)(yr[j] * inv);
            } else {
                double r = 1.0 / sqrt(s / (double)cols + (double)eps);
#pragma omp simd
                for (size_t j = 0; j < cols; j++) yr[j] = (float)(xr[j] * gr[j] * r);
            }
            if (f16) vkb_cpu_f2h_n(yr, (uint16_t *)y + i * cols, cols);
        }
        free(xb);
    }
    free(gf);
    return oom ? "out of memory" : NULL;
}

#define ROWS(name, impl) {name, impl, rows_run, NULL, NULL, 0}
VKB_BASELINE(rowsum) = ROWS("rowsum", "openmp rows, simd, double accumulation");
VKB_BASELINE(rowmax) = ROWS("rowmax", "openmp rows, simd");
VKB_BASELINE(softmax) = ROWS("softmax", "openmp rows, simd, libmvec expf, double sum");
VKB_BASELINE(rmsnorm) = ROWS("rmsnorm", "openmp rows, simd, double sum of squares");
VKB_BASELINE(transpose) = ROWS("transpose", "openmp 32x32 blocks");
