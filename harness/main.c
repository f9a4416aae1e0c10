/* main.c — the vkbench command line. The only place that decides the exit status. */
#include <errno.h>
#include <getopt.h>
#include <math.h>
#include <stdint.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "calibrate.h"
#include "fsutil.h"
#include "registry.h"
#include "report.h"
#include "result.h"
#include "run.h"
#include "suite.h"
#include "telrow.h"
#include "version.h"
#include "vk.h"
#include "compare.h"
#include "slowdown.h"

enum { EXIT_OK = 0, EXIT_CASES_FAILED = 1, EXIT_USAGE = 3, EXIT_SIGNAL = 128 /* + the signal: 130 SIGINT, 143 SIGTERM */ };

static void usage(FILE *f)
{
    fprintf(f,
            "usage: vkbench COMMAND [options]\n"
            "  run [SUITE...] [-e LINE]  run suite files and/or inline suite lines (default suites/default.suite)\n"
            "      --device D            device index or name substring (default: discrete > integrated > cpu)\n"
            "      --seed S              run seed, 0 to 2^63-1 (default: from the clock; recorded in every row)\n"
            "      --out DIR             results root (default results/); --dir DIR: exact run directory\n"
            "      --force               with --dir: replace the run already there (its report and plots are removed)\n"
            "      --filter NAME         only kernels whose name contains NAME\n"
            "      --mode hot|cold|rotate  override the suites' cache mode\n"
            "      --min-time S --max-noise F --timeout S --min-samples N   stop-rule overrides\n"
            "      --validate            enable the Khronos validation layer; any message makes the case ERROR\n"
            "      --shader A=B          use SPIR-V module B wherever a kernel asks for A (exit 3 if none does)\n"
            "      --spv-dir DIR         where SPIR-V modules live (default build/spv)\n"
            "      --no-calibrate        skip the calibration (every ceiling and utilization NA)\n"
            "      --recalibrate         measure the ceilings again instead of reading OUT/.calibration/\n"
            "      --no-telemetry        sensors off (power, energy, clocks NA), to measure their overhead\n"
            "      --discard-throttled   drop samples that saw a power/thermal throttle, cool down, retry\n"
            "      --profile             time each dispatch of a case (5 runs, medians): the profile column,\n"
            "                            per shader in order of time (where a multi-dispatch kernel spends it)\n"
            "      --clock-ref MHZ       judge each row's shader clock against MHZ (default: the run's highest\n"
            "                            reading; a run that never left its idle clock is caught only this way)\n"
            "      --oracle-budget N     multiply-adds the scalar oracle may spend per case (default: each kernel's);\n"
            "                            above it a fast independent reference checks every element (tests force it)\n"
            "      --jobs N              threads preparing the next cases' inputs and references while the GPU\n"
            "                            times this one (default: up to 4 on a GPU, 0 on a CPU device)\n"
            "      --no-cpu-baseline     skip the optimized CPU baselines (cpu_fast_* NA)\n"
            "      --cpu-budget S        seconds a CPU baseline may take per case, warm-up included (default: the\n"
            "                            suite's cpu_budget, else 2; 0: no limit); a case predicted over it is NA\n"
            "      --established DIR     cases that PASSed in run DIR (same commit, seed, case) are timed without\n"
            "                            reference, check or end-to-end time (e2e_time_s NA, note says why): status\n"
            "                            TIMED, ref_method names DIR (gate launches); guards are still checked\n"
            "      --slowdown K=F[:alu|:mem][,..]  make kernel K (1+F)x slower: extra bytes streamed (mem, below 16\n"
            "                            flop/byte) or dependent FMAs (alu); calibrated per case, the achieved factor in\n"
            "                            injected_factor; a failed calibration is a SKIP with its reason\n"
            "  calibrate [--device D] [--out DIR] [--spv-dir DIR]   measure the ceilings, rewrite the cache\n"
            "  list                      kernels and their axes\n"
            "  devices                   Vulkan devices and what they offer\n"
            "  report [--verify] [--compare F.csv] [--no-plots] [--plots DIR] RUN_DIR...\n"
            "                            report.md + report.html + plots (several runs: side by side)\n"
            "  csv FILE [COLUMN...]      read a results.csv back (validating it) and print columns, tab-separated\n"
            "  compare BASE CAND         the regression gate (see `vkbench compare --help`; exit 0 ok, 1 slower,\n"
            "                            2 correctness regression, 3 usage/input error, 4 inconclusive)\n"
            "  export --format gbench RUN [-o FILE] [--samples]   a run as Google Benchmark JSON (compare.py,\n"
            "                            github-action-benchmark): per-case aggregates, FAIL/ERROR as error_occurred\n"
            "exit status: 0 all cases PASS or SKIP; 1 a case FAILed or ERRORed; 3 usage or input error (also a --dir\n"
            "  that holds a run, or a --shader that no case used); 130 interrupted by SIGINT, 143 by SIGTERM (finished\n"
            "  rows kept, run.txt says \"status: interrupted after I of N cases\"; a second signal exits at once)\n");
}

/* SIGINT and SIGTERM: finish the current sample, record the case, write run.txt's status, exit 128 + sig. */
static void on_signal(int sig)
{
    if (vkb_run_interrupted) _exit(EXIT_SIGNAL + sig);  /* second signal: rows already written are on disk */
    vkb_run_interrupted = sig;
}

/* Every kernel: its axes and what it does, then its variants (the default first) and the cache modes. */
static int cmd_list(void)
{
    for (int i = 0; vkb_registry[i]; i++) {
        const vkb_kernel *k = vkb_registry[i];
        printf("%-16s axes: %-28s %s\n", k->name, k->axes, k->doc);
        /* variants, wrapped after a comma near 110 columns */
        const char *v = k->variants ? k->variants : "default";
        int col = printf("%-16s variants: ", "");
        while (*v) {
            size_t w = strcspn(v, ",;") + (v[strcspn(v, ",;")] != 0);
            if (col + (int)w > 110 && col > 27) col = printf("\n%26s", "") - 1;  /* the next word brings its space */
            col += printf("%.*s", (int)w, v);
            v += w;
        }
        printf("; modes: hot, cold, rotate\n");
    }
    return EXIT_OK;
}

/* Print chosen columns of a results.csv through the same reader compare and report use. */
static int cmd_csv(int argc, char **argv)
{
    char err[512];
    vkb_result *rows = NULL;
    if (argc < 2) {
        usage(stderr);
        return EXIT_USAGE;
    }
    for (int a = 2; a < argc; a++)   /* every column named before anything is printed */
        if (vkb_result_column(argv[a]) < 0) {
            fprintf(stderr, "vkbench: no column '%s' in the result schema\n", argv[a]);
            return EXIT_USAGE;
        }
    /* A schema column this file's header lacks would print NA on every row: refused by name (result.h). */
    long n = vkb_result_require(argv[1], (const char *const *)(argv + 2), (size_t)(argc - 2), err, sizeof(err))
                 ? -1 : vkb_result_read(argv[1], &rows, err, sizeof(err));
    if (n < 0) {
        fprintf(stderr, "vkbench: %s\n", err);
        return EXIT_USAGE;
    }
    for (long i = 0; i < n; i++) {
        for (int a = 2; a < argc; a++) {
            const vkb_result *r = &rows[i];
            if (a > 2) putchar('\t');
#define VKB_X_PRINT_S(name) if (!strcmp(argv[a], #name)) { fputs(r->name, stdout); }
#define VKB_X_PRINT_I(name) if (!strcmp(argv[a], #name)) { if (r->name == VKB_NA_I) fputs("NA", stdout); else printf("%lld", (long long)r->name); }
#define VKB_X_PRINT_D(name) if (!strcmp(argv[a], #name)) { if (isnan(r->name)) fputs("NA", stdout); else printf("%.10g", r->name); }
#define VKB_X_PRINT(t, name) VKB_X_PRINT_##t(name)
            VKB_RESULT_COLUMNS(VKB_X_PRINT)
#undef VKB_X_PRINT
        }
        putchar('\n');
    }
    free(rows);
    return EXIT_OK;
}

static int cmd_devices(void)
{
    char err[512];
    if (vkb_vk_list(stdout, err, sizeof(err)) < 0) {
        fprintf(stderr, "vkbench: %s\n", err);
        return EXIT_USAGE;
    }
    return EXIT_OK;
}

/* Measure the ceilings now (calibrate.h), rewrite the cache, print them. */
static int cmd_calibrate(int argc, char **argv)
{
    static const struct option lo[] = {{"device", 1, 0, 'd'}, {"out", 1, 0, 'o'}, {"spv-dir", 1, 0, 'P'},
                                       {0, 0, 0, 0}};
    const char *device = NULL, *root = "results", *spv = NULL;
    char err[1024] = "";
    int c;
    optind = 1;
    while ((c = getopt_long(argc, argv, "", lo, NULL)) != -1) {
        if (c == 'd') device = optarg;
        else if (c == 'o') root = optarg;
        else if (c == 'P') spv = optarg;
        else return usage(stderr), EXIT_USAGE;
    }
    vkb_vk *v = vkb_vk_open(device, 0, err, sizeof(err));
    if (!v) {
        fprintf(stderr, "vkbench: %s\n", err);
        return EXIT_USAGE;
    }
    if (spv) vkb_vk_set_spv_dir(v, spv);
    vkb_telrow tr;
    vkb_calib cal;
    vkb_topo topo;
    double floor_s = NAN;
    vkb_topo_read(&topo);
    vkb_telrow_open(&tr, &topo, vkb_vk_info(v), 0, 0);
    int rc = vkb_vk_timer_floor(v, &floor_s) ||
             vkb_calib_get(v, root, 1, 0, vkb_telrow_nvml(&tr), floor_s, &cal, err, sizeof(err));
    if (rc) fprintf(stderr, "vkbench: %s\n", err[0] ? err : vkb_vk_error(v));
    else {
        printf("device: %s (%s)\ntimer_floor_s: %.6g\ntimer_step_ns: %.9g\n", vkb_vk_info(v)->name, vkb_vk_info(v)->driver,
               floor_s, vkb_vk_info(v)->timer_step_ns);
        vkb_calib_print(stdout, &cal);
    }
    vkb_telrow_close(&tr);
    vkb_vk_close(v);
    return rc ? EXIT_USAGE : EXIT_OK;
}

static int cmd_run(int argc, char **argv)
{
    static const struct option lo[] = {
        {"device", 1, 0, 'd'},    {"seed", 1, 0, 's'},      {"out", 1, 0, 'o'},        {"dir", 1, 0, 'D'},
        {"filter", 1, 0, 'f'},    {"mode", 1, 0, 'm'},      {"min-time", 1, 0, 'T'},   {"max-noise", 1, 0, 'N'},
        {"timeout", 1, 0, 'X'},   {"min-samples", 1, 0, 'M'}, {"validate", 0, 0, 'V'}, {"shader", 1, 0, 'S'},
        {"spv-dir", 1, 0, 'P'},   {"no-calibrate", 0, 0, 'C'},
        {"recalibrate", 0, 0, 'R'}, {"no-telemetry", 0, 0, 'O'}, {"discard-throttled", 0, 0, 'H'}, {"help", 0, 0, 'h'},    {"slowdown", 1, 0, 'W'},
        {"oracle-budget", 1, 0, 'B'}, {"no-cpu-baseline", 0, 0, 'Z'}, {"jobs", 1, 0, 'J'},
        {"established", 1, 0, 'E'}, {"force", 0, 0, 'F'}, {"cpu-budget", 1, 0, 'U'}, {"clock-ref", 1, 0, 'K'}, {"profile", 0, 0, 'Q'},
        {0, 0, 0, 0}};
    vkb_run_opts o = {.min_time = NAN, .max_noise = NAN, .timeout = NAN, .cpu_budget = NAN, .clock_ref = NAN, .min_samples = -1, .jobs = -1, .argc = argc,
                      .argv = argv};
    const char *device = NULL, *spv_dir = NULL, *shader[16];
    const char *inline_lines[64];
    int nshader = 0, ninline = 0, seed_set = 0, ret = EXIT_USAGE;
    char err[1024];
    vkb_suite s = {0};
    vkb_vk *v = NULL;
    vkb_options opt = {.min_time = 0.5, .max_noise = 0.005, .timeout = 15, .min_samples = 10, .cpu_budget = 2.0,
                       .mode = "hot"};
    int c, li = -1;
    optind = 1;
    while ((c = getopt_long(argc, argv, "e:h", lo, &li)) != -1) {
        char *end = NULL;
        switch (c) {
        case 'd': device = optarg; break;
        case 's':   /* one value everywhere: the CSV's signed 64-bit seed column and run.txt print the same number */
            errno = 0;
            o.seed = strtoull(optarg, &end, 10);   /* base 10: "010" is ten, not octal eight */
            if (*end || end == optarg || errno || strchr(optarg, '-') || o.seed > INT64_MAX) goto bad_number;
            seed_set = 1;
            break;
        case 'o': o.out_root = optarg; break;
        case 'D': o.out_dir = optarg; break;
        case 'f': o.filter = optarg; break;
        case 'm':
            if (strcmp(optarg, "hot") && strcmp(optarg, "cold") && strcmp(optarg, "rotate")) {
                fprintf(stderr, "vkbench: --mode %s: expected hot, cold or rotate\n", optarg);
                return EXIT_USAGE;
            }
            o.mode = optarg;
            break;
        case 'T': o.min_time = strtod(optarg, &end); if (*end || !(isfinite(o.min_time) && o.min_time >= 0)) goto bad_number; break;
        case 'N': o.max_noise = strtod(optarg, &end); if (*end || !(isfinite(o.max_noise) && o.max_noise > 0)) goto bad_number; break;
        case 'X': o.timeout = strtod(optarg, &end); if (*end || !(isfinite(o.timeout) && o.timeout > 0)) goto bad_number; break;
        case 'M': o.min_samples = strtol(optarg, &end, 10); if (*end || o.min_samples < 1) goto bad_number; break;
        case 'V': o.validate = 1; break;
        case 'S':
            if (nshader == 16) {
                fprintf(stderr, "vkbench: more than 16 --shader options (the 17th: '%s')\n", optarg);
                return EXIT_USAGE;
            }
            shader[nshader++] = optarg;
            break;
        case 'P': spv_dir = optarg; break;
        case 'W':
            if (vkb_slowdown_find(optarg, NULL, NULL, NULL, err, sizeof(err)) < 0) {
                fprintf(stderr, "vkbench: %s\n", err);
                return EXIT_USAGE;
            }
            o.slowdown = optarg;
            break;
        case 'B': o.oracle_budget = strtod(optarg, &end); if (*end || !(isfinite(o.oracle_budget) && o.oracle_budget >= 1)) goto bad_number; break;
        case 'Z': o.no_cpu_baseline = 1; break;
        case 'U': o.cpu_budget = strtod(optarg, &end); if (*end || !(isfinite(o.cpu_budget) && o.cpu_budget >= 0)) goto bad_number; break;
        case 'J': o.jobs = (int)strtol(optarg, &end, 10); if (*end || o.jobs < 0 || o.jobs > 64) goto bad_number; break;
        case 'E': o.established = optarg; break;
        case 'F': o.force = 1; break;
        case 'C': o.no_calibrate = 1; break;
        case 'R': o.recalibrate = 1; break;
        case 'O': o.no_telemetry = 1; break;
        case 'H': o.discard_throttled = 1; break;
        case 'Q': o.profile = 1; break;
        case 'K': o.clock_ref = strtod(optarg, &end); if (*end || !(isfinite(o.clock_ref) && o.clock_ref > 0)) goto bad_number; break;
        case 'e':
            if (ninline == 64) {
                fprintf(stderr, "vkbench: more than 64 -e lines (the 65th: '%s'): put them in a suite file\n", optarg);
                return EXIT_USAGE;
            }
            inline_lines[ninline++] = optarg;
            break;
        case 'h': usage(stdout); return EXIT_OK;
        default: usage(stderr); return EXIT_USAGE;
        }
        continue;
    bad_number:
        fprintf(stderr, "vkbench: option --%s: '%s' is not a valid value\n", li >= 0 ? lo[li].name : "?", optarg);
        return EXIT_USAGE;
    }
    if (o.force && !o.out_dir) {
        fprintf(stderr, "vkbench: --force replaces the run in a --dir: give --dir DIR\n");
        return EXIT_USAGE;
    }
    if (!seed_set) o.seed = ((uint64_t)time(NULL) ^ ((uint64_t)clock() << 32)) & INT64_MAX;
    for (int i = optind; i < argc; i++) {
        vkb_options here = opt;
        if (vkb_suite_parse(&s, argv[i], NULL, &here, err, sizeof(err))) {
            fprintf(stderr, "vkbench: %s\n", err);
            goto out;
        }
    }
    vkb_options inl = opt;   /* -e "set ..." applies to the -e lines after it, as a set line in a file does */
    for (int i = 0; i < ninline; i++) {
        vkb_options *here = &inl;
        char name[32];
        snprintf(name, sizeof(name), "-e#%d", i + 1);
        if (vkb_suite_parse(&s, name, inline_lines[i], here, err, sizeof(err))) {
            fprintf(stderr, "vkbench: %s\n", err);
            goto out;
        }
    }
    if (optind == argc && ninline == 0) {
        vkb_options here = opt;
        if (vkb_suite_parse(&s, "suites/default.suite", NULL, &here, err, sizeof(err))) {
            fprintf(stderr, "vkbench: %s\n", err);
            goto out;
        }
    }
    if (vkb_run_check_suite(&s, err, sizeof(err))) {
        fprintf(stderr, "vkbench: %s\n", err);
        goto out;
    }
    double t0 = vkb_now_s();
    v = vkb_vk_open(device, o.validate, err, sizeof(err));
    vkb_trace("vk_open", NULL, t0);
    if (!v) {
        fprintf(stderr, "vkbench: %s\n", err);
        goto out;
    }
    if (spv_dir) vkb_vk_set_spv_dir(v, spv_dir);
    for (int i = 0; i < nshader; i++)
        if (vkb_vk_add_override(v, shader[i])) {
            fprintf(stderr, "vkbench: %s\n", vkb_vk_error(v));
            goto out;
        }
    struct sigaction sa;
    memset(&sa, 0, sizeof(sa));
    sa.sa_handler = on_signal;
    sa.sa_flags = SA_RESTART;   /* as signal() had it: a read or wait in flight goes on, the loop sees the flag */
    sigemptyset(&sa.sa_mask);
    sigaction(SIGINT, &sa, NULL);
    sigaction(SIGTERM, &sa, NULL);
    const vkb_devinfo *d = vkb_vk_info(v);
    fprintf(stderr, "vkbench: device [%u] %s (%s, %s), seed %llu\n", d->index, d->name, d->type, d->driver,
            (unsigned long long)o.seed);
    vkb_run_totals tot;
    if (vkb_run(v, &s, &o, &tot, err, sizeof(err))) {
        fprintf(stderr, "vkbench: %s\n", err);
        goto out;
    }
    printf("\n%d PASS, %d FAIL, %d SKIP, %d ERROR%s; results in %s\n", tot.pass, tot.fail, tot.skip, tot.error,
           vkb_run_interrupted ? " (interrupted)" : "", tot.dir);
    if (o.validate) printf("validation messages: %llu\n", (unsigned long long)vkb_vk_validation_messages(v));
    ret = vkb_run_interrupted ? EXIT_SIGNAL + vkb_run_interrupted : tot.fail || tot.error ? EXIT_CASES_FAILED : EXIT_OK;
    const char *unused = vkb_run_interrupted ? NULL : vkb_vk_unused_override(v);
    if (unused) {  /* a fault injected into no case: its run says nothing about the fault (results kept) */
        fprintf(stderr, "vkbench: --shader %s=...: no case loaded module '%s', so nothing ran the substitute\n", unused, unused);
        if (ret == EXIT_OK) ret = EXIT_USAGE;
    }
out:
    t0 = vkb_now_s();
    vkb_vk_close(v);
    vkb_trace("vk_close", NULL, t0);
    vkb_suite_free(&s);
    return ret;
}

int main(int argc, char **argv)
{
    if (argc < 2) {
        usage(stderr);
        return EXIT_USAGE;
    }
    const char *cmd = argv[1];
    vkb_trace_init();
    if (!strcmp(cmd, "run")) return cmd_run(argc - 1, argv + 1);
    if (!strcmp(cmd, "list")) return cmd_list();
    if (!strcmp(cmd, "devices")) return cmd_devices();
    if (!strcmp(cmd, "csv")) return cmd_csv(argc - 1, argv + 1);
    if (!strcmp(cmd, "report")) return vkb_report_cli(argc - 1, argv + 1);
    if (!strcmp(cmd, "calibrate")) return cmd_calibrate(argc - 1, argv + 1);
    if (!strcmp(cmd, "compare")) return vkb_compare_cmd(argc - 1, argv + 1);
    if (!strcmp(cmd, "export")) return vkb_export_cmd(argc - 1, argv + 1);
    if (!strcmp(cmd, "gate-summary")) return vkb_gate_summary_cmd(argc - 1, argv + 1);
    if (!strcmp(cmd, "version")) return printf("vkbench %s\n", vkb_version_commit()) < 0;
    if (!strcmp(cmd, "-h") || !strcmp(cmd, "--help") || !strcmp(cmd, "help")) {
        usage(stdout);
        return EXIT_OK;
    }
    fprintf(stderr, "vkbench: unknown command '%s'\n", cmd);
    usage(stderr);
    return EXIT_USAGE;
}
