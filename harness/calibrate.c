/* calibrate.c — measure the ceilings with the registry's own kernels (copy, readbw, writebw, noop,
 * and the matmul family's peak_fma / peak_coopmat when built), each checked before it is timed;
 * best sample wins, as in STREAM. Cached per device + driver + UUID so a run does not pay for it, except
 * the copy ceiling, refreshed at the start of every run (a cached figure taken at a noisy moment made
 * rows read 109-114% of copy). The matrix-unit ceiling is the best of a sweep (probe_sweep). */
#include <errno.h>
#include <math.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "fsutil.h"
#include "calibrate.h"
#include "check.h"
#include "registry.h"
#include "stats.h"
#include "suite.h"
#include "version.h"

/* v2: the matrix-unit figure comes from the configuration sweep; v1 caches held the weak single probe.
 * v3: bandwidth arrays of 2^26 elements on a GPU (v2: 2^28).
 * v4: readbw issues 4 loads an invocation before summing them (v3's one at a time read 6.6% under the H200's
 * read ceiling: reference/bandwidth.c). */
#define CAL_FORMAT "vkbench-calibration-v4"

enum { K_BYTES, K_FLOPS, K_DISPATCH, K_SWEEP };
/* Bandwidth arrays ("n=" with no value): 2^26 elements (256 MiB) on a GPU (>= 4x a 64 MiB L2, STREAM's rule;
 * 2^28 filled and uploaded 1 GiB an array for each of three items on every fresh machine);
 * 2^24 (64 MiB) on a CPU device, 2x a 32 MiB L3 (4x would double make test's calibration time); halved
 * until they fit. The peak kernels keep their own defaults on a GPU; on a CPU device a smaller one
 * (lavapipe: the default takes 30 s a call). */
static const struct {
    const char *kernel, *gpu_params, *cpu_params;
    int kind;
} items[VKB_CAL_N] = {
    [VKB_CAL_COPY] = {"copy", "n=", "n=", K_BYTES},
    [VKB_CAL_READ] = {"readbw", "n=", "n=", K_BYTES},
    [VKB_CAL_WRITE] = {"writebw", "n=", "n=", K_BYTES},
    [VKB_CAL_FMA] = {"peak_fma", "", "n=16384 iters=64", K_FLOPS},
    [VKB_CAL_COOPMAT] = {"peak_coopmat", "", "", K_SWEEP},
    [VKB_CAL_DISPATCH] = {"noop", "", "", K_DISPATCH},
};

/* The copy refresh: 2^26 elements (256 MiB per array, 4x a 64 MiB L2) on a GPU, aiming at 0.3 s for the fill,
 * upload, checked run and samples (run.txt records what it took); the calibration's own size on a CPU device. */
#define REFRESH_GPU_ELEMS (1ull << 26)
#define REFRESH_SAMPLES_GPU 9
#define REFRESH_SAMPLES_CPU 5
#define MAX_SAMPLES 512

static uint64_t bw_elems(const vkb_caps *caps, int refresh)
{
    uint64_t n = caps->is_cpu ? (1u << 24) : refresh ? REFRESH_GPU_ELEMS : (1u << 26);
    while (n * 4 * 2 > caps->device_mem / 2 || n * 4 + VKB_GUARD_BYTES > caps->max_range) n /= 2;
    return n;
}

/* Parameters from "key=value ..." text: integers, or words (type=f16f32, shape=16x8x16); "n=" alone means
 * the bandwidth array size. */
static void set_params(vkb_case *c, const char *text, int refresh)
{
    char buf[256], *save = NULL;
    snprintf(buf, sizeof(buf), "%s", text);
    for (char *tok = strtok_r(buf, " ", &save); tok && c->nparams < VKB_MAX_PARAMS; tok = strtok_r(NULL, " ", &save)) {
        char *eq = strchr(tok, '=');
        if (!eq) continue;
        *eq = 0;
        vkb_param *p = &c->params[c->nparams++];
        int64_t v = 0;
        snprintf(p->key, sizeof(p->key), "%s", tok);
        if (!eq[1]) v = (int64_t)bw_elems(&c->caps, refresh);
        else if (vkb_parse_int(eq + 1, &v)) {
            snprintf(p->val, sizeof(p->val), "%s", eq + 1);
            continue;
        }
        snprintf(p->val, sizeof(p->val), "%lld", (long long)v);
        p->ival = v;
        p->dval = (double)v;
        p->isint = p->isnum = 1;
    }
}

void vkb_probe_close(vkb_probe *p)
{
    vkb_gpu_release(p->g);
    vkb_case_free(&p->c);
    memset(p, 0, sizeof(*p));
}

/* fast_copy (the copy refresh only): fill with small integers and check b == a byte for byte, because a
 * 2^26-element random fill and scalar reference alone would take longer than the refresh's budget. */
int vkb_probe_open(vkb_probe *p, vkb_vk *v, const vkb_caps *caps, const char *kernel, const char *params,
                   uint64_t seed, int fast_copy, char *why, size_t len)
{
    const vkb_kernel *k = vkb_registry_find(kernel);
    vkb_check chk;
    gsl_rng *rng = NULL;
    char guard[200];
    int ret = -1;
    memset(p, 0, sizeof(*p));
    memset(&chk, 0, sizeof(chk));
    if (!k) {
        snprintf(why, len, "kernel '%s' is not in this build", kernel);
        return -1;
    }
    p->c.k = k;
    p->c.caps = *caps;
    p->c.seed = seed;
    set_params(&p->c, params, fast_copy);
    if (k->plan(&p->c) < 0 || p->c.error[0]) {
        snprintf(why, len, "%s: plan failed: %s", k->name, p->c.error);
        goto done;
    }
    if (p->c.skip[0]) {
        snprintf(why, len, "%s: SKIP: %s", k->name, p->c.skip);
        goto done;
    }
    for (int i = 0; i < p->c.nbuf; i++)
        if (!(p->c.buf[i].host = vkb_host_calloc(p->c.buf[i].count ? p->c.buf[i].count : 1,
                                                 vkb_dtype_size(p->c.buf[i].type)))) {
            snprintf(why, len, "%s: out of host memory", k->name);
            goto done;
        }
    if (fast_copy) {
        float *a = p->c.buf[0].host;
        for (size_t i = 0; i < p->c.buf[0].count; i++) a[i] = (float)(i & 0xFFFFFu);
    } else {
        if (!(rng = gsl_rng_alloc(gsl_rng_mt19937))) goto done;
        gsl_rng_set(rng, (unsigned long)p->c.seed);
        if (k->fill) k->fill(&p->c, rng);
        if (k->reference) k->reference(&p->c);
    }
    p->g = vkb_gpu_prepare(v, &p->c);
    if (!p->g || vkb_gpu_upload(p->g) || vkb_gpu_run(p->g, 1, 0, &p->t1) || vkb_gpu_download(p->g, 1, guard, sizeof(guard))) {
        snprintf(why, len, "%s: %s", k->name, vkb_vk_error(v));
        goto done;
    }
    if (fast_copy) {
        chk.pass = !memcmp(p->c.buf[1].host, p->c.buf[0].host, p->c.buf[0].count * sizeof(float));
        snprintf(chk.detail, sizeof(chk.detail), "b differs from a");
    } else k->check(&p->c, &chk);
    if (!chk.pass || guard[0]) {
        snprintf(why, len, "%s failed its check: %s", k->name, guard[0] ? guard : chk.detail);
        goto done;
    }
    ret = 0;
done:
    if (rng) gsl_rng_free(rng);
    if (ret) vkb_probe_close(p);
    return ret;
}

/* Time batches of `batch_s` GPU seconds or more: per-call seconds into t[] after `warm` seconds of
 * warm-up (clocks ramp), until >= min_n samples and warm + min_time busy seconds, max_n samples, or
 * max_wall host seconds. Returns the sample count, or -1 with why. */
static int probe_time(vkb_probe *p, vkb_vk *v, double batch_s, double warm, double min_time, int min_n, int max_n,
                      double max_wall, double *t, char *why, size_t len)
{
    uint32_t batch = (uint32_t)fmin(fmax(ceil(batch_s / fmax(p->t1, 1e-9)), 1), 10000);
    double busy = 0, wall0 = vkb_now_s();
    int n = 0;
    while (n < max_n) {
        double s;
        if (vkb_gpu_run(p->g, batch, 0, &s)) {
            snprintf(why, len, "%s: %s", p->c.k->name, vkb_vk_error(v));
            return -1;
        }
        busy += s;
        if (busy < warm && vkb_now_s() - wall0 < max_wall) continue;
        t[n++] = s / batch;
        if ((n >= min_n && busy >= warm + min_time) || vkb_now_s() - wall0 > max_wall) break;
    }
    return n;
}

static double min_of(const double *x, int n)
{
    double m = NAN;
    for (int i = 0; i < n; i++)
        if (isnan(m) || x[i] < m) m = x[i];
    return m;
}

/* A figure from the fastest call: amount / seconds (or the seconds themselves for the dispatch item). */
static double rate_of(const vkb_probe *p, int kind, double best_s, char *why, size_t len)
{
    if (kind == K_DISPATCH) return best_s;
    double amount = kind == K_BYTES ? p->c.bytes : p->c.flops;
    if (!(amount > 0)) {
        snprintf(why, len, "%s declares no %s", p->c.k->name, kind == K_BYTES ? "bytes" : "FLOPs");
        return NAN;
    }
    return amount / best_s;
}

/* The full measurement of one item: 0.3 s warm-up, 0.5 s of batches (0.02 / 0.2 s on a CPU device). */
static double measure_item(vkb_vk *v, const vkb_caps *caps, int item, double floor_s, char *why, size_t len)
{
    vkb_probe p;
    double t[MAX_SAMPLES], best = NAN;
    const char *params = caps->is_cpu ? items[item].cpu_params : items[item].gpu_params;
    if (vkb_probe_open(&p, v, caps, items[item].kernel, params, 0x5eedca1ull + (uint64_t)item, 0, why, len)) return NAN;
    double batch_s = items[item].kind == K_DISPATCH ? (caps->is_cpu ? 2e-2 : 2e-3) : fmax(1e-4, 50 * floor_s);
    int n = probe_time(&p, v, batch_s, caps->is_cpu ? 0.02 : 0.3, caps->is_cpu ? 0.2 : 0.5, 10, MAX_SAMPLES, 10, t,
                       why, len);
    if (n > 0) best = rate_of(&p, items[item].kind, min_of(t, n), why, len);
    vkb_probe_close(&p);
    return best;
}

/* ---------------- the matrix-unit sweep ---------------- */

static void probe_line(vkb_calib *c, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
static void probe_line(vkb_calib *c, const char *fmt, ...)
{
    size_t u = strlen(c->probe);
    va_list ap;
    va_start(ap, fmt);
    if (u + 2 < sizeof(c->probe)) vsnprintf(c->probe + u, sizeof(c->probe) - u - 1, fmt, ap);
    va_end(ap);
    u = strlen(c->probe);
    if (u + 1 < sizeof(c->probe)) c->probe[u] = '\n', c->probe[u + 1] = 0;
}

/* The probe's shaders, by component types (vkb_cm_shape's VkComponentTypeKHR values). */
static const char *cm_probe_type(const vkb_cm_shape *s)
{
    if (s->a != s->b || s->c != s->d) return NULL;
    if (s->a == 0 && s->c == 1) return "f16f32";
    if (s->a == 0 && s->c == 0) return "f16f16";
    if (s->a == 3 && s->c == 5) return "s8s32";
    return NULL;
}

typedef struct cm_cfg {
    const char *type;
    uint32_t m, n, k, gm, gn, sgs;
    double rate;
    char why[200];
} cm_cfg;

/* Accumulator grids (fragments per subgroup) tried for every shape at 4 subgroups per workgroup, then the best
 * fp16-input configuration at every other workgroup size. More independent accumulators hide the matrix unit's
 * latency; more subgroups per SM hide it across warps. (Every grid at every size, 196 configurations on an H200,
 * took ~40 s: the workgroup size moved no shape's rate by more than 1.5%, the grid by up to 45%.) */
static const uint32_t sweep_grid[][2] = {{1, 1}, {1, 2}, {2, 2}, {2, 4}, {4, 2}, {4, 4}};
static const uint32_t sweep_sgs[] = {1, 2, 8};
#define SWEEP_SGS 4

/* Time one configuration. Every configuration does the same work per subgroup (2048 matrix operations) over
 * 2^19 subgroups (tens of waves on a datacenter GPU, so the last wave's tail costs about 1%); final: the
 * full measurement, else a short screening one. */
static void cm_measure(vkb_vk *v, const vkb_caps *caps, int emu, cm_cfg *g, double batch_s, double warm, int final)
{
    char params[200];
    double t[MAX_SAMPLES];
    vkb_probe p;
    uint32_t iters = 1024 / (g->gm * g->gn);
    snprintf(params, sizeof(params), "impl=%s type=%s shape=%ux%ux%u grid=%ux%u sgs=%u n=%u iters=%u", emu ? "emu" : "mm",
             g->type, g->m, g->n, g->k, g->gm, g->gn, g->sgs, caps->is_cpu ? 64u : 1u << 19, caps->is_cpu ? 4u : iters);
    g->rate = NAN;
    g->why[0] = 0;
    if (vkb_probe_open(&p, v, caps, "peak_coopmat", params, 0xc0a7ull, 0, g->why, sizeof(g->why))) return;
    int n = probe_time(&p, v, batch_s, warm, final ? (caps->is_cpu ? 0.2 : 0.5) : (caps->is_cpu ? 0.01 : 0.05),
                       final ? 10 : 3, MAX_SAMPLES, final ? 10 : 2, t, g->why, sizeof(g->why));
    if (n > 0) g->rate = rate_of(&p, K_FLOPS, min_of(t, n), g->why, sizeof(g->why));
    vkb_probe_close(&p);
}

static void cm_report(vkb_calib *c, const char *tag, const char *impl, const cm_cfg *g)
{
    if (isnan(g->rate))
        probe_line(c, "%s: %s %s %ux%ux%u grid %ux%u sgs %u: NA (%s)", tag, impl, g->type, g->m, g->n, g->k, g->gm, g->gn,
                   g->sgs, g->why);
    else
        probe_line(c, "%s: %s %s %ux%ux%u grid %ux%u sgs %u: %.6g FLOP/s", tag, impl, g->type, g->m, g->n, g->k, g->gm,
                   g->gn, g->sgs, g->rate);
}

static int cmp_rate_desc(const void *a, const void *b)
{
    double x = ((const cm_cfg *)a)->rate, y = ((const cm_cfg *)b)->rate;
    if (isnan(x)) return isnan(y) ? 0 : 1;
    if (isnan(y)) return -1;
    return x < y ? 1 : x > y ? -1 : 0;
}

/* The configurations to try: every subgroup-scope NV configuration the device reports that a probe shader
 * exists for, times every grid and workgroup size (a line for each one left out, and why); on a CPU device a
 * few through the emulated shader. Returns how many were written to cfg (at most max). */
static int sweep_list(const vkb_caps *caps, vkb_calib *c, cm_cfg *cfg, int max)
{
    static const cm_cfg emu_cfg[] = {{"f16f32", 16, 8, 16, 1, 1, 1, 0, ""}, {"f16f32", 16, 8, 16, 2, 2, 2, 0, ""},
                                     {"s8s32", 8, 8, 32, 1, 2, 1, 0, ""}};
    int ncfg = 0, khr_twins = 0, nkhr = 0;
    if (caps->is_cpu) {
        memcpy(cfg, emu_cfg, sizeof(emu_cfg));
        probe_line(c, "coopmat_probe: a CPU device has no matrix units: %d configurations through the emulated shader "
                      "(plain arithmetic) test the probe; their figures are never a ceiling", (int)(sizeof(emu_cfg) / sizeof(emu_cfg[0])));
        return (int)(sizeof(emu_cfg) / sizeof(emu_cfg[0]));
    }
    if (!caps->coopmat_nv) probe_line(c, "coopmat_probe: none (device lacks VK_NV_cooperative_matrix)");
    for (int i = 0; i < caps->ncm; i++) {
        const vkb_cm_shape *s = &caps->cm[i];
        const char *type = cm_probe_type(s);
        int dup = 0, twin = 0;
        for (int j = 0; j < caps->ncm; j++) {
            const vkb_cm_shape *o = &caps->cm[j];
            int same = o->m == s->m && o->n == s->n && o->k == s->k && o->a == s->a && o->b == s->b && o->c == s->c &&
                       o->d == s->d;
            dup |= same && j < i && o->khr == s->khr;
            twin |= same && s->khr && !o->khr;
        }
        if (dup) continue;
        nkhr += s->khr, khr_twins += twin;
        if (twin) continue;  /* a KHR configuration the NV extension also offers: probed through NV */
        if (s->khr || !type) {
            probe_line(c, "coopmat_probe: %s %ux%ux%u A %s B %s C %s D %s: not probed (%s)", s->khr ? "KHR" : "NV", s->m,
                       s->n, s->k, vkb_cm_type_name(s->a), vkb_cm_type_name(s->b), vkb_cm_type_name(s->c),
                       vkb_cm_type_name(s->d),
                       s->khr ? "offered by VK_KHR_cooperative_matrix only: Debian 12's glslang 12 compiles "
                                "GL_NV_cooperative_matrix, not GL_KHR_cooperative_matrix"
                              : "no probe shader for these component types");
            continue;
        }
        /* The ceiling's type gets every grid; the others, reported beside it, the three smallest (on an H200 their
         * best grid was among these, within 1% of the best of all six). */
        size_t ngrid = strcmp(type, "f16f32") ? 3 : sizeof(sweep_grid) / sizeof(sweep_grid[0]);
        for (size_t gi = 0; gi < ngrid && ncfg < max; gi++)
            cfg[ncfg++] = (cm_cfg){type, s->m, s->n, s->k, sweep_grid[gi][0], sweep_grid[gi][1], SWEEP_SGS, 0, ""};
    }
    if (nkhr)
        probe_line(c, "coopmat_probe: %d VK_KHR_cooperative_matrix configurations, %d of them also offered by the NV "
                      "extension and probed through it (glslang 12 has no GL_KHR_cooperative_matrix)", nkhr, khr_twins);
    return ncfg;
}

/* The sweep: every configuration of sweep_list screened briefly, each figure on its own line; the three best
 * fp16-input fp32-accumulate ones measured in full. The ceiling is the best of those (fp32 accumulation is
 * what the matmul coopmat kernels use; an fp16-accumulate rate can be twice as high on GeForce parts, and
 * int8 counts integer operations): their best screened figures get lines of their own. On a CPU device the
 * emulated configurations test the probe and the ceiling stays NA. */
static double probe_sweep(vkb_vk *v, const vkb_caps *caps, double floor_s, vkb_calib *c, char *why, size_t len)
{
    enum { MAXCFG = VKB_MAX_CM * 6 + 3 };
    static const char *const types[] = {"f16f32", "f16f16", "s8s32"};
    cm_cfg *cfg = calloc(MAXCFG, sizeof(*cfg));
    int emu = caps->is_cpu;
    double best = NAN, batch_s = fmax(1e-4, 50 * floor_s);
    const char *impl = emu ? "emulated" : "NV";
    if (!cfg) {
        snprintf(why, len, "out of memory");
        return NAN;
    }
    int ncfg = sweep_list(caps, c, cfg, MAXCFG);
    for (int i = 0, warmed = 0; i < ncfg; i++) {  /* the first configuration that runs lets the clocks ramp */
        cm_measure(v, caps, emu, &cfg[i], batch_s, warmed ? 0.0 : emu ? 0.02 : 0.3, 0);
        warmed |= !isnan(cfg[i].rate);
        cm_report(c, "coopmat_probe", impl, &cfg[i]);
    }
    qsort(cfg, (size_t)ncfg, sizeof(*cfg), cmp_rate_desc);
    for (int i = 0, top = -1; i < ncfg && top < 0; i++) {  /* the best fp16-input grid at the other workgroup sizes */
        if (isnan(cfg[i].rate) || strcmp(cfg[i].type, "f16f32")) continue;
        top = i;
        for (size_t si = 0; si < sizeof(sweep_sgs) / sizeof(sweep_sgs[0]) && ncfg < MAXCFG; si++) {
            cm_cfg *g = &cfg[ncfg++];
            *g = cfg[top];
            g->sgs = sweep_sgs[si];
            cm_measure(v, caps, emu, g, batch_s, 0.0, 0);
            cm_report(c, "coopmat_probe", impl, g);
        }
    }
    qsort(cfg, (size_t)ncfg, sizeof(*cfg), cmp_rate_desc);
    for (int i = 0, nfinal = 0; i < ncfg && nfinal < 3; i++) {
        if (isnan(cfg[i].rate) || strcmp(cfg[i].type, "f16f32")) continue;
        nfinal++;
        cm_measure(v, caps, emu, &cfg[i], batch_s, emu ? 0.02 : 0.3, 1);
        cm_report(c, "coopmat_probe_final", impl, &cfg[i]);
        if (!emu && !isnan(cfg[i].rate) && (isnan(best) || cfg[i].rate > best)) best = cfg[i].rate;
    }
    for (size_t ti = 0; ti < sizeof(types) / sizeof(types[0]); ti++) {
        char tag[48];
        snprintf(tag, sizeof(tag), "coopmat_probe_best_%s", types[ti]);
        for (int i = 0; i < ncfg; i++)
            if (!isnan(cfg[i].rate) && !strcmp(cfg[i].type, types[ti])) {
                cm_report(c, tag, impl, &cfg[i]);
                break;
            }
    }
    if (isnan(best))
        snprintf(why, len, "%s", emu ? "CPU device: no matrix units (the emulated probe is a test, not a ceiling)"
                                 : !caps->coopmat_nv ? "device lacks VK_NV_cooperative_matrix (fp16 matrix units)"
                                 : ncfg ? "no fp16-input fp32-accumulate configuration ran (coopmat_probe lines say why)"
                                        : "the device reports no NV fp16 cooperative-matrix configuration");
    free(cfg);
    return best;
}

/* ---------------- the per-run copy refresh ---------------- */

static void copy_refresh(vkb_vk *v, const vkb_caps *caps, double floor_s, vkb_calib *c)
{
    vkb_calib_refresh *r = &c->refresh;
    double t[MAX_SAMPLES], rate[MAX_SAMPLES], t0 = vkb_now_s();
    int want = caps->is_cpu ? REFRESH_SAMPLES_CPU : REFRESH_SAMPLES_GPU;
    vkb_probe p;
    memset(r, 0, sizeof(*r));
    c->copy_calibrated = c->val[VKB_CAL_COPY];
    if (vkb_probe_open(&p, v, caps, "copy", "n=", 0x5eedca1ull, 1, r->why, sizeof(r->why))) return;
    /* Samples of >= 5 ms of GPU time each (a copy of 2^26 elements moves 512 MiB: 0.18 ms at the 3.0 TB/s an
     * H100 SXM copy was measured at): the spread then says how steady the device
     * is, not how coarse the timer is. */
    int n = probe_time(&p, v, fmax(caps->is_cpu ? 1e-4 : 5e-3, 50 * floor_s), caps->is_cpu ? 0 : 0.02, 0, want, want, 2,
                       t, r->why, sizeof(r->why));
    if (n > 0) {
        vkb_summary s;
        for (int i = 0; i < n; i++) rate[i] = p.c.bytes / t[i];
        vkb_stats_summarise(rate, (size_t)n, &s);
        r->n = n;
        r->elems = p.c.buf[0].count;
        r->best = s.max, r->median = s.median, r->q1 = s.q1, r->q3 = s.q3, r->min = s.min;
        c->val[VKB_CAL_COPY] = r->best;
        c->why[VKB_CAL_COPY][0] = 0;
    }
    vkb_probe_close(&p);
    r->wall_s = vkb_now_s() - t0;
}

/* ---------------- the cache ---------------- */

static void cache_path(const vkb_devinfo *d, const char *root, char *path, size_t len, char *key, size_t klen)
{
    char dev[64], drv[64];
    vkb_slug(d->name, dev, sizeof(dev));
    vkb_slug(d->driver, drv, sizeof(drv));
    snprintf(path, len, "%s/.calibration/%s-%s-%.8s.txt", root, dev, drv, d->uuid);
    snprintf(key, klen, "%s | %s | %s | %s", CAL_FORMAT, d->name, d->driver, d->uuid);
}

/* One ceiling's text from the cache: a positive finite number, the whole field (every ceiling is a rate or a
 * time), or "NA (reason)" with a reason. Returns 0, or -1 with what is wrong in bad. */
static int cache_value(const char *val, double *v, char *why, size_t wlen, char *bad, size_t blen)
{
    size_t l = strlen(val);
    if (!strncmp(val, "NA", 2)) {
        if (strncmp(val, "NA (", 4) || l < 6 || val[l - 1] != ')') {
            snprintf(bad, blen, "'%s' is neither a number nor NA (reason)", val);
            return -1;
        }
        *v = NAN;
        snprintf(why, wlen, "%.*s", (int)(l - 5), val + 4);
        return 0;
    }
    char *end;
    errno = 0;
    double x = strtod(val, &end);
    if (end == val || *end || errno == ERANGE || !(x > 0) || isinf(x)) {
        snprintf(bad, blen, "'%s' is not a positive finite number", val);
        return -1;
    }
    *v = x;
    why[0] = 0;
    return 0;
}

/* Read a cache file written for exactly this key. Returns 0 when every item was found and valid; -1 when the file
 * is missing or written for another key (bad empty: measure, as for a new device); -1 with "path:line: ..." in bad
 * when it is this device's but corrupt (edited, cut short): never used, measured again. */
static int cache_read(const char *path, const char *key, vkb_calib *c, char *bad, size_t blen)
{
    FILE *f = fopen(path, "r");
    char line[1024], what[300] = "";
    int found = 0, keyok = 0;
    long ln = 0, badln = 0;
    bad[0] = 0;
    if (!f) return -1;
    snprintf(c->source, sizeof(c->source), "cache %s (no measured line)", path);
    while (fgets(line, sizeof(line), f)) {
        ln++;
        line[strcspn(line, "\n")] = 0;
        if (!strncmp(line, "coopmat_probe", 13)) {
            probe_line(c, "%s", line);
            continue;
        }
        char *colon = strchr(line, ':');
        if (!colon) continue;
        *colon = 0;
        const char *val = colon[1] == ' ' ? colon + 2 : colon + 1;
        if (!strcmp(line, "key")) keyok = !strcmp(val, key);
        if (!strcmp(line, "measured")) snprintf(c->source, sizeof(c->source), "cache %s (measured %s)", path, val);
        for (int i = 0; i < VKB_CAL_N && !badln; i++) {
            if (strcmp(line, vkb_calib_keys[i])) continue;
            char b[240];
            if (found & 1 << i) snprintf(what, sizeof(what), "%s: a second %s line", line, line), badln = ln;
            else if (cache_value(val, &c->val[i], c->why[i], sizeof(c->why[i]), b, sizeof(b)))
                snprintf(what, sizeof(what), "%s: %s", line, b), badln = ln;
            found |= 1 << i;
        }
    }
    fclose(f);
    if (!keyok) {
        c->probe[0] = 0;
        return -1;
    }
    for (int i = 0; i < VKB_CAL_N && !badln; i++)
        if (!(found & 1 << i)) snprintf(what, sizeof(what), "no %s line", vkb_calib_keys[i]), badln = ln + 1;
    if (!badln) return 0;
    snprintf(bad, blen, "%s:%ld: %s", path, badln, what);
    return -1;
}

static void cache_write(const char *root, const char *path, const char *key, vkb_calib *c)
{
    char dir[600], date[32];
    snprintf(dir, sizeof(dir), "%s/.calibration", root);
    time_t now = time(NULL);
    struct tm tm;
    gmtime_r(&now, &tm);
    strftime(date, sizeof(date), "%Y-%m-%dT%H:%M:%SZ", &tm);
    size_t u = strlen(c->source);
    FILE *f = NULL;
    if ((mkdir(root, 0777) && errno != EEXIST) || (mkdir(dir, 0777) && errno != EEXIST) || !(f = fopen(path, "w"))) {
        snprintf(c->source + u, sizeof(c->source) - u, "; cache not written: %s: %s", path, strerror(errno));
        return;
    }
    fprintf(f, "# %s: the ceilings vkbench measured on this device; delete or --recalibrate to measure again\n"
               "key: %s\nmeasured: %s, commit %s\n", CAL_FORMAT, key, date, vkb_version_commit());
    vkb_calib_print_items(f, c, "");
    fputs(c->probe, f);
    fclose(f);
    snprintf(c->source + u, sizeof(c->source) - u, " %s, commit %s; cached in %s", date, vkb_version_commit(), path);
}

/* Theoretical FMA and matrix-unit rates: SMs from the driver, the max SM clock from NVML (devpeak.h). */
static void theoretical_flops(vkb_vk *v, const vkb_caps *caps, const vkb_nvml *nv, vkb_calib *c)
{
    const vkb_devinfo *d = vkb_vk_info(v);
    char clock_why[200] = "no NVML device (the max SM clock comes from NVML)";
    vkb_devpeak_in in = {caps->is_cpu, d->vendor, d->device_id, d->sm_count, NAN, clock_why};
    if (nv) in.clock_Hz = vkb_nvml_max_sm_Hz(nv, clock_why, sizeof(clock_why));
    for (int k = 0; k < VKB_PEAK_N; k++)
        c->theo_flops[k] = vkb_devpeak_flops(&in, k, c->theo_flops_why[k], sizeof(c->theo_flops_why[k]));
}

int vkb_calib_get(vkb_vk *v, const char *root, int force, int skip, const vkb_nvml *nv, double timer_floor,
                  vkb_calib *c, char *err, size_t errlen)
{
    char path[700], key[600];
    vkb_caps caps;
    (void)err, (void)errlen;
    memset(c, 0, sizeof(*c));
    vkb_vk_caps(v, &caps);
    c->timer_floor_s = timer_floor;
    c->theo_Bps = NAN;
    c->copy_calibrated = NAN;
    if (nv) c->theo_Bps = vkb_nvml_peak_Bps(nv, c->theo_why, sizeof(c->theo_why));
    else snprintf(c->theo_why, sizeof(c->theo_why), "no NVML device (memory clock and bus width unknown)");
    theoretical_flops(v, &caps, nv, c);
    if (!root) root = "results";
    cache_path(vkb_vk_info(v), root, path, sizeof(path), key, sizeof(key));
    if (skip) {
        for (int i = 0; i < VKB_CAL_N; i++) c->val[i] = NAN, snprintf(c->why[i], sizeof(c->why[i]), "calibration skipped (--no-calibrate)");
        snprintf(c->source, sizeof(c->source), "skipped (--no-calibrate)");
        snprintf(c->refresh.why, sizeof(c->refresh.why), "calibration skipped (--no-calibrate)");
        return 0;
    }
    char bad[900] = "";
    if (force || cache_read(path, key, c, bad, sizeof(bad)) != 0) {
        c->probe[0] = 0;
        if (bad[0]) {  /* a number in it would reach every row's utilization: say so, measure again */
            fprintf(stderr, "%svkbench: calibration cache %s: not used, measuring the ceilings again\n",
                    isatty(2) ? "\n" : "", bad);   /* after run.c's "calibrating..." on a terminal */
            snprintf(c->source, sizeof(c->source), "measured (the cache was corrupt, not used: %s)", bad);
        } else snprintf(c->source, sizeof(c->source), "measured");
        for (int i = 0; i < VKB_CAL_N; i++) {
            c->why[i][0] = 0;
            if (items[i].kind == K_SWEEP) c->val[i] = probe_sweep(v, &caps, timer_floor, c, c->why[i], sizeof(c->why[i]));
            else c->val[i] = measure_item(v, &caps, i, timer_floor, c->why[i], sizeof(c->why[i]));
            /* Cached only as a positive finite figure or NA with its reason (cache_value reads nothing else). */
            if (!isnan(c->val[i]) && !(c->val[i] > 0 && !isinf(c->val[i]))) {
                snprintf(c->why[i], sizeof(c->why[i]), "the measurement gave %g, not a positive finite figure", c->val[i]);
                c->val[i] = NAN;
            } else if (isnan(c->val[i]) && !c->why[i][0])
                snprintf(c->why[i], sizeof(c->why[i]), "the measurement gave no figure");
        }
        cache_write(root, path, key, c);
    }
    copy_refresh(v, &caps, timer_floor, c);
    return 0;
}
