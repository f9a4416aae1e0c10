/* report_plots.c — the report's plots section: one data file and template call per plot. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "report_impl.h"

static double evalc(rep *R, const char *kind, int i, const vkb_result *r, const char *a, const char *b)
{
    src s = {.run = i, .case_id = r->case_id, .scale = 1, .sig = 6};
    snprintf(s.kind, sizeof(s.kind), "%s", kind);
    snprintf(s.a, sizeof(s.a), "%s", a);
    snprintf(s.b, sizeof(s.b), "%s", b ? b : "");
    return rep_eval(R->r, R->nr, &s);
}

void rep_plots(rep *R)
{
    rep_heading(R, 2, "Plots");
    char name[64], alt[400], title[300], arg[4][160];
    for (int i = 0; i < R->nr; i++) {
        const rrun *u = &R->r[i];
        const char *dev = u->n ? u->rows[0].device : "?";
        /* speedup by kernel and size */
        snprintf(name, sizeof(name), "speedup-%c", run_letter(i) + 32);
        FILE *f = rep_data_file(R, name);
        int k = 0, flagged = 0;
        for (long j = 0; f && j < u->n; j++) {
            const vkb_result *r = &u->rows[j];
            if (!rep_is_pass(r)) continue;
            flagged |= r->below_floor > 0;
            fprintf(f, "%d\t%s %s%s\t", k++, r->kernel, r->params, floor_mark(r));
            int ok = rep_fast_ok(r);
            rep_dval(f, ok ? evalc(R, "ratio", i, r, "cpu_fast_time_s", "time_median_s") : NAN, "\t");
            rep_dval(f, ok ? evalc(R, "boot_lo", i, r, "cpu_fast_time_s", NULL) : NAN, "\t");
            rep_dval(f, ok ? evalc(R, "boot_hi", i, r, "cpu_fast_time_s", NULL) : NAN, "\t");
            rep_dval(f, evalc(R, "ratio", i, r, "ref_time_s", "time_median_s"), "\t");
            rep_dval(f, evalc(R, "boot_lo", i, r, "ref_time_s", NULL), "\t");
            rep_dval(f, evalc(R, "boot_hi", i, r, "ref_time_s", NULL), "\n");
        }
        if (f) fclose(f);
        snprintf(title, sizeof(title), "run %c: %s", run_letter(i), dev);
        const char *ex[1] = {title};
        snprintf(alt, sizeof(alt), "Speedup by kernel and size, run %c (log scale%s%s)", run_letter(i), flagged ? "; " : "",
                 flagged ? FLOOR_SYM " median below the timer floor: not a speedup of the kernel" : "");
        if (k) rep_plot(R, "speedup.gp", name, alt, ex, 1);
        else rep_para(R, "%s: NA: no PASS case.", alt);
        /* roofline */
        snprintf(name, sizeof(name), "roofline-%c", run_letter(i) + 32);
        f = rep_data_file(R, name);
        double copy = NAN, peak = NAN;
        const char *peak_why = "no calibrated compute peak in this run";
        for (long j = 0; j < u->n; j++) {
            const vkb_result *r = &u->rows[j];
            if (isnan(copy) && !isnan(r->copy_Bps)) copy = r->copy_Bps;
            if (!isnan(r->fma_flop_per_s) && (isnan(peak) || r->fma_flop_per_s > peak)) peak = r->fma_flop_per_s;
            if (isnan(peak) && r->util_why[0]) peak_why = r->util_why;
            if (f && rep_is_pass(r) && r->flops > 0 && r->bytes > 0)
                fprintf(f, "%.6g\t%.6g\t%s\n", r->flops / r->bytes, r->flop_per_s, r->kernel);
        }
        if (f) fclose(f);
        snprintf(arg[0], 160, "%.6g", copy);
        snprintf(arg[1], 160, "%.6g", peak);
        snprintf(arg[2], 160, "%s", isnan(peak) ? peak_why : "calibrated FMA peak (fma_flop_per_s)");
        const char *rx[4] = {title, isnan(copy) ? "NA" : arg[0], isnan(peak) ? "NA" : arg[1], arg[2]};
        snprintf(alt, sizeof(alt), "Roofline, run %c: achieved FLOP/s against FLOPs per byte, under the measured copy "
                                   "bandwidth and the compute ceiling where one was calibrated", run_letter(i));
        rep_plot(R, "roofline.gp", name, alt, rx, 4);
        /* timing distributions */
        snprintf(name, sizeof(name), "timing-%c", run_letter(i) + 32);
        f = rep_data_file(R, name);
        long idx[BOX_MAX], eligible, kernels;
        int nbox = rep_box_pick(u, idx, &eligible, &kernels);
        size_t lab = 0;
        flagged = 0;
        for (int b = 0; f && b < nbox; b++) {
            const vkb_result *r = &u->rows[idx[b]];
            const double *t;
            size_t n = rep_case_samples(u, r->case_id, &t), l = strlen(r->kernel) + 1 + strlen(r->params) + strlen(floor_mark(r));
            flagged |= r->below_floor > 0;
            lab = l > lab ? l : lab;
            for (size_t q = 0; q < n; q++) fprintf(f, "%s %s%s\t%.6g\n", r->kernel, r->params, floor_mark(r), t[q]);
        }
        if (f) fclose(f);
        snprintf(alt, sizeof(alt), "Timing distributions (raw samples), run %c", run_letter(i));
        size_t al = strlen(alt);
        if (!eligible)
            rep_para(R, "%s: NA: no PASS case with raw samples.", alt);
        else if (eligible <= BOX_MAX)
            snprintf(alt + al, sizeof(alt) - al, ": all %s PASS cases with samples", rep_num(R, "boxes", i, -1, "eligible", NULL, 1, 9));
        else if (kernels <= BOX_MAX)
            snprintf(alt + al, sizeof(alt) - al, ": %s of %s PASS cases with samples, the largest (most bytes) of each kernel",
                     rep_num(R, "boxes", i, -1, "shown", NULL, 1, 9), rep_num(R, "boxes", i, -1, "eligible", NULL, 1, 9));
        else
            snprintf(alt + al, sizeof(alt) - al, ": %s of %s PASS cases with samples, the largest (most bytes) of each of "
                     "the first %s of %s kernels", rep_num(R, "boxes", i, -1, "shown", NULL, 1, 9),
                     rep_num(R, "boxes", i, -1, "eligible", NULL, 1, 9), rep_cst(R, "box_max", 9), rep_num(R, "boxes", i, -1, "kernels", NULL, 1, 9));
        if (flagged) snprintf(alt + strlen(alt), sizeof(alt) - strlen(alt), "; %s below the timer floor", FLOOR_SYM);
        snprintf(arg[0], 160, "%zu", lab);
        const char *tx[2] = {title, arg[0]};
        if (eligible) rep_plot(R, "timing.gp", name, alt, tx, 2);
        /* power and temperature over the rrun */
        snprintf(name, sizeof(name), "power-%c", run_letter(i) + 32);
        f = rep_data_file(R, name);
        int have = 0;
        const char *why = "no power or temperature column was measured in this run";
        for (long j = 0; f && j < u->n; j++) {
            const vkb_result *r = &u->rows[j];
            if (!isnan(r->power_mean_W) || !isnan(r->gpu_temp_max_C) || !isnan(r->cpu_temp_max_C)) {
                have = 1;
                fprintf(f, "%lld\t", (long long)r->case_id);
                rep_dval(f, r->power_mean_W, "\t");
                rep_dval(f, r->gpu_temp_max_C, "\t");
                rep_dval(f, r->cpu_temp_max_C, "\n");
            } else if (r->telemetry_why[0]) {
                why = r->telemetry_why;
            }
        }
        if (f) fclose(f);
        snprintf(arg[3], 160, "%s", have ? "" : why);
        const char *px[2] = {title, arg[3]};
        snprintf(alt, sizeof(alt), "Power and temperature over the run, run %c", run_letter(i));
        rep_plot(R, "power.gp", name, alt, px, 2);
    }
    /* bandwidth utilization against size: every run in one plot */
    FILE *f = rep_data_file(R, "bandwidth");
    for (int i = 0; f && i < R->nr; i++) {
        fprintf(f, "%sbytes\trun %c: %s\n", i ? "\n\n" : "", run_letter(i), R->r[i].n ? R->r[i].rows[0].device : "?");
        for (long j = 0; j < R->r[i].n; j++) {
            const vkb_result *r = &R->r[i].rows[j];
            if (rep_is_pass(r) && !isnan(r->bw_frac_copy) && r->bytes > 0) fprintf(f, "%.6g\t%.6g\n", r->bytes, r->bw_frac_copy);
        }
    }
    if (f) fclose(f);
    char nr[8];
    snprintf(nr, sizeof(nr), "%d", R->nr);
    const char *bx[1] = {nr};
    rep_plot(R, "bandwidth.gp", "bandwidth", "Bandwidth utilization (fraction of the run's copy bandwidth) against bytes moved", bx, 1);
}
