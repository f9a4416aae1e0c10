/* export.c — a run as Google Benchmark JSON, so tools that read that format (tools/compare.py,
 * github-action-benchmark's "googlecpp") can consume vkbench results. Pure: no Vulkan. */
#include <getopt.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "compare.h"
#include "result.h"
#include "rundir.h"
#include "stats.h"

static void json_str(FILE *f, const char *s)
{
    fputc('"', f);
    for (; *s; s++) {
        unsigned char ch = (unsigned char)*s;
        if (ch == '"' || ch == '\\') fprintf(f, "\\%c", ch);
        else if (ch < 0x20) fprintf(f, "\\u%04x", ch);
        else fputc(ch, f);
    }
    fputc('"', f);
}

/* Benchmark name: kernel/params/mode with spaces as '/', e.g. "add/n=2^20/dtype=f32/hot". */
static void bench_name(const vkb_result *r, char *out, size_t len)
{
    snprintf(out, len, "%s/%s%s%s", r->kernel, r->params, r->params[0] ? "/" : "", r->mode);
    for (char *p = out; *p; p++)
        if (*p == ' ') *p = '/';
}

/* The fields every entry starts with; the caller adds the rest and the closing brace. */
static void entry_head(FILE *f, int *first, const char *name, const char *run_name, int family)
{
    fprintf(f, "%s    {\"name\": ", *first ? "" : ",\n");
    *first = 0;
    json_str(f, name);
    fprintf(f, ", \"family_index\": %d, \"per_family_instance_index\": 0, \"run_name\": ", family);
    json_str(f, run_name);
}

static void entry(FILE *f, int *first, const char *name, const char *run_name, int family, const char *agg,
                  size_t reps, size_t idx, long long iters, double t)
{
    entry_head(f, first, name, run_name, family);
    if (agg) fprintf(f, ", \"run_type\": \"aggregate\", \"aggregate_name\": \"%s\", \"aggregate_unit\": \"time\"", agg);
    else fprintf(f, ", \"run_type\": \"iteration\", \"repetition_index\": %zu", idx);
    fprintf(f, ", \"repetitions\": %zu, \"threads\": 1, \"iterations\": %lld, \"real_time\": %.6f, \"cpu_time\": %.6f, "
               "\"time_unit\": \"ns\"}", reps, iters, t * 1e9, t * 1e9);
}

/* A case that was not timed, marked as Google Benchmark marks one: error_occurred + error_message (FAIL, ERROR,
 * INTERRUPTED) or skipped + skip_message (SKIP). No real_time or cpu_time: nothing was measured, and a 0 would
 * read as a time (Google Benchmark's compare.py leaves entries without them out of its comparisons). */
static void untimed(FILE *f, int *first, const char *name, int family, const vkb_result *r)
{
    char msg[VKB_STR_LEN + 32];
    int skip = !strcmp(r->status, "SKIP");
    snprintf(msg, sizeof(msg), "%s: %s", r->status, r->reason[0] ? r->reason : "no reason recorded");
    entry_head(f, first, name, name, family);
    fprintf(f, ", \"run_type\": \"iteration\", \"repetition_index\": 0, \"repetitions\": 1, \"threads\": 1, "
               "\"%s\": true, \"%s\": ", skip ? "skipped" : "error_occurred", skip ? "skip_message" : "error_message");
    json_str(f, msg);
    fprintf(f, ", \"iterations\": 0, \"time_unit\": \"ns\"}");
}

/* A timed case: mean/median/stddev aggregates (repetitions = raw samples), from the row itself or, with samples,
 * recomputed from them after one entry per raw sample. One sample: a single iteration entry. The samples are
 * checked as compare checks them (vkb_samples_for_row): a case without its samples is refused, never left out. */
static int timed(FILE *f, int *first, const char *name, int family, const vkb_result *r, const char *results_csv,
                 const char *samples_csv, int per_sample, int torn_tail, char *err, size_t errlen)
{
    double *t = NULL;
    vkb_summary s;
    long ns = r->samples == VKB_NA_I ? 0 : (long)r->samples;
    s.mean = r->time_mean_s, s.median = r->time_median_s, s.stddev = r->time_stddev_s;
    if (r->batch == VKB_NA_I || r->batch < 1) {   /* iterations would print INT64_MIN */
        snprintf(err, errlen, "%s: case_id %lld (%s %s) is %s with a median time but batch %s: not a timed row's batch "
                 "(an integer >= 1)", results_csv, (long long)r->case_id, r->kernel, r->params, r->status,
                 r->batch == VKB_NA_I ? "NA" : "< 1");
        return -1;
    }
    if (per_sample) {
        if ((ns = vkb_samples_for_row(samples_csv, results_csv, r, torn_tail, &t, err, errlen)) < 0) return -1;
        vkb_stats_summarise(t, (size_t)ns, &s);
        for (long j = 0; j < ns; j++) entry(f, first, name, name, family, NULL, (size_t)ns, (size_t)j, r->batch, t[j]);
    } else if (ns <= 1 && !isnan(s.median))
        entry(f, first, name, name, family, NULL, 1, 0, r->batch, s.median);
    static const char *const agg[] = {"mean", "median", "stddev"};
    const double v[] = {s.mean, s.median, s.stddev};
    for (int a = 0; a < 3 && ns > 1; a++) {
        char an[440];
        if (isnan(v[a])) continue;   /* JSON has no NA: an unmeasured aggregate is left out */
        snprintf(an, sizeof(an), "%s_%s", name, agg[a]);
        entry(f, first, an, name, family, agg[a], (size_t)ns, 0, (long long)ns, v[a]);
    }
    free(t);
    return 0;
}

int vkb_export_gbench(FILE *f, const char *results_csv, int per_sample, char *err, size_t errlen)
{
    /* Without these an entry would be misnamed or its times silently NA: a missing one is refused by name. */
    static const char *const need[] = {"kernel", "params", "mode", "status", "reason", "case_id", "samples", "batch",
                                       "time_median_s", "time_mean_s", "time_stddev_s"};
    vkb_result *rows = NULL;
    char samples[1100], name[400];
    if (vkb_result_require(results_csv, need, sizeof(need) / sizeof(need[0]), err, errlen)) return -1;
    long n = vkb_result_read(results_csv, &rows, err, errlen);
    if (n < 0) return -1;
    if (vkb_result_need_status(results_csv, rows, n, err, errlen)) {
        free(rows);
        return -1;
    }
    int torn_tail = vkb_rundir_torn_tail(results_csv);
    snprintf(samples, sizeof(samples), "%s", results_csv);
    char *slash = strrchr(samples, '/');
    snprintf(slash ? slash + 1 : samples, sizeof(samples) - (size_t)(slash ? slash + 1 - samples : 0), "samples.csv");
    const char *ctx[][2] = {{"date", n ? rows[0].date_utc : ""},        {"host_name", n ? rows[0].host : ""},
                            {"executable", "vkbench"},                      {"vkbench_commit", n ? rows[0].commit : ""},
                            {"vkbench_device", n ? rows[0].device : ""},    {"vkbench_driver", n ? rows[0].driver : ""},
                            {"vkbench_cpu_model", n ? rows[0].cpu_model : ""}};
    fprintf(f, "{\n  \"context\": {\n");
    for (size_t i = 0; i < sizeof(ctx) / sizeof(ctx[0]); i++) {
        fprintf(f, "    \"%s\": ", ctx[i][0]);
        json_str(f, ctx[i][1]);
        fprintf(f, ",\n");
    }
    fprintf(f, "    \"vkbench_time_note\": \"real_time: GPU time per dispatch from Vulkan timestamps. Per PASS case: "
               "mean, median and stddev aggregates over its raw samples (repetitions = samples)%s. vkbench measures no "
               "CPU time per kernel: cpu_time repeats real_time so tools that require the field can read the file. "
               "FAIL, ERROR and INTERRUPTED cases carry error_occurred and error_message, SKIP cases skipped and "
               "skip_message (status: reason), and no time: they were not timed.\"\n  },\n"
               "  \"benchmarks\": [\n", per_sample ? ", after one iteration entry per raw sample (iterations = "
               "dispatches in its batch)" : "");
    int first = 1, family = 0, rc = 0;
    for (long i = 0; i < n && rc == 0; i++, family++) {
        const vkb_result *r = &rows[i];
        bench_name(r, name, sizeof(name));
        /* Timed: a PASS, or another status that carries times of a finished case (not a cut-short INTERRUPTED). */
        int no_time = !strcmp(r->status, "FAIL") || !strcmp(r->status, "ERROR") || !strcmp(r->status, "SKIP") ||
                      !strcmp(r->status, "INTERRUPTED") || isnan(r->time_median_s);
        if (no_time) untimed(f, &first, name, family, r);
        else rc = timed(f, &first, name, family, r, results_csv, samples, per_sample, torn_tail, err, errlen);
    }
    fprintf(f, "\n  ]\n}\n");
    free(rows);
    return rc;
}

int vkb_export_cmd(int argc, char **argv)
{
    static const struct option lo[] = {{"format", 1, 0, 'f'}, {"output", 1, 0, 'o'}, {"samples", 0, 0, 's'},
                                       {"help", 0, 0, 'h'}, {0, 0, 0, 0}};
    const char *format = "gbench", *out = NULL;
    char path[1100], err[1200];
    int c, per_sample = 0;
    optind = 1;
    while ((c = getopt_long(argc, argv, "f:o:h", lo, NULL)) != -1) {
        if (c == 'f') format = optarg;
        else if (c == 'o') out = optarg;
        else if (c == 's') per_sample = 1;
        else {
            fprintf(c == 'h' ? stdout : stderr, "usage: vkbench export [--format gbench] RUN_DIR|results.csv [-o FILE] "
                    "[--samples]\n"
                    "  Google Benchmark JSON (stdout by default): per case, mean/median/stddev aggregates; --samples adds\n"
                    "  one entry per raw sample (large: tens of thousands for the default suite). FAIL, ERROR and\n"
                    "  INTERRUPTED cases are entries with error_occurred, SKIP cases with skipped.\n"
                    "  exit 0, or 3 on a usage or input error\n");
            return c == 'h' ? VKB_GATE_OK : VKB_GATE_INPUT;
        }
    }
    if (strcmp(format, "gbench") || argc - optind != 1) {
        fprintf(stderr, "vkbench export: want --format gbench and one RUN_DIR (see --help)\n");
        return VKB_GATE_INPUT;
    }
    const char *run = argv[optind];
    size_t len = strlen(run);
    if (len > 4 && !strcmp(run + len - 4, ".csv")) snprintf(path, sizeof(path), "%s", run);
    else snprintf(path, sizeof(path), "%s/results.csv", run);
    /* The JSON is built in memory and written only whole: a refused input leaves no half document behind. */
    char *doc = NULL;
    size_t len_doc = 0;
    FILE *m = open_memstream(&doc, &len_doc);
    int rc = m ? vkb_export_gbench(m, path, per_sample, err, sizeof(err)) : -1;
    if (!m) snprintf(err, sizeof(err), "out of memory");
    if (m) fclose(m);
    FILE *f = NULL;
    if (!rc && !(f = out ? fopen(out, "w") : stdout)) snprintf(err, sizeof(err), "cannot write %s", out), rc = -1;
    if (f) {
        int bad = fwrite(doc, 1, len_doc, f) != len_doc;
        bad |= out ? fclose(f) != 0 : fflush(f) != 0;
        if (bad) snprintf(err, sizeof(err), "cannot write %s", out ? out : "stdout"), rc = -1;
    }
    free(doc);
    if (rc) fprintf(stderr, "vkbench export: %s\n", err);
    return rc ? VKB_GATE_INPUT : VKB_GATE_OK;
}
