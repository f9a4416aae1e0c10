/* calibrate.h — the device's ceilings and each row's utilization against them.
 * Measured: copy, read-only and write-only bandwidth, the fp32 FMA peak, the matrix-unit peak (the best of a
 * sweep over every cooperative-matrix configuration the device reports, accumulator grids and subgroups per
 * workgroup), the per-dispatch overhead and the timer floor. Cached per device, driver and UUID in
 * <results root>/.calibration/<device>-<driver>-<uuid>.txt (`vkbench calibrate` or `--recalibrate` measure
 * again), except the copy ceiling, which every run measures again at its start (several short runs: best,
 * median and spread). Theoretical: memory bandwidth from NVML, FMA and matrix-unit rates as SMs × clock ×
 * operations per clock (devpeak.h). A ceiling that could not be measured is NAN with the reason. */
/* Measuring (vkb_calib_get) is in calibrate.c; printing and rows (pure, unit-tested) in ceiling.c. */
#ifndef VKB_CALIBRATE_H
#define VKB_CALIBRATE_H
#include <stdio.h>
#include "devpeak.h"
#include "result.h"
#include "telemetry.h"
#include "vk.h"

enum { VKB_CAL_COPY, VKB_CAL_READ, VKB_CAL_WRITE, VKB_CAL_FMA, VKB_CAL_COOPMAT, VKB_CAL_DISPATCH, VKB_CAL_N };

/* The copy ceiling's refresh at the start of a run: `n` short runs (per-call rates, B/s). */
typedef struct vkb_calib_refresh {
    int n;                          /* samples; 0: not refreshed (why says why) */
    uint64_t elems;                 /* copy array length */
    double best, median, q1, q3, min, wall_s;
    char why[200];
} vkb_calib_refresh;

typedef struct vkb_calib {
    double val[VKB_CAL_N];          /* B/s (copy, read, write), FLOP/s (fma, coopmat), s (per dispatch) */
    char why[VKB_CAL_N][200];       /* the reason where val is NAN */
    double timer_floor_s;           /* this run's (vkb_vk_timer_floor) */
    double theo_Bps;                /* 2 × memory clock × bus width / 8 from NVML, or NAN */
    char theo_why[200];
    double theo_flops[VKB_PEAK_N];  /* SMs × clock × flop/clk (devpeak.h): fp32 FMA, fp16 matrix units; or NAN */
    char theo_flops_why[VKB_PEAK_N][240];  /* the formula, or why it is NA */
    double copy_calibrated;         /* the calibration's copy figure (cache or measured now) before the refresh */
    vkb_calib_refresh refresh;      /* val[VKB_CAL_COPY] is refresh.best when refresh.n > 0 */
    char source[700];               /* measured now / read from the cache file, with its date and commit */
    char probe[24576];              /* the matrix-unit sweep: one "coopmat_probe...: ..." line per configuration */
} vkb_calib;

/* The ceilings' names in run.txt, the cache file and the row columns ("copy_Bps", ..., "dispatch_s"). */
extern const char *const vkb_calib_keys[VKB_CAL_N];

/* Fill c: from the cache file under root (default "results") unless force or it is missing or
 * written for another device/driver; else measure and rewrite it. A cache of this device that is corrupt (a
 * ceiling that is not a positive finite number or "NA (reason)", one missing or given twice) is never used: its
 * file:line goes to stderr and to c->source, and the ceilings are measured again. Then refresh the copy ceiling (unless
 * skip). skip: leave every ceiling NA ("calibration skipped (--no-calibrate)"). nv (may be NULL) gives the
 * theoretical peaks' memory and SM clocks. Returns 0; -1 with err only when the device fails outright. */
int vkb_calib_get(vkb_vk *v, const char *root, int force, int skip, const vkb_nvml *nv, double timer_floor,
                  vkb_calib *c, char *err, size_t errlen);
/* One planned, filled, checked case of a registry kernel on the device, ready to be timed (the calibration's
 * items, the clock probe of clockcheck.c). */
typedef struct vkb_probe {
    vkb_case c;
    vkb_gpu *g;
    double t1;  /* GPU seconds of the checked run */
} vkb_probe;

/* Plan `kernel` with "key=value ..." params, fill from seed, run once and check. Returns 0, or -1 with why (a
 * SKIP or a failed check included). fast_copy: the copy refresh's cheap fill and check (calibrate.c). */
int vkb_probe_open(vkb_probe *p, vkb_vk *v, const vkb_caps *caps, const char *kernel, const char *params,
                   uint64_t seed, int fast_copy, char *why, size_t len);
void vkb_probe_close(vkb_probe *p);

/* The calibration block of run.txt (and of `vkbench calibrate`'s output): ceilings, the copy refresh,
 * theoretical ceilings, "ceiling_below_theoretical:" lines (a measured ceiling under 70% of its theoretical
 * one), what each utilization column divides by, and every matrix-unit probe configuration. */
void vkb_calib_print(FILE *f, const vkb_calib *c);
/* One "<prefix><key>: value" or "<prefix><key>: NA (why)" line per ceiling (the cache file's format). */
void vkb_calib_print_items(FILE *f, const vkb_calib *c, const char *prefix);
/* From r->bw_Bps, r->flop_per_s and r->time_median_s: the ceilings, every utilization column, the
 * theoretical FLOP/s columns and ceiling_why, the reasons for NA ceilings and for a row above 100% of copy
 * (util_why), and below_floor (median < 10 × max(timer floor, per-dispatch overhead)). */
void vkb_calib_row(const vkb_calib *c, vkb_result *r);

#endif
