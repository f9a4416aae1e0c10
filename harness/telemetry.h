/* telemetry.h — sensors without Vulkan: NVML loaded at run time (own declarations, no nvml.h), RAPL
 * package energy (powercap), CPU temperatures (hwmon, thermal), and a sampler thread that folds
 * readings into per-window statistics. Nothing here fails a run: a sensor that cannot be read is
 * NA with a reason (status words as in telemetry notes §8: not_present, no_permission,
 * not_supported, insufficient_window, wrapped_unhandled, error). The arithmetic is pure and
 * unit-tested (tests/unit.c). */
#ifndef VKB_TELEMETRY_H
#define VKB_TELEMETRY_H
#include <stdint.h>
#include <stdio.h>
#include <stddef.h>

/* Clock-event (throttle) bits that flag a window: SwPowerCap 0x4, HwSlowdown 0x8, SwThermal 0x20,
 * HwThermal 0x40, HwPowerBrake 0x80. GpuIdle 0x1 is expected between launches and not a throttle. */
#define VKB_TEL_THROTTLE_BITS 0xECull
#define VKB_TEL_MIN_UPDATES 10   /* fewer distinct counter updates in a window: insufficient_window */

/* ---- pure helpers ---- */

/* Parse an NVML UUID string ("GPU-34bf77d1-c686-6821-79a8-32d326c5039c", "MIG-…", or bare hex with
 * dashes) into 16 bytes. Returns 0, or -1 when it does not hold exactly 32 hex digits. */
int vkb_tel_uuid_parse(const char *s, uint8_t out[16]);
/* NVML's bus-id form "%08X:%02X:%02X.%X" of a PCI address (what nvmlDeviceGetHandleByPciBusId takes). */
void vkb_tel_pci_format(unsigned dom, unsigned bus, unsigned dev, unsigned fn, char *out, size_t len);
/* 1 when bus-id text ("%x:%x:%x.%x", "%x:%x:%x", "%x:%x.%x") names this address, else 0. */
int vkb_tel_pci_match(const char *busid, unsigned dom, unsigned bus, unsigned dev, unsigned fn);

/* Counter difference with wraparound: cur >= prev → cur - prev; cur < prev and range > 0 (RAPL's
 * max_energy_range_uj) → range - prev + cur; otherwise -1 (wrapped with no known range). */
int vkb_tel_counter_delta(uint64_t prev, uint64_t cur, uint64_t range, uint64_t *delta);

/* An energy counter followed through a window: each distinct value seen is an update, stored as
 * (host time, unwrapped cumulative count). Power comes from the first to the last update, so the
 * counter's ~100 ms publication period does not bias it. */
typedef struct vkb_tel_track {
    int started, wrapped_bad;
    uint64_t raw_prev, cum;      /* last raw value; unwrapped count since the first reading */
    int updates;                 /* distinct changes seen */
    double t_first, t_last;      /* host seconds of the first and last update */
    uint64_t c_first, c_last;    /* cumulative counts at those updates */
} vkb_tel_track;

void vkb_tel_track_add(vkb_tel_track *k, double t, uint64_t raw, uint64_t range);

/* Energy over a window: mean power between the first and last update × wall_s, divided by calls.
 * unit_J: joules per count (NVML 1e-3, RAPL 1e-6). Returns 0 with *joules_per_call and *power_W, or
 * -1 with NAN outputs and the status in why ("insufficient_window (7 counter updates < 10)", …). */
int vkb_tel_energy_eval(const vkb_tel_track *k, double unit_J, double wall_s, double calls, double *joules_per_call,
                        double *power_W, char *why, size_t len);

/* The NA status for a failed open/read of a sensor file: EACCES/EPERM "no_permission" (powercap's
 * energy_uj is root-only since Linux 5.10), ENOENT/ENOTDIR "not_present", else "error". */
const char *vkb_tel_errno_status(int err);

/* ---- NVML ---- */

typedef struct vkb_nvml vkb_nvml;

/* Load NVML (lib NULL → "libnvidia-ml.so.1"), initialise it and find the device whose UUID equals
 * uuid, else (has_pci) the one at that PCI address; never by index. Returns NULL with the reason
 * in why ("not_present: dlopen libnvidia-ml.so.1: …", "no NVML device matches UUID … or PCI …"). */
vkb_nvml *vkb_nvml_open(const char *lib, const uint8_t uuid[16], int has_pci, unsigned dom, unsigned bus,
                        unsigned dev, unsigned fn, char *why, size_t len);
void vkb_nvml_close(vkb_nvml *n);
/* Environment lines for run.txt (name, UUID, bus id, versions, limits, which sensors work). */
void vkb_nvml_print(FILE *f, const vkb_nvml *n);
/* 2 × max memory clock × bus width / 8 in bytes/s, or NAN with the reason in why. */
double vkb_nvml_peak_Bps(const vkb_nvml *n, char *why, size_t len);
/* The max SM clock (nvmlDeviceGetMaxClockInfo, NVML_CLOCK_SM) in Hz, or NAN with the reason in why. */
double vkb_nvml_max_sm_Hz(const vkb_nvml *n, char *why, size_t len);

/* ---- the shader-clock check (clockcheck.h runs the probe; this is its arithmetic) ---- */

/* A row is timed at a low clock below this fraction of the run's highest probe reading. Idle clocks on an H200
 * read 345-600 of 1980 MHz (0.17-0.30); power-capped rows of make bench never went below 1425 MHz (0.72). */
#define VKB_CLOCK_LOW_FRAC 0.6
/* The warm-up before a case's samples (timing.c) goes on in 50 ms steps while the probe reads under
 * VKB_CLOCK_WARM_FRAC of the reference, until it has not risen by 5% over VKB_CLOCK_FLAT_STEPS steps above the
 * low line (a settled, e.g. power-capped, clock). Samples read under VKB_CLOCK_RETIME_FRAC while the clock was
 * still rising (5% higher after them than before) are timed again, once. On an H200, light kernels after the main
 * thread's CPU work sat on 1254-1612 MHz plateaus (of ~2000) for 20-250 ms after a one-step rule had ended the
 * warm-up, and their medians differed by 5-24% between runs. A clock settled under VKB_CLOCK_RETIME_FRAC is timed
 * again too, until VKB_CLOCK_SETTLED_MAX rows of the run kept it through their second pass (a power or thermal
 * cap: the device's real state, no longer worth a second pass): in session 22 a 53 us kernel after 0.34 s of CPU
 * baseline ran its warm-up and samples on a steady 1234 of 2015 MHz, its median 35% above the next run's. */
#define VKB_CLOCK_WARM_FRAC 0.9
#define VKB_CLOCK_FLAT_STEPS 3
#define VKB_CLOCK_RETIME_FRAC 0.9
#define VKB_CLOCK_SETTLED_MAX 3
/* Whether a row's samples are timed again (timing.c): mhz is the clock they ran at (the lower of the readings pre
 * and post, before and after them), low its clock_check verdict (vkb_clock_judge), retimed 1 on the second pass
 * (never a third: 0 then, and a pass still under VKB_CLOCK_RETIME_FRAC x ref counts in *slow_kept). Low: yes;
 * under VKB_CLOCK_RETIME_FRAC x ref: yes while the clock still rose (post >= 1.05 pre) or fewer than
 * VKB_CLOCK_SETTLED_MAX rows kept a slow second pass; a CPU device only when low (a --clock-ref run). */
int vkb_clock_retime(double mhz, double ref, double pre, double post, int is_cpu, int low, int retimed,
                     size_t *slow_kept);
/* One warm-up step's verdict on the reading mhz against ref: 1 to stop warming. *base (NAN at the start) and *flat
 * carry the plateau: the reading it started at and the steps since without a 5% rise. */
int vkb_clock_warm_step(double mhz, double ref, double *base, int *flat);

/* Clock rate from two spins of ticks1 < ticks2 ticks that took t1 < t2 GPU seconds: the per-dispatch cost
 * cancels. MHz, or NAN when the pair cannot give one (not increasing, not finite). */
double vkb_clock_rate_MHz(double ticks1, double t1_s, double ticks2, double t2_s);
/* The clock_check cell of a row timed at mhz against ref_mhz (the run's highest reading, or --clock-ref): "ok:
 * 1978 of 1980 MHz", "low: 412 of 1980 MHz (< 0.6 x the reference)", or "NA (why)" (no reading: na_why;
 * is_cpu: a CPU device has no clock states to judge). Returns 1 when low, else 0. */
int vkb_clock_judge(double mhz, double ref_mhz, int is_cpu, const char *na_why, char *out, size_t len);

/* ---- the sampler ---- */

/* Where sysfs lives (tests point it at a directory they build): NULL → "/sys/class". */
typedef struct vkb_tel_cfg {
    const char *sysfs;           /* holds powercap/, hwmon/, thermal/ */
    const char *nvml_lib;        /* NULL → libnvidia-ml.so.1 */
    int gpu;                     /* 0: no GPU sensors (CPU device or telemetry of the host only) */
    const char *gpu_why;         /* reason when gpu is 0 */
    const uint8_t *uuid;         /* Vulkan deviceUUID (16 bytes) */
    int has_pci;
    unsigned pci[4];             /* domain, bus, device, function */
    int pu;                      /* OS index of the PU to pin the sampler to; -1: do not pin */
    double interval_s;           /* energy-counter poll period; 0 → 5 ms (other sensors every 4th) */
} vkb_tel_cfg;

/* What one window saw: sums and extremes, so windows merge (vkb_tel_merge). Reals are NAN when
 * no reading was taken; counts say how many readings each statistic holds. */
typedef struct vkb_tel_window {
    double wall_s;
    int readings;                         /* sampler ticks folded in */
    double power_sum_W, power_max_W;      /* instant power (field 186) or nvmlDeviceGetPowerUsage */
    int power_n;
    double temp_max_C;
    double sm_min_MHz, sm_sum_MHz, mem_min_MHz, mem_sum_MHz;
    int sm_n, mem_n;
    uint64_t reasons;                     /* OR of every clock-event bitmask read */
    int reasons_n;
    double throttle_s;                    /* Δ cumulative power+thermal violation time (NAN: unreadable) */
    vkb_tel_track gpu_energy;             /* NVML mJ counter */
    int ncpu;                             /* RAPL package zones tracked */
    vkb_tel_track cpu_energy[8];          /* µJ counters, one per package */
    double cpu_temp_max_C;
} vkb_tel_window;

/* An empty window (NAN extremes, zero counts). */
void vkb_tel_window_init(vkb_tel_window *w);
/* Fold b's readings into a (sums, extremes, reasons, throttle time); a's energy tracks are kept. */
void vkb_tel_merge(vkb_tel_window *a, const vkb_tel_window *b);

typedef struct vkb_tel vkb_tel;

/* Find the sensors and start the (idle) sampler thread when there is anything to sample.
 * Never fails for want of sensors: returns NULL only when out of memory. */
vkb_tel *vkb_tel_open(const vkb_tel_cfg *cfg);
void vkb_tel_close(vkb_tel *t);
const vkb_nvml *vkb_tel_nvml(const vkb_tel *t);
/* 1 when GPU power/energy are readable (an energy window is worth running). */
int vkb_tel_has_gpu_energy(const vkb_tel *t);
/* Reasons GPU sensors / CPU energy / CPU temperature are NA ("" when available). */
const char *vkb_tel_gpu_why(const vkb_tel *t);
const char *vkb_tel_cpu_energy_why(const vkb_tel *t);
const char *vkb_tel_cpu_temp_why(const vkb_tel *t);
/* Environment lines for run.txt: sensors found, sampler pinning, NVML details. */
void vkb_tel_print(FILE *f, vkb_tel *t);

/* Start a window: clear the accumulators and wake the sampler. */
void vkb_tel_begin(vkb_tel *t);
/* End it (the sampler goes idle) and copy what it saw. */
void vkb_tel_end(vkb_tel *t, vkb_tel_window *w);
/* Distinct GPU energy-counter updates seen so far in the current window (to size it). */
int vkb_tel_gpu_updates(vkb_tel *t);
/* Clock-event bits read since the previous call (for discarding throttled samples). */
uint64_t vkb_tel_mark(vkb_tel *t);

/* Format a bitmask as "0x…" with names of the throttle bits ("0x5 (idle,sw_power_cap)"). */
void vkb_tel_reasons_str(uint64_t reasons, char *out, size_t len);

#endif
