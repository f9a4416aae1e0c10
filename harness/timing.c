/* timing.c — the time phase of a case; see timing.h. */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "fsutil.h"
#include "stats.h"
#include "timing.h"

/* Idle GPUs drop their clocks: on an H200 the first ~0.2 s of a 1 GiB copy after a CPU-side reference ran
 * 2.5x slower. The device is kept busy for as long as it sat idle (at most 0.3 s, at least 20 ms), so a
 * case that follows another closely needs almost no warm-up while the first one of a run gets it all. */
#define CLOCK_REWARM_S 0.5   /* the warm-up before timing again a case whose samples ran at a low clock */
#define CLOCK_WARM_MAX_S 1.5 /* the most clock_warm adds to a case's warm-up */

/* One submission of the timed work: batch calls (hot, rotate) or, cold, nsamp samples (vkb_gpu_run_cold; batch 1).
 * The samples' seconds in t[], the GPU seconds of the whole submission (cold: flushes included) in *busy; returns
 * how many samples, or -1. */
static int run_samples(vkb_gpu *g, uint32_t batch, int cold, uint32_t nsamp, double *t, double *busy)
{
    if (cold) return vkb_gpu_run_cold(g, nsamp, t, busy);
    if (vkb_gpu_run(g, batch, 0, t)) return -1;
    *busy = t[0];
    return 1;
}

/* Run the case's batches for >= busy_s GPU seconds (or 2 busy_s + 1 s of wall time); the GPU seconds in *done.
 * Cold mode's flushes count: they keep the GPU as busy as the work (one sample's work alone, a few us against a
 * 120 us flush, kept a case warming up for the wall-time limit). */
static int keep_busy(vkb_gpu *g, uint32_t batch, int cold, uint32_t nsamp, double busy_s, double *done)
{
    double busy = 0, wall0 = vkb_now_s();
    while (busy < busy_s && vkb_now_s() - wall0 < 2 * busy_s + 1) {
        double t[VKB_COLD_SAMPLES_MAX], b;
        if (run_samples(g, batch, cold, nsamp, t, &b) < 0) return -1;
        busy += b;
    }
    *done = busy;
    return 0;
}

static int warm_up(vkb_timing *x, vkb_gpu *g, uint32_t batch, int cold, uint32_t nsamp, double at_least)
{
    double idle = isnan(x->gpu_last) ? 1 : vkb_now_s() - x->gpu_last, busy;
    double warm = x->caps->is_cpu ? 0.02 : fmin(0.3, fmax(0.02, idle));
    return keep_busy(g, batch, cold, nsamp, fmax(warm, at_least) /* the suite's warmup= */, &busy);
}

/* The clock the check judges against: --clock-ref, else the run's highest probe reading. */
static double clock_ref(const vkb_timing *x) { return !isnan(x->o->clock_ref) ? x->o->clock_ref : x->clk.ref_MHz; }

/* The shader clock after the warm-up, warming on in 50 ms steps of the case's own batches (at most
 * CLOCK_WARM_MAX_S) by vkb_clock_warm_step's rule (telemetry.h): on an H200 left idle for seconds by inline CPU
 * references, 4 of 9 cases still read 346-571 MHz after the 0.3 s warm-up, and a clock that held 1254-1485 MHz
 * (of 1993) for one step rose again 20-250 ms into the samples (session 21: 7 of the default suite's rows ran into
 * the timeout on two plateaus). Returns the last reading (NAN with why: no probe). */
static double clock_warm(vkb_timing *x, vkb_gpu *g, uint32_t batch, int cold, uint32_t nsamp, char *why, size_t len)
{
    double mhz = vkb_clock_read(&x->clk, x->v, why, len), extra = 0, base = NAN, busy;
    int flat = 0;
    while (!x->caps->is_cpu && !isnan(mhz) && extra < CLOCK_WARM_MAX_S &&
           !vkb_clock_warm_step(mhz, clock_ref(x), &base, &flat)) {
        if (keep_busy(g, batch, cold, nsamp, 0.05, &busy)) return NAN;
        extra += busy;
        mhz = vkb_clock_read(&x->clk, x->v, why, len);
    }
    return mhz;
}

/* The clock the samples ran at, the lower of the probe readings before (pre) and after them: clock_MHz and
 * clock_check. Returns 1 when low. */
static int clock_verdict(vkb_timing *x, double pre, vkb_result *r, double *post_out)
{
    char cw[200] = "";
    double post = vkb_clock_read(&x->clk, x->v, cw, sizeof(cw)), mhz = isnan(pre) ? post : isnan(post) ? pre : fmin(pre, post);
    *post_out = post;
    r->clock_MHz = mhz;
    return vkb_clock_judge(mhz, clock_ref(x), x->caps->is_cpu && isnan(x->o->clock_ref), cw, r->clock_check,
                           sizeof(r->clock_check));
}

/* The timing columns from the n per-call samples. */
static void summary_columns(const double *s, size_t n, vkb_result *r)
{
    vkb_summary sm;
    vkb_stats_summarise(s, n, &sm);
    r->samples = (int64_t)n;
    r->time_median_s = sm.median;
    r->time_mean_s = sm.mean;
    r->time_stddev_s = sm.stddev;
    r->time_min_s = sm.min;
    r->time_max_s = sm.max;
    r->time_q1_s = sm.q1;
    r->time_q3_s = sm.q3;
    r->time_ci_lo_s = sm.ci_lo;
    r->time_ci_hi_s = sm.ci_hi;
    r->rel_noise = sm.rel_stddev;
    r->outliers = (int64_t)sm.outliers;
}

/* Adaptive timed sampling of a validated case. When the samples can double as the energy window
 * (telrow.h), batches last ~20 ms and sampling runs on until the window is long enough; else a separate energy
 * window follows (energy_s). The batches are one recording submitted again (vk.c's tcmd): in an H200's windows of
 * 3-10 us kernels the GPU was busy 95-98% of the time, 64-78% while each batch was recorded anew. */
int vkb_timing_measure(vkb_timing *x, vkb_gpu *g, const vkb_line *l, int cold, vkb_result *r, double **samples_out,
                   size_t *nout)
{
    const vkb_run_opts *o = x->o;
    vkb_stop st;
    int shared = vkb_telrow_energy_shared(x->tr, !cold);
    double t1, b1, tw = vkb_now_s();
    if (run_samples(g, 1, cold, 1, &t1, &b1) < 0) return -1;  /* the batch estimate */
    uint32_t nsamp = 1, copies = vkb_gpu_copies(g);
    /* On a GPU, batches of >= 2 ms keep it busy between submissions: with 100 us batches an H200 gate launch
     * whose host was busy (references, the check) ran its first launch 1.1x-4x slower than the next ones. Cold
     * samples share a submission up to the same length (b1: one sample's submission, flush and untimed run in). */
    double target = shared ? 0.02 : fmax(x->caps->is_cpu ? 1e-4 : 2e-3, 50 * x->timer_floor);
    uint32_t batch = vkb_batch_calls(cold ? NAN : t1, target, copies);
    if (cold) nsamp = (uint32_t)fmax(1, fmin(floor(target / fmax(b1, 1e-9)), VKB_COLD_SAMPLES_MAX));
    if (cold && vkb_vk_cold_samples(x->v)) nsamp = (uint32_t)vkb_vk_cold_samples(x->v);
    if (cold) {
        size_t used = strlen(r->note);
        snprintf(r->note + used, sizeof(r->note) - used, "%s%u sample%s a submission", used ? "; " : "", nsamp,
                 nsamp > 1 ? "s" : "");
    }
    size_t cap = 256, n = 0;
    double *s = malloc(cap * sizeof(*s)), first_MHz = NAN, first_s = NAN;
    if (!s) return -1;
    int retimed = 0;
again:
    if (warm_up(x, g, batch, cold, nsamp, retimed ? fmax(l->opt.warmup, CLOCK_REWARM_S) : l->opt.warmup)) {
        free(s);
        return -1;
    }
    double pre = clock_warm(x, g, batch, cold, nsamp, r->clock_check, sizeof(r->clock_check));
    /* The batch again, from a call after the warm-up. The first estimate's call can be a new pipeline's first, at
     * the clocks the warm-up had yet to lift: on an H200 the first fp16 4096 GEMM of each accept16 run (0.52 ms a
     * call) was sized to batch 1, one call a submission, and read 1.9-2.1% slower (at 1949-1970 MHz) than the same
     * pipeline timed later in the run at batch 3-4 (tests/gpu/sweep_s42c.txt). One call and a submission more a row;
     * none on a CPU device, whose clock the warm-up does not lift and whose calls can take seconds. */
    if (!cold && !retimed && !x->caps->is_cpu) {
        if (run_samples(g, 1, 0, 1, &t1, &b1) < 0) {
            free(s);
            return -1;
        }
        batch = vkb_batch_calls(t1, target, copies);
    }
    vkb_stop_init(&st);
    st.min_time = !isnan(o->min_time) ? o->min_time : l->opt.min_time;
    st.max_noise = !isnan(o->max_noise) ? o->max_noise : l->opt.max_noise;
    st.timeout = !isnan(o->timeout) ? o->timeout : l->opt.timeout;
    st.min_samples = (size_t)(o->min_samples >= 0 ? o->min_samples : l->opt.min_samples);
    n = 0;
    vkb_telrow_case_begin(x->tr);
    double t0 = vkb_now_s(), calls = 0, shift_MHz = NAN /* the clock read at the last speed-up */;
    int waited = 0;   /* the stopping rule had fired before the energy window was long enough */
    for (;;) {
        double t[VKB_COLD_SAMPLES_MAX], busy;
        int k = run_samples(g, batch, cold, nsamp, t, &busy), stop = 0;
        if (k < 0) {
            free(s);
            return -1;
        }
        calls += batch * (uint32_t)k;
        if (vkb_telrow_reject(x->tr, vkb_now_s() - t0, st.timeout)) continue;  /* --discard-throttled */
        if (n + (size_t)k > cap) {
            double *ns = realloc(s, 2 * cap * sizeof(*s));
            if (!ns) { st.why = "out of memory for more samples"; break; }
            s = ns;
            cap *= 2;
        }
        double el = vkb_now_s() - t0;
        size_t shifts = st.shifts;
        for (int i = 0; i < k && !stop; i++) {  /* the rule sees each sample; those after its stop are not kept */
            s[n++] = t[i] / batch;
            stop = vkb_stop_next(&st, s, &n, batch, el);
        }
        if (st.shifts > shifts && !x->caps->is_cpu) {   /* the GPU sped up (stats.h): the kept level's clock */
            char cw[200] = "";
            shift_MHz = pre = vkb_clock_read(&x->clk, x->v, cw, sizeof(cw));
        }
        /* The energy window is the samples' wall time: the counter integrates it, gaps between batches
         * included, and energy per call divides by every call in it. */
        if (vkb_run_interrupted || (stop && (!shared || vkb_telrow_energy_ready(x->tr, el)))) break;
        waited = stop;
    }
    /* A low clock (an idle one the warm-up did not lift) discards the samples and times the case again after a
     * longer warm-up; a second low pass is kept, flagged in clock_check, and the gate will not judge it. So does a
     * clock under VKB_CLOCK_RETIME_FRAC x the reference that was still rising (the reading after the samples 5%
     * above the one before them), once, unflagged: on an H200, light kernels after the main thread's CPU work read
     * 1254-1612 of ~2000 MHz on a plateau the warm-up had stopped at, and their medians differed by 5-24% from
     * another run's (session 21). So does a clock settled there, until VKB_CLOCK_SETTLED_MAX rows have kept it
     * through both passes (telemetry.h: then it is a cap, the device's real state). */
    double post;
    int low = clock_verdict(x, pre, r, &post);
    if (vkb_clock_retime(r->clock_MHz, clock_ref(x), pre, post, x->caps->is_cpu, low, retimed, &x->slow_kept_rows) &&
        !vkb_run_interrupted) {
        vkb_summary f;
        vkb_stats_summarise(s, n, &f);
        first_MHz = r->clock_MHz;
        first_s = f.median;
        retimed = 1;
        goto again;
    }
    if (retimed) {
        size_t u = strlen(r->clock_check);
        snprintf(r->clock_check + u, sizeof(r->clock_check) - u, "; re-timed after a first pass at %.0f MHz (median %.4g s)",
                 first_MHz, first_s);
    }
    if (low) x->low_clock_rows++;
    double wall = vkb_now_s() - t0;
    if (shared) {
        vkb_telrow_case_end_shared(x->tr, wall, calls, r);
        r->energy_s = 0;  /* no time beyond the samples */
    }
    r->timing_s = vkb_now_s() - tw;
    r->batch = batch;
    snprintf(r->stop_reason, sizeof(r->stop_reason), "%s",
             vkb_run_interrupted ? "interrupted" : waited ? "energy window (>= 1 s)" : st.why);
    if (st.shifts && !vkb_run_interrupted) {   /* an interrupted row keeps the bare word run.c marks it by */
        size_t u = strlen(r->stop_reason);
        char mhz[40] = "clock NA";
        if (!isnan(shift_MHz)) snprintf(mhz, sizeof(mhz), "at %.0f MHz", shift_MHz);
        snprintf(r->stop_reason + u, sizeof(r->stop_reason) - u,
                 "; after %zu speed-up%s (the last %+.1f%%, %s): the %zu samples before %s dropped", st.shifts,
                 st.shifts > 1 ? "s" : "", 100 * st.shift_rel, mhz, st.dropped, st.shifts > 1 ? "them" : "it");
    }
    summary_columns(s, n, r);
    *samples_out = s;
    *nout = n;
    return 0;
}

/* --profile: PROFILE_RUNS runs with a timestamp after each dispatch; per dispatch the median, summed per shader
 * (vkb_profile_format). The runs follow the samples, so the clocks are warm; their time counts in timing_s. */
#define PROFILE_RUNS 5
void vkb_timing_profile(vkb_timing *x, vkb_gpu *g, const vkb_case *c, int cold, vkb_result *r)
{
    int n = c->ndisp;
    double *t = malloc((size_t)n * (PROFILE_RUNS + 1) * sizeof(*t)), t0 = vkb_now_s();
    const char **names = malloc((size_t)n * sizeof(*names));
    if (!t || !names) snprintf(r->profile, sizeof(r->profile), "NA (out of host memory for %d dispatches)", n);
    for (int k = 0; t && names && k < PROFILE_RUNS; k++)
        if (vkb_gpu_profile(g, cold, t + (size_t)k * n)) {
            snprintf(r->profile, sizeof(r->profile), "NA (%s)", vkb_vk_error(x->v));
            break;
        }
    if (t && names && !r->profile[0]) {
        double *med = t + (size_t)PROFILE_RUNS * n, run[PROFILE_RUNS];
        for (int i = 0; i < n; i++) {
            for (int k = 0; k < PROFILE_RUNS; k++) run[k] = t[(size_t)k * n + i];
            vkb_summary sm;
            vkb_stats_summarise(run, PROFILE_RUNS, &sm);
            med[i] = sm.median;
            names[i] = c->pipe[c->disp[i].pipe].shader;
        }
        vkb_profile_format(names, med, n, r->profile, sizeof(r->profile));
    }
    free(t);
    free(names);
    r->timing_s += vkb_now_s() - t0;
}

