/* run.h — the driver: suite lines -> cases -> validated, timed result rows. */
#ifndef VKB_RUN_H
#define VKB_RUN_H
#include <stdint.h>
#include "suite.h"
#include "vk.h"

typedef struct vkb_run_opts {
    const char *out_root;     /* results root, default "results" */
    const char *out_dir;      /* exact run directory (overrides out_root naming) */
    const char *filter;       /* only kernels whose name contains this */
    const char *mode;         /* hot | cold: overrides suites */
    uint64_t seed;            /* run seed (recorded); case seeds derive from it and the case */
    double min_time, max_noise, timeout;  /* NAN: take the suite's */
    long min_samples;         /* <0: take the suite's */
    int validate;             /* validation layer on: any message is an ERROR for the run */
    int no_calibrate;         /* skip the calibration: every ceiling NA */
    int recalibrate;          /* measure the ceilings even when cached (calibrate.h) */
    int no_telemetry;         /* sensors off: every sensor column NA (to measure their overhead) */
    int discard_throttled;    /* drop samples whose window saw a throttle reason, after a cool-down */
    double clock_ref;         /* MHz the clock check judges against (NAN: the run's highest probe reading) */
    int profile;              /* --profile: per-dispatch GPU time of each timed case (the profile column) */
    int no_cpu_baseline;      /* skip the optimized CPU baselines (gate launches) */
    double cpu_budget;        /* seconds a baseline may take per case; NAN: the suite's cpu_budget; 0: no limit */
    int jobs;                 /* prefetch threads; <0: automatic (none on a CPU device) */
    const char *established;  /* a run directory whose PASS rows (same commit, seed, case) stand for this run's
                               * check: those cases are timed without reference or check (status TIMED) */
    double oracle_budget;     /* multiply-adds the scalar oracle may spend per case; 0: each kernel's default */
    const char *slowdown;     /* "KERNEL=F,...": inject a calibrated (1+F)x slowdown (gate self-test) */
    int force;                /* out_dir may hold a run: replace it (its report and plots are removed) */
    int argc;
    char **argv;              /* recorded in run.txt */
} vkb_run_opts;

typedef struct vkb_run_totals {
    int pass, fail, skip, error, interrupted;  /* pass counts TIMED rows too */
    char dir[600];            /* the run directory written */
} vkb_run_totals;

/* Check every line of s against the registry (kernel names, axes) before running anything.
 * Returns 0, or -1 with "file:line: message" in err. */
int vkb_run_check_suite(const vkb_suite *s, char *err, size_t errlen);

/* Run every case of s on v. Rows go to <dir>/results.csv as they finish (fsync'ed, samples first). The directory
 * is created exclusively and locked (rundir.h); an out_dir that holds a run is refused unless o->force. run.txt ends
 * with "status: complete" or "status: interrupted after I of N cases". Returns 0 when the run completed or was
 * interrupted (whatever the case statuses), -1 with err set when it could not start or write. */
int vkb_run(vkb_vk *v, const vkb_suite *s, const vkb_run_opts *o, vkb_run_totals *tot, char *err, size_t errlen);

/* Set by the SIGINT/SIGTERM handler to the signal's number: the run stops after the current sample and keeps
 * every finished row. */
extern volatile int vkb_run_interrupted;

#endif
