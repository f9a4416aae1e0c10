/* bitnet.c — BitNet b1.58 on the CPU: absmean ternary weight quantization (packed T2 or int8), packed
 * dequantization, per-token int8 activation quantization (plain or with the fused RMSNorm) and BitLinear
 * (packed ternary W x int8 activations, int32 accumulation): OpenMP over rows, SIMD inside. The same fp32
 * operations as the shaders (kernels.md §1), so the bit-exact checks of reference/bitnet_*.c apply;
 * scales accumulate in double. Layout: kernels/bitnet_layout.glsl. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "bitnet_layout.glsl"
#include "cpu.h"

static int shape(vkb_case *c, const char *rk, const char *ck, size_t *rows, size_t *cols)
{
    const char *sh = vkb_param_str(c, "shape", NULL);
    long long a = vkb_param_int(c, rk, -1), b = vkb_param_int(c, ck, -1);
    if (sh && sscanf(sh, "%lldx%lld", &a, &b) != 2) return -1;
    *rows = (size_t)a, *cols = (size_t)b;
    return a > 0 && b > 0 ? 0 : -1;
}

static const char *wquant_run(vkb_case *c, void *st)
{
    (void)st;
    size_t n, k;
    if (shape(c, "n", "k", &n, &k)) return "shape unreadable";
    const char *v = vkb_param_str(c, "variant", "packed");
    int int8 = !strcmp(v, "int8"), given = !strcmp(v, "packed_given");
    size_t kp = BITNET_PAD(k), total = n * k;
    const float *w = c->buf[0].host;
    float *gp = c->buf[2].host;
    if (!given) {
        double s = 0;
#pragma omp parallel for simd reduction(+ : s) schedule(static)
        for (size_t i = 0; i < total; i++) s += fabsf(w[i]);
        gp[0] = (float)fmax(s / (double)total, BITNET_EPS);
    }
    const float h = 0.5f * gp[0];
    if (int8) {
        int8_t *q = c->buf[1].host;
#pragma omp parallel for schedule(static)
        for (size_t i = 0; i < n; i++) {
#pragma omp simd
            for (size_t j = 0; j < kp; j++) {
                float x = j < k ? w[i * k + j] : 0.0f;
                q[i * kp + j] = (int8_t)((x > h) - (x < -h));
            }
        }
        return NULL;
    }
    uint32_t *q = c->buf[1].host;
#pragma omp parallel for schedule(static)
    for (size_t i = 0; i < n; i++)
        for (size_t wd = 0; wd < kp / BITNET_WORD; wd++) {
            uint32_t word = 0;
            for (size_t t = 0; t < BITNET_WORD; t++) {
                size_t j = wd * BITNET_WORD + t;
                float x = j < k ? w[i * k + j] : 0.0f;
                word |= (uint32_t)(1 + (x > h) - (x < -h)) << BITNET_SHIFT(j);
            }
            q[i * kp / BITNET_WORD + wd] = word;
        }
    return NULL;
}

VKB_BASELINE(bitnet_wquant) = {"bitnet_wquant", "openmp simd, double absmean", wquant_run, NULL, NULL, 0};

static const char *dequant_run(vkb_case *c, void *st)
{
    (void)st;
    size_t n, k;
    if (shape(c, "n", "k", &n, &k)) return "shape unreadable";
    size_t kp = BITNET_PAD(k);
    const uint32_t *q = c->buf[0].host;
    const float g = ((const float *)c->buf[1].host)[0];
    int f16 = c->buf[2].type == VKB_F16;
#pragma omp parallel for schedule(static)
    for (size_t i = 0; i < n; i++)
#pragma omp simd
        for (size_t j = 0; j < k; j++) {
            float v = ((float)((q[(i * kp + j) / BITNET_WORD] >> BITNET_SHIFT(j)) & 3u) - 1.0f) * g;
            if (f16) ((uint16_t *)c->buf[2].host)[i * k + j] = vkb_cpu_f2h(v);
            else ((float *)c->buf[2].host)[i * k + j] = v;
        }
    return NULL;
}

VKB_BASELINE(bitnet_dequant) = {"bitnet_dequant", "openmp simd", dequant_run, NULL, NULL, 0};

static const char *aquant_run(vkb_case *c, void *st)
{
    (void)st;
    size_t m, k;
    if (shape(c, "m", "k", &m, &k)) return "shape unreadable";
    int norm = !strcmp(vkb_param_str(c, "variant", "plain"), "rmsnorm");
    size_t kp = BITNET_PAD(k);
    const float *x = c->buf[0].host, *g = c->buf[3].host, eps = c->disp[0].push.eps;
    int8_t *q = c->buf[1].host;
    float *s = c->buf[2].host, *rr = c->buf[4].host;
#pragma omp parallel for schedule(static)
    for (size_t i = 0; i < m; i++) {
        const float *xi = x + i * k;
        float r = 1.0f, amax = 0.0f;
        if (norm) {
            double ss = 0;
#pragma omp simd reduction(+ : ss)
            for (size_t j = 0; j < k; j++) ss += (double)xi[j] * xi[j];
            r = rr[i] = (float)(1.0 / sqrt(ss / (double)k + (double)eps));
        }
#pragma omp simd reduction(max : amax)
        for (size_t j = 0; j < k; j++) {   /* a compare, not fmaxf: ~3x faster here (GCC 12) */
            float v = fabsf(norm ? (xi[j] * r) * g[j] : xi[j]);
            amax = v > amax ? v : amax;
        }
        const float si = s[i] = 127.0f / fmaxf(amax, (float)BITNET_EPS);
#pragma omp simd
        for (size_t j = 0; j < kp; j++) {
            float v = j < k ? nearbyintf((norm ? (xi[j] * r) * g[j] : xi[j]) * si) : 0.0f;
            q[i * kp + j] = (int8_t)(v > 127 ? 127 : v < -128 ? -128 : v);
        }
    }
    return NULL;
}

VKB_BASELINE(bitnet_aquant) = {"bitnet_aquant", "openmp rows, simd", aquant_run, NULL, NULL, 0};

/* BitLinear: per weight row, unpack the 2-bit codes to int8 (w - 1 in {-1, 0, 1}) once, then an int8 x int8
 * dot product with int32 accumulation per token (vectorizes to vpmaddwd/vpdpbusd-style code). */
static const char *linear_run(vkb_case *c, void *st)
{
    (void)st;
    size_t n, k, m = (size_t)vkb_param_int(c, "m", 1);
    if (shape(c, "n", "k", &n, &k)) return "shape unreadable";
    size_t kp = BITNET_PAD(k);
    const uint32_t *w = c->in0_logical.host ? c->in0_logical.host : c->buf[0].host;  /* lay=panel: the row-major codes */
    const float g = ((const float *)c->buf[1].host)[0], *s = c->buf[3].host;
    const int8_t *x = c->buf[2].host;
    float *y = c->buf[4].host;
    int bad = 0;
#pragma omp parallel reduction(| : bad)
    {
        int8_t *wr = aligned_alloc(64, (kp + 63) / 64 * 64);   /* read as uint32 words */
        bad = !wr;
#pragma omp for schedule(static)
        for (size_t i = 0; i < n; i++) {
            if (!wr) continue;
            /* Weight 16 wd + 4 t + b sits at bit 8 b + 2 t of word wd: (word >> 2 t) & 0x03030303 is the four
             * codes 16 wd + 4 t .. + 3 as bytes, in memory order (little-endian), so a row unpacks with
             * one shift and one mask per 4 weights instead of a shift per weight. */
            const uint32_t *wrow = w + i * kp / BITNET_WORD;
            uint32_t *w32 = (uint32_t *)(void *)wr;
#pragma omp simd
            for (size_t wd = 0; wd < kp / BITNET_WORD; wd++)
                for (unsigned t = 0; t < 4; t++) w32[4 * wd + t] = (wrow[wd] >> (2 * t)) & 0x03030303u;
#pragma omp simd
            for (size_t j = 0; j < kp; j++) wr[j] = (int8_t)(wr[j] - 1);
            for (size_t t = 0; t < m; t++) {
                const int8_t *xt = x + t * kp;
                int32_t acc = 0;
#pragma omp simd reduction(+ : acc)
                for (size_t j = 0; j < kp; j++) acc += (int32_t)wr[j] * (int32_t)xt[j];
                y[t * n + i] = ((float)acc * g) / s[t];
            }
        }
        free(wr);
    }
    return bad ? "out of memory for the unpacked row" : NULL;
}

VKB_BASELINE(bitnet_linear) = {"bitnet_linear", "openmp rows, int8 simd dot, int32 accumulation", linear_run, NULL, NULL, 0};
