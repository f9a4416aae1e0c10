/* compare.c — the regression gate (see compare.h; method in shared/notes/statistics.md §6). */
#include "fsutil.h"
#include "compare.h"

#include <dirent.h>
#include <limits.h>
#include <errno.h>
#include <getopt.h>
#include <math.h>
#include <spawn.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>
#include <gsl/gsl_cdf.h>
#include <gsl/gsl_rng.h>
#include <gsl/gsl_sort.h>
#include <gsl/gsl_statistics_double.h>

#include "result.h"
#include "rundir.h"
#include "stats.h"

extern char **environ;

#define Z975 1.959963984540054   /* standard normal quantiles: 97.5% and 80% */
#define Z80 0.8416212335729143

/* Statuses: PASS and TIMED rows carry samples; FAIL and ERROR are correctness failures. */
static int timed(const char *s) { return !strcmp(s, "PASS") || !strcmp(s, "TIMED"); }
static int failing(const char *s) { return !strcmp(s, "FAIL") || !strcmp(s, "ERROR"); }

void vkb_cmp_opts_init(vkb_cmp_opts *o)
{
    o->delta = 0.03;
    o->q = 0.05;
    o->resamples = 4000;
    o->seed = 1;
    o->min_samples = 5;
    o->allow_one_launch = 0;
}

int vkb_cmp_side_add(vkb_cmp_side *s, const double *t, size_t n)
{
    double *nt = realloc(s->t, (s->n + n + 1) * sizeof(*nt));
    if (!nt) return -1;
    s->t = nt;
    size_t *ne = realloc(s->end, (size_t)(s->k + 1) * sizeof(*ne));
    if (!ne) return -1;
    s->end = ne;
    memcpy(s->t + s->n, t, n * sizeof(*t));
    s->n += n;
    s->end[s->k++] = s->n;
    return 0;
}

void vkb_cmp_side_free(vkb_cmp_side *s)
{
    free(s->t);
    free(s->end);
    memset(s, 0, sizeof(*s));
}

static double median_copy(const double *x, size_t n, double *work)
{
    memcpy(work, x, n * sizeof(*x));
    return gsl_stats_median(work, 1, n);   /* quickselect: rearranges work only */
}

/* One bootstrap replicate of a side into out; returns its size. */
static size_t resample(const vkb_cmp_side *s, gsl_rng *r, double *out)
{
    size_t m = 0;
    if (s->k <= 1) {
        for (size_t i = 0; i < s->n; i++) out[m++] = s->t[gsl_rng_uniform_int(r, s->n)];
        return m;
    }
    for (int c = 0; c < s->k; c++) {
        unsigned long pick = gsl_rng_uniform_int(r, (unsigned long)s->k);
        size_t b = pick ? s->end[pick - 1] : 0, len = s->end[pick] - b;
        for (size_t j = 0; j < len; j++) out[m++] = s->t[b + gsl_rng_uniform_int(r, len)];
    }
    return m;
}

static size_t max_cluster(const vkb_cmp_side *s)
{
    size_t mx = 0;
    for (int c = 0; c < s->k; c++) {
        size_t len = s->end[c] - (c ? s->end[c - 1] : 0);
        if (len > mx) mx = len;
    }
    return mx;
}

double vkb_cmp_ratio_ci(const vkb_cmp_side *a, const vkb_cmp_side *b, int resamples, uint64_t seed, double level,
                        double *lo, double *hi)
{
    double ratio = NAN, *wa = NULL, *wb = NULL, *rs = NULL;
    gsl_rng *r = NULL;
    *lo = *hi = NAN;
    if (!a->n || !b->n || a->k < 1 || b->k < 1) return NAN;
    size_t ca = (size_t)a->k * max_cluster(a), cb = (size_t)b->k * max_cluster(b);
    wa = malloc((ca > a->n ? ca : a->n) * sizeof(*wa));
    wb = malloc((cb > b->n ? cb : b->n) * sizeof(*wb));
    rs = malloc((size_t)(resamples > 0 ? resamples : 1) * sizeof(*rs));
    r = gsl_rng_alloc(gsl_rng_mt19937);
    if (!wa || !wb || !rs || !r) goto cleanup;
    gsl_rng_set(r, (unsigned long)seed);
    ratio = median_copy(b->t, b->n, wb) / median_copy(a->t, a->n, wa);
    for (int i = 0; i < resamples; i++) {
        size_t na = resample(a, r, wa), nb = resample(b, r, wb);
        rs[i] = gsl_stats_median(wb, 1, nb) / gsl_stats_median(wa, 1, na);
    }
    if (resamples > 1) {
        gsl_sort(rs, 1, (size_t)resamples);
        *lo = gsl_stats_quantile_from_sorted_data(rs, 1, (size_t)resamples, (1 - level) / 2);
        *hi = gsl_stats_quantile_from_sorted_data(rs, 1, (size_t)resamples, (1 + level) / 2);
    }
cleanup:
    free(wa);
    free(wb);
    free(rs);
    if (r) gsl_rng_free(r);
    return ratio;
}

static const double *g_bh_p;   /* qsort has no context argument; bh is not re-entrant */
static int bh_cmp(const void *x, const void *y)
{
    double a = g_bh_p[*(const size_t *)x], b = g_bh_p[*(const size_t *)y];
    return (a > b) - (a < b);
}

size_t vkb_cmp_bh(const double *p, size_t k, double q, double *padj, int *reject)
{
    size_t *idx = malloc((k ? k : 1) * sizeof(*idx)), m = 0, nrej = 0;
    for (size_t i = 0; i < k; i++) {
        padj[i] = NAN;
        reject[i] = 0;
        if (idx && !isnan(p[i])) idx[m++] = i;
    }
    if (!idx) return 0;
    g_bh_p = p;
    qsort(idx, m, sizeof(*idx), bh_cmp);
    /* Step-up: q-value of rank j (1-based) = min over ranks >= j of p * m / rank. */
    double run = 1.0;
    for (size_t j = m; j-- > 0;) {
        double v = p[idx[j]] * (double)m / (double)(j + 1);
        run = fmin(run, v);
        padj[idx[j]] = run;
    }
    for (size_t j = 0; j < m; j++)
        if ((reject[idx[j]] = padj[idx[j]] <= q)) nrej++;
    free(idx);
    return nrej;
}

static void medians(vkb_cmp_row *r)
{
    double *w = malloc((r->base.n > r->cand.n ? r->base.n : r->cand.n) * sizeof(*w) + 1);
    r->med_base = w && r->base.n ? median_copy(r->base.t, r->base.n, w) : NAN;
    r->med_cand = w && r->cand.n ? median_copy(r->cand.t, r->cand.n, w) : NAN;
    free(w);
}

/* The launch medians of a (a->k of them) then of b, malloc'd; NULL when a side has fewer than 2 launches,
 * or a launch is empty or its median is not a positive time. */
int vkb_cmp_side_medians(const vkb_cmp_side *s, double *m)
{
    double *w = malloc(s->n * sizeof(*w) + 1);
    if (!w) return -1;
    for (int c = 0; c < s->k; c++) {
        size_t lo = c ? s->end[c - 1] : 0;
        m[c] = s->end[c] > lo ? median_copy(s->t + lo, s->end[c] - lo, w) : NAN;
    }
    free(w);
    return 0;
}

static double *launch_medians(const vkb_cmp_side *a, const vkb_cmp_side *b)
{
    if (a->k < 2 || b->k < 2) return NULL;
    double *med = malloc((size_t)(a->k + b->k) * sizeof(*med));
    int ok = med && !vkb_cmp_side_medians(a, med) && !vkb_cmp_side_medians(b, med + a->k);
    for (int c = 0; ok && c < a->k + b->k; c++) ok = med[c] > 0 && isfinite(med[c]);
    if (!ok) free(med);
    return ok ? med : NULL;
}

/* Mean and variance (n - 1) of log x[0..k). */
static void log_moments(const double *x, int k, double *mean, double *var)
{
    double sum = 0, ss = 0;
    for (int c = 0; c < k; c++) sum += log(x[c]);
    *mean = sum / k;
    for (int c = 0; c < k; c++) ss += (log(x[c]) - *mean) * (log(x[c]) - *mean);
    *var = ss / (k - 1);
}

/* Welch t over the logs of ka medians ma and kb medians mb: two-sided p, level CI of the ratio. */
static double welch_log(const double *ma, int ka, const double *mb, int kb, double level, double *lo, double *hi)
{
    double mua, va, mub, vb;
    log_moments(ma, ka, &mua, &va);
    log_moments(mb, kb, &mub, &vb);
    double d = mub - mua, ea = va / ka, eb = vb / kb, se = sqrt(ea + eb);
    if (!(se > 0)) {   /* every launch median equal on both sides: no spread to test against */
        *lo = *hi = exp(d);
        return d == 0 ? 1.0 : 0.0;
    }
    double df = (ea + eb) * (ea + eb) / (ea * ea / (ka - 1) + eb * eb / (kb - 1));   /* Welch-Satterthwaite */
    double tq = gsl_cdf_tdist_Qinv((1 - level) / 2, df);
    *lo = exp(d - tq * se);
    *hi = exp(d + tq * se);
    return fmin(1.0, 2 * gsl_cdf_tdist_Q(fabs(d) / se, df));
}

double vkb_cmp_launch_t(const vkb_cmp_side *a, const vkb_cmp_side *b, double level, double *lo, double *hi)
{
    double *m = launch_medians(a, b), p = NAN;
    *lo = *hi = NAN;
    if (m) p = welch_log(m, a->k, m + a->k, b->k, level, lo, hi);
    free(m);
    return p;
}

void vkb_cmp_measure(vkb_cmp_row *r, const vkb_cmp_opts *o)
{
    double tlo, thi;
    medians(r);
    r->ratio = vkb_cmp_ratio_ci(&r->base, &r->cand, o->resamples, o->seed, 0.95, &r->ci_lo, &r->ci_hi);
    r->p = r->p_samples = vkb_mann_whitney_p(r->base.t, r->base.n, r->cand.t, r->cand.n, NULL);
    r->min_p = vkb_mann_whitney_min_p(r->base.n, r->cand.n);
    double *m = launch_medians(&r->base, &r->cand);
    r->p_launches = NAN;
    if (m) {
        int ka = r->base.k, kb = r->cand.k;
        r->p_launches = vkb_mann_whitney_p(m, (size_t)ka, m + ka, (size_t)kb, NULL);
        /* Samples of one launch are not independent of each other: between-launch drift would make a
         * pooled-sample p and a within-launch CI far too confident (an A/A false SLOWER on a busy CI
         * host). The launch is the unit: its medians get an exact rank test (no normality: lavapipe's
         * launches were bimodal, 0.46 or 0.74 ms, where a t test on 3 vs 3 gave p = .007 in an A/A). */
        r->p = fmax(r->p_samples, r->p_launches);
        r->min_p = fmax(r->min_p, vkb_mann_whitney_min_p((size_t)ka, (size_t)kb));
        welch_log(m, ka, m + ka, kb, 0.95, &tlo, &thi);
        r->ci_lo = fmin(r->ci_lo, tlo);
        r->ci_hi = fmax(r->ci_hi, thi);
        free(m);
    }
    /* 80% power for "CI lower bound > 1 + delta": log r = log(1 + delta) + (z.975 + z.80) se. */
    double se = (log(r->ci_hi) - log(r->ci_lo)) / (2 * Z975);
    r->mde80 = (1 + r->delta) * exp((Z975 + Z80) * se) - 1;
}

static void set_verdict(vkb_cmp_row *r, const char *v, const char *fmt, ...) __attribute__((format(printf, 3, 4)));
static void set_verdict(vkb_cmp_row *r, const char *v, const char *fmt, ...)
{
    va_list ap;
    snprintf(r->verdict, sizeof(r->verdict), "%s", v);
    va_start(ap, fmt);
    vsnprintf(r->reason, sizeof(r->reason), fmt, ap);
    va_end(ap);
}

size_t vkb_cmp_decide(vkb_cmp_row *rows, size_t n, const vkb_cmp_opts *o)
{
    double *p = calloc(n ? n : 1, sizeof(*p)), *padj = calloc(n ? n : 1, sizeof(*padj));
    int *rej = calloc(n ? n : 1, sizeof(*rej));
    /* out[i]: measured, but kept out of the BH family, so it may only be SAME (1: one launch a side, 2: p can
     * never reach q, its reason in r->reason). More data must never judge worse than less: 3 vs 3 launches
     * whose CI sits inside the floor are SAME, as 1 vs 1 would be. */
    char *out = calloc(n ? n : 1, 1);
    size_t family = 0;
    if (!p || !padj || !rej || !out) goto cleanup;
    for (size_t i = 0; i < n; i++) {
        vkb_cmp_row *r = &rows[i];
        p[i] = NAN;
        r->undecided = 0;
        if (!r->testable) continue;
        if (r->base.n < o->min_samples || r->cand.n < o->min_samples) {
            r->testable = 0;
            r->undecided = 1;   /* timed on both sides, but too thinly to decide */
            snprintf(r->reason, sizeof(r->reason), "too few samples (%zu baseline, %zu candidate; need %zu each)",
                     r->base.n, r->cand.n, o->min_samples);
        } else if (r->min_p > o->q) {
            out[i] = 2;   /* cannot be significant: kept out of the BH family */
            if (r->base.k >= 2 && r->cand.k >= 2 && vkb_mann_whitney_min_p((size_t)r->base.k, (size_t)r->cand.k) > o->q)
                snprintf(r->reason, sizeof(r->reason), "too few launches: %d vs %d can reach p >= %.3g > q = %.3g "
                         "(the launch is the unit; 5 vs 5 reach .0079)", r->base.k, r->cand.k, r->min_p, o->q);
            else
                snprintf(r->reason, sizeof(r->reason), "too few samples: %zu vs %zu can reach p >= %.3g > q = %.3g",
                         r->base.n, r->cand.n, r->min_p, o->q);
        } else if (!o->allow_one_launch && (r->base.k < 2 || r->cand.k < 2))
            out[i] = 1;
        else
            p[i] = r->p, family++;
    }
    vkb_cmp_bh(p, n, o->q, padj, rej);
    for (size_t i = 0; i < n; i++) {
        vkb_cmp_row *r = &rows[i];
        r->p_bh = padj[i];
        r->significant = rej[i];
        int tb = timed(r->base_status), tc = timed(r->cand_status);
        if (!r->testable) {
            char why[sizeof(r->reason)];
            snprintf(why, sizeof(why), "%s", r->reason[0] ? r->reason : "not timed on both sides");
            set_verdict(r, "INCONCLUSIVE", "%s", why);
            /* Excused by design: below the timer floor, timed on neither side (SKIP/FAIL: correctness
             * speaks for those), a new case. A case that lost its timing on one side is a hole. */
            r->undecided |= r->base_status[0] && !r->below_floor && (tb || tc);
            continue;
        }
        double up = 1 + r->delta, down = 1 / up;
        if (isnan(r->ci_lo) || isnan(r->ci_hi))
            set_verdict(r, "INCONCLUSIVE", "no confidence interval");
        else if (r->ci_lo >= down && r->ci_hi <= up)
            set_verdict(r, "SAME", "%s", "");
        else if (out[i] == 2) {
            char why[sizeof(r->reason)];
            snprintf(why, sizeof(why), "%s", r->reason);
            set_verdict(r, "INCONCLUSIVE", "%s", why);
        } else if (out[i] == 1)
            set_verdict(r, "INCONCLUSIVE", "one launch per side: between-launch variance unknown (%d vs %d launches; "
                        "ratio %.4f, within-launch CI [%.4f, %.4f]; --allow-one-launch judges it anyway)", r->base.k,
                        r->cand.k, r->ratio, r->ci_lo, r->ci_hi);
        else if (r->significant && r->ci_lo > up)
            set_verdict(r, "SLOWER", "%s", "");
        else if (r->significant && r->ci_hi < down)
            set_verdict(r, "FASTER", "%s", "");
        else if (r->ci_lo > up || r->ci_hi < down)
            set_verdict(r, "INCONCLUSIVE", "CI beyond the floor but not significant after BH (p %.3g, adjusted %.3g > q %.3g)",
                        r->p, r->p_bh, o->q);
        else
            set_verdict(r, "INCONCLUSIVE", "too noisy: 95%% CI [%.4f, %.4f] straddles the floor [%.4f, %.4f]",
                        r->ci_lo, r->ci_hi, down, up);
        r->undecided = !strcmp(r->verdict, "INCONCLUSIVE") || !strcmp(r->correctness, "unverified");
        if (r->base.skipped || r->cand.skipped) {
            size_t used = strlen(r->reason);
            snprintf(r->reason + used, sizeof(r->reason) - used, "%s%d baseline and %d candidate launches SKIPped it "
                     "(not counted)", used ? "; " : "", r->base.skipped, r->cand.skipped);
        }
    }
cleanup:
    free(p);
    free(padj);
    free(rej);
    free(out);
    return family;
}

int vkb_cmp_exit_code(const vkb_cmp_row *rows, size_t n)
{
    int code = VKB_GATE_OK, undecided = 0, decided = 0;
    for (size_t i = 0; i < n; i++) {
        if (!strcmp(rows[i].correctness, "REGRESSION")) return VKB_GATE_CORRECTNESS;
        if (!strcmp(rows[i].verdict, "SLOWER")) code = VKB_GATE_PERF;
        undecided |= rows[i].undecided;
        decided |= strcmp(rows[i].verdict, "INCONCLUSIVE") != 0;
    }
    return code == VKB_GATE_OK && (undecided || !decided) ? VKB_GATE_INCONCLUSIVE : code;
}

/* ---- loading -------------------------------------------------------------------------------- */

/* A side's status is its worst launch's, with two exceptions. TIMED (timed; the check skipped because an
 * earlier run of the same build established correctness) ranks below PASS: PASS + TIMED launches are PASS,
 * TIMED alone is TIMED. SKIP ranks lowest: a launch that skipped a case (a failed injection calibration,
 * say) leaves the other launches' samples standing, and is counted in the side's `skipped`. */
static int status_rank(const char *s)
{
    return !strcmp(s, "SKIP") ? -1 : !strcmp(s, "TIMED") ? 0 : !strcmp(s, "PASS") ? 1 : !strcmp(s, "FAIL") ? 3 : 4;
}

static int is_dir(const char *p)
{
    struct stat st;
    return stat(p, &st) == 0 && S_ISDIR(st.st_mode);
}

static int is_file(const char *p)
{
    struct stat st;
    return stat(p, &st) == 0 && S_ISREG(st.st_mode);
}

static int str_cmp(const void *a, const void *b) { return strcmp(*(char *const *)a, *(char *const *)b); }

/* The results.csv files of one side: a file, a run directory, or a directory of run directories. */
static int side_files(const char *arg, char ***out, int *nout, char *err, size_t errlen)
{
    char path[1200];
    char **v = NULL;
    int n = 0;
    if (is_file(arg) || (snprintf(path, sizeof(path), "%s/results.csv", arg), is_file(path))) {
        v = malloc(sizeof(*v));
        if (!v || !(v[0] = strdup(is_file(arg) ? arg : path))) goto oom;
        *out = v;
        *nout = 1;
        return 0;
    }
    DIR *d = is_dir(arg) ? opendir(arg) : NULL;
    if (!d) {
        snprintf(err, errlen, "%s: cannot open: %s", arg, is_dir(arg) ? strerror(errno) : "no such file or directory");
        return -1;
    }
    for (struct dirent *e; (e = readdir(d));) {
        if (e->d_name[0] == '.') continue;
        snprintf(path, sizeof(path), "%s/%s/results.csv", arg, e->d_name);
        if (!is_file(path)) continue;
        char **nv = realloc(v, (size_t)(n + 1) * sizeof(*nv));
        if (!nv) { closedir(d); goto oom; }
        v = nv;
        if (!(v[n++] = strdup(path))) { closedir(d); goto oom; }
    }
    closedir(d);
    if (!n) {
        free(v);
        snprintf(err, errlen, "%s: no results.csv in it or in any directory below it", arg);
        return -1;
    }
    qsort(v, (size_t)n, sizeof(*v), str_cmp);   /* launch order is the name order (run.1, run.2, ...) */
    *out = v;
    *nout = n;
    return 0;
oom:
    for (int i = 0; i < n; i++) free(v[i]);
    free(v);
    snprintf(err, errlen, "%s: out of memory", arg);
    return -1;
}

typedef struct side_id {
    char device[VKB_STR_LEN], driver[VKB_STR_LEN], first[1200];
    int have;
} side_id;

/* "auto" or "auto:CHOICE" (a kernel's variant=auto records what it chose): 1. */
static int is_auto(const char *v) { return !strncmp(v, "auto", 4) && (v[4] == 0 || v[4] == ':'); }

/* An auto row matches the auto row of the other side whatever each chose: the case is the default's
 * speed, and a rule that picks a slower tiling is a regression of it. */
static int same_case(const vkb_cmp_row *r, const vkb_result *x)
{
    return !strcmp(r->kernel, x->kernel) && (!strcmp(r->variant, x->variant) || (is_auto(r->variant) && is_auto(x->variant))) &&
           !strcmp(r->params, x->params) &&
           !strcmp(r->dtype, x->dtype) && !strcmp(r->mode, x->mode);
}

typedef struct rowset { vkb_cmp_row *r; size_t n, cap; } rowset;

static vkb_cmp_row *find_or_add(rowset *s, const vkb_result *x, int add)
{
    for (size_t i = 0; i < s->n; i++)
        if (same_case(&s->r[i], x)) return &s->r[i];
    if (!add) return NULL;
    if (s->n == s->cap) {
        vkb_cmp_row *nr = realloc(s->r, (s->cap = s->cap * 2 + 16) * sizeof(*nr));
        if (!nr) return NULL;
        s->r = nr;
    }
    vkb_cmp_row *r = &s->r[s->n++];
    memset(r, 0, sizeof(*r));
    snprintf(r->kernel, sizeof(r->kernel), "%s", x->kernel);
    snprintf(r->variant, sizeof(r->variant), "%s", x->variant);
    snprintf(r->params, sizeof(r->params), "%s", x->params);
    snprintf(r->dtype, sizeof(r->dtype), "%s", x->dtype);
    snprintf(r->mode, sizeof(r->mode), "%s", x->mode);
    r->delta = r->injected = NAN;
    return r;
}

/* The runs that TIMED rows name as establishing them (ref_method "established: DIR (...)"), read once each. */
typedef struct estab {
    char dir[600];
    vkb_result *rows;   /* NULL: unreadable (the rows it was to vouch for stay TIMED) */
    long n;
} estab;
static estab estabs[16];
static int nestab;

static void estab_free(void)
{
    for (int i = 0; i < nestab; i++) free(estabs[i].rows);
    nestab = 0;
}

/* A TIMED row's correctness is that of the run that established it: the PASS row of the same commit, seed
 * and case in DIR (as `run --established` matched it). With it the row counts as PASS; without it (DIR gone,
 * unreadable, or not holding that row) it stays TIMED, which establishes nothing. The gate's check launches
 * (harness/gate.sh) are such runs: not timed for the comparison, they vouch for its launches. */
static const char *vouched(const vkb_result *x)
{
    static const char pre[] = "established: ";
    if (strcmp(x->status, "TIMED") || strncmp(x->ref_method, pre, sizeof(pre) - 1)) return x->status;
    char dir[600];
    snprintf(dir, sizeof(dir), "%s", x->ref_method + sizeof(pre) - 1);
    char *cut = strstr(dir, " (PASS");
    if (cut) *cut = 0;
    estab *e = NULL;
    for (int i = 0; i < nestab && !e; i++)
        if (!strcmp(estabs[i].dir, dir)) e = &estabs[i];
    if (!e) {
        if (nestab == (int)(sizeof(estabs) / sizeof(estabs[0]))) return x->status;
        e = &estabs[nestab++];
        snprintf(e->dir, sizeof(e->dir), "%s", dir);
        char path[700], err[512];
        snprintf(path, sizeof(path), "%s/results.csv", dir);
        e->n = vkb_result_read(path, &e->rows, err, sizeof(err));
        if (e->n < 0) e->rows = NULL, e->n = 0;
    }
    for (long i = 0; i < e->n; i++) {
        const vkb_result *y = &e->rows[i];
        if (!strcmp(y->status, "PASS") && !strcmp(y->commit, x->commit) && y->seed == x->seed &&
            !strcmp(y->kernel, x->kernel) && !strcmp(y->params, x->params))
            return "PASS";
    }
    return x->status;
}

/* Read one side's runs into the row set (cand: 0 baseline, 1 candidate). */
static int load_side(rowset *set, const char *arg, int cand, side_id *id, char *err, size_t errlen)
{
    char **files = NULL, samples[1300];
    int nfiles = 0, rc = -1;
    vkb_result *res = NULL;
    /* Without these a row would be misread (a new case, a device mismatch, a case with no samples) rather
     * than refused: a missing one is an input error naming the file and the column. */
    static const char *const need[] = {"device", "driver", "kernel", "variant", "params", "dtype", "mode",
                                       "status", "case_id", "samples", "below_floor"};
    if (side_files(arg, &files, &nfiles, err, errlen)) return -1;
    for (int f = 0; f < nfiles; f++) {
        if (vkb_result_require(files[f], need, sizeof(need) / sizeof(need[0]), err, errlen)) goto cleanup;
        long nr = vkb_result_read(files[f], &res, err, errlen);
        if (nr < 0 || vkb_result_need_status(files[f], res, nr, err, errlen)) goto cleanup;
        snprintf(samples, sizeof(samples), "%s", files[f]);
        char *slash = strrchr(samples, '/');
        snprintf(slash ? slash + 1 : samples, sizeof(samples) - (size_t)(slash ? slash + 1 - samples : 0), "samples.csv");
        int torn_tail = vkb_rundir_torn_tail(files[f]);
        for (long i = 0; i < nr; i++) {
            const vkb_result *x = &res[i];
            if (!strcmp(x->status, "INTERRUPTED")) continue;  /* no result: the case is missing from this launch */
            if (!id->have) {
                snprintf(id->device, sizeof(id->device), "%s", x->device);
                snprintf(id->driver, sizeof(id->driver), "%s", x->driver);
                snprintf(id->first, sizeof(id->first), "%s", files[f]);
                id->have = 1;
            } else if (strcmp(id->device, x->device) || strcmp(id->driver, x->driver)) {
                snprintf(err, errlen, "%s: row %ld: device '%s' (driver %s) differs from '%s' (driver %s) in %s: "
                         "one side must come from one device", files[f], i + 1, x->device, x->driver, id->device,
                         id->driver, id->first);
                goto cleanup;
            }
            vkb_cmp_row *r = find_or_add(set, x, 1);
            if (!r) { snprintf(err, errlen, "%s: out of memory", files[f]); goto cleanup; }
            snprintf(cand ? r->variant : r->base_variant, sizeof(r->variant), "%s", x->variant);
            char *st = cand ? r->cand_status : r->base_status;
            const char *xs = vouched(x);
            if (!st[0] || status_rank(xs) > status_rank(st)) snprintf(st, sizeof(r->base_status), "%s", xs);
            (cand ? &r->cand : &r->base)->skipped += !strcmp(x->status, "SKIP");
            if (cand ? !isnan(x->gate_delta) : isnan(r->delta)) r->delta = x->gate_delta;  /* the candidate's suite wins */
            r->below_floor |= x->below_floor > 0;   /* NA (not timed) is not below it */
            if (!strncmp(x->clock_check, "low", 3) && !r->low_clock[0])
                snprintf(r->low_clock, sizeof(r->low_clock), "%s %s", cand ? "candidate" : "baseline", x->clock_check);
            if (failing(x->status) && !r->reason[0])
                snprintf(r->reason, sizeof(r->reason), "%s %s: %s", cand ? "candidate" : "baseline", x->status, x->reason);
            if (cand && !isnan(x->injected_factor))
                r->injected = isnan(r->injected) ? x->injected_factor : r->injected + x->injected_factor, r->ninj++;
            if (!timed(x->status)) continue;
            double *t = NULL;
            long ns = vkb_samples_for_row(samples, files[f], x, torn_tail, &t, err, errlen);
            if (ns < 0) goto cleanup;
            int bad = vkb_cmp_side_add(cand ? &r->cand : &r->base, t, (size_t)ns);
            free(t);
            if (bad) { snprintf(err, errlen, "%s: out of memory", samples); goto cleanup; }
        }
        free(res);
        res = NULL;
    }
    rc = 0;
cleanup:
    free(res);
    for (int f = 0; f < nfiles; f++) free(files[f]);
    free(files);
    return rc;
}

void vkb_cmp_rows_free(vkb_cmp_row *rows, size_t n)
{
    for (size_t i = 0; rows && i < n; i++) {
        vkb_cmp_side_free(&rows[i].base);
        vkb_cmp_side_free(&rows[i].cand);
    }
    free(rows);
}

/* Correctness and testability of a matched row, before any statistics. */
static void classify(vkb_cmp_row *r, int mismatch, const vkb_cmp_opts *o)
{
    const char *b = r->base_status, *c = r->cand_status;
    if (isnan(r->delta)) r->delta = o->delta;
    r->med_base = r->med_cand = r->ratio = r->ci_lo = r->ci_hi = r->p = r->p_bh = r->min_p = r->mde80 = NAN;
    r->p_samples = r->p_launches = NAN;
    if (r->ninj > 1) r->injected /= r->ninj;
    /* A TIMED row says an earlier run established correctness; by itself it establishes nothing. */
    if (timed(b) && failing(c)) snprintf(r->correctness, sizeof(r->correctness), "REGRESSION");
    else if (failing(b) && failing(c)) snprintf(r->correctness, sizeof(r->correctness), "still-failing");
    else if (failing(b) && !strcmp(c, "PASS")) snprintf(r->correctness, sizeof(r->correctness), "fixed");
    else if (timed(b) && !strcmp(c, "PASS")) snprintf(r->correctness, sizeof(r->correctness), "ok");
    else if (!strcmp(c, "TIMED")) snprintf(r->correctness, sizeof(r->correctness), "unverified");
    else snprintf(r->correctness, sizeof(r->correctness), "untimed");
    if (!b[0]) snprintf(r->reason, sizeof(r->reason), "new case: not in the baseline");
    else if (!c[0]) snprintf(r->reason, sizeof(r->reason), "missing from the candidate");
    else if (!timed(b) || !timed(c)) {
        if (!r->reason[0]) snprintf(r->reason, sizeof(r->reason), "not timed: baseline %s, candidate %s", b, c);
    } else if (mismatch) snprintf(r->reason, sizeof(r->reason), "device or driver mismatch: timings not compared");
    else if (r->below_floor) snprintf(r->reason, sizeof(r->reason), "below the timer floor (median < 10x floor)");
    else if (r->low_clock[0])
        snprintf(r->reason, sizeof(r->reason), "timed at a low GPU clock, not compared: %s", r->low_clock);
    else r->testable = 1;
}

/* A baseline that is the candidate (or holds it, or lies inside it) compares a run with itself, or with
 * what the run is about to overwrite: refused. */
static int overlap(const char *base, const char *cand, char *err, size_t errlen)
{
    char a[PATH_MAX], b[PATH_MAX];
    if (!realpath(base, a) || !realpath(cand, b)) return 0;   /* missing: the loader names it */
    size_t la = strlen(a), lb = strlen(b), l = la < lb ? la : lb;
    if (strncmp(a, b, l) || (la != lb && (la > lb ? a : b)[l] != '/')) return 0;
    snprintf(err, errlen, "baseline %s and candidate %s %s: a comparison with itself proves nothing (keep the "
             "baseline outside the candidate's output directory, e.g. a copy of it)", base, cand,
             la == lb ? "are the same" : la < lb ? "overlap (the candidate lies inside the baseline)" :
             "overlap (the baseline lies inside the candidate)");
    return -1;
}

long vkb_cmp_load(const char *base, const char *cand, const vkb_cmp_opts *o, int allow_mismatch,
                  vkb_cmp_row **rows, int *mismatch, char *note, size_t notelen, char *err, size_t errlen)
{
    rowset set = {0};
    side_id ib = {0}, ic = {0};
    *rows = NULL;
    *mismatch = 0;
    note[0] = 0;
    if (overlap(base, cand, err, errlen)) return -1;
    int bad = load_side(&set, base, 0, &ib, err, errlen) || load_side(&set, cand, 1, &ic, err, errlen);
    estab_free();
    if (bad) {
        vkb_cmp_rows_free(set.r, set.n);
        return -1;
    }
    if (ib.have && ic.have && (strcmp(ib.device, ic.device) || strcmp(ib.driver, ic.driver))) {
        snprintf(note, notelen, "device mismatch: baseline '%s' (driver %s) vs candidate '%s' (driver %s): %s",
                 ib.device, ib.driver, ic.device, ic.driver,
                 allow_mismatch ? "timings compared anyway (--allow-device-mismatch)" : "timings not compared, correctness only");
        *mismatch = !allow_mismatch;
    }
    for (size_t i = 0; i < set.n; i++) {
        classify(&set.r[i], *mismatch, o);
        if (set.r[i].testable) vkb_cmp_measure(&set.r[i], o);
        else medians(&set.r[i]);
    }
    *rows = set.r;
    return (long)set.n;
}

/* ---- the command ---------------------------------------------------------------------------- */

static void cmp_usage(FILE *f)
{
    fprintf(f,
            "usage: vkbench compare BASELINE CANDIDATE [options]\n"
            "  BASELINE, CANDIDATE: a run directory, a results.csv (samples.csv beside it), or a directory of run\n"
            "  directories (several launches, pooled; the bootstrap resamples launches as clusters)\n"
            "  --threshold D          effect floor (default 0.03); a suite's `set gate_delta=D` wins for its lines\n"
            "  --fdr Q                Benjamini-Hochberg false-discovery rate over the suite (default 0.05)\n"
            "  --resamples N          bootstrap resamples (default 4000); --seed S: bootstrap seed (default 1)\n"
            "  --min-samples N        fewer timed samples on a side: INCONCLUSIVE (default 5)\n"
            "  --out DIR              verdicts.csv, compare.md, summary.md (for a CI job summary page), junit.xml\n"
            "                         (one testcase per case), ratios.tsv, ratios.png, ratios.svg\n"
            "                         (default: CANDIDATE/compare, or compare/ beside a CANDIDATE csv)\n"
            "  --no-plot              skip gnuplot;  --plot-template F: default plots/gate_ratios.gp\n"
            "  --allow-device-mismatch  compare timings across devices/drivers anyway (noted in the output)\n"
            "  --allow-inconclusive   exit 0 instead of 4 when the gate could not decide (said in the summary)\n"
            "  --allow-one-launch     let one launch on a side be FASTER/SLOWER (within-launch noise only; said in\n"
            "                         the summary); without it such a case is INCONCLUSIVE unless SAME\n"
            "verdicts: SAME (CI inside [1/(1+D), 1+D]); SLOWER/FASTER (BH-significant and CI beyond the floor, >= 2\n"
            "  launches a side); INCONCLUSIVE with the reason (too few samples or launches, too noisy, one launch per\n"
            "  side, below the timer floor, not timed, ...). Rows with status PASS or TIMED are timed; a TIMED row\n"
            "  (check skipped: correctness established by an earlier run) counts as PASS when that run (its\n"
            "  ref_method names it) still holds the case's PASS row, same commit and seed; else it establishes nothing.\n"
            "exit status: 0 no regression; 1 performance regression (a SLOWER case); 2 correctness regression\n"
            "  (PASS in the baseline, FAIL or ERROR in the candidate; wins over 1); 3 usage or input error: bad\n"
            "  options, unreadable/corrupt/truncated results (file:line), a required column missing or a NaN\n"
            "  sample (file:line, column), a baseline that is or overlaps the candidate, no case in common,\n"
            "  baseline cases missing from the candidate, or a device/driver mismatch (timings refused; 2 and 1\n"
            "  win); 4 INCONCLUSIVE, the gate could not decide: a case timed on both sides (or on one side only)\n"
            "  ended INCONCLUSIVE, a candidate's correctness rests on TIMED rows only, or no case was decided at\n"
            "  all. Below-floor cases and cases timed on neither side do not count. --allow-inconclusive: 0.\n");
}

static const char *find_template(const char *given, char *buf, size_t len)
{
    if (given) return given;
    if (is_file("plots/gate_ratios.gp")) return "plots/gate_ratios.gp";
    char exe[1024];
    ssize_t k = readlink("/proc/self/exe", exe, sizeof(exe) - 1);
    if (k <= 0) return NULL;
    exe[k] = 0;
    for (int up = 0; up < 4; up++) {
        char *s = strrchr(exe, '/');
        if (!s) return NULL;
        *s = 0;
        snprintf(buf, len, "%s/plots/gate_ratios.gp", exe);
        if (is_file(buf)) return buf;
    }
    return NULL;
}

/* gnuplot -c TEMPLATE DATA OUT TERM DELTA, without a shell. Returns 0 when gnuplot exited 0. */
static int run_gnuplot(const char *tmpl, const char *data, const char *out, const char *term, double delta)
{
    char a[7][1200];   /* posix_spawn takes char *const[]: give it copies it may not write anyway */
    snprintf(a[0], sizeof(a[0]), "gnuplot");
    snprintf(a[1], sizeof(a[1]), "-c");
    snprintf(a[2], sizeof(a[2]), "%s", tmpl);
    snprintf(a[3], sizeof(a[3]), "%s", data);
    snprintf(a[4], sizeof(a[4]), "%s", out);
    snprintf(a[5], sizeof(a[5]), "%s", term);
    snprintf(a[6], sizeof(a[6]), "%.6g", delta);
    char *argv[] = {a[0], a[1], a[2], a[3], a[4], a[5], a[6], NULL};
    pid_t pid;
    int st;
    if (posix_spawnp(&pid, "gnuplot", NULL, NULL, argv, environ)) return -1;
    if (waitpid(pid, &st, 0) < 0) return -1;
    return WIFEXITED(st) && WEXITSTATUS(st) == 0 ? 0 : -1;
}

static FILE *open_out(const char *dir, const char *name, char *path, size_t len)
{
    snprintf(path, len, "%s/%s", dir, name);
    FILE *f = fopen(path, "w");
    if (!f) fprintf(stderr, "vkbench compare: cannot write %s: %s\n", path, strerror(errno));
    return f;
}

static int write_outputs(const char *dir, const vkb_cmp_row *rows, size_t n, const vkb_cmp_opts *o,
                         const vkb_cmp_outcome *oc, int plot, const char *tmpl_given)
{
    char path[1300], data[1300], tb[1200];
    FILE *f;
    if (vkb_mkdirs(dir)) {
        fprintf(stderr, "vkbench compare: cannot create %s: %s\n", dir, strerror(errno));
        return -1;
    }
    if (!(f = open_out(dir, "verdicts.csv", path, sizeof(path)))) return -1;
    vkb_cmp_write_csv(f, rows, n);
    fclose(f);
    if (!(f = open_out(dir, "compare.md", path, sizeof(path)))) return -1;
    vkb_cmp_write_markdown(f, rows, n, o, oc->family);
    fclose(f);
    if (!(f = open_out(dir, "summary.md", path, sizeof(path)))) return -1;
    vkb_cmp_write_summary(f, rows, n, o, oc);
    fclose(f);
    if (!(f = open_out(dir, "junit.xml", path, sizeof(path)))) return -1;
    vkb_cmp_write_junit(f, rows, n, oc);
    fclose(f);
    if (!(f = open_out(dir, "ratios.tsv", data, sizeof(data)))) return -1;
    size_t k = vkb_cmp_write_plotdata(f, rows, n);
    fclose(f);
    if (!plot) return 0;
    const char *tmpl = find_template(tmpl_given, tb, sizeof(tb));
    if (!k) fprintf(stderr, "vkbench compare: plot: NA (no case has a ratio)\n");
    else if (!tmpl) fprintf(stderr, "vkbench compare: plot: NA (plots/gate_ratios.gp not found; --plot-template)\n");
    else
        for (int t = 0; t < 2; t++) {
            snprintf(path, sizeof(path), "%s/ratios.%s", dir, t ? "svg" : "png");
            if (run_gnuplot(tmpl, data, path, t ? "svg" : "png", o->delta))
                fprintf(stderr, "vkbench compare: plot %s: NA (gnuplot missing or failed)\n", path);
        }
    return 0;
}

static void default_out(const char *cand, char *out, size_t len)
{
    if (is_dir(cand)) {
        snprintf(out, len, "%s/compare", cand);
        return;
    }
    const char *s = strrchr(cand, '/');
    if (s) snprintf(out, len, "%.*s/compare", (int)(s - cand), cand);
    else snprintf(out, len, "compare");
}

/* The runs of one side that did not complete (rundir.h), appended to out as "SIDE DIR: why; ". */
static void partial_side(const char *arg, const char *side, char *out, size_t len)
{
    char **files = NULL, err[300], why[700];
    int n = 0;
    if (side_files(arg, &files, &n, err, sizeof(err))) return;
    for (int f = 0; f < n; f++) {
        vkb_runstate st = vkb_rundir_state(files[f], why, sizeof(why));
        size_t used = strlen(out);
        if (st != VKB_RUN_COMPLETE && st != VKB_RUN_UNKNOWN)
            snprintf(out + used, len - used, "%s%s %s: %s", used ? "; " : "", side, files[f], why);
        free(files[f]);
    }
    free(files);
}

int vkb_compare_cmd(int argc, char **argv)
{
    static const struct option lo[] = {
        {"threshold", 1, 0, 't'}, {"fdr", 1, 0, 'q'},     {"resamples", 1, 0, 'r'},     {"seed", 1, 0, 's'},
        {"out", 1, 0, 'o'},       {"no-plot", 0, 0, 'n'}, {"plot-template", 1, 0, 'p'}, {"min-samples", 1, 0, 'm'},
        {"allow-device-mismatch", 0, 0, 'a'}, {"help", 0, 0, 'h'}, {"allow-inconclusive", 0, 0, 'I'},
        {"allow-one-launch", 0, 0, '1'}, {0, 0, 0, 0}};
    vkb_cmp_opts o;
    vkb_cmp_opts_init(&o);
    const char *out = NULL, *tmpl = NULL;
    int plot = 1, allow = 0, allow_inc = 0, c, mismatch, li = -1;
    char err[1600], note[800], outbuf[1200];
    optind = 1;
    while ((c = getopt_long(argc, argv, "ho:", lo, &li)) != -1) {
        char *end = NULL;
        int ok = 1;
        switch (c) {
        case 't': o.delta = strtod(optarg, &end); ok = !*end && o.delta > 0 && o.delta < 1; break;
        case 'q': o.q = strtod(optarg, &end); ok = !*end && o.q > 0 && o.q < 1; break;
        case 'r': o.resamples = (int)strtol(optarg, &end, 10); ok = !*end && o.resamples >= 100 && o.resamples <= 1000000; break;
        case 's': o.seed = strtoull(optarg, &end, 0); ok = !*end; break;
        case 'm': o.min_samples = (size_t)strtoul(optarg, &end, 10); ok = !*end && o.min_samples >= 2; break;
        case 'o': out = optarg; break;
        case 'n': plot = 0; break;
        case 'p': tmpl = optarg; break;
        case 'a': allow = 1; break;
        case 'I': allow_inc = 1; break;
        case '1': o.allow_one_launch = 1; break;
        case 'h': cmp_usage(stdout); return VKB_GATE_OK;
        default: cmp_usage(stderr); return VKB_GATE_INPUT;
        }
        if (!ok) {
            fprintf(stderr, "vkbench compare: option --%s: '%s' is not a valid value\n", li >= 0 ? lo[li].name : "?", optarg);
            return VKB_GATE_INPUT;
        }
    }
    if (argc - optind != 2) {
        cmp_usage(stderr);
        return VKB_GATE_INPUT;
    }
    vkb_cmp_row *rows = NULL;
    long n = vkb_cmp_load(argv[optind], argv[optind + 1], &o, allow, &rows, &mismatch, note, sizeof(note), err,
                          sizeof(err));
    if (n < 0) {
        fprintf(stderr, "vkbench compare: %s\n", err);
        return VKB_GATE_INPUT;
    }
    size_t family = vkb_cmp_decide(rows, (size_t)n, &o), matched = 0, missing = 0, undecided = 0;
    const vkb_cmp_row *first = NULL;
    for (long i = 0; i < n; i++) {
        matched += rows[i].base_status[0] && rows[i].cand_status[0];
        missing += rows[i].base_status[0] && !rows[i].cand_status[0];
        undecided += (size_t)rows[i].undecided;
        if (rows[i].undecided && !first) first = &rows[i];
    }
    if (!out) default_out(argv[optind + 1], outbuf, sizeof(outbuf)), out = outbuf;
    vkb_cmp_outcome oc = {.base = argv[optind], .cand = argv[optind + 1], .note = note, .family = family,
                          .allow_inconclusive = allow_inc};
    int code = vkb_cmp_exit_code(rows, (size_t)n);
    char why[700] = "";
    if ((code == VKB_GATE_OK || code == VKB_GATE_INCONCLUSIVE) && (!matched || missing || mismatch)) {
        snprintf(why, sizeof(why), "%s", !matched ? "no case in common between baseline and candidate"
                 : missing ? "baseline cases are missing from the candidate" : "device or driver mismatch: timings refused");
        code = VKB_GATE_INPUT;
    } else if (code == VKB_GATE_INCONCLUSIVE && first)
        snprintf(why, sizeof(why), "inconclusive: %zu case%s undecided (first: %s %s: %s %s)", undecided,
                 undecided == 1 ? "" : "s", first->kernel, first->params, first->verdict, first->reason[0] ? first->reason
                 : first->correctness);
    else if (code == VKB_GATE_INCONCLUSIVE)
        snprintf(why, sizeof(why), "inconclusive: no case was decided (SAME, FASTER or SLOWER)");
    oc.raw_code = code;
    if (code == VKB_GATE_INCONCLUSIVE && allow_inc) code = VKB_GATE_OK;
    oc.code = code;
    oc.why = why[0] ? why : NULL;
    if (write_outputs(out, rows, (size_t)n, &o, &oc, plot, tmpl) && (code == VKB_GATE_OK || code == VKB_GATE_INCONCLUSIVE)) {
        snprintf(why, sizeof(why), "could not write the outputs");
        oc.code = code = VKB_GATE_INPUT;
        oc.why = why;
    }
    char partial[2400] = "";
    partial_side(argv[optind], "baseline", partial, sizeof(partial));
    partial_side(argv[optind + 1], "candidate", partial, sizeof(partial));
    if (partial[0]) printf("## vkbench compare: PARTIAL input (%s): cases that never ran are missing\n\n", partial);
    vkb_cmp_write_summary(stdout, rows, (size_t)n, &o, &oc);
    printf("\nverdicts: %s/verdicts.csv (summary.md, junit.xml beside it)\ngate: exit %d (%s)\n", out, code,
           code == VKB_GATE_OK ? (oc.raw_code == VKB_GATE_INCONCLUSIVE ? "inconclusive, allowed by --allow-inconclusive"
                                  : "no regression")
           : code == VKB_GATE_PERF ? "performance regression" : code == VKB_GATE_CORRECTNESS ? "correctness regression"
           : why);
    vkb_cmp_rows_free(rows, (size_t)n);
    return code;
}
