/* devpeak.c — the table of known devices behind the theoretical ceilings (devpeak.h).
 *
 * Rates per SM and clock are derived from the vendor's own peak figures, which are SMs × clock × rate:
 *   Hopper GH100 (H100, H200): 128 fp32 lanes/SM → 256 flop/clk; dense fp16 tensor (fp32 accumulate)
 *     989.4 TFLOP/s on H100 SXM5 = 132 SMs × 4096 × 1.830 GHz, and 756 on H100 PCIe = 114 × 4096 × 1.62 GHz
 *     (fp32 67 TFLOP/s = 132 × 256 × 1.98 GHz). H200 is the same GH100 with 132 SMs.
 *   Ampere GA100 (A100): 64 fp32 lanes/SM → 128 flop/clk (19.5 TFLOP/s = 108 × 128 × 1.41 GHz); dense fp16
 *     tensor 312 TFLOP/s = 108 × 2048 × 1.41 GHz.
 *   Ada AD102 L40S: 128 lanes → 256 (91.6 TFLOP/s = 142 × 256 × 2.52 GHz); fp16 tensor 362.05 dense =
 *     142 × 1024 × 2.49 GHz. RTX 4090: 256 (82.6 = 128 × 256 × 2.52 GHz); GeForce runs fp16 with fp32
 *     accumulation at half the fp16-accumulate rate: 165.2 TFLOP/s = 128 × 512 × 2.52 GHz.
 * The vendor quotes tensor peaks at a lower clock than the max boost clock (1830 vs 1980 MHz on H100 SXM5):
 * a ceiling at NVML's max SM clock is the higher, hardware-limit figure.
 * Device IDs: pci.ids 2023.04.10 (Debian's pci.ids package) for 0x2330, 0x2331, 0x20b0, 0x20b2, 0x20b5,
 * 0x20f1, 0x2684; lspci -nn output of installed cards for 0x2335 (H200 SXM 141GB) and 0x26b9 (L40S), which
 * that pci.ids predates. */
#include <math.h>
#include <stdio.h>

#include "devpeak.h"
#include "vkb.h"

#define NV 0x10deu
#define HOPPER {256, 4096}
#define AMPERE {128, 2048}
#define H100_SRC "H100 SXM5 datasheet: 67 TFLOP/s fp32, 989.4 dense fp16 tensor"
#define A100_SRC "A100 datasheet: 19.5 TFLOP/s fp32, 312 dense fp16 tensor"

static const vkb_devpeak table[] = {
    {NV, 0x2330, "H100 SXM5 80GB", 132, HOPPER, H100_SRC},
    {NV, 0x2331, "H100 PCIe", 114, HOPPER, "H100 PCIe datasheet: 51 TFLOP/s fp32, 756 dense fp16 tensor"},
    {NV, 0x2335, "H200 SXM 141GB", 132, HOPPER, "GH100 as H100 SXM5 (" H100_SRC ")"},
    {NV, 0x20b0, "A100 SXM4 40GB", 108, AMPERE, A100_SRC},
    {NV, 0x20b2, "A100 SXM4 80GB", 108, AMPERE, A100_SRC},
    {NV, 0x20b5, "A100 PCIe 80GB", 108, AMPERE, A100_SRC},
    {NV, 0x20f1, "A100 PCIe 40GB", 108, AMPERE, A100_SRC},
    {NV, 0x26b9, "L40S", 142, {256, 1024}, "L40S datasheet: 91.6 TFLOP/s fp32, 362.05 dense fp16 tensor"},
    {NV, 0x2684, "GeForce RTX 4090", 128, {256, 512},
     "Ada whitepaper: 82.6 TFLOP/s fp32, 165.2 dense fp16 tensor with fp32 accumulate"},
};

const vkb_devpeak *vkb_devpeak_find(uint32_t vendor, uint32_t device)
{
    for (size_t i = 0; i < sizeof(table) / sizeof(table[0]); i++)
        if (table[i].vendor == vendor && table[i].device == device) return &table[i];
    return NULL;
}

double vkb_devpeak_flops(const vkb_devpeak_in *in, int kind, char *why, size_t len)
{
    if (in->is_cpu) {
        snprintf(why, len, "CPU device (no SMs; the table covers GPUs)");
        return NAN;
    }
    const vkb_devpeak *p = vkb_devpeak_find(in->vendor, in->device);
    if (!p) {
        snprintf(why, len, "vendor 0x%04x device 0x%04x is not in the table (harness/devpeak.c)", in->vendor, in->device);
        return NAN;
    }
    if (kind < 0 || kind >= VKB_PEAK_N || !(p->flop_per_clk[kind] > 0)) {
        snprintf(why, len, "%s: no rate of this kind in the table", p->name);
        return NAN;
    }
    if (!(in->clock_Hz > 0)) {
        snprintf(why, len, "%s: SM clock unknown (%s)", p->name, in->clock_why ? in->clock_why : "no clock source");
        return NAN;
    }
    uint32_t sms = in->sms ? in->sms : p->sms;
    snprintf(why, len, "%s: %u SMs (%s) x %.0f flop/clk x %.0f MHz (NVML max SM clock)", p->name, sms,
             in->sms ? "driver" : "table", p->flop_per_clk[kind], in->clock_Hz / 1e6);
    return (double)sms * p->flop_per_clk[kind] * in->clock_Hz;
}

const char *vkb_cm_type_name(uint32_t t)
{
    static const char *const names[] = {"fp16", "fp32", "fp64", "sint8", "sint16", "sint32", "sint64",
                                        "uint8", "uint16", "uint32", "uint64"};
    static _Thread_local char other[24];
    if (t < sizeof(names) / sizeof(names[0])) return names[t];
    snprintf(other, sizeof(other), "type%u", t);
    return other;
}
