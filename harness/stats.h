/* stats.h — timing statistics (pure: no Vulkan). Backed by GSL. */
#ifndef VKB_STATS_H
#define VKB_STATS_H
#include <stddef.h>

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
    const char *why;       /* why it stopped: "noise", "noise-stable", "timeout", "max-samples" */
} vkb_stop;

void vkb_stop_init(vkb_stop *s);  /* sets the defaults above and clears the state */
/* Add one sample (seconds); elapsed_wall = wall seconds since measuring began.
 * Returns 1 when measuring should stop (and sets s->why), else 0. */
int vkb_stop_add(vkb_stop *s, double sample, double elapsed_wall);

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
