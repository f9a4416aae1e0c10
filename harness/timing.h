/* timing.h — the time phase of a case (run.c's run_case: plan, reference, check, time, record): the warm-up, the
 * shader-clock check around the samples (clockcheck.h), adaptive sampling with the energy window when the samples
 * can double as one (telrow.h), and --profile's per-dispatch breakdown. */
#ifndef VKB_TIMING_H
#define VKB_TIMING_H
#include "clockcheck.h"
#include "run.h"
#include "suite.h"
#include "telrow.h"

typedef struct vkb_timing {
    vkb_vk *v;
    const vkb_caps *caps;
    const vkb_run_opts *o;
    vkb_telrow *tr;
    double timer_floor;      /* seconds: batches last >= 50x it */
    double gpu_last;         /* when the GPU last finished work (NAN: never): sets the warm-up */
    vkb_clockcheck clk;      /* the shader-clock probe behind each row's clock_check */
    size_t low_clock_rows;   /* rows kept with clock_check "low" */
    size_t slow_kept_rows;   /* rows re-timed under VKB_CLOCK_RETIME_FRAC whose second pass was as slow */
} vkb_timing;

/* Warm up, then time the validated case in batches until the line's (or the options') stopping rule: the timing,
 * clock and energy columns of r, and the per-call samples (*samples_out, malloc'd, *nout of them). A case whose
 * samples ran at a low clock is timed once more. Returns 0, or -1 on a device error (vkb_vk_error says which). */
int vkb_timing_measure(vkb_timing *x, vkb_gpu *g, const vkb_line *l, int cold, vkb_result *r, double **samples_out,
                       size_t *nout);
/* --profile: r->profile from 5 runs with a timestamp after each dispatch (their medians, summed per shader);
 * the time it takes is added to r->timing_s. */
void vkb_timing_profile(vkb_timing *x, vkb_gpu *g, const vkb_case *c, int cold, vkb_result *r);

#endif
