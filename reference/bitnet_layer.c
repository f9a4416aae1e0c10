/* bitnet_layer.c — one BitLinear layer as a decoder runs it (issue 15): RMSNorm-fused per-token int8 activation
 * quantization, then the ternary GEMV, timed as ONE case. fuse=0: two dependent dispatches,
 *   1. kernels/bitnet_layer_aquant.comp (= bitnet_aquant variant=rmsnorm): x (fp32 M x K), g -> xq (int8, M x Kp), s, r
 *   2. kernels/bitnet_gemv_sg_{dot,int}.comp (= bitnet_linear algo=gemv_sg, planned by bitnet_sg_plan): W, gamma',
 *      xq, s -> y (fp32 M x N)
 * with the harness's barrier between them (a CUDA stream's order). fuse=1 (the default at m <= LAYER_FUSE_M, where the codes of mt tokens fit shared memory): ONE dispatch, kernels/bitnet_layer_fused_{dot,int}.comp, gemv_sg whose every workgroup first
 * quantizes its tokens itself with the quantizer's own rounding steps (kernels/bitnet_layer_fused.glsl), so neither
 * the second dispatch nor the xq, s round trip through memory remains; workgroup x = 0 still writes xq, s and r.
 * xq and s are intermediates, declared as outputs so that they come back and are checked too; their round trip
 * (2 (M Kp + 4M) bytes at fuse=0) is not counted in c->bytes, which holds the layer's own traffic: x, g, W, gamma', y
 * (and r, the check's). Buffers = bindings, shared by all shaders through one descriptor set:
 * 0 W, 1 gamma', 2 xq, 3 s, 4 y, 5 x, 6 g, 7 r.
 *
 * Check: the composition of the parts' checks, neither loosened.
 *   1. The quantizer exactly as bitnet_aquant checks it (bitnet_aquant_check_rows): r within its derived bound of a
 *      double reference, s within 2.5 ulp of 127/max|y| (y recomputed from the GPU's r), every xq code bit-exact
 *      against the CPU's recomputation from the GPU's own r and s (no near-tie excuse; ntie counts, informational,
 *      the codes a correctly rounded s would have changed).
 *   2. The CPU's codes (not the GPU's) feed exact int64 accumulators acc = W_t . xq_cpu, so a wrong intermediate
 *      fails both 1 and 2 (at fuse=1, a workgroup whose private codes differ from workgroup 0's fails 2: its rows'
 *      acc are off; tests/kernels/layer_fused_offbyone.comp); then every y as bitnet_linear checks it, with the GPU's
 *      s (checked in 1):
 *      |y - acc gamma'/s| <= 6.01 u |acc gamma'/s| and, while |acc| < 2^20, rint(y s / gamma') == acc exactly.
 *   Every output is compared at every size. At most M N K <= the oracle's budget (run --oracle-budget, default
 *   2^27) the scalar loop computes every acc; above it the exact integer fast reference (cpu/fastref.h) does, and
 *   the scalar loop recomputes tokens 0 and M-1 in full plus random outputs, which must agree exactly.
 * Inputs: W codes and gamma' as bitnet_linear draws them (rows 0, 1, 2 all 0, +1, -1 when N >= 8); x ~ N(0, 1)
 * with bitnet_aquant's edge tokens when M >= 3 (token 0 all zero: s = 127/eps; token 1 one outlier 1000); the
 * RMSNorm weight g ~ U[0.5, 1.5].
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "bitnet_layout.glsl"
#include "bitnet_linear.h"
#include "bitnet_quant.h"
#include "check.h"
#include "fastref.h"
#include "vkb.h"

#define BUDGET (1u << 27)
#define U32 0x1p-24
#define AQ_WG 256u

enum { B_W, B_GAMMA, B_XQ, B_S, B_Y, B_X, B_G, B_R, B_COUNT };
_Static_assert(B_COUNT <= VKB_MAX_BUFS, "the layer's buffers fit one case");

typedef struct ly_priv {
    size_t n, k, m, kp;
    int fast;       /* M N K above the oracle's budget */
    size_t *pick;   /* fast: outputs (t N + row) the scalar loop recomputes */
    size_t npick;
    double *r_ref;  /* double RMSNorm factor per token */
    double r_bound;
} ly_priv;

/* The default of fuse= and, fused, of pre= (pre=0: the first weight loads issue after the quantizer, not before). Measured on an H200 (tests/gpu/sweep_layer2.txt, 2026-11-23, us, rotate /
 * cold): 13824x2560 parts (aquant + gemv_sg) 11.00 / 17.73, fuse=0 12.28 / 16.86, fuse=1 10.96 / 17.06, fuse=1 pre=0
 * 9.68 / 13.09; 2560x6912 parts 10.16 / 20.07, fuse=0 12.23 / 19.01, fuse=1 8.77 / 16.06, fuse=1 pre=0 8.54 / 15.62.
 * Fused, every workgroup quantizes its mt tokens again, so the fused dispatch loses as m grows: at m = 1 .. 4 and 8,
 * fused (16 subgroups, below) against two dispatches, rotate, on an H200 (tests/gpu/sweep_s39e.txt, 2026-11-30, us):
 * 13824x2560 8.95 12.87 16.73 21.33 47.39 against 12.38 14.41 16.45 20.23 29.16; 2560x6912 7.62 10.85 13.70 16.36
 * (m=8: its codes do not fit) against 12.35 13.35 14.40 14.83 18.35; cold the same way. So fused by default up to m = 2,
 * where it wins on both shapes. A case whose codes do not fit shared memory falls back to fuse=0 and says so. */
#define LAYER_FUSE_M 2
#define LAYER_PRE 0
/* fuse=1's workgroups: at least this many subgroups, so that fewer workgroups repeat the quantizer. 16 (512 invocations
 * on 32-wide subgroups) against 8: m=1 13824x2560 8.89-8.95 / 9.70 against 9.60-9.61 / 10.27-10.34 us rotate / cold,
 * 2560x6912 7.68 / 8.42-8.48 against 8.24-8.31 / 8.99-9.02, m=2 -6% and -9% rotate, m=8 the same (sweep_s39e.txt). */
#define LAYER_FUSE_SG 16u

static int layer_plan(vkb_case *c)
{
    const char *sh = vkb_param_str(c, "shape", NULL);
    long long n = -1, k = -1;
    if (sh && sscanf(sh, "%lldx%lld", &n, &k) != 2) n = -1;
    if (!sh) n = vkb_param_int(c, "n", -1), k = vkb_param_int(c, "k", -1);
    int64_t m = vkb_param_int(c, "m", 1), fuse = vkb_param_int(c, "fuse", m <= LAYER_FUSE_M), pre = vkb_param_int(c, "pre", LAYER_PRE);
    size_t kp = k > 0 ? BITNET_PAD((size_t)k) : 0, nv = (kp / 4 + AQ_WG - 1) / AQ_WG;
    int fuse_set = vkb_param_str(c, "fuse", NULL) != NULL;
    if (n <= 0 || k <= 0 || m <= 0 || (double)(m > n ? m : n) * (double)kp >= 2147483648.0 || (double)n * (double)m >= 4294967296.0)
        return vkb_error(c, "n=%lld k=%lld m=%lld: expected positive sizes, products < 2^31", n, k, (long long)m);
    if ((fuse != 0 && fuse != 1) || (pre != 0 && pre != 1) || (!fuse && vkb_param_str(c, "pre", NULL)))
        return vkb_error(c, "fuse=%lld pre=%lld: expected fuse 0|1, pre 0|1 (pre= applies to fuse=1 only)", (long long)fuse,
                         (long long)pre);
    const char *var = vkb_param_str(c, "variant", "dot");
    if (strcmp(var, "dot") && strcmp(var, "int")) return vkb_error(c, "variant=%s: expected dot or int (the GEMV's)", var);
    snprintf(c->variant, sizeof(c->variant), "%s", var);
    snprintf(c->dtype, sizeof(c->dtype), "i2i8");
    if (!strcmp(var, "dot") && !c->caps.int_dot)
        return vkb_skip(c, "device lacks shaderIntegerDotProduct (variant=int is the plain path)");
    ly_priv *p = calloc(1, sizeof(*p));
    if (!p) return vkb_error(c, "out of memory");
    c->priv = p;
    p->n = (size_t)n, p->k = (size_t)k, p->m = (size_t)m, p->kp = kp;
    p->fast = (double)m * (double)n * (double)k > (c->oracle_budget > 0 ? c->oracle_budget : (double)BUDGET);
    vkb_add_buf(c, "w", VKB_U32, p->n * kp / BITNET_WORD, VKB_IN);
    vkb_add_buf(c, "gamma", VKB_F32, 1, VKB_IN);
    vkb_add_buf(c, "xq", VKB_I8, p->m * kp, VKB_OUT);
    vkb_add_buf(c, "s", VKB_F32, p->m, VKB_OUT);
    vkb_add_buf(c, "y", VKB_F32, p->m * p->n, VKB_OUT);
    vkb_add_buf(c, "x", VKB_F32, p->m * p->k, VKB_IN);
    vkb_add_buf(c, "g", VKB_F32, p->k, VKB_IN);
    if (vkb_add_buf(c, "r", VKB_F32, p->m, VKB_OUT) != B_R) return vkb_error(c, "buffer table overflow");
    /* The GEMV, bitnet_linear's batch-1 default at every m (its tunables through the same axes); fuse=1 defaults to
     * workgroups of >= LAYER_FUSE_SG subgroups (above). */
    uint32_t sg = c->caps.subgroup ? c->caps.subgroup : 32, spec[8], gx = 0, gy = 0;
    size_t nc = kp / BITNET_GROUP;
    uint32_t fsg = LAYER_FUSE_SG;
    while (fsg > 4 && fsg * sg > c->caps.max_wg_size) fsg /= 2;  /* within the device's workgroup size */
    int e = bitnet_sg_plan(c, n, m, nc, sg, fuse ? fsg : 4, spec, &gx, &gy);
    if (e) return e;
    /* fuse=1's shared memory: the codes of MT tokens (NI uvec4 each), gemv_sg's partials, the reductions' slots */
    uint32_t ni = (uint32_t)(kp / 16), ne = (ni + spec[0] - 1) / spec[0];
    double shared = 16.0 * spec[2] * ni + 4.0 * (spec[1] * spec[2] * 16 + 64 + spec[2]);
    if (fuse && !fuse_set && shared > c->caps.max_shared) {  /* the default falls back to two dispatches */
        fuse = 0;
        if ((e = bitnet_sg_plan(c, n, m, nc, sg, 4, spec, &gx, &gy))) return e;
        size_t l = strlen(c->note);
        snprintf(c->note + l, sizeof(c->note) - l, "; fuse=0: the codes of mt=%u tokens need %.0f B of shared memory, "
                 "this device has %u", spec[2], shared, c->caps.max_shared);
    }
    if (!fuse && nv > 32)
        return vkb_error(c, "k=%lld at fuse=0: at most %u (the quantizer's row lives in registers)", k, 32 * 4 * AQ_WG);
    if (gx > c->caps.max_wg_count_x || gy > 65535)
        return vkb_skip(c, "grid %ux%u exceeds this device's maxComputeWorkGroupCount (%u x 65535)", gx, gy, c->caps.max_wg_count_x);
    vkb_dispatch *d;
    char shader[48];
    size_t len;
    if (fuse) {
        /* One dispatch (kernels/bitnet_layer_fused.glsl): NI = Kp/16 items of 16 codes per token, NE per invocation,
         * whose x and g (2 x 4 NE vec4) sit in registers. */
        if (ne > 8)
            return vkb_error(c, "k=%lld wg=%u: %u items of 16 activations per invocation, at most 8 (their x and g live in "
                             "registers): raise wg", k, spec[0], ne);
        if (shared > c->caps.max_shared)
            return vkb_skip(c, "k=%lld mt=%u: %.0f bytes of shared memory (codes of %u tokens), this device has %u", k,
                            spec[2], shared, spec[2], c->caps.max_shared);
        spec[5] = ni, spec[6] = ne, spec[7] = (uint32_t)pre;
        p->r_bound = bitnet_aquant_r_bound(c->caps.subgroup, 4 * (size_t)ne, spec[0]);
        snprintf(shader, sizeof(shader), "bitnet_layer_fused_%s", var);
        if (!(d = vkb_add_dispatch(c, vkb_add_pipe(c, shader, 8, spec), gx, gy, 1))) return vkb_error(c, "out of memory");
        d->push.n = (uint32_t)n, d->push.m = (uint32_t)m, d->push.k = (uint32_t)k, d->push.p0 = (uint32_t)nc;
        d->push.eps = 1e-5f;  /* RMSNorm eps of BitNet 2B4T */
        len = strlen(c->note);
        snprintf(c->note + len, sizeof(c->note) - len, "; fused: %u workgroups each quantize (ne=%u pre=%lld)", gx * gy, ne,
                 (long long)pre);
    } else {
        /* 1: the quantizer, one workgroup per token; 2: the GEMV */
        uint32_t aspec[3] = {AQ_WG, 1u, (uint32_t)nv}, g[3];
        p->r_bound = bitnet_aquant_r_bound(c->caps.subgroup, nv, AQ_WG);
        vkb_grid_1d(c, (uint64_t)m, 1, g);
        if (!(d = vkb_add_dispatch(c, vkb_add_pipe(c, "bitnet_layer_aquant", 3, aspec), g[0], g[1], 1)))
            return vkb_error(c, "out of memory");
        d->push.m = (uint32_t)m, d->push.k = (uint32_t)k, d->push.eps = 1e-5f;  /* RMSNorm eps of BitNet 2B4T */
        snprintf(shader, sizeof(shader), "bitnet_gemv_sg_%s", var);
        if (!(d = vkb_add_dispatch(c, vkb_add_pipe(c, shader, 5, spec), gx, gy, 1))) return vkb_error(c, "out of memory");
        d->push.n = (uint32_t)n, d->push.m = (uint32_t)m, d->push.k = (uint32_t)k, d->push.p0 = (uint32_t)nc;
        len = strlen(c->note);
        snprintf(c->note + len, sizeof(c->note) - len, "; aquant rmsnorm -> gemv_sg; xq, s round trip not in bytes");
    }
    double nk = (double)n * (double)k, mk = (double)m * (double)k, mn = (double)m * (double)n;
    c->bytes = nk / 4 + 4 + 4 * mk + 4.0 * (double)k + 4 * mn + 4.0 * (double)m;
    c->flops = 2.0 * (double)m * nk + 6.0 * mk;  /* GEMV + RMSNorm and quantization (bitnet_aquant's count) */
    return 0;
}

static void layer_fill(vkb_case *c, gsl_rng *r)
{
    ly_priv *p = c->priv;
    bitnet_fill_codes(r, c->buf[B_W].host, p->n, p->k, p->kp);
    ((float *)c->buf[B_GAMMA].host)[0] = (float)(0.01 + 0.04 * gsl_rng_uniform(r));
    float *x = c->buf[B_X].host;
    vkb_fill_normal_f32(r, x, p->m * p->k, 1.0);
    if (p->m >= 3) {
        memset(x, 0, p->k * sizeof(*x));  /* all-zero token: the eps guards */
        x[p->k + p->k / 2] = 1000.0f;     /* one outlier: the rest of the token quantizes to ~0 */
    }
    vkb_fill_uniform_f32(r, c->buf[B_G].host, p->k, 0.5, 1.5);
    if (!p->fast) return;
    size_t total = p->m * p->n, budget = (size_t)(BUDGET / p->k);
    p->npick = 2 * p->n + (budget > 2 * p->n + 64 ? budget - 2 * p->n : 64);
    int all = p->npick >= total;
    if (all) p->npick = total;
    if (!(p->pick = malloc(p->npick * sizeof(*p->pick)))) return;
    for (size_t i = 0; i < p->npick; i++)
        p->pick[i] = all || i < p->n ? i : i < 2 * p->n ? (p->m - 1) * p->n + (i - p->n) : (size_t)gsl_rng_uniform_int(r, total);
    size_t len = strlen(c->note);
    snprintf(c->note + len, sizeof(c->note) - len, "; every output vs a fast reference, oracle-checked on %s%.0zu%s",
             all ? "all" : "tokens 0, M-1 + ", all ? 0 : p->npick - 2 * p->n, all ? "" : " random");
}

static double layer_ref(vkb_case *c)
{
    ly_priv *p = c->priv;
    if ((p->r_ref = malloc(p->m * sizeof(*p->r_ref))))
        bitnet_aquant_r_ref(c->buf[B_X].host, p->m, p->k, c->disp[0].push.eps, p->r_ref);
    return 1.0;  /* the accumulators need the GPU's scales: the check computes them (from the CPU's codes) */
}

/* The scalar oracle: accumulator of output o = t N + row from the codes xq (row stride Kp). */
static int64_t layer_acc(const ly_priv *p, const uint32_t *w, const int8_t *xq, size_t o)
{
    size_t t = o / p->n, row = o % p->n;
    int64_t a = 0;
    for (size_t j = 0; j < p->k; j++) {
        uint32_t word = w[(row * p->kp + j) / BITNET_WORD];
        int code = (int)((word >> BITNET_SHIFT(j)) & 3u);
        a += (int64_t)(code - 1) * xq[t * p->kp + j];
    }
    return a;
}

static void layer_check(vkb_case *c, vkb_check *r)
{
    ly_priv *p = c->priv;
    const uint32_t *w = c->buf[B_W].host;
    const float *y = c->buf[B_Y].host, *s = c->buf[B_S].host;
    size_t total = p->m * p->n;
    int8_t *xq = malloc(p->m * p->kp);
    int64_t *acc = malloc(total * sizeof(*acc));
    vkb_refcmp cmp = {0};
    double g = ((const float *)c->buf[B_GAMMA].host)[0], secs = 0;
    bitnet_aq_rows a = {c->buf[B_X].host, c->buf[B_G].host, c->buf[B_R].host, s, c->buf[B_XQ].host, p->r_ref,
                        p->r_bound, p->m, p->k};
    vkb_check_begin(r, "exact", 0);
    if (!xq || !acc || !p->r_ref || (p->fast && !p->pick) || bitnet_aquant_check_rows(&a, r, xq) ||
        (p->fast && vkb_fast_ternary_acc(w, xq, p->n, p->k, p->kp, p->m, acc, &secs))) {
        snprintf(r->detail, sizeof(r->detail), "reference ran out of memory");
        r->metric = NAN;
        vkb_check_end(r);
        free(xq), free(acc);
        return;
    }
    if (!p->fast)
        for (size_t o = 0; o < total; o++) acc[o] = layer_acc(p, w, xq, o);
    else
        for (size_t i = 0; i < p->npick; i++)  /* integers: the two must be equal */
            vkb_refcmp_add(&cmp, "acc", p->pick[i] / p->n, p->pick[i] % p->n, (double)acc[p->pick[i]],
                           (double)layer_acc(p, w, xq, p->pick[i]), 0);
    /* the indices after the mark are outputs t N + row, before it codes */
    bitnet_check_y(r, y, acc, s, g, p->m, p->n, "y (index t N + row)");
    vkb_check_ref(r, p->fast ? &cmp : NULL, p->fast ? "exact-int+scalar-sample" : "scalar");
    free(xq), free(acc);
}

static void layer_release(vkb_case *c)
{
    ly_priv *p = c->priv;
    if (p) free(p->pick), free(p->r_ref);
}

VKB_KERNEL(bitnet_layer) = {"bitnet_layer", "n,k,m,shape,fuse,pre,rows,mt,wg,gpt,split,lanes",
                            "BitLinear layer: RMSNorm + per-token int8 (bitnet_aquant rmsnorm), then the GEMV (bitnet_linear "
                            "gemv_sg); fuse=1 one dispatch (the default at m <= 2, where mt tokens' codes fit shared memory), fuse=0 two (variant dot|int: "
                            "the GEMV's)",
                            layer_plan, layer_fill, layer_ref, layer_check, layer_release, "dot, int"};
