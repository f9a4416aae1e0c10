/* unit_compare.c — unit tests of the regression gate (harness/compare.c), included by unit.c so its
 * groups share the CHECK macros and the runner table. Expected values are worked out in the comments. */
#include <sys/stat.h>

#include "compare.h"

/* A side from n samples x[i] = base * (1 + spread * ((i * 37) % n) / n): a deterministic spread of
 * `spread` around base, in k clusters of n / k. */
static void fill_side(vkb_cmp_side *s, size_t n, int k, double base, double spread)
{
    double x[1000];
    for (size_t i = 0; i < n; i++) x[i] = base * (1 + spread * (double)((i * 37) % n) / (double)n);
    for (int c = 0; c < k; c++) vkb_cmp_side_add(s, x + (size_t)c * n / (size_t)k, n / (size_t)k);
}

static void test_cmp_min_p(void)
{
    CHECK_NEAR(vkb_mann_whitney_min_p(5, 5), 2.0 / 252, 1e-15);   /* C(10,5) = 252 */
    CHECK_NEAR(vkb_mann_whitney_min_p(6, 6), 2.0 / 924, 1e-15);   /* C(12,6) = 924 */
    CHECK_NEAR(vkb_mann_whitney_min_p(3, 3), 0.1, 1e-15);         /* 2/20 */
    CHECK(vkb_mann_whitney_min_p(0, 7) == 1.0 && vkb_mann_whitney_min_p(1, 1) == 1.0);   /* 2/2 */
}

static void test_cmp_bh(void)
{
    double padj[5];
    int rej[5];
    /* m = 5, q = .05: sorted .004 .01 .028 .039 .2 vs k q / m = .01 .02 .03 .04 .05 -> the first four.
     * q-values, from the top: .2; .039*5/4 = .04875; min(.04875, .028*5/3 = .046667); .01*5/2 = .025;
     * min(.025, .004*5 = .02) = .02. */
    const double p[5] = {0.01, 0.039, 0.028, 0.004, 0.20};
    CHECK(vkb_cmp_bh(p, 5, 0.05, padj, rej) == 4);
    CHECK(rej[0] && rej[1] && rej[2] && rej[3] && !rej[4]);
    CHECK_NEAR(padj[0], 0.025, 1e-15);
    CHECK_NEAR(padj[1], 0.04875, 1e-15);
    CHECK_NEAR(padj[2], 0.028 * 5 / 3, 1e-15);
    CHECK_NEAR(padj[3], 0.02, 1e-15);
    CHECK_NEAR(padj[4], 0.2, 1e-15);
    /* Step-up: .045 .046 .047 .048 (m = 4); only p(4) = .048 <= 4 q / 4, which rejects all four, though
     * p(1) = .045 > q / 4 = .0125 (Bonferroni would reject none). Every q-value is .048. */
    const double s[4] = {0.047, 0.045, 0.048, 0.046};
    CHECK(vkb_cmp_bh(s, 4, 0.05, padj, rej) == 4);
    CHECK_NEAR(padj[1], 0.048, 1e-15);
    /* NaN is outside the family: m = 1 and p = .01 stays .01. */
    const double w[2] = {NAN, 0.01};
    CHECK(vkb_cmp_bh(w, 2, 0.05, padj, rej) == 1);
    CHECK(isnan(padj[0]) && !rej[0] && rej[1]);
    CHECK_NEAR(padj[1], 0.01, 1e-15);
}

static void test_cmp_bootstrap(void)
{
    /* b = 1.1 a exactly in distribution: the true ratio of medians is 1.1 (a's median is
     * 1 + .02 * 24.5 / 50 = 1.0098, b's 1.1 times that). */
    vkb_cmp_side a = {0}, b = {0}, a5 = {0}, b5 = {0};
    double lo, hi, lo2, hi2;
    fill_side(&a, 50, 1, 1.0, 0.02);
    fill_side(&b, 50, 1, 1.1, 0.02);
    double r = vkb_cmp_ratio_ci(&a, &b, 2000, 7, 0.95, &lo, &hi);
    CHECK_NEAR(r, 1.1, 1e-12);
    CHECK(lo < 1.1 && 1.1 < hi && lo > 1.08 && hi < 1.12);
    CHECK(vkb_cmp_ratio_ci(&a, &b, 2000, 7, 0.95, &lo2, &hi2) == r && lo2 == lo && hi2 == hi);  /* seeded */
    /* Five launches per side (clusters): still covers 1.1, and no narrower than one pooled launch. */
    fill_side(&a5, 50, 5, 1.0, 0.02);
    fill_side(&b5, 50, 5, 1.1, 0.02);
    CHECK(a5.k == 5 && a5.n == 50 && a5.end[4] == 50);
    r = vkb_cmp_ratio_ci(&a5, &b5, 2000, 7, 0.95, &lo2, &hi2);
    CHECK(lo2 < 1.1 && 1.1 < hi2);
    vkb_cmp_side e = {0};
    CHECK(isnan(vkb_cmp_ratio_ci(&e, &b, 100, 1, 0.95, &lo, &hi)) && isnan(lo));
    vkb_cmp_side_free(&a);
    vkb_cmp_side_free(&b);
    vkb_cmp_side_free(&a5);
    vkb_cmp_side_free(&b5);
}

/* A side of k launches of n samples each; launch c's samples sit within 0.1% above med[c]. */
static void fill_launches(vkb_cmp_side *s, int k, size_t n, const double *med)
{
    double x[200];
    for (int c = 0; c < k; c++) {
        for (size_t i = 0; i < n; i++) x[i] = med[c] * (1 + 0.001 * (double)((i * 37) % n) / (double)n);
        vkb_cmp_side_add(s, x, n);
    }
}

static void test_cmp_launch_t(void)
{
    /* Launch medians e^{0, .02, -.02} vs e^{.1, .12, .08}: log means 0 and .1, variances .0004 each, so
     * se = sqrt(2 * .0004 / 3), t = .1 / se = sqrt(37.5), Welch df = 4. For 4 df the two-sided p is
     * 1 - x (3 - x^2) / 2 with x = t / sqrt(t^2 + 4) (= .0036022); the 95% CI is exp(.1 +- 2.776445105 se).
     * Samples are 1.0 .. 1.001 x the launch's value, so each launch median is med * (1 + .001 * 24.5/50):
     * a common factor, which cancels in the differences. */
    const double ma[3] = {1, exp(0.02), exp(-0.02)}, mb[3] = {exp(0.1), exp(0.12), exp(0.08)};
    vkb_cmp_side a = {0}, b = {0}, one = {0};
    double lo, hi, t = sqrt(37.5), x = t / sqrt(t * t + 4), se = sqrt(0.0008 / 3);
    fill_launches(&a, 3, 50, ma);
    fill_launches(&b, 3, 50, mb);
    CHECK_NEAR(vkb_cmp_launch_t(&a, &b, 0.95, &lo, &hi), 1 - x * (3 - x * x) / 2, 1e-9);
    CHECK_NEAR(lo, exp(0.1 - 2.776445105 * se), 1e-8);
    CHECK_NEAR(hi, exp(0.1 + 2.776445105 * se), 1e-8);
    CHECK_NEAR(vkb_cmp_launch_t(&b, &a, 0.95, &lo, &hi), 1 - x * (3 - x * x) / 2, 1e-9);   /* symmetric */
    CHECK_NEAR(lo * hi, exp(-0.2), 1e-9);
    /* Unbalanced: 2 launches (log medians 0, .1: variance .005) vs 5 (.30 .. .38: variance .001), so the
     * Welch-Satterthwaite df is .0027^2 / (.0025^2 / 1 + .0002^2 / 4) = 1.1645 (pooled Student: 5, which
     * would give p ~ .0025), t = .29 / sqrt(.0027) = 5.581, two-sided p = .088209 and t(.975, 1.1645) =
     * 9.1589 (numerical integration of the t density, done beside this test). */
    {
        const double u2[2] = {1, exp(0.1)}, u5[5] = {exp(0.30), exp(0.32), exp(0.34), exp(0.36), exp(0.38)};
        vkb_cmp_side s2 = {0}, s5 = {0};
        fill_launches(&s2, 2, 20, u2);
        fill_launches(&s5, 5, 20, u5);
        CHECK_NEAR(vkb_cmp_launch_t(&s2, &s5, 0.95, &lo, &hi), 0.088209, 2e-5);
        CHECK_NEAR(lo, exp(0.29 - 9.158865 * sqrt(0.0027)), 1e-4);
        CHECK_NEAR(hi, exp(0.29 + 9.158865 * sqrt(0.0027)), 1e-4);
        /* An empty launch has no median: no launch-level test rather than a fake one. */
        const double none = 0;
        vkb_cmp_side_add(&s2, &none, 0);
        CHECK(isnan(vkb_cmp_launch_t(&s2, &s5, 0.95, &lo, &hi)) && isnan(lo));
        vkb_cmp_side_free(&s2);
        vkb_cmp_side_free(&s5);
    }
    fill_launches(&one, 1, 50, ma);   /* one launch: no between-launch variance to test against */
    CHECK(isnan(vkb_cmp_launch_t(&a, &one, 0.95, &lo, &hi)) && isnan(lo) && isnan(hi));
    CHECK(vkb_cmp_launch_t(&a, &a, 0.95, &lo, &hi) == 1.0 && lo < 1 && hi > 1);
    CHECK_NEAR(lo * hi, 1, 1e-12);
    /* No spread at all (every launch median equal): the point itself, p 1 when equal, 0 when not. */
    const double c1[2] = {1e-3, 1e-3}, c2[2] = {2e-3, 2e-3};
    vkb_cmp_side f1 = {0}, f2 = {0};
    fill_launches(&f1, 2, 10, c1);
    fill_launches(&f2, 2, 10, c2);
    CHECK(vkb_cmp_launch_t(&f1, &f1, 0.95, &lo, &hi) == 1.0 && lo == 1 && hi == 1);
    CHECK(vkb_cmp_launch_t(&f1, &f2, 0.95, &lo, &hi) == 0.0);
    CHECK_NEAR(lo, 2, 1e-12);
    vkb_cmp_side_free(&f1);
    vkb_cmp_side_free(&f2);
    vkb_cmp_side_free(&a);
    vkb_cmp_side_free(&b);
    vkb_cmp_side_free(&one);
}

/* The CI failure this guards against (lavapipe on a busy 2-core host): launches drift by 10-60% while each
 * launch is tight, so the pooled samples separate completely (Mann-Whitney p ~ 1e-30) and the cluster
 * bootstrap over a few launches cannot see the drift. The launch is the unit: an A/A pair like this must
 * not be SLOWER at a 15% floor, a 3x slowdown under the same drift still is, and 3 vs 3 launches (exact
 * p >= 2/20) can never be significant, whatever a t test would say of bimodal launches. */
static void test_cmp_launch_drift(void)
{
    vkb_cmp_opts o;
    vkb_cmp_opts_init(&o);
    o.resamples = 2000;
    const double a[5] = {1.00e-3, 1.12e-3, 0.95e-3, 1.30e-3, 0.98e-3}, aa[5] = {1.25e-3, 1.10e-3, 1.31e-3, 1.28e-3, 1.15e-3};
    const double s3[5] = {3.0e-3, 3.4e-3, 2.9e-3, 3.9e-3, 3.1e-3};
    /* bimodal, as measured: every A launch slow, every B launch fast (t test p ~ .007, exact p = .1) */
    const double slow3[3] = {0.736e-3, 0.741e-3, 0.759e-3}, fast3[3] = {0.459e-3, 0.530e-3, 0.487e-3};
    const double same3[3] = {0.737e-3, 0.742e-3, 0.758e-3};
    vkb_cmp_row r[4];
    for (int i = 0; i < 4; i++) {
        memset(&r[i], 0, sizeof(r[i]));
        snprintf(r[i].kernel, sizeof(r[i].kernel), "%s", i == 0 ? "aa" : i == 1 ? "slowed" : i == 2 ? "bimodal" : "same3");
        snprintf(r[i].correctness, sizeof(r[i].correctness), "ok");
        r[i].delta = 0.15;
        r[i].testable = 1;
        fill_launches(&r[i].base, i >= 2 ? 3 : 5, 40, i >= 2 ? slow3 : a);
        fill_launches(&r[i].cand, i >= 2 ? 3 : 5, 40, i == 0 ? aa : i == 1 ? s3 : i == 2 ? fast3 : same3);
        vkb_cmp_measure(&r[i], &o);
    }
    CHECK(r[0].p_samples < 1e-6);                  /* the pooled test alone would call it */
    CHECK(r[0].p_launches > 0.01 && r[0].p == r[0].p_launches);
    CHECK_NEAR(r[1].p_launches, 2.0 / 252, 1e-12); /* 5 vs 5, completely separated: the exact minimum */
    CHECK_NEAR(r[2].p_launches, 0.1, 1e-12);       /* 3 vs 3, completely separated */
    CHECK(vkb_cmp_decide(r, 4, &o) == 2);          /* 3 vs 3 launches stay out of the family */
    CHECK(strcmp(r[0].verdict, "SLOWER") != 0);
    CHECK(r[0].ci_lo < 1.15);                      /* the t interval widened the bootstrap one */
    CHECK_STR(r[1].verdict, "SLOWER");
    CHECK(r[1].ci_lo > 2 && r[1].significant);
    CHECK_STR(r[2].verdict, "INCONCLUSIVE");
    CHECK_HAS(r[2].reason, "too few launches: 3 vs 3");
    /* Out of the family is not out of SAME: 3 vs 3 launches within 0.2% of each other, their CI inside the
     * 15% floor, are SAME, as 1 vs 1 would be (more launches must never judge worse than fewer). */
    CHECK_STR(r[3].verdict, "SAME");
    CHECK(r[3].ci_lo > 1 / 1.15 && r[3].ci_hi < 1.15 && isnan(r[3].p_bh) && !r[3].undecided);
    for (int i = 0; i < 4; i++) vkb_cmp_side_free(&r[i].base), vkb_cmp_side_free(&r[i].cand);
}

/* One testable row from two synthetic sides. */
static void make_row(vkb_cmp_row *r, const char *kernel, size_t na, size_t nb, double base, double cand, double spread)
{
    memset(r, 0, sizeof(*r));
    snprintf(r->kernel, sizeof(r->kernel), "%s", kernel);
    snprintf(r->correctness, sizeof(r->correctness), "ok");
    r->delta = 0.03;
    r->testable = 1;
    fill_side(&r->base, na, 1, base, spread);
    fill_side(&r->cand, nb, 1, cand, spread);
}

static void test_cmp_verdicts(void)
{
    vkb_cmp_opts o;
    vkb_cmp_opts_init(&o);
    o.resamples = 2000;
    o.allow_one_launch = 1;   /* these rows hold one launch a side: the rule itself is tested below */
    vkb_cmp_row r[7];
    make_row(&r[0], "same", 200, 200, 1e-3, 1e-3, 0.01);        /* identical: CI around 1, well inside 3% */
    make_row(&r[1], "slower", 200, 200, 1e-3, 1.10e-3, 0.01);   /* +10%: p ~ 0, CI near 1.10 */
    make_row(&r[2], "faster", 200, 200, 1e-3, 0.90e-3, 0.01);   /* -10% */
    make_row(&r[3], "noisy", 30, 30, 1e-3, 1.05e-3, 1.0);       /* spread 100%: CI spans the floor */
    make_row(&r[4], "few", 3, 3, 1e-3, 2e-3, 0.01);             /* 3 vs 3: below min_samples 5 */
    make_row(&r[5], "small", 200, 200, 1e-3, 1.01e-3, 0.01);    /* +1%: significant but inside the floor */
    make_row(&r[6], "minp", 5, 5, 1e-3, 1.5e-3, 0.01);          /* 5 vs 5: min p 2/252 < q, testable */
    for (int i = 0; i < 7; i++) vkb_cmp_measure(&r[i], &o);
    CHECK(vkb_cmp_decide(r, 7, &o) == 6);                      /* "few" is kept out of the family */
    CHECK_STR(r[0].verdict, "SAME");
    CHECK_STR(r[1].verdict, "SLOWER");
    CHECK(r[1].significant && r[1].ci_lo > 1.03 && r[1].mde80 > 0.03);
    CHECK_STR(r[2].verdict, "FASTER");
    CHECK_STR(r[3].verdict, "INCONCLUSIVE");
    CHECK_HAS(r[3].reason, "too noisy");
    CHECK_STR(r[4].verdict, "INCONCLUSIVE");
    CHECK_HAS(r[4].reason, "too few samples (3 baseline, 3 candidate");
    CHECK_STR(r[5].verdict, "SAME");
    CHECK_STR(r[6].verdict, "SLOWER");                        /* exact p = 2/252 = .0079 */
    CHECK_NEAR(r[6].p, 2.0 / 252, 1e-12);
    CHECK(vkb_cmp_exit_code(r, 7) == VKB_GATE_PERF);
    CHECK(vkb_cmp_exit_code(r, 1) == VKB_GATE_OK);
    CHECK(r[3].undecided && r[4].undecided && !r[0].undecided && !r[1].undecided);
    CHECK(vkb_cmp_exit_code(r + 3, 2) == VKB_GATE_INCONCLUSIVE);   /* "noisy" and "few": the gate could not decide */
    CHECK(vkb_cmp_exit_code(r + 2, 3) == VKB_GATE_INCONCLUSIVE);   /* FASTER does not make it green */
    /* The one-launch rule: FASTER/SLOWER withheld (INCONCLUSIVE, undecided, out of BH: a family of none); SAME
     * still allowed. */
    o.allow_one_launch = 0;
    CHECK(vkb_cmp_decide(r, 7, &o) == 0);
    CHECK_STR(r[0].verdict, "SAME");
    CHECK_STR(r[1].verdict, "INCONCLUSIVE");
    CHECK_HAS(r[1].reason, "one launch per side: between-launch variance unknown (1 vs 1 launches");
    CHECK(r[1].undecided && isnan(r[1].p_bh) && !r[1].significant);
    CHECK_STR(r[2].verdict, "INCONCLUSIVE");
    CHECK_STR(r[6].verdict, "INCONCLUSIVE");
    CHECK(vkb_cmp_exit_code(r, 7) == VKB_GATE_INCONCLUSIVE);
    o.allow_one_launch = 1;
    CHECK(vkb_cmp_decide(r, 7, &o) == 6);
    snprintf(r[0].correctness, sizeof(r[0].correctness), "REGRESSION");
    CHECK(vkb_cmp_exit_code(r, 7) == VKB_GATE_CORRECTNESS);    /* correctness wins over SLOWER */
    /* 3 vs 3 with min_samples 2: testable, but min p = .1 > q: never significant. */
    vkb_cmp_row t;
    make_row(&t, "tiny", 3, 3, 1e-3, 2e-3, 0.01);
    o.min_samples = 2;
    vkb_cmp_measure(&t, &o);
    CHECK(vkb_cmp_decide(&t, 1, &o) == 0);
    CHECK_STR(t.verdict, "INCONCLUSIVE");
    CHECK_HAS(t.reason, "can reach p >= 0.1 > q = 0.05");
    vkb_cmp_rows_free(NULL, 0);
    for (int i = 0; i < 7; i++) vkb_cmp_side_free(&r[i].base), vkb_cmp_side_free(&r[i].cand);
    vkb_cmp_side_free(&t.base);
    vkb_cmp_side_free(&t.cand);
}

/* A run directory with two cases, add with add_status and sum with sum_status, 40 samples each at `scale`
 * when PASS or TIMED (sample 7 of add NA when nan_sample). */
static void write_run2(const char *dir, const char *device, double scale, const char *add_status, const char *sum_status,
                       int below, int nan_sample)
{
    char path[600];
    mkdir(dir, 0777);
    snprintf(path, sizeof(path), "%s/results.csv", dir);
    FILE *f = fopen(path, "w"), *s;
    snprintf(path, sizeof(path), "%s/samples.csv", dir);
    s = fopen(path, "w");
    if (!f || !s) { CHECK(0); if (f) fclose(f); if (s) fclose(s); return; }
    vkb_result_write_header(f);
    vkb_samples_write_header(s);
    for (int c = 0; c < 2; c++) {
        vkb_result r;
        double t[40];
        vkb_result_init(&r);
        snprintf(r.device, sizeof(r.device), "%s", device);
        snprintf(r.driver, sizeof(r.driver), "drv 1");
        snprintf(r.kernel, sizeof(r.kernel), c ? "sum" : "add");
        snprintf(r.variant, sizeof(r.variant), "default");
        snprintf(r.params, sizeof(r.params), "n=1000");
        snprintf(r.dtype, sizeof(r.dtype), "f32");
        snprintf(r.mode, sizeof(r.mode), "hot");
        snprintf(r.status, sizeof(r.status), "%s", c ? sum_status : add_status);
        r.case_id = c;
        r.below_floor = c == 0 && below == 1;
        if (c == 0 && below == 2) snprintf(r.clock_check, sizeof(r.clock_check), "low: 412 of 1980 MHz");
        if (!strcmp(r.status, "PASS") || !strcmp(r.status, "TIMED")) {
            for (int i = 0; i < 40; i++) t[i] = scale * 1e-3 * (1 + 0.01 * (double)((i * 7) % 40) / 40);
            if (nan_sample && c == 0) t[7] = NAN;
            r.samples = 40;
            vkb_samples_write(s, r.case_id, t, 40, 1);
        }
        vkb_result_write_row(f, &r);
    }
    fclose(f);
    fclose(s);
}

static void write_run(const char *dir, const char *device, double scale, const char *sum_status, int below)
{
    write_run2(dir, device, scale, "PASS", sum_status, below, 0);
}

/* vkb_compare_cmd on writable copies of args (getopt may permute argv); stdout and stderr muted. */
static int compare_run(int argc, const char *const *args)
{
    char buf[10][600], *argv[11];
    for (int i = 0; i < argc && i < 10; i++) snprintf(buf[i], sizeof(buf[i]), "%s", args[i]), argv[i] = buf[i];
    argv[argc] = NULL;
    FILE *o = stdout, *e = stderr;
    stdout = fopen("/dev/null", "w");   /* the markdown table is not what this test reads */
    stderr = fopen("/dev/null", "w");
    int rc = vkb_compare_cmd(argc, argv);
    fclose(stdout);
    fclose(stderr);
    stdout = o;
    stderr = e;
    return rc;
}

static int compare_exit(const char *a, const char *b, const char *out)
{
    const char *args[] = {"compare", a, b, "--out", out, "--no-plot", "--resamples", "500"};
    return compare_run(8, args);
}

static int compare_exit_with(const char *a, const char *b, const char *out, const char *opt, const char *opt2)
{
    const char *args[] = {"compare", a, b, "--out", out, "--no-plot", "--resamples", "500", opt, opt2};
    return compare_run(8 + (opt != NULL) + (opt2 != NULL), args);
}

/* The whole of a small text file into buf (empty when missing). */
static const char *slurp(const char *dir, const char *name, char *buf, size_t len)
{
    char path[700];
    snprintf(path, sizeof(path), "%s/%s", dir, name);
    FILE *f = fopen(path, "r");
    size_t k = f ? fread(buf, 1, len - 1, f) : 0;
    buf[k] = 0;
    if (f) fclose(f);
    return buf;
}

static void remove_run(const char *dir)
{
    static const char *const files[] = {"results.csv", "samples.csv", "verdicts.csv", "compare.md", "ratios.tsv",
                                        "summary.md", "junit.xml"};
    char path[700];
    for (size_t i = 0; i < sizeof(files) / sizeof(files[0]); i++) {
        snprintf(path, sizeof(path), "%s/%s", dir, files[i]);
        remove(path);
    }
    rmdir(dir);
}

/* dir/run1 .. dir/runK: K launches, launch c at scale * (1 + 0.003 c) (order reversed when rev); the first
 * launch's add row has status first, the others rest. */
static void write_launches(const char *dir, int k, double scale, int rev, const char *first, const char *rest)
{
    char run[600];
    mkdir(dir, 0777);
    for (int c = 0; c < k; c++) {
        snprintf(run, sizeof(run), "%s/run%d", dir, c + 1);
        write_run2(run, "gpu0", scale * (1 + 0.003 * (rev ? k - 1 - c : c)), c ? rest : first, "PASS", 0, 0);
    }
}

static void remove_launches(const char *dir, int k)
{
    char run[600];
    for (int c = 0; c < k; c++) {
        snprintf(run, sizeof(run), "%s/run%d", dir, c + 1);
        remove_run(run);
    }
    remove_run(dir);
}

/* Fail closed (issue 13): what could not be decided is not green, a run is not its own baseline, one
 * launch a side decides nothing, bad input names file:line and column; TIMED rows are timed but establish
 * no correctness; JUnit and the CI summary say the same as the exit status. */
static void cmp_fail_closed(const char *base, const char *out)
{
    char b5[400], s5[400], a5[400], t5[400], tall[400], skip1[400], nan[400], nocol[400], bad[400], run1[500], path[700];
    char err[600], note[400], text[8192];
    snprintf(b5, sizeof(b5), "%s_b5", base);
    snprintf(s5, sizeof(s5), "%s_s5", base);
    snprintf(a5, sizeof(a5), "%s_a5", base);
    snprintf(t5, sizeof(t5), "%s_t5", base);
    snprintf(tall, sizeof(tall), "%s_tall", base);
    snprintf(skip1, sizeof(skip1), "%s_skip1", base);
    snprintf(nan, sizeof(nan), "%s_nan", base);
    snprintf(nocol, sizeof(nocol), "%s_nocol", base);
    snprintf(bad, sizeof(bad), "%s_bad", base);
    write_launches(b5, 5, 1.0, 0, "PASS", "PASS");
    write_launches(s5, 5, 1.2, 0, "PASS", "PASS");    /* +20%, launches completely separated: exact p = 2/252 */
    write_launches(a5, 5, 1.0, 1, "PASS", "PASS");    /* the same launch medians in the other order */
    write_launches(t5, 5, 1.0, 1, "PASS", "TIMED");   /* checked once, then timed only (run --established) */
    write_launches(tall, 5, 1.0, 1, "TIMED", "TIMED");
    write_launches(skip1, 5, 1.2, 0, "SKIP", "PASS");   /* the first slowed launch failed its calibration */
    CHECK(compare_exit(b5, s5, out) == VKB_GATE_PERF);
    CHECK_HAS(slurp(out, "junit.xml", text, sizeof(text)), "<testsuites name=\"vkbench compare\" tests=\"2\" failures=\"2\"");
    CHECK_HAS(text, "<failure message=\"SLOWER: ratio 1.2");
    CHECK_HAS(slurp(out, "summary.md", text, sizeof(text)), "## vkbench compare: performance regression (exit 1)");
    CHECK(compare_exit(b5, a5, out) == VKB_GATE_OK);   /* A/A over launches: SAME */
    /* One launch SKIPped add: the other 4 still count (4 vs 5, exact p 2/126, BH-significant beside sum's
     * 2/252), and the row says so. */
    CHECK(compare_exit(b5, skip1, out) == VKB_GATE_PERF);
    CHECK_HAS(slurp(out, "verdicts.csv", text, sizeof(text)), ",PASS,PASS,ok,SLOWER,0 baseline and 1 candidate launches SKIPped it");
    CHECK(compare_exit(b5, t5, out) == VKB_GATE_OK);   /* PASS + TIMED launches: timed, and checked once */
    CHECK_HAS(slurp(out, "verdicts.csv", text, sizeof(text)), ",PASS,PASS,ok,SAME,");
    /* TIMED only: timed (SAME), but its correctness rests on another run: undecided, exit 4. */
    CHECK(compare_exit(b5, tall, out) == VKB_GATE_INCONCLUSIVE);
    CHECK_HAS(slurp(out, "verdicts.csv", text, sizeof(text)), ",PASS,TIMED,unverified,SAME,");
    CHECK(compare_exit_with(b5, tall, out, "--allow-inconclusive", NULL) == VKB_GATE_OK);
    CHECK_HAS(slurp(out, "summary.md", text, sizeof(text)), "INCONCLUSIVE, allowed by --allow-inconclusive (exit 0)");
    CHECK_HAS(text, "`--allow-inconclusive`: undecided cases (1) do not fail this gate");
    /* A failing baseline and a TIMED candidate: not "fixed". */
    vkb_cmp_opts o;
    vkb_cmp_opts_init(&o);
    vkb_cmp_row *rows;
    int mismatch;
    write_run2(bad, "gpu0", 1.0, "FAIL", "PASS", 0, 0);
    long n = vkb_cmp_load(bad, tall, &o, 0, &rows, &mismatch, note, sizeof(note), err, sizeof(err));
    CHECK(n == 2 && !strcmp(rows[0].correctness, "unverified") && !strcmp(rows[0].base_status, "FAIL"));
    CHECK(n == 2 && !strcmp(rows[0].cand_status, "TIMED"));
    vkb_cmp_rows_free(rows, n > 0 ? (size_t)n : 0);
    /* One launch a side: SLOWER withheld (exit 4) unless --allow-one-launch, which the summary echoes. */
    snprintf(run1, sizeof(run1), "%s/run1", s5);
    CHECK(compare_exit(base, run1, out) == VKB_GATE_INCONCLUSIVE);
    CHECK_HAS(slurp(out, "verdicts.csv", text, sizeof(text)), "INCONCLUSIVE,\"one launch per side: between-launch variance unknown");
    CHECK_HAS(slurp(out, "junit.xml", text, sizeof(text)), "<skipped message=\"INCONCLUSIVE");
    CHECK(compare_exit_with(base, run1, out, "--allow-one-launch", NULL) == VKB_GATE_PERF);
    CHECK_HAS(slurp(out, "summary.md", text, sizeof(text)), "`--allow-one-launch`: FASTER/SLOWER may come from one launch");
    /* Most timed cases INCONCLUSIVE: the summary says so first. */
    CHECK(compare_exit_with(b5, a5, out, "--min-samples", "100000") == VKB_GATE_INCONCLUSIVE);
    CHECK(!strncmp(slurp(out, "summary.md", text, sizeof(text)), "**INCONCLUSIVE: 2 of the 2 cases timed on both sides", 52));
    /* A baseline that is the candidate, or lies inside it (or holds it): exit 3, named. */
    snprintf(run1, sizeof(run1), "%s/run1", b5);
    CHECK(compare_exit(b5, b5, out) == VKB_GATE_INPUT);
    CHECK(compare_exit(run1, b5, out) == VKB_GATE_INPUT);
    CHECK(compare_exit(b5, run1, out) == VKB_GATE_INPUT);
    CHECK(vkb_cmp_load(b5, b5, &o, 0, &rows, &mismatch, note, sizeof(note), err, sizeof(err)) == -1);
    CHECK_HAS(err, "are the same: a comparison with itself proves nothing");
    CHECK(vkb_cmp_load(run1, b5, &o, 0, &rows, &mismatch, note, sizeof(note), err, sizeof(err)) == -1);
    CHECK_HAS(err, "overlap (the baseline lies inside the candidate)");
    /* A missing required column: file:1 and the column, exit 3 (not "new case" or "device mismatch"). */
    write_run(nocol, "gpu0", 1.0, "PASS", 0);
    snprintf(path, sizeof(path), "%s/results.csv", nocol);
    slurp(nocol, "results.csv", text, sizeof(text));
    char *dv = strstr(text, ",device,");
    FILE *f = dv ? fopen(path, "w") : NULL;
    if (f) { dv[4] = 'X'; fputs(text, f); fclose(f); }   /* ",devXce," */
    CHECK(vkb_cmp_load(base, nocol, &o, 0, &rows, &mismatch, note, sizeof(note), err, sizeof(err)) == -1);
    CHECK_HAS(err, "results.csv:1: missing required column 'device'");
    CHECK(compare_exit(base, nocol, out) == VKB_GATE_INPUT);
    /* An NA sample (never a measured time) and a literal NaN: refused with file:line, the column and the value. */
    write_run2(nan, "gpu0", 1.0, "PASS", "PASS", 0, 1);
    CHECK(vkb_cmp_load(base, nan, &o, 0, &rows, &mismatch, note, sizeof(note), err, sizeof(err)) == -1);
    CHECK_HAS(err, "samples.csv:9: column time_s: 'NA' is not a positive finite time");
    CHECK(compare_exit(base, nan, out) == VKB_GATE_INPUT);
    snprintf(path, sizeof(path), "%s/samples.csv", nan);
    slurp(nan, "samples.csv", text, sizeof(text));
    char *na = strstr(text, ",NA,");
    f = na ? fopen(path, "w") : NULL;
    if (f) { fwrite(text, 1, (size_t)(na - text), f); fprintf(f, ",nan,%s", na + 4); fclose(f); }
    CHECK(vkb_cmp_load(base, nan, &o, 0, &rows, &mismatch, note, sizeof(note), err, sizeof(err)) == -1);
    CHECK_HAS(err, "samples.csv:9: column time_s: 'nan' is not a positive finite time");
    remove_launches(b5, 5);
    remove_launches(s5, 5);
    remove_launches(a5, 5);
    remove_launches(t5, 5);
    remove_launches(tall, 5);
    remove_launches(skip1, 5);
    remove_run(nan);
    remove_run(nocol);
    remove_run(bad);
}

static void test_cmp_files(void)
{
    char base[400], same[400], slow[400], broken[400], other[400], out[400], path[600], err[600], note[400];
    snprintf(base, sizeof(base), "%s/vkb_unit_%d_base", g_tmpdir, (int)getpid());
    snprintf(same, sizeof(same), "%s/vkb_unit_%d_same", g_tmpdir, (int)getpid());
    snprintf(slow, sizeof(slow), "%s/vkb_unit_%d_slow", g_tmpdir, (int)getpid());
    snprintf(broken, sizeof(broken), "%s/vkb_unit_%d_broken", g_tmpdir, (int)getpid());
    snprintf(other, sizeof(other), "%s/vkb_unit_%d_other", g_tmpdir, (int)getpid());
    snprintf(out, sizeof(out), "%s/vkb_unit_%d_cmpout", g_tmpdir, (int)getpid());
    write_run(base, "gpu0", 1.0, "PASS", 0);
    write_run(same, "gpu0", 1.0, "PASS", 0);
    write_run(slow, "gpu0", 1.2, "PASS", 0);
    write_run(broken, "gpu0", 1.0, "FAIL", 0);
    write_run(other, "gpu1", 1.0, "PASS", 0);
    CHECK(compare_exit(base, same, out) == VKB_GATE_OK);
    CHECK(compare_exit(base, slow, out) == VKB_GATE_INCONCLUSIVE);   /* +20% on both cases, one launch a side */
    CHECK(compare_exit_with(base, slow, out, "--allow-one-launch", NULL) == VKB_GATE_PERF);
    CHECK(compare_exit(base, broken, out) == VKB_GATE_CORRECTNESS);
    CHECK(compare_exit(base, other, out) == VKB_GATE_INPUT);      /* device mismatch: timings refused */
    CHECK(compare_exit(base, "/no/such/dir", out) == VKB_GATE_INPUT);
    const char *bad[] = {"compare", "--threshold", "x", base, same};
    CHECK(compare_run(5, bad) == VKB_GATE_INPUT);
    const char *one[] = {"compare", base};
    CHECK(compare_run(2, one) == VKB_GATE_INPUT);
    /* The loaded rows: correctness classes, mismatch note, verdicts file. */
    vkb_cmp_opts o;
    vkb_cmp_opts_init(&o);
    vkb_cmp_row *rows;
    int mismatch;
    long n = vkb_cmp_load(base, broken, &o, 0, &rows, &mismatch, note, sizeof(note), err, sizeof(err));
    CHECK(n == 2 && !mismatch);
    if (n == 2) {
        CHECK_STR(rows[1].correctness, "REGRESSION");
        CHECK(!rows[1].testable && rows[0].testable);
    }
    vkb_cmp_rows_free(rows, n > 0 ? (size_t)n : 0);
    n = vkb_cmp_load(base, other, &o, 0, &rows, &mismatch, note, sizeof(note), err, sizeof(err));
    CHECK(n == 2 && mismatch);
    CHECK_HAS(note, "device mismatch: baseline 'gpu0' (driver drv 1) vs candidate 'gpu1'");
    CHECK(n == 2 && !rows[0].testable && !strcmp(rows[0].correctness, "ok"));
    vkb_cmp_rows_free(rows, n > 0 ? (size_t)n : 0);
    /* Truncated samples: results.csv says 40, samples.csv was cut -> refused with the file named. */
    snprintf(path, sizeof(path), "%s/samples.csv", same);
    CHECK(truncate(path, 200) == 0);
    CHECK(vkb_cmp_load(base, same, &o, 0, &rows, &mismatch, note, sizeof(note), err, sizeof(err)) == -1);
    CHECK_HAS(err, "samples.csv");
    CHECK(strstr(err, "samples, but") || strstr(err, ":"));
    /* Truncated results.csv (a row cut mid-line): the reader's file:line message. */
    snprintf(path, sizeof(path), "%s/results.csv", slow);
    FILE *f = fopen(path, "a");
    if (f) { fputs("2023,abc", f); fclose(f); }
    CHECK(vkb_cmp_load(slow, base, &o, 0, &rows, &mismatch, note, sizeof(note), err, sizeof(err)) == -1);
    CHECK_HAS(err, "results.csv:4: expected");
    CHECK(compare_exit(slow, base, out) == VKB_GATE_INPUT);
    /* Below the timer floor: INCONCLUSIVE with that reason. */
    write_run(same, "gpu0", 1.0, "PASS", 1);
    CHECK(compare_exit(base, same, out) == VKB_GATE_OK);
    snprintf(path, sizeof(path), "%s/verdicts.csv", out);
    f = fopen(path, "r");
    char line[1024] = "", all[4096] = "";
    while (f && fgets(line, sizeof(line), f)) strncat(all, line, sizeof(all) - strlen(all) - 1);
    if (f) fclose(f);
    CHECK_HAS(all, "INCONCLUSIVE,below the timer floor");
    CHECK_HAS(all, "kernel,variant,params,dtype,mode,base_status,cand_status,correctness,verdict,reason");
    /* Timed at a low GPU clock (below = 2 writes clock_check "low: ..." on the add row): not compared, and the
     * gate cannot call the run green (exit 4), where the same samples with a normal clock pass (exit 0 above). */
    write_run(same, "gpu0", 1.0, "PASS", 2);
    CHECK(compare_exit(base, same, out) == VKB_GATE_INCONCLUSIVE);
    CHECK_HAS(slurp(out, "verdicts.csv", all, sizeof(all)), "INCONCLUSIVE,\"timed at a low GPU clock, not compared: "
              "candidate low: 412 of 1980 MHz\"");
    cmp_fail_closed(base, out);
    const char *dirs[] = {base, same, slow, broken, other, out};
    for (size_t d = 0; d < 6; d++) remove_run(dirs[d]);
}
