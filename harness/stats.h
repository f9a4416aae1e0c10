/* stats.h — timing statistics (pure: no Vulkan). Backed by GSL. */
#ifndef VKB_STATS_H
#define VKB_STATS_H
#include <stddef.h>
#include <stdint.h>

typedef struct vkb_summary {
    size_t n;
    double mean, stddev, min, max, median, q1, q3;
    double ci_lo, ci_hi;   /* distribution-free 95% CI of the median (binomial order statistics);
                              NAN when n < 6 (no order-statistic interval reaches 95%) */
    double rel_stddev;     /* stddev / mean */
    double rel_iqr;        /* (q3 - q1) / median */
    size_t outliers;       /* Tukey fences: outside [q1 - 1.5 IQR, q3 + 1.5 IQR] */
} vkb_summary;

/* Summarise x[0..n) (not modified). n == 0 gives n = 0 and NAN everywhere. */
void vkb_stats_summarise(const double *x, size_t n, vkb_summary *s);

/* Adaptive stop rule (nvbench "stdrel"): feed one sample at a time. */
typedef struct vkb_stop {
    size_t min_samples;    /* default 10 */
    size_t max_samples;    /* hard cap, default 100000 */
    double min_time;       /* accumulated measured seconds before stopping, default 0.5 */
    double max_noise;      /* target relative stddev, default 0.005 */
    double timeout;        /* wall seconds, default 15 */
    /* state */
    size_t n;
    double sum, mean, m2, accumulated;
    double noise_ring[512];
    size_t ring_n;
    const char *why;       /* why it stopped: "noise", "noise-stable", "median-ci", "timeout", "max-samples" */
    /* level shifts (vkb_stop_shift): how many, the samples dropped before them, the last one's size */
    size_t shifts, dropped, next_check;
    double shift_rel;
    size_t next_ci;        /* vkb_stop_next's median-CI test: the sample count of its next look, */
    int ci_met;            /* and 1 once it has stopped the rule (it stays stopped: an energy window's samples) */
} vkb_stop;

void vkb_stop_init(vkb_stop *s);  /* sets the defaults above and clears the state */
/* Add one sample (seconds); elapsed_wall = wall seconds since measuring began.
 * Returns 1 when measuring should stop (and sets s->why), else 0. */
int vkb_stop_add(vkb_stop *s, double sample, double elapsed_wall);

/* Level shifts. The samples of one case can sit on two or more plateaus: on an H200 the SM clock rose in steps
 * after the warm-up, or dipped and came back, so a clock-bound kernel ran 4-34% slower for tens to hundreds of
 * samples, then not (session 21); the relative stddev of the mixture never met 0.5%, and 7-11 of the default
 * suite's rows sampled until the timeout, their median a blend of plateaus. vkb_stop_shift looks at x[0..n) (the
 * samples since the last restart, any scale) and returns how many leading samples ran SLOWER than the latest
 * ones, else 0. With mid the midpoint between the median of the last VKB_SHIFT_WINDOW samples and that of the
 * earlier ones, where the earlier median exceeds the recent one by more than 4 max_noise (2% by default: a step
 * the noise target cannot hide): the step b, a crossing of mid, that fewest samples contradict, when the
 * VKB_SHIFT_WINDOW samples before it lie above mid and the (at least VKB_SHIFT_WINDOW) after it below, but for
 * at most VKB_SHIFT_SPIKES before and VKB_SHIFT_SPIKES + (n - b) / 16 after. Two plateaus: a steady but
 * autocorrelated series (AR(1) at phi 0.9) crossed a one-window test in 20% of 2000-sample cases; the spikes
 * allowed: one sample on the wrong side must not hide a step for the rest of the case. A clock that switches
 * between two states for longer than the windows still passes, and the fast state is then kept (a review's
 * simulation of +-5% switching: -1.2 to -1.6%). Only a speed-up counts: a slower level may be a dip the GPU comes
 * back from, and keeping it would report the dip (on the H200 a 4.6% slower plateau mid-case was followed by the
 * old pace again). It looks once n >= 2 VKB_SHIFT_WINDOW, then every max(4, n / 16) samples (O(n log n) in all),
 * at most VKB_SHIFT_MAX times a case, and counts what it found in shifts / dropped / shift_rel (the last step,
 * relative). */
#define VKB_SHIFT_WINDOW 16
#define VKB_SHIFT_MAX 3
#define VKB_SHIFT_SPIKES 2
size_t vkb_stop_shift(vkb_stop *s, const double *x, size_t n);
/* The precision of the median: with at least VKB_CI_MIN_SAMPLES samples (past min_samples and min_time), the
 * rule also stops ("median-ci") once (1) the 95% distribution-free interval of the median (the order statistics
 * of vkb_stats_summarise), widened by sqrt((1 + r) / (1 - r)) for the ranks' lag-1 correlation r (clamped to
 * 0 .. 0.95), is no wider than max_noise of the median, and (2) the medians of the VKB_CI_BLOCKS consecutive
 * blocks of the samples agree within max_noise of it too; not while more than VKB_SHIFT_SPIKES of the last
 * VKB_SHIFT_WINDOW samples lie under the median by 4 max_noise (a faster level forming, which the speed-up test
 * confirms only after 16 samples), and the speed-up test looks once more before it stops. Why: the reported
 * figure is the median, and stdrel measures the spread of single samples, which does not shrink with n: on an
 * H200 (session 22) 3-7 rows of the default suite, rotate-mode GEMVs among them, sampled to the 1.2 s timeout
 * with 360-660 samples whose medians of 50 lay within 0.22% of the whole median, at 0.6-0.9% relative stddev that never
 * settled to nvbench's 5%. The interval alone assumes independent samples; GPU samples can drift. Simulated
 * (2 ms samples, 0.5 s min_time, 1.2 s timeout, 1% sd, 1000 rows each, the share of rows whose median missed
 * +-0.25%): independent 0% (the old rules 0%), AR(1) at phi 0.5 0.6% (0.5%), 0.9 21% (22%), 0.95 39% (39%),
 * 20% of the variance at phi 0.99 36% (36%): no worse than the rules before it, with 30% fewer samples for
 * independent ones; the interval with the r widening alone missed 2.9% at phi 0.5 and 47% on the last. At least
 * 64 samples: the speed-up test (two windows of 16) has had its looks, and the interval's ends are inner order
 * statistics. It looks every max(8, n / 16) samples (O(n log n) in all); once met it stays met (samples the
 * energy window still needs do not undo it). */
#define VKB_CI_MIN_SAMPLES 64
#define VKB_CI_BLOCKS 8
/* The sampling loop's step: x[*n - 1] is the newest sample (per call; times scale it is what vkb_stop_add takes,
 * the batch's time). Feeds it to the stop rule and, unless that stops, looks for a speed-up: on one, x's earlier
 * samples are dropped (*n shrinks, s->shifts grows) and the rule starts again from the kept ones; else it applies
 * the median-CI test. Returns 1 when measuring should stop. */
int vkb_stop_next(vkb_stop *s, double *x, size_t *n, double scale, double elapsed_wall);

/* The calls a timed batch holds (timing.c): enough that a batch of calls of t1 seconds each lasts >= target, at
 * most 10000 (one when t1 >= target or is NAN: cold mode's one call a sample), then rounded up to a multiple of
 * copies (rotate mode: every copy of the inputs read equally often). */
uint32_t vkb_batch_calls(double t1, double target, uint32_t copies);

/* Two-sided Mann-Whitney U p-value: exact (conditional on ties, so equal values keep it exact) when the
 * smaller side has <= 20 values and both <= 200 in all, the normal approximation with tie correction
 * otherwise. Used by compare; here so it is unit-tested with the other statistics. */
double vkb_mann_whitney_p(const double *a, size_t na, const double *b, size_t nb, double *u_out);
/* The smallest p vkb_mann_whitney_p can return for sizes na, nb (complete separation, no ties), by the
 * same method: what decides whether a case could be significant at all. */
double vkb_mann_whitney_min_p(size_t na, size_t nb);

/* The profile cell of a multi-dispatch case: per shader, in order of total time, "NAME Cx T us (P%)" joined by
 * ", ", then "; sum S us over D dispatches". names[i] and sec[i] belong to dispatch i (n of them); dispatches of
 * the same name are summed. Returns 0, or -1 when more than 64 distinct names (out says so). */
int vkb_profile_format(const char *const *names, const double *sec, int n, char *out, size_t len);

#endif
