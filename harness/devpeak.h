/* devpeak.h — theoretical compute ceilings from device data (pure: no Vulkan, no device).
 * A const table keyed by PCI vendor and device ID holds, per product, the SM count and the
 * architecture's operations per clock per SM; a ceiling is SMs × clock × operations per clock, with
 * the clock from NVML (max SM clock) and the SM count from the driver when it reports one
 * (VK_NV_shader_sm_builtins), else the table's. Unknown devices, CPU devices and a missing clock
 * give NAN with the reason. Unit-tested in tests/unit.c. */
#ifndef VKB_DEVPEAK_H
#define VKB_DEVPEAK_H
#include <stddef.h>
#include <stdint.h>

enum { VKB_PEAK_FMA, VKB_PEAK_MMA, VKB_PEAK_N };

typedef struct vkb_devpeak {
    uint32_t vendor, device;        /* PCI IDs, as VkPhysicalDeviceProperties reports them */
    const char *name;
    uint32_t sms;                   /* SMs of this product: used when the driver does not report a count */
    /* FLOP per clock per SM: [VKB_PEAK_FMA] fp32 FMA lanes × 2; [VKB_PEAK_MMA] dense matrix-unit rate with
     * fp16 inputs and fp32 accumulation (what the probe and the matmul coopmat kernels run). */
    double flop_per_clk[VKB_PEAK_N];
    const char *source;             /* the published figures the rates were derived from */
} vkb_devpeak;

/* What the ceiling is computed from (the caller gathers it from the device, the driver and NVML). */
typedef struct vkb_devpeak_in {
    int is_cpu;                     /* a CPU implementation (lavapipe): no SMs, always NA */
    uint32_t vendor, device;
    uint32_t sms;                   /* SM/CU count the driver reports; 0: not reported (the table's is used) */
    double clock_Hz;                /* max SM clock; NAN: unknown, clock_why says why */
    const char *clock_why;
} vkb_devpeak_in;

/* The table entry for (vendor, device), or NULL when the device is not in the table. */
const vkb_devpeak *vkb_devpeak_find(uint32_t vendor, uint32_t device);
/* The theoretical rate (FLOP/s) of kind (VKB_PEAK_FMA or VKB_PEAK_MMA), or NAN. why gets the formula
 * ("132 SMs (driver) x 4096 flop/clk x 1980 MHz (NVML max SM clock)") or the reason it is NA
 * ("CPU device", "vendor 0x10de device 0x1234 is not in the table", the clock's reason). */
double vkb_devpeak_flops(const vkb_devpeak_in *in, int kind, char *why, size_t len);

#endif
