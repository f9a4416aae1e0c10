/* ceiling.c — the calibration block of run.txt and each row's utilization against the ceilings (pure: no
 * Vulkan, unit-tested in tests/unit.c); calibrate.c measures what these print and divide by. */
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "calibrate.h"

#define LOW_FRACTION 0.70  /* a measured ceiling under this fraction of its theoretical one is reported */

const char *const vkb_calib_keys[VKB_CAL_N] = {
    [VKB_CAL_COPY] = "copy_Bps", [VKB_CAL_READ] = "read_Bps", [VKB_CAL_WRITE] = "write_Bps",
    [VKB_CAL_FMA] = "fma_flop_per_s", [VKB_CAL_COOPMAT] = "coopmat_flop_per_s", [VKB_CAL_DISPATCH] = "dispatch_s",
};

/* What each ceiling measures: the utilization columns name it (run.txt, README's glossary). */
static const char *const what[VKB_CAL_N] = {
    [VKB_CAL_COPY] = "the copy kernel, bytes read + written",
    [VKB_CAL_READ] = "readbw, a read-only sum",
    [VKB_CAL_WRITE] = "writebw, write-only",
    [VKB_CAL_FMA] = "peak_fma, fp32 FMA chains",
    [VKB_CAL_COOPMAT] = "peak_coopmat, the best fp16-input fp32-accumulate configuration of the sweep",
    [VKB_CAL_DISPATCH] = "noop, one tiny dispatch",
};

void vkb_calib_print_items(FILE *f, const vkb_calib *c, const char *prefix)
{
    for (int i = 0; i < VKB_CAL_N; i++) {
        if (isnan(c->val[i])) fprintf(f, "%s%s: NA (%s)\n", prefix, vkb_calib_keys[i], c->why[i]);
        else fprintf(f, "%s%s: %.17g\n", prefix, vkb_calib_keys[i], c->val[i]);
    }
}


/* Each measured ceiling with a theoretical one: copy vs NVML bandwidth, fma and coopmat vs devpeak. */
static const struct {
    int item;
    const char *theo_key;
} pairs[] = {{VKB_CAL_COPY, "theoretical_Bps"},
             {VKB_CAL_FMA, "theoretical_fma_flop_per_s"},
             {VKB_CAL_COOPMAT, "theoretical_coopmat_flop_per_s"}};

static double pair_theo(const vkb_calib *c, int i)
{
    return i == 0 ? c->theo_Bps : c->theo_flops[i == 1 ? VKB_PEAK_FMA : VKB_PEAK_MMA];
}

void vkb_calib_print(FILE *f, const vkb_calib *c)
{
    const vkb_calib_refresh *r = &c->refresh;
    fprintf(f, "calibration: %s\n", c->source);
    vkb_calib_print_items(f, c, "ceiling_");   /* the timer floor is the run's own: run.txt prints it once, with the timer */
    if (r->n) {
        fprintf(f, "copy_refresh: %d samples of copy n=%llu at the start of this run (%.3g s): ceiling_copy_Bps is "
                   "their best; median %.6g B/s, IQR %.3g B/s (%.2f%% of the median), min %.6g B/s\n",
                r->n, (unsigned long long)r->elems, r->wall_s, r->median, r->q3 - r->q1,
                100 * (r->q3 - r->q1) / r->median, r->min);
        fprintf(f, "copy_refresh_median_Bps: %.17g\ncopy_refresh_iqr_Bps: %.17g\ncopy_refresh_samples: %d\n"
                   "copy_refresh_wall_s: %.6g\n", r->median, r->q3 - r->q1, r->n, r->wall_s);
    } else fprintf(f, "copy_refresh: NA (%s)\n", r->why);
    if (isnan(c->copy_calibrated)) fprintf(f, "copy_calibrated_Bps: NA\n");
    else fprintf(f, "copy_calibrated_Bps: %.17g (the calibration's figure, before this run's refresh)\n", c->copy_calibrated);
    if (isnan(c->theo_Bps)) fprintf(f, "theoretical_Bps: NA (%s)\n", c->theo_why);
    else fprintf(f, "theoretical_Bps: %.6g (2 x NVML max memory clock x bus width / 8)\n", c->theo_Bps);
    for (int k = 0; k < VKB_PEAK_N; k++)
        if (isnan(c->theo_flops[k])) fprintf(f, "%s: NA (%s)\n", pairs[k + 1].theo_key, c->theo_flops_why[k]);
        else fprintf(f, "%s: %.6g (%s)\n", pairs[k + 1].theo_key, c->theo_flops[k], c->theo_flops_why[k]);
    for (size_t i = 0; i < sizeof(pairs) / sizeof(pairs[0]); i++) {
        double m = c->val[pairs[i].item], t = pair_theo(c, (int)i);
        if (m < LOW_FRACTION * t)
            fprintf(f, "ceiling_below_theoretical: %s %.4g is %.1f%% of %s %.4g (under %.0f%%)\n", vkb_calib_keys[pairs[i].item],
                    m, 100 * m / t, pairs[i].theo_key, t, 100 * LOW_FRACTION);
    }
    fprintf(f, "utilization_bw_frac_copy: bw_Bps / ceiling_copy_Bps (%s, refreshed at the start of this run)\n"
               "utilization_bw_frac_read: bw_Bps / ceiling_read_Bps (%s)\n"
               "utilization_bw_frac_write: bw_Bps / ceiling_write_Bps (%s)\n"
               "utilization_flop_frac_fma: flop_per_s / ceiling_fma_flop_per_s (%s)\n"
               "utilization_flop_frac_coopmat: flop_per_s / ceiling_coopmat_flop_per_s (%s)\n"
               "utilization_bw_frac_theoretical: bw_Bps / theoretical_Bps (2 x NVML max memory clock x bus width / 8)\n",
            what[VKB_CAL_COPY], what[VKB_CAL_READ], what[VKB_CAL_WRITE], what[VKB_CAL_FMA], what[VKB_CAL_COOPMAT]);
    fputs(c->probe, f);
}

/* util_why: one "name: reason" per NA ceiling the row could have used. */
static void why_add(char *dst, size_t len, const char *name, const char *why)
{
    size_t u = strlen(dst);
    snprintf(dst + u, len - u, "%s%s: %s", u ? "; " : "", name, why);
}

/* A row above 100% of copy: within the read-only ceiling (a read-heavy mix), within the copy refresh's
 * own spread (a ceiling measured in a noisy state), or above both (a cache-resident working set). */
static void over_copy_why(const vkb_calib *c, vkb_result *r)
{
    const vkb_calib_refresh *f = &c->refresh;
    char b[320];
    double read = c->val[VKB_CAL_READ], range = f->n ? (f->best - f->min) / f->median : NAN;
    if (!(r->bw_frac_copy > 1)) return;
    int n = snprintf(b, sizeof(b), "%.1f%% of copy", 100 * r->bw_frac_copy);
    if (r->bw_Bps <= read)
        snprintf(b + n, sizeof(b) - (size_t)n, ", within the read-only ceiling read_Bps (%.1f%% of it): a read-heavy mix "
                                              "can exceed copy", 100 * r->bw_Bps / read);
    else if (r->bw_frac_copy - 1 <= range)
        snprintf(b + n, sizeof(b) - (size_t)n, ", by less than the copy refresh's own spread (min to best %.1f%%, IQR "
                                              "%.1f%% over %d runs): the ceiling was measured in a noisy state",
                 100 * range, 100 * (f->q3 - f->q1) / f->median, f->n);
    else if (f->n)
        snprintf(b + n, sizeof(b) - (size_t)n, ", above read_Bps and beyond the copy refresh's spread (IQR %.1f%% over %d "
                                              "runs): the working set may stay in cache", 100 * (f->q3 - f->q1) / f->median, f->n);
    else snprintf(b + n, sizeof(b) - (size_t)n, " (copy not refreshed: %s)", f->why);
    why_add(r->util_why, sizeof(r->util_why), "bw_frac_copy", b);
}

void vkb_calib_row(const vkb_calib *c, vkb_result *r)
{
    static const int bw[3] = {VKB_CAL_COPY, VKB_CAL_READ, VKB_CAL_WRITE}, fl[2] = {VKB_CAL_FMA, VKB_CAL_COOPMAT};
    double *bw_peak[3] = {&r->copy_Bps, &r->read_Bps, &r->write_Bps};
    double *bw_frac[3] = {&r->bw_frac_copy, &r->bw_frac_read, &r->bw_frac_write};
    double *fl_peak[2] = {&r->fma_flop_per_s, &r->coopmat_flop_per_s};
    double *fl_frac[2] = {&r->flop_frac_fma, &r->flop_frac_coopmat};
    double *fl_theo[2] = {&r->theoretical_fma_flop_per_s, &r->theoretical_coopmat_flop_per_s};
    r->util_why[0] = r->ceiling_why[0] = 0;
    for (int i = 0; i < 3; i++) {
        *bw_peak[i] = c->val[bw[i]];
        *bw_frac[i] = r->bw_Bps / c->val[bw[i]];
        if (isnan(c->val[bw[i]]) && !isnan(r->bw_Bps)) why_add(r->util_why, sizeof(r->util_why), vkb_calib_keys[bw[i]], c->why[bw[i]]);
    }
    over_copy_why(c, r);
    for (int i = 0; i < 2; i++) {
        *fl_peak[i] = c->val[fl[i]];
        *fl_frac[i] = r->flop_per_s / c->val[fl[i]];
        if (isnan(c->val[fl[i]]) && !isnan(r->flop_per_s)) why_add(r->util_why, sizeof(r->util_why), vkb_calib_keys[fl[i]], c->why[fl[i]]);
        *fl_theo[i] = c->theo_flops[i];
    }
    /* ceiling_why: why a theoretical FLOP/s ceiling is NA (once when both share the reason), and each measured
     * ceiling below 70% of its theoretical one. */
    int same = isnan(c->theo_flops[0]) && isnan(c->theo_flops[1]) && !strcmp(c->theo_flops_why[0], c->theo_flops_why[1]);
    if (same) why_add(r->ceiling_why, sizeof(r->ceiling_why), "theoretical FLOP/s", c->theo_flops_why[0]);
    for (int k = 0; k < VKB_PEAK_N && !same; k++)
        if (isnan(c->theo_flops[k])) why_add(r->ceiling_why, sizeof(r->ceiling_why), pairs[k + 1].theo_key, c->theo_flops_why[k]);
    for (size_t i = 0; i < sizeof(pairs) / sizeof(pairs[0]); i++) {
        double m = c->val[pairs[i].item], t = pair_theo(c, (int)i);
        char b[96];
        snprintf(b, sizeof(b), "measured %.1f%% of %s (under %.0f%%)", 100 * m / t, pairs[i].theo_key, 100 * LOW_FRACTION);
        if (m < LOW_FRACTION * t) why_add(r->ceiling_why, sizeof(r->ceiling_why), vkb_calib_keys[pairs[i].item], b);
    }
    r->theoretical_Bps = c->theo_Bps;
    r->bw_frac_theoretical = r->bw_Bps / c->theo_Bps;
    if (isnan(c->theo_Bps) && !isnan(r->bw_Bps)) why_add(r->util_why, sizeof(r->util_why), "theoretical_Bps", c->theo_why);
    r->dispatch_s = c->val[VKB_CAL_DISPATCH];
    r->timer_floor_s = c->timer_floor_s;
    double floor_s = fmax(c->timer_floor_s, isnan(r->dispatch_s) ? 0 : r->dispatch_s);
    r->below_floor = r->time_median_s < 10 * floor_s;
}
