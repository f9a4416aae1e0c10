/* slowdown.c — calibrated injected slowdown for the gate's self-test (see slowdown.h). */
#include "slowdown.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <gsl/gsl_sort.h>
#include <gsl/gsl_statistics_double.h>

#define REPS 9            /* timed batches per side of one ratio estimate (interleaved) */
#define MAX_SLOW 0xFFFFFFu   /* the count's 24 bits; vkb_slow() reads the top byte as a mask the host keeps 0 */

int vkb_slowdown_find(const char *spec, const char *kernel, double *f, char *err, size_t errlen)
{
    int found = 0;
    for (const char *p = spec; p && *p;) {
        const char *e = strchr(p, ','), *eq = strchr(p, '=');
        size_t len = e ? (size_t)(e - p) : strlen(p);
        char *end;
        if (!eq || eq >= p + len || eq == p) {
            snprintf(err, errlen, "--slowdown '%.*s': expected KERNEL=FRACTION", (int)len, p);
            return -1;
        }
        double v = strtod(eq + 1, &end);
        if (end != p + len || !(v > 0 && v <= 10)) {
            snprintf(err, errlen, "--slowdown '%.*s': fraction must be in (0, 10]", (int)len, p);
            return -1;
        }
        if (kernel && (size_t)(eq - p) == strlen(kernel) && !strncmp(p, kernel, (size_t)(eq - p))) {
            *f = v;
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

/* Ratio of median times, slowed (pc.slow = s) over unmodified, from reps interleaved batches each, so
 * drift during the estimate hits both sides alike. */
static int ratio_at(vkb_gpu *g, vkb_case *c, uint32_t s, uint32_t batch, int cold, int reps, double *ratio)
{
    double t0[64], t1[64];
    for (int r = 0; r < reps; r++) {
        set_slow(c, 0);
        if (vkb_gpu_run(g, batch, cold, &t0[r])) return -1;
        set_slow(c, s);
        if (vkb_gpu_run(g, batch, cold, &t1[r])) return -1;
    }
    gsl_sort(t0, 1, (size_t)reps);
    gsl_sort(t1, 1, (size_t)reps);
    *ratio = gsl_stats_median_from_sorted_data(t1, 1, (size_t)reps) / gsl_stats_median_from_sorted_data(t0, 1, (size_t)reps);
    return 0;
}

int vkb_slowdown_apply(vkb_vk *v, vkb_gpu *g, vkb_case *c, const char *spec, int cold, char *note, size_t notelen, char *err,
                       size_t errlen)
{
    double f, t1, r = 1, rlo = 1, rhi;
    int found = vkb_slowdown_find(spec, c->k->name, &f, err, errlen);
    if (found <= 0) return found;
    const double target = 1 + f;
    /* ~1 ms batches: long enough for the timer, short enough that the search stays around a second. */
    if (vkb_gpu_run(g, 1, cold, &t1)) goto vk_error;
    uint32_t batch = cold ? 1 : (uint32_t)fmin(fmax(ceil(1e-3 / fmax(t1, 1e-9)), 1), 1000), lo = 0, hi = 1;
    for (;; hi = hi >= MAX_SLOW / 2 ? MAX_SLOW : 2 * hi) {
        if (ratio_at(g, c, hi, batch, cold, REPS, &r)) goto vk_error;
        if (r >= target) break;
        /* 64Ki dependent iterations per invocation dwarf any kernel that really runs them. */
        if (hi >= MAX_SLOW || (hi >= 65536 && r < 1 + f / 2)) {
            set_slow(c, 0);
            snprintf(err, errlen, "--slowdown %s: pc.slow = %u makes it only %.4fx slower (target %.3fx): does its "
                     "shader call vkb_slow()?", c->k->name, hi, r, target);
            return -1;
        }
        lo = hi;
        rlo = r;
    }
    rhi = r;
    while (hi - lo > 1 && hi - lo > lo / 64) {   /* bisect to ~1.5% of the count */
        uint32_t mid = lo + (hi - lo) / 2;
        if (ratio_at(g, c, mid, batch, cold, REPS, &r)) goto vk_error;
        if (r < target) lo = mid, rlo = r;
        else hi = mid, rhi = r;
    }
    uint32_t s = lo > 0 && fabs(rlo - target) < fabs(rhi - target) ? lo : hi;
    /* Verify with 3x the batches; a noisy device can mislead the search, so correct proportionally (the
     * added time grows about linearly with the count once it shows) until within tolerance. */
    const double tol = fmax(0.01, 0.2 * f);
    for (int attempt = 0;; attempt++) {
        if (ratio_at(g, c, s, batch, cold, 3 * REPS, &r)) goto vk_error;   /* the factor actually achieved */
        if (fabs(r - target) <= tol || attempt == 4) break;
        double scale = r > 1.0005 ? f / (r - 1) : 4;
        s = (uint32_t)fmin(fmax(round(s * fmin(fmax(scale, 0.25), 4)), 1), MAX_SLOW);
    }
    if (fabs(r - target) > tol) {   /* an honest ERROR row rather than a slowdown of unknown size */
        set_slow(c, 0);
        snprintf(err, errlen, "--slowdown %s: calibration did not converge: %.4fx at pc.slow = %u (target %.3fx "
                 "+- %.3f; too noisy a device, or its shader ignores pc.slow)", c->k->name, r, s, target, tol);
        return -1;
    }
    set_slow(c, s);
    size_t used = strlen(note);
    snprintf(note + used, notelen - used, "%sslowdown pc.slow=%u: %.4fx achieved (target %.4fx, %d interleaved "
             "batches)", used ? "; " : "", s, r, target, 3 * REPS);
    return 0;
vk_error:
    set_slow(c, 0);
    snprintf(err, errlen, "--slowdown calibration: %s", vkb_vk_error(v));
    return -1;
}
