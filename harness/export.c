/* export.c — a run as Google Benchmark JSON, so tools that read that format (tools/compare.py,
 * github-action-benchmark's "googlecpp") can consume vkbench results. Pure: no Vulkan. */
#include <getopt.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "compare.h"
#include "result.h"
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

static void entry(FILE *f, int *first, const char *name, const char *run_name, int family, const char *agg,
                  size_t reps, size_t idx, long long iters, double t)
{
    fprintf(f, "%s    {\"name\": ", *first ? "" : ",\n");
    *first = 0;
    json_str(f, name);
    fprintf(f, ", \"family_index\": %d, \"per_family_instance_index\": 0, \"run_name\": ", family);
    json_str(f, run_name);
    if (agg) fprintf(f, ", \"run_type\": \"aggregate\", \"aggregate_name\": \"%s\", \"aggregate_unit\": \"time\"", agg);
    else fprintf(f, ", \"run_type\": \"iteration\", \"repetition_index\": %zu", idx);
    fprintf(f, ", \"repetitions\": %zu, \"threads\": 1, \"iterations\": %lld, \"real_time\": %.6f, \"cpu_time\": %.6f, "
               "\"time_unit\": \"ns\"}", reps, iters, t * 1e9, t * 1e9);
}

int vkb_export_gbench(FILE *f, const char *results_csv, char *err, size_t errlen)
{
    vkb_result *rows = NULL;
    char samples[1100], name[400];
    long n = vkb_result_read(results_csv, &rows, err, errlen);
    if (n < 0) return -1;
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
    fprintf(f, "    \"vkbench_time_note\": \"real_time: GPU time per dispatch from Vulkan timestamps (one "
               "repetition = one raw sample, iterations = dispatches in its batch). vkbench measures no CPU time "
               "per kernel: cpu_time repeats real_time so tools that require the field can read the file.\"\n  },\n"
               "  \"benchmarks\": [\n");
    int first = 1, family = 0, rc = 0;
    for (long i = 0; i < n && rc == 0; i++) {
        const vkb_result *r = &rows[i];
        double *t = NULL;
        if (strcmp(r->status, "PASS")) continue;
        long ns = vkb_samples_read(samples, r->case_id, &t, err, errlen);
        if (ns < 0) { rc = -1; break; }
        bench_name(r, name, sizeof(name));
        vkb_summary s;
        vkb_stats_summarise(t, (size_t)ns, &s);
        for (long j = 0; j < ns; j++) entry(f, &first, name, name, family, NULL, (size_t)ns, (size_t)j, r->batch, t[j]);
        static const char *const agg[] = {"mean", "median", "stddev"};
        const double v[] = {s.mean, s.median, s.stddev};
        for (int a = 0; a < 3 && ns > 1; a++) {
            char an[440];
            snprintf(an, sizeof(an), "%s_%s", name, agg[a]);
            entry(f, &first, an, name, family, agg[a], (size_t)ns, 0, (long long)ns, v[a]);
        }
        free(t);
        family++;
    }
    fprintf(f, "\n  ]\n}\n");
    free(rows);
    return rc;
}

int vkb_export_cmd(int argc, char **argv)
{
    static const struct option lo[] = {{"format", 1, 0, 'f'}, {"output", 1, 0, 'o'}, {"help", 0, 0, 'h'}, {0, 0, 0, 0}};
    const char *format = "gbench", *out = NULL;
    char path[1100], err[1200];
    int c;
    optind = 1;
    while ((c = getopt_long(argc, argv, "f:o:h", lo, NULL)) != -1) {
        if (c == 'f') format = optarg;
        else if (c == 'o') out = optarg;
        else {
            fprintf(c == 'h' ? stdout : stderr, "usage: vkbench export [--format gbench] RUN_DIR|results.csv [-o FILE]\n"
                    "  Google Benchmark JSON (stdout by default); exit 0, or 3 on a usage or input error\n");
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
    FILE *f = out ? fopen(out, "w") : stdout;
    if (!f) {
        fprintf(stderr, "vkbench export: cannot write %s\n", out);
        return VKB_GATE_INPUT;
    }
    int rc = vkb_export_gbench(f, path, err, sizeof(err));
    if (out) fclose(f);
    if (rc) fprintf(stderr, "vkbench export: %s\n", err);
    return rc ? VKB_GATE_INPUT : VKB_GATE_OK;
}
