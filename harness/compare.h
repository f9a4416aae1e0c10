/* compare.h — the regression gate (pure: no Vulkan). Two result sets (baseline, candidate) are matched
 * case by case; per case the ratio of medians gets a bootstrap CI and a Mann-Whitney p; Benjamini-
 * Hochberg controls the false-discovery rate over the suite; verdicts follow shared/notes/statistics.md §6. */
#ifndef VKB_COMPARE_H
#define VKB_COMPARE_H
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

/* Exit codes of `vkbench compare` (and of harness/gate.sh). When several apply: 2, then 1, then 3, then 4.
 * INCONCLUSIVE: the gate could not decide (a timed case INCONCLUSIVE, a case timed on one side only, a
 * candidate whose correctness no row established, or no case decided at all): not green unless the user
 * opts in (--allow-inconclusive). */
enum { VKB_GATE_OK = 0, VKB_GATE_PERF = 1, VKB_GATE_CORRECTNESS = 2, VKB_GATE_INPUT = 3, VKB_GATE_INCONCLUSIVE = 4 };

typedef struct vkb_cmp_opts {
    double delta;        /* effect floor: SAME inside [1/(1+delta), 1+delta]; default 0.03 */
    double q;            /* Benjamini-Hochberg false-discovery rate, default 0.05 */
    int resamples;       /* bootstrap resamples, default 4000 */
    uint64_t seed;       /* bootstrap RNG seed (GSL mt19937), default 1: the same inputs give the same CI */
    size_t min_samples;  /* fewer timed samples on a side: INCONCLUSIVE, default 5 */
    int allow_one_launch;   /* judge FASTER/SLOWER with one launch on a side (within-launch noise only); default 0 */
} vkb_cmp_opts;

/* The timed samples of one case on one side, pooled over process launches (clusters). */
typedef struct vkb_cmp_side {
    double *t;           /* pooled samples, seconds; owned */
    size_t n;
    size_t *end;         /* cluster c holds t[end[c-1] .. end[c]) (end[-1] = 0); owned */
    int k;               /* clusters (launches) */
    int skipped;         /* launches that SKIPped the case (no cluster) */
} vkb_cmp_side;

typedef struct vkb_cmp_row {
    char kernel[40], variant[32], params[160], dtype[8], mode[8];
    char base_variant[32];   /* the baseline's variant: differs from variant (the candidate's) only where
                              * variant=auto chose differently (auto:X rows match on "auto") */
    char base_status[8], cand_status[8];   /* the worst over a side's launches: ERROR > FAIL > SKIP > PASS > TIMED */
    char correctness[16];    /* ok | REGRESSION | still-failing | fixed | unverified (TIMED only) | untimed */
    char verdict[16];        /* SAME | FASTER | SLOWER | INCONCLUSIVE */
    char reason[200];        /* why INCONCLUSIVE (or what else the reader should know) */
    int testable;            /* both sides timed, above the floor, same device: enters BH */
    int undecided;           /* counts toward exit 4 (set by vkb_cmp_decide) */
    int below_floor;
    char low_clock[120];     /* a side timed at a low GPU clock (its clock_check cell): not compared */
    double injected;         /* mean injected_factor over the candidate's launches (NAN: none) */
    int ninj;
    vkb_cmp_side base, cand;
    double delta;            /* floor used for this case */
    double med_base, med_cand, ratio, ci_lo, ci_hi;   /* NAN when not computed */
    double p, p_bh;          /* the p that enters BH (see vkb_cmp_measure); BH-adjusted p (q-value) */
    double p_samples;        /* two-sided Mann-Whitney U over the pooled samples */
    double p_launches;       /* two-sided exact Mann-Whitney U over launch medians (NAN with < 2 launches a side) */
    double min_p;            /* smallest p the test can reach with these sample sizes */
    double mde80;            /* minimum detectable slowdown at 80% power under this rule, fraction */
    int significant;         /* p_bh <= q */
} vkb_cmp_row;

void vkb_cmp_opts_init(vkb_cmp_opts *o);

/* Append one launch's samples t[0..n) as a new cluster of s (copied). Returns 0 or -1 (memory). */
int vkb_cmp_side_add(vkb_cmp_side *s, const double *t, size_t n);
void vkb_cmp_side_free(vkb_cmp_side *s);

/* The median of each launch of s into m[0..s->k) (NAN for an empty launch). Returns 0, or -1 (memory). */
int vkb_cmp_side_medians(const vkb_cmp_side *s, double *m);

/* Percentile bootstrap CI (level, e.g. 0.95) of median(b)/median(a). Each side is resampled on its
 * own, two-stage when it has several clusters: launches with replacement, then samples within each.
 * Returns the point ratio, or NAN when a side is empty. */
double vkb_cmp_ratio_ci(const vkb_cmp_side *a, const vkb_cmp_side *b, int resamples, uint64_t seed, double level,
                        double *lo, double *hi);

/* Welch t test between the log launch medians of a and b (each side >= 2 launches, else NAN): two-sided
 * p, and the level CI of exp(mean log median(b) - mean log median(a)) in lo/hi. With no spread at all
 * the CI is that one point and p is 1 (equal) or 0. */
double vkb_cmp_launch_t(const vkb_cmp_side *a, const vkb_cmp_side *b, double level, double *lo, double *hi);

/* Benjamini-Hochberg: adjusted p-values (q-values) of p[0..k) into padj; reject[i] = padj[i] <= q.
 * NAN p-values are left out of the family (padj NAN, reject 0). Returns the number rejected. */
size_t vkb_cmp_bh(const double *p, size_t k, double q, double *padj, int *reject);

/* Statistics of one testable row (medians, ratio, CI, p, min_p); the verdict comes later.
 * One launch a side: p = p_samples and the CI is the bootstrap one; both hold only within-launch noise.
 * Two or more launches on both sides: the launch is the unit of replication (samples of one launch share
 * its clocks, placement and neighbours), so p = max(p_samples, p_launches), min_p includes the launch
 * counts' (3 vs 3 can never reach .05; 5 vs 5 reach .0079), and the CI is the union of the cluster
 * bootstrap CI and the Welch t interval of exp(mean log launch median difference). */
void vkb_cmp_measure(vkb_cmp_row *r, const vkb_cmp_opts *o);
/* BH over the testable rows, then every row's verdict, reason and undecided flag (rows not testable keep
 * their reason and become INCONCLUSIVE). With one launch on a side and !o->allow_one_launch, or with too few
 * samples or launches for p to ever reach q, a row stays out of BH and can be SAME but never FASTER/SLOWER
 * ("one launch per side: between-launch variance unknown", "too few launches: ..."). Undecided:
 * an INCONCLUSIVE row that was timed on both sides, or on one side only, or a candidate whose status is
 * TIMED only (a TIMED row never establishes correctness by itself); not a row below the timer floor, nor
 * one timed on neither side, nor a new case. Returns the size of the BH family (rows whose p entered it). */
size_t vkb_cmp_decide(vkb_cmp_row *rows, size_t n, const vkb_cmp_opts *o);
/* Exit code from decided rows: correctness 2 > performance 1 > inconclusive 4 (a row undecided, or no row
 * SAME/FASTER/SLOWER) > 0; input problems (3) are the caller's. */
int vkb_cmp_exit_code(const vkb_cmp_row *rows, size_t n);

/* Load both sides (each: a run directory, a results.csv with samples.csv beside it, or a directory
 * of run directories pooled as launches) and match cases. Device or driver mismatch: rows are not
 * testable and *mismatch is set (message in note) unless allow_mismatch. Rows with status PASS or TIMED
 * are timed (their samples are read). Returns the row count (rows owned by the caller, free with
 * vkb_cmp_rows_free), or -1 with "file:line: message" in err: a required column missing from a header,
 * a NaN or non-positive sample, a side that is (or lies inside) the other. */
long vkb_cmp_load(const char *base, const char *cand, const vkb_cmp_opts *o, int allow_mismatch,
                  vkb_cmp_row **rows, int *mismatch, char *note, size_t notelen, char *err, size_t errlen);
void vkb_cmp_rows_free(vkb_cmp_row *rows, size_t n);

/* Writers (harness/compare_out.c): a markdown table, the verdicts CSV, and the plot data (one line per row
 * with a ratio: index ratio ci_lo ci_hi verdict-code label delta, tab-separated). */
void vkb_cmp_write_markdown(FILE *f, const vkb_cmp_row *rows, size_t n, const vkb_cmp_opts *o, size_t family);
void vkb_cmp_write_csv(FILE *f, const vkb_cmp_row *rows, size_t n);
/* Returns the number of plot lines written. */
size_t vkb_cmp_write_plotdata(FILE *f, const vkb_cmp_row *rows, size_t n);

/* What a comparison concluded, for the summary and the JUnit file. */
typedef struct vkb_cmp_outcome {
    const char *base, *cand;     /* the arguments as given */
    const char *note;            /* device-mismatch note, or "" */
    const char *why;             /* why exit 3 or 4, or NULL */
    int code;                    /* the exit status (after --allow-inconclusive) */
    int raw_code;                /* before it: 4 stays 4 here */
    int allow_inconclusive;
    size_t family;               /* rows whose p entered Benjamini-Hochberg */
} vkb_cmp_outcome;
/* The CI summary (markdown, for a job summary page): when most timed cases are INCONCLUSIVE a line saying
 * so comes first; then the outcome and exit status, the sides, the opt-ins in force, and the table. */
void vkb_cmp_write_summary(FILE *f, const vkb_cmp_row *rows, size_t n, const vkb_cmp_opts *o, const vkb_cmp_outcome *out);
/* JUnit XML: one <testcase> per row; <failure> for SLOWER or a correctness regression, <skipped> for
 * INCONCLUSIVE, passed otherwise. */
void vkb_cmp_write_junit(FILE *f, const vkb_cmp_row *rows, size_t n, const vkb_cmp_outcome *out);

/* `vkbench compare` and `vkbench export`: parse argv (argv[0] = the subcommand), print, return the
 * exit status for main. */
int vkb_compare_cmd(int argc, char **argv);
int vkb_export_cmd(int argc, char **argv);
/* `vkbench gate-summary` (harness/selftest.c): false alarms and detections over gate.sh selftest's comparisons. */
int vkb_gate_summary_cmd(int argc, char **argv);

/* Write the rows of a run (results.csv + samples.csv beside it) as Google Benchmark JSON: mean/median/stddev
 * aggregates per PASS case (from its row), and with per_sample first one entry per raw sample (a repetition;
 * iterations = dispatches per sample; aggregates then from samples.csv). Cases that were not timed are entries
 * marked error_occurred (FAIL, ERROR, INTERRUPTED) or skipped (SKIP), with the status and reason as the message.
 * Returns 0, or -1 with "file:line: message" in err. */
int vkb_export_gbench(FILE *f, const char *results_csv, int per_sample, char *err, size_t errlen);

#endif
