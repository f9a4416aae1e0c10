/* replay_stop.c — the stop rule and its speed-up test (harness/stats.c) replayed on a GPU run's recorded samples
 * (session 21): per case, the samples it would have taken, why it would have stopped, the shifts and the median
 * of the kept samples. Used to check a change of the rule against H200 runs without GPU time. The elapsed wall
 * time is modelled as each batch's GPU time plus GAP_S seconds (0.0007 fits the H200 default-suite runs).
 * Build and run from the repo root:
 *   cc -O2 -Iharness tests/gpu/replay_stop.c harness/stats.c -lgsl -lgslcblas -lm -o /tmp/replay_stop
 *   /tmp/replay_stop RUN/samples.csv MIN_TIME TIMEOUT GAP_S
 * Output: case_id samples_recorded samples_replayed why shifts=N dropped=N rel=STEP median=S */
#include <stdio.h>
#include <stdlib.h>
#include <gsl/gsl_sort.h>
#include "stats.h"

int main(int argc, char **argv)
{
    if (argc != 5) {
        fprintf(stderr, "usage: replay_stop SAMPLES.csv MIN_TIME TIMEOUT GAP_S\n");
        return 2;
    }
    FILE *f = fopen(argv[1], "r");
    if (!f) {
        perror(argv[1]);
        return 2;
    }
    double min_time = atof(argv[2]), timeout = atof(argv[3]), gap = atof(argv[4]);
    size_t cap = 1 << 16, N = 0;
    long *id = malloc(cap * sizeof(*id)), *bt = malloc(cap * sizeof(*bt));
    double *xs = malloc(cap * sizeof(*xs));
    char line[256];
    if (!fgets(line, sizeof(line), f)) return 2;   /* case_id,sample,time_s,batch */
    while (id && bt && xs && fgets(line, sizeof(line), f)) {
        long c, k, b;
        double t;
        if (sscanf(line, "%ld,%ld,%lf,%ld", &c, &k, &t, &b) != 4) continue;
        if (N == cap) {
            cap *= 2;
            id = realloc(id, cap * sizeof(*id)), bt = realloc(bt, cap * sizeof(*bt)), xs = realloc(xs, cap * sizeof(*xs));
            if (!id || !bt || !xs) return 2;
        }
        id[N] = c, xs[N] = t, bt[N] = b, N++;
    }
    fclose(f);
    for (size_t i = 0; i < N;) {
        size_t j = i, n = 0, used = 0;
        while (j < N && id[j] == id[i]) j++;
        vkb_stop st;
        vkb_stop_init(&st);
        st.min_time = min_time, st.timeout = timeout;
        double *x = malloc((j - i) * sizeof(*x)), el = 0;
        int stop = 0;
        for (size_t q = i; x && q < j && !stop; q++) {
            x[n++] = xs[q], used++;
            el += xs[q] * (double)bt[q] + gap;
            stop = vkb_stop_next(&st, x, &n, (double)bt[q], el);
        }
        if (x && n) gsl_sort(x, 1, n);
        printf("%ld %zu %zu %s shifts=%zu dropped=%zu rel=%+.3f median=%.6g\n", id[i], j - i, used,
               st.why ? st.why : "end", st.shifts, st.dropped, st.shift_rel, x && n ? x[n / 2] : 0.0);
        free(x);
        i = j;
    }
    return 0;
}
