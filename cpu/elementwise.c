/* elementwise.c — copy, add/sub/mul/div/scale_add (with row/scalar broadcast), relu/gelu/silu/sigmoid:
 * OpenMP across cores, loops the compiler vectorizes (fp32 arithmetic as the shaders: one rounding per
 * operation, no fma contraction, so the results are the same bits the check expects; fp16 storage is
 * converted in chunks with F16C where the CPU has it). Buffer order as reference/elementwise.c. */
#include <math.h>
#include <string.h>

#include "cpu.h"

static const char *copy_run(vkb_case *c, void *st)
{
    (void)st;
    const float *a = c->buf[0].host;
    float *b = c->buf[1].host;
    size_t n = c->buf[0].count;
#pragma omp parallel for simd schedule(static)
    for (size_t i = 0; i < n; i++) b[i] = a[i];
    return NULL;
}

VKB_BASELINE(copy) = {"copy", "openmp simd", copy_run, NULL, NULL, 0};

/* y = op(a, b) for one element; the op is a compile-time constant in each instantiation below. */
#define BIN_ADD(a, b, al) ((a) + (b))
#define BIN_SUB(a, b, al) ((a) - (b))
#define BIN_MUL(a, b, al) ((a) * (b))
#define BIN_DIV(a, b, al) ((a) / (b))
#define BIN_SCALE_ADD(a, b, al) ((al) * (a) + (b))

/* fp32: one loop per op; b is indexed i (none), j within a row of nb (row) or 0 (scalar). */
#define BINARY_F32(OP)                                                                                 \
    {                                                                                                  \
        const float *a = c->buf[0].host, *b = c->buf[1].host;                                          \
        float *y = c->buf[2].host;                                                                     \
        if (nb == n) {                                                                                 \
            _Pragma("omp parallel for simd schedule(static)") for (size_t i = 0; i < n; i++)           \
                y[i] = OP(a[i], b[i], al);                                                             \
        } else if (nb == 1) {                                                                          \
            const float b0 = b[0];                                                                     \
            _Pragma("omp parallel for simd schedule(static)") for (size_t i = 0; i < n; i++)           \
                y[i] = OP(a[i], b0, al);                                                               \
        } else {                                                                                       \
            size_t rows = (n + nb - 1) / nb;                                                           \
            _Pragma("omp parallel for schedule(static)") for (size_t r = 0; r < rows; r++) {           \
                size_t e = (r + 1) * nb < n ? nb : n - r * nb;                                         \
                const float *ar = a + r * nb;                                                          \
                float *yr = y + r * nb;                                                                \
                _Pragma("omp simd") for (size_t j = 0; j < e; j++) yr[j] = OP(ar[j], b[j], al);        \
            }                                                                                          \
        }                                                                                              \
    }
#define BINARY_F16(OP)                                                                                 \
    {                                                                                                  \
        const uint16_t *a = c->buf[0].host, *b = c->buf[1].host;                                       \
        uint16_t *y = c->buf[2].host;                                                                  \
        const float b0 = vkb_cpu_h2f(b[0]);                                                            \
        _Pragma("omp parallel for schedule(static)") for (size_t s = 0; s < n; s += VKB_F16_CHUNK) {   \
            float va[VKB_F16_CHUNK], vb[VKB_F16_CHUNK];                                                \
            size_t e = vkb_cpu_chunk(n, s);                                                            \
            vkb_cpu_h2f_n(a + s, va, e);                                                               \
            if (nb == n) vkb_cpu_h2f_n(b + s, vb, e);                                                  \
            else if (nb == 1) for (size_t j = 0; j < e; j++) vb[j] = b0;                               \
            else for (size_t j = 0; j < e;) { /* row broadcast: b from column (s + j) % nb on */       \
                size_t col = (s + j) % nb, len = nb - col < e - j ? nb - col : e - j;                  \
                vkb_cpu_h2f_n(b + col, vb + j, len);                                                   \
                j += len;                                                                              \
            }                                                                                          \
            _Pragma("omp simd") for (size_t j = 0; j < e; j++) va[j] = OP(va[j], vb[j], al);           \
            vkb_cpu_f2h_n(va, y + s, e);                                                               \
        }                                                                                              \
    }
#define BINARY_LOOPS(OP)                 \
    if (t == VKB_F32) BINARY_F32(OP)                                                                   \
    else BINARY_F16(OP)

static const char *binary_run(vkb_case *c, void *st)
{
    (void)st;
    size_t n = c->buf[0].count, nb = c->buf[1].count;
    vkb_dtype t = c->buf[0].type;
    const float al = c->ndisp ? c->disp[0].push.alpha : 1.0f;
    const char *k = c->k->name;
    if (!strcmp(k, "add")) { BINARY_LOOPS(BIN_ADD) }
    else if (!strcmp(k, "sub")) { BINARY_LOOPS(BIN_SUB) }
    else if (!strcmp(k, "mul")) { BINARY_LOOPS(BIN_MUL) }
    else if (!strcmp(k, "div")) { BINARY_LOOPS(BIN_DIV) }
    else if (!strcmp(k, "scale_add")) { BINARY_LOOPS(BIN_SCALE_ADD) }
    else return "unknown binary op";
    return NULL;
}

#define BINARY(name) {name, "openmp simd", binary_run, NULL, NULL, 0}
VKB_BASELINE(add) = BINARY("add");
VKB_BASELINE(sub) = BINARY("sub");
VKB_BASELINE(mul) = BINARY("mul");
VKB_BASELINE(div) = BINARY("div");
VKB_BASELINE(scale_add) = BINARY("scale_add");

/* Unary ops in fp32 with glibc's vector libm (libmvec expf, tanhf; see cpu.h): the formulas of the
 * reference, evaluated in float, 8 or 16 lanes at a time. */
#define U_RELU(x) ((x) < 0.0f ? 0.0f : (x))  /* NaN stays NaN, as the kernel's contract (torch.relu) */
#define U_GELU(x) (0.5f * (x) * (1.0f + tanhf(0.7978845608f * ((x) + 0.044715f * (x) * (x) * (x)))))
#define U_SILU(x) ((x) / (1.0f + expf(-(x))))
#define U_SIGMOID(x) (1.0f / (1.0f + expf(-(x))))

#define UNARY_LOOPS(OP)                                                                                \
    if (t == VKB_F32) {                                                                                \
        const float *x = c->buf[0].host;                                                               \
        float *y = c->buf[1].host;                                                                     \
        _Pragma("omp parallel for simd schedule(static)") for (size_t i = 0; i < n; i++) y[i] = OP(x[i]); \
    } else {                                                                                           \
        const uint16_t *x = c->buf[0].host;                                                            \
        uint16_t *y = c->buf[1].host;                                                                  \
        _Pragma("omp parallel for schedule(static)") for (size_t s = 0; s < n; s += VKB_F16_CHUNK) {   \
            float v[VKB_F16_CHUNK];                                                                    \
            size_t e = vkb_cpu_chunk(n, s);                                                            \
            vkb_cpu_h2f_n(x + s, v, e);                                                                \
            _Pragma("omp simd") for (size_t j = 0; j < e; j++) v[j] = OP(v[j]);                        \
            vkb_cpu_f2h_n(v, y + s, e);                                                                \
        }                                                                                              \
    }

static const char *unary_run(vkb_case *c, void *st)
{
    (void)st;
    size_t n = c->buf[0].count;
    vkb_dtype t = c->buf[0].type;
    const char *k = c->k->name;
    if (!strcmp(k, "relu")) { UNARY_LOOPS(U_RELU) }
    else if (!strcmp(k, "gelu")) { UNARY_LOOPS(U_GELU) }
    else if (!strcmp(k, "silu")) { UNARY_LOOPS(U_SILU) }
    else if (!strcmp(k, "sigmoid")) { UNARY_LOOPS(U_SIGMOID) }
    else return "unknown unary op";
    return NULL;
}

#define UNARY(name) {name, "openmp simd + libmvec", unary_run, NULL, NULL, 0}
VKB_BASELINE(relu) = UNARY("relu");
VKB_BASELINE(gelu) = UNARY("gelu");
VKB_BASELINE(silu) = UNARY("silu");
VKB_BASELINE(sigmoid) = UNARY("sigmoid");
