/* report_sections.c — the report's sections, in the order a reader meets them, and vkb_report_write. */
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "report_impl.h"
#include "rundir.h"

/* ---------------- sections ---------------- */

static void runs_table(rep *R)
{
    static const char *const h[] = {"run", "device", "driver", "host CPU", "CPU threads (optimized baseline)",
                                    "commit", "date (UTC)", "cases", "PASS", "FAIL", "SKIP", "ERROR"};
    rep_heading(R, 2, "Runs");
    rep_table_begin(R);
    rep_row(R, 1, 12, h);
    for (int i = 0; i < R->nr; i++) {
        const rrun *u = &R->r[i];
        const vkb_result *r0 = u->n ? &u->rows[0] : NULL;
        char letter[2] = {run_letter(i), 0};
        const char *threads = "NA";
        for (long j = 0; j < u->n; j++)
            if (u->rows[j].cpu_fast_threads > 0) {
                threads = rep_cell(R, i, &u->rows[j], "cpu_fast_threads", 1, 6);
                break;
            }
        const char *c[12] = {letter, r0 ? rep_str(R, i, r0, "device") : "NA", r0 ? rep_str(R, i, r0, "driver") : "NA",
                             r0 ? rep_str(R, i, r0, "cpu_model") : "NA", threads, r0 ? rep_str(R, i, r0, "commit") : "NA",
                             r0 ? rep_str(R, i, r0, "date_utc") : "NA", rep_num(R, "rows", i, -1, NULL, NULL, 1, 9),
                             rep_num(R, "count", i, -1, "status", "PASS", 1, 9), rep_num(R, "count", i, -1, "status", "FAIL", 1, 9),
                             rep_num(R, "count", i, -1, "status", "SKIP", 1, 9), rep_num(R, "count", i, -1, "status", "ERROR", 1, 9)};
        rep_row(R, 0, 12, c);
    }
    rep_table_end(R);
}

/* The runs that did not complete (rundir.h), as one line: "run A (DIR): interrupted after 3 of 10 cases; ...".
 * words: say it without digits (for report.md, where every digit must be a listed number). Returns how many. */
int rep_partial_runs(const char *const *dirs, int n, int words, char *out, size_t len)
{
    int k = 0;
    size_t used = 0;
    out[0] = 0;
    for (int i = 0; i < n; i++) {
        char why[700];
        vkb_runstate st = vkb_rundir_state(dirs[i], why, sizeof(why));
        if (st == VKB_RUN_COMPLETE || st == VKB_RUN_UNKNOWN) continue;
        int w = words ? snprintf(out + used, len - used, "%srun %c %s", k ? "; " : "", run_letter(i), vkb_runstate_name(st))
                      : snprintf(out + used, len - used, "%srun %c (%s): %s", k ? "; " : "", run_letter(i), dirs[i], why);
        k++;
        if (w < 0 || (size_t)w >= len - used) break;
        used += (size_t)w;
    }
    return k;
}

/* The clock check of one run (run.c: a shader-clock probe around each case's samples), where its rows have one. */
static void clock_para(rep *R, int i)
{
    const rrun *u = &R->r[i];
    long judged = 0, cpu = 0, none = 0;
    for (long j = 0; j < u->n; j++) {
        const char *c = u->rows[j].clock_check;
        judged += !strncmp(c, "ok:", 3) || !strncmp(c, "low:", 4);
        cpu += strstr(c, "NA (CPU device") != NULL;
        none += !c[0];
    }
    if (none == u->n) return;  /* a run from before the clock check */
    if (!judged && cpu) {
        rep_para(R, "Clock check: %s timed rows read the shader-clock probe; a CPU device has no clock states, so none is "
                 "judged.", rep_num(R, "has", i, -1, "clock_check", "NA (CPU device", 1, 9));
        return;
    }
    rep_para(R, "Clock check (a shader-clock probe before and after each case's samples; GPU timestamps tick at a fixed "
             "rate, so a case timed at an idle clock reads slow and steady): %s rows at their working clock, %s of them "
             "timed a second time after a first pass below %s of the run's highest reading; %s rows still low after "
             "that (the gate does not judge them).", rep_num(R, "has", i, -1, "clock_check", "ok: ", 1, 9),
             rep_num(R, "has", i, -1, "clock_check", "re-timed", 1, 9), rep_cst(R, "clock_low_frac", 2),
             rep_num(R, "has", i, -1, "clock_check", "low: ", 1, 9));
}

/* One run's cases by status: SKIP reasons grouped with their sizes elided (a suite sized for a large GPU
 * SKIPs many cases on a small device, for a handful of reasons), every FAIL and ERROR named. */
static void status_cases(rep *R, int i)
{
    const rrun *u = &R->r[i];
    char title[160], kern[1024], ex[600], a[600], b[600];
    snprintf(title, sizeof(title), "Case status, run %c", run_letter(i));
    rep_heading(R, 2, title);
    rep_para(R, "%s cases: %s PASS, %s FAIL, %s SKIP, %s ERROR. Only PASS cases have times; the tables and plots below "
            "leave the others out.", rep_num(R, "rows", i, -1, NULL, NULL, 1, 9), rep_num(R, "count", i, -1, "status", "PASS", 1, 9),
         rep_num(R, "count", i, -1, "status", "FAIL", 1, 9), rep_num(R, "count", i, -1, "status", "SKIP", 1, 9),
         rep_num(R, "count", i, -1, "status", "ERROR", 1, 9));
    if (u->finished >= 0 && u->finished != u->n)   /* digits only through rep_num: --verify accounts for them */
        rep_para(R, "**%s**: run.txt's totals count %s finished cases, and every finished case is a row, but results.csv "
                 "holds %s rows%s.", u->finished > u->n ? "Rows missing" : "Extra rows",
                 rep_num(R, "done", i, -1, NULL, NULL, 1, 9), rep_num(R, "rows", i, -1, NULL, NULL, 1, 9),
                 u->finished > u->n ? ": the results of the finished cases not in it are missing from this report"
                                    : ": rows that this run did not write (another run's, or edited in)");
    if (u->nosamp[0])
        rep_para(R, "**No raw samples**: this run's samples.csv is missing, so every confidence interval and the timing "
                 "distributions are NA; the medians and other statistics in results.csv stand.");
    clock_para(R, i);
    for (long j = 0; j < u->n; j++)
        if (!strcmp(u->rows[j].status, "INTERRUPTED")) {
            rep_para(R, "%s INTERRUPTED: the case in flight when the run was stopped, recorded without a result.",
                     rep_num(R, "count", i, -1, "status", "INTERRUPTED", 1, 9));
            break;
        }
    static const char *const hs[] = {"SKIP cases", "reason (sizes elided: …)", "kernels", "first case"};
    int any = 0;
    for (long j = 0; j < u->n; j++) {
        const vkb_result *r = &u->rows[j];
        if (strcmp(r->status, "SKIP") || rep_group_count(u, r, j)) continue;  /* one line per group, at its first row */
        if (!any++) {
            rep_para(R, "SKIP reasons, grouped where they differ only in sizes or buffer names:");
            rep_table_begin(R), rep_row(R, 1, 4, hs);
        }
        const char *seen[64];
        int ns = 0;
        size_t kl = 0;
        kern[0] = 0;
        rep_mask_reason(r->reason, a, sizeof(a));
        for (long q = j; q < u->n; q++) {
            const vkb_result *o = &u->rows[q];
            int d = 0;
            if (strcmp(o->status, r->status)) continue;
            rep_mask_reason(o->reason, b, sizeof(b));
            while (d < ns && strcmp(seen[d], o->kernel)) d++;
            if (strcmp(a, b) || d < ns || ns == 64 || kl >= sizeof(kern)) continue;
            seen[ns++] = o->kernel;
            kl += (size_t)snprintf(kern + kl, sizeof(kern) - kl, "%s%s", kl ? ", " : "", rep_str(R, i, o, "kernel"));
        }
        snprintf(ex, sizeof(ex), "%s %s: %s", rep_str(R, i, r, "kernel"), rep_str(R, i, r, "params"), rep_str(R, i, r, "reason"));
        const char *c[4] = {rep_num(R, "group", i, r->case_id, "reason", NULL, 1, 9), rep_num(R, "mask", i, r->case_id, "reason", NULL, 1, 0),
                            kern, ex};
        rep_row(R, 0, 4, c);
    }
    if (any) rep_table_end(R);
    static const char *const hf[] = {"status", "kernel", "params", "reason"};
    any = 0;
    for (long j = 0; j < u->n; j++) {
        const vkb_result *r = &u->rows[j];
        if (strcmp(r->status, "FAIL") && strcmp(r->status, "ERROR") && strcmp(r->status, "INTERRUPTED")) continue;
        if (!any++) rep_table_begin(R), rep_row(R, 1, 4, hf);
        const char *c[4] = {r->status, rep_str(R, i, r, "kernel"), rep_str(R, i, r, "params"), rep_str(R, i, r, "reason")};
        rep_row(R, 0, 4, c);
    }
    if (any) rep_table_end(R);
}

static void floor_note(rep *R, const vkb_result *const *low)
{
    char fl[1024] = "";
    size_t n = 0;
    for (int i = 0; i < R->nr; i++)
        if (low[i] && n < sizeof(fl))
            n += (size_t)snprintf(fl + n, sizeof(fl) - n, "%srun %c: timer_floor_s %s us, dispatch_s %s us", n ? "; " : "",
                                  run_letter(i), rep_cell(R, i, low[i], "timer_floor_s", 1e6, 4),
                                  rep_cell(R, i, low[i], "dispatch_s", 1e6, 4));
    if (!n) return;
    rep_para(R, "%s below the timer floor: a marked row's GPU median is under %sx the larger of the timer's resolution and "
            "one dispatch's overhead (%s), so that time is mostly timer and dispatch, not the kernel, and its kernel-only "
            "speedups are not speedups of the kernel: do not compare them with the unmarked rows.",
         FLOOR_SYM, rep_cst(R, "floor_factor", 3), fl);
}

static void method(rep *R)
{
    rep_heading(R, 2, "How to read this report");
    rep_para(R, "**Speedup** = CPU time / GPU time for the same case (same inputs, same validation). It is given first "
            "against the **optimized CPU baseline** (cpu/: OpenMP + SIMD C on all cores pinned through hwloc; OpenBLAS "
            "sgemm/sgemv through GSL's CBLAS interface; OpenBLAS's LAPACK for the decompositions), validated by the "
            "kernel's own check with the GPU's tolerance, and beside it against the **single-thread naive reference** "
            "(reference/: scalar loops, double accumulation): the latter is what inflated GPU-vs-CPU claims use.");
    rep_para(R, "**Kernel-only** uses the GPU's median per-launch time from Vulkan timestamps; **end-to-end** uses "
            "the host-timed upload + kernel + download (best of up to three). Intervals are %s%% percentile-bootstrap "
            "intervals of the kernel-only speedup: the GPU's raw samples (samples.csv) are resampled %s times, the "
            "median of each resample divides the CPU's median time, and the central %s%% of those ratios is shown. The "
            "CPU side is a median over its timed runs (cpu_fast_runs); its own interval is in results.csv "
            "(cpu_fast_ci_lo_s, cpu_fast_ci_hi_s). End-to-end is a single best time: no interval.",
         rep_cst(R, "conf_pct", 3), rep_cst(R, "boot_B", 6), rep_cst(R, "conf_pct", 3));
    rep_para(R, "Every number below is listed in report-numbers.csv with its source (a results.csv cell, a ratio of "
            "cells, a bootstrap over samples.csv, or a published constant); `vkbench report --verify DIR` recomputes "
            "them all. NA means not measured, with the reason where there is one.");
}

/* One run's speedup table: PASS rows. */
static void speedup_table(rep *R, int i)
{
    static const char *const h[] = {"kernel", "params", "mode", "GPU kernel median (us)", "GPU end-to-end (us)",
                                    "optimized CPU (us)", "speedup vs optimized: kernel-only [CI]",
                                    "speedup vs optimized: end-to-end", "single-thread naive reference (us)",
                                    "speedup vs naive reference: kernel-only [CI]", "speedup vs naive reference: end-to-end"};
    char title[200];
    snprintf(title, sizeof(title), "Speedups, run %c", run_letter(i));
    rep_heading(R, 2, title);
    const rrun *u = &R->r[i];
    const vkb_result *low[MAX_RUNS] = {NULL};
    rep_table_begin(R);
    rep_row(R, 1, 11, h);
    for (long j = 0; j < u->n; j++) {
        const vkb_result *r = &u->rows[j];
        if (!rep_is_pass(r)) continue;
        char gpu[64], fs[256], fe[64], rs[256], re[64], ft[300];
        const char *e2e = rep_cell(R, i, r, "e2e_time_s", 1e6, 4), *fm = floor_mark(r);
        snprintf(gpu, sizeof(gpu), "%s%s", rep_cell(R, i, r, "time_median_s", 1e6, 4), fm);
        if (r->below_floor > 0 && !low[i]) low[i] = r;
        if (rep_fast_ok(r)) {
            snprintf(ft, sizeof(ft), "%s", rep_cell(R, i, r, "cpu_fast_time_s", 1e6, 4));
            snprintf(fs, sizeof(fs), "%s [%s, %s]%s", rep_ratio(R, i, r, "cpu_fast_time_s", "time_median_s"),
                     rep_num(R, "boot_lo", i, r->case_id, "cpu_fast_time_s", NULL, 1, 3),
                     rep_num(R, "boot_hi", i, r->case_id, "cpu_fast_time_s", NULL, 1, 3), fm);
            snprintf(fe, sizeof(fe), "%s", rep_ratio(R, i, r, "cpu_fast_time_s", "e2e_time_s"));
        } else {
            snprintf(ft, sizeof(ft), "%s: %s", r->cpu_fast_status[0] ? r->cpu_fast_status : "NA",
                     r->cpu_fast_why[0] ? rep_str(R, i, r, "cpu_fast_why") : "no baseline result");
            snprintf(fs, sizeof(fs), "NA");
            snprintf(fe, sizeof(fe), "NA");
        }
        snprintf(rs, sizeof(rs), "%s [%s, %s]%s", rep_ratio(R, i, r, "ref_time_s", "time_median_s"),
                 rep_num(R, "boot_lo", i, r->case_id, "ref_time_s", NULL, 1, 3),
                 rep_num(R, "boot_hi", i, r->case_id, "ref_time_s", NULL, 1, 3), fm);
        snprintf(re, sizeof(re), "%s", rep_ratio(R, i, r, "ref_time_s", "e2e_time_s"));
        const char *c[11] = {rep_str(R, i, r, "kernel"), rep_str(R, i, r, "params"), r->mode, gpu, e2e, ft, fs, fe,
                             rep_cell(R, i, r, "ref_time_s", 1e6, 4), rs, re};
        rep_row(R, 0, 11, c);
    }
    rep_table_end(R);
    floor_note(R, low);
}

static int same_case(const vkb_result *a, const vkb_result *b)
{
    return !strcmp(a->kernel, b->kernel) && !strcmp(a->params, b->params) && !strcmp(a->mode, b->mode);
}

/* Several runs: the kernel-only speedup vs each run's optimized CPU, one column per run. */
static void side_by_side(rep *R)
{
    if (R->nr < 2) return;
    rep_heading(R, 2, "Side by side: speedup vs optimized CPU, kernel-only");
    const char *h[2 + 2 * MAX_RUNS];
    char hb[2 * MAX_RUNS][64];
    h[0] = "kernel", h[1] = "params";
    for (int i = 0; i < R->nr; i++) {
        snprintf(hb[2 * i], 64, "run %c: GPU median (us)", run_letter(i));
        snprintf(hb[2 * i + 1], 64, "run %c: speedup vs optimized", run_letter(i));
        h[2 + 2 * i] = hb[2 * i], h[3 + 2 * i] = hb[2 * i + 1];
    }
    int nc = 2 + 2 * R->nr;
    const vkb_result *low[MAX_RUNS] = {NULL};
    char cb[2 * MAX_RUNS][96];
    rep_table_begin(R);
    rep_row(R, 1, nc, h);
    for (int i = 0; i < R->nr; i++)
        for (long j = 0; j < R->r[i].n; j++) {
            const vkb_result *r = &R->r[i].rows[j];
            int seen = !rep_is_pass(r);
            for (int p = 0; p < i && !seen; p++)
                for (long q = 0; q < R->r[p].n && !seen; q++) seen = rep_is_pass(&R->r[p].rows[q]) && same_case(r, &R->r[p].rows[q]);
            if (seen) continue;
            const char *c[2 + 2 * MAX_RUNS];
            c[0] = rep_str(R, i, r, "kernel"), c[1] = rep_str(R, i, r, "params");
            for (int p = 0; p < R->nr; p++) {
                const vkb_result *o = NULL;
                for (long q = 0; q < R->r[p].n && !o; q++)
                    if (rep_is_pass(&R->r[p].rows[q]) && same_case(r, &R->r[p].rows[q])) o = &R->r[p].rows[q];
                snprintf(cb[2 * p], 96, "%s%s", o ? rep_cell(R, p, o, "time_median_s", 1e6, 4) : "not run", o ? floor_mark(o) : "");
                snprintf(cb[2 * p + 1], 96, "%s%s", o && rep_fast_ok(o) ? rep_ratio(R, p, o, "cpu_fast_time_s", "time_median_s") : "NA",
                         o && rep_fast_ok(o) ? floor_mark(o) : "");
                c[2 + 2 * p] = cb[2 * p], c[3 + 2 * p] = cb[2 * p + 1];
                if (o && o->below_floor > 0 && !low[p]) low[p] = o;
            }
            rep_row(R, 0, nc, c);
        }
    rep_table_end(R);
    floor_note(R, low);
}

/* The PASS row of run i with the largest a/b among rows accepted by want (ties: first). */
static const vkb_result *best(const rrun *u, const char *a, const char *b, int (*want)(const vkb_result *))
{
    const vkb_result *bst = NULL;
    double bv = -1;
    for (long j = 0; j < u->n; j++) {
        const vkb_result *r = &u->rows[j];
        double v = rep_col(r, a) / rep_col(r, b);
        if (rep_is_pass(r) && want(r) && !isnan(v) && v > bv) bst = r, bv = v;
    }
    return bst;
}

/* "PRE N of the ... did not PASS here (the largest: ...)" when rows of pick set `set` at least as large
 * as the picked row r were not measured (a claim made from r says nothing about them), else "". */
static void unmeasured(rep *R, int i, const vkb_result *r, const char *set, const char *pre, char *out, size_t len)
{
    const vkb_result *big;
    const pickset *ps = rep_pick_set(set);
    out[0] = 0;
    if (!r || !rep_not_measured(&R->r[i], r, ps, &big)) return;
    snprintf(out, len, "%s%s of the %s did not PASS here (the largest: %s %s, %s: %s)", pre,
             rep_num(R, "nomeas", i, r->case_id, set, NULL, 1, 9), ps->what, rep_str(R, i, big, "kernel"), rep_str(R, i, big, "params"),
             big->status, rep_str(R, i, big, "reason"));
}

/* One claim line: the row's speedups (naive kernel-only, optimized kernel-only and e2e); *low gets r if
 * its median is below the timer floor. */
static void claim_row(rep *R, int i, const char *claim, const char *what, const vkb_result *r, const char *absent,
                      const char *set, const vkb_result **low)
{
    char where[1024], note[800], sn[64], sf[64];
    if (!r) {
        const char *c[7] = {claim, what, absent, "NA", "NA", "NA", "NA"};
        rep_row(R, 0, 7, c);
        return;
    }
    if (r->below_floor > 0 && !*low) *low = r;
    unmeasured(R, i, r, set, "; ", note, sizeof(note));
    snprintf(where, sizeof(where), "%s %s%s%s", rep_str(R, i, r, "kernel"), rep_str(R, i, r, "params"), floor_mark(r), note);
    snprintf(sn, sizeof(sn), "%s%s", rep_ratio(R, i, r, "ref_time_s", "time_median_s"), floor_mark(r));
    snprintf(sf, sizeof(sf), "%s%s", rep_fast_ok(r) ? rep_ratio(R, i, r, "cpu_fast_time_s", "time_median_s") : "NA (no validated optimized baseline)",
             rep_fast_ok(r) ? floor_mark(r) : "");
    const char *c[7] = {claim, what, where, sn, sf, rep_fast_ok(r) ? rep_ratio(R, i, r, "cpu_fast_time_s", "e2e_time_s") : "NA",
                        rep_cell(R, i, r, "bw_frac_copy", 100, 3)};
    rep_row(R, 0, 7, c);
}

static void claims(rep *R, int i)
{
    static const char *const h[] = {"bitnet-metal claim", "vkbench equivalent", "row", "speedup vs naive reference (kernel-only)",
                                    "speedup vs optimized CPU (kernel-only)", "speedup vs optimized CPU (end-to-end)",
                                    "bandwidth, % of measured copy"};
    const rrun *u = &R->r[i];
    const vkb_result *low[MAX_RUNS] = {NULL};
    char title[160], cl[5][96];
    snprintf(title, sizeof(title), "Claims: bitnet-metal next to vkbench, run %c", run_letter(i));
    rep_heading(R, 2, title);
    rep_para(R, "The bitnet-metal crate (version %s) publishes speedups of a Metal GPU over CPU. Below, for each claim, the same operation "
            "at a comparable size measured here on this run's device, against both CPU baselines.", rep_cst(R, "claim_version", 1));
    rep_table_begin(R);
    rep_row(R, 1, 7, h);
    snprintf(cl[0], 96, "%sx, %sx%s matmul", rep_cst(R, "claim_matmul_x", 6), rep_cst(R, "matmul_size", 4), rep_cst(R, "matmul_size", 4));
    claim_row(R, i, cl[0], "fastest PASS matmul variant, m = n = k at that size", best(u, "ref_time_s", "time_median_s", rep_want_mm),
              "NA: no PASS matmul row of that size in this run", "matmul_512", &low[i]);
    snprintf(cl[1], 96, "up to %sx, elementwise", rep_cst(R, "claim_elementwise_x", 6));
    claim_row(R, i, cl[1], "elementwise row with the largest speedup vs the naive reference",
              best(u, "ref_time_s", "time_median_s", rep_want_elem), "NA: no PASS elementwise row", "elementwise", &low[i]);
    snprintf(cl[1], 96, "up to %sx, elementwise", rep_cst(R, "claim_elementwise_x", 6));
    claim_row(R, i, cl[1], "elementwise row with the largest speedup vs the optimized CPU",
              best(u, "cpu_fast_time_s", "time_median_s", rep_want_elem_fast), "NA: no elementwise row with a validated baseline",
              "elementwise", &low[i]);
    snprintf(cl[2], 96, "%sx, BitNet quantization", rep_cst(R, "claim_quant_x", 6));
    claim_row(R, i, cl[2], "absmean ternary weight quantization, largest speedup vs the naive reference",
              best(u, "ref_time_s", "time_median_s", rep_want_quant), "NA: no PASS bitnet_wquant row", "bitnet_wquant", &low[i]);
    snprintf(cl[2], 96, "%sx, BitNet quantization", rep_cst(R, "claim_quant_x", 6));
    claim_row(R, i, cl[2], "absmean ternary weight quantization, largest speedup vs the optimized CPU",
              best(u, "cpu_fast_time_s", "time_median_s", rep_want_quant_fast), "NA: no bitnet_wquant row with a validated baseline",
              "bitnet_wquant", &low[i]);
    rep_table_end(R);
    /* Bandwidth and power. */
    const vkb_result *bw = NULL;
    for (long j = 0; j < u->n; j++) {
        const vkb_result *r = &u->rows[j];
        if (rep_is_pass(r) && rep_want_elem_nocopy(r) && !isnan(r->bw_frac_copy) &&
            (!bw || r->bytes > bw->bytes || (r->bytes == bw->bytes && r->bw_frac_copy > bw->bw_frac_copy)))
            bw = r;
    }
    if (bw && bw->below_floor > 0 && !low[i]) low[i] = bw;
    floor_note(R, low);
    snprintf(cl[3], 96, "%s%%+ bandwidth utilization", rep_cst(R, "claim_bw_pct", 3));
    if (bw) {
        char theo[400], note[800];
        unmeasured(R, i, bw, "elementwise_nocopy", " Larger sizes are not covered: ", note, sizeof(note));
        if (isnan(bw->bw_frac_theoretical))
            snprintf(theo, sizeof(theo), "the device's theoretical bandwidth is NA (%s)", rep_why(R, i, bw, "util_why", "theoretical_Bps"));
        else
            snprintf(theo, sizeof(theo), "%s%% of the device's theoretical bandwidth (theoretical_Bps)",
                     rep_cell(R, i, bw, "bw_frac_theoretical", 100, 3));
        rep_para(R, "**%s**: the elementwise row that moves the most bytes among those that PASS (%s %s%s; smaller ones can sit in a "
                "cache) reaches %s%% of the copy bandwidth measured in the same run (%s GB/s, copy_Bps); %s.%s%s%s",
             cl[3], rep_str(R, i, bw, "kernel"), rep_str(R, i, bw, "params"), floor_mark(bw), rep_cell(R, i, bw, "bw_frac_copy", 100, 3),
             rep_cell(R, i, bw, "copy_Bps", 1e-9, 4), theo, note, note[0] ? "." : "",
             bw->below_floor > 0 ? " Its median is below the timer floor (see the note under the claims table): the bandwidth "
                               "figure is a lower bound." : "");
    } else
        rep_para(R, "**%s**: NA: no PASS elementwise row with a bandwidth figure in this run.", cl[3]);
    snprintf(cl[4], 96, "%s%%+ power-efficiency improvement over CPU", rep_cst(R, "claim_power_pct", 3));
    const vkb_result *pe = best(u, "ref_time_s", "time_median_s", rep_want_mm);
    if (!pe) pe = best(u, "ref_time_s", "time_median_s", rep_want_elem);
    if (pe)
        rep_para(R, "**%s**: energy per call on the GPU for %s %s: %s J (%s); the optimized CPU baseline's energy: NA "
                "(vkbench does not meter the CPU while the baseline runs); the naive reference's energy: %s J (%s). A "
                "GPU-vs-CPU energy ratio is given only where both sides are metered.",
             cl[4], rep_str(R, i, pe, "kernel"), rep_str(R, i, pe, "params"), rep_cell(R, i, pe, "energy_per_call_J", 1, 3),
             isnan(pe->energy_per_call_J) ? (pe->telemetry_why[0] ? rep_str(R, i, pe, "telemetry_why") : "no reading")
                                          : "telemetry",
             rep_cell(R, i, pe, "ref_energy_J", 1, 3),
             isnan(pe->ref_energy_J) ? (pe->cpu_sensor_why[0] ? rep_str(R, i, pe, "cpu_sensor_why") : "no reading")
                                     : "CPU package meter");
    else rep_para(R, "**%s**: NA: no PASS matmul or elementwise row in this run.", cl[4]);
}

static void baseline_status(rep *R, int i)
{
    const rrun *u = &R->r[i];
    char title[160];
    snprintf(title, sizeof(title), "Optimized CPU baselines, run %c", run_letter(i));
    rep_heading(R, 2, title);
    rep_para(R, "Validated by the kernel's own check (GPU tolerance): %s PASS, %s FAIL, %s NA.",
         rep_num(R, "count", i, -1, "cpu_fast_status", "PASS", 1, 9), rep_num(R, "count", i, -1, "cpu_fast_status", "FAIL", 1, 9),
         rep_num(R, "count", i, -1, "cpu_fast_status", "NA", 1, 9));
    static const char *const h[] = {"kernel", "params", "baseline status", "implementation", "reason"};
    int any = 0;
    for (long j = 0; j < u->n; j++) {
        const vkb_result *r = &u->rows[j];
        if (!strcmp(r->cpu_fast_status, "FAIL") || (!strcmp(r->cpu_fast_status, "NA") && rep_is_pass(r))) {
            if (!any++) rep_table_begin(R), rep_row(R, 1, 5, h);
            const char *c[5] = {rep_str(R, i, r, "kernel"), rep_str(R, i, r, "params"), r->cpu_fast_status,
                                rep_str(R, i, r, "cpu_fast_impl"), rep_str(R, i, r, "cpu_fast_why")};
            rep_row(R, 0, 5, c);
        }
    }
    if (any) rep_table_end(R);
}

/* The comparison file, checked before anything is written: readable, a header with ratio, ci_lo and ci_hi, and on
 * every line the header's field count and NA or a finite number in those three. Returns 0, or -1 with err. */
static int gate_check(const char *path, char *err, size_t errlen)
{
    static const char *const need[3] = {"ratio", "ci_lo", "ci_hi"};
    char line[4096], *fl[64];
    int ix[3] = {-1, -1, -1}, nf = -1, rc = -1;
    long ln = 1;
    FILE *in = fopen(path, "r");
    if (!in) {
        snprintf(err, errlen, "--compare %s: cannot open: %s", path, strerror(errno));
        return -1;
    }
    if (!fgets(line, sizeof(line), in)) {
        snprintf(err, errlen, "%s:1: no header (want a `vkbench compare` verdicts.csv)", path);
        goto out;
    }
    line[strcspn(line, "\r\n")] = 0;
    nf = vkb_csv_split(line, fl, 64);
    for (int j = 0; j < nf; j++)
        for (int q = 0; q < 3; q++)
            if (!strcmp(fl[j], need[q])) ix[q] = j;
    for (int q = 0; q < 3; q++)
        if (ix[q] < 0) {
            snprintf(err, errlen, "%s:1: no column '%s' (want a `vkbench compare` verdicts.csv: ratio, ci_lo, ci_hi)", path,
                     need[q]);
            goto out;
        }
    while (fgets(line, sizeof(line), in)) {
        ln++;
        line[strcspn(line, "\r\n")] = 0;
        if (!line[0]) continue;
        int n = vkb_csv_split(line, fl, 64);
        if (n != nf) {
            snprintf(err, errlen, "%s:%ld: expected %d fields, got %d", path, ln, nf, n);
            goto out;
        }
        for (int q = 0; q < 3; q++) {
            char *end;
            double v = strtod(fl[ix[q]], &end);
            if (strcmp(fl[ix[q]], "NA") && (!fl[ix[q]][0] || *end || !isfinite(v))) {
                snprintf(err, errlen, "%s:%ld: column %s: '%s' is not a number (or NA)", path, ln, need[q], fl[ix[q]]);
                goto out;
            }
        }
    }
    rc = 0;
out:
    fclose(in);
    return rc;
}

/* The gate's ratio-with-interval chart from a `vkbench compare` CSV (columns by name; gate_check vouched for it). */
static void gate(rep *R, const char *path)
{
    rep_heading(R, 2, "Gate: candidate / baseline");
    FILE *in = fopen(path, "r"), *f = rep_data_file(R, "gate");
    char line[4096], *fl[64];
    int ix[6] = {-1, -1, -1, -1, -1, -1}, k = 0;
    static const char *const need[6] = {"ratio", "ci_lo", "ci_hi", "verdict", "kernel", "params"};
    if (in && fgets(line, sizeof(line), in)) {
        line[strcspn(line, "\r\n")] = 0;
        int n = vkb_csv_split(line, fl, 64);
        for (int j = 0; j < n; j++)
            for (int q = 0; q < 6; q++)
                if (!strcmp(fl[j], need[q])) ix[q] = j;
    }
    int ok = in && f && ix[0] >= 0 && ix[1] >= 0 && ix[2] >= 0;
    while (ok && fgets(line, sizeof(line), in)) {
        line[strcspn(line, "\r\n")] = 0;
        int n = vkb_csv_split(line, fl, 64);
        if (n <= ix[2] || !strcmp(fl[ix[0]], "NA") || !strcmp(fl[ix[1]], "NA")) continue;
        const char *v = ix[3] >= 0 && ix[3] < n ? fl[ix[3]] : "";
        int code = !strcmp(v, "FASTER") ? 1 : !strcmp(v, "SLOWER") ? 2 : !strcmp(v, "INCONCLUSIVE") ? 3 : 0;
        fprintf(f, "%d\t%s\t%s\t%s\t%d\t%s %s\t0.02\n", k++, fl[ix[0]], fl[ix[1]], fl[ix[2]], code,
                ix[4] >= 0 && ix[4] < n ? fl[ix[4]] : "", ix[5] >= 0 && ix[5] < n ? fl[ix[5]] : "");
    }
    if (in) fclose(in);
    if (f) fclose(f);
    if (!ok || !k) {
        rep_para(R, "NA: %s.", ok ? "no case of the comparison file has a ratio with its interval (every one is NA)"
                                  : "the comparison file could not be read again, or the plot data not written");
        return;
    }
    const char *gx[1] = {"0.02"};
    rep_plot(R, "gate_ratios.gp", "gate", "Time ratio candidate / baseline with its bootstrap interval, from the comparison file", gx, 1);
}

int vkb_report_write(const vkb_report_opts *o, char *err, size_t errlen)
{
    rep R;
    rrun runs[MAX_RUNS];
    char path[700];
    int ret = -1;
    memset(&R, 0, sizeof(R));
    memset(runs, 0, sizeof(runs));
    if (o->nruns < 1 || o->nruns > MAX_RUNS) {
        snprintf(err, errlen, "report: give 1 to %d run directories (got %d)", MAX_RUNS, o->nruns);
        return -1;
    }
    if (rep_read_runs(runs, o->runs, o->nruns, err, errlen)) goto out;
    if (o->compare_csv && gate_check(o->compare_csv, err, errlen)) goto out;
    R.r = runs, R.nr = o->nruns;
    /* Paths stay out of report.md (their digits are nobody's number); stderr names them. */
    if (vkb_report_templates(o->plot_dir, R.tmpl, sizeof(R.tmpl)) && !o->no_plots) {
        snprintf(R.noplot, sizeof(R.noplot), "the gnuplot templates were not found beside vkbench: give --plots DIR");
        snprintf(R.unrendered_why, sizeof(R.unrendered_why), "the gnuplot templates were not found in %s: give --plots DIR",
                 R.tmpl);
    }
    snprintf(R.plotdir, sizeof(R.plotdir), "%s/plots", o->runs[0]);
    if (mkdir(R.plotdir, 0777) && errno != EEXIST) {
        snprintf(err, errlen, "%s: %s", R.plotdir, strerror(errno));
        goto out;
    }
    if (o->no_plots) snprintf(R.noplot, sizeof(R.noplot), "--no-plots was given");
    snprintf(path, sizeof(path), "%s/gnuplot.log", R.plotdir);  /* this report's messages only */
    FILE *lf = fopen(path, "w");
    if (lf) fclose(lf);
#define OPEN(var, name)                                                                  \
    snprintf(path, sizeof(path), "%s/%s", o->runs[0], name);                            \
    if (!(var = fopen(path, "w"))) {                                                    \
        snprintf(err, errlen, "%s: %s", path, strerror(errno));                        \
        goto out;                                                                       \
    }
    OPEN(R.md, "report.md");
    OPEN(R.html, "report.html");
    OPEN(R.nums, "report-numbers.csv");
#undef OPEN
    for (int i = 0; i < R.nr; i++) fprintf(R.nums, "# run %d %s\n", i, o->runs[i]);
    fprintf(R.nums, "id,kind,run,case_id,a,b,scale,sig,text\n");
    fputs("<!DOCTYPE html>\n<html><head><meta charset=\"utf-8\"><title>vkbench report</title><style>"
          "body{font-family:sans-serif;max-width:1400px;margin:auto}table{border-collapse:collapse;font-size:12px}"
          "td,th{border:1px solid #ccc;padding:2px 6px}th{background:#eee}td.n{text-align:right;white-space:nowrap}"
          "figure{margin:1em 0}figure svg{max-width:100%;height:auto}figcaption{font-style:italic}"
          "</style></head><body>\n", R.html);
    /* The title says what a reader must know first: runs cut short, rows missing (words only: no digits). stderr
     * gets the same with the paths and counts. */
    char partial[1200], title[1500], warn[2400] = "";
    size_t tl = (size_t)snprintf(title, sizeof(title), "vkbench report"), wl = 0;
    int nt = 0;
    if (rep_partial_runs(o->runs, o->nruns, 1, partial, sizeof(partial)))
        tl += (size_t)snprintf(title + tl, sizeof(title) - tl, "%sPARTIAL, %s: only its finished cases are reported",
                               nt++ ? "; " : ": ", partial);
    for (int i = 0; i < R.nr; i++) {
        const rrun *u = &runs[i];
        int lost = u->finished > u->n, extra = u->finished >= 0 && u->finished < u->n;
        if ((lost || extra) && tl < sizeof(title))
            tl += (size_t)snprintf(title + tl, sizeof(title) - tl, "%s%s, run %c: results.csv %s", nt++ ? "; " : ": ",
                                   lost ? "ROWS MISSING" : "EXTRA ROWS", run_letter(i),
                                   lost ? "lacks rows of finished cases" : "holds rows this run did not write");
        if ((lost || extra) && wl < sizeof(warn))
            wl += (size_t)snprintf(warn + wl, sizeof(warn) - wl, "%s%s/results.csv holds %ld rows, but %s/run.txt's totals "
                                   "count %ld finished cases (%s)", wl ? "; " : "", u->dir, u->n, u->dir, u->finished,
                                   lost ? "finished rows are missing" : "rows this run did not write");
        if (u->nosamp[0] && wl < sizeof(warn))
            wl += (size_t)snprintf(warn + wl, sizeof(warn) - wl, "%s%s: intervals and timing distributions are NA",
                                   wl ? "; " : "", u->nosamp);
    }
    rep_heading(&R, 1, title);
    runs_table(&R);
    for (int i = 0; i < R.nr; i++) status_cases(&R, i);
    method(&R);
    for (int i = 0; i < R.nr; i++) claims(&R, i);
    side_by_side(&R);
    for (int i = 0; i < R.nr; i++) speedup_table(&R, i);
    for (int i = 0; i < R.nr; i++) baseline_status(&R, i);
    rep_plots(&R);
    if (o->compare_csv) gate(&R, o->compare_csv);
    fputs("</body></html>\n", R.html);
    ret = 0;
    if (R.unrendered && !o->no_plots && wl < sizeof(warn))
        wl += (size_t)snprintf(warn + wl, sizeof(warn) - wl, "%s%d plot%s not rendered: %s", wl ? "; " : "", R.unrendered,
                               R.unrendered == 1 ? "" : "s", R.unrendered_why);
    if (warn[0]) {
        snprintf(err, errlen, "%s", warn);
        ret = 1;
    }
out:
    if (R.md) fclose(R.md);
    if (R.html) fclose(R.html);
    if (R.nums) fclose(R.nums);
    rep_free_runs(runs, o->nruns);
    return ret;
}
