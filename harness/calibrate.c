/* calibrate.c — measure the ceilings with the registry's own kernels (copy, readbw, writebw, noop,
 * and the matmul family's peak_fma / peak_coopmat when built), each checked before it is timed;
 * best sample wins, as in STREAM. Cached per device + driver + UUID so a run does not pay for it. */
#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>

#include "fsutil.h"
#include "calibrate.h"
#include "check.h"
#include "registry.h"
#include "suite.h"
#include "version.h"

#define CAL_FORMAT "vkbench-calibration-v1"

enum { K_BYTES, K_FLOPS, K_DISPATCH };
/* Bandwidth arrays ("n=" with no value): 2^28 elements (1 GiB) on a GPU (>= 4x its L2, STREAM's rule);
 * 2^24 (64 MiB) on a CPU device, 2x a 32 MiB L3 (4x would double make test's calibration time); halved
 * until they fit. The peak kernels keep their
 * own defaults on a GPU; on a CPU device a smaller one (lavapipe: the default takes 30 s a call). */
static const struct {
    const char *key, *kernel, *cpu_params;
    int kind;
} items[VKB_CAL_N] = {
    [VKB_CAL_COPY] = {"copy_Bps", "copy", "n=", K_BYTES},
    [VKB_CAL_READ] = {"read_Bps", "readbw", "n=", K_BYTES},
    [VKB_CAL_WRITE] = {"write_Bps", "writebw", "n=", K_BYTES},
    [VKB_CAL_FMA] = {"fma_flop_per_s", "peak_fma", "n=16384 iters=64", K_FLOPS},
    [VKB_CAL_COOPMAT] = {"coopmat_flop_per_s", "peak_coopmat", "n=256 iters=64", K_FLOPS},
    [VKB_CAL_DISPATCH] = {"dispatch_s", "noop", "", K_DISPATCH},
};

/* Parameters from "key=value ..." text; "n=" alone means the bandwidth array size. */
static void set_params(vkb_case *c, const char *text, int gpu)
{
    char buf[128], *save = NULL;
    snprintf(buf, sizeof(buf), "%s", text);
    for (char *tok = strtok_r(buf, " ", &save); tok && c->nparams < VKB_MAX_PARAMS; tok = strtok_r(NULL, " ", &save)) {
        char *eq = strchr(tok, '=');
        if (!eq || (gpu && eq[1])) continue;  /* on a GPU only the array size is set */
        *eq = 0;
        int64_t v = 0;
        if (!eq[1]) {
            uint64_t n = gpu ? (1u << 28) : (1u << 24);
            while (n * 4 * 2 > c->caps.device_mem / 2 || n * 4 + VKB_GUARD_BYTES > c->caps.max_range) n /= 2;
            v = (int64_t)n;
        } else if (vkb_parse_int(eq + 1, &v)) continue;
        vkb_param *p = &c->params[c->nparams++];
        snprintf(p->key, sizeof(p->key), "%s", tok);
        snprintf(p->val, sizeof(p->val), "%lld", (long long)v);
        p->ival = v;
        p->dval = (double)v;
        p->isint = p->isnum = 1;
    }
}

static double now_s(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + 1e-9 * (double)ts.tv_nsec;
}

/* Plan, fill, check once, then time: the best per-call time of batches over min_time GPU seconds.
 * Returns the rate (or seconds per dispatch), or NAN with why. */
static double measure_item(vkb_vk *v, const vkb_caps *caps, int item, double floor_s, char *why, size_t len)
{
    const vkb_kernel *k = vkb_registry_find(items[item].kernel);
    vkb_case c;
    vkb_check chk;
    vkb_gpu *g = NULL;
    gsl_rng *rng = NULL;
    double best = NAN, t1;
    char guard[200];
    memset(&c, 0, sizeof(c));
    memset(&chk, 0, sizeof(chk));
    if (!k) {
        snprintf(why, len, "kernel '%s' is not in this build", items[item].kernel);
        return NAN;
    }
    c.k = k;
    c.caps = *caps;
    c.seed = 0x5eedca1ull + (uint64_t)item;
    set_params(&c, items[item].cpu_params, !caps->is_cpu);
    if (k->plan(&c) < 0 || c.error[0]) {
        snprintf(why, len, "%s: plan failed: %s", k->name, c.error);
        goto done;
    }
    if (c.skip[0]) {
        snprintf(why, len, "%s: SKIP: %s", k->name, c.skip);
        goto done;
    }
    for (int i = 0; i < c.nbuf; i++)
        if (!(c.buf[i].host = calloc(c.buf[i].count ? c.buf[i].count : 1, vkb_dtype_size(c.buf[i].type)))) {
            snprintf(why, len, "%s: out of host memory", k->name);
            goto done;
        }
    if (!(rng = gsl_rng_alloc(gsl_rng_mt19937))) goto done;
    gsl_rng_set(rng, (unsigned long)c.seed);
    if (k->fill) k->fill(&c, rng);
    if (k->reference) k->reference(&c);
    g = vkb_gpu_prepare(v, &c);
    if (!g || vkb_gpu_upload(g) || vkb_gpu_run(g, 1, 0, &t1) || vkb_gpu_download(g, guard, sizeof(guard))) {
        snprintf(why, len, "%s: %s", k->name, vkb_vk_error(v));
        goto done;
    }
    k->check(&c, &chk);
    if (!chk.pass || guard[0]) {
        snprintf(why, len, "%s failed its check: %s", k->name, guard[0] ? guard : chk.detail);
        goto done;
    }
    /* Batches long enough to leave the timer floor far behind; a 0.3 s warm-up lets clocks ramp. */
    double target = items[item].kind == K_DISPATCH ? (caps->is_cpu ? 2e-2 : 2e-3) : fmax(1e-4, 50 * floor_s);
    uint32_t batch = (uint32_t)fmin(fmax(ceil(target / fmax(t1, 1e-9)), 1), 10000);
    double warm = caps->is_cpu ? 0.02 : 0.3, min_time = caps->is_cpu ? 0.2 : 0.5, busy = 0, wall0 = now_s();
    int n = 0;
    for (;;) {
        double t;
        if (vkb_gpu_run(g, batch, 0, &t)) {
            snprintf(why, len, "%s: %s", k->name, vkb_vk_error(v));
            best = NAN;
            goto done;
        }
        busy += t;
        if (busy < warm) continue;
        if (isnan(best) || t / batch < best) best = t / batch;
        if ((++n >= 10 && busy >= warm + min_time) || now_s() - wall0 > 10) break;
    }
    if (items[item].kind != K_DISPATCH) {
        double amount = items[item].kind == K_BYTES ? c.bytes : c.flops;
        best = amount > 0 ? amount / best : NAN;
        if (isnan(best)) snprintf(why, len, "%s declares no %s", k->name, items[item].kind == K_BYTES ? "bytes" : "FLOPs");
    }
done:
    vkb_gpu_release(g);
    if (rng) gsl_rng_free(rng);
    vkb_case_free(&c);
    return best;
}

static void cache_path(const vkb_devinfo *d, const char *root, char *path, size_t len, char *key, size_t klen)
{
    char dev[64], drv[64];
    vkb_slug(d->name, dev, sizeof(dev));
    vkb_slug(d->driver, drv, sizeof(drv));
    snprintf(path, len, "%s/.calibration/%s-%s-%.8s.txt", root, dev, drv, d->uuid);
    snprintf(key, klen, "%s | %s | %s | %s", CAL_FORMAT, d->name, d->driver, d->uuid);
}

/* Read a cache file written for exactly this key. Returns 0 when every item was found. */
static int cache_read(const char *path, const char *key, vkb_calib *c)
{
    FILE *f = fopen(path, "r");
    char line[1024];
    int found = 0, keyok = 0;
    if (!f) return -1;
    while (fgets(line, sizeof(line), f)) {
        line[strcspn(line, "\n")] = 0;
        char *colon = strchr(line, ':');
        if (!colon) continue;
        *colon = 0;
        const char *val = colon[1] == ' ' ? colon + 2 : colon + 1;
        if (!strcmp(line, "key")) keyok = !strcmp(val, key);
        if (!strcmp(line, "measured")) snprintf(c->source, sizeof(c->source), "cache %s (measured %s)", path, val);
        for (int i = 0; i < VKB_CAL_N; i++) {
            if (strcmp(line, items[i].key)) continue;
            char *end;
            found |= 1 << i;
            if (!strncmp(val, "NA", 2)) {
                c->val[i] = NAN;
                snprintf(c->why[i], sizeof(c->why[i]), "%s", val[2] == ' ' && val[3] == '(' ? val + 4 : val);
                size_t l = strlen(c->why[i]);
                if (l && c->why[i][l - 1] == ')') c->why[i][l - 1] = 0;
            } else if ((c->val[i] = strtod(val, &end)), end == val) found &= ~(1 << i);
        }
    }
    fclose(f);
    return keyok && found == (1 << VKB_CAL_N) - 1 ? 0 : -1;
}

static void print_items(FILE *f, const vkb_calib *c, const char *prefix)
{
    for (int i = 0; i < VKB_CAL_N; i++) {
        if (isnan(c->val[i])) fprintf(f, "%s%s: NA (%s)\n", prefix, items[i].key, c->why[i]);
        else fprintf(f, "%s%s: %.17g\n", prefix, items[i].key, c->val[i]);
    }
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
    print_items(f, c, "");
    fclose(f);
    snprintf(c->source + u, sizeof(c->source) - u, " %s, commit %s; cached in %s", date, vkb_version_commit(), path);
}

int vkb_calib_get(vkb_vk *v, const char *root, int force, int skip, const vkb_nvml *nv, double timer_floor,
                  vkb_calib *c, char *err, size_t errlen)
{
    char path[700], key[600];
    vkb_caps caps;
    (void)err, (void)errlen;
    memset(c, 0, sizeof(*c));
    c->timer_floor_s = timer_floor;
    c->theo_Bps = NAN;
    if (nv) c->theo_Bps = vkb_nvml_peak_Bps(nv, c->theo_why, sizeof(c->theo_why));
    else snprintf(c->theo_why, sizeof(c->theo_why), "no NVML device (memory clock and bus width unknown)");
    if (!root) root = "results";
    cache_path(vkb_vk_info(v), root, path, sizeof(path), key, sizeof(key));
    if (skip) {
        for (int i = 0; i < VKB_CAL_N; i++) c->val[i] = NAN, snprintf(c->why[i], sizeof(c->why[i]), "calibration skipped (--no-calibrate)");
        snprintf(c->source, sizeof(c->source), "skipped (--no-calibrate)");
        return 0;
    }
    if (!force && cache_read(path, key, c) == 0) return 0;
    vkb_vk_caps(v, &caps);
    snprintf(c->source, sizeof(c->source), "measured");
    for (int i = 0; i < VKB_CAL_N; i++) {
        c->why[i][0] = 0;
        c->val[i] = measure_item(v, &caps, i, timer_floor, c->why[i], sizeof(c->why[i]));
    }
    cache_write(root, path, key, c);
    return 0;
}

void vkb_calib_print(FILE *f, const vkb_calib *c)
{
    fprintf(f, "calibration: %s\n", c->source);
    print_items(f, c, "ceiling_");   /* the timer floor is the run's own: run.txt prints it once, with the timer */
    if (isnan(c->theo_Bps)) fprintf(f, "theoretical_Bps: NA (%s)\n", c->theo_why);
    else fprintf(f, "theoretical_Bps: %.6g (2 x NVML max memory clock x bus width / 8)\n", c->theo_Bps);
}

/* util_why: one "name: reason" per NA ceiling the row could have used. */
static void why_add(vkb_result *r, const char *name, const char *why)
{
    size_t u = strlen(r->util_why);
    snprintf(r->util_why + u, sizeof(r->util_why) - u, "%s%s: %s", u ? "; " : "", name, why);
}

void vkb_calib_row(const vkb_calib *c, vkb_result *r)
{
    static const int bw[3] = {VKB_CAL_COPY, VKB_CAL_READ, VKB_CAL_WRITE}, fl[2] = {VKB_CAL_FMA, VKB_CAL_COOPMAT};
    double *bw_peak[3] = {&r->copy_Bps, &r->read_Bps, &r->write_Bps};
    double *bw_frac[3] = {&r->bw_frac_copy, &r->bw_frac_read, &r->bw_frac_write};
    double *fl_peak[2] = {&r->fma_flop_per_s, &r->coopmat_flop_per_s};
    double *fl_frac[2] = {&r->flop_frac_fma, &r->flop_frac_coopmat};
    r->util_why[0] = 0;
    for (int i = 0; i < 3; i++) {
        *bw_peak[i] = c->val[bw[i]];
        *bw_frac[i] = r->bw_Bps / c->val[bw[i]];
        if (isnan(c->val[bw[i]]) && !isnan(r->bw_Bps)) why_add(r, items[bw[i]].key, c->why[bw[i]]);
    }
    for (int i = 0; i < 2; i++) {
        *fl_peak[i] = c->val[fl[i]];
        *fl_frac[i] = r->flop_per_s / c->val[fl[i]];
        if (isnan(c->val[fl[i]]) && !isnan(r->flop_per_s)) why_add(r, items[fl[i]].key, c->why[fl[i]]);
    }
    r->theoretical_Bps = c->theo_Bps;
    r->bw_frac_theoretical = r->bw_Bps / c->theo_Bps;
    if (isnan(c->theo_Bps) && !isnan(r->bw_Bps)) why_add(r, "theoretical_Bps", c->theo_why);
    r->dispatch_s = c->val[VKB_CAL_DISPATCH];
    r->timer_floor_s = c->timer_floor_s;
    double floor_s = fmax(c->timer_floor_s, isnan(r->dispatch_s) ? 0 : r->dispatch_s);
    r->below_floor = r->time_median_s < 10 * floor_s;
}
