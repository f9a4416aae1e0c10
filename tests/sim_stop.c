/* sim_stop.c — the stop rule (harness/stats.c, vkb_stop_next) on simulated rows, the figures behind stats.h's
 * and the README's median-ci paragraph (session 22): per kind of series, how rows stopped and the share whose
 * median missed the true one by more than 0.25%. Build and run from the repo root:
 *   cc -O2 -Iharness tests/sim_stop.c harness/stats.c -lgsl -lgslcblas -lm -o /tmp/sim_stop
 *   /tmp/sim_stop KIND PHI SD ROWS T MIN_TIME TIMEOUT [PAR]
 * KIND: ar (AR(1) at PHI, marginal sd SD), arw (a fraction PAR of the variance AR(1) at PHI, the rest white),
 * step (5% faster from sample PAR on), lognorm, quant (PAR ticks per unit); T the sample's time in seconds, the
 * wall time modelled as the samples' sum. Session 22: ROWS 1000, T 0.002, MIN_TIME 0.5, TIMEOUT 1.2, SD 0.01. */
#include "stats.h"
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <gsl/gsl_rng.h>
#include <gsl/gsl_randist.h>
/* sim KIND phi sd rows T min_time timeout [param] */
int main(int argc, char **argv)
{
    const char *kind = argv[1];
    double phi = atof(argv[2]), sd = atof(argv[3]);
    int rows = atoi(argv[4]);
    double T = atof(argv[5]), mt = atof(argv[6]), to = atof(argv[7]), par = argc > 8 ? atof(argv[8]) : 0;
    gsl_rng *r = gsl_rng_alloc(gsl_rng_mt19937);
    gsl_rng_set(r, 12345);
    size_t cap = 200000;
    double *y = malloc(cap * sizeof(double));
    int nci = 0, nto = 0, nnoise = 0, nother = 0, miss = 0, missci = 0;
    double sumn = 0;
    for (int row = 0; row < rows; row++) {
        vkb_stop s;
        vkb_stop_init(&s);
        s.min_time = mt; s.timeout = to;
        double prev = gsl_ran_gaussian(r, 1.0);
        size_t m = 0;
        for (long i = 1; i < (long)cap; i++) {
            double v;
            if (!strcmp(kind, "ar")) { prev = phi * prev + sqrt(1 - phi * phi) * gsl_ran_gaussian(r, 1.0); v = 1 + sd * prev; }
            else if (!strcmp(kind, "arw")) { prev = phi * prev + sqrt(1 - phi * phi) * gsl_ran_gaussian(r, 1.0); v = 1 + sd * (sqrt(par) * prev + sqrt(1 - par) * gsl_ran_gaussian(r, 1.0)); }
            else if (!strcmp(kind, "quant")) { /* integer ticks: value = round(q*(1+sd*z))/q */ v = round(par * (1 + sd * gsl_ran_gaussian(r, 1))) / par; }
            else if (!strcmp(kind, "lognorm")) { v = exp(sd * gsl_ran_gaussian(r, 1)); }
            else if (!strcmp(kind, "step")) { v = (i >= (long)par ? 0.95 : 1) * (1 + sd * gsl_ran_gaussian(r, 1)); }
            else return 2;
            y[m++] = v * T;
            if (vkb_stop_next(&s, y, &m, 1, T * (double)i)) break;
        }
        vkb_summary sm;
        vkb_stats_summarise(y, m, &sm);
        double truemed = T;
        if (!strcmp(kind, "step")) truemed = 0.95 * T;
        int bad = fabs(sm.median / truemed - 1) > 0.0025;
        sumn += m;
        if (!strcmp(s.why, "median-ci")) { nci++; missci += bad; }
        else if (!strcmp(s.why, "timeout")) nto++;
        else if (!strncmp(s.why, "noise", 5)) nnoise++;
        else nother++;
        miss += bad;
    }
    printf("%s phi=%.2f sd=%.4f par=%g: ci %d (miss %d = %.1f%%) timeout %d noise %d other %d, mean n %.0f, miss all %.1f%%\n",
           kind, phi, sd, par, nci, missci, nci ? 100.0 * missci / nci : 0, nto, nnoise, nother, sumn / rows, 100.0 * miss / rows);
    return 0;
}
