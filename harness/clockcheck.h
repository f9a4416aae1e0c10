/* clockcheck.h — was the GPU at its working clock when a case was timed? GPU timestamps tick at a fixed rate,
 * so a case timed while the chip sat at an idle clock reads slow and steady, and nothing else in the row says
 * why (an H200 once timed a whole 0.2 s fp16 GEMM case at ~400 MHz: 3.45 ms instead of 0.73, rel_noise 0.1%).
 * The probe (kernels/clockprobe.comp) spins one invocation for a fixed count of shader-clock ticks; two
 * lengths timed by timestamps give the clock rate with the dispatch cost cancelled. It needs no NVML, so it
 * works with --no-telemetry and on any vendor that offers VK_KHR_shader_clock. The verdict's arithmetic is
 * pure (telemetry.h: vkb_clock_rate_MHz, vkb_clock_judge). */
#ifndef VKB_CLOCKCHECK_H
#define VKB_CLOCKCHECK_H
#include "calibrate.h"

typedef struct vkb_clockcheck {
    vkb_probe lo, hi;   /* the two spin lengths, open when ok */
    int ok, is_cpu;
    double ref_MHz;     /* the highest reading of the run so far (NAN: none) */
    char why[200];      /* why there is no probe (ok = 0) */
} vkb_clockcheck;

/* Plan and check both probes; without VK_KHR_shader_clock (or when the check fails) ok = 0 with why. */
void vkb_clock_open(vkb_clockcheck *k, vkb_vk *v, const vkb_caps *caps);
void vkb_clock_close(vkb_clockcheck *k);
/* The shader-clock rate now, MHz (and the run's highest reading raised to it), or NAN with why. */
double vkb_clock_read(vkb_clockcheck *k, vkb_vk *v, char *why, size_t len);

#endif
