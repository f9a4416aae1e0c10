/* telrow.h — telemetry for each result row (the Vulkan side of telemetry.h): the sampler's window
 * around a case's timed samples, the >= 1 s energy window filled with the case's own dispatches,
 * the CPU window around the reference (pinned to one core, the sampler on another), discarding
 * throttled samples (--discard-throttled) and the row's sensor columns, measured or NA with why. */
#ifndef VKB_TELROW_H
#define VKB_TELROW_H
#include <stdio.h>
#include "result.h"
#include "telemetry.h"
#include "topo.h"
#include "vk.h"

#define VKB_ENERGY_MIN_S 1.0   /* energy window: at least this much GPU time ... */
#define VKB_ENERGY_MAX_S 3.0   /* ... extended up to this while the counter has updated < 10 times */

typedef struct vkb_telrow {
    vkb_tel *tel;            /* NULL when telemetry is off */
    char off_why[120];
    int discard;             /* --discard-throttled */
    int ref_pu;              /* PU the reference runs on (-1: unpinned) */
    char ref_pin_why[120];
    /* per case */
    int in_case, in_ref, discarded, kept_throttled, streak;
    double cooldown_s;
    void *saved_bind;
    vkb_tel_window ref;
    int have_ref;
} vkb_telrow;

/* Pick cores (topo, near the GPU when hwloc knows its PCI address) and open the sensors unless off.
 * GPU sensors are sought only on NVIDIA devices (vendor 0x10DE). */
void vkb_telrow_open(vkb_telrow *t, vkb_topo *topo, const vkb_devinfo *d, int off, int discard);
void vkb_telrow_close(vkb_telrow *t);
const vkb_nvml *vkb_telrow_nvml(const vkb_telrow *t);
/* The telemetry block of run.txt. */
void vkb_telrow_print(FILE *f, const vkb_telrow *t);

/* Around the CPU reference: pin it, and sample CPU energy/temperature where readable. ref_end fills
 * ref_energy_J (for the whole reference: the sampled fraction frac is extrapolated like ref_time_s). */
void vkb_telrow_ref_begin(vkb_telrow *t);
void vkb_telrow_ref_end(vkb_telrow *t, double tref, double frac, vkb_result *r);
/* Before the timed samples: open the sensor window. */
void vkb_telrow_case_begin(vkb_telrow *t);
/* After each timed sample: 1 to discard it (throttled, --discard-throttled; after a cool-down),
 * 0 to keep it. Once elapsed >= timeout samples are kept whatever they saw (a case never ends with
 * zero samples); the row says how many were kept throttled. */
int vkb_telrow_reject(vkb_telrow *t, double elapsed, double timeout);
/* After the timed samples of a PASSing case: close the window, run the energy window on g, fill
 * the row's sensor columns. */
void vkb_telrow_case_end(vkb_telrow *t, vkb_gpu *g, vkb_result *r);
/* The timed samples double as the energy window (no separate window) when telemetry has a GPU energy
 * counter, the samples are hot back-to-back batches (hot: not cold mode) and none are discarded. */
int vkb_telrow_energy_shared(const vkb_telrow *t, int hot);
/* 1 once `seconds` of back-to-back batches make a valid energy window (>= VKB_ENERGY_MIN_S with at least
 * VKB_TEL_MIN_UPDATES counter updates, or VKB_ENERGY_MAX_S): GPU time in a separate window, wall time when
 * the samples double as the window. */
int vkb_telrow_energy_ready(vkb_telrow *t, double seconds);
/* After the timed samples doubled as the energy window: close it; `calls` calls ran in `wall` seconds. */
void vkb_telrow_case_end_shared(vkb_telrow *t, double wall, double calls, vkb_result *r);
/* For every row, last: close any open window and give each NA sensor column its reason. */
void vkb_telrow_finish(vkb_telrow *t, vkb_result *r);

#endif
