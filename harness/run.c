/* run.c — the driver. For each case: plan, inputs from the case seed, timed reference, GPU run on
 * poisoned outputs with guards, check (before any timing), adaptive timed samples, statistics,
 * one CSV row written and flushed at once so an interrupted run keeps every finished row. */
#include <errno.h>
#include <pthread.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>
#include <gsl/gsl_statistics_double.h>
#include <gsl/gsl_version.h>
#include <vulkan/vulkan.h>

#include "calibrate.h"
#include "check.h"
#include "fsutil.h"
#include "precompile.h"
#include "prefetch.h"
#include "cpu.h"
#include "fastref.h"
#include "registry.h"
#include "result.h"
#include "run.h"
#include "rundir.h"
#include "slowdown.h"
#include "stats.h"
#include "telrow.h"
#include "timing.h"
#include "topo.h"
#include "version.h"

volatile int vkb_run_interrupted;

/* The last two measured CPU baselines of different work of one kernel and dtype (key): work (FLOPs, else bytes),
 * seconds of one run, seconds of the rest (setup, the check of its output), and the case's parameters. */
typedef struct cpu_point {
    double work, run, rest;
    char params[120];
} cpu_point;

typedef struct cpu_rate {
    char key[64];
    cpu_point pt[2];   /* oldest first */
    int n;
} cpu_rate;

typedef struct ctx {
    vkb_vk *v;
    const vkb_devinfo *info;
    vkb_caps caps;
    vkb_topo topo;
    const vkb_run_opts *o;
    FILE *csv, *samples;
    char date[32];
    double copy_Bps, timer_floor;
    int64_t case_id;
    size_t total_cases, done_cases;
    double started;
    vkb_run_totals *tot;
    vkb_calib cal;        /* ceilings (calibrate.h) */
    vkb_telrow tr;        /* sensors and pinning (telrow.h) */
    struct job *jobs;     /* every selected case, in run order (total_cases of them) */
    vkb_prefetch *pf;     /* prepares the next cases while the GPU times this one */
    vkb_precompile *pc;   /* the run's distinct pipelines, compiled ahead on idle threads (precompile.h) */
    char pc_line[300];    /* run.txt's precompile line */
    const char *blas_caller;  /* run.txt's fast_ref_blas_caller line: who calls OpenBLAS for the fast references */
    size_t reached;       /* the case the main thread is on (atomic: the precompile threads read it) */
    int workers;          /* prefetch threads (0: every case prepared inline, --jobs 0) */
    vkb_result *est;      /* --established: the rows of that run */
    long nest;
    vkb_timing tm;        /* the time phase's state: warm-up, clock check, samples (timing.h) */
    double last_progress;
    int pw;               /* width of the PARAMS column */
    struct {
        double wall_s, setup_s, ref_s, ref_wait_s, check_s, timing_s, energy_s, cpu_fast_s, cpu_wait_s, overhead_s;
    } sum;                /* the per-row time columns, summed for run.txt */
    double *overheads;    /* overhead_s of each row, for its median and 90th percentile */
    size_t noverhead;
    vkb_rundir rd;        /* the locked run directory and the device's registry of live runs (rundir.h) */
    size_t interrupted_rows;   /* rows recorded as INTERRUPTED: the case in flight when the run was stopped */
    int write_errno;      /* first failed flush or fsync of a row: the run reports it instead of claiming success */
    cpu_rate cpu_rate[128];  /* one per kernel and dtype: the default suite has ~45 */
    int64_t dev_ahead;    /* device bytes the workers hold for cases not yet run (atomic; at most device_mem / 4,
                           * so that the case being timed keeps room for its rotate-mode copies) */
    int ncpu_rate;
} ctx;

static uint64_t hash_str(uint64_t h, const char *s)
{
    while (*s) h = (h ^ (unsigned char)*s++) * 0x100000001b3ull;
    return h;
}

/* Seconds in the unit that keeps the figure in plain notation (reports keep one notation per column). */
static const char *fmt_dur(double s, char *buf, size_t len)
{
    if (s >= 1) snprintf(buf, len, "%.2f s", s);
    else if (s >= 1e-3) snprintf(buf, len, "%.1f ms", s * 1e3);
    else if (s >= 1e-6) snprintf(buf, len, "%.1f us", s * 1e6);
    else snprintf(buf, len, "%.1f ns", s * 1e9);
    return buf;
}

static const char *fmt_bytes(double b, char *buf, size_t len)
{
    if (b >= 1073741824.0) snprintf(buf, len, "%.1f GiB", b / 1073741824.0);
    else if (b >= 1048576.0) snprintf(buf, len, "%.1f MiB", b / 1048576.0);
    else snprintf(buf, len, "%.0f B", b);
    return buf;
}

static int axis_known(const vkb_kernel *k, const char *key)
{
    if (!strcmp(key, "mode") || !strcmp(key, "variant")) return 1;
    size_t n = strlen(key);
    for (const char *p = k->axes; p && *p;) {
        const char *e = strchr(p, ',');
        size_t len = e ? (size_t)(e - p) : strlen(p);
        if (len == n && strncmp(p, key, n) == 0) return 1;
        p = e ? e + 1 : p + len;
    }
    return 0;
}

int vkb_run_check_suite(const vkb_suite *s, char *err, size_t errlen)
{
    for (int i = 0; i < s->nline; i++) {
        const vkb_line *l = &s->line[i];
        const vkb_kernel *k = vkb_registry_find(l->kernel);
        if (!k) {
            snprintf(err, errlen, "%s:%d: unknown kernel '%s' (see `vkbench list`)", l->file, l->lineno, l->kernel);
            return -1;
        }
        for (int a = 0; a < l->naxes; a++) {
            if (!axis_known(k, l->axis[a].key)) {
                snprintf(err, errlen, "%s:%d: kernel '%s' has no axis '%s' (accepted: %s, mode, variant)", l->file,
                         l->lineno, k->name, l->axis[a].key, k->axes && *k->axes ? k->axes : "none");
                return -1;
            }
            if (!strcmp(l->axis[a].key, "mode"))
                for (int j = 0; j < l->axis[a].nval; j++)
                    if (strcmp(l->axis[a].val[j], "hot") && strcmp(l->axis[a].val[j], "cold") &&
                        strcmp(l->axis[a].val[j], "rotate")) {
                        snprintf(err, errlen, "%s:%d: mode '%s': expected hot, cold or rotate", l->file, l->lineno,
                                 l->axis[a].val[j]);
                        return -1;
                    }
        }
    }
    return 0;
}

/* A fresh case of kernel k on a device with caps: the line's values at pick as parameters (their text in
 * text), its mode axis (if any) in mode, dtype f32 until the plan says otherwise. */
static void case_init(vkb_case *c, const vkb_kernel *k, const vkb_caps *caps, const vkb_line *l, const int *pick,
                      char *mode, size_t mlen, char *text, size_t tlen)
{
    memset(c, 0, sizeof(*c));
    c->k = k;
    c->caps = *caps;
    snprintf(c->dtype, sizeof(c->dtype), "f32");
    text[0] = 0;
    for (int a = 0; a < l->naxes; a++) {
        const char *key = l->axis[a].key, *val = l->axis[a].val[pick[a]];
        size_t used = strlen(text);
        snprintf(text + used, tlen - used, "%s%s=%s", used ? " " : "", key, val);
        if (!strcmp(key, "mode")) {
            snprintf(mode, mlen, "%s", val);
            continue;
        }
        if (c->nparams >= VKB_MAX_PARAMS) continue;
        vkb_param *p = &c->params[c->nparams++];
        snprintf(p->key, sizeof(p->key), "%s", key);
        snprintf(p->val, sizeof(p->val), "%s", val);
        p->isint = vkb_parse_int(val, &p->ival) == 0;
        char *end;
        p->dval = strtod(val, &end);
        p->isnum = p->isint ? (p->dval = (double)p->ival, 1) : (*end == 0 && end != val);
        if (!strcmp(key, "variant")) snprintf(c->variant, sizeof(c->variant), "%s", val);
    }
}

/* Every case the run would take, planned before anything runs or is written: a parameter no plan accepts
 * (n=0, n=2^40, dtype=f64, a missing size) is bad input, reported with file:line and exit 3 at once rather
 * than as an ERROR row after an hour of other cases. A filter that selects nothing is bad input too. */
static int preflight(const vkb_suite *s, const vkb_run_opts *o, const vkb_caps *caps, vkb_precompile **pc, char *err,
                     size_t errlen)
{
    size_t selected = 0, bad = 0, shown = 0, used = 0;
    const size_t reserve = 64;   /* for the "... and N more" line */
    err[0] = 0;
    for (int i = 0; i < s->nline; i++) {
        const vkb_line *l = &s->line[i];
        const vkb_kernel *k = vkb_registry_find(l->kernel);
        if (!k || (o->filter && !strstr(k->name, o->filter))) continue;
        size_t nc = vkb_line_ncases(l);
        for (size_t j = 0; j < nc; j++) {
            int pick[VKB_SUITE_MAX_AXES];
            char mode[8] = "hot", params[VKB_STR_LEN], msg[1024];
            vkb_case c;
            vkb_line_case(l, j, pick);
            case_init(&c, k, caps, l, pick, mode, sizeof(mode), params, sizeof(params));
            selected++;
            int rc = k->plan(&c);
            const char *want = NULL;   /* variant= as the line gave it: run as that, or refused (never ignored) */
            for (int a = 0; a < l->naxes; a++)
                if (!strcmp(l->axis[a].key, "variant")) want = l->axis[a].val[pick[a]];
            size_t wl = want ? strlen(want) : 0;
            int none = !k->variants || !strcmp(k->variants, "default");   /* `vkbench list`: "variants: default" */
            if (want && !c.error[0] && rc >= 0 && (none ? strcmp(want, "default") != 0
                                                        : strncmp(c.variant, want, wl) || (c.variant[wl] && c.variant[wl] != ':')))
                snprintf(c.error, sizeof(c.error), "variant=%s: %s", want, none ? "this kernel has no variants"
                         : "not a variant this kernel runs by that name (vkbench list names them; an axis may pick it)");
            if (!c.error[0] && rc >= 0 && !c.skip[0]) vkb_precompile_add(pc, &c, selected - 1);  /* no memory: fewer */
            if (c.error[0] || rc < 0) {
                bad++;
                int w = snprintf(msg, sizeof(msg), "%s%s:%d: %s %s: %s", used ? "\n" : "", l->file, l->lineno, k->name,
                                 params[0] ? params : "(no parameters)", c.error[0] ? c.error : "plan failed");
                if (shown < 8 && w > 0 && used + (size_t)w + reserve < errlen) {
                    memcpy(err + used, msg, (size_t)w + 1);
                    used += (size_t)w;
                    shown++;
                }
            }
            vkb_case_free(&c);
        }
    }
    if (bad > shown) snprintf(err + used, errlen - used, "\n... and %zu more cases with bad parameters", bad - shown);
    if (!bad && !selected)
        snprintf(err, errlen, o->filter ? "no case matches --filter '%s'" : "the suite has no cases%s",
                 o->filter ? o->filter : "");
    return bad || !selected ? -1 : 0;
}

/* Reasons a planned case cannot run here: SKIP with the reason (written into why). */
static int fits(const ctx *x, const vkb_case *c, const vkb_line *l, char *why, size_t len)
{
    double total = 0;
    char a[32], b[32];
    for (int i = 0; i < c->nbuf; i++) {
        double bytes = (double)c->buf[i].count * (double)vkb_dtype_size(c->buf[i].type);
        if (c->buf[i].count == 0) {
            snprintf(why, len, "buffer '%s' has zero elements", c->buf[i].name);
            return 0;
        }
        if (bytes + VKB_GUARD_BYTES > (double)x->caps.max_range) {
            snprintf(why, len, "buffer '%s' needs %s + %u guard bytes > maxStorageBufferRange %.0f bytes", c->buf[i].name,
                     fmt_bytes(bytes, a, sizeof(a)), VKB_GUARD_BYTES, (double)x->caps.max_range);
            return 0;
        }
        total += bytes;
    }
    if (total > 0.8 * (double)x->caps.device_mem) {
        snprintf(why, len, "footprint %s > 80%% of device memory %s", fmt_bytes(total, a, sizeof(a)),
                 fmt_bytes((double)x->caps.device_mem, b, sizeof(b)));
        return 0;
    }
    if (x->caps.is_cpu && l->opt.cpu_max_bytes > 0 && total > l->opt.cpu_max_bytes) {
        snprintf(why, len, "footprint %s > cpu_max_bytes %s (CPU-device profile, %s)", fmt_bytes(total, a, sizeof(a)),
                 fmt_bytes(l->opt.cpu_max_bytes, b, sizeof(b)), l->file);
        return 0;
    }
    return 1;
}

static void row_identity(const ctx *x, const vkb_line *l, vkb_result *r)
{
    snprintf(r->date_utc, sizeof(r->date_utc), "%s", x->date);
    snprintf(r->commit, sizeof(r->commit), "%s", vkb_version_commit());
    snprintf(r->host, sizeof(r->host), "%s", x->topo.host);
    snprintf(r->cpu_model, sizeof(r->cpu_model), "%s", x->topo.cpu_model);
    snprintf(r->device, sizeof(r->device), "%s", x->info->name);
    snprintf(r->device_type, sizeof(r->device_type), "%s", x->info->type);
    snprintf(r->driver, sizeof(r->driver), "%s", x->info->driver);
    snprintf(r->device_uuid, sizeof(r->device_uuid), "%s", x->info->uuid);
    snprintf(r->suite, sizeof(r->suite), "%s", l->file);
    r->line = l->lineno;
    r->seed = (int64_t)x->o->seed;
    r->copy_Bps = x->copy_Bps;  /* on every row, timed or not (a timed row's vkb_calib_row sets it again) */
    if (isnan(r->copy_Bps)) snprintf(r->util_why, sizeof(r->util_why), "copy_Bps: %s", x->cal.why[VKB_CAL_COPY]);
    r->timer_floor_s = x->timer_floor;
    r->gate_delta = l->opt.gate_delta > 0 ? l->opt.gate_delta : NAN;  /* compare's floor for this line */
    snprintf(r->recheck, sizeof(r->recheck), "NA: not timed");          /* until case_recheck runs */
}

/* --- one case's way through the run ------------------------------------------------------------------
 * prepare (plan, host buffers, inputs from the case seed, timed reference) runs on a prefetch worker, or
 * inline with --jobs 0; then on the main thread: the optimized CPU baseline (the CPU to itself), the GPU
 * validation run and check, the timed samples (which double as the energy window when they can), the
 * row. Each phase's wall time goes into the row: where the harness's own time goes is measured like any
 * other figure. */

enum { JOB_RUN, JOB_DONE };  /* go on to the GPU, or the row is already decided (SKIP/ERROR) */
#define E2E_REPEAT_S 0.05     /* end-to-end runs: best of up to 3 while those taken sum to less than this */

typedef struct job {
    const vkb_line *l;
    int pick[VKB_SUITE_MAX_AXES];
    vkb_case c;
    vkb_result r;
    char mode[8];
    int state;
    int established;     /* correctness established by --established DIR: no reference, no check (TIMED) */
    double t_plan;       /* seconds in plan() and the fit checks */
    int64_t bytes;       /* the case's buffers (job_size) */
    vkb_gpu *g;          /* buffers, pipelines and staged inputs, made by the worker that filled the inputs; its
                          * bytes count in ctx.dev_ahead until the main thread takes it */
} job;

static void set_status(vkb_result *r, const char *status, const char *reason)
{
    snprintf(r->status, sizeof(r->status), "%s", status);
    snprintf(r->reason, sizeof(r->reason), "%s", reason);
}

/* A PASS row of the --established run for this very case (same commit, not dirty, same seed and case). */
static const char *established_by(const ctx *x, const vkb_result *r)
{
    const char *me = vkb_version_commit();
    if (!x->est || strstr(me, "dirty") || !strcmp(me, "unknown")) return NULL;
    for (long i = 0; i < x->nest; i++) {
        const vkb_result *e = &x->est[i];
        if (!strcmp(e->status, "PASS") && !strcmp(e->commit, me) && e->seed == r->seed &&
            !strcmp(e->kernel, r->kernel) && !strcmp(e->params, r->params))
            return x->o->established;
    }
    return NULL;
}

/* One finished case on disk: its samples first, then its row, each flushed and fsync'ed, so that a crash or a
 * SIGKILL leaves every finished row readable with all of its samples. The row notes the runs of this device that
 * overlapped it (concurrent timings are not comparable). */
static void record(ctx *x, vkb_result *r, const double *samples, size_t nsamples)
{
    if (!strcmp(r->status, "PASS") && !strcmp(r->stop_reason, "interrupted")) {
        /* Its sampling was cut short by the signal: a PASS would stand on partial samples. */
        snprintf(r->status, sizeof(r->status), "INTERRUPTED");
        snprintf(r->reason, sizeof(r->reason), "the run was interrupted while this case was timed: its %lld samples "
                 "are partial (kept in samples.csv), its statistics are not a result", (long long)r->samples);
    }
    vkb_rundir_overlap(&x->rd, r->concurrent_runs, sizeof(r->concurrent_runs));
    if (samples) vkb_samples_write(x->samples, r->case_id, samples, nsamples, r->batch);
    if (vkb_rundir_sync(x->samples) && !x->write_errno) x->write_errno = errno;
    vkb_result_write_row(x->csv, r);
    if (vkb_rundir_sync(x->csv) && !x->write_errno) x->write_errno = errno;
    if (!strcmp(r->status, "INTERRUPTED")) x->interrupted_rows++;
}

/* Prefetch step 1 (no lock held): the case planned; returns the host bytes it will hold (inputs, outputs,
 * about as much again for the expected values, and their staging copies on a GPU). */
static double job_size(void *arg, size_t i)
{
    ctx *x = arg;
    job *j = &x->jobs[i];
    const vkb_kernel *k = vkb_registry_find(j->l->kernel);
    vkb_case *c = &j->c;
    vkb_result *r = &j->r;
    char why[300];
    double t0 = vkb_now_s();
    vkb_result_init(r);
    row_identity(x, j->l, r);
    snprintf(j->mode, sizeof(j->mode), "%s", x->o->mode ? x->o->mode : j->l->opt.mode);
    case_init(c, k, &x->caps, j->l, j->pick, j->mode, sizeof(j->mode), r->params, sizeof(r->params));
    if (x->o->mode) snprintf(j->mode, sizeof(j->mode), "%s", x->o->mode);
    c->oracle_budget = x->o->oracle_budget;
    c->seed = vkb_mix64(hash_str(hash_str(x->o->seed ^ 0xcbf29ce484222325ull, k->name), r->params));
    r->case_id = (int64_t)i;
    snprintf(r->kernel, sizeof(r->kernel), "%s", k->name);
    snprintf(r->mode, sizeof(r->mode), "%s", j->mode);
    int rc = k->plan(c);
    snprintf(r->variant, sizeof(r->variant), "%s", c->variant[0] ? c->variant : "default");
    snprintf(r->dtype, sizeof(r->dtype), "%s", c->dtype);
    r->bytes = c->bytes;
    r->flops = c->flops;
    j->state = JOB_DONE;
    if (c->error[0] || rc < 0) set_status(r, "ERROR", c->error[0] ? c->error : "plan failed");
    else if (c->skip[0]) set_status(r, "SKIP", c->skip);
    else if (!fits(x, c, j->l, why, sizeof(why))) set_status(r, "SKIP", why);
    else j->state = JOB_RUN;
    j->established = j->state == JOB_RUN && established_by(x, r) != NULL;
    j->t_plan = vkb_now_s() - t0;
    j->bytes = 0;
    for (int b = 0; j->state == JOB_RUN && b < c->nbuf; b++)
        j->bytes += (int64_t)(c->buf[b].count * vkb_dtype_size(c->buf[b].type));
    return (x->workers ? 3 : 2) * (double)j->bytes;
}

/* Claim (bytes > 0) or give back (< 0) device memory for a case prepared ahead; 0 when the claim would pass a
 * quarter of the device's memory. */
static int dev_reserve(ctx *x, int64_t bytes)
{
    int64_t cur = __atomic_load_n(&x->dev_ahead, __ATOMIC_RELAXED);
    do {
        if (bytes > 0 && (double)(cur + bytes) > 0.25 * (double)x->caps.device_mem) return 0;
    } while (!__atomic_compare_exchange_n(&x->dev_ahead, &cur, cur + bytes, 0, __ATOMIC_RELAXED, __ATOMIC_RELAXED));
    return 1;
}

/* Prefetch step 2: host buffers, inputs, the timed reference (the multithreaded parts of fills and references
 * take the shared CPU lock per chunk or slice). */
static void job_work(void *arg, size_t i)
{
    ctx *x = arg;
    job *j = &x->jobs[i];
    vkb_case *c = &j->c;
    vkb_result *r = &j->r;
    gsl_rng *rng = NULL;
    if (j->state != JOB_RUN) {
        r->setup_s = j->t_plan;
        return;
    }
    double t0 = vkb_now_s(), tt = t0;
    for (int b = 0; b < c->nbuf; b++) {
        c->buf[b].host = vkb_host_calloc(c->buf[b].count ? c->buf[b].count : 1, vkb_dtype_size(c->buf[b].type));
        if (!c->buf[b].host) {
            char why[120];
            snprintf(why, sizeof(why), "not enough host memory for buffer '%s'", c->buf[b].name);
            set_status(r, "SKIP", why);
            j->state = JOB_DONE;
            goto out;
        }
    }
    if (!(rng = gsl_rng_alloc(gsl_rng_mt19937))) {
        set_status(r, "ERROR", "out of host memory");
        j->state = JOB_DONE;
        goto out;
    }
    gsl_rng_set(rng, (unsigned long)c->seed);
    vkb_trace("job_alloc", c->k->name, tt);
    tt = vkb_now_s();
    if (c->k->fill) c->k->fill(c, rng);
    vkb_trace("job_fill", c->k->name, tt);
    tt = vkb_now_s();
    /* The device side too, off the main thread: buffers, pipelines (a driver's shader compile took up to 4 s of
     * an H200 run's first matmul case) and the staged inputs; in an H200 gate launch the main thread spent
     * 0.47 s of add n=2^25's 0.54 s on them. A failure leaves j->g NULL: the main thread tries again and says why.
     * Not with --validate: the layer's messages are counted against the case the main thread is on. */
    if (x->workers && !x->o->validate && dev_reserve(x, j->bytes)) {
        if ((j->g = vkb_gpu_prepare(x->v, c))) {
            vkb_trace("job_prepare", c->k->name, tt);
            tt = vkb_now_s();
            vkb_gpu_stage(j->g);
            vkb_trace("job_stage", c->k->name, tt);
        } else dev_reserve(x, -j->bytes);
    }
    r->setup_s = j->t_plan + (vkb_now_s() - t0);
    if (j->established) {
        snprintf(r->ref_method, sizeof(r->ref_method), "established: %s (PASS, same commit, seed and case)",
                 x->o->established);
        snprintf(r->cpu_sensor_why, sizeof(r->cpu_sensor_why), "energy: reference not run (--established)");
        goto out;
    }
    int inline_ref = x->workers == 0;  /* the CPU window (pinning, RAPL) belongs to the main thread */
    if (inline_ref) vkb_telrow_ref_begin(&x->tr);
    t0 = vkb_now_s();
    double frac = c->k->reference ? c->k->reference(c) : 1.0;
    double tref = vkb_now_s() - t0;
    if (inline_ref) vkb_telrow_ref_end(&x->tr, tref, frac, r);
    else snprintf(r->cpu_sensor_why, sizeof(r->cpu_sensor_why),
                  "energy: reference ran on a prefetch worker beside GPU timing (--jobs 0 measures it)");
    r->ref_s = tref;
    r->ref_fraction = frac;
    /* The naive reference's time: a sampled oracle is extrapolated (ref_fraction); the fast full reference beside
     * it is not the oracle and stays out of it. */
    r->ref_time_s = frac > 0 ? (tref - c->fast_ref_s) / frac : NAN;
out:
    if (rng) gsl_rng_free(rng);
}

/* The baseline history of c's kernel and dtype (a new, empty one the first time), NULL when the table is full. */
static cpu_rate *cpu_rate_of(ctx *x, const vkb_case *c)
{
    char key[64];
    snprintf(key, sizeof(key), "%s %s", c->k->name, vkb_param_str(c, "dtype", ""));
    for (int i = 0; i < x->ncpu_rate; i++)
        if (!strcmp(x->cpu_rate[i].key, key)) return &x->cpu_rate[i];
    if (x->ncpu_rate == (int)(sizeof(x->cpu_rate) / sizeof(x->cpu_rate[0]))) return NULL;
    cpu_rate *r = &x->cpu_rate[x->ncpu_rate++];
    snprintf(r->key, sizeof(r->key), "%s", key);
    r->n = 0;
    return r;
}

/* The budget: a warm-up, one timed run and the check of its output must fit. The prediction is linear in the work
 * through the same kernel's last two baselines; with one, proportional to the work up to 64x it (one point charges
 * its fixed costs to the work: a 1-element matmul predicted 5000 s for a 64^3 one); otherwise none (NAN), and the
 * case runs, capped at one timed run if it is slow. */
static void cpu_predict(const cpu_rate *p, double work, double *run1, double *rest, char *from, size_t len)
{
    const cpu_point *a = &p->pt[0], *b = &p->pt[1];
    if (p->n == 2) {
        *run1 = fmax(0, b->run + fmax(0, (b->run - a->run) / (b->work - a->work)) * (work - b->work));
        *rest = fmax(0, b->rest + fmax(0, (b->rest - a->rest) / (b->work - a->work)) * (work - b->work));
        snprintf(from, len, "linear in the work through %s and %s", a->params, b->params);
    } else if (p->n == 1 && work <= 64 * a->work) {
        *run1 = a->run * work / a->work;
        *rest = a->rest * work / a->work;
        snprintf(from, len, "proportional to the work from %s", a->params);
    }
}

/* The optimized CPU baseline, on the main thread between two GPU cases, with the CPU to itself: no case's
 * preparation and no GPU timing runs meanwhile. (Run on a worker beside GPU timing, the baselines read 2% to
 * 6.6x slower on an H200 host, --jobs 4 against --jobs 0: the submitting thread's fence waits shared a core
 * with one of the pinned OpenMP threads. That would have inflated every speedup.) */
static void job_baseline(ctx *x, job *j)
{
    vkb_result *r = &j->r;
    const char *off = x->o->no_cpu_baseline ? "off (--no-cpu-baseline)"
                      : j->established   ? "reference not run (--established): no check for the baseline"
                                         : NULL;
    if (j->state != JOB_RUN) return;
    double budget = !isnan(x->o->cpu_budget) ? x->o->cpu_budget : j->l->opt.cpu_budget;
    double work = r->flops > 0 ? r->flops : r->bytes, run1 = NAN, rest = NAN;
    cpu_rate *rate = work > 0 ? cpu_rate_of(x, &j->c) : NULL;
    char from[300] = "";
    if (rate) cpu_predict(rate, work, &run1, &rest, from, sizeof(from));
    char over[sizeof(r->cpu_fast_why)], a[24], b[24], c[24];
    if (!off && budget > 0 && 2 * run1 + rest > budget) {
        snprintf(over, sizeof(over), "over the baseline budget: predicted (%s) %s a run and %s for setup and check, a "
                 "warm-up, one run and the check > cpu_budget %s (--cpu-budget to raise it)", from,
                 fmt_dur(run1, a, sizeof(a)), fmt_dur(rest, b, sizeof(b)), fmt_dur(budget, c, sizeof(c)));
        off = over;
    }
    if (off) {
        snprintf(r->cpu_fast_status, sizeof(r->cpu_fast_status), "NA");
        snprintf(r->cpu_fast_why, sizeof(r->cpu_fast_why), "%s", off);
        return;
    }
    /* The wait for the CPU (the workers' shared sections draining: a fill, a slice of a fast reference) is its
     * own column, and stays out of the next prediction's fixed cost: a 4.5 s wait once made cpu_fast_s 370x the
     * baseline's runs on an H200 host, and would have priced the next case of the kernel over its budget. */
    double t0 = vkb_now_s();
    if (x->workers) vkb_prefetch_exclusive_begin(x->pf);
    r->cpu_wait_s = vkb_now_s() - t0;
    vkb_trace("cpu_wait", j->c.k->name, t0);
    t0 = vkb_now_s();
    vkb_cpu_baseline(&j->c, r, budget);  /* timed, checked, cpu_fast_* columns */
    if (x->workers) vkb_prefetch_exclusive_end(x->pf);
    r->cpu_fast_s = vkb_now_s() - t0;
    vkb_trace("cpu_fast", j->c.k->name, t0);
    if (rate && r->cpu_fast_time_s > 0) {  /* a point for the next prediction: the last two of different work */
        if (rate->n && rate->pt[rate->n - 1].work == work) rate->n--;
        else if (rate->n == 2) rate->pt[0] = rate->pt[1], rate->n = 1;
        cpu_point *pt = &rate->pt[rate->n++];
        pt->work = work;
        pt->run = r->cpu_fast_time_s;
        pt->rest = fmax(0, r->cpu_fast_s - (double)(r->cpu_fast_runs + 1) * r->cpu_fast_time_s);
        snprintf(pt->params, sizeof(pt->params), "%s", r->params);
    }
}

/* VKB_DUMP=DIR: every buffer's host copy after the validated call (inputs as uploaded, outputs as the GPU left
 * them) in DIR/CASEID_NAME.bin, for telling a kernel's run-to-run differences from its inputs'. */
static void dump_buffers(const job *j)
{
    const char *dir = getenv("VKB_DUMP");
    if (!dir || !*dir) return;
    for (int i = 0; i < j->c.nbuf; i++) {
        const vkb_buf *b = &j->c.buf[i];
        char path[4200];
        if (snprintf(path, sizeof(path), "%s/%lld_%s.bin", dir, (long long)j->r.case_id, b->name) >= (int)sizeof(path)) {
            fprintf(stderr, "vkbench: VKB_DUMP: directory name too long: %s\n", dir);
            return;
        }
        errno = 0;
        FILE *f = fopen(path, "wb");
        size_t bytes = b->count * vkb_dtype_size(b->type);
        int ok = f && fwrite(b->host, 1, bytes, f) == bytes;
        if (f && fclose(f)) ok = 0;
        if (!ok) fprintf(stderr, "vkbench: VKB_DUMP: cannot write %s: %s\n", path, errno ? strerror(errno) : "short write");
    }
}

/* The validation run: poisoned outputs and guards. Returns 0 when its outputs are ready for the check;
 * otherwise the row's status is set (ERROR, or FAIL for a guard written over). */
static int case_validate(ctx *x, job *j, vkb_gpu *g)
{
    vkb_result *r = &j->r;
    double tv, t0 = vkb_now_s();
    char guard[200];
    if (vkb_gpu_upload(g)) return set_status(r, "ERROR", vkb_vk_error(x->v)), -1;
    r->setup_s += vkb_now_s() - t0;
    vkb_trace("upload", j->c.k->name, t0);
    t0 = vkb_now_s();
    if (vkb_gpu_run(g, 1, 0, &tv) || vkb_gpu_download(g, !j->established, guard, sizeof(guard)))
        return set_status(r, "ERROR", vkb_vk_error(x->v)), -1;
    vkb_trace("validate_run", j->c.k->name, t0);
    x->tm.gpu_last = vkb_now_s();
    r->check_s = vkb_now_s() - t0;
    dump_buffers(j);
    if (guard[0]) return set_status(r, "FAIL", guard), -1;
    if (j->established) snprintf(r->check, sizeof(r->check), "established");
    return 0;
}

/* The kernel's check of the validation run's outputs, and the verdict columns. Runs on its own thread while the
 * GPU is timed (it reads only the host copies and the expected values, which timing never touches); returns 0
 * for PASS, else sets FAIL and its reason. */
typedef struct checker {
    ctx *x;
    job *j;
    vkb_check *chk;
    int rc;
    char note[sizeof(((vkb_result *)0)->note)];  /* the kernel's note: r->note is the timing's meanwhile */
} checker;

static void *check_case(void *arg)
{
    checker *k = arg;
    vkb_case *c = &k->j->c;
    vkb_result *r = &k->j->r;
    vkb_check *chk = k->chk;
    const vkb_line *l = k->j->l;
    double t0 = vkb_now_s();
    k->rc = 0;
    if (k->j->established) return NULL;
    c->k->check(c, chk);
    r->check_s += vkb_now_s() - t0;
    snprintf(r->check, sizeof(r->check), "%s", chk->method);
    r->metric = chk->metric;
    r->threshold = chk->threshold;
    r->max_abs_err = chk->max_abs;
    r->max_rel_err = chk->max_rel;
    r->nmse = chk->nmse;
    r->n_bad = (int64_t)chk->nbad;
    r->n_nan = (int64_t)chk->nnan;
    r->n_unwritten = (int64_t)chk->nunwritten;
    r->n_tie = (int64_t)chk->ntie;
    r->n_checked = (int64_t)chk->nchecked;
    snprintf(r->ref_method, sizeof(r->ref_method), "%s", chk->ref_method[0] ? chk->ref_method : "scalar");
    r->check_fraction = chk->fraction;
    if (isnan(r->check_fraction)) {
        double outs = 0;
        for (int i = 0; i < c->nbuf; i++)
            if (c->buf[i].role == VKB_OUT || c->buf[i].role == VKB_INOUT) outs += (double)c->buf[i].count;
        r->check_fraction = outs > 0 ? fmin(1.0, (double)chk->nchecked / outs) : NAN;
    }
    /* Never over a reference mismatch: its metric is then the fast reference's disagreement with the oracle. */
    if (!isnan(l->tol) && !chk->pass && !chk->ref_error && chk->nnan == 0 && chk->nunwritten == 0 && chk->metric <= l->tol) {
        /* Suite override, accepted only with its written reason (the parser insists). */
        chk->pass = 1;
        r->threshold = l->tol;
    }
    snprintf(k->note, sizeof(k->note), "%s%s%s", c->note, c->note[0] && !isnan(l->tol) ? "; " : "",
             !isnan(l->tol) ? l->tol_reason : "");
    if (chk->pass) return NULL;
    char why[300];
    if (chk->ref_error) {  /* the fast reference disagreed with the oracle: the harness, not the kernel, is wrong */
        snprintf(why, sizeof(why), "reference mismatch: %s", chk->detail);
        set_status(r, "ERROR", why);
        k->rc = -1;
        return NULL;
    }
    if (chk->nunwritten) snprintf(why, sizeof(why), "%zu elements never written (still poisoned)", chk->nunwritten);
    else if (chk->nnan) snprintf(why, sizeof(why), "%zu NaN/Inf outputs where the reference is finite", chk->nnan);
    else
        snprintf(why, sizeof(why), "%s metric %.4g > threshold %.4g (%zu bad of %zu)", chk->method, chk->metric,
                 chk->threshold, chk->nbad, chk->nchecked);
    set_status(r, "FAIL", why);
    k->rc = -1;
    return NULL;
}

/* Rotate, injected slowdown, timed samples, energy window: everything that times a validated case. */
static int case_time(ctx *x, job *j, vkb_gpu *g, double **samples, size_t *nsamples)
{
    vkb_case *c = &j->c;
    vkb_result *r = &j->r;
    const char *mode = j->mode;
    char why[300] = "";
    if (!strcmp(mode, "rotate")) {
        /* Cold without flushes: back-to-back dispatches, each reading its own copy of the inputs,
         * 512 MiB of copies in all (10x a 50 MB L2), as decoding streams each layer's weights once. */
        int nc = vkb_gpu_rotate(g, 512ull << 20, 256);
        if (nc < 0) return set_status(r, "ERROR", vkb_vk_error(x->v)), -1;
        size_t used = strlen(r->note);
        snprintf(r->note + used, sizeof(r->note) - used, "%srotating %d input copies", used ? "; " : "", nc);
    } else if (!strcmp(mode, "cold")) {
        size_t used = strlen(r->note);
        snprintf(r->note + used, sizeof(r->note) - used, "%s%s", used ? "; " : "", vkb_vk_cold_flush(x->v));
    }
    double tt = vkb_now_s();
    if (vkb_slowdown_apply(x->v, g, c, x->o->slowdown, !strcmp(mode, "cold"), r)) return -1;  /* SKIP or ERROR */
    vkb_trace("slowdown", c->k->name, tt);
    tt = vkb_now_s();
    if (vkb_timing_measure(&x->tm, g, j->l, !strcmp(mode, "cold"), r, samples, nsamples)) {
        snprintf(why, sizeof(why), "timing: %s", vkb_vk_error(x->v));
        return set_status(r, "ERROR", why), -1;
    }
    vkb_trace("measure", c->k->name, tt);
    if (x->o->profile) vkb_timing_profile(&x->tm, g, c, !strcmp(mode, "cold"), r);
    if (isnan(r->energy_s)) {  /* not shared with the samples: a window of its own */
        double te = vkb_now_s();
        vkb_telrow_case_end(&x->tr, g, r);
        r->energy_s = vkb_now_s() - te;
    }
    return 0;
}

/* After timing, one more call must give the validated call's outputs bit for bit (vkb_gpu_recheck): otherwise
 * only the first call after the upload was validated, and a kernel that carries state from call to call (a
 * counter it never resets, an input it writes) could be timed broken. The kernels are deterministic (integer
 * atomics only), so any difference is a FAIL. Returns -1 when the row FAILed or ERRORed. */
static int case_recheck(ctx *x, job *j, vkb_gpu *g)
{
    vkb_result *r = &j->r;
    const vkb_case *c = &j->c;
    if (j->established) {
        snprintf(r->recheck, sizeof(r->recheck), "NA: --established launch (its outputs are not checked)");
        return 0;
    }
    for (int i = 0; i < c->nbuf; i++)
        if (c->buf[i].role == VKB_INOUT) {
            snprintf(r->recheck, sizeof(r->recheck), "NA: buffer '%s' is updated in place", c->buf[i].name);
            return 0;
        }
    double t0 = vkb_now_s();
    char msg[300], why[400];
    if (vkb_gpu_recheck(g, msg, sizeof(msg))) return set_status(r, "ERROR", vkb_vk_error(x->v)), -1;
    vkb_trace("recheck", c->k->name, t0);
    r->check_s += vkb_now_s() - t0;
    if (!msg[0]) {
        snprintf(r->recheck, sizeof(r->recheck), "identical");
        return 0;
    }
    snprintf(r->recheck, sizeof(r->recheck), "differs");
    snprintf(why, sizeof(why), "call after timing: %s", msg);
    set_status(r, "FAIL", why);
    r->samples = VKB_NA_I;
    r->time_median_s = r->time_mean_s = r->time_stddev_s = r->time_min_s = r->time_max_s = NAN;
    r->time_q1_s = r->time_q3_s = r->time_ci_lo_s = r->time_ci_hi_s = r->rel_noise = NAN;
    return -1;
}

/* Validate, then time while the check runs beside it, then the end-to-end time. A case whose check fails keeps
 * no timing (its samples are dropped): a wrong kernel has no speed. */
static void case_gpu(ctx *x, job *j, vkb_check *chk, double **samples, size_t *nsamples)
{
    vkb_case *c = &j->c;
    vkb_result *r = &j->r;
    double t0 = vkb_now_s();
    vkb_gpu *g = j->g ? j->g : vkb_gpu_prepare(x->v, c);
    if (j->g) dev_reserve(x, -j->bytes);
    j->g = NULL;
    r->setup_s += vkb_now_s() - t0;
    vkb_trace("case_prepare", c->k->name, t0);
    if (!g) {
        set_status(r, "ERROR", vkb_vk_error(x->v));
        return;
    }
    snprintf(r->pipeline_stats, sizeof(r->pipeline_stats), "%s", vkb_gpu_stats(g));
    if (case_validate(x, j, g)) goto out;
    checker ck = {x, j, chk, 0, ""};
    pthread_t th;
    /* Beside the timing only where the timed device is not this CPU (lavapipe: first the check, then timing). */
    int threaded = !j->established && !x->caps.is_cpu && pthread_create(&th, NULL, check_case, &ck) == 0;
    if (!threaded) check_case(&ck);
    int trc = ck.rc ? -1 : case_time(x, j, g, samples, nsamples);
    t0 = vkb_now_s();
    if (threaded) pthread_join(th, NULL);
    vkb_trace("check_join", c->k->name, t0);
    /* The kernel's note first, then what the timing added (its mode, its samples): written by the check's thread
     * into r->note beside the timing, it had replaced the cold flush's note on an H200. */
    char timed[sizeof(r->note)];
    snprintf(timed, sizeof(timed), "%s", r->note);
    snprintf(r->note, sizeof(r->note), "%s%s%s", ck.note, ck.note[0] && timed[0] ? "; " : "", timed);
    if (ck.rc || trc) {
        free(*samples);
        *samples = NULL;
        if (ck.rc) {  /* the check's verdict stands over any timing error */
            r->samples = VKB_NA_I;
            r->time_median_s = r->time_mean_s = r->time_stddev_s = r->time_min_s = r->time_max_s = NAN;
            r->time_q1_s = r->time_q3_s = r->time_ci_lo_s = r->time_ci_hi_s = r->rel_noise = NAN;
        }
        goto out;
    }
    if (case_recheck(x, j, g)) {
        free(*samples);
        *samples = NULL;
        goto out;
    }
    double e2e[3], e2e_sum = 0;
    int ne = 0;
    t0 = vkb_now_s();
    /* Not in an --established launch (the gate's): it compares kernel times, and the add and relu of an H200
     * gate launch spent 0.23 and 0.15 s here, a quarter of the launch. Best of 3 while they are cheap: another
     * run only while those taken sum to under E2E_REPEAT_S (up to 3 of every case under 0.3 s made 12.6-15.0 s of
     * an H200 default run, where the rows' best runs summed 4.2 s; 7.3 s since). e2e_runs says how many. */
    for (; !j->established && ne < 3 && (ne == 0 || e2e_sum < E2E_REPEAT_S); ne++) {
        if (vkb_gpu_e2e(g, &e2e[ne])) break;
        e2e_sum += e2e[ne];
    }
    vkb_trace("e2e", c->k->name, t0);
    if (j->established) {
        size_t used = strlen(r->note);
        snprintf(r->note + used, sizeof(r->note) - used, "%se2e_time_s not measured (--established launch)",
                 used ? "; " : "");
    }
    if (ne) {
        for (int i = 1; i < ne; i++)
            if (e2e[i] < e2e[0]) e2e[0] = e2e[i];
        r->e2e_time_s = e2e[0];  /* best of up to 3, host-timed: upload + kernel + download */
        r->e2e_runs = ne;
    }
    r->bw_Bps = c->bytes > 0 ? c->bytes / r->time_median_s : NAN;
    r->flop_per_s = c->flops > 0 ? c->flops / r->time_median_s : NAN;
    vkb_calib_row(&x->cal, r);  /* utilization against the ceilings, below_floor */
    if (vkb_run_interrupted)
        set_status(r, "INTERRUPTED", "interrupted while timing: the samples taken are in samples.csv, not a verdict");
    else set_status(r, j->established ? "TIMED" : "PASS", "");
out:
    x->tm.gpu_last = vkb_now_s();
    t0 = vkb_now_s();
    /* Here, on the main thread. Freed on a thread of its own after the next case's baseline instead (session 25,
     * cd29afe), the release and case_free time left the main thread (8.2-9.0 s of an H200 default suite) but the
     * next case's validate_run doubled (2.5 -> 5.1-5.7 s: the driver's frees beside its GPU work) and the suite took
     * 82.0 and 82.6 s against 79.3 s. Reverted. */
    vkb_gpu_release(g);
    vkb_trace("release", c->k->name, t0);
}

/* Compute-bound rows read in FLOP/s against the right compute ceiling, memory-bound ones in bytes/s
 * against copy: a row is compute-bound when its FLOPs per byte exceed the ridge point of the FMA roof
 * (or 8 where the ceilings are unknown). Matrix-unit variants divide by the matrix-unit ceiling. */
static void rate_cells(const vkb_result *r, char *rate, size_t rl, char *pct, size_t pl)
{
    snprintf(rate, rl, "NA");
    snprintf(pct, pl, "NA");
    if (isnan(r->time_median_s)) return;
    double ridge = r->fma_flop_per_s / r->copy_Bps;
    int compute = r->flops > 0 && r->bytes > 0 && r->flops / r->bytes > (isnan(ridge) ? 8 : ridge);
    if (compute) {
        int mma = strstr(r->variant, "coopmat") != NULL;
        double frac = mma ? r->flop_frac_coopmat : r->flop_frac_fma;
        snprintf(rate, rl, "%.2f TF/s", r->flop_per_s / 1e12);
        if (!isnan(frac)) snprintf(pct, pl, "%.1f%% %s", 100 * frac, mma ? "mma" : "fma");
    } else if (!isnan(r->bw_Bps)) {
        snprintf(rate, rl, "%.1f GB/s", r->bw_Bps / 1e9);
        if (!isnan(r->bw_frac_copy)) snprintf(pct, pl, "%.1f%% copy", 100 * r->bw_frac_copy);
    }
}

static void print_header(const ctx *x)
{
    printf("%-6s %-14s %-*s %-6s %12s %12s %12s  %s\n", "STATUS", "KERNEL", x->pw, "PARAMS", "MODE", "MEDIAN",
           "RATE", "OF CEILING", "CHECK metric/threshold");
}

static void print_row(const ctx *x, const vkb_result *r, const vkb_check *chk)
{
    char t[40], rate[32], pct[32];
    vkb_fmt_time(r->time_median_s, t, sizeof(t));
    if (r->below_floor > 0 && r->below_floor != VKB_NA_I) strncat(t, " *", sizeof(t) - strlen(t) - 1);
    rate_cells(r, rate, sizeof(rate), pct, sizeof(pct));
    printf("%-6s %-14s %-*s %-6s %12s %12s %12s  %s", r->status, r->kernel, x->pw, r->params, r->mode, t, rate, pct,
           r->check);
    if (!isnan(r->metric)) printf(" %.3g/%.3g", r->metric, r->threshold);
    if (r->reason[0]) printf("  (%s)", r->reason);
    if (!strncmp(r->variant, "auto:", 5)) printf("  [%s]", r->variant);  /* what variant=auto chose */
    printf("\n");
    if (chk && chk->detail[0] && strcmp(r->status, "PASS")) printf("       first mismatches: %s\n", chk->detail);
    fflush(stdout);
}

/* One line on stderr: a live line on a terminal, else every 15 s (make bench | tee, CI logs). */
static void progress(ctx *x, const char *what)
{
    double now = vkb_now_s(), el = now - x->started;
    int tty = isatty(2);
    if (!tty && now - x->last_progress < 15) return;
    x->last_progress = now;
    double eta = x->done_cases ? el / (double)x->done_cases * (double)(x->total_cases - x->done_cases) : NAN;
    fprintf(stderr, "%s[%zu/%zu] %s  elapsed %.0f s  eta %s", tty ? "\r\033[K" : "", x->done_cases + 1,
            x->total_cases, what, el, isnan(eta) ? "?" : "");
    if (!isnan(eta)) fprintf(stderr, "%.0f s", eta);
    if (!tty) fputc('\n', stderr);
    fflush(stderr);
}

/* Write the finished row (and its samples), print it, count it. */
static void case_record(ctx *x, job *j, const vkb_check *chk, const double *samples, size_t nsamples)
{
    vkb_result *r = &j->r;
    if (isatty(2)) fprintf(stderr, "\r\033[K");
    if (!r->clock_check[0] || isnan(r->time_median_s))
        snprintf(r->clock_check, sizeof(r->clock_check), "NA (case not timed)");
    if (!r->profile[0])
        snprintf(r->profile, sizeof(r->profile), "NA (%s)", isnan(r->time_median_s) ? "case not timed" : "run --profile");
    record(x, r, samples, nsamples);
    print_row(x, r, chk);
    x->done_cases++;
    if (!strcmp(r->status, "PASS") || !strcmp(r->status, "TIMED")) x->tot->pass++;
    else if (!strcmp(r->status, "FAIL")) x->tot->fail++;
    else if (!strcmp(r->status, "SKIP")) x->tot->skip++;
    else if (!strcmp(r->status, "INTERRUPTED")) x->tot->interrupted++;
    else x->tot->error++;
    double *acc[] = {&x->sum.wall_s, &x->sum.setup_s, &x->sum.ref_s, &x->sum.ref_wait_s, &x->sum.check_s,
                     &x->sum.timing_s, &x->sum.energy_s, &x->sum.cpu_fast_s, &x->sum.cpu_wait_s, &x->sum.overhead_s};
    const double val[] = {r->wall_s, r->setup_s, r->ref_s, r->ref_wait_s, r->check_s,
                          r->timing_s, r->energy_s, r->cpu_fast_s, r->cpu_wait_s, r->overhead_s};
    for (size_t i = 0; i < sizeof(val) / sizeof(val[0]); i++)
        if (!isnan(val[i])) *acc[i] += val[i];
    /* The overhead percentiles are over the timed cases: a SKIP's zero would pull them down (lavapipe's make bench
     * SKIPs half its cases and read a median of 0). */
    if (!isnan(r->overhead_s) && r->timing_s > 0 && x->noverhead < x->total_cases) x->overheads[x->noverhead++] = r->overhead_s;
}

/* The case at index i: wait for its preparation, baseline, GPU, row. */
static void run_case(ctx *x, size_t i)
{
    job *j = &x->jobs[i];
    vkb_check chk;
    double *samples = NULL, w0 = vkb_now_s();
    size_t nsamples = 0;
    memset(&chk, 0, sizeof(chk));
    progress(x, x->jobs[i].l->kernel);
    uint64_t vmsgs = vkb_vk_validation_messages(x->v);
    double waited = vkb_prefetch_wait(x->pf, i);
    vkb_trace("wait_prefetch", j->c.k ? j->c.k->name : NULL, w0);
    vkb_result *r = &j->r;
    r->ref_wait_s = x->workers ? waited : vkb_now_s() - w0;
    if (j->state == JOB_RUN) {
        job_baseline(x, j);
        case_gpu(x, j, &chk, &samples, &nsamples);
    }
    vkb_telrow_finish(&x->tr, r);
    if (vkb_vk_validation_messages(x->v) != vmsgs) {
        char why[120];
        snprintf(why, sizeof(why), "%llu validation-layer messages (see stderr)",
                 (unsigned long long)(vkb_vk_validation_messages(x->v) - vmsgs));
        set_status(r, "ERROR", why);
    }
    if (j->g) dev_reserve(x, -j->bytes);
    vkb_gpu_release(j->g);   /* prepared by a worker for a case that never reached the GPU */
    j->g = NULL;
    double t0 = vkb_now_s();
    vkb_case_free(&j->c);
    vkb_trace("case_free", r->kernel, t0);
    memset(&j->c, 0, sizeof(j->c));
    vkb_prefetch_done(x->pf, i);
    r->wall_s = vkb_now_s() - w0;
    r->overhead_s = r->wall_s - (isnan(r->timing_s) ? 0 : r->timing_s) - (isnan(r->energy_s) ? 0 : r->energy_s);
    t0 = vkb_now_s();
    case_record(x, j, &chk, samples, nsamples);
    vkb_trace("record", r->kernel, t0);
    vkb_trace("case", r->kernel, w0);
    free(samples);
}

static void write_runinfo(const ctx *x, const vkb_suite *s, FILE *f)
{
    const vkb_devinfo *d = x->info;
    fprintf(f, "vkbench run\ndate_utc: %s\ncommit: %s\nargs:", x->date, vkb_version_commit());
    for (int i = 0; i < x->o->argc; i++) fprintf(f, " %s", x->o->argv[i]);
    fprintf(f, "\nseed: %llu\n", (unsigned long long)x->o->seed);
    for (int i = 0; i < s->nline; i++)
        if (i == 0 || strcmp(s->line[i].file, s->line[i - 1].file)) fprintf(f, "suite: %s\n", s->line[i].file);
    fprintf(f, "device: %s\ndevice_type: %s\ndevice_index: %u\nvendor_id: 0x%04x\ndevice_id: 0x%04x\n", d->name,
            d->type, d->index, d->vendor, d->device_id);
    fprintf(f, "driver: %s\nvulkan_api: %u.%u.%u\nvulkan_headers: %u\ndevice_uuid: %s\n", d->driver,
            VK_API_VERSION_MAJOR(d->api), VK_API_VERSION_MINOR(d->api), VK_API_VERSION_PATCH(d->api),
            VK_HEADER_VERSION, d->uuid);
    if (d->has_pci)
        fprintf(f, "pci_bus_id: %04x:%02x:%02x.%x\n", d->pci_domain, d->pci_bus, d->pci_dev, d->pci_func);
    else fprintf(f, "pci_bus_id: NA (VK_EXT_pci_bus_info not offered)\n");
    fprintf(f, "timestamp_period_ns: %.9g\ntimestamp_valid_bits: %u\ntimer_floor_s: %.6g\n", d->timestamp_period_ns,
            d->timestamp_bits, x->timer_floor);
    fprintf(f, "timer_step_ns: %.9g (the counter's step: timestamp_period_ns x the gcd of the timer floor's 30 raw "
               "timestamps; a single-pair sample is a multiple of it)\n", d->timer_step_ns);
    const vkb_caps *c = &x->caps;
    fprintf(f, "subgroup_size: %u\nmax_storage_range: %llu\ndevice_memory_bytes: %llu\n"
               "float16: %d\nstorage16: %d\nint8: %d\nstorage8: %d\ninteger_dot: %d (accelerated %d)\n"
               "coopmat_nv: %d\ncoopmat_khr: %d\n",
            c->subgroup, (unsigned long long)c->max_range, (unsigned long long)c->device_mem, c->f16, c->storage16,
            c->int8, c->storage8, c->int_dot, c->int_dot_accel, c->coopmat_nv, c->coopmat_khr);
    /* The on-chip budget every kernel here is tiled against: tests/gpu/tables.py sets it beside the shared memory of the
     * peer's kernels (peers.py's kernels column), e.g. cuBLAS's 10-stage pipelines on an H200 against Vulkan's cap. */
    fprintf(f, "max_compute_shared_bytes: %u (maxComputeSharedMemorySize: the most one workgroup may use)\n"
               "max_workgroup_invocations: %u\n", c->max_shared, c->max_wg_size);
    vkb_calib_print(f, &x->cal);
    vkb_telrow_print(f, &x->tr);
    fprintf(f, "validation_layer: %s\ngsl: %s\n", x->o->validate ? "on" : "off", GSL_VERSION);
    vkb_topo_print(f, &x->topo);
    fflush(f);
}

static void pf_shared_begin(void *p) { vkb_prefetch_shared_begin(p); }
static void pf_shared_end(void *p) { vkb_prefetch_shared_end(p); }

/* The scalar oracles run on idle-priority workers, which a CPU baseline preempts; the multithreaded fast
 * references (OpenBLAS, OpenMP teams that need not inherit that priority) hold the CPU lock shared, so no
 * baseline is timed beside them. So do the parallel input fills (vkb_par_fill). Set before the workers start. */
static void pf_ready(void *arg, vkb_prefetch *p)
{
    if (!((ctx *)arg)->workers) return;
    vkb_cpu_guard_set(pf_shared_begin, pf_shared_end, p);
}

/* Every selected case as a job, in run order; the PARAMS column as wide as the widest (up to 48). */
static int plan_jobs(ctx *x, const vkb_suite *s, char *err, size_t errlen)
{
    for (int i = 0; i < s->nline; i++)
        if (!x->o->filter || strstr(s->line[i].kernel, x->o->filter)) x->total_cases += vkb_line_ncases(&s->line[i]);
    x->jobs = calloc(x->total_cases ? x->total_cases : 1, sizeof(*x->jobs));
    x->overheads = calloc(x->total_cases ? x->total_cases : 1, sizeof(*x->overheads));
    if (!x->jobs || !x->overheads) {
        snprintf(err, errlen, "out of host memory for %zu cases", x->total_cases);
        return -1;
    }
    size_t n = 0;
    x->pw = 6;
    for (int i = 0; i < s->nline; i++) {
        const vkb_line *l = &s->line[i];
        if (x->o->filter && !strstr(l->kernel, x->o->filter)) continue;
        for (size_t c = 0; c < vkb_line_ncases(l); c++, n++) {
            job *j = &x->jobs[n];
            j->l = l;
            vkb_line_case(l, c, j->pick);
            size_t w = 0;
            for (int a = 0; a < l->naxes; a++)
                w += strlen(l->axis[a].key) + strlen(l->axis[a].val[j->pick[a]]) + 2;
            if ((int)w > x->pw) x->pw = w > 48 ? 48 : (int)w;
        }
    }
    return 0;
}

/* Host memory the prefetched cases may hold: a third of what is available now. */
static double host_budget(void)
{
    long pages = sysconf(_SC_AVPHYS_PAGES), size = sysconf(_SC_PAGESIZE);
    return pages > 0 && size > 0 ? (double)pages * (double)size / 3 : 4.0 * (1u << 30);
}

static int cmp_double(const void *a, const void *b)
{
    double x = *(const double *)a, y = *(const double *)b;
    return (x > y) - (x < y);
}

/* Where the run's wall time went (the per-row columns summed) and the per-case overhead's distribution. */
static void print_costs(ctx *x, FILE *f)
{
    fprintf(f, "prefetch_workers: %d%s\n", x->workers,
            x->workers ? " (inputs and references of the next cases prepared while the GPU times this one)" : "");
    fprintf(f, "precompile: %s\n", x->pc_line);
    fprintf(f, "fast_ref_blas_caller: %s\n", x->blas_caller ? x->blas_caller : "NA (the run ended before its cases)");
    fprintf(f, "wall_s: %.3f (the run, calibration excluded: %.3f)\n", vkb_now_s() - x->started, x->sum.wall_s);
    fprintf(f, "sum_setup_s: %.3f\nsum_ref_s: %.3f\nsum_ref_wait_s: %.3f\nsum_check_s: %.3f\nsum_timing_s: %.3f\n"
               "sum_energy_s: %.3f\nsum_cpu_fast_s: %.3f\nsum_cpu_wait_s: %.3f\nsum_overhead_s: %.3f\n",
            x->sum.setup_s, x->sum.ref_s, x->sum.ref_wait_s, x->sum.check_s, x->sum.timing_s, x->sum.energy_s,
            x->sum.cpu_fast_s, x->sum.cpu_wait_s, x->sum.overhead_s);
    if (!x->noverhead) return;
    qsort(x->overheads, x->noverhead, sizeof(double), cmp_double);
    size_t n = x->noverhead;
    fprintf(f, "overhead_median_s: %.3f (over the %zu timed cases)\noverhead_p90_s: %.3f\n",
            gsl_stats_quantile_from_sorted_data(x->overheads, 1, n, 0.5), n,
            gsl_stats_quantile_from_sorted_data(x->overheads, 1, n, 0.9));
}

int vkb_run(vkb_vk *v, const vkb_suite *s, const vkb_run_opts *o, vkb_run_totals *tot, char *err, size_t errlen)
{
    ctx x;
    FILE *info = NULL;
    char dir[600], path[700], devslug[64];
    int ret = -1;
    memset(&x, 0, sizeof(x));
    memset(tot, 0, sizeof(*tot));
    x.v = v;
    x.info = vkb_vk_info(v);
    vkb_vk_caps(v, &x.caps);
    x.o = o;
    x.tot = tot;
    vkb_topo_read(&x.topo);
    time_t now = time(NULL);
    struct tm tm;
    gmtime_r(&now, &tm);
    strftime(x.date, sizeof(x.date), "%Y-%m-%dT%H:%M:%SZ", &tm);
    char stamp[32];
    strftime(stamp, sizeof(stamp), "%Y%m%dT%H%M%SZ", &tm);
    vkb_slug(x.info->name, devslug, sizeof(devslug));
    if (preflight(s, o, &x.caps, &x.pc, err, errlen)) {
        vkb_precompile_free(x.pc);
        return -1;
    }
    if (o->established) {
        char p[700];
        snprintf(p, sizeof(p), "%s/results.csv", o->established);
        if ((x.nest = vkb_result_read(p, &x.est, err, errlen)) < 0) {
            vkb_precompile_free(x.pc);
            return -1;
        }
    }
    /* Prefetch only where the timed device is not the CPU that would prepare the cases (lavapipe: none). */
    long ncpu = sysconf(_SC_NPROCESSORS_ONLN);
    x.workers = o->jobs >= 0 ? o->jobs : x.caps.is_cpu ? 0 : (int)fmin(4, fmax(1, (double)ncpu / 4));
    /* The checks' comparators: on lavapipe they run alone (before timing), so on every core; beside GPU timing,
     * on the cores the prefetch workers and the submitting thread leave (an H200 host: 16 - 4 - 2 = 10). */
    vkb_check_set_threads(x.caps.is_cpu ? (int)ncpu : (int)(ncpu - x.workers - 2));
    if (o->out_dir) snprintf(dir, sizeof(dir), "%s", o->out_dir);
    else snprintf(dir, sizeof(dir), "%s/%s-%s-%s", o->out_root ? o->out_root : "results", stamp, vkb_version_commit(),
                  devslug);
    /* Exclusive and locked for the run: a second run never writes into this one (rundir.h). */
    if (vkb_rundir_open(&x.rd, dir, o->out_dir != NULL, o->force, err, errlen)) {
        vkb_precompile_free(x.pc);
        return -1;
    }
    snprintf(tot->dir, sizeof(tot->dir), "%s", x.rd.path);
    snprintf(path, sizeof(path), "%s %s", x.info->name, x.info->uuid);
    vkb_rundir_register(&x.rd, path);
#define OPEN(var, name)                                                                          \
    snprintf(path, sizeof(path), "%s/%s", x.rd.path, name);                                     \
    if (!(var = fopen(path, "w"))) {                                                              \
        snprintf(err, errlen, "cannot write %s: %s", path, strerror(errno));                     \
        goto out;                                                                                 \
    }
    OPEN(x.csv, "results.csv");
    OPEN(x.samples, "samples.csv");
    OPEN(info, "run.txt");
#undef OPEN
    /* Buffers larger than a row (at most ~100 cells of 512 bytes): each row reaches the file in one write(). */
    setvbuf(x.csv, NULL, _IOFBF, 1 << 17);
    setvbuf(x.samples, NULL, _IOFBF, 1 << 17);
    vkb_result_write_header(x.csv);
    vkb_samples_write_header(x.samples);
    if (vkb_rundir_sync(x.csv) || vkb_rundir_sync(x.samples)) {
        snprintf(err, errlen, "cannot write %s/results.csv or samples.csv: %s", x.rd.path, strerror(errno));
        goto out;
    }
    double t0 = vkb_now_s();
    if (vkb_vk_timer_floor(v, &x.timer_floor)) {
        snprintf(err, errlen, "timer floor: %s", vkb_vk_error(v));
        goto out;
    }
    x.started = vkb_now_s();
    if (isatty(2)) fprintf(stderr, "calibrating (or reading the cache)...");
    vkb_telrow_open(&x.tr, &x.topo, x.info, o->no_telemetry, o->discard_throttled);
    vkb_calib_get(v, o->out_root, o->recalibrate, o->no_calibrate, vkb_telrow_nvml(&x.tr), x.timer_floor, &x.cal,
                  err, errlen);
    x.copy_Bps = x.cal.val[VKB_CAL_COPY];
    x.tm = (vkb_timing){.v = v, .caps = &x.caps, .o = o, .tr = &x.tr, .timer_floor = x.timer_floor, .gpu_last = NAN};
    /* The first reading, while the calibration's copy refresh has the chip busy, seeds the run's reference. */
    vkb_clock_open(&x.tm.clk, v, &x.caps);
    char clk_why[200] = "";
    double clk_seed = vkb_clock_read(&x.tm.clk, v, clk_why, sizeof(clk_why));
    vkb_trace("run_start", "timer floor, telemetry, calibration", t0);
    if (isatty(2)) fprintf(stderr, "\r\033[K");
    write_runinfo(&x, s, info);
    char first[240];
    if (isnan(clk_seed)) snprintf(first, sizeof(first), "NA (%s)", clk_why);
    else snprintf(first, sizeof(first), "%.0f MHz", clk_seed);
    if (x.tm.clk.ok)
        fprintf(info, "clock_check: shader-clock probe (VK_KHR_shader_clock) before and after each case's samples; "
                "low below %.1f x %s; first reading %s\n", VKB_CLOCK_LOW_FRAC,
                isnan(o->clock_ref) ? "the run's highest reading" : "--clock-ref", first);
    else fprintf(info, "clock_check: NA (%s)\n", clk_why);
    vkb_rundir_sync(info);
    if (plan_jobs(&x, s, err, errlen)) goto out;
    print_header(&x);
    x.started = vkb_now_s();
    x.tm.gpu_last = NAN;
    vkb_prefetch_fns fns = {job_size, job_work, &x, pf_ready};
    /* The fast references' OpenBLAS caller, at this thread's priority, not the workers' (cpu/fastref.c says why);
     * not started: each slice runs on its worker, as slowly as before. */
    x.blas_caller = !x.workers ? "the thread that runs the reference (no prefetch workers)"
                    : !vkb_fast_start() ? "a thread of its own at the driver's priority"
                                         : "each prefetch worker, at idle priority (the caller thread did not start)";
    size_t ahead = x.workers ? 64 : 0;  /* long references start early; the memory budget bounds it */
    if (!(x.pf = vkb_prefetch_start(x.total_cases, x.workers, ahead, host_budget(), fns))) {
        snprintf(err, errlen, "out of host memory for the run");
        goto out;
    }
    /* Beside a GPU's workers only (a CPU device's compiles would compete with its timing, --jobs or not: tests force
     * it there with VKB_PRECOMPILE=1), and not under --validate (the layer's messages are counted against the case
     * in flight). */
    const char *pce = getenv("VKB_PRECOMPILE");
    int force = pce && !strcmp(pce, "1");
    const char *pc_off = !x.workers ? "no prefetch workers" : o->validate ? "--validate"
                         : pce && !strcmp(pce, "0") ? "VKB_PRECOMPILE=0" : x.caps.is_cpu && !force ? "a CPU device" : NULL;
    /* As many compile threads as workers: one took 91 s over the default suite on a fresh H200 (empty driver shader
     * cache), and the main thread waited 17-21 s of it for pipelines. */
    if (!pc_off && vkb_precompile_start(x.pc, v, &x.reached, x.workers)) pc_off = "the threads did not start";
    for (size_t i = 0; i < x.total_cases && !vkb_run_interrupted; i++) {
        __atomic_store_n(&x.reached, i, __ATOMIC_RELAXED);
        run_case(&x, i);
    }
    if (pc_off) snprintf(x.pc_line, sizeof(x.pc_line), "off (%s)", pc_off);
    else vkb_precompile_stop(x.pc, x.pc_line, sizeof(x.pc_line));
    t0 = vkb_now_s();
    vkb_prefetch_stop(x.pf);
    vkb_trace("prefetch_stop", NULL, t0);
    size_t finished = x.done_cases - x.interrupted_rows;
    fprintf(info, "finished: %s after %zu of %zu cases\n", vkb_run_interrupted ? "interrupted" : "complete",
            finished, x.total_cases);
    fprintf(info, "totals: pass %d fail %d skip %d error %d interrupted %d\n", tot->pass, tot->fail, tot->skip,
            tot->error, tot->interrupted);
    print_costs(&x, info);
    fprintf(info, "clock_low_rows: %zu (timed twice, both passes at a low clock: the gate does not judge them)\n",
            x.tm.low_clock_rows);
    fprintf(info, "clock_slow_kept_rows: %zu (timed twice under %.1f x the reference, the second pass as slow; from %d on, "
            "a clock settled there is a cap and not timed twice)\n", x.tm.slow_kept_rows, VKB_CLOCK_RETIME_FRAC,
            VKB_CLOCK_SETTLED_MAX);
    if (x.tm.low_clock_rows)
        fprintf(stderr, "warning: %zu row%s timed at a low GPU clock even after a second warm-up (clock_check column)\n",
                x.tm.low_clock_rows, x.tm.low_clock_rows == 1 ? "" : "s");
    fprintf(info, "validation_messages: %llu\n", (unsigned long long)vkb_vk_validation_messages(v));
    if (x.write_errno) {
        snprintf(err, errlen, "writing the rows of %s failed: %s (rows before the failure are on disk)", x.rd.path,
                 strerror(x.write_errno));
        goto out;
    }
    /* The last line says how the run ended; a run without it was killed (rundir.h). */
    if (vkb_run_interrupted) fprintf(info, "status: interrupted after %zu of %zu cases\n", finished, x.total_cases);
    else fprintf(info, "status: complete\n");
    if (vkb_rundir_sync(info)) {
        snprintf(err, errlen, "cannot write %s/run.txt: %s", x.rd.path, strerror(errno));
        goto out;
    }
    ret = 0;
out:
    if (ret && info) fprintf(info, "status: error: %s\n", err);  /* not killed: say why it stopped */
    vkb_prefetch_free(x.pf);  /* the workers stopped first: no section is in flight when the guards go */
    vkb_fast_stop();
    vkb_cpu_guard_set(NULL, NULL, NULL);
    vkb_precompile_free(x.pc);
    for (size_t i = 0; x.jobs && i < x.total_cases; i++) {  /* prepared, never run */
        vkb_gpu_release(x.jobs[i].g);
        vkb_case_free(&x.jobs[i].c);
    }
    free(x.jobs);
    free(x.overheads);
    free(x.est);
    vkb_clock_close(&x.tm.clk);
    vkb_telrow_close(&x.tr);
    if (x.csv) fclose(x.csv);
    if (x.samples) fclose(x.samples);
    if (info) fclose(info);
    vkb_rundir_close(&x.rd);
    return ret;
}
