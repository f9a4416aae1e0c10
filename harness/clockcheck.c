/* clockcheck.c — the shader-clock probe; see clockcheck.h. */
#include <math.h>
#include <string.h>

#include "clockcheck.h"

/* 20k and 200k ticks: 10 and 100 us at 2 GHz (50 and 500 us at an idle 400 MHz); the 90 us between them
 * dwarfs the timestamps' jitter. */
#define TICKS_LO 20000
#define TICKS_HI 200000

void vkb_clock_open(vkb_clockcheck *k, vkb_vk *v, const vkb_caps *caps)
{
    char p[40];
    memset(k, 0, sizeof(*k));
    k->ref_MHz = NAN;
    k->is_cpu = caps->is_cpu;
    snprintf(p, sizeof(p), "cycles=%d", TICKS_LO);
    if (vkb_probe_open(&k->lo, v, caps, "clockprobe", p, 1, 0, k->why, sizeof(k->why))) return;
    snprintf(p, sizeof(p), "cycles=%d", TICKS_HI);
    if (vkb_probe_open(&k->hi, v, caps, "clockprobe", p, 1, 0, k->why, sizeof(k->why))) {
        vkb_probe_close(&k->lo);
        return;
    }
    k->ok = 1;
}

void vkb_clock_close(vkb_clockcheck *k)
{
    if (k->ok) vkb_probe_close(&k->lo), vkb_probe_close(&k->hi);
    k->ok = 0;
}

double vkb_clock_read(vkb_clockcheck *k, vkb_vk *v, char *why, size_t len)
{
    double t1 = NAN, t2 = NAN, mhz = NAN;
    if (!k->ok) {
        snprintf(why, len, "%s", k->why);
        return NAN;
    }
    /* Up to 3 tries: a preempted spin (a descheduled lavapipe thread on a loaded 2-core CI host, seen once in a
     * smoke run) can make the short spin take longer than the long one, which gives no rate. */
    for (int try = 0; try < 3 && isnan(mhz); try++) {
        if (vkb_gpu_run(k->lo.g, 1, 0, &t1) || vkb_gpu_run(k->hi.g, 1, 0, &t2)) {
            snprintf(why, len, "clock probe: %s", vkb_vk_error(v));
            return NAN;
        }
        mhz = vkb_clock_rate_MHz(TICKS_LO, t1, TICKS_HI, t2);
    }
    if (isnan(mhz)) snprintf(why, len, "clock probe: %.3g s for %d ticks, %.3g s for %d: no rate (3 tries)", t1, TICKS_LO, t2, TICKS_HI);
    else if (isnan(k->ref_MHz) || mhz > k->ref_MHz) k->ref_MHz = mhz;
    return mhz;
}
