/* report_impl.h — what the parts of `vkbench report` share (internal to report_*.c; the public API is
 * report.h). Every number goes through rep_num(): it is computed by rep_eval() from a named source (cell,
 * formula, bootstrap, published constant), printed, and listed in report-numbers.csv; verify re-evaluates
 * the list and scans report.md for digits nobody accounted for.
 *   report_data.c      sources (runs, cells, constants), row selections, eval/render, reading runs
 *   report_out.c       markdown + HTML side by side, the number registry, gnuplot rendering
 *   report_sections.c  the document: runs, status, method, claims, speedups, baselines, gate; vkb_report_write
 *   report_plots.c     the plots section: data files and template arguments
 *   report_verify.c    --verify and the command line */
#ifndef VKB_REPORT_IMPL_H
#define VKB_REPORT_IMPL_H
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "report.h"
#include "result.h"

#define BOOT_B 1000
#define CONF 0.95
#define MAX_RUNS 8
#define BOX_MAX 24   /* timing-distribution plot: at most this many boxes per run (see rep_box_pick) */

/* ---------------- sources and selections (report_data.c) ---------------- */

typedef struct run {
    char dir[512];
    vkb_result *rows;
    long n;
    int64_t *sc;   /* samples.csv: case ids and per-launch times, in file order (grouped by case) */
    double *st;
    size_t ns;
    char nosamp[300];   /* why there are no samples at all (samples.csv missing), or "" */
    long finished;      /* rows run.txt's totals line counts (every finished case is a row), or -1 without one */
} rrun;

/* The row sets a claim picks from, by name (report-numbers.csv names them so --verify can redo the count);
 * one_size: the set is one size, so every row of it that did not PASS matters, whatever bytes it declares. */
typedef struct pickset {
    const char *name;
    int (*want)(const vkb_result *);
    int one_size;
    const char *what;
} pickset;

/* A number's source. kinds: cell (a * scale), ratio (a / b * scale), boot_lo / boot_hi (bootstrap of
 * a / median(GPU samples) * scale), count (rows of the run whose column a equals b), rows (rows of the run),
 * done (the rows run.txt's totals line counts: finished cases),
 * group (rows in the case's group_count), nomeas (rep_not_measured() of pick set a), boxes (box_pick: a = shown,
 * eligible or kernels), const (table above), str (the text of string column a: identity, parameters,
 * reasons), mask (the same through mask_reason). */
typedef struct src {
    char kind[8];
    int run;
    int64_t case_id;
    char a[32], b[32];
    double scale;
    int sig;
} src;


/* Column `name` of r as a number (NAN when NA or not a numeric column). */
double rep_col(const vkb_result *r, const char *name);
/* The raw samples of case id in run R: count, *t points into R's array. */
size_t rep_case_samples(const rrun *R, int64_t id, const double **t);
int rep_is_pass(const vkb_result *r);
/* The kernel's family ("elementwise", "matmul", ...; a kernel of no known family: its own name). */
const char *rep_family(const char *kernel);
/* The family's position in the table (0 .. 5), -1 for a kernel of no known family. */
int rep_family_index(const char *kernel);
/* The row runs on the matrix units, so its compute ceiling is coopmat_flop_per_s, not fma_flop_per_s:
 * peak_coopmat and the fp16 matmul coopmat* variants (not the *_emu ones, which emulate on plain FMA). */
int rep_on_matrix_units(const vkb_result *r);
int rep_fast_ok(const vkb_result *r);   /* the optimized CPU baseline validated (cpu_fast_status PASS) */
/* Row selections the claims pick from. */
int rep_want_elem(const vkb_result *r);
int rep_want_elem_nocopy(const vkb_result *r);
int rep_want_elem_fast(const vkb_result *r);
int rep_want_quant(const vkb_result *r);
int rep_want_quant_fast(const vkb_result *r);
int rep_want_mm(const vkb_result *r);
/* The pick set named name, or NULL. */
const pickset *rep_pick_set(const char *name);
/* The rows of set ps that did not PASS and move at least as many bytes as the picked row r; *big gets the
 * one moving the most bytes. */
long rep_not_measured(const rrun *u, const vkb_result *r, const pickset *ps, const vkb_result **big);
/* A reason with its sizes elided ("…"), so reasons differing only in numbers fall into one group. */
void rep_mask_reason(const char *in, char *out, size_t len);
/* The runs among dirs that did not complete, named in out (words: without digits); returns how many. */
int rep_partial_runs(const char *const *dirs, int n, int words, char *out, size_t len);
/* The rows among the first `upto` in r's group: same status, same reason once masked. */
long rep_group_count(const rrun *u, const vkb_result *r, long upto);
/* The timing-distribution plot's cases (at most BOX_MAX row indices in idx); returns how many. */
int rep_box_pick(const rrun *u, long *idx, long *eligible, long *kernels);
/* The value of a source (NAN when not measured) and its printed text ("NA" when not measured). */
double rep_eval(const rrun *runs, int nruns, const src *s);
void rep_render(const rrun *runs, int nruns, const src *s, char *out, size_t len);
/* v with sig significant digits in plain decimal (23030, 0.000567; never 2.303e+04), so that a table column
 * has one notation; trailing zeros dropped as %g does. */
void rep_fmt_sig(double v, int sig, char *out, size_t len);
/* Read results.csv and samples.csv of n run directories, and run.txt's totals. results.csv must have the columns
 * the report reads (identity, status, samples, times); every samples.csv line is checked (vkb_samples_load, a killed
 * run's cut-short last line skipped) and every PASS or TIMED row must find exactly its `samples` samples there. A
 * missing samples.csv is not an error: R->nosamp says so and intervals are NA. Returns 0, or -1 with err set. */
int rep_read_runs(rrun *runs, const char *const *dirs, int n, char *err, size_t errlen);
void rep_free_runs(rrun *runs, int n);

/* ---------------- output (report_out.c) ---------------- */

/* The document being written: markdown, HTML and the number registry side by side. */
typedef struct rep {
    rrun *r;
    int nr;
    FILE *md, *html, *nums;
    int nid;
    char ring[64][200];
    int ri;
    char plotdir[600];
    char tmpl[600];         /* the gnuplot templates' folder */
    char noplot[700];       /* why no plot can be rendered (no templates, no gnuplot, --no-plots), or "" */
    int unrendered;         /* plots not rendered, and the first reason */
    char unrendered_why[700];
} rep;

/* Register and render one number (or string cell); returns the text (valid for the next 64 calls). */
const char *rep_num(rep *R, const char *kind, int run, int64_t case_id, const char *a, const char *b, double scale,
                    int sig);
const char *rep_cst(rep *R, const char *name, int sig);                          /* a published constant */
const char *rep_cell(rep *R, int run, const vkb_result *r, const char *c, double scale, int sig);
const char *rep_ratio(rep *R, int run, const vkb_result *r, const char *a, const char *b);
const char *rep_str(rep *R, int run, const vkb_result *r, const char *c);          /* a string cell */
const char *rep_why(rep *R, int run, const vkb_result *r, const char *c, const char *item);
/* Text to both outputs: md as given; html with **x** -> <b>, escaped, one paragraph per call. */
void rep_para(rep *R, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
void rep_heading(rep *R, int level, const char *text);
void rep_row(rep *R, int header, int n, const char *const *cells);
void rep_table_begin(rep *R);
void rep_table_end(rep *R);
/* Render NAME.svg and NAME.png from template tmpl (args: DATA OUT TERM extra...), then reference them from
 * both documents; when that fails, a paragraph says why and where the data is. */
void rep_plot(rep *R, const char *tmpl, const char *name, const char *alt, const char *const *extra, int nextra);
/* plots/NAME.dat opened for writing (NULL on failure). */
FILE *rep_data_file(rep *R, const char *name);
/* v then sep to a data file; "NA" when not measured. */
void rep_dval(FILE *f, double v, const char *sep);

static inline char run_letter(int i) { return (char)('A' + i); }

/* Rows whose median is under floor_factor x the timer floor (or the dispatch overhead) carry FLOOR_MARK
 * wherever a kernel-only time or speedup of theirs is printed; floor_note explains it under the table. */
#define FLOOR_SYM "†"
#define FLOOR_MARK " " FLOOR_SYM
static inline const char *floor_mark(const vkb_result *r) { return r->below_floor > 0 ? FLOOR_MARK : ""; }

/* ---------------- sections ---------------- */

void rep_plots(rep *R);   /* report_plots.c */

#endif
