/* calibrate.h — the device's measured ceilings (copy, read-only and write-only bandwidth, fp32 FMA
 * and fp16 matrix-unit peaks, per-dispatch overhead, timer floor) and each row's utilization
 * against them. Measured once per device and driver and cached in
 * <results root>/.calibration/<device>-<driver>-<uuid>.txt (`vkbench calibrate` or `--recalibrate`
 * measure again). A ceiling that could not be measured is NAN with the reason. */
#ifndef VKB_CALIBRATE_H
#define VKB_CALIBRATE_H
#include <stdio.h>
#include "result.h"
#include "telemetry.h"
#include "vk.h"

enum { VKB_CAL_COPY, VKB_CAL_READ, VKB_CAL_WRITE, VKB_CAL_FMA, VKB_CAL_COOPMAT, VKB_CAL_DISPATCH, VKB_CAL_N };

typedef struct vkb_calib {
    double val[VKB_CAL_N];          /* B/s (copy, read, write), FLOP/s (fma, coopmat), s (per dispatch) */
    char why[VKB_CAL_N][200];       /* the reason where val is NAN */
    double timer_floor_s;           /* this run's (vkb_vk_timer_floor) */
    double theo_Bps;                /* 2 × memory clock × bus width / 8 from NVML, or NAN */
    char theo_why[200];
    char source[700];               /* measured now / read from the cache file, with its date and commit */
} vkb_calib;

/* Fill c: from the cache file under root (default "results") unless force or it is missing or
 * written for another device/driver; else measure and rewrite it. skip: leave every ceiling NA
 * ("calibration skipped (--no-calibrate)"). nv (may be NULL) gives the theoretical peak.
 * Returns 0; -1 with err only when the device fails outright (a Vulkan error). */
int vkb_calib_get(vkb_vk *v, const char *root, int force, int skip, const vkb_nvml *nv, double timer_floor,
                  vkb_calib *c, char *err, size_t errlen);
/* The calibration block of run.txt (and of `vkbench calibrate`'s output). */
void vkb_calib_print(FILE *f, const vkb_calib *c);
/* From r->bw_Bps, r->flop_per_s and r->time_median_s: the ceilings, every utilization column, the
 * reasons for those that are NA (util_why) and below_floor (median < 10 × max(timer floor,
 * per-dispatch overhead)). */
void vkb_calib_row(const vkb_calib *c, vkb_result *r);

#endif
