/* peak.c — peak-calibration probes: fp32 FMA rate (peak_fma) and fp16 matrix-unit rate (peak_coopmat).
 * flops count exactly what the shaders execute (2 per fma, 2·16³ per 16×16×16 matrix operation), so the
 * GFLOP/s column of their rows is the measured peak that matmul rows are compared with. Bytes are the
 * (negligible) inputs and stored results. Run them in the same session as the matmul lines.
 *
 * peak_fma (kernels/peak_fma.comp): axes n (invocations), iters (64 fma per invocation each). Inputs
 * are small integers and ±1 (see the shader), every value stays an integer below 2²⁴, so the result is
 * exact whatever the fma fusion and is compared bit for bit, on the first min(n, 256) invocations
 * (which store their chains), against the same recurrence on the CPU. The sign sequence has a long
 * period, so a skipped or merged step changes the result.
 * peak_coopmat (kernels/peak_coopmat.comp): axes n (subgroups), iters (16 operations per subgroup each);
 * small-integer inputs make the result exact: compared bit for bit on the first min(n, 64) subgroups.
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "check.h"
#include "vkb.h"

#define FMA_SETS 4096u  /* distinct starting values (invocation i uses set i % FMA_SETS) */
#define FMA_STORE 256u  /* invocations that store and are checked */
#define CM_CH 8u        /* chains per subgroup, as the shader */
#define CM_STORE 64u    /* subgroups that store and are checked */

static int plan_sizes(vkb_case *c, int64_t *n, int64_t *iters, int64_t dn, int64_t di, int64_t max_iters)
{
    *n = vkb_param_int(c, "n", dn);
    *iters = vkb_param_int(c, "iters", di);
    if (*n <= 0 || *n > 0x7fffffff) vkb_error(c, "n=%lld: expected 1..2^31-1", (long long)*n);
    else if (*iters <= 0 || *iters > max_iters)
        vkb_error(c, "iters=%lld: expected 1..%lld", (long long)*iters, (long long)max_iters);
    return c->error[0] != 0;
}

/* ---------------- peak_fma ---------------- */

static int fma_plan(vkb_case *c)
{
    int64_t n, iters;
    /* |c| <= 2 + 16*iters must stay below 2^24 for exact arithmetic. */
    if (plan_sizes(c, &n, &iters, 1 << 22, 1024, 1 << 19)) return 0;
    uint32_t nx = n < FMA_SETS ? (uint32_t)n : FMA_SETS, ns = n < FMA_STORE ? (uint32_t)n : FMA_STORE;
    vkb_add_buf(c, "x", VKB_F32, 8u * nx, VKB_IN);
    vkb_add_buf(c, "k", VKB_F32, 8, VKB_IN);
    vkb_add_buf(c, "y", VKB_F32, 8u * ns, VKB_OUT);
    uint32_t spec[1] = {256}, g[3];
    vkb_grid_1d(c, (uint64_t)n, 256, g);
    vkb_dispatch *d = vkb_add_dispatch(c, vkb_add_pipe(c, "peak_fma", 1, spec), g[0], g[1], 1);
    if (d) d->push.n = (uint32_t)n, d->push.m = (uint32_t)iters, d->push.p0 = nx, d->push.p1 = ns;
    c->flops = 2.0 * 64.0 * (double)iters * (double)n;
    c->bytes = 4.0 * (8.0 * nx + 8 + 8.0 * ns);
    snprintf(c->variant, sizeof(c->variant), "fp32_fma");
    return 0;
}

static void fma_fill(vkb_case *c, gsl_rng *r)
{
    float *x = c->buf[0].host, *k = c->buf[1].host;
    for (size_t i = 0; i < c->buf[0].count; i++)  /* s_0..s_3 = ±1, c_0..c_3 in {-2..2} */
        x[i] = i % 8 < 4 ? (gsl_rng_uniform_int(r, 2) ? 1.0f : -1.0f) : (float)((int)gsl_rng_uniform_int(r, 5) - 2);
    for (size_t i = 0; i < 8; i++) k[i] = i < 4 ? 0.0f : (float)(1 + (int)gsl_rng_uniform_int(r, 2));
}

static double fma_ref(vkb_case *c)
{
    size_t ns = c->buf[2].count / 8, nx = c->buf[0].count / 8;
    const float *x0 = c->buf[0].host, *k = c->buf[1].host;
    float *want = malloc(8 * ns * sizeof(float));
    c->priv = want;
    if (!want) return 1.0;
    uint32_t iters = c->disp[0].push.m;
    for (size_t i = 0; i < ns; i++) {
        double s[4], v[4];  /* exact integers: double evaluates the recurrence exactly */
        for (int j = 0; j < 4; j++) s[j] = x0[8 * (i % nx) + (size_t)j], v[j] = x0[8 * (i % nx) + 4 + (size_t)j];
        for (uint32_t it = 0; it < iters; it++)
            for (int rd = 0; rd < 8; rd++) {  /* as the shader's ROUND, in the same order */
                for (int j = 0; j < 4; j++) s[j] = s[j] * s[(j + 1) % 4] + k[j];
                for (int j = 0; j < 4; j++) v[j] = v[j] * s[j] + k[4 + (j + rd) % 4];
            }
        for (int j = 0; j < 4; j++) want[8 * i + (size_t)j] = (float)s[j], want[8 * i + 4 + (size_t)j] = (float)v[j];
    }
    return (double)ns / (double)c->disp[0].push.n;
}

/* Both probes: bit-exact comparison of the stored results with the CPU's; per = floats per checked item. */
static void exact_check(vkb_case *c, vkb_check *r, size_t per, const char *what)
{
    vkb_check_begin(r, "exact", 0);
    if (!c->priv) {
        r->metric = NAN;
        snprintf(r->detail, sizeof(r->detail), "reference ran out of memory");
        vkb_check_end(r);
        return;
    }
    vkb_cmp_ulp(r, VKB_F32, c->buf[2].host, c->priv, c->buf[2].count, 0);
    snprintf(c->note, sizeof(c->note), "integer values, exact; first %zu %s checked", c->buf[2].count / per, what);
}

static void fma_check(vkb_case *c, vkb_check *r) { exact_check(c, r, 8, "invocations"); }

VKB_KERNEL(peak_fma) = {"peak_fma", "n,iters",
                        "fp32 FMA peak: 8 coupled, non-foldable, exact chains per invocation, 64*iters fma each", fma_plan,
                        fma_fill, fma_ref, fma_check, NULL, "fp32_fma"};

/* ---------------- peak_coopmat ---------------- */

static int cm_plan(vkb_case *c)
{
    int64_t n, iters;
    /* |acc| <= 2 + 32*iters must stay below 2^24 for the exact check. */
    if (plan_sizes(c, &n, &iters, 1 << 16, 512, 1 << 18)) return 0;
    snprintf(c->variant, sizeof(c->variant), "fp16_fp32acc");
    snprintf(c->dtype, sizeof(c->dtype), "f16");
    if (!(c->caps.f16 && c->caps.storage16) || !c->caps.coopmat_nv)
        return vkb_skip(c, "device lacks VK_NV_cooperative_matrix (fp16 matrix units)");
    uint32_t sg = c->caps.subgroup ? c->caps.subgroup : 32, ns = n < CM_STORE ? (uint32_t)n : CM_STORE, g[3];
    vkb_add_buf(c, "ab", VKB_F16, 256 * (CM_CH + 2), VKB_IN);
    vkb_add_buf(c, "c0", VKB_F32, 256 * CM_CH, VKB_IN);
    vkb_add_buf(c, "y", VKB_F32, 256 * CM_CH * ns, VKB_OUT);
    uint32_t spec[1] = {4 * sg};
    vkb_grid_1d(c, (uint64_t)n, 4, g);
    vkb_dispatch *d = vkb_add_dispatch(c, vkb_add_pipe(c, "peak_coopmat", 1, spec), g[0], g[1], 1);
    if (d) d->push.n = (uint32_t)n, d->push.m = (uint32_t)iters, d->push.p1 = ns;
    c->flops = 2.0 * 4096.0 * 2.0 * CM_CH * (double)iters * (double)n;
    c->bytes = 2.0 * 256 * (CM_CH + 2) + 4.0 * 256 * CM_CH * (1.0 + ns);
    return 0;
}

static void cm_fill(vkb_case *c, gsl_rng *r)
{
    uint16_t *ab = c->buf[0].host;
    float *c0 = c->buf[1].host;
    for (size_t i = 0; i < c->buf[0].count; i++) ab[i] = vkb_f32_to_f16((float)((int)gsl_rng_uniform_int(r, 3) - 1));
    for (size_t i = 0; i < c->buf[1].count; i++) c0[i] = (float)((int)gsl_rng_uniform_int(r, 5) - 2);
}

static double cm_ref(vkb_case *c)
{
    const uint16_t *ab = c->buf[0].host;
    const float *c0 = c->buf[1].host;
    size_t ns = c->buf[2].count / (256 * CM_CH);
    float *want = malloc(c->buf[2].count * sizeof(float));
    c->priv = want;
    if (!want) return 1.0;
    double iters = c->disp[0].push.m;
    for (size_t j = 0; j < CM_CH; j++)
        for (size_t row = 0; row < 16; row++)
            for (size_t col = 0; col < 16; col++) {
                double s = 0;  /* (A_j (B_0 + B_1))[row][col], an integer */
                for (size_t k = 0; k < 16; k++)
                    s += (double)vkb_f16_to_f32(ab[256 * j + 16 * row + k]) *
                         ((double)vkb_f16_to_f32(ab[256 * CM_CH + 16 * k + col]) +
                          (double)vkb_f16_to_f32(ab[256 * (CM_CH + 1) + 16 * k + col]));
                for (size_t g = 0; g < ns; g++)
                    want[256 * (CM_CH * g + j) + 16 * row + col] = (float)(c0[256 * j + 16 * row + col] + iters * s);
            }
    return (double)ns / (double)c->disp[0].push.n;
}

static void cm_check(vkb_case *c, vkb_check *r) { exact_check(c, r, 256 * CM_CH, "subgroups"); }

VKB_KERNEL(peak_coopmat) = {"peak_coopmat", "n,iters",
                            "fp16 matrix-unit peak (NV coopmat 16x16x16, fp32 acc): 8 chains x 2 ops per iter",
                            cm_plan, cm_fill, cm_ref, cm_check, NULL, "fp16_fp32acc"};
