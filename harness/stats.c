/* stats.c — summaries, the adaptive stop rule and the Mann-Whitney test (see stats.h). */
#include "stats.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <gsl/gsl_cdf.h>
#include <gsl/gsl_sort.h>
#include <gsl/gsl_statistics_double.h>

/* Coverage of [x_(j), x_(n+1-j)] (1-based order statistics) for the median:
 * P(j <= B <= n-j) with B ~ Binomial(n, 1/2) = 1 - 2 P(B <= j-1). */
static double median_ci_coverage(size_t j, size_t n)
{
    return 1.0 - 2.0 * gsl_cdf_binomial_P((unsigned)(j - 1), 0.5, (unsigned)n);
}

void vkb_stats_summarise(const double *x, size_t n, vkb_summary *s)
{
    double *y = NULL;
    s->n = n;
    s->mean = s->stddev = s->min = s->max = s->median = s->q1 = s->q3 = NAN;
    s->ci_lo = s->ci_hi = s->rel_stddev = s->rel_iqr = NAN;
    s->outliers = 0;
    if (n == 0 || !(y = malloc(n * sizeof(*y))))
        goto cleanup;
    memcpy(y, x, n * sizeof(*y));   /* GSL sorts in place; the caller's order is theirs */
    gsl_sort(y, 1, n);
    s->mean = gsl_stats_mean(y, 1, n);
    s->stddev = n > 1 ? gsl_stats_sd_m(y, 1, n, s->mean) : NAN;   /* Bessel: undefined for n = 1 */
    s->min = y[0];
    s->max = y[n - 1];
    s->median = gsl_stats_median_from_sorted_data(y, 1, n);
    s->q1 = gsl_stats_quantile_from_sorted_data(y, 1, n, 0.25);
    s->q3 = gsl_stats_quantile_from_sorted_data(y, 1, n, 0.75);
    s->rel_stddev = s->stddev / s->mean;
    s->rel_iqr = (s->q3 - s->q1) / s->median;
    /* Narrowest symmetric order-statistic interval still covering 95%: coverage falls as j grows,
     * so binary-search the largest j (O(log n) CDF calls even for 1e5 samples). */
    if (n >= 6) {
        size_t lo = 1, hi = n / 2;   /* coverage(lo) >= 0.95 holds for n >= 6 */
        while (lo < hi) {
            size_t mid = lo + (hi - lo + 1) / 2;
            if (median_ci_coverage(mid, n) >= 0.95) lo = mid; else hi = mid - 1;
        }
        s->ci_lo = y[lo - 1];
        s->ci_hi = y[n - lo];
    }
    double iqr = s->q3 - s->q1;
    for (size_t i = 0; i < n; i++)
        if (y[i] < s->q1 - 1.5 * iqr || y[i] > s->q3 + 1.5 * iqr) s->outliers++;
cleanup:
    free(y);
}

void vkb_stop_init(vkb_stop *s)
{
    memset(s, 0, sizeof(*s));
    s->min_samples = 10;
    s->max_samples = 100000;
    s->min_time = 0.5;
    s->max_noise = 0.005;
    s->timeout = 15.0;
    s->why = NULL;
}

#define RING_CAP (sizeof(((vkb_stop *)0)->noise_ring) / sizeof(double))

int vkb_stop_add(vkb_stop *s, double sample, double elapsed_wall)
{
    /* Welford: a running variance that stays accurate over 1e5 nearly equal samples. */
    s->n++;
    s->sum += sample;
    s->accumulated += sample;
    double d = sample - s->mean;
    s->mean += d / (double)s->n;
    s->m2 += d * (sample - s->mean);
    double noise = NAN;
    if (s->n >= 5) {   /* fewer samples give a noise estimate too wild to stop on (nvbench) */
        noise = sqrt(s->m2 / (double)(s->n - 1)) / s->mean;
        if (isfinite(noise)) s->noise_ring[s->ring_n++ % RING_CAP] = noise;
    }
    /* The caps come first: a slow kernel must stop even before min_samples; n >= 1 here. */
    if (s->n >= s->max_samples) { s->why = "max-samples"; return 1; }
    if (elapsed_wall >= s->timeout) { s->why = "timeout"; return 1; }
    if (s->n < s->min_samples || s->accumulated < s->min_time || !isfinite(noise))
        return 0;
    if (noise < s->max_noise) { s->why = "noise"; return 1; }
    /* Noise stabilised above target (nvbench#61): spread of the recent estimates around the
     * current one, as nvbench measures it, so a still-drifting estimate does not count as stable. */
    size_t stored = s->ring_n < RING_CAP ? s->ring_n : RING_CAP;
    if (stored > 64 && s->n % 16 == 0) {
        double ss = 0;
        for (size_t i = 0; i < stored; i++)
            ss += (s->noise_ring[i] - noise) * (s->noise_ring[i] - noise);
        if (sqrt(ss / (double)(stored - 1)) / noise < 0.05) { s->why = "noise-stable"; return 1; }
    }
    return 0;
}

static double median_of(double *y, size_t n)
{
    gsl_sort(y, 1, n);
    return gsl_stats_median_from_sorted_data(y, 1, n);
}

size_t vkb_stop_shift(vkb_stop *s, const double *x, size_t n)
{
    const size_t w = VKB_SHIFT_WINDOW;
    if (s->shifts >= VKB_SHIFT_MAX || n < 2 * w || n < s->next_check) return 0;
    s->next_check = n + (n / 16 > 4 ? n / 16 : 4);
    double *y = malloc(n * sizeof(*y));
    if (!y) return 0;   /* no shift test without memory: the stop rule goes on as before */
    memcpy(y, x, n * sizeof(*y));
    double before = median_of(y, n - w), recent = median_of(y + n - w, w), mid = 0.5 * (before + recent);
    free(y);
    if (!(before > recent * (1 + 4 * s->max_noise))) return 0;
    /* The step b (w <= b <= n - w, a crossing of mid) that fewest samples contradict: of x[b - w .. b) those not
     * above mid, of x[b .. n) those not below it; from b = n - w down, so a tie keeps the later step. A few
     * contradictions are allowed (spikes: one sample on the wrong side must not hide a step for the rest of the
     * case). */
    size_t after = 0, prior = 0, best = (size_t)-1, b = 0, b_after = 0, b_prior = 0;
    for (size_t i = n - w; i < n; i++) after += !(x[i] < mid);
    for (size_t i = n - 2 * w; i < n - w; i++) prior += !(x[i] > mid);
    for (size_t c = n - w;; c--) {   /* a step is a crossing: x[c - 1] above mid, x[c] below */
        if (prior + after < best && x[c - 1] > mid && x[c] < mid)
            best = prior + after, b = c, b_after = after, b_prior = prior;
        if (c == w) break;
        after += !(x[c - 1] < mid);   /* x[c - 1] leaves the prior window for the new level */
        prior += !(x[c - 1 - w] > mid);
        prior -= !(x[c - 1] > mid);
    }
    if (!b || b_prior > VKB_SHIFT_SPIKES || b_after > VKB_SHIFT_SPIKES + (n - b) / 16) return 0;
    s->shifts++;
    s->dropped += b;
    s->shift_rel = recent / before - 1;
    return b;
}

/* Lag-1 autocorrelation of the ranks of x[0..n) (outliers weigh as much as any sample; ties share their mean
 * rank), 0 when undefined, 1 without the memory to rank. */
static double rank_lag1(const double *x, size_t n)
{
    size_t *ix = malloc(n * sizeof(*ix));
    double *rk = malloc(n * sizeof(*rk));
    double num = 0, den = 0, mid = 0.5 * (double)(n - 1);
    if (ix && rk) {
        gsl_sort_index(ix, x, 1, n);
        for (size_t j = 0, k; j < n; j = k) {
            for (k = j + 1; k < n && x[ix[k]] == x[ix[j]]; k++) {}
            for (size_t q = j; q < k; q++) rk[ix[q]] = 0.5 * (double)(j + k - 1) - mid;
        }
        for (size_t i = 0; i + 1 < n; i++) num += rk[i] * rk[i + 1];
        for (size_t i = 0; i < n; i++) den += rk[i] * rk[i];
    }
    int ok = ix && rk;
    free(ix);
    free(rk);
    return !ok ? 1 : den > 0 ? num / den : 0;   /* out of memory: as correlated as the clamp allows */
}

/* The medians of the VKB_CI_BLOCKS consecutive blocks of x[0..n) (the first n % VKB_CI_BLOCKS samples left
 * out) lie within `width` of each other; 0 too without the memory to sort them. */
static int blocks_agree(const double *x, size_t n, double width)
{
    size_t b = n / VKB_CI_BLOCKS, off = n - VKB_CI_BLOCKS * b;
    double *z = malloc(b * sizeof(*z)), lo = INFINITY, hi = -INFINITY;
    if (!z) return 0;
    for (size_t k = 0; k < VKB_CI_BLOCKS; k++) {
        memcpy(z, x + off + k * b, b * sizeof(*z));
        double md = median_of(z, b);
        lo = md < lo ? md : lo;
        hi = md > hi ? md : hi;
    }
    free(z);
    return hi - lo <= width;
}

/* The median-CI test of vkb_stop_next (stats.h): 1 when x[0..n)'s 95% interval of the median, widened by
 * sqrt((1 + r) / (1 - r)) for the ranks' lag-1 autocorrelation r (clamped to 0 .. 0.95), is within s->max_noise
 * of it, the medians of its VKB_CI_BLOCKS consecutive blocks agree within that too, and no faster level is
 * forming among the last VKB_SHIFT_WINDOW samples (more than VKB_SHIFT_SPIKES of them under the median by the
 * speed-up test's 4 max_noise). Uses the same interval as vkb_stats_summarise. */
static int median_ci_narrow(vkb_stop *s, const double *x, size_t n)
{
    if (n < VKB_CI_MIN_SAMPLES || n < s->next_ci || s->n < s->min_samples || s->accumulated < s->min_time) return 0;
    s->next_ci = n + (n / 16 > 8 ? n / 16 : 8);
    vkb_summary m;
    vkb_stats_summarise(x, n, &m);
    if (!(m.median > 0)) return 0;
    size_t fast = 0;
    for (size_t i = n - VKB_SHIFT_WINDOW; i < n; i++) fast += x[i] < m.median * (1 - 4 * s->max_noise);
    if (fast > VKB_SHIFT_SPIKES) return 0;
    double r = rank_lag1(x, n);
    r = r < 0 ? 0 : r > 0.95 ? 0.95 : r;
    return (m.ci_hi - m.ci_lo) * sqrt((1 + r) / (1 - r)) <= s->max_noise * m.median &&
           blocks_agree(x, n, s->max_noise * m.median);
}

int vkb_stop_next(vkb_stop *s, double *x, size_t *n, double scale, double elapsed_wall)
{
    int stop = vkb_stop_add(s, x[*n - 1] * scale, elapsed_wall);
    if (!stop && s->ci_met) {   /* met before, and sampling went on (an energy window): it still is */
        s->why = "median-ci";
        return 1;
    }
    size_t k = stop ? 0 : vkb_stop_shift(s, x, *n);
    if (!k && !stop && median_ci_narrow(s, x, *n)) {
        s->next_check = 0;   /* the speed-up test looks now: a stop on the median's precision must not hide a step */
        if (!(k = vkb_stop_shift(s, x, *n))) {
            s->ci_met = 1;
            s->why = "median-ci";
            return 1;
        }
    }
    if (!k) return stop;
    /* Drop the first k, clear the sampling state (not the settings, nor the shift counts), feed the kept again. */
    memmove(x, x + k, (*n - k) * sizeof(*x));
    *n -= k;
    s->n = s->ring_n = 0;
    s->sum = s->mean = s->m2 = s->accumulated = 0;
    s->why = NULL;
    s->next_check = s->next_ci = 0;
    for (size_t i = 0; i < *n; i++) stop = vkb_stop_add(s, x[i] * scale, elapsed_wall);
    return stop;
}

typedef struct { double v; int from_a; } mw_item;

/* Exact two-sided p of the rank sum of m of the n sorted items (the smaller side: m <= MW_EXACT_MAX),
 * conditional on the tie pattern: every C(n, m) choice of which m items are that side's is equally likely
 * under the null. Doubled midranks are integers, so cnt[j][s] = the number of ways j of the items seen so
 * far have doubled-rank sum s, built item by item. Without ties this is the classical exact U
 * distribution; with them (equal launch medians: a coarse timer, a quantized clock) it stays exact where
 * the normal approximation is far off in the tail (10 vs 10 completely separated: exact 1.1e-5, normal
 * 1.6e-4), as it is for unequal sides (4 vs 21: exact 1.6e-4, normal 2.1e-3). obs2 = twice the side's
 * rank sum. NaN when out of memory. */
#define MW_EXACT_MAX 20    /* the smaller side, */
#define MW_EXACT_N 200     /* and both: at most 21 x 40201 counts (6.8 MB), ~1e8 additions */
static double mann_whitney_exact(const mw_item *it, size_t n, size_t m, double obs2)
{
    size_t smax = n * (n + 1), w = smax + 1;
    double *cnt = calloc((m + 1) * w, sizeof(*cnt));
    if (!cnt) return NAN;
    cnt[0] = 1;
    for (size_t i = 0, seen = 0; i < n;) {
        size_t k = i;
        while (k < n && it[k].v == it[i].v) k++;
        size_t r2 = i + k + 1;   /* twice the group's midrank (i, k: 0-based start, end), the largest yet */
        for (size_t q = i; q < k; q++, seen++)
            for (size_t j = seen + 1 < m ? seen + 1 : m; j >= 1; j--)   /* row j-1 is still at `seen` */
                for (size_t s = j * r2 < smax ? j * r2 : smax; s >= r2; s--) cnt[j * w + s] += cnt[(j - 1) * w + s - r2];
        i = k;
    }
    double total = 0, le = 0, ge = 0;
    for (size_t s = 0; s <= smax; s++) {
        double c = cnt[m * w + s];
        total += c;
        if ((double)s <= obs2 + 0.25) le += c;
        if ((double)s >= obs2 - 0.25) ge += c;
    }
    free(cnt);
    double p = 2.0 * fmin(le, ge) / total;
    return p < 1.0 ? p : 1.0;
}

static int mw_exact_applies(size_t na, size_t nb)
{
    return (na < nb ? na : nb) <= MW_EXACT_MAX && na + nb <= MW_EXACT_N;
}

/* Normal approximation with continuity correction; tsum = sum of (t^3 - t) over tie groups. */
static double mw_normal_p(size_t na, size_t nb, double u, double tsum)
{
    double N = (double)(na + nb), mu = (double)na * (double)nb / 2.0;
    double var = (double)na * (double)nb / 12.0 * ((N + 1.0) - tsum / (N * (N - 1.0)));
    if (var <= 0) return 1.0;   /* every value tied: no evidence of a shift */
    double z = (fabs(u - mu) - 0.5) / sqrt(var);
    double p = z > 0 ? 2.0 * gsl_cdf_ugaussian_Q(z) : 1.0;
    return p < 1.0 ? p : 1.0;
}

double vkb_mann_whitney_min_p(size_t na, size_t nb)
{
    if (na == 0 || nb == 0) return 1.0;
    if (!mw_exact_applies(na, nb))
        return mw_normal_p(na, nb, 0, 0);   /* complete separation without ties */
    double n = (double)(na + nb), lc = lgamma(n + 1) - lgamma((double)na + 1) - lgamma((double)nb + 1);
    return fmin(1.0, 2.0 * exp(-lc));
}

static int mw_cmp(const void *pa, const void *pb)
{
    double a = ((const mw_item *)pa)->v, b = ((const mw_item *)pb)->v;
    return (a > b) - (a < b);
}

double vkb_mann_whitney_p(const double *a, size_t na, const double *b, size_t nb, double *u_out)
{
    double p = NAN, u = NAN;
    size_t n = na + nb;
    mw_item *it = NULL;
    if (na == 0 || nb == 0 || !(it = malloc(n * sizeof(*it))))
        goto cleanup;
    for (size_t i = 0; i < n; i++) {
        it[i].v = i < na ? a[i] : b[i - na];
        it[i].from_a = i < na;
        if (!isfinite(it[i].v)) goto cleanup;   /* NaN has no rank */
    }
    qsort(it, n, sizeof(*it), mw_cmp);
    /* Midranks: U_a = R_a - na(na+1)/2 counts pairs a > b plus half of the ties. */
    double ra = 0, ties = 0;
    for (size_t i = 0; i < n;) {
        size_t k = i;
        while (k < n && it[k].v == it[i].v) k++;
        double t = (double)(k - i), rank = (double)(i + k + 1) / 2.0;
        for (size_t q = i; q < k; q++) if (it[q].from_a) ra += rank;
        ties += t * t * t - t;
        i = k;
    }
    u = ra - (double)na * (double)(na + 1) / 2.0;
    if (mw_exact_applies(na, nb)) {   /* the smaller side's rank sum: the DP's rows are its count */
        p = na <= nb ? mann_whitney_exact(it, n, na, 2 * ra) : mann_whitney_exact(it, n, nb, (double)(n * (n + 1)) - 2 * ra);
        if (!isnan(p)) goto cleanup;
    }
    p = mw_normal_p(na, nb, u, ties);
cleanup:
    free(it);
    if (u_out) *u_out = u;
    return p;
}

int vkb_profile_format(const char *const *names, const double *sec, int n, char *out, size_t len)
{
    const char *name[64];
    double tot[64], sum = 0;
    int cnt[64], k = 0, order[64];
    for (int i = 0; i < n; i++) {
        int j = 0;
        while (j < k && strcmp(name[j], names[i])) j++;
        if (j == k) {
            if (k == 64) return snprintf(out, len, "NA (more than 64 shaders)"), -1;
            name[k] = names[i], tot[k] = 0, cnt[k] = 0, k++;
        }
        tot[j] += sec[i], cnt[j]++, sum += sec[i];
    }
    for (int j = 0; j < k; j++) order[j] = j;
    for (int a = 1; a < k; a++)  /* by total, descending; ties keep first-appearance order */
        for (int b = a; b > 0 && tot[order[b]] > tot[order[b - 1]]; b--) {
            int t = order[b];
            order[b] = order[b - 1], order[b - 1] = t;
        }
    size_t u = 0;
    out[0] = 0;
    for (int a = 0; a < k && u < len; a++) {
        int j = order[a];
        u += (size_t)snprintf(out + u, len - u, "%s%s %dx %.1f us (%.0f%%)", a ? ", " : "", name[j], cnt[j], tot[j] * 1e6,
                              sum > 0 ? 100 * tot[j] / sum : 0.0);
    }
    if (u < len) snprintf(out + u, len - u, "; sum %.1f us over %d dispatches", sum * 1e6, n);
    return 0;
}

uint32_t vkb_batch_calls(double t1, double target, uint32_t copies)
{
    uint32_t b = t1 < target ? (uint32_t)fmin(ceil(target / fmax(t1, 1e-9)), 10000) : 1;
    return copies > 1 ? (b + copies - 1) / copies * copies : b;
}
