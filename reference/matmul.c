/* matmul.c — C = A·B across sizes: naive, fp32 tiled (shared-memory tiles, register blocking, vec4
 * loads), fp16 storage on the same portable path, fp16 on matrix units (NV cooperative matrix).
 *
 * Layouts (all variants): A row-major M×K, B row-major K×N as given (no pre-transposed copy), C row-major
 * M×N in fp32. dtype=f16 stores A and B in fp16 (fp32 arithmetic / fp32 accumulation), C stays fp32.
 * Cost: flops = 2·M·N·K; bytes = size(A) + size(B) + size(C), each moved once.
 * Axes: m, n, k (m and k default to n: `n=512` alone is square), dtype=f32|f16, inputs=rand|int,
 * check=auto|full|freivalds, variant (table below; tile configurations are separate variants).
 *
 * Tolerance (kernels.md §3.3/§3.4). Reference: double accumulation from the same stored (already
 * rounded) inputs. An fp32 inner product of length K, in any order, with or without fma, satisfies
 * |fl(Σ a_k b_k) − Σ a_k b_k| ≤ γ_K·Σ|a_k||b_k|, γ_K = K·u/(1 − K·u), u = 2⁻²⁴ (Higham §3.1).
 * fp16 inputs: a product of two fp16 values (11-bit significands) is exact in fp32, so only the fp32
 * accumulation rounds and the same bound holds with u = u₃₂. Matrix units accumulate with truncation
 * (round toward zero: error up to 2u per add, Fasi et al. 2021), so the bound is taken with c = 2:
 *     |C − C_ref|_ij ≤ 2·K·u₃₂·(|A|·|B|)_ij        (c = 2 covers RZ accumulation and γ_K's denominator)
 * Caveat: units that align a block of n_b products to the largest exponent and truncate can, for
 * adversarial inputs, reach 2(1 + 1/n_b)·K·u; random inputs stay far below (truncation errors of
 * partial sums of size ~√K against a bound of size ~K), so c = 2 is kept as kernels.md §3.4 says.
 * C is stored in fp32 as accumulated: no output rounding term.
 * inputs=int: entries in {−2..2} (exact in fp16 and fp32); every product and partial sum is an integer of
 * magnitude ≤ 4K < 2²⁴, hence exact in fp32 whatever the order or the rounding mode: compared bit-exactly.
 * fp16 random inputs avoid the fp16 subnormal range (|x| ≥ 2⁻¹³), whose handling Vulkan leaves open.
 *
 * Checks. check=full (auto when M·N·K ≤ 2³⁰): every element against the double reference with the bound.
 * check=freivalds (auto above): NV Rademacher vectors r ∈ {−1, +1}ᴺ; accept when for every vector and row
 *     |(C·r)_i − (A·(B·r))_i| ≤ 2·K·u₃₂·(|A|·(|B|·|r|))_i + double-rounding slack,
 * all in double. |r| = 1, so the right side is one vector for all r. If some C_ij is off by more than
 * row i's allowance, flipping r_j moves (C·r)_i by twice that error, so at most one of r and its flip
 * passes: P(miss) ≤ 1/2 per vector, ≤ 2^−NV overall. Errors spread thinly along a row (each below the
 * row allowance) are what this cannot see; a sample of whole rows and columns (first, last and random)
 * is therefore compared element by element with the full bound as well.
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "check.h"
#include "vkb.h"

enum { K_NAIVE, K_TILED, K_COOP, K_EMU };  /* K_EMU: the coopmat tiling, matrix ops emulated */
enum { CK_FULL, CK_FREIVALDS };
#define FULL_MAX (1ull << 30)   /* M·N·K up to which the full reference runs (a few seconds, scalar) */
#define NV 20                   /* Freivalds vectors: false accept ≤ 2^-20 */
#define C_BOUND 2.0             /* c in c·K·u */
#define U32 0x1p-24
#define UD 0x1p-53

typedef struct mm_variant {
    const char *name, *shader;  /* shader base name; dtype=f16 appends _f16 (except coopmat: f16 only) */
    int kind;
    uint32_t bm, bn, bk, tm, tn; /* tiled: block tile and register tile; coop: tm × tn subgroups */
    int fixed;                   /* coop: stub SHADER_wIxJ with I × J accumulators per subgroup compiled in,
                                  * and when the sizes are multiples of the tile spec FULL = fixed: 1 shared
                                  * staging without bounds code, 2 fragments straight from global memory */
} mm_variant;

static const mm_variant variants[] = {
    {"naive", "matmul_naive", K_NAIVE, 16, 16, 1, 1, 1, 0},
    {"tiled", "matmul_tiled", K_TILED, 128, 128, 8, 8, 8, 0},
    {"tiled_bk16", "matmul_tiled", K_TILED, 128, 128, 16, 8, 8, 0},
    {"tiled_128x64", "matmul_tiled", K_TILED, 128, 64, 16, 8, 4, 0},
    {"tiled_64", "matmul_tiled", K_TILED, 64, 64, 16, 4, 4, 0},
    {"coopmat", "matmul_coopmat", K_COOP, 128, 128, 32, 2, 4, 0},
    {"coopmat_64", "matmul_coopmat", K_COOP, 64, 64, 32, 2, 2, 0},
    {"coopmat_128x64", "matmul_coopmat", K_COOP, 128, 64, 32, 4, 2, 0},
    {"coopmat_w64", "matmul_coopmat", K_COOP, 128, 128, 32, 2, 2, 0},  /* 64x64 per subgroup: fewer shared reads */
    /* Compile-time accumulator grids (the peak probe's form) and no bounds code on whole tiles. */
    {"coopmat_f", "matmul_coopmat", K_COOP, 128, 128, 32, 2, 4, 1},      /* coopmat's tiling */
    {"coopmat_f64", "matmul_coopmat", K_COOP, 128, 128, 32, 2, 2, 1},    /* 64x64 per subgroup, 4 subgroups */
    {"coopmat_f256", "matmul_coopmat", K_COOP, 128, 256, 16, 2, 4, 1},   /* 64x64 per subgroup, 8 subgroups */
    {"coopmat_g", "matmul_coopmat", K_COOP, 128, 128, 32, 2, 4, 2},      /* coopmat_f, no shared staging */
    {"coopmat_g64", "matmul_coopmat", K_COOP, 128, 128, 32, 2, 2, 2},    /* coopmat_f64, no shared staging */
    {"coopmat_emu", "matmul_coopmat_emu", K_EMU, 64, 64, 32, 2, 2, 0},  /* validation only, any device */
    {"coopmat_f_emu", "matmul_coopmat_emu", K_EMU, 128, 128, 16, 2, 4, 1},  /* BK 16: lavapipe has 32 KiB */
    {"coopmat_f64_emu", "matmul_coopmat_emu", K_EMU, 128, 128, 16, 2, 2, 1},
    {"coopmat_f256_emu", "matmul_coopmat_emu", K_EMU, 128, 256, 16, 2, 4, 1},
    {"coopmat_g_emu", "matmul_coopmat_emu", K_EMU, 128, 128, 16, 2, 4, 2},
    {"coopmat_g64_emu", "matmul_coopmat_emu", K_EMU, 128, 128, 16, 2, 2, 2},
};

typedef struct priv {
    size_t m, n, k;
    int intin, method;
    float *a, *b;               /* inputs as float (fp16 widened exactly); point at host for fp32 */
    int own_ab;
    double *want, *bound;       /* full check: M×N */
    double *r;                  /* freivalds: N×NV, ±1 */
    double *abr, *rowb;         /* A·(B·r): M×NV; |A|·(|B|·1): M */
    size_t nrow, ncol, *rows, *cols;
    double *rw, *rb, *cw, *cb;  /* sampled rows (nrow×N) and columns (M×ncol): want and bound */
} priv;

static const mm_variant *find_variant(const char *name)
{
    for (size_t i = 0; i < sizeof(variants) / sizeof(variants[0]); i++)
        if (!strcmp(variants[i].name, name)) return &variants[i];
    return NULL;
}

static int mm_plan(vkb_case *c)
{
    vkb_dtype t;
    if (vkb_case_dtype(c, &t)) return 0;
    if (t != VKB_F32 && t != VKB_F16) return vkb_error(c, "dtype %s: expected f32 or f16", c->dtype) < 0;
    if (!c->variant[0]) snprintf(c->variant, sizeof(c->variant), "tiled");
    const mm_variant *v = find_variant(c->variant);
    if (!v) return vkb_error(c, "variant=%s: expected naive, tiled, tiled_bk16, tiled_128x64, tiled_64, coopmat, "
                                "coopmat_64, coopmat_128x64, coopmat_w64, coopmat_f, coopmat_f64, coopmat_f256, "
                                "coopmat_g, coopmat_g64 or coopmat_emu, coopmat_f_emu, coopmat_f64_emu, coopmat_f256_emu, "
                                "coopmat_g_emu, coopmat_g64_emu", c->variant) < 0;
    int64_t n = vkb_param_int(c, "n", -1), m = vkb_param_int(c, "m", n), k = vkb_param_int(c, "k", n);
    if (n <= 0 || m <= 0 || k <= 0)
        return vkb_error(c, "m=%lld n=%lld k=%lld: expected positive sizes", (long long)m, (long long)n,
                         (long long)k) < 0;
    if ((double)m * (double)k >= 4294967296.0 || (double)k * (double)n >= 4294967296.0 ||
        (double)m * (double)n >= 4294967296.0)
        return vkb_error(c, "m=%lld n=%lld k=%lld: each matrix must have < 2^32 elements (32-bit indexing)",
                         (long long)m, (long long)n, (long long)k) < 0;
    const char *in = vkb_param_str(c, "inputs", "rand"), *ck = vkb_param_str(c, "check", "auto");
    if (strcmp(in, "rand") && strcmp(in, "int")) return vkb_error(c, "inputs=%s: expected rand or int", in) < 0;
    if (strcmp(ck, "auto") && strcmp(ck, "full") && strcmp(ck, "freivalds"))
        return vkb_error(c, "check=%s: expected auto, full or freivalds", ck) < 0;
    int intin = !strcmp(in, "int");
    if (intin && k > (1 << 22)) return vkb_error(c, "inputs=int needs k <= 2^22 (sums of 4k < 2^24 stay exact)") < 0;
    if (v->kind >= K_COOP && t != VKB_F16) return vkb_error(c, "variant=%s takes dtype=f16 only", v->name) < 0;
    if (t == VKB_F16 && !(c->caps.f16 && c->caps.storage16))
        return vkb_skip(c, "device lacks shaderFloat16 + storageBuffer16BitAccess");
    if (v->kind == K_COOP && !c->caps.coopmat_nv)
        return vkb_skip(c, "device lacks VK_NV_cooperative_matrix (fp16 matrix units)");

    uint32_t spec[8], nspec = 1, wg;
    double shared = 0;
    int vec;
    if (v->kind == K_NAIVE) {
        wg = 256;
    } else if (v->kind == K_TILED) {
        vec = k % 4 == 0 && n % 4 == 0;
        wg = (v->bm / v->tm) * (v->bn / v->tn);
        shared = 4.0 * 2 * v->bk * (v->bm + 4 + v->bn);
        /* The shader fetches whole vec4 per invocation: each tile must split evenly over the workgroup. */
        if ((v->bm * v->bk / 4) % wg || (v->bk * v->bn / 4) % wg || v->tm % 4 || v->tn % 4)
            return vkb_error(c, "variant %s: tiles do not split over %u invocations", v->name, wg) < 0;
        spec[1] = v->bm, spec[2] = v->bn, spec[3] = v->bk, spec[4] = v->tm, spec[5] = v->tn, spec[6] = (uint32_t)vec;
        nspec = 7;
    } else {
        uint32_t sg = c->caps.subgroup ? c->caps.subgroup : 32;
        vec = k % 8 == 0 && n % 8 == 0;
        wg = sg * v->tm * v->tn;
        uint32_t buf = v->bm * (v->bk / 8 + 1) + v->bk * (v->bn / 8 + 1);  /* uvec4 per stage, as the shader */
        shared = 16.0 * 2 * buf;
        /* Whole uvec4 fetches per invocation, 16x16 fragments per subgroup, edge staging (64 uvec4 per
         * subgroup) inside the two stages. */
        if ((v->bm * v->bk / 8) % wg || (v->bk * v->bn / 8) % wg || v->bk % 16 || v->bm % (16 * v->tm) ||
            v->bn % (16 * v->tn) || 64 * v->tm * v->tn > 2 * buf)
            return vkb_skip(c, "variant %s: tiles do not split over %u invocations (this device's subgroup size %u)",
                            v->name, wg, sg) < 0;
        spec[1] = v->bm, spec[2] = v->bn, spec[3] = v->bk, spec[4] = v->tm, spec[5] = v->tn, spec[6] = (uint32_t)vec;
        spec[7] = vec && m % v->bm == 0 && n % v->bn == 0 && k % v->bk == 0 ? (uint32_t)v->fixed : 0;
        nspec = 8;
    }
    if (shared > c->caps.max_shared)
        return vkb_skip(c, "variant %s needs %.0f B shared memory > maxComputeSharedMemorySize %u", v->name, shared,
                        c->caps.max_shared);
    if (wg > c->caps.max_wg_size)
        return vkb_skip(c, "variant %s needs workgroup %u > max %u", v->name, wg, c->caps.max_wg_size);
    spec[0] = wg;
    char shader[48];
    snprintf(shader, sizeof(shader), "%s%s", v->shader, t == VKB_F16 && v->kind < K_COOP ? "_f16" : "");
    if (v->fixed)  /* the stub compiled with this I x J accumulator grid (kernels/matmul_coopmat*_wIxJ.comp) */
        snprintf(shader, sizeof(shader), "%s_w%ux%u", v->shader, v->bm / (16 * v->tm), v->bn / (16 * v->tn));
    vkb_add_buf(c, "a", t, (size_t)(m * k), VKB_IN);
    vkb_add_buf(c, "b", t, (size_t)(k * n), VKB_IN);
    vkb_add_buf(c, "c", VKB_F32, (size_t)(m * n), VKB_OUT);
    int p = vkb_add_pipe(c, shader, (int)nspec, spec);
    vkb_dispatch *d = vkb_add_dispatch(c, p, (uint32_t)((n + v->bn - 1) / v->bn), (uint32_t)((m + v->bm - 1) / v->bm), 1);
    if (d) d->push.m = (uint32_t)m, d->push.n = (uint32_t)n, d->push.k = (uint32_t)k;
    double es = (double)vkb_dtype_size(t);
    c->flops = 2.0 * (double)m * (double)n * (double)k;
    c->bytes = es * ((double)m * (double)k + (double)k * (double)n) + 4.0 * (double)m * (double)n;
    priv *pv = calloc(1, sizeof(priv));
    if (!pv) return vkb_error(c, "out of memory") < 0;
    pv->m = (size_t)m, pv->n = (size_t)n, pv->k = (size_t)k, pv->intin = intin;
    pv->method = !strcmp(ck, "full") ? CK_FULL : !strcmp(ck, "freivalds") ? CK_FREIVALDS
               : (double)m * (double)n * (double)k <= (double)FULL_MAX ? CK_FULL : CK_FREIVALDS;
    c->priv = pv;
    return 0;
}

static void fill_input(gsl_rng *r, vkb_buf *b, int intin)
{
    float *x = b->type == VKB_F32 ? b->host : malloc(b->count * sizeof(float));
    if (!x) return;
    for (size_t i = 0; i < b->count; i++) {
        if (intin) {
            x[i] = (float)((int)gsl_rng_uniform_int(r, 5) - 2);
        } else {
            double u = 2.0 * gsl_rng_uniform(r) - 1.0;
            if (b->type == VKB_F16 && fabs(u) < 0x1p-13) u = u < 0 ? -0x1p-13 : 0x1p-13;
            x[i] = (float)u;
        }
    }
    if (b->type == VKB_F16) {
        vkb_f32_to_f16_array(x, b->host, b->count);
        free(x);
    }
}

/* Sample of n indices in [0, len): first, last, then random (repeats are harmless). */
static size_t *sample(gsl_rng *r, size_t len, size_t n)
{
    size_t *s = malloc(n * sizeof(*s));
    if (!s) return NULL;
    for (size_t i = 0; i < n; i++) s[i] = i == 0 ? 0 : i == 1 ? len - 1 : (size_t)gsl_rng_uniform_int(r, len);
    return s;
}

static size_t clampz(double x, size_t lo, size_t hi) { return x < (double)lo ? lo : x > (double)hi ? hi : (size_t)x; }

static void mm_fill(vkb_case *c, gsl_rng *r)
{
    priv *p = c->priv;
    fill_input(r, &c->buf[0], p->intin);
    fill_input(r, &c->buf[1], p->intin);
    if (p->method != CK_FREIVALDS) return;
    p->r = malloc(p->n * NV * sizeof(double));
    /* Sampled rows cost N·K each, columns M·K: about 2^27 multiply-adds each way, 4..16 of each. */
    p->nrow = clampz(0x1p27 / ((double)p->n * (double)p->k), 4, 16);
    p->ncol = clampz(0x1p27 / ((double)p->m * (double)p->k), 4, 16);
    p->rows = sample(r, p->m, p->nrow);
    p->cols = sample(r, p->n, p->ncol);
    if (!p->r) return;
    for (size_t i = 0; i < p->n * NV; i++) p->r[i] = gsl_rng_uniform_int(r, 2) ? 1.0 : -1.0;
}

static float *widen(const vkb_buf *b, int *owned)
{
    *owned = b->type != VKB_F32;
    if (!*owned) return b->host;
    float *x = malloc(b->count * sizeof(float));
    if (x)
        for (size_t i = 0; i < b->count; i++) x[i] = vkb_f16_to_f32(((const uint16_t *)b->host)[i]);
    return x;
}

/* Row i of A·B and of |A|·|B| into w[0..N), bd[0..N): plain loops, k ascending, double accumulation. */
static void ref_row(const priv *p, size_t i, double *w, double *bd)
{
    for (size_t j = 0; j < p->n; j++) w[j] = bd[j] = 0;
    for (size_t k = 0; k < p->k; k++) {
        double a = p->a[i * p->k + k];
        const float *b = p->b + k * p->n;
        for (size_t j = 0; j < p->n; j++) {
            w[j] += a * b[j];
            bd[j] += fabs(a) * fabs((double)b[j]);
        }
    }
}

static double mm_ref(vkb_case *c)
{
    priv *p = c->priv;
    size_t m = p->m, n = p->n, k = p->k;
    int owna, ownb;
    p->a = widen(&c->buf[0], &owna);
    p->b = widen(&c->buf[1], &ownb);
    p->own_ab = owna;  /* both or neither are owned: same dtype */
    (void)ownb;
    if (!p->a || !p->b) return 1.0;
    if (p->method == CK_FULL) {
        p->want = malloc(m * n * sizeof(double));
        p->bound = malloc(m * n * sizeof(double));
        if (!p->want || !p->bound) return 1.0;
        for (size_t i = 0; i < m; i++) ref_row(p, i, p->want + i * n, p->bound + i * n);
        for (size_t i = 0; i < m * n; i++) p->bound[i] *= C_BOUND * U32 * (double)k;
        return 1.0;
    }
    /* Freivalds, A and B side: B·r for all vectors in one pass over B, then A·(B·r) and |A|·(|B|·1). */
    double *br = calloc(k * NV, sizeof(double)), *babs = calloc(k, sizeof(double)), *col = malloc(k * sizeof(double));
    p->abr = calloc(m * NV, sizeof(double));
    p->rowb = calloc(m, sizeof(double));
    p->rw = malloc(p->nrow * n * sizeof(double));
    p->rb = malloc(p->nrow * n * sizeof(double));
    p->cw = malloc(m * p->ncol * sizeof(double));
    p->cb = malloc(m * p->ncol * sizeof(double));
    if (!br || !babs || !col || !p->abr || !p->rowb || !p->r || !p->rw || !p->rb || !p->cw || !p->cb || !p->rows ||
        !p->cols) {
        free(p->abr);
        p->abr = NULL;  /* the check reports the reference as out of memory */
        goto out;
    }
    for (size_t kk = 0; kk < k; kk++)
        for (size_t j = 0; j < n; j++) {
            double b = p->b[kk * n + j];
            for (int v = 0; v < NV; v++) br[kk * NV + v] += b * p->r[j * NV + v];
            babs[kk] += fabs(b);
        }
    for (size_t i = 0; i < m; i++)
        for (size_t kk = 0; kk < k; kk++) {
            double a = p->a[i * k + kk];
            for (int v = 0; v < NV; v++) p->abr[i * NV + v] += a * br[kk * NV + v];
            p->rowb[i] += fabs(a) * babs[kk];
        }
    for (size_t s = 0; s < p->nrow; s++) ref_row(p, p->rows[s], p->rw + s * n, p->rb + s * n);
    for (size_t s = 0; s < p->ncol; s++) {
        size_t j = p->cols[s];
        for (size_t kk = 0; kk < k; kk++) col[kk] = p->b[kk * n + j];
        for (size_t i = 0; i < m; i++) {
            double w = 0, bd = 0;
            for (size_t kk = 0; kk < k; kk++) {
                w += (double)p->a[i * k + kk] * col[kk];
                bd += fabs((double)p->a[i * k + kk]) * fabs(col[kk]);
            }
            p->cw[i * p->ncol + s] = w;
            p->cb[i * p->ncol + s] = bd;
        }
    }
out:
    free(br);
    free(babs);
    free(col);
    double work = (double)NV * ((double)k * (double)n + (double)m * (double)k) + (double)(p->nrow * n * k) +
                  (double)(p->ncol * m * k);
    return work / ((double)m * (double)n * (double)k);
}

/* One element judged against want ± allowed (unwritten, then NaN, then the bound). */
static void judge(vkb_check *r, const float *got, size_t idx, double want, double allowed)
{
    double g = got[idx], e = fabs(g - want);
    r->nchecked++;
    if (vkb_is_poison(VKB_F32, got, idx)) {
        if (r->nbad < 10) vkb_check_bad(r, idx, g, want), r->nbad--;
        r->nunwritten++;
        return;
    }
    if (!isfinite(g)) {
        if (r->nbad < 10) vkb_check_bad(r, idx, g, want), r->nbad--;
        r->nnan++;
        return;
    }
    double ratio = allowed > 0 ? e / allowed : e > 0 ? INFINITY : 0;
    if (ratio > r->metric) r->metric = ratio;
    if (e > r->max_abs) r->max_abs = e;
    if (want != 0 && e / fabs(want) > r->max_rel) r->max_rel = e / fabs(want);
    if (ratio > 1) vkb_check_bad(r, idx, g, want);
}

static void check_freivalds(vkb_case *c, vkb_check *r)
{
    priv *p = c->priv;
    const float *got = c->buf[2].host;
    size_t m = p->m, n = p->n, k = p->k;
    double u = p->intin ? 0 : C_BOUND * U32;
    vkb_check_begin(r, "freivalds", 1);
    double *cr = malloc(NV * sizeof(double));
    if (!cr) goto out;
    for (size_t i = 0; i < m; i++) {
        double cabs = 0;
        for (int v = 0; v < NV; v++) cr[v] = 0;
        for (size_t j = 0; j < n; j++) {
            double g = got[i * n + j];
            if (vkb_is_poison(VKB_F32, got, i * n + j) || !isfinite(g)) {
                judge(r, got, i * n + j, NAN, 0);  /* counts it as unwritten or NaN */
                r->nchecked--;
                continue;
            }
            for (int v = 0; v < NV; v++) cr[v] += g * p->r[j * NV + v];
            cabs += fabs(g);
        }
        /* Double evaluation slack: C·r and A·(B·r) are sums of N and K+N terms; integer data is exact. */
        double allowed = u * (double)k * p->rowb[i] + (p->intin ? 0 : 2.0 * (double)(n + k) * UD * (p->rowb[i] + cabs));
        for (int v = 0; v < NV; v++) {
            double e = fabs(cr[v] - p->abr[i * NV + v]);
            double ratio = allowed > 0 ? e / allowed : e > 0 ? INFINITY : 0;
            r->nchecked++;
            if (ratio > r->metric) r->metric = ratio;
            if (ratio > 1 && r->nbad < 10) {
                size_t len = strlen(r->detail);
                snprintf(r->detail + len, sizeof(r->detail) - len, "%srow %zu vec %d: |Cr-ABr|=%.3g > %.3g",
                         len ? "; " : "", i, v, e, allowed);
            }
            if (ratio > 1) r->nbad++;
        }
    }
    for (size_t s = 0; s < p->nrow; s++)
        for (size_t j = 0; j < n; j++)
            judge(r, got, p->rows[s] * n + j, p->rw[s * n + j], u * (double)k * p->rb[s * n + j]);
    for (size_t s = 0; s < p->ncol; s++)
        for (size_t i = 0; i < m; i++)
            judge(r, got, i * n + p->cols[s], p->cw[i * p->ncol + s], u * (double)k * p->cb[i * p->ncol + s]);
    if (!r->detail[0])
        snprintf(r->detail, sizeof(r->detail), "freivalds %d vectors r = +-1 + %zu rows %zu cols vs exact ref",
                 NV, p->nrow, p->ncol);
out:
    if (!cr) r->metric = NAN;
    free(cr);
    snprintf(c->note, sizeof(c->note), "freivalds %d x r = +-1 (false accept <= 2^-%d) + %zu rows %zu cols exact%s",
             NV, NV, p->nrow, p->ncol, p->intin ? "; int inputs, zero tolerance" : "");
    vkb_check_end(r);
}

static void mm_check(vkb_case *c, vkb_check *r)
{
    priv *p = c->priv;
    size_t mn = p->m * p->n;
    if (!p->a || !p->b || (p->method == CK_FULL ? !p->want || !p->bound : !p->abr || !p->cb)) {
        vkb_check_begin(r, "bound", 1);
        snprintf(r->detail, sizeof(r->detail), "reference ran out of memory");
        r->metric = NAN;
        vkb_check_end(r);
        return;
    }
    if (p->method == CK_FREIVALDS) {
        check_freivalds(c, r);
        return;
    }
    if (p->intin) {  /* exact integers: the fp32 result must be these bits */
        float *w = malloc(mn * sizeof(float));
        vkb_check_begin(r, "exact", 0);
        if (!w) {
            r->metric = NAN;
            vkb_check_end(r);
            return;
        }
        for (size_t i = 0; i < mn; i++) w[i] = (float)p->want[i];
        vkb_cmp_ulp(r, VKB_F32, c->buf[2].host, w, mn, 0);
        free(w);
        snprintf(c->note, sizeof(c->note), "int inputs in [-2,2]: bit-exact, full reference");
        return;
    }
    vkb_check_begin(r, "bound", 1);
    vkb_tol tol = {.bound = p->bound};
    vkb_cmp_bound(r, VKB_F32, c->buf[2].host, p->want, mn, tol);
    snprintf(c->note, sizeof(c->note), "full reference; |err| <= 2 K u32 (|A||B|)_ij");
}

static void mm_release(vkb_case *c)
{
    priv *p = c->priv;
    if (!p) return;
    if (p->own_ab) {
        free(p->a);
        free(p->b);
    }
    void *blocks[] = {p->want, p->bound, p->r, p->abr, p->rowb, p->rows, p->cols, p->rw, p->rb, p->cw, p->cb};
    for (size_t i = 0; i < sizeof(blocks) / sizeof(blocks[0]); i++) free(blocks[i]);
}

VKB_KERNEL(matmul) = {"matmul", "m,n,k,dtype,inputs,check",
                      "C = A*B, A MxK and B KxN row-major, C fp32; variants naive, tiled*, coopmat* (fp16, matrix units)",
                      mm_plan, mm_fill, mm_ref, mm_check, mm_release,
                      "tiled, naive, tiled_bk16, tiled_128x64, tiled_64; fp16 on matrix units: coopmat, coopmat_64, "
                      "coopmat_128x64, coopmat_w64, coopmat_f, coopmat_f64, coopmat_f256, coopmat_g, coopmat_g64; the same "
                      "tilings on plain FMA (any device): coopmat_emu, coopmat_f_emu, coopmat_f64_emu, coopmat_f256_emu, "
                      "coopmat_g_emu, coopmat_g64_emu"};
