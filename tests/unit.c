/* unit.c — unit tests of the pure modules (no Vulkan, no device). Run: build/unit [root]; scratch files go to $TMPDIR or /tmp.
 * Expected values are worked out by hand in the comments, never by calling the code under test.
 * To add a group: write `static void test_x(void)` using CHECK*, and add a row to `tests[]`. */
#include <math.h>
#include <stdio.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <errno.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>
#include <gsl/gsl_randist.h>

#include "check.h"
#include "result.h"
#include "stats.h"
#include "../reference/decomp.h"
#include "../reference/bitnet_linear.h"
#include "suite.h"
#include "telemetry.h"
#include "report.h"
#include "rundir.h"
#include "devpeak.h"
#include "calibrate.h"
#include "vkb.h"
#include "report_impl.h"
#include "spvkhr.h"

static int g_fail, g_checks;
static const char *g_tmpdir = "/tmp";

#define CHECK(cond) do { g_checks++; if (!(cond)) { g_fail++; \
    fprintf(stderr, "  %s:%d: CHECK(%s) failed\n", __FILE__, __LINE__, #cond); } } while (0)
#define CHECK_NEAR(got, want, tol) do { double g_ = (got), w_ = (want); g_checks++; \
    if (!(fabs(g_ - w_) <= (tol))) { g_fail++; fprintf(stderr, "  %s:%d: %s = %.17g, want %.17g\n", \
    __FILE__, __LINE__, #got, g_, w_); } } while (0)
#define CHECK_STR(got, want) do { const char *g_ = (got), *w_ = (want); g_checks++; \
    if (strcmp(g_, w_)) { g_fail++; fprintf(stderr, "  %s:%d: %s = \"%s\", want \"%s\"\n", \
    __FILE__, __LINE__, #got, g_, w_); } } while (0)
#define CHECK_HAS(got, part) do { const char *g_ = (got), *w_ = (part); g_checks++; \
    if (!strstr(g_, w_)) { g_fail++; fprintf(stderr, "  %s:%d: \"%s\" lacks \"%s\"\n", \
    __FILE__, __LINE__, g_, w_); } } while (0)

/* ---- stats ---------------------------------------------------------------------------------- */

static void test_summary_1_to_10(void)
{
    double x[10] = {7, 3, 10, 1, 5, 2, 9, 4, 8, 6};   /* 1..10, shuffled */
    vkb_summary s;
    vkb_stats_summarise(x, 10, &s);
    CHECK(s.n == 10);
    CHECK(x[0] == 7 && x[9] == 6);                    /* input untouched */
    CHECK_NEAR(s.mean, 5.5, 1e-15);
    CHECK_NEAR(s.stddev, sqrt(82.5 / 9), 1e-12);      /* sum (i - 5.5)^2 = 82.5, n - 1 = 9 */
    CHECK_NEAR(s.median, 5.5, 0);
    /* GSL quantile: h = (n-1) f; q1: h = 2.25 -> 3 + .25 (4 - 3); q3: h = 6.75 -> 7 + .75 */
    CHECK_NEAR(s.q1, 3.25, 1e-15);
    CHECK_NEAR(s.q3, 7.75, 1e-15);
    CHECK_NEAR(s.min, 1, 0);
    CHECK_NEAR(s.max, 10, 0);
    CHECK_NEAR(s.rel_iqr, 4.5 / 5.5, 1e-15);
    CHECK_NEAR(s.rel_stddev, sqrt(82.5 / 9) / 5.5, 1e-12);
    CHECK(s.outliers == 0);                           /* fences -3.5 and 14.5 */
    /* n = 10: P(B <= 0) = 1/1024, P(B <= 1) = 11/1024, P(B <= 2) = 56/1024.
     * j = 2: coverage 1 - 22/1024 = .979; j = 3: 1 - 112/1024 = .891 < .95 -> ranks (2, 9). */
    CHECK_NEAR(s.ci_lo, 2, 0);
    CHECK_NEAR(s.ci_hi, 9, 0);
    CHECK(s.ci_lo <= s.median && s.median <= s.ci_hi);
}

static void test_summary_outliers(void)
{
    double x[10] = {13, 100, 11, 17, -50, 14, 10, 16, 12, 15};
    vkb_summary s;
    /* sorted: -50 10 11 12 13 14 15 16 17 100 */
    vkb_stats_summarise(x, 10, &s);
    CHECK_NEAR(s.mean, 15.8, 1e-12);                  /* (10+..+17 = 108) + 100 - 50 = 158 */
    CHECK_NEAR(s.median, 13.5, 0);
    CHECK_NEAR(s.q1, 11.25, 1e-15);                   /* x[2] = 11, x[3] = 12, .25 */
    CHECK_NEAR(s.q3, 15.75, 1e-15);                   /* x[6] = 15, x[7] = 16, .75 */
    CHECK(s.outliers == 2);                           /* fences 4.5 and 22.5: -50 and 100 */
    CHECK_NEAR(s.min, -50, 0);
    CHECK_NEAR(s.max, 100, 0);
    CHECK_NEAR(s.ci_lo, 10, 0);                       /* ranks 2 and 9 */
    CHECK_NEAR(s.ci_hi, 17, 0);
}

static void test_summary_ci_sizes(void)
{
    double x[100];
    vkb_summary s;
    for (int i = 0; i < 100; i++) x[i] = 100 - i;     /* 1..100 reversed */
    vkb_stats_summarise(x, 5, &s);                    /* 1 - 2/32 = .9375 < .95: no interval */
    CHECK(isnan(s.ci_lo) && isnan(s.ci_hi));
    vkb_stats_summarise(x + 94, 6, &s);               /* 1 - 2/64 = .969: min and max (1..6) */
    CHECK_NEAR(s.ci_lo, 1, 0);
    CHECK_NEAR(s.ci_hi, 6, 0);
    /* n = 100: coverage(40) = P(40 <= B <= 60) = .9648, coverage(41) = .9431 -> ranks (40, 61) */
    vkb_stats_summarise(x, 100, &s);
    CHECK_NEAR(s.ci_lo, 40, 0);
    CHECK_NEAR(s.ci_hi, 61, 0);
    CHECK_NEAR(s.median, 50.5, 0);
    vkb_stats_summarise(x, 0, &s);
    CHECK(s.n == 0 && isnan(s.mean) && isnan(s.median) && isnan(s.ci_lo) && s.outliers == 0);
    vkb_stats_summarise(x, 1, &s);
    CHECK(s.n == 1 && s.median == 100 && s.q1 == 100 && isnan(s.stddev));
}

/* vkb_batch_calls (timing.c's batch): batches of >= target seconds, at most 10000 calls, one call at or over the
 * target or for NAN (cold), whole rounds of the rotate copies. */
static void test_batch_calls(void)
{
    CHECK(vkb_batch_calls(5.2e-4, 2e-3, 1) == 4);      /* an fp16 4096 GEMM at a warm clock */
    CHECK(vkb_batch_calls(2.1e-3, 2e-3, 1) == 1);      /* the same call read 4x slow: one a batch */
    CHECK(vkb_batch_calls(2e-3, 2e-3, 1) == 1);
    CHECK(vkb_batch_calls(3e-6, 2e-3, 1) == 667);      /* a 3 us kernel: 2.001 ms batches */
    CHECK(vkb_batch_calls(1e-12, 2e-3, 1) == 10000);   /* capped */
    CHECK(vkb_batch_calls(0, 2e-3, 1) == 10000);
    CHECK(vkb_batch_calls(NAN, 2e-3, 3) == 3);         /* cold: one call, rounded to the copies */
    CHECK(vkb_batch_calls(5.2e-4, 2e-3, 3) == 6);      /* 4 -> two rounds of 3 copies */
    CHECK(vkb_batch_calls(1e-12, 2e-3, 7) == 10003);   /* the cap, then whole rounds */
}

static void test_stop_rule(void)
{
    vkb_stop s;
    int n;
    /* Constant 1/64 s: noise 0 from n = 5, min_time 0.5 reached exactly at n = 32. */
    vkb_stop_init(&s);
    CHECK(s.min_samples == 10 && s.max_samples == 100000 && s.min_time == 0.5);
    CHECK(s.max_noise == 0.005 && s.timeout == 15);
    for (n = 1; n < 1000 && !vkb_stop_add(&s, 1.0 / 64, 0.01 * n); n++) {}
    CHECK(n == 32);
    CHECK_STR(s.why, "noise");
    /* min_time 0: still never before min_samples. */
    vkb_stop_init(&s);
    s.min_time = 0;
    for (n = 1; n < 1000 && !vkb_stop_add(&s, 1e-3, 0.01 * n); n++) {}
    CHECK(n == 10);
    CHECK_STR(s.why, "noise");
    /* min_samples 3, 0.125 s: min_time met at n = 4, but noise needs >= 5 samples. */
    vkb_stop_init(&s);
    s.min_samples = 3;
    for (n = 1; n < 1000 && !vkb_stop_add(&s, 0.125, 0.01 * n); n++) {}
    CHECK(n == 5);
    /* Slow kernel, 2 s per sample: timeout (15 s) at n = 8, before min_samples. */
    vkb_stop_init(&s);
    for (n = 1; n < 1000 && !vkb_stop_add(&s, 2.0, 2.0 * n); n++) {}
    CHECK(n == 8);
    CHECK_STR(s.why, "timeout");
    vkb_stop_init(&s);                                /* one 100 s sample: stops with n = 1 */
    CHECK(vkb_stop_add(&s, 100, 100) == 1 && s.n == 1);
    /* Noisy (uniform in [1, 2], rel. stddev ~ 0.19) but stable: stops by noise-stable, and only
     * after more than 64 estimates (n > 68), on a multiple of 16. */
    vkb_stop_init(&s);
    unsigned long long lcg = 12345;
    for (n = 1; n < 100000; n++) {
        lcg = lcg * 6364136223846793005ULL + 1442695040888963407ULL;
        if (vkb_stop_add(&s, 1.0 + (double)(lcg >> 11) / 9007199254740992.0, 1e-4 * n)) break;
    }
    CHECK_STR(s.why ? s.why : "", "noise-stable");
    CHECK(n > 68 && n % 16 == 0 && n < 5000);
    /* Same stream, tight cap: max-samples. */
    vkb_stop_init(&s);
    s.max_samples = 20;
    for (n = 1; n < 1000 && !vkb_stop_add(&s, n % 2 ? 1.0 : 2.0, 1e-3 * n); n++) {}
    CHECK(n == 20);
    CHECK_STR(s.why, "max-samples");
}

/* The median-CI stop (stats.h, session 22): samples whose single-sample spread never meets max_noise stop once the
 * 95% interval of their median is within max_noise of it, not before VKB_CI_MIN_SAMPLES nor min_time, and the
 * median they stop on lies within that interval's half-width of the series' centre. Deterministic streams fed
 * through vkb_stop_next, as timing.c does. */
static size_t feed_ci(vkb_stop *s, double *y, size_t cap, double (*gen)(size_t, unsigned long long *))
{
    unsigned long long lcg = 777;
    size_t m = 0;
    for (size_t i = 1; i <= cap; i++) {
        y[m++] = gen(i, &lcg);
        if (vkb_stop_next(s, y, &m, 1, 1e-4 * (double)i)) break;
    }
    return m;
}
static double ci_uniform(size_t i, unsigned long long *lcg)   /* uniform in [1, 1.03]: rel. stddev 0.85% */
{
    (void)i;
    *lcg = *lcg * 6364136223846793005ULL + 1442695040888963407ULL;
    return 1.0 + 0.03 * (double)(*lcg >> 11) / 9007199254740992.0;
}
static double ci_spiky(size_t i, unsigned long long *lcg)   /* 1.0, every 10th 1.2: rel. stddev ~6%, median exact */
{
    (void)lcg;
    return i % 10 ? 1.0 : 1.2;
}
static double ci_sum4(unsigned long long *lcg)   /* a sum of 4 uniforms on [-0.5, 0.5): sd 1/sqrt(12/4) */
{
    double z = 0;
    for (int q = 0; q < 4; q++) {
        *lcg = *lcg * 6364136223846793005ULL + 1442695040888963407ULL;
        z += (double)(*lcg >> 11) / 9007199254740992.0 - 0.5;
    }
    return z;
}
static double ci_levels(size_t i, unsigned long long *lcg)   /* 0.6% sd, levels 0.8% apart 100 samples each */
{
    return 1 + 0.006 * 1.7320508 * ci_sum4(lcg) + ((i / 100) % 2 ? 0.008 : 0);
}
static double ci_saw(size_t i, unsigned long long *lcg)   /* 1 + 0.45% k, k = 0..7 */
{
    (void)lcg;
    return 1 + 0.0045 * (double)((i - 1) % 8);
}
static double ci_forming(size_t i, unsigned long long *lcg)   /* the spiky stream, 10% faster from 296 on */
{
    return i <= 295 ? ci_spiky(i, lcg) : 0.9;
}
static double ci_alt_then_spiky(size_t i, unsigned long long *lcg)   /* 1.3 / 1.35 alternating, 60 of them */
{
    return i <= 60 ? (i % 2 ? 1.3 : 1.35) : ci_spiky(i, lcg);
}
static void test_stop_median_ci(void)
{
    static double y[4000];
    vkb_stop s;
    vkb_stop_init(&s);
    s.min_time = 0;
    size_t m = feed_ci(&s, y, 4000, ci_spiky);   /* the interval is [1, 1] from the start: the first look stops */
    CHECK_STR(s.why ? s.why : "", "median-ci");
    CHECK(m == 64 && VKB_CI_MIN_SAMPLES == 64);
    y[m++] = 1.0;   /* sampling on past the stop (timing.c: the energy window not yet long enough): still stopped */
    CHECK(vkb_stop_next(&s, y, &m, 1, 1) == 1 && m == 65);
    CHECK_STR(s.why ? s.why : "", "median-ci");
    vkb_stop_init(&s);
    s.min_time = 0;
    s.min_samples = 100;   /* and not before min_samples */
    m = feed_ci(&s, y, 4000, ci_spiky);
    CHECK(m == 100);
    vkb_stop_init(&s);
    s.min_time = 80;   /* min_time (the samples' sum) holds it back: it stops on the first sample past 80 */
    m = feed_ci(&s, y, 4000, ci_spiky);
    CHECK_STR(s.why ? s.why : "", "median-ci");
    double sum = 0;
    size_t want = 0;
    while (sum < 80) sum += ci_spiky(++want, NULL);
    CHECK(m == want && want > VKB_CI_MIN_SAMPLES);
    vkb_stop_init(&s);
    s.min_time = 0;
    m = feed_ci(&s, y, 4000, ci_uniform);
    CHECK_STR(s.why ? s.why : "", "median-ci");
    CHECK(m > 100 && m < 400);   /* the interval's width ~ 3.9 x 0.0087 / sqrt(n) of the median: 0.5% near n = 130 */
    size_t look = 64;   /* it stopped on a look: 64, then every max(8, n / 16) */
    while (look < m) look += look / 16 > 8 ? look / 16 : 8;
    CHECK(look == m);
    vkb_summary sm;
    vkb_stats_summarise(y, m, &sm);
    CHECK(sm.ci_hi - sm.ci_lo <= 0.005 * sm.median);
    CHECK(fabs(sm.median / 1.015 - 1) < 0.0025);
    /* Autocorrelated samples: the same innovations (sums of 4 uniforms, 0.7% sd, so stdrel never stops them) as an
     * AR(1) series at phi 0.9 (from 200 steps in: stationary) and independent. Independent, it stops on the median's
     * precision; correlated, the interval is widened ~4x and it goes on to max_samples (unwidened, it stopped). */
    for (int ar = 0; ar < 2; ar++) {
        unsigned long long g = 4242;
        double prev = 0;
        vkb_stop_init(&s);
        s.min_time = 0;
        s.max_samples = 300;
        s.min_samples = 64;   /* stdrel over fewer correlated samples reads low: not what is under test */
        m = 0;
        for (long i = -200; i <= 4000; i++) {
            double z = 0.007 * 1.7320508 * ci_sum4(&g);   /* sd of a sum of 4 uniforms is 1/sqrt(3) */
            prev = ar ? 0.9 * prev + 0.43588989 * z : z;   /* sqrt(1 - 0.81): the same marginal sd */
            if (i < 1) continue;
            y[m++] = 1 + prev;
            if (vkb_stop_next(&s, y, &m, 1, 1e-4 * (double)i)) break;
        }
        if (ar) CHECK(strcmp(s.why ? s.why : "", "max-samples") == 0 && m == 300);
        else CHECK(!strcmp(s.why ? s.why : "", "median-ci") && m < 300);
    }
    /* Two levels 0.8% apart, 100 samples each in turn, under 0.6% white noise: the lag-1 correlation reads low and
     * the interval of the first 64 samples is narrow, but the medians of the eighths disagree: no median-ci stop
     * (the interval alone stopped at 64, on the lower level). */
    vkb_stop_init(&s);
    s.min_time = 0;
    s.min_samples = 64;
    s.max_samples = 1000;
    m = feed_ci(&s, y, 4000, ci_levels);
    CHECK(strcmp(s.why ? s.why : "", "median-ci") != 0 && m > 200);
    /* A sawtooth of period 8 (1 + 0.45% k, k = 0..7): each eighth of 64 samples is one period (their medians
     * agree exactly) and the interval is one step, 0.45%, but the ranks' lag-1 correlation (1/3) widens it to
     * 0.64%: no median-ci stop (unwidened, it stopped at 64). stdrel 1%: no noise stop either. */
    vkb_stop_init(&s);
    s.min_time = 0;
    s.max_samples = 400;
    m = feed_ci(&s, y, 4000, ci_saw);
    CHECK(strcmp(s.why ? s.why : "", "median-ci") != 0 && m > 64);
    /* A faster level forming after the first look: 295 samples of the spiky stream (min_samples 300: the first
     * look is at 300), then 0.9. At 300 the interval is [1, 1] and the eighths agree, but 5 of the last 16 samples
     * are 10% faster: no stop; the speed-up test then drops the first 295 samples, and it stops by noise on 300
     * samples of the new level. */
    vkb_stop_init(&s);
    s.min_time = 0;
    s.min_samples = 300;
    m = feed_ci(&s, y, 4000, ci_forming);
    CHECK(s.shifts == 1 && s.dropped == 295 && m == 300);
    CHECK_STR(s.why ? s.why : "", "noise");
    /* A speed-up restarts the test's schedule: 60 samples alternating 1.3 and 1.35 (an interval 4% wide: no stop;
     * its looks at 64 and 72 move the next one on), then the spiky stream at 1.0: the first 60 dropped at the step,
     * it stops on the first look at 64 kept samples. */
    vkb_stop_init(&s);
    s.min_time = 0;
    m = feed_ci(&s, y, 4000, ci_alt_then_spiky);
    CHECK(s.shifts == 1 && s.dropped == 60 && m == 64);
    CHECK_STR(s.why ? s.why : "", "median-ci");
}

/* Level shifts (stats.h): the GPU speeding up mid-case drops the slower samples before it; a slow-down, a step
 * under 4 max_noise, noise and single spikes do not; at most VKB_SHIFT_MAX a case. Deterministic sequences. */
static size_t feed_shifts(vkb_stop *s, const double *x, size_t n, size_t *first_at)
{
    static double y[4000];
    size_t m = 0;
    *first_at = 0;
    vkb_stop_init(s);
    s->min_time = 1e9;   /* never stop by the rule: only the shifts are under test */
    for (size_t i = 0; i < n; i++) {
        size_t shifts = s->shifts;
        y[m++] = x[i];
        vkb_stop_next(s, y, &m, 1, 1e-3 * (double)i);
        if (s->shifts > shifts && !*first_at) *first_at = i + 1;
    }
    return m;
}

static void test_stop_shift(void)
{
    static double x[4000];
    vkb_stop s;
    size_t at, m;
    /* 40 samples at 1.3 (jitter +-0.1%), then 1.0: found at the first check whose last 16 are all new
     * (checks at n = 32, 36, 40, ...: n = 56), 40 dropped, the step recorded. */
    for (int i = 0; i < 200; i++) x[i] = (i < 40 ? 1.3 : 1.0) * (1 + 1e-3 * ((i * 7) % 3 - 1));
    m = feed_shifts(&s, x, 200, &at);
    CHECK(s.shifts == 1 && s.dropped == 40 && at == 56 && m == 160);
    CHECK_NEAR(s.shift_rel, 1.0 / 1.3 - 1, 2e-3);
    /* The reverse (a slow-down), a 1.5% step (under 4 x 0.5%), uniform noise in [1, 2] and a spike every 10th
     * sample: none. */
    for (int i = 0; i < 200; i++) x[i] = i < 40 ? 1.0 : 1.3;
    feed_shifts(&s, x, 200, &at);
    CHECK(s.shifts == 0 && s.dropped == 0);
    for (int i = 0; i < 200; i++) x[i] = i < 40 ? 1.015 : 1.0;
    feed_shifts(&s, x, 200, &at);
    CHECK(s.shifts == 0);
    unsigned long long lcg = 99;
    for (int i = 0; i < 4000; i++) {
        lcg = lcg * 6364136223846793005ULL + 1442695040888963407ULL;
        x[i] = 1.0 + (double)(lcg >> 11) / 9007199254740992.0;
    }
    feed_shifts(&s, x, 4000, &at);
    CHECK(s.shifts == 0);
    for (int i = 0; i < 400; i++) x[i] = i % 10 == 9 ? 2.0 : 1.0;
    feed_shifts(&s, x, 400, &at);
    CHECK(s.shifts == 0);
    /* A 3% step is found (the threshold, 4 x 0.5% = 2%, from below), with the same drop. */
    for (int i = 0; i < 200; i++) x[i] = i < 40 ? 1.03 : 1.0;
    m = feed_shifts(&s, x, 200, &at);
    CHECK(s.shifts == 1 && s.dropped == 40 && m == 160);
    /* Switching between 1.0 and 1.1 every 8 samples (a steady, autocorrelated series): the two-plateau test needs
     * 16 on each side, so no shift; every 20 samples it is a shift each time (3, the cap). */
    for (int i = 0; i < 1000; i++) x[i] = (i / 8) % 2 ? 1.0 : 1.1;
    feed_shifts(&s, x, 1000, &at);
    CHECK(s.shifts == 0);
    for (int i = 0; i < 1000; i++) x[i] = (i / 20) % 2 ? 1.0 : 1.1;
    feed_shifts(&s, x, 1000, &at);
    CHECK(s.shifts == VKB_SHIFT_MAX);
    /* A long fast run after samples of which every third is as fast and the others 20% slower (no plateau before
     * the run): no shift. */
    for (int i = 0; i < 200; i++) x[i] = i < 100 && i % 3 ? 1.2 : 1.0;
    feed_shifts(&s, x, 200, &at);
    CHECK(s.shifts == 0);
    /* The boundaries, one call on a fresh state (40 samples at 1.3, then 1.0): the new level needs 16 samples; a
     * spike (a sample on the wrong side of the midpoint 1.15) in either level does not hide the step; the 16 before
     * it may hold VKB_SHIFT_SPIKES fast ones, not one more. */
    for (int i = 0; i < 60; i++) x[i] = i < 40 ? 1.3 : 1.0;
    vkb_stop_init(&s);
    CHECK(vkb_stop_shift(&s, x, 55) == 0);
    vkb_stop_init(&s);
    CHECK(vkb_stop_shift(&s, x, 56) == 40);
    x[45] = 1.2;
    vkb_stop_init(&s);
    CHECK(vkb_stop_shift(&s, x, 60) == 40);
    x[45] = 1.0, x[30] = 1.0;
    vkb_stop_init(&s);
    CHECK(vkb_stop_shift(&s, x, 60) == 40);
    x[26] = 1.0;
    vkb_stop_init(&s);
    CHECK(vkb_stop_shift(&s, x, 60) == 40);
    x[34] = 1.0;
    vkb_stop_init(&s);
    CHECK(vkb_stop_shift(&s, x, 60) == 0);
    /* Through the loop, the review's case: 40 at 1.05, then 1.0 with one 1.03 at sample 45 (above the midpoint
     * 1.025, in the new level's first 16): found, 40 dropped. */
    for (int i = 0; i < 400; i++) x[i] = i < 40 ? 1.05 : i == 45 ? 1.03 : 1.0;
    feed_shifts(&s, x, 400, &at);
    CHECK(s.shifts == 1 && s.dropped == 40);
    /* A staircase of six levels of 50 (five speed-ups): three are taken, each at its step (50, 100, 150 samples
     * before the kept run), then the samples after the third stay: 150 dropped, 150 kept. */
    for (int i = 0; i < 300; i++) x[i] = 2.0 - 0.2 * (i / 50);
    m = feed_shifts(&s, x, 300, &at);
    CHECK(s.shifts == VKB_SHIFT_MAX && s.dropped == 150 && m == 150);
    /* The drop restarts the rule's state from the kept samples: their count, sum and accumulated time, no noise
     * history but theirs, and the next shift check soon (a second step right after the first is found). */
    double y2[200];
    size_t n2 = 0;
    vkb_stop_init(&s);
    s.min_time = 1e9;
    for (int i = 0; i < 200; i++) {
        size_t shifts = s.shifts;
        y2[n2++] = i < 60 ? 1.5 : i < 100 ? 1.2 : 1.0;
        vkb_stop_next(&s, y2, &n2, 2, 0);
        if (s.shifts > shifts) {
            double acc = 0;
            for (size_t j = 0; j < n2; j++) acc += 2 * y2[j];
            CHECK(s.n == n2 && fabs(s.accumulated - acc) < 1e-12 && s.ring_n == (n2 >= 5 ? n2 - 4 : 0));
        }
    }
    CHECK(s.shifts == 2 && s.dropped == 100 && n2 == 100);
    /* Through the stop rule: 60 samples at 1.3 then 1.0, min_time 0, min_samples 64 (else it stops on the first
     * level, which is steady too): a noise stop on the new level only, after 64 of its samples. The median-CI
     * stop must not end it at n = 64 on the first level's median (4 samples of the new level in the last 16: a
     * level forming, which the speed-up test confirms only at 16). */
    double y[400];
    size_t n = 0;
    int stop = 0;
    vkb_stop_init(&s);
    s.min_time = 0;
    s.min_samples = 64;
    for (int i = 0; i < 400 && !stop; i++) {
        y[n++] = i < 60 ? 1.3 : 1.0;
        stop = vkb_stop_next(&s, y, &n, 1, 1e-3 * i);
    }
    CHECK(stop && s.shifts == 1 && s.dropped == 60 && n == 64);
    CHECK_STR(s.why ? s.why : "", "noise");
    for (size_t i = 0; i < n; i++) CHECK(y[i] == 1.0);
}

/* The exact two-sided rank-sum p by brute force: every choice of na of the pooled values as "a", midranks
 * recomputed for each; p = 2 min(P(R <= r), P(R >= r)), capped at 1. Independent of stats.c's recursion. */
static double mw_brute(const double *a, size_t na, const double *b, size_t nb)
{
    double v[16], rank[16], r = 0;
    size_t n = na + nb;
    for (size_t i = 0; i < n; i++) v[i] = i < na ? a[i] : b[i - na];
    for (size_t i = 0; i < n; i++) {   /* midrank: 1 + #smaller + #equal-others / 2 */
        double lt = 0, eq = 0;
        for (size_t j = 0; j < n; j++) lt += v[j] < v[i], eq += j != i && v[j] == v[i];
        rank[i] = 1 + lt + eq / 2;
        if (i < na) r += rank[i];
    }
    double le = 0, ge = 0, tot = 0;
    for (unsigned m = 0; m < 1u << n; m++) {
        if ((size_t)__builtin_popcount(m) != na) continue;
        double s = 0;
        for (size_t i = 0; i < n; i++) if (m >> i & 1) s += rank[i];
        tot++, le += s <= r + 1e-9, ge += s >= r - 1e-9;
    }
    return fmin(1, 2 * fmin(le, ge) / tot);
}

static void test_mann_whitney(void)
{
    double a[5] = {1, 2, 3, 4, 5}, b[5] = {6, 7, 8, 9, 10}, u;
    /* Fully separated 5 vs 5: one arrangement of C(10,5) = 252 gives U = 0; two-sided 2/252. */
    CHECK_NEAR(vkb_mann_whitney_p(a, 5, b, 5, &u), 2.0 / 252, 1e-12);
    CHECK_NEAR(u, 0, 0);
    CHECK_NEAR(vkb_mann_whitney_p(b, 5, a, 5, &u), 2.0 / 252, 1e-12);
    CHECK_NEAR(u, 25, 0);
    /* One swap: a = {1,2,3,4,6}, b = {5,7,8,9,10}: U_a = 1 (6 > 5); U <= 1 in 2 of 252 (U = 0, 1). */
    double a2[5] = {6, 1, 2, 3, 4}, b2[5] = {10, 5, 7, 8, 9};
    CHECK_NEAR(vkb_mann_whitney_p(a2, 5, b2, 5, &u), 4.0 / 252, 1e-12);
    CHECK_NEAR(u, 1, 0);
    /* Identical samples (all ties): p = 1. */
    CHECK_NEAR(vkb_mann_whitney_p(a, 5, a, 5, &u), 1, 1e-12);
    CHECK_NEAR(u, 12.5, 0);
    /* Ties: exact, conditional on the tie pattern, against a brute force over every choice of which values
     * are a's. a = 1..5, c = 3..7: midranks of a 1, 2, 3.5, 5.5, 7.5 -> R = 19.5, U = 4.5 (the normal
     * approximation said .1138; the exact p is below). */
    double c[5] = {3, 4, 5, 6, 7};
    CHECK_NEAR(vkb_mann_whitney_p(a, 5, c, 5, &u), mw_brute(a, 5, c, 5), 1e-12);
    CHECK_NEAR(u, 4.5, 0);
    /* 10 vs 10 completely separated, each side with tied values (launch medians from a coarse clock):
     * exact 2 / C(20,10), where the normal approximation gave 1.6e-4, above a gate's q = 5e-5. */
    double ta[10], tb[10];
    for (int i = 0; i < 10; i++) ta[i] = 1 + i % 3, tb[i] = 10 + i % 4;
    CHECK_NEAR(vkb_mann_whitney_p(ta, 10, tb, 10, &u), 2.0 / 184756, 1e-15);
    CHECK_NEAR(u, 0, 0);
    /* Mixed ties across the sides, unequal sizes. */
    double ma[6] = {1, 2, 2, 3, 5, 5}, mb[7] = {2, 3, 3, 4, 5, 6, 6};
    CHECK_NEAR(vkb_mann_whitney_p(ma, 6, mb, 7, &u), mw_brute(ma, 6, mb, 7), 1e-12);
    CHECK_NEAR(vkb_mann_whitney_p(mb, 7, ma, 6, &u), mw_brute(mb, 7, ma, 6), 1e-12);
    CHECK(mw_brute(ma, 6, mb, 7) < 1);   /* the case means something: not the trivial p = 1 */
    /* Unequal sides: exact while the smaller has <= 20 (4 vs 21 separated: 2 / C(25,4), where the normal
     * approximation said 2.1e-3 and 4 vs 20 said 1.9e-4: adding data made p worse); and min_p is the p that
     * complete separation gets, exact or normal, so "can this case be significant" matches the test. */
    double sep[330];
    for (int i = 0; i < 330; i++) sep[i] = i + 1;
    CHECK_NEAR(vkb_mann_whitney_p(sep, 4, sep + 4, 21, &u), 2.0 / 12650, 1e-15);
    CHECK_NEAR(vkb_mann_whitney_p(sep + 21, 4, sep, 21, &u), 2.0 / 12650, 1e-15);
    CHECK_NEAR(u, 84, 0);
    static const size_t sz[][2] = {{4, 21}, {21, 4}, {20, 180}, {5, 5}, {21, 21}, {30, 300}, {3, 198}};
    for (size_t i = 0; i < sizeof(sz) / sizeof(sz[0]); i++)
        CHECK_NEAR(vkb_mann_whitney_min_p(sz[i][0], sz[i][1]), vkb_mann_whitney_p(sep, sz[i][0], sep + sz[i][0], sz[i][1], NULL),
                   1e-12 * vkb_mann_whitney_min_p(sz[i][0], sz[i][1]));
    /* Large, no ties -> normal: 1..21 vs 22..42: U = 0, mu = 220.5, var = 441 * 43 / 12. */
    double big[42];
    for (int i = 0; i < 42; i++) big[i] = i + 1;
    double z = 220.0 / sqrt(441.0 * 43 / 12);
    CHECK_NEAR(vkb_mann_whitney_p(big, 21, big + 21, 21, &u), erfc(z / sqrt(2)), 1e-15);
    CHECK(isnan(vkb_mann_whitney_p(a, 0, b, 5, NULL)));
}

/* ---- suite ---------------------------------------------------------------------------------- */

static vkb_options default_opt(void)
{
    vkb_options o = {.min_time = 0.5, .max_noise = 0.005, .timeout = 15, .min_samples = 10,
                     .cpu_max_bytes = 0, .mode = "hot"};
    return o;
}

static void test_parse_int(void)
{
    int64_t v = 0;
    CHECK(!vkb_parse_int("1000", &v) && v == 1000);
    CHECK(!vkb_parse_int("-3", &v) && v == -3);
    CHECK(!vkb_parse_int("2^20", &v) && v == 1048576);
    CHECK(!vkb_parse_int("3^0", &v) && v == 1);
    CHECK(!vkb_parse_int("64Ki", &v) && v == 65536);
    CHECK(!vkb_parse_int("1Mi", &v) && v == 1048576);
    CHECK(!vkb_parse_int("3Gi", &v) && v == 3221225472LL);
    CHECK(!vkb_parse_int("1e6", &v) && v == 1000000);
    CHECK(!vkb_parse_int("1.5e3", &v) && v == 1500);
    CHECK(vkb_parse_int("1.5", &v) == -1);
    CHECK(vkb_parse_int("2^63", &v) == -1);
    CHECK(vkb_parse_int("1e30", &v) == -1);
    CHECK(vkb_parse_int("abc", &v) == -1);
    CHECK(vkb_parse_int("", &v) == -1);
    CHECK(vkb_parse_int("12k", &v) == -1);
    CHECK(vkb_parse_int("0x10", &v) == -1);
    CHECK(vkb_parse_int("inf", &v) == -1);
}

static void test_suite_parse(void)
{
    const char *text =
        "# smoke suite\n"
        "set min_time=0.1 mode=cold\n"
        "gemv n=1..3 m=2^10,64Ki,1Mi   # comment\n"
        "\n"
        "  add\tn=1..16:*2 k=0..10:+5 dtype=f32,f16\r\n"
        "set timeout=2 min_samples=7 cpu_max_bytes=64Mi max_noise=0.01\n"
        "softmax n=1e6 tol=1e-3 # fp16 accumulation on lavapipe \n"
        "noaxes";
    vkb_suite s = {0};
    vkb_options o = default_opt();
    char err[256] = "";
    int pick[VKB_SUITE_MAX_AXES];
    CHECK(vkb_suite_parse(&s, "t.suite", text, &o, err, sizeof(err)) == 0);
    CHECK_STR(err, "");
    CHECK(s.nline == 4);
    if (s.nline != 4) goto cleanup;
    vkb_line *l = &s.line[0];
    CHECK_STR(l->file, "t.suite");
    CHECK(l->lineno == 3);
    CHECK_STR(l->kernel, "gemv");
    CHECK(l->naxes == 2 && isnan(l->tol));
    CHECK_STR(l->axis[0].key, "n");
    CHECK(l->axis[0].nval == 3);
    CHECK_STR(l->axis[0].val[2], "3");
    CHECK(l->axis[1].nval == 3);
    CHECK_STR(l->axis[1].val[0], "2^10");
    CHECK_STR(l->axis[1].val[2], "1Mi");
    CHECK(l->opt.min_time == 0.1 && l->opt.timeout == 15 && !strcmp(l->opt.mode, "cold"));
    CHECK(vkb_line_ncases(l) == 9);
    vkb_line_case(l, 0, pick);
    CHECK(pick[0] == 0 && pick[1] == 0);
    vkb_line_case(l, 1, pick);                        /* last axis fastest */
    CHECK(pick[0] == 0 && pick[1] == 1);
    vkb_line_case(l, 3, pick);
    CHECK(pick[0] == 1 && pick[1] == 0);
    vkb_line_case(l, 8, pick);
    CHECK(pick[0] == 2 && pick[1] == 2);
    l = &s.line[1];
    CHECK(l->lineno == 5);
    CHECK_STR(l->kernel, "add");
    CHECK(l->naxes == 3 && l->axis[0].nval == 5 && l->axis[1].nval == 3 && l->axis[2].nval == 2);
    CHECK_STR(l->axis[0].val[4], "16");               /* 1 2 4 8 16 */
    CHECK_STR(l->axis[1].val[1], "5");                /* 0 5 10 */
    CHECK_STR(l->axis[1].val[2], "10");
    CHECK_STR(l->axis[2].val[1], "f16");
    CHECK(vkb_line_ncases(l) == 30);
    vkb_line_case(l, 29, pick);
    CHECK(pick[0] == 4 && pick[1] == 2 && pick[2] == 1);
    vkb_line_case(l, 7, pick);                        /* 7 = 1*6 + 0*2 + 1 */
    CHECK(pick[0] == 1 && pick[1] == 0 && pick[2] == 1);
    l = &s.line[2];
    CHECK(l->lineno == 7 && l->naxes == 1);           /* tol is not an axis */
    CHECK_STR(l->axis[0].val[0], "1e6");
    CHECK(l->tol == 1e-3);
    CHECK_STR(l->tol_reason, "fp16 accumulation on lavapipe");
    CHECK(l->opt.timeout == 2 && l->opt.min_samples == 7 && l->opt.max_noise == 0.01);
    CHECK(l->opt.cpu_max_bytes == 67108864.0 && l->opt.min_time == 0.1);
    CHECK(s.line[3].naxes == 0 && vkb_line_ncases(&s.line[3]) == 1);
    CHECK(o.timeout == 2);                            /* set lines update the caller's options */
    /* A second file appends. */
    CHECK(vkb_suite_parse(&s, "u.suite", "x a..b=1\n", &o, err, sizeof(err)) == -1);
    CHECK(vkb_suite_parse(&s, "u.suite", "x a=-2..2:+2\n", &o, err, sizeof(err)) == 0);
    CHECK(s.nline == 5 && s.line[4].axis[0].nval == 3);
    CHECK_STR(s.line[4].axis[0].val[0], "-2");
    CHECK_STR(s.line[4].file, "u.suite");
cleanup:
    vkb_suite_free(&s);
    CHECK(s.nline == 0 && s.line == NULL);
}

static void test_suite_errors(void)
{
    static const struct { const char *text, *want[2]; } bad[] = {
        {"gemv n=1..3\nfoo bar", {"e.suite:2:", "expected KEY=VALUE, got 'bar'"}},
        {"\ngemv n=1,2 n=3", {"e.suite:2:", "duplicate key 'n'"}},
        {"gemv n=5..1", {"e.suite:1:", "range"}},
        {"gemv n=1..8:*1", {"e.suite:1:", "factor"}},
        {"gemv n=1..8:+0", {"e.suite:1:", "step"}},
        {"gemv n=1..8:/2", {"e.suite:1:", "bad range: '1..8:/2'"}},
        {"gemv n=1..1000", {"e.suite:1:", "too many values"}},
        {"gemv n=1,,2", {"e.suite:1:", "empty value"}},
        {"gemv n=", {"e.suite:1:", "empty value"}},
        {"a\nb\ngemv tol=1e-3", {"e.suite:3:", "tol= needs a reason: add '# why' on the same line"}},
        {"gemv tol=1e-3 #   ", {"e.suite:1:", "tol= needs a reason"}},
        {"gemv tol=-1 # why", {"e.suite:1:", "bad tol '-1'"}},
        {"gemv tol=1 tol=2 # why", {"e.suite:1:", "duplicate key 'tol'"}},
        {"set foo=1", {"e.suite:1:", "unknown set key 'foo'"}},
        {"set mode=warm", {"e.suite:1:", "mode: 'warm'"}},
        {"set min_samples=x", {"e.suite:1:", "min_samples: 'x'"}},
        {"set", {"e.suite:1:", "set needs"}},
        {"Gemv n=1", {"e.suite:1:", "bad kernel name 'Gemv'"}},
        {"gemv N=1", {"e.suite:1:", "bad key 'N'"}},
        {"gemv a=1 b=1 c=1 d=1 e=1 f=1 g=1 h=1 i=1 j=1 k=1 l=1 m=1", {"e.suite:1:", "too many axes"}},
    };
    for (size_t i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
        vkb_suite s = {0};
        vkb_options o = default_opt();
        char err[256] = "";
        CHECK(vkb_suite_parse(&s, "e.suite", bad[i].text, &o, err, sizeof(err)) == -1);
        CHECK(!strncmp(err, bad[i].want[0], strlen(bad[i].want[0])));
        CHECK_HAS(err, bad[i].want[1]);
        vkb_suite_free(&s);
    }
    /* Lines before the error stay; a bad set line leaves the options alone. */
    vkb_suite s = {0};
    vkb_options o = default_opt();
    char err[256];
    CHECK(vkb_suite_parse(&s, "e.suite", "k a=1\nk b=2\nset timeout=3 mode=x\n", &o, err, sizeof(err)) == -1);
    CHECK(s.nline == 2 && o.timeout == 15);
    CHECK_HAS(err, "e.suite:3:");
    vkb_suite_free(&s);
    CHECK(vkb_suite_parse(&s, "/no/such.suite", NULL, &o, err, sizeof(err)) == -1);
    CHECK_HAS(err, "/no/such.suite: cannot open: ");
}

static void test_suite_file(void)
{
    char path[512];
    snprintf(path, sizeof(path), "%s/vkb_unit_%d.suite", g_tmpdir, (int)getpid());
    FILE *f = fopen(path, "w");
    CHECK(f != NULL);
    if (!f) return;
    fputs("k n=", f);
    for (int i = 0; i < 200; i++) fprintf(f, "%s%d", i ? "," : "", 1000000 + i);   /* a long line */
    fputs("\n", f);
    fclose(f);
    vkb_suite s = {0};
    vkb_options o = default_opt();
    char err[256] = "";
    CHECK(vkb_suite_parse(&s, path, NULL, &o, err, sizeof(err)) == 0);
    CHECK(s.nline == 1 && s.line[0].axis[0].nval == 200);
    if (s.nline == 1) CHECK_STR(s.line[0].axis[0].val[199], "1000199");
    vkb_suite_free(&s);
    remove(path);
}

/* ---- result CSV ----------------------------------------------------------------------------- */

static int write_file(const char *path, const char *text)
{
    FILE *f = fopen(path, "w");
    if (!f) return -1;
    fputs(text, f);
    return fclose(f);
}

/* An empty status reads as an absent status column does, so a row read without one writes and reads back (the
 * fuzz target's round trip); readers that count by status refuse it by name. */
static void test_result_empty_status(void)
{
    char path[512], err[256];
    snprintf(path, sizeof(path), "%s/vkb_unit_%d_st.csv", g_tmpdir, (int)getpid());
    vkb_result *rows = NULL;
    CHECK(write_file(path, "kernel,case_id,status\ngemv,1,\n") == 0);
    long n = vkb_result_read(path, &rows, err, sizeof(err));
    CHECK(n == 1 && rows && rows[0].status[0] == 0);
    if (n == 1) {
        CHECK(vkb_result_need_status(path, rows, n, err, sizeof(err)) == -1);
        CHECK_HAS(err, "data row 1 (case_id 1, gemv ): no status");
        snprintf(rows[0].status, sizeof(rows[0].status), "SKIP");
        CHECK(vkb_result_need_status(path, rows, n, err, sizeof(err)) == 0);
    }
    free(rows);
    remove(path);
}

static void test_csv_roundtrip(void)
{
    char path[512], err[256] = "";
    snprintf(path, sizeof(path), "%s/vkb_unit_%d.csv", g_tmpdir, (int)getpid());
    vkb_result r[2], *back = NULL;
    vkb_result_init(&r[0]);
    CHECK(r[0].kernel[0] == 0 && r[0].case_id == 0 && isnan(r[0].time_median_s) && isnan(r[0].metric));
    /* Counts a row only has once measured start NA, not 0 (a SKIP row checked nothing). */
    CHECK(r[0].n_bad == VKB_NA_I && r[0].n_checked == VKB_NA_I && r[0].below_floor == VKB_NA_I &&
          r[0].cpu_fast_threads == VKB_NA_I && r[0].samples == VKB_NA_I);
    r[0].n_bad = 0;   /* a measured 0 stays 0 */
    snprintf(r[0].kernel, sizeof(r[0].kernel), "gemv");
    snprintf(r[0].status, sizeof(r[0].status), "PASS");   /* an empty status is refused on reading */
    snprintf(r[0].params, sizeof(r[0].params), "n=1024,m=64");             /* comma */
    snprintf(r[0].reason, sizeof(r[0].reason), "said \"no\", then\nleft");  /* quotes, newline */
    snprintf(r[0].note, sizeof(r[0].note), "\"");
    r[0].case_id = -7;
    r[0].seed = 1234567890123LL;
    r[0].time_median_s = 1.2345678901234567e-05;
    r[0].bytes = 1e9;
    r[0].metric = 0.1;
    r[0].nmse = INFINITY;
    r[0].max_rel_err = -INFINITY;
    vkb_result_init(&r[1]);
    snprintf(r[1].status, sizeof(r[1].status), "SKIP");
    FILE *f = fopen(path, "w");
    CHECK(f != NULL);
    if (!f) return;
    vkb_result_write_header(f);
    vkb_result_write_row(f, &r[0]);
    vkb_result_write_row(f, &r[1]);
    fclose(f);
    long n = vkb_result_read(path, &back, err, sizeof(err));
    CHECK(n == 2);
    CHECK_STR(err, "");
    for (long i = 0; i < n && i < 2; i++) {
#define CMP_S(name) CHECK_STR(back[i].name, r[i].name);
#define CMP_I(name) CHECK(back[i].name == r[i].name);
#define CMP_D(name) CHECK(isnan(r[i].name) ? isnan(back[i].name) : back[i].name == r[i].name);
#define CMP(t, name) CMP_##t(name)
        VKB_RESULT_COLUMNS(CMP)
#undef CMP
    }
    /* NA counts read back as NA, a measured 0 as 0 */
    CHECK(n == 2 && back[1].n_checked == VKB_NA_I && back[1].below_floor == VKB_NA_I && back[0].n_bad == 0);
    free(back);
    /* The header lists every column once, in schema order; NA and inf are spelled out. */
    static char text[8192];
    f = fopen(path, "r");
    CHECK(f != NULL);
    size_t len = f ? fread(text, 1, sizeof(text) - 1, f) : 0;
    text[len] = 0;
    if (f) fclose(f);
    CHECK(!strncmp(text, "date_utc,commit,host,cpu_model,device,", 38));
    CHECK_HAS(text, ",ref_time_s,ref_fraction,");
    CHECK_HAS(text, ",note\n");
    CHECK_HAS(text, ",\"n=1024,m=64\",");
    CHECK_HAS(text, ",\"said \"\"no\"\", then\nleft\",");
    CHECK_HAS(text, ",NA,");
    CHECK_HAS(text, ",inf,");
    CHECK_HAS(text, ",-inf,");
    CHECK_HAS(text, ",1000000000,");                /* %.15g suffices: no exponent */
    CHECK_HAS(text, ",1.234567890123456");          /* needs 17 digits to read back */
    CHECK_HAS(text, ",0.1,");
    /* Columns by name, in any order, unknown ones ignored, missing ones as from init; a final
     * line without newline is fine when complete. */
    CHECK(write_file(path, "extra,kernel,case_id,metric\nx,\"a,b\",3,NA\n\ny,c,4,2.5") == 0);
    n = vkb_result_read(path, &back, err, sizeof(err));
    CHECK(n == 2);
    if (n == 2) {
        CHECK_STR(back[0].kernel, "a,b");
        CHECK(back[0].case_id == 3 && isnan(back[0].metric) && isnan(back[0].bytes));
        CHECK_STR(back[1].kernel, "c");
        CHECK(back[1].case_id == 4 && back[1].metric == 2.5);
    }
    free(back);
    remove(path);
}

static void test_csv_corrupt(void)
{
    static const struct { const char *text, *want; } bad[] = {
        {"kernel,case_id,metric\ngemv,1,0.5\ngemv,2\n", ":3: expected 3 fields, got 2"},
        {"kernel,case_id,metric\ngemv,1,0.5\ngemv,2", ":3: expected 3 fields, got 2"},   /* truncated */
        {"kernel,case_id,metric\ngemv,1,0.5,9\n", ":2: expected 3 fields, got 4"},
        {"kernel,case_id,metric\ngemv,1,0.5x\n", ":2: bad number '0.5x' in column metric"},
        {"kernel,case_id,metric\ngemv,NA,0.5\n", ":2: bad integer 'NA' in column case_id"},
        {"kernel,case_id,metric\ngemv,1,2\n\"gemv,1,2\n", ":3: unterminated quote"},
        {"kernel,case_id,metric\n\"ge\"mv,1,2\n", ":2: malformed field"},
        {"", ":1: no header"},
        {"foo,bar\n1,2\n", ":1: no known column"},
        /* an empty numeric cell is never written (unmeasured is NA): refused, never read as 0 */
        {"kernel,case_id,metric\ngemv,,0.5\n", ":2: empty cell in column case_id"},
        {"kernel,samples,metric\ngemv,,0.5\n", ":2: empty cell in column samples"},
        {"kernel,case_id,metric\ngemv,1,\n", ":2: empty cell in column metric"},
        /* a status no writer produces would be counted as nothing */
        {"kernel,case_id,status\ngemv,1,PASS\ngemv,2,MAYBE\n", ":3: bad status 'MAYBE' in column status"},
    };
    char path[512], err[256];
    snprintf(path, sizeof(path), "%s/vkb_unit_%d_bad.csv", g_tmpdir, (int)getpid());
    for (size_t i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
        vkb_result *back = (vkb_result *)&back;
        err[0] = 0;
        CHECK(write_file(path, bad[i].text) == 0);
        CHECK(vkb_result_read(path, &back, err, sizeof(err)) == -1);
        CHECK(back == NULL);
        CHECK(!strncmp(err, path, strlen(path)));
        CHECK_HAS(err, bad[i].want);
    }
    vkb_result *back;
    CHECK(vkb_result_read("/no/such.csv", &back, err, sizeof(err)) == -1);
    CHECK_HAS(err, "/no/such.csv: cannot open: ");
    remove(path);
}

static void test_csv_split(void)
{
    char line[] = "a,\"b,\"\"c\"\"\",,\"\",d";
    char *fld[8];
    CHECK(vkb_csv_split(line, fld, 8) == 5);
    CHECK_STR(fld[0], "a");
    CHECK_STR(fld[1], "b,\"c\"");
    CHECK_STR(fld[2], "");
    CHECK_STR(fld[3], "");
    CHECK_STR(fld[4], "d");
    char l2[] = "a,b,c";
    CHECK(vkb_csv_split(l2, fld, 2) == -1);           /* more fields than room */
    char l3[] = "\"open";
    CHECK(vkb_csv_split(l3, fld, 8) == -1);
}

static void test_samples(void)
{
    char path[512], err[256] = "";
    snprintf(path, sizeof(path), "%s/vkb_unit_%d_samples.csv", g_tmpdir, (int)getpid());
    double t1[3] = {1e-3, 0.1 + 0.2, 2.5e-6}, t2[2] = {7, 5e-324}, *t = NULL;  /* 5e-324: the smallest subnormal */
    FILE *f = fopen(path, "w");
    CHECK(f != NULL);
    if (!f) return;
    vkb_samples_write_header(f);
    vkb_samples_write(f, 1, t1, 3, 16);
    vkb_samples_write(f, 2, t2, 2, 1);
    fclose(f);
    CHECK(vkb_samples_load(path, 2, 0, NULL, &t, err, sizeof(err)) == 2);
    CHECK(t && t[0] == 7 && t[1] == 5e-324);
    free(t);
    t = NULL;
    CHECK(vkb_samples_load(path, -1, 0, NULL, &t, err, sizeof(err)) == 5);
    CHECK(t && t[0] == 1e-3 && t[1] == 0.1 + 0.2 && t[2] == 2.5e-6);  /* bit-exact */
    free(t);
    t = NULL;
    CHECK(vkb_samples_load(path, 9, 0, NULL, &t, err, sizeof(err)) == 0);
    free(t);
    CHECK(write_file(path, "case_id,sample,time_s,batch\n1,0,0.5,1\n1,1,oops,1\n") == 0);
    CHECK(vkb_samples_load(path, -1, 0, NULL, &t, err, sizeof(err)) == -1);
    CHECK_HAS(err, ":3: column time_s: 'oops' is not a positive finite time");
    /* vkb_samples_load: what analysis reads. Every line checked; a cut-short last line skipped only when asked. */
    static const struct { const char *text, *want; } bad[] = {
        {"case_id,sample,time_s,batch\n1,0,0.5,1\n1,1,NA,1\n", ":3: column time_s: 'NA' is not a positive finite time"},
        {"case_id,sample,time_s,batch\n1,0,nan,1\n", ":2: column time_s: 'nan'"},
        {"case_id,sample,time_s,batch\n1,0,0,1\n", ":2: column time_s: '0'"},
        {"case_id,sample,time_s,batch\n1,0,inf,1\n", ":2: column time_s: 'inf'"},
        {"case_id,sample,time_s,batch\n,0,0.5,1\n", ":2: column case_id: ''"},
        {"case_id,sample,time_s,batch\nNA,0,0.5,1\n", ":2: column case_id: 'NA'"},
        {"case_id,sample,time_s,batch\n1,0,0.5,0\n", ":2: column batch: '0'"},
        {"case_id,sample,time_s,batch\n1,0,0.5,1\n1,1,0.5\n", ":3: expected 4 fields, got 3"},
        {"case_id,sample,time_s,batch\n1,0,0.5,1\n1,1,0.5", ":3: expected 4 fields, got 3"},  /* cut short */
        {"case_id,time_s\n1,0.5\n", ":1: missing required column 'sample'"},
    };
    for (size_t i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
        t = (double *)&t;
        CHECK(write_file(path, bad[i].text) == 0);
        CHECK(vkb_samples_load(path, -1, 0, NULL, &t, err, sizeof(err)) == -1 && t == NULL);
        CHECK_HAS(err, bad[i].want);
    }
    int64_t *ids = NULL;
    CHECK(write_file(path, "case_id,sample,time_s,batch\n1,0,0.5,1\n2,0,0.25,4\n2,1,0.75,4\n3,0,0.") == 0);
    CHECK(vkb_samples_load(path, -1, 1, &ids, &t, err, sizeof(err)) == 3);   /* the torn "3,0,0." skipped */
    CHECK(t && ids && ids[0] == 1 && ids[2] == 2 && t[1] == 0.25 && t[2] == 0.75);
    free(t), free(ids);
    CHECK(vkb_samples_load(path, 2, 1, NULL, &t, err, sizeof(err)) == 2 && t && t[0] == 0.25);
    free(t);
    /* vkb_samples_for_row: compare's checks on one timed row */
    vkb_result row;
    vkb_result_init(&row);
    snprintf(row.status, sizeof(row.status), "PASS");
    row.case_id = 2, row.samples = 2;
    CHECK(write_file(path, "case_id,sample,time_s,batch\n1,0,0.5,1\n2,0,0.25,4\n2,1,0.75,4\n") == 0);
    CHECK(vkb_samples_for_row(path, "r.csv", &row, 0, &t, err, sizeof(err)) == 2);
    free(t);
    row.samples = 3;
    CHECK(vkb_samples_for_row(path, "r.csv", &row, 0, &t, err, sizeof(err)) == -1 && t == NULL);
    CHECK_HAS(err, "case_id 2 ( ): 2 samples, but r.csv says 3");
    row.case_id = 7;
    CHECK(vkb_samples_for_row(path, "r.csv", &row, 0, &t, err, sizeof(err)) == -1);
    CHECK_HAS(err, "case_id 7 ( ) is PASS in r.csv but has no samples");
    remove(path);
}

/* ---- telemetry (sensors: pure parts and NA paths) ------------------------------------------- */

static void test_tel_uuid(void)
{
    /* nvidia-smi's form of a 16-byte UUID: "GPU-" + 8-4-4-4-12 hex. */
    static const uint8_t want[16] = {0x34, 0xbf, 0x77, 0xd1, 0xc6, 0x86, 0x68, 0x21,
                                     0x79, 0xa8, 0x32, 0xd3, 0x26, 0xc5, 0x03, 0x9c};
    uint8_t b[16];
    CHECK(vkb_tel_uuid_parse("GPU-34bf77d1-c686-6821-79a8-32d326c5039c", b) == 0 && !memcmp(b, want, 16));
    CHECK(vkb_tel_uuid_parse("MIG-34BF77D1-C686-6821-79A8-32D326C5039C", b) == 0 && !memcmp(b, want, 16));
    CHECK(vkb_tel_uuid_parse("34bf77d1c686682179a832d326c5039c", b) == 0 && !memcmp(b, want, 16));
    /* lavapipe's deviceUUID is ASCII "mesa22.3.6" zero-padded: NVML would print it as below. */
    CHECK(vkb_tel_uuid_parse("GPU-6d657361-3232-2e33-2e36-000000000000", b) == 0 && !memcmp(b, "mesa22.3.6\0\0\0\0\0", 16));
    /* one digit differs: a different device */
    CHECK(vkb_tel_uuid_parse("GPU-34bf77d1-c686-6821-79a8-32d326c5039d", b) == 0 && memcmp(b, want, 16) != 0);
    CHECK(vkb_tel_uuid_parse("GPU-34bf77d1-c686-6821-79a8-32d326c5039", b) == -1);    /* 31 digits */
    CHECK(vkb_tel_uuid_parse("GPU-34bf77d1-c686-6821-79a8-32d326c5039c0", b) == -1);  /* 33 digits */
    CHECK(vkb_tel_uuid_parse("GPU-34bf77d1-c686-6821-79a8-32d326c5039g", b) == -1);   /* not hex */
    CHECK(vkb_tel_uuid_parse("", b) == -1);
}

static void test_tel_pci(void)
{
    char s[32];
    vkb_tel_pci_format(0, 0x18, 0, 0, s, sizeof(s));
    CHECK_STR(s, "00000000:18:00.0");                 /* nvmlPciInfo_t.busId's form */
    vkb_tel_pci_format(0x10, 0xab, 0x1f, 7, s, sizeof(s));
    CHECK_STR(s, "00000010:AB:1F.7");
    CHECK(vkb_tel_pci_match("00000000:18:00.0", 0, 0x18, 0, 0) == 1);
    CHECK(vkb_tel_pci_match("0000:18:00.0", 0, 0x18, 0, 0) == 1);   /* short domain */
    CHECK(vkb_tel_pci_match("00000010:ab:1f.7", 0x10, 0xab, 0x1f, 7) == 1);
    CHECK(vkb_tel_pci_match("18:00.0", 0, 0x18, 0, 0) == 1);        /* bus:dev.fn, domain 0 */
    CHECK(vkb_tel_pci_match("0000:18:00", 0, 0x18, 0, 0) == 1);     /* dom:bus:dev, function 0 */
    CHECK(vkb_tel_pci_match("00000000:19:00.0", 0, 0x18, 0, 0) == 0);
    CHECK(vkb_tel_pci_match("00000001:18:00.0", 0, 0x18, 0, 0) == 0);
    CHECK(vkb_tel_pci_match("00000000:18:00.1", 0, 0x18, 0, 0) == 0);
    CHECK(vkb_tel_pci_match("00000000:18:00.0x", 0, 0x18, 0, 0) == 0);
    CHECK(vkb_tel_pci_match("gpu0", 0, 0x18, 0, 0) == 0);
}

/* The profile cell: dispatches summed per shader, ordered by total time, shares of the sum. */
static void test_profile_format(void)
{
    char s[300];
    const char *names[] = {"init", "panel", "syrk", "panel", "syrk", "panel"};
    const double sec[] = {1e-6, 10e-6, 5e-6, 10e-6, 3e-6, 11e-6};
    CHECK(vkb_profile_format(names, sec, 6, s, sizeof(s)) == 0);
    CHECK_STR(s, "panel 3x 31.0 us (78%), syrk 2x 8.0 us (20%), init 1x 1.0 us (2%); sum 40.0 us over 6 dispatches");
    const char *one[] = {"binary"};
    CHECK(vkb_profile_format(one, sec, 1, s, sizeof(s)) == 0);
    CHECK_STR(s, "binary 1x 1.0 us (100%); sum 1.0 us over 1 dispatches");
    char small[20];
    CHECK(vkb_profile_format(names, sec, 6, small, sizeof(small)) == 0 && strlen(small) == sizeof(small) - 1);
}

/* The clock check's arithmetic: the dispatch cost cancels between two spin lengths, and the verdict's threshold
 * sits between idle clocks (<= 0.3 of the highest) and power-capped ones (>= 0.72). */
/* vkb_dc_matmul (reference/decomp.h), the decomposition checks' double products, blocked and threaded: the same
 * bits as one plain loop per element (0, then + a_ip b_pj in ascending p), under each structure flag, at sizes
 * off its tiles (6 x 8), past its K and N blocks (256, 512) and threaded (m k n >= 1e7); C_LOWER leaves j > i
 * alone; k = 0 gives zeros; VKB_DC_PLAIN (its plain fallback) gives the same bits. */
static int dc_case(size_t m, size_t k, size_t n, int flags)
{
    double *a = malloc((m * k + 1) * sizeof(double)), *b = malloc((k * n + 1) * sizeof(double));
    double *c = malloc((m * n + 1) * sizeof(double)), *w = malloc((m * n + 1) * sizeof(double));
    unsigned long long lcg = 99 + m + 7 * k + 31 * n + (unsigned long long)flags;
    int bad = !a || !b || !c || !w;
    for (size_t i = 0; !bad && i < m * k; i++) {
        lcg = lcg * 6364136223846793005ULL + 1442695040888963407ULL;
        a[i] = (flags & VKB_DC_A_LOWER) && i % k > i / k ? 0.0 : (double)(lcg >> 11) / 9007199254740992.0 - 0.5;
    }
    for (size_t i = 0; !bad && i < k * n; i++) {
        lcg = lcg * 6364136223846793005ULL + 1442695040888963407ULL;
        b[i] = (flags & VKB_DC_B_UPPER) && i % n < i / n ? 0.0 : (double)(lcg >> 11) / 9007199254740992.0 - 0.5;
    }
    for (size_t i = 0; !bad && i < m * n; i++) c[i] = w[i] = 12345.0;   /* C_LOWER: the upper part stays this */
    for (size_t i = 0; !bad && i < m; i++)
        for (size_t j = 0; j < ((flags & VKB_DC_C_LOWER) ? (i + 1 < n ? i + 1 : n) : n); j++) {
            double acc = 0;
            for (size_t p = 0; p < k; p++) acc = acc + a[i * k + p] * b[p * n + j];
            w[i * n + j] = acc;
        }
    if (!bad) {
        vkb_dc_matmul(a, b, c, m, k, n, flags);
        bad = memcmp(c, w, m * n * sizeof(double)) != 0;
        setenv("VKB_DC_PLAIN", "1", 1);
        for (size_t i = 0; i < m * n; i++) c[i] = 12345.0;
        vkb_dc_matmul(a, b, c, m, k, n, flags);
        unsetenv("VKB_DC_PLAIN");
        bad |= (memcmp(c, w, m * n * sizeof(double)) != 0) << 1;
    }
    free(a);
    free(b);
    free(c);
    free(w);
    return bad;
}
static void test_dc_matmul(void)
{
    static const size_t sz[][3] = {{1, 1, 1}, {7, 300, 13}, {37, 513, 530}, {200, 600, 700}, {5, 0, 9}, {64, 64, 64},
                                   {23, 2, 5}, {530, 40, 17}};   /* m > n: C_LOWER rows end at n */
    static const int fl[] = {0, VKB_DC_A_LOWER, VKB_DC_B_UPPER, VKB_DC_C_LOWER,
                             VKB_DC_A_LOWER | VKB_DC_B_UPPER | VKB_DC_C_LOWER};
    for (size_t s = 0; s < sizeof(sz) / sizeof(sz[0]); s++)
        for (size_t f = 0; f < sizeof(fl) / sizeof(fl[0]); f++) {
            int bad = dc_case(sz[s][0], sz[s][1], sz[s][2], fl[f]);
            if (bad) fprintf(stderr, "  dc_matmul m=%zu k=%zu n=%zu flags=%d: %s\n", sz[s][0], sz[s][1], sz[s][2], fl[f],
                             bad & 1 ? "blocked differs" : "plain fallback differs");
            CHECK(bad == 0);
        }
}

/* vkb_clock_retime (telemetry.h): which rows are timed a second time, and when a settled slow clock stops being
 * one worth it. ref 2000 MHz; session 22's row: 1234 MHz before and after its samples. */
static void test_clock_retime(void)
{
    size_t kept = 0;
    CHECK(vkb_clock_retime(1990, 2000, 1990, 1995, 0, 0, 0, &kept) == 0);        /* at the working clock */
    CHECK(vkb_clock_retime(1234, 2000, 1234, 1234, 0, 0, 0, &kept) == 1);        /* settled under 0.9: again */
    CHECK(vkb_clock_retime(1234, 2000, 1234, 1600, 0, 0, 0, &kept) == 1);        /* still rising: again */
    CHECK(vkb_clock_retime(1795, 2000, 1795, 1795, 0, 0, 0, &kept) == 1);        /* just under 0.9 */
    CHECK(vkb_clock_retime(1805, 2000, 1805, 1805, 0, 0, 0, &kept) == 0);        /* just over */
    CHECK(vkb_clock_retime(NAN, 2000, NAN, NAN, 0, 0, 0, &kept) == 0);           /* no reading: nothing to judge */
    CHECK(vkb_clock_retime(1990, 2000, 1990, 1990, 0, 0, 1, &kept) == 0 && kept == 0);   /* second pass lifted */
    for (int i = 0; i < VKB_CLOCK_SETTLED_MAX; i++) {   /* second passes that stayed slow: never a third pass */
        CHECK(vkb_clock_retime(1234, 2000, 1234, 1234, 0, 0, 0, &kept) == 1);
        CHECK(vkb_clock_retime(1250, 2000, 1250, 1250, 0, 0, 1, &kept) == 0);
    }
    CHECK(kept == VKB_CLOCK_SETTLED_MAX);
    CHECK(vkb_clock_retime(1234, 2000, 1234, 1234, 0, 0, 0, &kept) == 0);        /* a cap now: once is enough */
    CHECK(vkb_clock_retime(1234, 2000, 1234, 1600, 0, 0, 0, &kept) == 1);        /* but a rising clock still is */
    CHECK(vkb_clock_retime(412, 2000, 412, 412, 0, 1, 0, &kept) == 1);           /* low: always */
    CHECK(vkb_clock_retime(412, 2000, 412, 412, 0, 1, 1, &kept) == 0 && kept == VKB_CLOCK_SETTLED_MAX + 1);
    kept = 0;
    CHECK(vkb_clock_retime(1234, 2000, 1234, 1600, 1, 0, 0, &kept) == 0);        /* a CPU device: only when low */
    CHECK(vkb_clock_retime(412, 2000, 412, 412, 1, 1, 0, &kept) == 1);
}

static void test_clock_judge(void)
{
    char s[200];
    /* 20k and 200k ticks at 1980 MHz, each with 2 us of dispatch cost: 180k ticks in 90.909 us. */
    double t1 = 2e-6 + 20000 / 1980e6, t2 = 2e-6 + 200000 / 1980e6;
    CHECK(fabs(vkb_clock_rate_MHz(20000, t1, 200000, t2) - 1980) < 1e-6);
    CHECK(isnan(vkb_clock_rate_MHz(20000, t2, 200000, t1)));     /* the longer spin took less time */
    CHECK(isnan(vkb_clock_rate_MHz(20000, t1, 20000, t2)));
    CHECK(isnan(vkb_clock_rate_MHz(20000, NAN, 200000, t2)));
    CHECK(vkb_clock_judge(1975, 1980, 0, "", s, sizeof(s)) == 0);
    CHECK_STR(s, "ok: 1975 of 1980 MHz");
    CHECK(vkb_clock_judge(1425, 1980, 0, "", s, sizeof(s)) == 0);    /* power-capped: kept, not low */
    CHECK(vkb_clock_judge(412, 1980, 0, "", s, sizeof(s)) == 1);
    CHECK_STR(s, "low: 412 of 1980 MHz (< 0.6 x the reference)");
    CHECK(vkb_clock_judge(0.59 * 1980, 1980, 0, "", s, sizeof(s)) == 1);
    CHECK(vkb_clock_judge(0.61 * 1980, 1980, 0, "", s, sizeof(s)) == 0);
    CHECK(vkb_clock_judge(412, 1980, 1, "", s, sizeof(s)) == 0);       /* a CPU device is never judged */
    CHECK_STR(s, "NA (CPU device: no clock states to check; the probe read 412 MHz)");
    CHECK(vkb_clock_judge(NAN, 1980, 1, "clock probe: no rate (3 tries)", s, sizeof(s)) == 0);  /* nor without a rate */
    CHECK_STR(s, "NA (CPU device: no clock states to check; clock probe: no rate (3 tries))");
    CHECK(vkb_clock_judge(NAN, NAN, 0, "the device offers no VK_KHR_shader_clock", s, sizeof(s)) == 0);
    CHECK_STR(s, "NA (the device offers no VK_KHR_shader_clock)");
}

/* The warm-up's clock rule over sequences of readings, one a 50 ms step (reference 2000 MHz): the number of
 * readings it takes before it stops, or -1 when it never does. */
static int warm_steps(const double *mhz, int n)
{
    double base = NAN;
    int flat = 0;
    for (int i = 0; i < n; i++)
        if (vkb_clock_warm_step(mhz[i], 2000, &base, &flat)) return i + 1;
    return -1;
}

static void test_clock_warm(void)
{
    /* At 0.9x the reference on the first reading: no warming. */
    const double warm[] = {1850};
    CHECK(warm_steps(warm, 1) == 1);
    /* An H200 ramp: idle, a 1276 MHz plateau for 3 steps, then full clock. The old one-step rule stopped on the
     * plateau's first flat step (reading 4); this one needs 3 flat steps, and the clock reaches 1990 first. */
    const double ramp[] = {400, 1200, 1276, 1276, 1280, 1990};
    CHECK(warm_steps(ramp, 6) == 6);
    /* A settled clock above the low line (a power cap at 0.75x): it stops after 3 steps without a 5% rise. */
    const double capped[] = {1500, 1510, 1505, 1500, 1500, 1500};
    CHECK(warm_steps(capped, 6) == 4);
    /* A rise of >= 5% starts the count again. */
    const double rising[] = {1300, 1310, 1320, 1400, 1410, 1420, 1430, 1430};
    CHECK(warm_steps(rising, 8) == 7);
    /* Flat under the low line (0.6x = 1200: an idle clock): never settles, the time cap ends it (timing.c). */
    const double idle[] = {400, 410, 405, 400, 400, 400, 400, 400};
    CHECK(warm_steps(idle, 8) == -1);
}

static void test_tel_energy(void)
{
    uint64_t d = 0;
    char why[160];
    double j, p;
    CHECK(vkb_tel_counter_delta(100, 150, 0, &d) == 0 && d == 50);
    /* RAPL wraps at max_energy_range_uj: 262143328800 -> 50 with range 262143328850 is 50 + 50 µJ. */
    CHECK(vkb_tel_counter_delta(262143328800ull, 50, 262143328850ull, &d) == 0 && d == 100);
    CHECK(vkb_tel_counter_delta(200, 100, 0, &d) == -1);    /* backwards, range unknown */

    /* NVML-like: +30000 mJ every 100 ms (300 W), polled every 10 ms for 1.2 s: counter values change
     * at t = 0.1, 0.2, ..., 1.2 -> 12 updates; 0.1 .. 1.2 s holds 11 x 30 J = 330 J -> 300 W. */
    vkb_tel_track k;
    memset(&k, 0, sizeof(k));
    for (int i = 0; i <= 120; i++) vkb_tel_track_add(&k, i * 0.01, 5000000 + (uint64_t)(i / 10) * 30000, 0);
    CHECK(k.updates == 12);
    CHECK(vkb_tel_energy_eval(&k, 1e-3, 1.2, 1200, &j, &p, why, sizeof(why)) == 0);
    CHECK_NEAR(p, 300, 1e-9);
    CHECK_NEAR(j, 300 * 1.2 / 1200, 1e-12);            /* 0.3 J per call */
    CHECK_STR(why, "");

    /* Too short: 0.55 s sees 5 updates -> NA insufficient_window, never 0. */
    memset(&k, 0, sizeof(k));
    for (int i = 0; i <= 55; i++) vkb_tel_track_add(&k, i * 0.01, (uint64_t)(i / 10) * 30000, 0);
    CHECK(k.updates == 5);
    CHECK(vkb_tel_energy_eval(&k, 1e-3, 0.55, 100, &j, &p, why, sizeof(why)) == -1);
    CHECK(isnan(j) && isnan(p));
    CHECK_HAS(why, "insufficient_window (5 counter updates < 10");

    /* RAPL µJ counter crossing its range: 10 W for 1.5 s at 1 ms updates (10000 µJ each), polled
     * every 5 ms, starting 100 ms of energy before the wrap at range 1e6. */
    const uint64_t range = 1000000;
    memset(&k, 0, sizeof(k));
    for (int i = 0; i <= 300; i++) vkb_tel_track_add(&k, i * 0.005, (900000 + (uint64_t)i * 50000) % range, range);
    CHECK(!k.wrapped_bad && k.updates == 300);
    CHECK(vkb_tel_energy_eval(&k, 1e-6, 1.5, 3, &j, &p, why, sizeof(why)) == 0);
    CHECK_NEAR(p, 10, 1e-9);
    CHECK_NEAR(j, 5, 1e-9);                             /* 10 W x 1.5 s / 3 calls */
    /* The same wrap without a known range: wrapped_unhandled. */
    memset(&k, 0, sizeof(k));
    for (int i = 0; i <= 300; i++) vkb_tel_track_add(&k, i * 0.005, (900000 + (uint64_t)i * 50000) % range, 0);
    CHECK(vkb_tel_energy_eval(&k, 1e-6, 1.5, 3, &j, &p, why, sizeof(why)) == -1 && isnan(j));
    CHECK_HAS(why, "wrapped_unhandled");
    /* Never read: NA, not 0. */
    memset(&k, 0, sizeof(k));
    CHECK(vkb_tel_energy_eval(&k, 1e-3, 1, 1, &j, &p, why, sizeof(why)) == -1 && isnan(p));
}

static void test_tel_window(void)
{
    vkb_tel_window a, b;
    char s[96];
    vkb_tel_window_init(&a);
    CHECK(isnan(a.power_max_W) && isnan(a.temp_max_C) && isnan(a.throttle_s) && a.power_n == 0);
    vkb_tel_window_init(&b);
    b.readings = 2, b.power_sum_W = 500, b.power_n = 2, b.power_max_W = 300, b.sm_min_MHz = 1500;
    b.sm_sum_MHz = 3500, b.sm_n = 2, b.reasons = 0x1, b.reasons_n = 2, b.throttle_s = 0;
    vkb_tel_merge(&a, &b);                               /* into an empty window: a copy */
    CHECK(a.readings == 2 && a.power_n == 2 && a.power_max_W == 300 && a.sm_min_MHz == 1500);
    b.power_max_W = 350, b.sm_min_MHz = 1400, b.reasons = 0x4, b.throttle_s = 0.25;
    vkb_tel_merge(&a, &b);
    CHECK(a.power_n == 4 && a.power_sum_W == 1000 && a.power_max_W == 350 && a.sm_min_MHz == 1400);
    CHECK(a.reasons == 0x5 && a.sm_n == 4 && isnan(a.temp_max_C));
    CHECK(isnan(a.throttle_s));                          /* the first window had none: unknown stays unknown */
    vkb_tel_reasons_str(0x45, s, sizeof(s));
    CHECK_STR(s, "0x45 (idle,sw_power_cap,hw_thermal)");
    vkb_tel_reasons_str(0, s, sizeof(s));
    CHECK_STR(s, "0x0");
    CHECK((VKB_TEL_THROTTLE_BITS & 0x1) == 0 && (VKB_TEL_THROTTLE_BITS & 0x4) && (VKB_TEL_THROTTLE_BITS & 0x40));
}

static void mkdir_p(const char *root, const char *sub)
{
    char cmd[700];
    snprintf(cmd, sizeof(cmd), "mkdir -p '%s/%s'", root, sub);
    CHECK(system(cmd) == 0);
}

/* The NA paths: no NVML library (a bad name), no powercap, an unreadable one, and readable fakes. */
static void test_tel_na(void)
{
    char why[240], root[300], path[600];
    uint8_t uuid[16] = {0};
    CHECK(vkb_nvml_open("libvkbench-no-such-nvml.so.1", uuid, 1, 0, 0x18, 0, 0, why, sizeof(why)) == NULL);
    CHECK_HAS(why, "not_present (dlopen libvkbench-no-such-nvml.so.1");
    CHECK_STR(vkb_tel_errno_status(EACCES), "no_permission");
    CHECK_STR(vkb_tel_errno_status(EPERM), "no_permission");
    CHECK_STR(vkb_tel_errno_status(ENOENT), "not_present");
    CHECK_STR(vkb_tel_errno_status(EIO), "error");

    snprintf(root, sizeof(root), "%s/vkb-tel-%d", g_tmpdir, (int)getpid());
    mkdir_p(root, "");
    vkb_tel_cfg cfg = {.sysfs = root, .nvml_lib = "libvkbench-no-such-nvml.so.1", .gpu = 1, .uuid = uuid, .pu = -1};
    vkb_tel *t = vkb_tel_open(&cfg);
    CHECK(t != NULL);
    if (t) {
        CHECK(!vkb_tel_has_gpu_energy(t) && vkb_tel_nvml(t) == NULL);
        CHECK_HAS(vkb_tel_gpu_why(t), "not_present (dlopen");
        CHECK_HAS(vkb_tel_cpu_energy_why(t), "not_present (");
        CHECK_HAS(vkb_tel_cpu_energy_why(t), "/powercap");
        CHECK_HAS(vkb_tel_cpu_temp_why(t), "not_present");
        vkb_tel_close(t);
    }
    /* A package zone whose energy_uj cannot be read (a directory: EISDIR) -> error, not 0. */
    mkdir_p(root, "powercap/intel-rapl:0/energy_uj");
    snprintf(path, sizeof(path), "%s/powercap/intel-rapl:0/name", root);
    CHECK(write_file(path, "package-0\n") == 0);
    if ((t = vkb_tel_open(&cfg))) {
        CHECK_HAS(vkb_tel_cpu_energy_why(t), "error (");
        CHECK_HAS(vkb_tel_cpu_energy_why(t), "intel-rapl:0/energy_uj");
        vkb_tel_close(t);
    }
    /* Readable fakes: a RAPL package that does not move, a k10temp at 45 C, a GPU hwmon that is ignored. */
    snprintf(path, sizeof(path), "rm -rf '%s/powercap/intel-rapl:0/energy_uj'", root);
    CHECK(system(path) == 0);
    snprintf(path, sizeof(path), "%s/powercap/intel-rapl:0/energy_uj", root);
    CHECK(write_file(path, "123456\n") == 0);
    snprintf(path, sizeof(path), "%s/powercap/intel-rapl:0/max_energy_range_uj", root);
    CHECK(write_file(path, "262143328850\n") == 0);
    mkdir_p(root, "hwmon/hwmon0");
    mkdir_p(root, "hwmon/hwmon1");
    snprintf(path, sizeof(path), "%s/hwmon/hwmon0/name", root);
    CHECK(write_file(path, "k10temp\n") == 0);
    snprintf(path, sizeof(path), "%s/hwmon/hwmon0/temp1_input", root);
    CHECK(write_file(path, "45000\n") == 0);
    snprintf(path, sizeof(path), "%s/hwmon/hwmon1/name", root);
    CHECK(write_file(path, "amdgpu\n") == 0);
    snprintf(path, sizeof(path), "%s/hwmon/hwmon1/temp1_input", root);
    CHECK(write_file(path, "99000\n") == 0);
    if ((t = vkb_tel_open(&cfg))) {
        vkb_tel_window w;
        double j, p;
        CHECK_STR(vkb_tel_cpu_energy_why(t), "");
        CHECK_STR(vkb_tel_cpu_temp_why(t), "");
        /* The sampler takes a reading every few ms; on a loaded host it may not be scheduled within one short
         * window, so the window grows (60 ms, 0.5 s, 2 s) until it holds two readings: the property is that the
         * sampler reads at all, not how fast this host schedules it. */
        static const long wait_ns[] = {60000000, 500000000, 2000000000};
        for (int a = 0; a < 3; a++) {
            vkb_tel_begin(t);
            struct timespec ts = {wait_ns[a] / 1000000000, wait_ns[a] % 1000000000};
            nanosleep(&ts, NULL);
            vkb_tel_end(t, &w);
            if (w.readings >= 2) break;
        }
        CHECK(w.readings >= 2 && w.ncpu == 1);
        CHECK_NEAR(w.cpu_temp_max_C, 45, 1e-9);           /* the amdgpu 99 C is not a CPU sensor */
        CHECK(w.cpu_energy[0].started && w.cpu_energy[0].updates == 0);
        CHECK(vkb_tel_energy_eval(&w.cpu_energy[0], 1e-6, w.wall_s, 1, &j, &p, why, sizeof(why)) == -1);
        CHECK_HAS(why, "insufficient_window (0 counter updates");
        CHECK(isnan(w.power_max_W) && w.power_n == 0 && isnan(w.throttle_s));   /* no GPU: NA */
        vkb_tel_close(t);
    }
    snprintf(path, sizeof(path), "rm -rf '%s'", root);
    CHECK(system(path) == 0);
}

#include "unit_compare.c"   /* the regression gate's groups (harness/compare.c) */

/* ---- runner --------------------------------------------------------------------------------- */


/* ---- check (tolerance metrics) and util (fp16) ------------------------------------------------ */

static void test_fp16(void)
{
    /* Values worked out from the binary16 format: 1 sign, 5 exponent (bias 15), 10 fraction bits. */
    CHECK(vkb_f32_to_f16(1.0f) == 0x3c00);
    CHECK(vkb_f32_to_f16(-2.0f) == 0xc000);
    CHECK(vkb_f32_to_f16(65504.0f) == 0x7bff);               /* largest finite */
    CHECK(vkb_f32_to_f16(65520.0f) == 0x7c00);               /* rounds up to inf */
    CHECK(vkb_f32_to_f16(0x1p-24f) == 0x0001);               /* smallest subnormal */
    CHECK(vkb_f32_to_f16(0x1p-25f) == 0x0000);               /* tie to even: 0 */
    CHECK(vkb_f32_to_f16(1.0f + 0x1p-11f) == 0x3c00);        /* halfway 1 and 1+2^-10: even -> 1 */
    CHECK(vkb_f32_to_f16(1.0f + 3 * 0x1p-11f) == 0x3c02);    /* halfway 1+2^-10 and 1+2^-9: even */
    CHECK(vkb_f16_to_f32(0x3555) == 0x1.554p-2f);            /* 0.333251953125 */
    CHECK(vkb_f16_to_f32(0x0001) == 0x1p-24f);
    CHECK(isinf(vkb_f16_to_f32(0xfc00)) && vkb_f16_to_f32(0xfc00) < 0);
    for (uint32_t h = 0; h < 0x7c00; h++)                    /* every finite positive value round-trips */
        if (vkb_f32_to_f16(vkb_f16_to_f32((uint16_t)h)) != h) { CHECK(0); break; }
}

static void test_check_ulp(void)
{
    float want[4] = {1.0f, -2.0f, 0.5f, 3.0f}, got[4];
    vkb_check r;
    memcpy(got, want, sizeof(got));
    vkb_check_begin(&r, "exact", 0);
    vkb_cmp_ulp(&r, VKB_F32, got, want, 4, 0);
    CHECK(r.pass && r.metric == 0 && r.nchecked == 4);
    got[2] = nextafterf(0.5f, 1.0f);                          /* one ULP up */
    got[3] = nextafterf(nextafterf(3.0f, 0.0f), 0.0f);        /* two ULPs down */
    vkb_check_begin(&r, "exact", 0);
    vkb_cmp_ulp(&r, VKB_F32, got, want, 4, 0);
    CHECK(!r.pass && r.metric == 2 && r.nbad == 2);
    CHECK_HAS(r.detail, "i=2 got=");
    vkb_check_begin(&r, "ulp", 2);
    vkb_cmp_ulp(&r, VKB_F32, got, want, 4, 2);
    CHECK(r.pass);
    got[0] = -0.0f;                                           /* +0 vs -0 would be 0 ULP: use 1 vs -1 */
    float a = 1.0f, b = -1.0f;
    CHECK(vkb_ulp_dist(VKB_F32, &a, &b, 0) == 2.0 * 0x3f800000);
}

static void test_check_order(void)
{
    /* Unwritten (poison) is reported as unwritten, NaN as NaN, and neither ever passes. */
    uint32_t bits[3] = {0x3f800000u, VKB_POISON_F32, 0x7fc00000u};   /* 1.0, poison, plain NaN */
    double want[3] = {1.0, 2.0, 3.0};
    vkb_check r;
    vkb_check_begin(&r, "bound", 1);
    vkb_tol tol = {.abs = 1e9};                                      /* any finite value would pass */
    vkb_cmp_bound(&r, VKB_F32, bits, want, 3, tol);
    CHECK(!r.pass && r.nunwritten == 1 && r.nnan == 1 && r.nbad == 0);
    uint16_t h[2] = {0x3c00, VKB_POISON_F16};
    vkb_check_begin(&r, "bound", 1);
    vkb_cmp_bound(&r, VKB_F16, h, want, 2, tol);
    CHECK(!r.pass && r.nunwritten == 1);
    int32_t gi[3] = {1, 2, (int32_t)0xA5A5A5A5u}, wi[3] = {1, 3, 7};
    vkb_check_begin(&r, "exact", 0);
    vkb_cmp_exact(&r, VKB_I32, gi, wi, 3);
    CHECK(!r.pass && r.nbad == 1 && r.nunwritten == 1 && r.metric == 2);
    CHECK_HAS(r.detail, "i=1 got=2 want=3");
}

static void test_check_special(void)
{
    /* IEEE specials: NaN matches only a NaN reference, an infinity only the same infinity; a finite
     * value where IEEE gives NaN fails; an allowed alternative (e.g. a flushed denormal) is accepted. */
    float want[5] = {NAN, INFINITY, -INFINITY, 1.0f, 0x1p-140f}, got[5] = {-NAN, INFINITY, -INFINITY, 1.0f, 0.0f};
    float flushed[5] = {NAN, INFINITY, -INFINITY, 1.0f, 0.0f};
    const void *alt[1] = {flushed};
    vkb_check r;
    vkb_check_begin(&r, "exact", 0);
    vkb_cmp_ulp_alt(&r, VKB_F32, got, want, alt, 1, 5, 0);
    CHECK(r.pass && r.nnan == 0 && r.nbad == 0 && isfinite(r.nmse));
    vkb_check_begin(&r, "exact", 0);
    vkb_cmp_ulp(&r, VKB_F32, got, want, 5, 0);             /* without the alternative the flush fails */
    CHECK(!r.pass && r.nbad == 1);
    got[0] = 0.0f;                                          /* finite where NaN is expected */
    got[1] = -INFINITY;                                     /* the wrong infinity */
    vkb_check_begin(&r, "exact", 0);
    vkb_cmp_ulp_alt(&r, VKB_F32, got, want, alt, 1, 5, 0);
    CHECK(!r.pass && r.nbad == 1 && r.nnan == 1 && isinf(r.metric));
    double wd[3] = {NAN, 0x1.fffffep127 * 2, 1.0};          /* Vulkan's ULP rule: past the largest finite, */
    float gb[3] = {NAN, INFINITY, INFINITY};                /* the infinity of the same sign may be returned */
    vkb_tol tol = {.ulps = 2.5};
    vkb_check_begin(&r, "bound", 1);
    vkb_cmp_bound(&r, VKB_F32, gb, wd, 3, tol);
    CHECK(!r.pass && r.nnan == 1 && r.nbad == 0);           /* only element 2 (inf for 1.0) is wrong */
}

/* xoshiro256** from state {1, 2, 3, 4}: outputs 11520, 0, 1509978240 (its authors' reference code), seen through
 * get_double's top 53 bits; a seeded generator's doubles lie in [0, 1) and its 32-bit draws use the high bits. */
static void xo_check(gsl_rng *c)
{
    uint64_t *s = gsl_rng_state(c);
    s[0] = 1, s[1] = 2, s[2] = 3, s[3] = 4;
    const double want[] = {(double)(11520u >> 11) * 0x1p-53, 0.0, (double)(1509978240u >> 11) * 0x1p-53};
    for (int i = 0; i < 3; i++) CHECK(vkb_rng_xoshiro->get_double(s) == want[i]);
    gsl_rng_set(c, 1);
    double lo = 1, hi = 0;
    unsigned long top = 0;
    for (int i = 0; i < 100000; i++) {
        double u = gsl_rng_uniform(c);
        lo = fmin(lo, u), hi = fmax(hi, u);
        top |= gsl_rng_get(c);
    }
    CHECK(lo >= 0 && lo < 1e-3 && hi < 1 && hi > 1 - 1e-3 && top == 0xffffffffUL);
}

/* vkb_par_fill's contract: a large fill is the same whatever the threads did (two fills from equal generators
 * agree), chunk i is a vkb_rng_xoshiro seeded with mix64(draw ^ mix64(i)) from the caller's one 64-bit draw, and a
 * fill below VKB_PAR_CHUNKS chunks is the caller's generator itself, as before. */
/* Host buffers: zeroed like calloc on both paths (heap below 4 MiB, mmap from it, 2 MiB-aligned for huge pages),
 * writable to the last byte, freed by vkb_host_free; a size that overflows is refused. */
static void test_host_calloc(void)
{
    size_t sizes[] = {1, 4096, ((size_t)4 << 20) - 64, (size_t)4 << 20, ((size_t)9 << 20) + 3};
    for (size_t k = 0; k < sizeof(sizes) / sizeof(sizes[0]); k++) {
        unsigned char *p = vkb_host_calloc(sizes[k], 1);
        CHECK(p != NULL);
        if (!p) continue;
        size_t nz = 0;
        for (size_t i = 0; i < sizes[k]; i++) nz += p[i] != 0;
        CHECK(nz == 0);
        memset(p, 0xa5, sizes[k]);
        CHECK(p[sizes[k] - 1] == 0xa5 && ((uintptr_t)p & 15) == 0);
#if !defined(__SANITIZE_ADDRESS__)   /* the mmap path (ASan's builds take calloc's): its header starts a 2 MiB page */
        if (sizes[k] + 64 >= ((size_t)4 << 20)) CHECK((((uintptr_t)p - 64) & (((uintptr_t)2 << 20) - 1)) == 0);
#endif
        vkb_host_free(p);
    }
    float *f = vkb_host_calloc((size_t)3 << 20, sizeof(float));  /* 12 MiB: the mmap path, as a case buffer */
    CHECK(f != NULL && f[0] == 0 && f[((size_t)3 << 20) - 1] == 0);
    vkb_host_free(f);
    vkb_host_free(NULL);
    CHECK(vkb_host_calloc(SIZE_MAX / 2, 4) == NULL);
}

static void test_par_fill(void)
{
    size_t n = (size_t)VKB_PAR_CHUNKS * 65536 + 1234, bad = 0;
    float *a = malloc(n * sizeof(*a)), *b = malloc(n * sizeof(*b));
    gsl_rng *r1 = gsl_rng_alloc(gsl_rng_mt19937), *r2 = gsl_rng_alloc(gsl_rng_mt19937), *c = gsl_rng_alloc(vkb_rng_xoshiro);
    CHECK(a && b && r1 && r2 && c);
    if (!a || !b || !r1 || !r2 || !c) goto out;
    gsl_rng_set(r1, 42), gsl_rng_set(r2, 42);
    vkb_fill_normal_f32(r1, a, n, 1.0);
    vkb_fill_normal_f32(r2, b, n, 1.0);
    CHECK(memcmp(a, b, n * sizeof(*a)) == 0);
    CHECK(gsl_rng_get(r1) == gsl_rng_get(r2));          /* the caller's generator moved by the same draws */
    gsl_rng_set(r2, 42);
    uint64_t seed = (uint64_t)gsl_rng_get(r2) << 32;
    seed ^= gsl_rng_get(r2);
    size_t last = n / 65536;                             /* the short last chunk */
    for (size_t ci = 0; ci <= last; ci += last) {
        gsl_rng_set(c, (unsigned long)vkb_mix64(seed ^ vkb_mix64(ci)));
        for (size_t i = ci * 65536; i < n && i < (ci + 1) * 65536; i++)
            bad += a[i] != (float)gsl_ran_gaussian_ziggurat(c, 1.0);
    }
    CHECK(bad == 0);
    /* The generator itself: xoshiro256** from state {1, 2, 3, 4} gives 11520, 0, 1509978240 (its authors'
     * reference code), and uniform doubles lie in [0, 1). */
    xo_check(c);
    gsl_rng_set(r1, 7), gsl_rng_set(c, 7);
    c = (gsl_rng_free(c), gsl_rng_alloc(gsl_rng_mt19937));
    CHECK(c != NULL);
    if (!c) goto out;
    gsl_rng_set(c, 7);
    vkb_fill_uniform_f32(r1, a, 1000, -1, 1);          /* small: the caller's own sequence */
    bad = 0;
    for (size_t i = 0; i < 1000; i++) bad += a[i] != (float)(-1 + 2 * gsl_rng_uniform(c));
    CHECK(bad == 0);
out:
    free(a), free(b);
    if (r1) gsl_rng_free(r1);
    if (r2) gsl_rng_free(r2);
    if (c) gsl_rng_free(c);
}

static void test_fill_edge(void)
{
    /* Every value lies in its kind's range and is exact in the type (fp16 round trip); SPECIAL holds the
     * IEEE specials, the extremes and subnormals. */
    gsl_rng *r = gsl_rng_alloc(gsl_rng_mt19937);
    float x[4000];
    for (int f16 = 0; f16 < 2; f16++) {
        vkb_dtype t = f16 ? VKB_F16 : VKB_F32;
        double max = f16 ? 65504.0 : 0x1.fffffep127, mn = vkb_min_normal(t);
        int bad = 0, nan = 0, pinf = 0, ninf = 0, zero = 0, top = 0, sub = 0;
        for (int k = VKB_FILL_LARGE; k <= VKB_FILL_SUBNORMAL; k++) {
            vkb_fill_edge(r, x, 4000, t, (vkb_fill_kind)k);
            for (int i = 0; i < 4000; i++) {
                double a = fabs(x[i]);
                bad += f16 && !isnan(x[i]) && vkb_f16_to_f32(vkb_f32_to_f16(x[i])) != x[i];
                bad += k == VKB_FILL_LARGE && !(a >= 1 && a <= max);
                bad += k == VKB_FILL_SUBNORMAL && !(a > 0 && a <= 4 * mn);
                if (k != VKB_FILL_SPECIAL) continue;
                nan += isnan(x[i]), pinf += x[i] == INFINITY, ninf += x[i] == -INFINITY, zero += x[i] == 0;
                top += a == max, sub += a > 0 && a < mn;
            }
        }
        CHECK(bad == 0);
        CHECK(nan > 0 && pinf > 0 && ninf > 0 && zero > 0 && top > 0 && sub > 0);
    }
    gsl_rng_free(r);
}

static void test_check_bound(void)
{
    /* allowed_i = abs + rel |w| + ulps ulp(w) + bound_i; metric = max err/allowed. */
    float got[3] = {1.0f + 0x1p-22f, 100.0f, -4.0f};
    double want[3] = {1.0, 100.5, -4.0}, extra[3] = {0, 0.25, 0};
    vkb_check r;
    vkb_check_begin(&r, "bound", 1);
    vkb_tol tol = {.rel = 0x1p-23, .ulps = 1, .bound = extra};
    /* i=0: err 2^-22, allowed 2^-23 + ulp(1) = 2^-23 + 2^-23 = 2^-22 -> ratio 1 (passes, at the edge)
     * i=1: err 0.5, allowed 100.5 * 2^-23 + 2^-17 (ulp of 100.5 is 2^6 * 2^-23) + 0.25 -> fails */
    vkb_cmp_bound(&r, VKB_F32, got, want, 3, tol);
    CHECK(!r.pass && r.nbad == 1);
    CHECK_NEAR(r.metric, 0.5 / (100.5 * 0x1p-23 + 0x1p-17 + 0.25), 1e-12);
    CHECK_NEAR(r.max_abs, 0.5, 0);
    extra[1] = 0.5;
    vkb_check_begin(&r, "bound", 1);
    vkb_cmp_bound(&r, VKB_F32, got, want, 3, tol);
    CHECK(r.pass && r.metric <= 1);
    /* nmse = sum err^2 / sum want^2 */
    CHECK_NEAR(r.nmse, (0x1p-44 + 0.25) / (1 + 100.5 * 100.5 + 16), 1e-18);
    CHECK(vkb_ulp(VKB_F32, 1.0) == 0x1p-23 && vkb_ulp(VKB_F32, 0.75) == 0x1p-24);
    CHECK(vkb_ulp(VKB_F16, 1.0) == 0x1p-10 && vkb_ulp(VKB_F16, 0.0) == 0x1p-24);
    uint8_t g[8] = {0x5a, 0x5a, 0x5a, 0x11, 0x5a, 0x5a, 0x5a, 0x5a};
    CHECK(vkb_guard_first_change(g, 8, 0x5a) == 3 && vkb_guard_first_change(g, 3, 0x5a) == -1);
}

/* ---- check.c: infinite references, poison, bitwise mode ---------------------------------------------- */

static void test_check_bound_inf(void)
{
    /* An infinite reference passes only the same infinity, whatever the allowance: div f16 with rel > 0 makes
     * allowed = rel * Inf = Inf, and Inf / Inf = NaN must not read as "within the bound". */
    double want[1] = {INFINITY};
    uint16_t h[1] = {0x0000};                                    /* +0 where IEEE gives +Inf */
    vkb_tol tol = {.ulps = 1.0, .rel = 2.5 * 0x1p-23};
    vkb_check r;
    vkb_check_begin(&r, "bound", 1);
    vkb_cmp_bound(&r, VKB_F16, h, want, 1, tol);
    CHECK(!r.pass && r.nbad == 1 && isinf(r.metric));
    CHECK_HAS(r.detail, "i=0 got=0 want=inf");
    h[0] = 0x7bff;                                               /* 65504, the largest finite: not an infinity */
    vkb_check_begin(&r, "bound", 1);
    vkb_cmp_bound(&r, VKB_F16, h, want, 1, tol);
    CHECK(!r.pass && r.nbad == 1);
    h[0] = 0x7c00;                                               /* +Inf: the one accepted value */
    vkb_check_begin(&r, "bound", 1);
    vkb_cmp_bound(&r, VKB_F16, h, want, 1, tol);
    CHECK(r.pass && r.nbad == 0 && r.metric == 0);
    /* fp32, an infinite per-element bound (gelu's 2^-20 |x| at x = -Inf): -1 for -Inf still fails. */
    double wn[2] = {-INFINITY, 2.0}, bound[2] = {INFINITY, NAN};
    float g[2] = {-1.0f, 2.0f};
    vkb_tol tb = {.rel = 0x1p-23, .bound = bound};
    vkb_check_begin(&r, "bound", 1);
    vkb_cmp_bound(&r, VKB_F32, g, wn, 2, tb);
    CHECK(!r.pass && r.nbad == 1 && r.nnan == 0);               /* element 1 equals its reference exactly */
    g[1] = 2.5f;                                                 /* a NaN allowance never accepts an error */
    vkb_check_begin(&r, "bound", 1);
    vkb_cmp_bound(&r, VKB_F32, g, wn, 2, tb);
    CHECK(!r.pass && r.nbad == 2 && !(r.metric <= 1));
}

static void test_check_poison(void)
{
    /* The drivers' poison is a value no kernel writes: int8 -128 (codes lie in [-127, 127]), u32 a word of
     * sixteen code-3 fields (packed ternary codes are 0..2); and it is tested before the comparison. */
    int8_t q[3], want[3] = {-91, 5, 0};                          /* -91 was the old poison 0xA5 */
    vkb_poison_fill(VKB_I8, q, 3);
    CHECK(q[0] == -128 && q[2] == -128);
    q[1] = 5;                                                    /* element 1 written, 0 and 2 not */
    vkb_check r;
    vkb_check_begin(&r, "exact", 0);
    vkb_cmp_exact(&r, VKB_I8, q, want, 3);
    CHECK(!r.pass && r.nunwritten == 2 && r.nbad == 0 && r.metric == 2 && r.nchecked == 3);
    CHECK_HAS(r.detail, "i=0 got=-128 want=-91");
    int8_t wrote[1] = {-91};                                     /* a written -91 is a result, not poison */
    CHECK(!vkb_is_poison(VKB_I8, wrote, 0));
    vkb_check_begin(&r, "exact", 0);
    vkb_cmp_exact(&r, VKB_I8, wrote, want, 1);
    CHECK(r.pass && r.nunwritten == 0);
    uint32_t w[1];
    vkb_poison_fill(VKB_U32, w, 1);
    int invalid = 0;
    for (int f = 0; f < 16; f++) invalid += ((w[0] >> (2 * f)) & 3u) == 3u;
    CHECK(invalid == 16);                                        /* every field decodes to the invalid code 3 */
    uint32_t old[1] = {0xA5A5A5A5u};                             /* codes 1,1,2,2: a plausible packed word */
    CHECK(!vkb_is_poison(VKB_U32, old, 0) && vkb_is_poison(VKB_U32, w, 0));
    uint32_t same[1] = {w[0]};                                   /* unwritten even where the reference equals it */
    vkb_check_begin(&r, "exact", 0);
    vkb_cmp_exact(&r, VKB_U32, w, same, 1);
    CHECK(!r.pass && r.nunwritten == 1);
    int32_t acc[1];                                              /* int32 keeps 0xA5A5A5A5 (beyond 127 K) */
    vkb_poison_fill(VKB_I32, acc, 1);
    CHECK((uint32_t)acc[0] == 0xA5A5A5A5u);
    float f[1];
    uint16_t hf[1];
    vkb_poison_fill(VKB_F32, f, 1);
    vkb_poison_fill(VKB_F16, hf, 1);
    CHECK(isnan(f[0]) && vkb_is_poison(VKB_F32, f, 0) && hf[0] == 0x7E5B);
}

static uint32_t f32_bits(float x)
{
    uint32_t b;
    memcpy(&b, &x, sizeof(b));
    return b;
}

static void test_check_bits(void)
{
    /* A transpose moves bits: -0 and NaN payloads/signs must come through. Canonicalised values are 0 ULP
     * away (the ULP mode cannot see them) but differ bit for bit. */
    uint32_t want[5] = {0x80000000u, 0xFFC00000u, 0x7FC00001u, 0x3f800000u, 0x00000001u};  /* -0, -NaN, NaN(1), 1, min sub */
    uint32_t got[5] = {0x00000000u, 0x7FC00000u, 0x7FC00000u, 0x3f800000u, 0x00000001u};   /* +0, +NaN, NaN(0) */
    vkb_check r;
    vkb_check_begin(&r, "exact", 0);
    vkb_cmp_bits(&r, VKB_F32, got, want, NULL, 0, 5, VKB_NAN_BITS);
    CHECK(!r.pass && r.nbad == 3 && r.nnan == 0 && r.metric == 3 && r.nchecked == 5);
    CHECK_HAS(r.detail, "i=0 got=0 want=-0 (bits 0x00000000 vs 0x80000000)");
    vkb_check_begin(&r, "exact", 0);                             /* arithmetic: any NaN, but -0 is still -0 */
    vkb_cmp_bits(&r, VKB_F32, got, want, NULL, 0, 5, VKB_NAN_ANY);
    CHECK(!r.pass && r.nbad == 1 && r.metric == 1);
    vkb_check_begin(&r, "exact", 0);
    vkb_cmp_bits(&r, VKB_F32, want, want, NULL, 0, 5, VKB_NAN_BITS);  /* bits moved unchanged */
    CHECK(r.pass && r.metric == 0 && r.nbad == 0);
    /* An allowed alternative matches bit for bit too: the flushed subnormal, +0 (not -0). */
    uint32_t flushed[5] = {0x80000000u, 0xFFC00000u, 0x7FC00001u, 0x3f800000u, 0x00000000u};
    const void *alt[1] = {flushed};
    uint32_t g2[5] = {0x80000000u, 0xFFC00000u, 0x7FC00001u, 0x3f800000u, 0x00000000u};
    vkb_check_begin(&r, "exact", 0);
    vkb_cmp_bits(&r, VKB_F32, g2, want, alt, 1, 5, VKB_NAN_BITS);
    CHECK(r.pass);
    g2[4] = 0x80000000u;                                         /* -0 for a flushed +min subnormal */
    vkb_check_begin(&r, "exact", 0);
    vkb_cmp_bits(&r, VKB_F32, g2, want, alt, 1, 5, VKB_NAN_BITS);
    CHECK(!r.pass && r.nbad == 1);
    /* Order: unwritten, then NaN/Inf where the reference is finite (nnan), then bits. */
    uint32_t g3[3] = {VKB_POISON_F32, f32_bits(INFINITY), f32_bits(2.0f)}, w3[3] = {f32_bits(1.0f), f32_bits(1.0f), f32_bits(1.0f)};
    vkb_check_begin(&r, "exact", 0);
    vkb_cmp_bits(&r, VKB_F32, g3, w3, NULL, 0, 3, VKB_NAN_ANY);
    CHECK(!r.pass && r.nunwritten == 1 && r.nnan == 1 && r.nbad == 1 && r.metric == 3);
    uint16_t h[2] = {0x8000, 0x7e00}, hw[2] = {0x0000, 0xfe00};  /* fp16: -0 for +0, +NaN for -NaN */
    vkb_check_begin(&r, "exact", 0);
    vkb_cmp_bits(&r, VKB_F16, h, hw, NULL, 0, 2, VKB_NAN_BITS);
    CHECK(!r.pass && r.nbad == 2);
    CHECK_HAS(r.detail, "(bits 0x8000 vs 0x0000)");
}

/* The comparators split large outputs into fixed 2^20-element spans checked on several threads: every field of the
 * result must be what one thread gives, and the counts and first mismatches must be those worked out here. Three
 * spans and a tail (n = 3 * 2^20 + 7); mismatches planted in the second span, across a span border and in the
 * tail, a poison and a NaN in the third. */
static void test_check_spans(void)
{
    enum { S = 1 << 20 };
    size_t n = 3 * (size_t)S + 7;
    float *want = malloc(n * sizeof(float)), *got = malloc(n * sizeof(float));
    double *wd = malloc(n * sizeof(double));
    if (!want || !got || !wd) { CHECK(0); free(want); free(got); free(wd); return; }
    for (size_t i = 0; i < n; i++) want[i] = got[i] = (float)(1 + i % 1000) / 8, wd[i] = want[i];
    size_t bad[] = {S + 5, 2 * (size_t)S - 1, 2 * (size_t)S, 3 * (size_t)S + 6};  /* doubled */
    for (size_t k = 0; k < 4; k++) got[bad[k]] = 2 * want[bad[k]];
    uint32_t poison = VKB_POISON_F32;
    memcpy(&got[2 * (size_t)S + 10], &poison, 4);
    got[2 * (size_t)S + 11] = NAN;
    vkb_check one[3], many[3];
    for (int pass = 0; pass < 2; pass++) {
        vkb_check *r = pass ? many : one;
        vkb_check_set_threads(pass ? 4 : 1);
        vkb_check_begin(&r[0], "exact", 0);
        vkb_cmp_bits(&r[0], VKB_F32, got, want, NULL, 0, n, VKB_NAN_ANY);
        vkb_check_begin(&r[1], "ulp", 1);
        vkb_cmp_ulp(&r[1], VKB_F32, got, want, n, 1);
        vkb_check_begin(&r[2], "bound", 1);
        vkb_cmp_bound(&r[2], VKB_F32, got, wd, n, (vkb_tol){.rel = 0.25});
    }
    vkb_check_set_threads(1);
    for (int k = 0; k < 3; k++) {
        CHECK(!memcmp(&one[k], &many[k], sizeof(one[k])));  /* every field, detail included */
        CHECK(!one[k].pass && one[k].nbad == 4 && one[k].nunwritten == 1 && one[k].nnan == 1 && one[k].nchecked == n);
        CHECK_HAS(one[k].detail, "i=1048581 got=");  /* S + 5, first in index order */
        if (k) CHECK_HAS(one[k].detail, "i=3145734 got=");  /* the tail's 3S + 6 (bits' longer entries fill the 256 bytes first) */
    }
    CHECK(one[0].metric == 6);        /* bits: 4 bad + 1 NaN + 1 unwritten */
    CHECK(one[2].metric == 4);        /* bound: |2w - w| / (0.25 w) */
    CHECK_NEAR(one[2].max_rel, 1, 0);
    free(want);
    free(got);
    free(wd);
}


/* report.c's bootstrap of a speedup: exact on constant samples, brackets the point estimate, reproducible
 * from its seed, narrower with more samples, refuses fewer than two samples. */
static void test_report_bootstrap(void)
{
    double c[8] = {2, 2, 2, 2, 2, 2, 2, 2}, lo, hi, lo2, hi2;
    CHECK(vkb_report_boot_ratio(10, c, 8, 1000, 0.95, 1, &lo, &hi) == 0);
    CHECK(lo == 5 && hi == 5);
    double x[41], y[401];
    uint64_t s = 12345;
    for (int i = 0; i < 401; i++) {  /* skewed times: 1 + exponential(0.1) */
        s = s * 6364136223846793005ull + 1442695040888963407ull;
        double u = ((double)(s >> 11) + 0.5) / 9007199254740992.0;
        y[i] = 1 - 0.1 * log(u);
        if (i < 41) x[i] = y[i];
    }
    double sorted[41];
    memcpy(sorted, x, sizeof(sorted));
    for (int i = 0; i < 41; i++)  /* insertion sort: the median is sorted[20] */
        for (int j = i; j > 0 && sorted[j] < sorted[j - 1]; j--) {
            double t = sorted[j];
            sorted[j] = sorted[j - 1], sorted[j - 1] = t;
        }
    CHECK(vkb_report_boot_ratio(3, x, 41, 2000, 0.95, 7, &lo, &hi) == 0);
    CHECK(lo < 3 / sorted[20] && 3 / sorted[20] < hi);
    CHECK(lo > 3 / sorted[40] && hi < 3 / sorted[0]);
    CHECK(vkb_report_boot_ratio(3, x, 41, 2000, 0.95, 7, &lo2, &hi2) == 0 && lo2 == lo && hi2 == hi);
    CHECK(vkb_report_boot_ratio(3, y, 401, 2000, 0.95, 7, &lo2, &hi2) == 0 && hi2 - lo2 < hi - lo);
    CHECK(vkb_report_boot_ratio(3, x, 1, 1000, 0.95, 7, &lo, &hi) == -1 && isnan(lo) && isnan(hi));
    CHECK(vkb_report_boot_ratio(NAN, x, 41, 1000, 0.95, 7, &lo, &hi) == -1);
}

/* ---- issue 14: inputs, run directories, how a run ended ------------------------------------- */

static void test_parse_int_sums(void)
{
    int64_t v = 0;
    CHECK(!vkb_parse_int("2^20+1", &v) && v == 1048577);
    CHECK(!vkb_parse_int("1Mi-16", &v) && v == 1048560);          /* 1048576 - 16 */
    CHECK(!vkb_parse_int("-3+1", &v) && v == -2);
    CHECK(!vkb_parse_int("10-2-3", &v) && v == 5);                /* left to right */
    CHECK(!vkb_parse_int("1e+6", &v) && v == 1000000);            /* an exponent's sign, not an operator */
    CHECK(!vkb_parse_int("1e6+1", &v) && v == 1000001);
    CHECK(!vkb_parse_int("2^62-1+2^62", &v) && v == INT64_MAX);   /* 2^63 - 1 */
    CHECK(vkb_parse_int("2^62+2^62", &v) == -1);                  /* 2^63 overflows */
    CHECK(vkb_parse_int("5-", &v) == -1);
    CHECK(vkb_parse_int("5--3", &v) == -1);                       /* after an operator, a digit */
    CHECK(vkb_parse_int("5+x", &v) == -1);
    CHECK(vkb_parse_int("+", &v) == -1);
    CHECK(vkb_parse_int("2^-1", &v) == -1);
    CHECK(vkb_parse_int("1.5+1", &v) == -1);
}

static void test_suite_bytes(void)
{
    static const struct { const char *text; size_t len; const char *want; } bad[] = {
        {"add n=1000\0 dtype=f16 nosuchaxis=3\n", 35, "b.suite:1:11: control byte 0x00 (NUL)"},
        {"# ok\nadd n=1\r dtype=f16\n", 24, "b.suite:2:8: control byte 0x0d (CR)"},
        {"add n=1\x1b[0m\n", 12, "b.suite:1:8: control byte 0x1b"},
        {"add n=1 \x7f\n", 10, "b.suite:1:9: control byte 0x7f (DEL)"},
        {"add n=1\vdtype=f16\n", 18, "b.suite:1:8: control byte 0x0b"},
        {"", 0, "b.suite: no kernel line"},
        {"# only a comment\nset min_time=1\n", 32, "b.suite: no kernel line"},
        {"k a=1..101 b=1..101 c=1..101\n", 29, "b.suite:1: the line expands to more than 1000000 cases"},
    };
    for (size_t i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
        vkb_suite s = {0};
        vkb_options o = default_opt();
        char err[256] = "";
        CHECK(vkb_suite_parse_mem(&s, "b.suite", bad[i].text, bad[i].len, &o, err, sizeof(err)) == -1);
        CHECK_HAS(err, bad[i].want);
        vkb_suite_free(&s);
    }
    /* Tab is whitespace, and CRLF line ends are fine; inline text (-e) may hold only set lines. */
    vkb_suite s = {0};
    vkb_options o = default_opt();
    char err[256] = "";
    CHECK(vkb_suite_parse_mem(&s, "b.suite", "add\tn=2^10+1\r\nsum n=1\r\n", 22, &o, err, sizeof(err)) == 0);
    CHECK(s.nline == 2);
    if (s.nline == 2) CHECK_STR(s.line[0].axis[0].val[0], "2^10+1");
    CHECK(vkb_suite_parse(&s, "-e#1", "set min_time=1", &o, err, sizeof(err)) == 0 && o.min_time == 1);
    vkb_suite_free(&s);
}

static int make_file(const char *dir, const char *name, const char *text)
{
    char path[700];
    snprintf(path, sizeof(path), "%s/%s", dir, name);
    return write_file(path, text);
}

static int exists(const char *dir, const char *name)
{
    char path[700];
    struct stat st;
    snprintf(path, sizeof(path), "%s/%s", dir, name);
    return stat(path, &st) == 0;
}

static void test_rundir(void)
{
    char root[512], base[600], err[512], a_out[512], b_out[512];
    vkb_rundir a, b, c;
    snprintf(root, sizeof(root), "%s/vkb_rundir_%d", g_tmpdir, (int)getpid());
    snprintf(base, sizeof(base), "%s/run", root);
    /* One name, two runs: the second gets base.2; both are locked. */
    CHECK(vkb_rundir_open(&a, base, 0, 0, err, sizeof(err)) == 0);
    CHECK(vkb_rundir_open(&b, base, 0, 0, err, sizeof(err)) == 0);
    CHECK_STR(a.path, base);
    CHECK_HAS(b.path, "/run.2");
    /* --dir onto a locked directory: refused, even with force, naming our pid. */
    CHECK(vkb_rundir_open(&c, a.path, 1, 1, err, sizeof(err)) == -1);
    CHECK_HAS(err, "is in use by vkbench pid");
    /* Both registered for one device: each sees the other while both live. */
    vkb_rundir_register(&a, "Test GPU 1234");
    vkb_rundir_register(&b, "Test GPU 1234");
    vkb_rundir_overlap(&a, a_out, sizeof(a_out));
    vkb_rundir_overlap(&b, b_out, sizeof(b_out));
    CHECK_HAS(a_out, b.path);
    CHECK_HAS(b_out, a.path);
    CHECK(make_file(b.path, "run.txt", "vkbench run\nstatus: complete\n") == 0);
    vkb_rundir_close(&b);
    usleep(2000);   /* b's end time is written to the microsecond: stay clear of it */
    vkb_rundir_overlap(&a, a_out, sizeof(a_out));   /* b ended during this window: still named */
    CHECK_HAS(a_out, b.path);
    vkb_rundir_overlap(&a, a_out, sizeof(a_out));   /* and not in the next one */
    CHECK_STR(a_out, "none");
    /* How runs ended. */
    CHECK(vkb_rundir_state(b.path, NULL, 0) == VKB_RUN_COMPLETE);
    CHECK(vkb_rundir_state(a.path, err, sizeof(err)) == VKB_RUN_UNKNOWN);   /* no run.txt */
    CHECK(make_file(a.path, "run.txt", "vkbench run\nseed: 1\n") == 0);
    CHECK(vkb_rundir_state(a.path, err, sizeof(err)) == VKB_RUN_RUNNING);   /* a holds the lock */
    CHECK_HAS(err, "still running");
    CHECK(make_file(a.path, "results.csv", "kernel\n") == 0 && make_file(a.path, "report.md", "# r\n") == 0);
    vkb_rundir_close(&a);
    CHECK(vkb_rundir_state(a.path, err, sizeof(err)) == VKB_RUN_KILLED);
    CHECK_STR(err, "killed: run.txt has no status line");
    char csv[700];
    snprintf(csv, sizeof(csv), "%s/results.csv", a.path);
    CHECK(vkb_rundir_state(csv, NULL, 0) == VKB_RUN_KILLED);                /* a results.csv names its run */
    CHECK(make_file(a.path, "run.txt", "status: interrupted after 3 of 10 cases\n") == 0);
    CHECK(vkb_rundir_state(a.path, err, sizeof(err)) == VKB_RUN_INTERRUPTED);
    CHECK_STR(err, "interrupted after 3 of 10 cases");
    CHECK(make_file(a.path, "run.txt", "finished: complete after 2 of 2 cases\n") == 0);   /* before the status line */
    CHECK(vkb_rundir_state(a.path, NULL, 0) == VKB_RUN_COMPLETE);
    /* --dir onto a finished run: refused without force; with force its report goes, its lock is taken. */
    CHECK(vkb_rundir_open(&c, a.path, 1, 0, err, sizeof(err)) == -1);
    CHECK_HAS(err, "already holds a run");
    CHECK(exists(a.path, "report.md"));
    CHECK(vkb_rundir_open(&c, a.path, 1, 1, err, sizeof(err)) == 0);
    CHECK(!exists(a.path, "report.md") && exists(a.path, "results.csv"));
    vkb_rundir_close(&c);
    /* A --dir that does not exist yet is made. */
    snprintf(base, sizeof(base), "%s/deep/er", root);
    CHECK(vkb_rundir_open(&c, base, 1, 0, err, sizeof(err)) == 0);
    vkb_rundir_close(&c);
    vkb_rundir_close(NULL);
    char cmd[700];
    snprintf(cmd, sizeof(cmd), "rm -rf '%s'", root);
    CHECK(system(cmd) == 0);
    CHECK(vkb_result_column("status") >= 0 && vkb_result_column("concurrent_runs") >= 0);
    CHECK(vkb_result_column("nosuchcol") == -1);
}

/* ---- devpeak: theoretical ceilings from the device table ------------------------------------- */

static void test_devpeak(void)
{
    char why[240];
    const vkb_devpeak *h = vkb_devpeak_find(0x10de, 0x2330);  /* H100 SXM5: 132 SMs, Hopper rates */
    CHECK(h != NULL);
    if (h) {
        CHECK(h->sms == 132);
        CHECK_NEAR(h->flop_per_clk[VKB_PEAK_FMA], 256, 0);    /* 128 fp32 lanes x 2 */
        CHECK_NEAR(h->flop_per_clk[VKB_PEAK_MMA], 4096, 0);
    }
    CHECK(vkb_devpeak_find(0x10de, 0x2335) != NULL);          /* H200 SXM */
    CHECK(vkb_devpeak_find(0x1002, 0x2330) == NULL);          /* the vendor is part of the key */
    /* The datasheet's dense fp16 figure at its 1830 MHz: 132 x 4096 x 1.83e9 = 540,672 x 1.83e9 = 989,429,760,000,000. */
    vkb_devpeak_in in = {0, 0x10de, 0x2330, 0, 1.83e9, NULL};
    CHECK_NEAR(vkb_devpeak_flops(&in, VKB_PEAK_MMA, why, sizeof(why)), 98942976e7, 1);
    CHECK_HAS(why, "132 SMs (table)");
    /* fp32 at 1980 MHz with the driver's SM count: 132 x 256 x 1.98e9 = 66,908,160,000,000 (datasheet: 67). */
    in.sms = 132, in.clock_Hz = 1.98e9;
    CHECK_NEAR(vkb_devpeak_flops(&in, VKB_PEAK_FMA, why, sizeof(why)), 6690816e7, 1);
    CHECK_HAS(why, "(driver)");
    /* A100 SXM4 80GB at 1410 MHz: 108 x 2048 x 1.41e9 = 311,869,440,000,000 (datasheet: 312). */
    vkb_devpeak_in a = {0, 0x10de, 0x20b2, 0, 1.41e9, NULL};
    CHECK_NEAR(vkb_devpeak_flops(&a, VKB_PEAK_MMA, why, sizeof(why)), 31186944e7, 1);
    vkb_devpeak_in cpu = {1, 0x10005, 0, 0, NAN, "x"};
    CHECK(isnan(vkb_devpeak_flops(&cpu, VKB_PEAK_FMA, why, sizeof(why))));
    CHECK_HAS(why, "CPU device");
    vkb_devpeak_in unk = {0, 0x10de, 0x1234, 0, 1e9, NULL};
    CHECK(isnan(vkb_devpeak_flops(&unk, VKB_PEAK_MMA, why, sizeof(why))));
    CHECK_HAS(why, "0x1234 is not in the table");
    vkb_devpeak_in noclk = {0, 0x10de, 0x2331, 0, NAN, "no NVML device"};
    CHECK(isnan(vkb_devpeak_flops(&noclk, VKB_PEAK_MMA, why, sizeof(why))));
    CHECK_HAS(why, "no NVML device");
    CHECK_STR(vkb_cm_type_name(0), "fp16");
    CHECK_STR(vkb_cm_type_name(5), "sint32");
    CHECK_STR(vkb_cm_type_name(12), "type12");
}

/* ---- ceilings: utilization reasons and the calibration block (harness/ceiling.c) --------------- */

static void calib_fixture(vkb_calib *c)
{
    memset(c, 0, sizeof(*c));
    for (int i = 0; i < VKB_CAL_N; i++) c->val[i] = NAN;
    c->val[VKB_CAL_COPY] = 100e9, c->val[VKB_CAL_READ] = 150e9, c->val[VKB_CAL_COOPMAT] = 386e12;
    c->val[VKB_CAL_FMA] = 60e12;
    c->theo_Bps = 120e9;                                   /* copy is 83% of it: no line */
    c->theo_flops[VKB_PEAK_FMA] = 66.9e12;                 /* fma 90%: no line */
    c->theo_flops[VKB_PEAK_MMA] = 1070e12;                 /* coopmat 36.1%: below 70% */
    c->copy_calibrated = 90e9;
    /* Refresh samples: best 100, median 98, min 95 (range 5/98 = 5.1%), IQR 97..99 (2.0%). */
    c->refresh = (vkb_calib_refresh){9, 1u << 26, 100e9, 98e9, 97e9, 99e9, 95e9, 0.25, ""};
}

static void test_calib_row(void)
{
    vkb_calib c;
    vkb_result r;
    calib_fixture(&c);
    vkb_result_init(&r);
    r.bw_Bps = 120e9, r.flop_per_s = NAN, r.time_median_s = 1;  /* 120% of copy, 80% of read */
    vkb_calib_row(&c, &r);
    CHECK_NEAR(r.bw_frac_copy, 1.2, 1e-12);
    CHECK_HAS(r.util_why, "within the read-only ceiling read_Bps (80.0% of it): a read-heavy mix");
    CHECK_NEAR(r.theoretical_coopmat_flop_per_s, 1070e12, 0);
    CHECK_HAS(r.ceiling_why, "coopmat_flop_per_s: measured 36.1% of theoretical_coopmat_flop_per_s");
    CHECK(!strstr(r.ceiling_why, "fma_flop_per_s: measured"));
    c.val[VKB_CAL_READ] = 101e9;                               /* 103% of copy, above read, within the 5.1% range */
    r.bw_Bps = 103e9;
    vkb_calib_row(&c, &r);
    CHECK_HAS(r.util_why, "by less than the copy refresh's own spread (min to best 5.1%, IQR 2.0% over 9 runs)");
    r.bw_Bps = 200e9;                                          /* 200%: above both */
    vkb_calib_row(&c, &r);
    CHECK_HAS(r.util_why, "the working set may stay in cache");
    r.bw_Bps = 99e9;                                           /* under 100%: no reason */
    vkb_calib_row(&c, &r);
    CHECK(!strstr(r.util_why, "bw_frac_copy"));
    /* NA theoretical ceilings with one reason are named once. */
    c.theo_flops[0] = c.theo_flops[1] = NAN;
    snprintf(c.theo_flops_why[0], sizeof(c.theo_flops_why[0]), "CPU device");
    snprintf(c.theo_flops_why[1], sizeof(c.theo_flops_why[1]), "CPU device");
    vkb_calib_row(&c, &r);
    CHECK_STR(r.ceiling_why, "theoretical FLOP/s: CPU device");
    CHECK(isnan(r.theoretical_fma_flop_per_s));
}

static void test_calib_print(void)
{
    vkb_calib c;
    char path[512], text[8192];
    calib_fixture(&c);
    snprintf(c.probe, sizeof(c.probe), "coopmat_probe: NV f16f32 16x8x16 grid 2x4 sgs 4: 3.86e+14 FLOP/s\n");
    snprintf(path, sizeof(path), "%s/vkb_unit_calib_%d.txt", g_tmpdir, (int)getpid());
    FILE *f = fopen(path, "w+");
    CHECK(f != NULL);
    if (!f) return;
    vkb_calib_print(f, &c);
    rewind(f);
    size_t n = fread(text, 1, sizeof(text) - 1, f);
    text[n] = 0;
    fclose(f);
    remove(path);
    CHECK_HAS(text, "ceiling_copy_Bps: 100000000000\n");
    CHECK_HAS(text, "copy_refresh_median_Bps: 98000000000\n");
    CHECK_HAS(text, "copy_refresh_iqr_Bps: 2000000000\n");
    CHECK_HAS(text, "copy_refresh_samples: 9\n");
    CHECK_HAS(text, "ceiling_below_theoretical: coopmat_flop_per_s 3.86e+14 is 36.1% of theoretical_coopmat_flop_per_s");
    CHECK(!strstr(text, "ceiling_below_theoretical: fma_flop_per_s"));
    CHECK(!strstr(text, "ceiling_below_theoretical: copy_Bps"));
    CHECK_HAS(text, "utilization_flop_frac_coopmat: flop_per_s / ceiling_coopmat_flop_per_s");
    CHECK_HAS(text, "utilization_bw_frac_theoretical: bw_Bps / theoretical_Bps");
    CHECK_HAS(text, "coopmat_probe: NV f16f32 16x8x16 grid 2x4 sgs 4");
}

/* The report's number format (one notation per column: plain decimal, %g's digits) and its kernel families. */
static void test_report_fmt_family(void)
{
    static const struct { double v; int sig; const char *want; } f[] = {
        {23034.4, 4, "23030"}, {3133.2, 4, "3133"}, {0.000567, 3, "0.000567"}, {22.9, 4, "22.9"}, {26, 4, "26"},
        {-1.5e5, 3, "-150000"}, {0, 3, "0"}, {999.96, 4, "1000"}, {0.09996, 3, "0.1"}, {178, 9, "178"}, {1e-7, 2, "0.0000001"},
    };
    char out[64];
    for (size_t i = 0; i < sizeof(f) / sizeof(f[0]); i++) {
        rep_fmt_sig(f[i].v, f[i].sig, out, sizeof(out));
        CHECK(!strcmp(out, f[i].want));
        CHECK(fabs(strtod(out, NULL) - f[i].v) <= fabs(f[i].v) * 5e-4 * pow(10, 4 - f[i].sig) + 1e-300);  /* same value to sig digits */
    }
    vkb_result r;
    vkb_result_init(&r);
    CHECK(!strcmp(rep_family("gelu"), "elementwise") && !strcmp(rep_family("bitnet_linear"), "BitNet"));
    CHECK(!strcmp(rep_family("new_kernel"), "new_kernel") && rep_family_index("new_kernel") == -1);
    snprintf(r.kernel, sizeof(r.kernel), "matmul");
    snprintf(r.variant, sizeof(r.variant), "coopmat_f256");
    CHECK(rep_on_matrix_units(&r));
    snprintf(r.variant, sizeof(r.variant), "coopmat_f256_emu");   /* emulated on plain FMA */
    CHECK(!rep_on_matrix_units(&r));
    snprintf(r.variant, sizeof(r.variant), "tiled");
    CHECK(!rep_on_matrix_units(&r));
    snprintf(r.variant, sizeof(r.variant), "auto:coopmat_64");    /* what variant=auto chose */
    CHECK(rep_on_matrix_units(&r));
    snprintf(r.variant, sizeof(r.variant), "auto:tiled_64");
    CHECK(!rep_on_matrix_units(&r));
    snprintf(r.kernel, sizeof(r.kernel), "peak_coopmat");
    CHECK(rep_on_matrix_units(&r));
}

/* ---- spvkhr: NV cooperative matrix -> KHR ---------------------------------------------------- */

/* A hand-assembled module in glslang 12's NV form (the rewrite reads instructions, not a whole valid module):
 * ids 1 uint, 2 f32, 3 f16, 4 bool, 5 = uint 2 (Workgroup), 6 = 16, 7 false, 8 true, 11 = 32, 27 = 48, 13 / 15
 * pointers to f16 in a storage buffer / shared memory, 16 / 18 element pointers into each, types 9 A f16 16x32, 10 B
 * f16 16x32, 12 C f32 16x32 (bound 30); 21 = load A (row-major, stride 48, from 16), 22 = load B (column-major, memory access None; from 18 with the
 * marker, else 16), 23 undef C, 24 = MulAdd, a store of 24 to 16. scope_a: A's scope id; a_as_b: B loaded as type 9;
 * marker: NULL, or the name of OpName %25 (unused otherwise; 16 characters: "vkb_tensor_loads", "vkb_khr_subgroup"). */
static size_t spv_nv_module(uint32_t *w, uint32_t scope_a, int a_as_b, const char *marker)
{
    size_t k = 0;
#define I(op, ...) do { const uint32_t x_[] = {__VA_ARGS__}; size_t n_ = sizeof(x_) / 4; \
        w[k++] = (uint32_t)((n_ + 1) << 16) | (op); memcpy(w + k, x_, sizeof(x_)); k += n_; } while (0)
    w[k++] = 0x07230203u, w[k++] = 0x00010500u, w[k++] = 0, w[k++] = 30, w[k++] = 0;
    I(17, 1);                                                       /* OpCapability Shader */
    I(17, 5357);                                                    /* OpCapability CooperativeMatrixNV */
    I(10, 0, 0, 0, 0, 0, 0, 0);                                     /* OpExtension, 25 characters + NUL */
    memcpy(w + k - 7, "SPV_NV_cooperative_matrix", 26);
    if (marker) {                                                   /* OpName %25 marker */
        I(5, 25, 0, 0, 0, 0, 0);
        memcpy(w + k - 5, marker, 17);
    }
    I(21, 1, 32, 0); I(22, 2, 32); I(22, 3, 16); I(20, 4); I(21, 28, 8, 1);  /* 28: int8, signed */
    I(43, 1, 5, 2); I(43, 1, 6, 16); I(42, 4, 7); I(41, 4, 8); I(43, 1, 11, 32); I(43, 1, 14, 3); I(43, 1, 27, 48);
    I(5358, 9, 3, scope_a, 6, 11); I(5358, 10, 3, 5, 6, 11); I(5358, 12, 2, 5, 6, 11);
    I(32, 13, 12, 3);                                               /* 13: pointer to f16 in a storage buffer */
    I(32, 15, 4, 3);                                                /* 15: pointer to f16 in shared memory */
    I(65, 13, 16, 17, 14);                                          /* 16, 18: element pointers, buffer and shared */
    I(65, 15, 18, 19, 14);
    I(5359, 9, 21, 16, 27, 7);
    I(5359, a_as_b ? 9 : 10, 22, marker ? 18 : 16, 11, 8, 0);
    I(1, 12, 23);
    I(5361, 12, 24, 21, 22, 23);
    I(5360, 16, 24, 11, 7);
#undef I
    return k;
}

/* The value of uint constant id in module w (n words), -1 if not declared before word `before`. */
static long spv_const_before(const uint32_t *w, size_t n, uint32_t id, size_t before)
{
    for (size_t at = 5; at < n && at < before; at += w[at] >> 16)
        if ((w[at] & 0xffffu) == 43 && w[at + 2] == id) return (long)w[at + 3];
    return -1;
}

static void test_spv_khr(void)
{
    uint32_t in[256], *out = NULL;  /* the marked module is ~140 words */
    size_t outn = 0;
    char err[200] = "";
    size_t n = spv_nv_module(in, 14, 0, NULL);  /* A at subgroup scope (id 14 = 3), B and C at workgroup scope */
    CHECK(vkb_spv_khr(in, n, &out, &outn, err, sizeof(err)) == 1);
    if (out) {
        CHECK(out[3] == 32);  /* bound 30 + two new constants (0 and 1; 2 is id 5) */
        int types = 0, loads = 0, stores = 0, muladds = 0, nv = 0, cap = 0, exts = 0;
        for (size_t at = 5; at < outn; at += out[at] >> 16) {
            uint32_t op = out[at] & 0xffffu, wc = out[at] >> 16;
            CHECK(wc > 0 && at + wc <= outn);
            if (wc == 0) break;
            if (op >= 5357 && op <= 5362) nv++;
            if (op == 17 && out[at + 1] == 6022) cap++;
            if (op == 10) {
                const char *sx = (const char *)(out + at + 1);
                exts += !strcmp(sx, "SPV_KHR_cooperative_matrix") || !strcmp(sx, "SPV_NV_cooperative_matrix2");
            }
            if (op == 4456) {  /* result, component, scope, rows, cols, Use: A 0, B 1, accumulator 2 */
                types++;
                CHECK(wc == 7);
                long want = out[at + 1] == 9 ? 0 : out[at + 1] == 10 ? 1 : 2;
                CHECK(spv_const_before(out, outn, out[at + 6], at) == want);
            }
            if (op == 4457) {  /* type, result, pointer, layout, stride [access] */
                loads++;
                CHECK(spv_const_before(out, outn, out[at + 4], at) == (out[at + 2] == 21 ? 0 : 1));
                CHECK(out[at + 5] == (out[at + 2] == 21 ? 27u : 11u));
                CHECK(wc == (out[at + 2] == 21 ? 6u : 7u));
            }
            if (op == 4458) {  /* pointer, object, layout, stride */
                stores++;
                CHECK(spv_const_before(out, outn, out[at + 3], at) == 0 && out[at + 4] == 11);
            }
            if (op == 4459) muladds += wc == 6 && out[at + 3] == 21 && out[at + 4] == 22 && out[at + 5] == 23;
        }
        CHECK(types == 3 && loads == 2 && stores == 1 && muladds == 1);
        CHECK(nv == 0 && cap == 1 && exts == 2);
        free(out);
    }
    /* Every matrix at subgroup scope: valid NV SPIR-V, left alone. */
    n = spv_nv_module(in, 14, 0, NULL);
    for (size_t at = 5; at < n; at += in[at] >> 16)
        if ((in[at] & 0xffffu) == 5358) in[at + 3] = 14;
    out = NULL;
    CHECK(vkb_spv_khr(in, n, &out, &outn, err, sizeof(err)) == 0 && out == NULL);
    /* ... with a signed int8 A as well (NVIDIA's int8 kernels); at workgroup scope it is rewritten, and its MulAdd gains
     * KHR's operands word, MatrixASignedComponents (0x1): KHR would read the components unsigned without it. */
    for (size_t at = 5; at < n; at += in[at] >> 16)
        if ((in[at] & 0xffffu) == 5358 && in[at + 1] == 9) in[at + 2] = 28;
    CHECK(vkb_spv_khr(in, n, &out, &outn, err, sizeof(err)) == 0 && out == NULL);
    for (size_t at = 5; at < n; at += in[at] >> 16)
        if ((in[at] & 0xffffu) == 5358) in[at + 3] = 5;
    CHECK(vkb_spv_khr(in, n, &out, &outn, err, sizeof(err)) == 1);
    if (out) {
        int signed_muladds = 0, nv = 0;
        for (size_t at = 5; at < outn && out[at] >> 16; at += out[at] >> 16) {
            nv += (out[at] & 0xffffu) >= 5357 && (out[at] & 0xffffu) <= 5362;
            signed_muladds += (out[at] & 0xffffu) == 4459 && out[at] >> 16 == 7 && out[at + 3] == 21 && out[at + 6] == 1;
        }
        CHECK(signed_muladds == 1 && nv == 0);
        free(out), out = NULL;
    }
    /* Subgroup scope only, with the marker (OpName "vkb_khr_subgroup"): rewritten all the same, the signed MulAdd too. */
    n = spv_nv_module(in, 14, 0, "vkb_khr_subgroup");
    for (size_t at = 5; at < n; at += in[at] >> 16)
        if ((in[at] & 0xffffu) == 5358) in[at + 3] = 14, in[at + 2] = in[at + 1] == 9 ? 28 : in[at + 2];
    CHECK(vkb_spv_khr(in, n, &out, &outn, err, sizeof(err)) == 1);
    if (out) {
        int khr_types = 0, signed_muladds = 0;
        for (size_t at = 5; at < outn && out[at] >> 16; at += out[at] >> 16) {
            khr_types += (out[at] & 0xffffu) == 4456 && out[at + 3] == 14;
            signed_muladds += (out[at] & 0xffffu) == 4459 && out[at] >> 16 == 7 && out[at + 6] == 1;
        }
        CHECK(khr_types == 3 && signed_muladds == 1);
        free(out), out = NULL;
    }
    /* One type as both A and B: no single Use for it. */
    n = spv_nv_module(in, 5, 1, NULL);
    CHECK(vkb_spv_khr(in, n, &out, &outn, err, sizeof(err)) == -1 && out == NULL);
    CHECK_HAS(err, "more than one role");
    /* A cut module: the last instruction runs past the end. */
    n = spv_nv_module(in, 5, 0, NULL);
    CHECK(vkb_spv_khr(in, n - 1, &out, &outn, err, sizeof(err)) == -1);
    CHECK_HAS(err, "runs past the end");
    /* The marker, both matrices at workgroup scope: A's load from the storage buffer becomes a tensor load of a 16 x 32
     * layout (A's rows %6 and cols %11, in that order) at strides (%27 = 48, 1); B's load from shared memory stays a
     * plain one. New ids: constants 0 and 1 (30, 31), the layout type, three undefs, the load's three layouts: bound 39,
     * each defined once. */
    n = spv_nv_module(in, 5, 0, "vkb_tensor_loads");
    CHECK(vkb_spv_khr(in, n, &out, &outn, err, sizeof(err)) == 1);
    if (out) {
        uint32_t layout = 0, dims = 0, strided = 0, tl_type = 0, seen[64] = {0};
        int tensor = 0, plain = 0, caps = 0, undef9 = 0, ext = 0, twice = 0;
        CHECK(out[3] == 39);
        for (size_t at = 5; at < outn && out[at] >> 16; at += out[at] >> 16) {
            uint32_t op = out[at] & 0xffffu;
            caps += op == 17 && (out[at + 1] == 5439 || out[at + 1] == 5433);
            ext += op == 10 && !strcmp((const char *)(out + at + 1), "SPV_NV_tensor_addressing");
            uint32_t res = op == 5370 || op == 4456 ? out[at + 1] : op == 43 || op == 1 || op == 5372 || op == 5373 ||
                           op == 5374 || op == 5367 ? out[at + 2] : 0;
            if (res) {
                CHECK(res < out[3] && res < 64);
                if (res < 64) twice += seen[res]++ > 0;
            }
            if (op == 5370) {
                tl_type = out[at + 1];
                CHECK(spv_const_before(out, outn, out[at + 2], at) == 2);
            }
            if (op == 1 && out[at + 1] == 9) undef9 = (int)out[at + 2];
            if (op == 5373) {
                dims = out[at + 2];
                CHECK(out[at + 1] == tl_type && out[at + 4] == 6 && out[at + 5] == 11);
            }
            if (op == 5374) {
                strided = out[at + 2];
                CHECK(out[at + 3] == dims && out[at + 4] == 27 && spv_const_before(out, outn, out[at + 5], at) == 1);
            }
            if (op == 5367) {  /* type result pointer object layout memory tensor-operands */
                tensor++, layout = out[at + 5];
                CHECK(out[at + 1] == 9 && out[at + 2] == 21 && out[at + 3] == 16 && (int)out[at + 4] == undef9);
            }
            if (op == 4457) {
                plain++;
                CHECK(out[at + 2] == 22 && out[at + 3] == 18);
            }
        }
        CHECK(tensor == 1 && plain == 1 && caps == 2 && ext == 1 && twice == 0 && layout && layout == strided && undef9);
        free(out);
    }
}

/* dense_f16 coopmat_g's wide tiling (wn=4, two K parts, ub=2; reference/bitnet_linear.h) on the shapes it was measured
 * on (28672x4096 and 36864x4096 at m = 17, 24, 32, an H200's 132 SMs) and at each bound: tokens, K and the tiles an SM. */
static void test_dense_g_wide(void)
{
    CHECK(dense_g_wide(28672, 4096, 32, 132) && dense_g_wide(28672, 4096, 17, 132) && dense_g_wide(36864, 4096, 24, 132));
    CHECK(!dense_g_wide(28672, 4096, 16, 132) && !dense_g_wide(28672, 4096, 33, 132));   /* tokens */
    CHECK(!dense_g_wide(28672, 4032, 32, 132) && dense_g_wide(4224, 14336, 32, 33));       /* K; 132 tiles on 33 SMs */
    CHECK(dense_g_wide(16896, 4096, 32, 132) && !dense_g_wide(16864, 4096, 32, 132));    /* 528 = 4 x 132 tiles, 527 */
    CHECK(!dense_g_wide(13824, 2560, 32, 132) && !dense_g_wide(4096, 14336, 32, 132) && !dense_g_wide(6144, 4096, 32, 132));
    CHECK(dense_g_wide(14592, 4096, 32, 114) && !dense_g_wide(14560, 4096, 32, 114));    /* 456 = 4 x 114, 455 */
    /* the long-K tiling (ts=1 sk=8 ub=2): 4096x14336 at m = 17, 24, 32; not 2560x6912 (K 6912), K 8128, 16 or 33 tokens,
     * nor where the wide tiling applies (28672x14336) */
    CHECK(dense_g_longk(4096, 14336, 32, 132) && dense_g_longk(4096, 14336, 17, 132) && dense_g_longk(64, 8192, 24, 132));
    CHECK(!dense_g_longk(2560, 6912, 32, 132) && !dense_g_longk(4096, 8128, 32, 132));
    CHECK(!dense_g_longk(4096, 14336, 16, 132) && !dense_g_longk(4096, 14336, 33, 132) && !dense_g_longk(28672, 14336, 32, 132));
}

/* hmma's 16x8x16 panels per subgroup (reference/bitnet_linear.h) on the shapes sweep_s35a.txt (e) measured and at the bound:
 * 4 from 3 64-row tiles an SM (28672 rows, 448 tiles on 132 SMs; 20480 rows at two token tiles), else 2. */
static void test_hmma_n8_wn(void)
{
    CHECK(bitnet_hmma_n8_wn(1792, 1, 132) == 4 && bitnet_hmma_n8_wn(1280, 1, 132) == 2 && bitnet_hmma_n8_wn(864, 1, 132) == 2);
    CHECK(bitnet_hmma_n8_wn(384, 1, 132) == 2 && bitnet_hmma_n8_wn(1280, 2, 132) == 4);
    CHECK(bitnet_hmma_n8_wn(1581, 1, 132) == 4 && bitnet_hmma_n8_wn(1580, 1, 132) == 2);  /* 396 = 3 x 132 tiles, 395 */
    CHECK(bitnet_hmma_n8_wn(1280, 1, 106) == 4 && bitnet_hmma_n8_wn(1280, 1, 107) == 2);  /* 320 tiles: 3 x 106, 3 x 107 */
}

/* mma_kp's shared-x rule (reference/bitnet_linear.h) on the issue-15 shapes of its measurements, an H200's 132 SMs and
 * 48 KiB (3072 uvec4): the tilings sweep_s33c.txt measured fastest, nothing where it measured none, and lavapipe's
 * 32 KiB (2048) fitting only what fits. */
static void test_kp_xs_rule(void)
{
    /* wn=2 at 32 tokens: a W slab 32 x 5 uvec4, a part's x stages 2 x 32 x 5, 2 x 2 accumulators of 16x16 int32, 32 ones */
#define XS_RULE(n, nc, sms, words) bitnet_kp_xs_rule(((n) + 31) / 32, nc, sms, words, 160, 320, 256, 32, &sk, &sgs)
    int64_t sk = -1, sgs = -1;
    CHECK(XS_RULE(13824, 40, 132, 3072) && sk == 3 && sgs == 12);   /* SR 4 */
    CHECK(XS_RULE(20480, 50, 132, 3072) && sk == 2 && sgs == 10);   /* SR 5 */
    CHECK(XS_RULE(25344, 64, 132, 3072) && sk == 2 && sgs == 12);   /* SR 6: 792 tiles */
    CHECK(XS_RULE(28672, 64, 132, 3072) && sk == 1 && sgs == 4);    /* SR 7 */
    sk = sgs = -1;
    CHECK(!XS_RULE(6144, 64, 132, 3072) && sk == -1 && sgs == -1);  /* SR 2 */
    CHECK(!XS_RULE(4096, 224, 132, 3072));                           /* SR 1 */
    CHECK(!XS_RULE(12672, 40, 132, 3072));                           /* 396 tiles: SR 3 */
    CHECK(XS_RULE(12704, 40, 132, 3072) && sk == 3 && sgs == 12);    /* 397: SR 4 */
    sk = sgs = -1;
    CHECK(!XS_RULE(13824, 39, 132, 3072) && sk == -1);               /* 39 groups a row */
    CHECK(!XS_RULE(16896, 16, 132, 3072));                           /* 16896x1000 */
    /* 32 KiB (2048 uvec4): SR 4 at sk 3 needs 2912, at sk 2 1952 (and 8 x 256 accumulators: 2048, just); SR 5 at sk 2
     * needs 2272, so nothing; SR 7's 992 fits */
    CHECK(XS_RULE(13824, 40, 132, 2048) && sk == 2 && sgs == 8);
    sk = sgs = -1;
    CHECK(!XS_RULE(20480, 50, 132, 2048) && sk == -1);
    CHECK(XS_RULE(28672, 64, 132, 2048) && sk == 1 && sgs == 4);
    CHECK(!XS_RULE(13824, 40, 132, 2047));                           /* one uvec4 short */
    /* the SM count scales it: 114 SMs make 13824 rows SR 4 as well, 66 SMs SR 7 */
    CHECK(XS_RULE(13824, 40, 114, 3072) && sk == 3 && sgs == 12);
    CHECK(XS_RULE(13824, 40, 66, 3072) && sk == 1 && sgs == 4);
    /* two token tiles (m=64) count twice: 13824 rows are SR 7 (sk=1 sgs=4), 6144 SR 3 (none) */
    CHECK(XS_RULE(2 * 13824, 40, 132, 3072) && sk == 1 && sgs == 4);
    CHECK(!XS_RULE(2 * 6144, 64, 132, 3072));
#undef XS_RULE
    /* gs=2 on the rule's tiling (bitnet_kp_xs_gs): a part's two stages of two groups, 2 x 32 x 9 uvec4; one token tile.
     * 20480x3200's sk=2 sgs=10 needs 1600 + 32 + 1152 = 2784 of 3072, 28672x4096's sk=1 sgs=4 1248: gs=2; 13824x2560's
     * sk=3 sgs=12 3680: gs=1; two token tiles at sk=1: gs=2, at sk=2 (SR 4..6) or three tiles: gs=1; lavapipe's 2048 for
     * SR 5: gs=1; at exactly 2784: gs=2 */
#define XS_GS(gz, sgs, sk, words) bitnet_kp_xs_gs(gz, sgs, sk, 160, 576, 256, 32, words)
    CHECK(XS_GS(1, 10, 2, 3072) == 2 && XS_GS(1, 4, 1, 3072) == 2 && XS_GS(1, 12, 3, 3072) == 1);
    CHECK(XS_GS(2, 4, 1, 3072) == 2 && XS_GS(2, 8, 2, 3072) == 1 && XS_GS(3, 4, 1, 3072) == 1 && XS_GS(1, 10, 2, 2048) == 1);
    CHECK(XS_GS(1, 10, 2, 2784) == 2 && XS_GS(1, 10, 2, 2783) == 1);
    /* the accumulators laid over the loop's data count when they are more: 16 x 256 = 4096 at sgs 16 */
    CHECK(XS_GS(1, 16, 1, 3072) == 1);
#undef XS_GS
    /* sgs at two token tiles with gs=2 (bitnet_kp_xs_sgs2): sgs 4 takes 4 x 160 + 576 + 32 = 1248 uvec4 (two an SM in
     * 3072), sgs 5 1408 (two). 132 SMs hold 264 workgroups: 13824 rows (432 tiles) make 216 at sgs 4: 4; 20480 (640)
     * 320 at 4, 256 at 5: 5; 28672 (896) 448 and 360: 4 (both two waves); 528 tiles make 264 at 4 (one wave): 4, 529
     * 266: 5 (212 at 5). Lavapipe's 2048 holds one of either an SM: 20480 rows stay at 4; 64 SMs at 3072 hold 128:
     * 13824 rows 216 and 174: 4 */
#define XS_SGS2(tiles, sms, words) bitnet_kp_xs_sgs2(tiles, sms, 160, 576, 256, 32, words)
    CHECK(XS_SGS2(432, 132, 3072) == 4 && XS_SGS2(640, 132, 3072) == 5 && XS_SGS2(896, 132, 3072) == 4);
    CHECK(XS_SGS2(528, 132, 3072) == 4 && XS_SGS2(529, 132, 3072) == 5);
    CHECK(XS_SGS2(640, 132, 2048) == 4 && XS_SGS2(432, 64, 3072) == 4);
#undef XS_SGS2
    /* bitnet_wave: whole workgroups an SM */
    CHECK(bitnet_wave(132, 1024, 3072) == 396 && bitnet_wave(132, 1025, 3072) == 264 && bitnet_wave(132, 3073, 3072) == 0);
    /* vkb_wave_fill (matmul's coopmat_wgs_m rule): 576 128x128 tiles at 3072^2 fill 3 waves of 264 to 72.7% and 5 of 132
     * to 87.3% (_l's); 1024 at 4096^2 fill both to 97.0%; 256 at 2048^2 one wave of 264 to 97.0%; an exact wave 1 */
    CHECK(fabs(vkb_wave_fill(576, 264) - 576.0 / 792) < 1e-12 && fabs(vkb_wave_fill(576, 132) - 576.0 / 660) < 1e-12);
    CHECK(vkb_wave_fill(1024, 264) == vkb_wave_fill(1024, 132) && fabs(vkb_wave_fill(256, 264) - 256.0 / 264) < 1e-12);
    CHECK(vkb_wave_fill(264, 264) == 1 && vkb_wave_fill(0, 132) == 0 && vkb_wave_fill(5, 0) == 0);
}

/* vkb_bind_twins (harness/util.c): which pipelines take their by-address twin NAME_bda under bind= desc, bda and
 * none (the kernel's default: here pipeline 1 only), what the note says, a bad value an ERROR whatever the plan said,
 * and a plan that did not run left as it was. */
static int bind_pipe1(const vkb_case *c, int pipe, void *arg)
{
    (void)c;
    ++*(int *)arg;
    return pipe == 1;
}

static int bind_case(vkb_case *c, const char *bind, int planned, int *asked)
{
    memset(c, 0, sizeof(*c));
    if (bind) {
        snprintf(c->params[0].key, sizeof(c->params[0].key), "bind");
        snprintf(c->params[0].val, sizeof(c->params[0].val), "%s", bind);
        c->nparams = 1;
    }
    vkb_add_pipe(c, "k_a", 0, NULL);
    vkb_add_pipe(c, "k_b", 0, NULL);
    snprintf(c->note, sizeof(c->note), "plan");
    *asked = 0;
    return vkb_bind_twins(c, planned, bind_pipe1, asked);
}

static void test_bind_twins(void)
{
    static vkb_case c;
    int asked;
    CHECK(bind_case(&c, NULL, 0, &asked) == 0 && asked == 2);
    CHECK(!strcmp(c.pipe[0].shader, "k_a") && !strcmp(c.pipe[1].shader, "k_b_bda"));
    CHECK(!strcmp(c.note, "plan; buffers by address (the default here)"));
    CHECK(bind_case(&c, "bda", 0, &asked) == 0 && asked == 0);
    CHECK(!strcmp(c.pipe[0].shader, "k_a_bda") && !strcmp(c.pipe[1].shader, "k_b_bda"));
    CHECK(!strcmp(c.note, "plan; buffers by address (bind=bda)"));
    CHECK(bind_case(&c, "desc", 0, &asked) == 0 && asked == 0);
    CHECK(!strcmp(c.pipe[0].shader, "k_a") && !strcmp(c.pipe[1].shader, "k_b") && !strcmp(c.note, "plan"));
    CHECK(bind_case(&c, "xyz", 0, &asked) < 0 && !strcmp(c.error, "bind=xyz: expected desc or bda"));
    CHECK(bind_case(&c, "xyz", 1, &asked) < 0 && !strcmp(c.error, "bind=xyz: expected desc or bda"));
    CHECK(bind_case(&c, NULL, 1, &asked) == 1 && asked == 0 && !strcmp(c.pipe[1].shader, "k_b") && !strcmp(c.note, "plan"));
    CHECK(bind_case(&c, "bda", 1, &asked) == 1 && !strcmp(c.pipe[0].shader, "k_a"));
    /* nothing chosen: no note */
    memset(&c, 0, sizeof(c));
    vkb_add_pipe(&c, "k_a", 0, NULL);
    CHECK(vkb_bind_twins(&c, 0, NULL, NULL) == 0 && !strcmp(c.pipe[0].shader, "k_a") && !c.note[0]);
}

static const struct { const char *name; void (*fn)(void); } tests[] = {
    {"summary_1_to_10", test_summary_1_to_10},
    {"summary_outliers", test_summary_outliers},
    {"summary_ci_sizes", test_summary_ci_sizes},
    {"batch_calls", test_batch_calls},
    {"stop_rule", test_stop_rule},
    {"stop_shift", test_stop_shift},
    {"stop_median_ci", test_stop_median_ci},
    {"result_empty_status", test_result_empty_status},
    {"mann_whitney", test_mann_whitney},
    {"parse_int", test_parse_int},
    {"suite_parse", test_suite_parse},
    {"suite_errors", test_suite_errors},
    {"suite_file", test_suite_file},
    {"csv_split", test_csv_split},
    {"csv_roundtrip", test_csv_roundtrip},
    {"csv_corrupt", test_csv_corrupt},
    {"samples", test_samples},
    {"cmp_min_p", test_cmp_min_p},
    {"cmp_bh", test_cmp_bh},
    {"cmp_launch_t", test_cmp_launch_t},
    {"cmp_launch_drift", test_cmp_launch_drift},
    {"cmp_bootstrap", test_cmp_bootstrap},
    {"cmp_verdicts", test_cmp_verdicts},
    {"cmp_files", test_cmp_files},
    {"tel_uuid", test_tel_uuid},
    {"tel_pci", test_tel_pci},
    {"tel_energy", test_tel_energy},
    {"clock_judge", test_clock_judge},
    {"clock_retime", test_clock_retime},
    {"dc_matmul", test_dc_matmul},
    {"clock_warm", test_clock_warm},
    {"profile_format", test_profile_format},
    {"tel_window", test_tel_window},
    {"tel_na", test_tel_na},
    {"fp16", test_fp16},
    {"check_ulp", test_check_ulp},
    {"check_order", test_check_order},
    {"check_special", test_check_special},
    {"fill_edge", test_fill_edge},
    {"par_fill", test_par_fill},
    {"check_bound", test_check_bound},
    {"check_bound_inf", test_check_bound_inf},
    {"check_poison", test_check_poison},
    {"check_bits", test_check_bits},
    {"check_spans", test_check_spans},
    {"report_bootstrap", test_report_bootstrap},
    {"parse_int_sums", test_parse_int_sums},
    {"suite_bytes", test_suite_bytes},
    {"rundir", test_rundir},
    {"devpeak", test_devpeak},
    {"calib_row", test_calib_row},
    {"calib_print", test_calib_print},
    {"report_fmt_family", test_report_fmt_family},
    {"spv_khr", test_spv_khr},
    {"host_calloc", test_host_calloc},
    {"kp_xs_rule", test_kp_xs_rule},
    {"dense_g_wide", test_dense_g_wide},
    {"hmma_n8_wn", test_hmma_n8_wn},
    {"bind_twins", test_bind_twins},
};

int main(int argc, char **argv)
{
    int passed = 0, failed = 0;
    (void)argc, (void)argv;   /* argv[1] (the source root) is for groups that read files */
    if (getenv("TMPDIR")) g_tmpdir = getenv("TMPDIR");
    for (size_t i = 0; i < sizeof(tests) / sizeof(tests[0]); i++) {
        g_fail = g_checks = 0;
        tests[i].fn();
        printf("%-4s %s (%d checks)\n", g_fail ? "FAIL" : "ok", tests[i].name, g_checks);
        if (g_fail) failed++; else passed++;
    }
    printf("%d passed, %d failed\n", passed, failed);
    return failed != 0;
}
