/* peak.c — peak-calibration probes: fp32 FMA rate (peak_fma) and fp16 matrix-unit rate (peak_coopmat).
 * flops count exactly what the shaders execute (2 per fma, 2·M·N·K per M×N×K matrix operation), so the
 * GFLOP/s column of their rows is the measured peak that matmul rows are compared with. Bytes are the
 * (negligible) inputs and stored results. Run them in the same session as the matmul lines.
 *
 * peak_fma (kernels/peak_fma.comp): axes n (invocations), iters (64 fma per invocation each). Inputs
 * are small integers and ±1 (see the shader), every value stays an integer below 2²⁴, so the result is
 * exact whatever the fma fusion and is compared bit for bit, on the first min(n, 256) invocations
 * (which store their chains), against the same recurrence on the CPU. The sign sequence has a long
 * period, so a skipped or merged step changes the result.
 * peak_coopmat (kernels/peak_coopmat.glsl): axes n (subgroups), iters (2·GM·GN matrix operations per
 * subgroup each), type (f16f32, f16f16, s8s32: A/B and accumulator types), shape (MxNxK, default the
 * device's first NV configuration of that type), grid (GMxGN accumulator fragments per subgroup, default 2x4),
 * sgs (subgroups per workgroup, default 4), impl (mm: matrix units; emu: the same arithmetic in plain code, to
 * test the host side on a device without matrix units), src (reg: fragments loaded once, the MMA rate; smem: A and B
 * fragments reloaded from shared memory every k-step as in a GEMM, kernels/peak_coopmat_smem.glsl; frag: the same, each
 * fragment one 16-byte shared load an invocation from tiles in the fragments' order). Small-integer inputs make the result exact: compared
 * bit for bit on the first min(n, 64) subgroups. `vkbench calibrate` sweeps shapes, grids and sgs.
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "check.h"
#include "vkb.h"

#define FMA_SETS 4096u  /* distinct starting values (invocation i uses set i % FMA_SETS) */
#define FMA_STORE 256u  /* invocations that store and are checked */
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

/* Component types (VkComponentTypeKHR values, as vkb_cm_shape) and the shader of each `type=`. */
static const struct cm_type {
    const char *name, *variant, *shader;
    uint32_t ab, acc;           /* component types of A/B and of C/D */
    vkb_dtype abt, acct;
    int64_t max_iters_k3;       /* iters bound + 3K: the largest magnitude the accumulator type keeps exact */
} cm_types[] = {
    {"f16f32", "fp16_fp32acc", "peak_coopmat", 0, 1, VKB_F16, VKB_F32, 1 << 24},
    {"f16f16", "fp16_fp16acc", "peak_coopmat_f16acc", 0, 0, VKB_F16, VKB_F16, 2048},
    {"s8s32", "int8_int32acc", "peak_coopmat_s8", 3, 5, VKB_I8, VKB_I32, 1 << 24},
};

/* What a probe case runs; the shader's specialization constants 1..5 and its buffer layout. */
typedef struct cm_cfg {
    const struct cm_type *t;
    uint32_t m, n, k, gm, gn, sgs, sa, sb, sc;  /* shape, grid, subgroups/workgroup, padded row strides */
    int emu, smem, frag;                        /* impl=emu; src=smem or frag (kernels/peak_coopmat_smem.glsl) */
} cm_cfg;

/* Element i of a buffer of type t: v is an integer the type holds exactly (cm_fill's bounds). */
static void cm_store(vkb_dtype t, void *p, size_t i, double v)
{
    switch (t) {
    case VKB_F16: ((uint16_t *)p)[i] = vkb_f32_to_f16((float)v); break;
    case VKB_F32: ((float *)p)[i] = (float)v; break;
    case VKB_I8: ((int8_t *)p)[i] = (int8_t)v; break;
    default: ((int32_t *)p)[i] = (int32_t)v; break;
    }
}

/* Rows padded to 16 bytes (the shader's SA, SB, SC). */
static uint32_t cm_stride(uint32_t cols, size_t bytes) { return (uint32_t)((cols * bytes + 15) / 16 * (16 / bytes)); }

/* "AxB" or "AxBxC" into v[0..want-1], each in [1, max]. */
static int parse_dims(const char *s, uint32_t *v, int want, uint32_t max)
{
    for (int i = 0; i < want; i++) {
        char *end;
        long x = strtol(s, &end, 10);
        if (end == s || x < 1 || x > (long)max || (i < want - 1 ? *end != 'x' : *end != 0)) return -1;
        v[i] = (uint32_t)x;
        s = end + 1;
    }
    return 0;
}

/* Read type, shape, grid, sgs and impl; SKIP when the device cannot run them. Returns 0 to go on. */
static int cm_config(vkb_case *c, cm_cfg *g)
{
    const char *type = vkb_param_str(c, "type", "f16f32"), *impl = vkb_param_str(c, "impl", "mm");
    const char *src = vkb_param_str(c, "src", "reg");
    uint32_t grid[2] = {2, 4}, dims[3] = {16, 16, 16};
    memset(g, 0, sizeof(*g));
    for (size_t i = 0; i < sizeof(cm_types) / sizeof(cm_types[0]); i++)
        if (!strcmp(type, cm_types[i].name)) g->t = &cm_types[i];
    if (!g->t) return vkb_error(c, "type=%s: expected f16f32, f16f16 or s8s32", type);
    if (strcmp(impl, "mm") && strcmp(impl, "emu")) return vkb_error(c, "impl=%s: expected mm (matrix units) or emu", impl);
    g->emu = !strcmp(impl, "emu");
    if (strcmp(src, "reg") && strcmp(src, "smem") && strcmp(src, "frag"))
        return vkb_error(c, "src=%s: expected reg (fragments in registers), smem or frag (from shared memory)", src);
    g->frag = !strcmp(src, "frag");
    g->smem = g->frag || !strcmp(src, "smem");
    if (g->smem && strcmp(g->t->name, "f16f32")) return vkb_error(c, "src=%s: type=f16f32 only (type=%s)", src, type);
    snprintf(c->variant, sizeof(c->variant), "%s%s%s", g->emu ? "emu_" : "", g->frag ? "smemf_" : g->smem ? "smem_" : "", g->t->variant);
    snprintf(c->dtype, sizeof(c->dtype), "%s", vkb_dtype_name(g->t->abt));
    int fp = g->t->abt == VKB_F16;
    if (fp ? !(c->caps.f16 && c->caps.storage16) : !(c->caps.int8 && c->caps.storage8))
        return vkb_skip(c, "device lacks %s arithmetic or storage", fp ? "fp16" : "int8");
    if (!g->emu && !c->caps.coopmat_nv) return vkb_skip(c, "device lacks VK_NV_cooperative_matrix (fp16 matrix units)");
    /* Default shape: the device's first NV configuration of these types (16x16x16 when emulated). */
    for (int i = 0; !g->emu && i < c->caps.ncm && !vkb_param_str(c, "shape", NULL); i++) {
        const vkb_cm_shape *s = &c->caps.cm[i];
        if (!s->khr && s->a == g->t->ab && s->b == g->t->ab && s->c == g->t->acc && s->d == g->t->acc) {
            dims[0] = s->m, dims[1] = s->n, dims[2] = s->k;
            break;
        }
    }
    const char *shape = vkb_param_str(c, "shape", NULL), *gr = vkb_param_str(c, "grid", NULL);
    if (shape && parse_dims(shape, dims, 3, 64)) return vkb_error(c, "shape=%s: expected MxNxK, each 1..64", shape);
    if (gr && parse_dims(gr, grid, 2, 8)) return vkb_error(c, "grid=%s: expected GMxGN fragments, each 1..8", gr);
    int64_t sgs = vkb_param_int(c, "sgs", 4);
    uint32_t sub = c->caps.subgroup ? c->caps.subgroup : 32;
    if (sgs < 1 || sgs > 32 || (uint64_t)sgs * sub > c->caps.max_wg_size)
        return vkb_error(c, "sgs=%lld: expected 1..%u subgroups per workgroup", (long long)sgs,
                         c->caps.max_wg_size / sub < 32 ? c->caps.max_wg_size / sub : 32);
    g->m = dims[0], g->n = dims[1], g->k = dims[2], g->gm = grid[0], g->gn = grid[1], g->sgs = (uint32_t)sgs;
    size_t ab = vkb_dtype_size(g->t->abt), acc = vkb_dtype_size(g->t->acct);
    g->sa = cm_stride(g->k, ab), g->sb = cm_stride(g->n, ab), g->sc = cm_stride(g->n, acc);
    if (g->sc != g->n)  /* the results are compared element for element: no padding in them */
        return vkb_error(c, "shape=%ux%ux%u: a row of %u %s accumulators is not a multiple of 16 bytes", g->m, g->n,
                         g->k, g->n, vkb_dtype_name(g->t->acct));
    if (g->frag) {  /* fragment-order tiles: NVIDIA's 16x16 fp16 order for 32 invocations (frag_slot) */
        if (g->m != 16 || g->n != 16 || g->k != 16)
            return vkb_error(c, "shape=%ux%ux%u with src=frag: 16x16x16 only (the fragment order it builds)", g->m, g->n, g->k);
        if (!g->emu && (sub != 32 || c->caps.vendor != 0x10DE))
            return vkb_skip(c, "src=frag builds fragments in NVIDIA's 16x16 fp16 order for 32 invocations (this device: vendor 0x%04X, "
                            "subgroup %u); impl=emu validates the tiles", c->caps.vendor, sub);
        size_t bytes = 2 * 16 * 32 * ((size_t)g->gm + 2 * (size_t)g->gn);
        if (bytes > c->caps.max_shared)
            return vkb_skip(c, "src=frag needs %zu B of shared memory, the device allows %u", bytes, c->caps.max_shared);
    } else if (g->smem) {  /* the shader's tiles: two copies of A (rows of K/8 + 1 uvec4) and B0, B1 (rows of GN N/8 + 1) */
        if (g->k % 8 || g->n % 8) return vkb_error(c, "shape=%ux%ux%u with src=smem: K and N must be multiples of 8", g->m, g->n, g->k);
        size_t bytes = 2 * 16 * ((size_t)g->gm * g->m * (g->k / 8 + 1) + 2 * (size_t)g->k * (g->gn * g->n / 8 + 1));
        if (bytes > c->caps.max_shared)
            return vkb_skip(c, "src=smem needs %zu B of shared memory, the device allows %u", bytes, c->caps.max_shared);
    }
    if (g->emu) return 0;
    for (int i = 0; i < c->caps.ncm; i++) {
        const vkb_cm_shape *s = &c->caps.cm[i];
        if (!s->khr && s->m == g->m && s->n == g->n && s->k == g->k && s->a == g->t->ab && s->b == g->t->ab &&
            s->c == g->t->acc && s->d == g->t->acc)
            return 0;
    }
    return vkb_skip(c, "device reports no NV cooperative-matrix configuration %ux%ux%u %s/%s (see `vkbench devices`)",
                    g->m, g->n, g->k, vkb_cm_type_name(g->t->ab), vkb_cm_type_name(g->t->acc));
}

static int cm_plan(vkb_case *c)
{
    int64_t n, iters;
    cm_cfg g;
    if (cm_config(c, &g) || c->error[0] || c->skip[0]) return 0;
    /* Exact arithmetic (cm_fill): |acc| <= 2 + iters + 3K at every step, within what the accumulator keeps exact
     * (2^11 for fp16, 2^24 for fp32; int32 is held to the same 2^24). */
    int64_t max_iters = g.t->max_iters_k3 - 2 - 3 * (int64_t)g.k;
    if (max_iters > (1 << 20)) max_iters = 1 << 20;
    if (plan_sizes(c, &n, &iters, 1 << 16, max_iters < 512 ? max_iters : 512, max_iters)) return 0;
    uint32_t ns = n < CM_STORE ? (uint32_t)n : CM_STORE, gr[3], frags = g.gm * g.gn;
    size_t mat_c = (size_t)g.m * g.sc;
    vkb_add_buf(c, "ab", g.t->abt, (size_t)g.gm * g.m * g.sa + 2 * (size_t)g.gn * g.k * g.sb, VKB_IN);
    vkb_add_buf(c, "c0", g.t->acct, frags * mat_c, VKB_IN);
    vkb_add_buf(c, "y", g.t->acct, ns * frags * mat_c, VKB_OUT);
    uint32_t sub = c->caps.subgroup ? c->caps.subgroup : 32;
    uint32_t spec[6] = {g.sgs * sub, g.m, g.n, g.k, g.gm, g.gn};
    char shader[48];
    snprintf(shader, sizeof(shader), "%s%s%s", g.emu ? "peak_coopmat_emu" : "peak_coopmat",
             g.t->shader + strlen("peak_coopmat"), g.frag ? "_smemf" : g.smem ? "_smem" : "");
    vkb_grid_1d(c, (uint64_t)n, g.sgs, gr);
    vkb_dispatch *d = vkb_add_dispatch(c, vkb_add_pipe(c, shader, 6, spec), gr[0], gr[1], 1);
    if (d) d->push.n = (uint32_t)n, d->push.m = (uint32_t)iters, d->push.p1 = ns, d->push.p2 = 1;
    c->flops = 2.0 * g.m * g.n * g.k * 2.0 * frags * (double)iters * (double)n;
    c->bytes = (double)(c->buf[0].count * vkb_dtype_size(g.t->abt) + (c->buf[1].count + c->buf[2].count) *
                                                                          vkb_dtype_size(g.t->acct));
    snprintf(c->note, sizeof(c->note), "%ux%ux%u, %ux%u fragments/subgroup, %u subgroups/workgroup%s", g.m, g.n, g.k,
             g.gm, g.gn, g.sgs, g.frag ? ", A and B fragments rebuilt every k-step from one 16-byte shared load an invocation (fragment-order tiles)"
                                       : g.smem ? ", A and B fragments reloaded from shared memory every k-step" : "");
    return 0;
}

/* A, B0 in {-1, 0, 1}; B1 = P - B0 with P holding one ±1 per column; acc0 in {-2..2}. Each round adds
 * A (B0 + B1) = A P, whose entries are one entry of A each (in {-1, 0, 1}), so after t rounds
 * |acc| <= 2 + t, and inside a round |acc + A B0| <= 2 + t + K and partial sums of A B1 add at most 2K:
 * every value is an integer of magnitude <= 2 + iters + 3K, exact in the accumulator type (cm_plan bounds
 * iters), whatever order the hardware sums in. The result depends on the exact number of rounds. */
static void cm_fill(vkb_case *c, gsl_rng *r)
{
    cm_cfg g;
    if (cm_config(c, &g)) return;
    size_t b0 = (size_t)g.gm * g.m * g.sa, bsz = (size_t)g.k * g.sb;
    double *ab = calloc(c->buf[0].count, sizeof(double));
    if (!ab) return;
    for (uint32_t i = 0; i < g.gm; i++)
        for (uint32_t row = 0; row < g.m; row++)
            for (uint32_t k = 0; k < g.k; k++) ab[i * (size_t)g.m * g.sa + row * g.sa + k] = (double)gsl_rng_uniform_int(r, 3) - 1;
    for (uint32_t j = 0; j < g.gn; j++)
        for (uint32_t col = 0; col < g.n; col++) {
            uint32_t kp = (uint32_t)gsl_rng_uniform_int(r, g.k);
            double pv = gsl_rng_uniform_int(r, 2) ? 1 : -1;
            for (uint32_t k = 0; k < g.k; k++) {
                double v0 = (double)gsl_rng_uniform_int(r, 3) - 1;
                ab[b0 + j * bsz + k * g.sb + col] = v0;
                ab[b0 + (g.gn + j) * bsz + k * g.sb + col] = (k == kp ? pv : 0) - v0;
            }
        }
    for (size_t i = 0; i < c->buf[0].count; i++) cm_store(g.t->abt, c->buf[0].host, i, ab[i]);
    for (size_t i = 0; i < c->buf[1].count; i++)
        cm_store(g.t->acct, c->buf[1].host, i, (double)gsl_rng_uniform_int(r, 5) - 2);
    free(ab);
}

/* want = acc0 + iters · A_i (B0_j + B1_j) for every checked subgroup (all subgroups run the same inputs). */
static double cm_ref(vkb_case *c)
{
    cm_cfg g;
    if (cm_config(c, &g)) return 1.0;
    size_t frag = (size_t)g.m * g.sc, per = g.gm * g.gn * frag, ns = c->buf[2].count / per;
    size_t b0 = (size_t)g.gm * g.m * g.sa, bsz = (size_t)g.k * g.sb, esz = vkb_dtype_size(g.t->acct);
    void *want = malloc(c->buf[2].count * esz);
    c->priv = want;
    if (!want) return 1.0;
    double iters = c->disp[0].push.m;
    for (uint32_t i = 0; i < g.gm; i++)
        for (uint32_t j = 0; j < g.gn; j++)
            for (uint32_t row = 0; row < g.m; row++)
                for (uint32_t col = 0; col < g.n; col++) {
                    double s = 0;  /* (A_i (B0_j + B1_j))[row][col], an integer */
                    for (uint32_t k = 0; k < g.k; k++)
                        s += vkb_elem(g.t->abt, c->buf[0].host, i * (size_t)g.m * g.sa + row * g.sa + k) *
                             (vkb_elem(g.t->abt, c->buf[0].host, b0 + j * bsz + k * g.sb + col) +
                              vkb_elem(g.t->abt, c->buf[0].host, b0 + (g.gn + j) * bsz + k * g.sb + col));
                    size_t o = (i * g.gn + j) * frag + row * g.sc + col;
                    for (size_t sg = 0; sg < ns; sg++)
                        cm_store(g.t->acct, want, sg * per + o, vkb_elem(g.t->acct, c->buf[1].host, o) + iters * s);
                }
    return (double)ns / (double)c->disp[0].push.n;
}

static void cm_check(vkb_case *c, vkb_check *r)
{
    cm_cfg g;
    vkb_check_begin(r, "exact", 0);
    if (!c->priv || cm_config(c, &g)) {
        r->metric = NAN;
        snprintf(r->detail, sizeof(r->detail), "reference ran out of memory");
        vkb_check_end(r);
        return;
    }
    vkb_cmp_exact(r, g.t->acct, c->buf[2].host, c->priv, c->buf[2].count);
    size_t u = strlen(c->note);
    snprintf(c->note + u, sizeof(c->note) - u, "; integer values, exact; first %zu subgroups checked",
             c->buf[2].count / ((size_t)g.gm * g.gn * g.m * g.sc));
}

VKB_KERNEL(peak_coopmat) = {"peak_coopmat", "n,iters,type,shape,grid,sgs,impl,src",
                            "matrix-unit peak (NV coopmat): a GMxGN grid of accumulators per subgroup, 2 ops per "
                            "fragment per iter; type f16f32|f16f16|s8s32, impl mm|emu",
                            cm_plan, cm_fill, cm_ref, cm_check, NULL,
                            "none (type=, shape=, grid=, sgs= and impl= pick the configuration)"};

/* ---------------- coopmat_layout ---------------- */

/* Which element (row, column) invocation l holds in component i of an NV cooperative matrix (kernels/coopmat_layout.comp):
 * the layout the specification leaves to the implementation, which a kernel that fills fragments element by element
 * from registers must know (session 14 tried that for BitLinear's A, bitnet_mma_sg fill=reg: slower than the shared-memory
 * slab on every shape, tests/gpu/sweep_s14a.txt, sweep_s14b.txt, so not kept). The reference is the order NVIDIA's
 * driver (580.159.04, on an H200 and an H100) was measured to use: PTX's mma fragment order, except that the registers
 * of A and of a 16 x 16 accumulator take their rows first (quad g = l / 4, t = l % 4, L = length()):
 *   A (16 x K): row g + 8 (i / (L / 2)), column 4t + (i & 3) + 16 ((i >> 2) & (K / 16 - 1));
 *   B (K x N): row 4t + (i & 3) + 16 ((i >> 2) % (K / 16)), column g + 8 (i / (K / 4));
 *   accumulator (16 x N, int32): row g + 8 (i / (L / 2)), column 2t + (i & 1) + 8 ((i >> 1) & (N / 8 - 1));
 * and L = elements / 32. (With PTX's A order, where row g + 8 fills the second register, fill=reg got 80% of its
 * outputs wrong.) type=f16 (16x16 fp16 A and B, frag=16x16x16; dense_f16's lay=frag lays W out by the A order,
 * reference/bitnet_linear.c frag_slot) expects, by halves, two to a register, for A (16 x 16, row-major load) and B
 * (16 x 16, column-major load) alike: row g + 8 (i / 4), column 2t + (i & 1) + 8 ((i >> 1) & 1). (B is not PTX's B
 * order, which holds K pairs: on an H200, 580.159.04, session 27, invocation 1 held B's (0,2) (0,3) (0,10) (0,11)
 * (8,2) .. (8,11), tests/gpu/sweep_s27a.txt.) frag=16x8x16's B (16 x 8, BitLinear hmma's ln=8) is expected at the same
 * rows and the first half of the columns: row g + 8 (i / 2), column 2t + (i & 1).
 * A mismatch FAILs with the first components of invocations 0, 1 and 4 in the note: what the driver does, for whoever
 * adapts a kernel to it. use= a | b | c, type= s8 (sint8 x sint8 -> sint32, the default) | f16 (use=a or b; its own
 * module, kernels/coopmat_layout_f16.comp), frag= MxNxK (one the device reports; default its first with M = 16;
 * 16x16x16 or 16x8x16 for f16). */
typedef struct cl_cfg { uint32_t m, n, k, use, f16; } cl_cfg;

static int cl_config(vkb_case *c, cl_cfg *g)
{
    const char *u = vkb_param_str(c, "use", "a"), *f = vkb_param_str(c, "frag", NULL), *t = vkb_param_str(c, "type", "s8");
    g->use = !strcmp(u, "a") ? 0 : !strcmp(u, "b") ? 1 : !strcmp(u, "c") ? 2 : 3;
    if (g->use == 3) return vkb_error(c, "use=%s: expected a, b or c", u);
    g->f16 = !strcmp(t, "f16");
    if (!g->f16 && strcmp(t, "s8")) return vkb_error(c, "type=%s: expected s8 or f16", t);
    if (g->f16 && g->use == 2) return vkb_error(c, "type=f16 probes A and B (use=a, b); use=c is the int32 accumulator's");
    g->m = 16, g->n = g->f16 ? 16 : 8, g->k = g->f16 ? 16 : 32;
    if (f) {
        char tail;
        if (sscanf(f, "%ux%ux%u%c", &g->m, &g->n, &g->k, &tail) != 3 || g->m != 16 || (g->n != 8 && g->n != 16) ||
            (g->k != 16 && g->k != 32) || (g->f16 && g->k != 16))
            return vkb_error(c, "frag=%s: expected 16xNxK with N 8 or 16 and K 16 or 32, 16x16x16 or 16x8x16 for type=f16 (the orders "
                             "the reference knows)", f);
    }
    if (!c->caps.coopmat_nv) return vkb_skip(c, "device lacks VK_NV_cooperative_matrix: no layout to probe");
    if (!g->f16 && (!c->caps.int8 || !c->caps.storage8))
        return vkb_skip(c, "device lacks shaderInt8 or 8-bit storage (int8 cooperative matrices)");
    if (g->f16 && !(c->caps.f16 && c->caps.storage16))
        return vkb_skip(c, "device lacks shaderFloat16 or 16-bit storage (fp16 cooperative matrices)");
    if (c->caps.subgroup != 32) return vkb_skip(c, "the reference order names 32 invocations; this device's subgroup has %u", c->caps.subgroup);
    int found = 0;
    for (int i = 0; i < c->caps.ncm; i++) {
        const vkb_cm_shape *q = &c->caps.cm[i];
        if (q->khr || (g->f16 ? q->a != 0 || q->b != 0 : q->a != 3 || q->b != 3 || q->c != 5 || q->d != 5)) continue;
        if (f || g->f16 ? q->m == g->m && q->n == g->n && q->k == g->k : q->m == 16 && q->n <= 16 && (q->k == 16 || q->k == 32)) {
            if (!f) g->n = q->n, g->k = q->k;
            found = 1;
            break;
        }
    }
    if (!found) return vkb_skip(c, "device reports no NV %s configuration %s", g->f16 ? "fp16" : "sint8",
                                f ? f : "16xNxK with N <= 16, K 16 or 32");
    return 0;
}

static int cl_plan(vkb_case *c)
{
    cl_cfg g;
    if (cl_config(c, &g)) return 0;
    vkb_add_buf(c, "i8", VKB_I8, 2 * (size_t)(g.use == 0 ? g.m * g.k : g.k * g.n), VKB_IN);
    vkb_add_buf(c, "i32", VKB_I32, 2 * (size_t)g.m * g.n, VKB_IN);
    vkb_add_buf(c, "o", VKB_U32, 1 + 32 * 64, VKB_OUT);
    if (g.f16) vkb_add_buf(c, "h", VKB_F16, 2 * (size_t)(g.use == 0 ? g.m * g.k : g.k * g.n), VKB_IN);  /* binding 3 */
    uint32_t spec[5] = {32, g.m, g.n, g.k, g.use};
    vkb_dispatch *d = vkb_add_dispatch(c, vkb_add_pipe(c, g.f16 ? "coopmat_layout_f16" : "coopmat_layout", 5, spec), 1, 1, 1);
    if (!d) return vkb_error(c, "out of memory");
    c->bytes = g.f16 ? (double)(4 * c->buf[2].count + 2 * c->buf[3].count)
                     : (double)(c->buf[0].count + 4 * c->buf[1].count + 4 * c->buf[2].count);
    snprintf(c->variant, sizeof(c->variant), "%s", g.use == 0 ? "A" : g.use == 1 ? "B" : "C");
    snprintf(c->note, sizeof(c->note), "%ux%ux%u %s %s", g.m, g.n, g.k, g.f16 ? "fp16" : "sint8", g.use == 0 ? "A (row-major load)" : g.use == 1 ?
             "B (column-major load)" : "accumulator (row-major load)");
    return 0;
}

/* Element (r, col) of the row-number and column-number matrices, in the order the shader loads them. */
static void cl_fill(vkb_case *c, gsl_rng *rng)
{
    (void)rng;
    cl_cfg g;
    if (cl_config(c, &g)) return;
    int8_t *a = c->buf[0].host;
    int32_t *acc = c->buf[1].host;
    uint16_t *h = g.f16 ? c->buf[3].host : NULL;
    uint32_t rows = g.use == 0 ? g.m : g.k, cols = g.use == 0 ? g.k : g.n;
    for (uint32_t r = 0; r < rows; r++)
        for (uint32_t col = 0; col < cols; col++) {
            size_t o = g.use == 1 ? (size_t)col * g.k + r : (size_t)r * cols + col;  /* B column-major */
            a[o] = (int8_t)r, a[(size_t)rows * cols + o] = (int8_t)col;
            if (h) h[o] = vkb_f32_to_f16((float)r), h[(size_t)rows * cols + o] = vkb_f32_to_f16((float)col);  /* exact */
        }
    for (uint32_t r = 0; r < g.m; r++)
        for (uint32_t col = 0; col < g.n; col++) acc[r * g.n + col] = (int32_t)r, acc[g.m * g.n + r * g.n + col] = (int32_t)col;
}

/* The reference order (the comment above) for component i of invocation l: row << 8 | column. */
static uint32_t cl_want(const cl_cfg *g, uint32_t l, uint32_t i)
{
    uint32_t q = l / 4, t = l % 4, r, col, half = (g->use == 0 ? g->m * g->k : g->m * g->n) / 64;  /* L / 2 */
    if (g->f16 && g->use == 1 && g->n == 8) r = q + 8 * (i / 2), col = 2 * t + (i & 1);  /* 16x8 B: 16x16's, halved */
    else if (g->f16) r = q + 8 * (i / 4), col = 2 * t + (i & 1) + 8 * ((i >> 1) & 1);  /* A: frag_slot's; B the same */
    else if (g->use == 0) r = q + 8 * (i / half), col = 4 * t + (i & 3) + 16 * ((i >> 2) & (g->k / 16 - 1));
    else if (g->use == 1) r = 4 * t + (i & 3) + 16 * ((i >> 2) % (g->k / 16)), col = q + 8 * (i / (g->k / 4));
    else r = q + 8 * (i / half), col = 2 * t + (i & 1) + 8 * ((i >> 1) & (g->n / 8 - 1));
    return r << 8 | col;
}

static double cl_ref(vkb_case *c) { (void)c; return 1.0; }

static void cl_check(vkb_case *c, vkb_check *r)
{
    cl_cfg g;
    vkb_check_begin(r, "exact", 0);
    if (cl_config(c, &g)) {
        r->metric = NAN;
        vkb_check_end(r);
        return;
    }
    const uint32_t *o = c->buf[2].host;
    uint32_t len = (g.use == 0 ? g.m * g.k : g.use == 1 ? g.k * g.n : g.m * g.n) / 32;
    r->nchecked = 1 + 32 * (size_t)len;
    r->nbad = o[0] != len;
    for (uint32_t l = 0; l < 32; l++)
        for (uint32_t i = 0; i < len && i < 64; i++) r->nbad += o[1 + 64 * l + i] != cl_want(&g, l, i);
    r->metric = (double)r->nbad;
    size_t u = (size_t)snprintf(r->detail, sizeof(r->detail), "length %u (want %u);", o[0], len);
    static const uint32_t show[3] = {0, 1, 4};
    for (int s = 0; s < 3 && u < sizeof(r->detail); s++) {
        u += (size_t)snprintf(r->detail + u, sizeof(r->detail) - u, " l%u:", show[s]);
        for (uint32_t i = 0; i < len && i < 16 && u < sizeof(r->detail); i++)
            u += (size_t)snprintf(r->detail + u, sizeof(r->detail) - u, " %u.%u", o[1 + 64 * show[s] + i] >> 8,
                                  o[1 + 64 * show[s] + i] & 255);
    }
    vkb_check_end(r);
    snprintf(c->note, sizeof(c->note), "%s", r->detail);  /* the row keeps the layout found */
}

VKB_KERNEL(coopmat_layout) = {"coopmat_layout", "use,frag,type",
                              "which element each invocation holds in each component of an NV cooperative matrix, "
                              "against the order NVIDIA's driver uses (use=a|b|c, type=s8|f16)",
                              cl_plan, cl_fill, cl_ref, cl_check, NULL, "A (from use=): A, B or C"};
