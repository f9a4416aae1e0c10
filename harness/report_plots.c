/* report_plots.c — the report's plots section: one data file and template call per plot. Plots carry no number
 * of report.md: what a reader must be able to quote (a compute-bound row's share of its roof) is printed in a
 * table beside the plot, through rep_num like every other number. */
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "report_impl.h"
#include "stats.h"

#define MAX_GROUPS 16   /* plot groups (families) with their own colour and key entry; the rest: "other" */

static double evalc(rep *R, const char *kind, int i, const vkb_result *r, const char *a, const char *b)
{
    src s = {.run = i, .case_id = r->case_id, .scale = 1, .sig = 6};
    snprintf(s.kind, sizeof(s.kind), "%s", kind);
    snprintf(s.a, sizeof(s.a), "%s", a);
    snprintf(s.b, sizeof(s.b), "%s", b ? b : "");
    return rep_eval(R->r, R->nr, &s);
}

/* Append to a template argument (truncated, never overrun, when full). */
static void appendf(char *buf, size_t len, const char *fmt, ...) __attribute__((format(printf, 3, 4)));
static void appendf(char *buf, size_t len, const char *fmt, ...)
{
    size_t n = strlen(buf);
    va_list ap;
    va_start(ap, fmt);
    if (n + 1 < len) vsnprintf(buf + n, len - n, fmt, ap);
    va_end(ap);
}

/* Index of name in the list (appended when new; the last slot, "other", when the list is full). */
static int group_of(char (*names)[64], int *n, const char *name)
{
    for (int g = 0; g < *n; g++)
        if (!strcmp(names[g], name)) return g;
    if (*n == MAX_GROUPS - 1) snprintf(names[*n], 64, "other");
    else snprintf(names[*n], 64, "%s", name);
    return (*n)++;
}

/* A roofline or bandwidth group: the kernel's family, apart on the matrix units. */
static void family_label(const vkb_result *r, char *out, size_t len)
{
    snprintf(out, len, "%s%s", rep_family(r->kernel), rep_on_matrix_units(r) ? " on matrix units" : "");
}

/* A group's colour in every plot (the templates' palette C[slot + 1]): its family's position, one colour for
 * whatever runs on the matrix units, grey for kernels of no known family. */
static int colour_slot(const vkb_result *r)
{
    int f = rep_family_index(r->kernel);
    return rep_on_matrix_units(r) ? 6 : f < 0 ? 7 : f;
}

/* The groups' colour slots, space-separated, for a template argument. */
static void colour_slots(const rrun *runs, int nr, char (*groups)[64], int ng, char *out, size_t len)
{
    char lab[64];
    out[0] = 0;
    for (int g = 0; g < ng; g++) {
        int slot = 7;
        for (int i = 0; i < nr && slot == 7; i++)
            for (long j = 0; j < runs[i].n; j++) {
                family_label(&runs[i].rows[j], lab, sizeof(lab));
                if (!strcmp(lab, groups[g])) {
                    slot = colour_slot(&runs[i].rows[j]);
                    break;
                }
            }
        appendf(out, len, "%s%d", g ? " " : "", slot);
    }
}

/* ---------------- speedup by kernel ---------------- */

/* One point per PASS row, grouped by kernel (kernels in run order): the x axis names each kernel once,
 * under its band, instead of one unreadable label per case (the table above names every case). */
static void speedup_plot(rep *R, int i, const char *title)
{
    const rrun *u = &R->r[i];
    char name[64], alt[400], starts[4096] = "", names[8192] = "";
    int x = 0, flagged = 0;
    snprintf(name, sizeof(name), "speedup-%c", run_letter(i) + 32);
    FILE *f = rep_data_file(R, name);
    for (long j = 0; f && j < u->n; j++) {
        const vkb_result *r0 = &u->rows[j];
        long first = 0;  /* r0 starts its kernel's group when it is the kernel's first PASS row */
        while (first < j && !(rep_is_pass(&u->rows[first]) && !strcmp(u->rows[first].kernel, r0->kernel))) first++;
        if (first < j || !rep_is_pass(r0)) continue;
        appendf(starts, sizeof(starts), "%d ", x);
        appendf(names, sizeof(names), "%s ", r0->kernel);
        for (long q = j; q < u->n; q++) {
            const vkb_result *r = &u->rows[q];
            if (!rep_is_pass(r) || strcmp(r->kernel, r0->kernel)) continue;
            flagged |= r->below_floor > 0;
            fprintf(f, "%d\t%s %s%s\t", x++, r->kernel, r->params, floor_mark(r));
            int ok = rep_fast_ok(r);
            rep_dval(f, ok ? evalc(R, "ratio", i, r, "cpu_fast_time_s", "time_median_s") : NAN, "\t");
            rep_dval(f, ok ? evalc(R, "boot_lo", i, r, "cpu_fast_time_s", NULL) : NAN, "\t");
            rep_dval(f, ok ? evalc(R, "boot_hi", i, r, "cpu_fast_time_s", NULL) : NAN, "\t");
            rep_dval(f, evalc(R, "ratio", i, r, "ref_time_s", "time_median_s"), "\t");
            rep_dval(f, evalc(R, "boot_lo", i, r, "ref_time_s", NULL), "\t");
            rep_dval(f, evalc(R, "boot_hi", i, r, "ref_time_s", NULL), "\n");
        }
    }
    if (f) fclose(f);
    appendf(starts, sizeof(starts), "%d", x);
    snprintf(alt, sizeof(alt), "Speedup by kernel, run %c: one point per PASS case, cases of a kernel side by side in run order "
             "(log scale%s%s)", run_letter(i), flagged ? "; " : "",
             flagged ? FLOOR_SYM " median below the timer floor: not a speedup of the kernel" : "");
    const char *ex[3] = {title, starts, names};
    if (x) rep_plot(R, "speedup.gp", name, alt, ex, 3);
    else rep_para(R, "%s: NA: no PASS case.", alt);
}

/* ---------------- roofline ---------------- */

/* The run's value of a ceiling column: every row of a run carries the same calibration; NAN when none has it. */
static double run_value(const rrun *u, const char *col)
{
    for (long j = 0; j < u->n; j++) {
        double v = rep_col(&u->rows[j], col);
        if (!isnan(v)) return v;
    }
    return NAN;
}

/* The compute roof a row is held to: the matrix units' for rows that run on them, else the FMA peak. */
static const char *roof_col(const vkb_result *r) { return rep_on_matrix_units(r) ? "coopmat_flop_per_s" : "fma_flop_per_s"; }

/* Compute-bound: a PASS row whose FLOPs per byte reach its roof's ridge point (roof / copy bandwidth). */
static int compute_bound(const vkb_result *r)
{
    double roof = rep_col(r, roof_col(r));
    return rep_is_pass(r) && r->flops > 0 && r->bytes > 0 && roof > 0 && r->copy_Bps > 0 &&
           r->flops / r->bytes >= roof / r->copy_Bps;
}

/* Why a ceiling of run u is NA, for the plot's note (from util_why, else a plain statement). */
static const char *na_why(const rrun *u, const char *col, char *buf, size_t len)
{
    size_t kl = strlen(col);
    for (long j = 0; j < u->n; j++) {
        const char *p = strstr(u->rows[j].util_why, col);
        if (p && p[kl] == ':') {
            snprintf(buf, len, "%.*s", (int)strcspn(p + kl + 2, ";"), p + kl + 2);
            return buf;
        }
    }
    return "not measured in this run";
}

static void roofline_plot(rep *R, int i, const char *title)
{
    const rrun *u = &R->r[i];
    static const char *const roofs[5] = {"copy_Bps", "fma_flop_per_s", "coopmat_flop_per_s", "theoretical_fma_flop_per_s",
                                         "theoretical_coopmat_flop_per_s"};
    char name[64], alt[600], lab[64], groups[MAX_GROUPS][64], rf[200] = "", note[600] = "", why[300], ng_s[8], nm_s[8];
    int ng = 0, nm = 0;
    snprintf(name, sizeof(name), "roofline-%c", run_letter(i) + 32);
    for (int k = 0; k < 5; k++) {
        double v = run_value(u, roofs[k]);
        if (isnan(v)) appendf(rf, sizeof(rf), "%sNA", k ? " " : "");
        else appendf(rf, sizeof(rf), "%s%.6e", k ? " " : "", v);  /* gnuplot's real() takes 2.0e+11, not 2e+11 */
    }
    if (isnan(run_value(u, "fma_flop_per_s")))
        appendf(note, sizeof(note), "no FMA roof: %s", na_why(u, "fma_flop_per_s", why, sizeof(why)));
    if (isnan(run_value(u, "coopmat_flop_per_s")))
        appendf(note, sizeof(note), "%sno matrix-unit roof: %s", note[0] ? "; " : "", na_why(u, "coopmat_flop_per_s", why, sizeof(why)));
    FILE *f = rep_data_file(R, name);
    for (long j = 0; f && j < u->n; j++) {  /* the groups, in run order */
        const vkb_result *r = &u->rows[j];
        if (rep_is_pass(r) && r->flops > 0 && r->bytes > 0) family_label(r, lab, sizeof(lab)), group_of(groups, &ng, lab);
    }
    for (int g = 0; f && g < ng; g++) {  /* one block per group: intensity, FLOP/s; the header names it */
        fprintf(f, "%sintensity\tflop_per_s\t%s\n", g ? "\n\n" : "", groups[g]);
        for (long j = 0; j < u->n; j++) {
            const vkb_result *r = &u->rows[j];
            if (!rep_is_pass(r) || !(r->flops > 0 && r->bytes > 0)) continue;
            family_label(r, lab, sizeof(lab));
            int tmp = ng;
            if (group_of(groups, &tmp, lab) == g) fprintf(f, "%.6g\t%.6g\n", r->flops / r->bytes, r->flop_per_s);
        }
    }
    if (f) fprintf(f, "\n\n");  /* last block: compute-bound rows, and the roof each is held to */
    for (long j = 0; f && j < u->n; j++) {
        const vkb_result *r = &u->rows[j];
        if (compute_bound(r)) nm++, fprintf(f, "%.6g\t%.6g\t%.6g\n", r->flops / r->bytes, r->flop_per_s, rep_col(r, roof_col(r)));
    }
    if (f && !nm) fprintf(f, "NaN\tNaN\tNaN\n");
    if (f) fclose(f);
    snprintf(ng_s, sizeof(ng_s), "%d", ng);
    snprintf(nm_s, sizeof(nm_s), "%d", nm);
    snprintf(alt, sizeof(alt), "Roofline, run %c: achieved FLOP/s against FLOPs per byte by kernel family, under the measured "
             "copy bandwidth and the FMA and matrix-unit peaks where they were calibrated (theoretical peaks dotted where known); "
             "compute-bound rows ringed, with a dotted line up to the roof they are held to", run_letter(i));
    char slots[MAX_GROUPS * 4];
    colour_slots(u, 1, groups, ng, slots, sizeof(slots));
    const char *rx[6] = {title, rf, ng_s, nm_s, note, slots};
    if (ng) rep_plot(R, "roofline.gp", name, alt, rx, 6);
    else rep_para(R, "%s: NA: no PASS case declares both FLOPs and bytes.", alt);
}

/* The compute-bound rows as numbers: what the roofline's rings say, quotable and verified. */
static void compute_bound_table(rep *R, int i)
{
    const rrun *u = &R->r[i];
    static const char *const h[] = {"kernel", "params", "FLOPs / byte", "achieved GFLOP/s", "roof", "roof GFLOP/s",
                                    "% of roof"};
    char title[160];
    int any = 0;
    snprintf(title, sizeof(title), "Compute-bound rows, run %c", run_letter(i));
    for (long j = 0; j < u->n; j++) {
        const vkb_result *r = &u->rows[j];
        if (!compute_bound(r)) continue;
        if (!any++) {
            rep_heading(R, 3, title);
            rep_para(R, "PASS rows whose FLOPs per byte reach the ridge point of their roof (roof / copy bandwidth): "
                        "half-precision matmul on the matrix units (coopmat* variants) against the matrix-unit peak (coopmat_flop_per_s), "
                        "every other row against the FMA peak (fma_flop_per_s).");
            rep_table_begin(R), rep_row(R, 1, 7, h);
        }
        const char *rc = roof_col(r);
        const char *c[7] = {rep_str(R, i, r, "kernel"), rep_str(R, i, r, "params"), rep_num(R, "ratio", i, r->case_id, "flops", "bytes", 1, 4),
                            rep_cell(R, i, r, "flop_per_s", 1e-9, 4), rep_on_matrix_units(r) ? "matrix units" : "FMA",
                            rep_cell(R, i, r, rc, 1e-9, 4), rep_num(R, "ratio", i, r->case_id, "flop_per_s", rc, 100, 3)};
        rep_row(R, 0, 7, c);
    }
    if (any) rep_table_end(R);
    else rep_para(R, "No PASS row of run %c reaches the ridge point of its roof (or no roof was calibrated): none is "
                     "compute-bound here.", run_letter(i));
}

/* ---------------- timing distributions ---------------- */

/* Horizontal box plots, so that each case's label reads left to right: per case its quartiles, Tukey whiskers
 * (the farthest samples within 1.5 IQR of the box) and the samples beyond them. */
static void timing_plot(rep *R, int i, const char *title)
{
    const rrun *u = &R->r[i];
    char name[64], alt[400], lab_s[16];
    long idx[BOX_MAX], eligible, kernels;
    int nbox = rep_box_pick(u, idx, &eligible, &kernels), flagged = 0;
    size_t lab = 0;
    snprintf(name, sizeof(name), "timing-%c", run_letter(i) + 32);
    FILE *f = rep_data_file(R, name);
    for (int b = 0; f && b < nbox; b++) {  /* block 0: y label whisker_lo q1 median q3 whisker_hi */
        const vkb_result *r = &u->rows[idx[b]];
        const double *t;
        size_t n = rep_case_samples(u, r->case_id, &t), l = strlen(r->kernel) + 1 + strlen(r->params) + strlen(floor_mark(r));
        vkb_summary s;
        vkb_stats_summarise(t, n, &s);
        double lo = s.max, hi = s.min, fence = 1.5 * (s.q3 - s.q1);
        for (size_t q = 0; q < n; q++) {
            if (t[q] >= s.q1 - fence && t[q] < lo) lo = t[q];
            if (t[q] <= s.q3 + fence && t[q] > hi) hi = t[q];
        }
        flagged |= r->below_floor > 0;
        lab = l > lab ? l : lab;
        fprintf(f, "%d\t%s %s%s\t%.6g\t%.6g\t%.6g\t%.6g\t%.6g\n", nbox - 1 - b, r->kernel, r->params, floor_mark(r), lo, s.q1,
                s.median, s.q3, hi);
    }
    if (f) fprintf(f, "\n\n");  /* block 1: y sample, the samples beyond the whiskers */
    int nout = 0;
    for (int b = 0; f && b < nbox; b++) {
        const double *t;
        size_t n = rep_case_samples(u, u->rows[idx[b]].case_id, &t);
        vkb_summary s;
        vkb_stats_summarise(t, n, &s);
        double fence = 1.5 * (s.q3 - s.q1);
        for (size_t q = 0; q < n; q++)
            if (t[q] < s.q1 - fence || t[q] > s.q3 + fence) nout++, fprintf(f, "%d\t%.6g\n", nbox - 1 - b, t[q]);
    }
    if (f && !nout) fprintf(f, "NaN\tNaN\n");
    if (f) fclose(f);
    snprintf(alt, sizeof(alt), "Timing distributions (raw samples), run %c", run_letter(i));
    size_t al = strlen(alt);
    if (!eligible) {
        rep_para(R, "%s: NA: no PASS case with raw samples.", alt);
        return;
    }
    if (eligible <= BOX_MAX)
        snprintf(alt + al, sizeof(alt) - al, ": all %s PASS cases with samples", rep_num(R, "boxes", i, -1, "eligible", NULL, 1, 9));
    else if (kernels <= BOX_MAX)
        snprintf(alt + al, sizeof(alt) - al, ": %s of %s PASS cases with samples, the largest (most bytes) of each kernel",
                 rep_num(R, "boxes", i, -1, "shown", NULL, 1, 9), rep_num(R, "boxes", i, -1, "eligible", NULL, 1, 9));
    else
        snprintf(alt + al, sizeof(alt) - al, ": %s of %s PASS cases with samples, the largest (most bytes) of each of "
                 "the first %s of %s kernels", rep_num(R, "boxes", i, -1, "shown", NULL, 1, 9),
                 rep_num(R, "boxes", i, -1, "eligible", NULL, 1, 9), rep_cst(R, "box_max", 9), rep_num(R, "boxes", i, -1, "kernels", NULL, 1, 9));
    if (flagged) snprintf(alt + strlen(alt), sizeof(alt) - strlen(alt), "; %s below the timer floor", FLOOR_SYM);
    snprintf(lab_s, sizeof(lab_s), "%zu", lab);
    const char *tx[3] = {title, lab_s, nout ? "1" : "0"};
    rep_plot(R, "timing.gp", name, alt, tx, 3);
}

/* ---------------- power and temperature ---------------- */

/* Drawn only when something was measured; otherwise a sentence says why (no empty frame). */
static void power_plot(rep *R, int i, const char *title)
{
    const rrun *u = &R->r[i];
    char name[64], alt[200];
    const vkb_result *why = NULL;
    int have = 0;
    snprintf(name, sizeof(name), "power-%c", run_letter(i) + 32);
    snprintf(alt, sizeof(alt), "Power and temperature over the run, run %c", run_letter(i));
    for (long j = 0; j < u->n && !have; j++) {
        const vkb_result *r = &u->rows[j];
        have = !isnan(r->power_mean_W) || !isnan(r->gpu_temp_max_C) || !isnan(r->cpu_temp_max_C);
        if (!why && r->telemetry_why[0]) why = r;
    }
    if (!have) {
        static const char *const ext[3] = {"svg", "png", "dat"};
        for (int e = 0; e < 3; e++) {  /* an earlier report's drawing of this run would contradict the sentence */
            char path[700];
            snprintf(path, sizeof(path), "%s/%s.%s", R->plotdir, name, ext[e]);
            remove(path);
        }
        if (why) rep_para(R, "%s: not drawn: no power or temperature was measured in this run (%s).", alt, rep_str(R, i, why, "telemetry_why"));
        else rep_para(R, "%s: not drawn: no power or temperature was measured in this run.", alt);
        return;
    }
    FILE *f = rep_data_file(R, name);
    for (long j = 0; f && j < u->n; j++) {
        const vkb_result *r = &u->rows[j];
        if (isnan(r->power_mean_W) && isnan(r->gpu_temp_max_C) && isnan(r->cpu_temp_max_C)) continue;
        fprintf(f, "%lld\t", (long long)r->case_id);
        rep_dval(f, r->power_mean_W, "\t");
        rep_dval(f, r->gpu_temp_max_C, "\t");
        rep_dval(f, r->cpu_temp_max_C, "\n");
    }
    if (f) fclose(f);
    const char *px[1] = {title};
    rep_plot(R, "power.gp", name, alt, px, 1);
}

/* ---------------- bandwidth ---------------- */

/* The bandwidth plot's group of a row (family_label's index in groups), -1 when the row is not plotted. */
static int bw_group(const vkb_result *r, char (*groups)[64], int ng)
{
    char lab[64];
    if (!rep_is_pass(r) || isnan(r->bw_frac_copy) || !(r->bytes > 0)) return -1;
    family_label(r, lab, sizeof(lab));
    return group_of(groups, &ng, lab);  /* ng by value: groups are all known when this is asked */
}

/* Every run in one plot: one colour per kernel family (the same in every run), one point shape per run. */
static void bandwidth_plot(rep *R)
{
    char groups[MAX_GROUPS][64], lab[64], ng_s[8], nr_s[8];
    int ng = 0, any = 0;
    for (int i = 0; i < R->nr; i++)
        for (long j = 0; j < R->r[i].n; j++) {
            const vkb_result *r = &R->r[i].rows[j];
            if (rep_is_pass(r) && !isnan(r->bw_frac_copy) && r->bytes > 0) family_label(r, lab, sizeof(lab)), group_of(groups, &ng, lab);
        }
    FILE *f = rep_data_file(R, "bandwidth");
    for (int i = 0; f && i < R->nr; i++)
        for (int g = 0; g < ng; g++) {  /* block i * ng + g: run i, family g; an empty one has no title, one NaN */
            const rrun *u = &R->r[i];
            int rows = 0;
            for (long j = 0; j < u->n; j++) rows += bw_group(&u->rows[j], groups, ng) == g;
            fprintf(f, "%sbytes\tfraction\t", i + g ? "\n\n" : "");
            if (!rows) fprintf(f, "\nNaN\tNaN\n");
            else if (R->nr > 1) fprintf(f, "%s, run %c\n", groups[g], run_letter(i));  /* devices: the Runs table */
            else fprintf(f, "%s\n", groups[g]);
            for (long j = 0; j < u->n; j++)
                if (bw_group(&u->rows[j], groups, ng) == g) fprintf(f, "%.6g\t%.6g\n", u->rows[j].bytes, u->rows[j].bw_frac_copy);
            any |= rows > 0;
        }
    if (f) fclose(f);
    snprintf(ng_s, sizeof(ng_s), "%d", ng);
    snprintf(nr_s, sizeof(nr_s), "%d", R->nr);
    char slots[MAX_GROUPS * 4];
    colour_slots(R->r, R->nr, groups, ng, slots, sizeof(slots));
    const char *bx[3] = {ng_s, nr_s, slots};
    const char *alt = "Bandwidth utilization (fraction of the run's copy bandwidth) against bytes moved, by kernel family";
    if (any) rep_plot(R, "bandwidth.gp", "bandwidth", alt, bx, 3);
    else rep_para(R, "%s: NA: no PASS row has a fraction of the copy bandwidth (bw_frac_copy; util_why says why).", alt);
}

void rep_plots(rep *R)
{
    rep_heading(R, 2, "Plots");
    char title[300];
    for (int i = 0; i < R->nr; i++) {
        snprintf(title, sizeof(title), "run %c: %s", run_letter(i), R->r[i].n ? R->r[i].rows[0].device : "?");
        speedup_plot(R, i, title);
        roofline_plot(R, i, title);
        compute_bound_table(R, i);
        timing_plot(R, i, title);
        power_plot(R, i, title);
    }
    bandwidth_plot(R);
}
