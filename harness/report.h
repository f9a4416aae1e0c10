/* report.h — `vkbench report`: speedup reports with plots, built only from runs' CSVs (pure: no Vulkan).
 *
 * From RUN_DIR/{results.csv,samples.csv,run.txt} of one or more runs it writes, into the first run's
 * directory: report.md, a self-contained report.html (plots inlined as SVG), report-numbers.csv (every
 * number printed in report.md with its source: a CSV cell, a formula over cells, a bootstrap over the raw
 * samples, or a published constant) and plots/ (gnuplot data files, SVG and PNG from the templates in
 * plots/, run with posix_spawnp and an argv: no shell, no generated gnuplot code). */
#ifndef VKB_REPORT_H
#define VKB_REPORT_H
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

typedef struct vkb_report_opts {
    const char *const *runs;  /* run directories; the report goes into runs[0] */
    int nruns;
    const char *compare_csv;  /* optional `vkbench compare` CSV: adds the gate's ratio chart */
    const char *plot_dir;     /* gnuplot templates; NULL: vkb_report_templates() finds them */
    int no_plots;             /* write the data files only (no gnuplot here): rerun later to render */
} vkb_report_opts;

/* Write the report. Returns 0; 1 when it was written but plots were not rendered though wanted (no gnuplot,
 * templates not found, gnuplot failed: err says how many and why, the report says so beside each plot); or
 * -1 with "path: message" in err (unreadable run, unwritable output). */
int vkb_report_write(const vkb_report_opts *o, char *err, size_t errlen);

/* Where the gnuplot templates are, whatever the current directory: given (--plots DIR) when it holds them,
 * else the plots/ folder of the checkout the executable was built in (the first DIR/plots up from the
 * executable's folder: build/vkbench, build/san/vkbench), the way SPIR-V is found beside the executable.
 * Returns 0 with the folder in dir, or -1 with where it looked in dir. */
int vkb_report_templates(const char *given, char *dir, size_t len);

/* Check a written report: recompute every entry of DIR/report-numbers.csv from the runs it names and
 * compare the printed text; then require that report.md has no digit outside those entries (link targets
 * excepted). Returns the number of problems (each printed to f), or -1 with err set. */
int vkb_report_verify(const char *dir, FILE *f, char *err, size_t errlen);

/* Percentile bootstrap of num / median(x): B resamples of x (n values) drawn with the splitmix64 stream
 * seeded by seed; [lo, hi] = the (1-conf)/2 and (1+conf)/2 quantiles. Returns 0, -1 when n < 2. */
int vkb_report_boot_ratio(double num, const double *x, size_t n, int B, double conf, uint64_t seed, double *lo,
                          double *hi);

/* The `vkbench report` command line: [--verify] [--no-plots] [--compare FILE.csv] [--plots DIR] RUN_DIR...
 * Returns the exit status for main: 0 written (or verified clean), 1 verify found problems, 3 bad input. */
int vkb_report_cli(int argc, char **argv);

#endif
