/* slowdown.c — calibrated injected slowdown for the gate's self-test (see slowdown.h). */
#include "slowdown.h"
#include "registry.h"

#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <gsl/gsl_sort.h>
#include <gsl/gsl_statistics_double.h>

/* pc.slow (kernels/common.glsl): level in bits 0..22, kind in bit 23 (1 = memory), and the top byte a
 * mask that stays 0 so the work never changes a result. */
#define LEVEL_MAX 0x7FFFFFu
#define KIND_MEM 0x800000u
#define REPS 9         /* interleaved batch pairs per ratio estimate (at least); the verification takes 3x as many */
#define MAX_PAIRS 81
#define MAX_EST 24     /* ratio estimates per calibration before it gives up */

int vkb_slowdown_find(const char *spec, const char *kernel, double *f, vkb_slow_kind *kind, char *err, size_t errlen)
{
    int found = 0;
    for (const char *p = spec; p && *p;) {
        const char *e = strchr(p, ','), *eq = strchr(p, '=');
        size_t len = e ? (size_t)(e - p) : strlen(p);
        char *end;
        if (!eq || eq >= p + len || eq == p) {
            snprintf(err, errlen, "--slowdown '%.*s': expected KERNEL=FRACTION[:alu|:mem]", (int)len, p);
            return -1;
        }
        double v = strtod(eq + 1, &end);
        vkb_slow_kind k = VKB_SLOW_AUTO;
        if (end + 4 == p + len && !strncmp(end, ":alu", 4)) k = VKB_SLOW_ALU, end += 4;
        else if (end + 4 == p + len && !strncmp(end, ":mem", 4)) k = VKB_SLOW_MEM, end += 4;
        if (end != p + len || !(v > 0 && v <= 10)) {
            snprintf(err, errlen, "--slowdown '%.*s': expected KERNEL=FRACTION[:alu|:mem], fraction in (0, 10]", (int)len, p);
            return -1;
        }
        if (!kernel) {   /* the option's own check: every KERNEL must be one (a typo would inject nothing, silently) */
            char name[64];
            snprintf(name, sizeof(name), "%.*s", (int)(eq - p), p);
            if (!vkb_registry_find(name)) {
                snprintf(err, errlen, "--slowdown '%.*s': no kernel '%s' (vkbench list names them)", (int)len, p, name);
                return -1;
            }
        }
        if (kernel && (size_t)(eq - p) == strlen(kernel) && !strncmp(p, kernel, (size_t)(eq - p))) {
            *f = v;
            if (kind) *kind = k;
            found = 1;
        }
        p = e ? e + 1 : p + len;
    }
    return found;
}

static void set_slow(vkb_case *c, uint32_t s)
{
    for (int i = 0; i < c->ndisp; i++) c->disp[i].push.slow = s;
}

/* The slowdown at pc.slow = word: the median over interleaved pairs (a plain batch, then a slowed one) of
 * slowed / plain, so drift during the estimate, even from one pair to the next, cancels. The plain batches run the
 * case's own pipelines, the slowed ones those with the knob compiled in (vkb_gpu_gate): the factor is over the
 * kernel as every unslowed run times it, what the gate's A/A and injected launches compare. At least reps
 * pairs; then more, 4 at a time up to MAX_PAIRS, until the median's standard error (1.2533 sigma / sqrt(n),
 * sigma from the IQR) is <= prec: a GPU stops at reps, a CPU device on a busy host takes what it needs. */
static int ratio_at(vkb_gpu *g, vkb_case *c, uint32_t word, uint32_t batch, int cold, int reps, double prec,
                    double *ratio)
{
    double q[MAX_PAIRS], w[MAX_PAIRS];
    int n = 0;
    for (;;) {
        double t0, t1;
        set_slow(c, 0);
        if (vkb_gpu_run(g, batch, cold, &t0)) return -1;
        set_slow(c, word);
        if (vkb_gpu_run(g, batch, cold, &t1)) return -1;
        q[n++] = t1 / t0;
        if (n < reps || (n - reps) % 4) continue;
        memcpy(w, q, (size_t)n * sizeof(*w));
        gsl_sort(w, 1, (size_t)n);
        *ratio = gsl_stats_median_from_sorted_data(w, 1, (size_t)n);
        double iqr = gsl_stats_quantile_from_sorted_data(w, 1, (size_t)n, 0.75) -
                     gsl_stats_quantile_from_sorted_data(w, 1, (size_t)n, 0.25);
        if (n + 4 > MAX_PAIRS || 1.2533 * iqr / 1.349 / sqrt(n) <= prec) break;
    }
    set_slow(c, 0);
    return 0;
}

/* The next level to try. No upper bracket yet: scale the level by the proportional model (added time ~
 * level, true of bytes streamed and of a dependent loop alike), between 1.25x and 16x. Bracketed:
 * interpolate between the brackets, bisecting every other step so a noisy estimate cannot stall the
 * search at one end. Returns 0 when nothing is left to try. */
static uint32_t next_level(uint32_t l, double r, double f, uint32_t lo, double rlo, uint32_t hi, double rhi, int step)
{
    if (!hi) {
        if (l >= LEVEL_MAX) return 0;
        double gain = r - 1, s = gain > f / 8 ? f / gain : 16;
        double next = ceil((double)l * fmin(fmax(s, 1.25), 16));
        return (uint32_t)fmin(fmax(next, (double)l + 1), LEVEL_MAX);
    }
    if (hi - lo <= 1) return 0;
    double t = step % 2 == 0 && rhi > rlo ? (f + 1 - rlo) / (rhi - rlo) : 0.5;
    double next = (double)lo + round(fmin(fmax(t, 0), 1) * (double)(hi - lo));
    return (uint32_t)fmin(fmax(next, (double)lo + 1), (double)hi - 1);
}

static int finish(vkb_case *c, vkb_result *r, const char *status, const char *fmt, ...) __attribute__((format(printf, 4, 5)));
static int finish(vkb_case *c, vkb_result *r, const char *status, const char *fmt, ...)
{
    va_list ap;
    set_slow(c, 0);
    snprintf(r->status, sizeof(r->status), "%s", status);
    va_start(ap, fmt);
    vsnprintf(r->reason, sizeof(r->reason), fmt, ap);
    va_end(ap);
    return 1;
}

int vkb_slowdown_apply(vkb_vk *v, vkb_gpu *g, vkb_case *c, const char *spec, int cold, vkb_result *r)
{
    double f, t1, best_r = NAN;
    vkb_slow_kind kind = VKB_SLOW_AUTO;
    char err[200];
    int found = vkb_slowdown_find(spec, c->k->name, &f, &kind, err, sizeof(err));
    if (found < 0) return finish(c, r, "ERROR", "%s", err);
    if (!found) return 0;
    if (vkb_gpu_gate(g)) goto vk_error;   /* the slowed batches' pipelines: the knob compiled in */
    if (kind == VKB_SLOW_AUTO) kind = c->flops < 16 * c->bytes ? VKB_SLOW_MEM : VKB_SLOW_ALU;
    const int mem = kind == VKB_SLOW_MEM;
    const double target = 1 + f, tol = fmax(0.01, 0.2 * f);   /* 5% +- 1%, as the gate's acceptance asks */
    const uint32_t kindbit = mem ? KIND_MEM : 0;
    double buf0 = c->nbuf ? (double)c->buf[0].count * (double)vkb_dtype_size(c->buf[0].type) : 0;
    /* ~0.3 ms batches on a GPU: well above the timer floor, and ~0.1 s for a whole search. A CPU device
     * (lavapipe) on a busy host loses whole time slices and splits dispatches bimodally (0.37 or 0.75 ms
     * for the same one): 3 ms batches average that out. */
    for (int i = 0; i < 3; i++) {   /* the fastest of 3: one preempted dispatch must not shrink the batch */
        double t;
        if (vkb_gpu_run(g, 1, cold, &t)) goto vk_error;
        t1 = i ? fmin(t1, t) : t;
    }
    double span = c->caps.is_cpu ? 3e-3 : 3e-4;
    uint32_t batch = cold ? 1 : (uint32_t)fmin(fmax(ceil(span / fmax(t1, 1e-9)), 1), 1000), copies = vkb_gpu_copies(g);
    if (copies > 1) batch = (batch + copies - 1) / copies * copies;   /* rotate: every copy equally often */
    /* First guess. Memory: a level adds level/1024 passes over buffer 0, so f x the case's bytes is
     * f * 1024 * bytes / buf0. ALU: a small count, grown by the search. */
    double guess = mem && buf0 > 0 && c->bytes > 0 ? round(f * 1024 * c->bytes / buf0) : 16;
    uint32_t l = (uint32_t)fmin(fmax(guess, 1), LEVEL_MAX), lo = 0, hi = 0, best_l = 0;
    double rlo = 1, rhi = NAN;
    int est = 0, best_verified = 0;
    while (est < MAX_EST) {
        double q;
        int verified = l == best_l && !best_verified && fabs(best_r - target) <= tol;   /* see below */
        if (!verified) {
            if (ratio_at(g, c, kindbit | l, batch, cold, REPS, tol / 3, &q)) goto vk_error;
            est++;
        }
        if (verified || fabs(q - target) <= tol / 2) {   /* a candidate: measure again with 3x the batches */
            if (ratio_at(g, c, kindbit | l, batch, cold, 3 * REPS, tol / 4, &q)) goto vk_error;
            est++;
            verified = 1;
        }
        if (verified && fabs(q - target) <= tol) {
            set_slow(c, kindbit | l);
            r->injected_factor = q;
            size_t used = strlen(r->note);
            snprintf(r->note + used, sizeof(r->note) - used, "%sslowdown %s level=%u: %.4fx achieved (target %.4fx "
                     "+- %.4f, median of >= %d interleaved batch pairs; %d estimates)", used ? "; " : "", mem ? "mem" : "alu",
                     l, q, target, tol, 3 * REPS, est);
            if (mem) {
                used = strlen(r->note);
                snprintf(r->note + used, sizeof(r->note) - used, "; %.3f extra passes over '%s'", l / 1024.0,
                         c->buf[0].name);
            }
            return 0;
        }
        if (isnan(best_r) || l == best_l || fabs(q - target) < fabs(best_r - target))
            best_r = q, best_l = l, best_verified = verified;
        if (q >= target) hi = l, rhi = q;
        else lo = l, rlo = q;
        if (l == 1 && q > target + tol)
            return finish(c, r, "SKIP", "injected slowdown not calibrated: with the gate's knob compiled in, the "
                          "smallest %s level already makes it %.4fx slower than the plain pipeline (target %.4fx +- "
                          "%.4f)", mem ? "memory" : "ALU", q, target, tol);
        if (!hi && l >= LEVEL_MAX && q < 1 + f / 2)
            return finish(c, r, "SKIP", "injected slowdown not calibrated: %s level %u (the maximum) makes it only "
                          "%.4fx slower (target %.4fx): its shader ignores pc.slow (%s)", mem ? "memory" : "ALU", l,
                          q, target, mem ? "no VKB_SLOW_READ; try :alu" : "no vkb_slow(); try :mem");
        l = next_level(l, q, f, lo, rlo, hi, rhi, est);
        if (!l) {
            /* The brackets met: noise put one on the wrong side of the target. Verify the closest level if it
             * looked good enough (the check at the top), else search again from it without brackets. */
            lo = 0, rlo = 1, hi = 0, rhi = NAN;
            l = best_l;
        }
    }
    return finish(c, r, "SKIP", "injected slowdown not calibrated: no %s level within %.4fx +- %.4f after %d estimates "
                  "(closest %.4fx at level %u): too noisy a device, or a step response too coarse", mem ? "memory" : "ALU",
                  target, tol, est, best_r, best_l);
vk_error:
    return finish(c, r, "ERROR", "slowdown calibration: %s", vkb_vk_error(v));
}
