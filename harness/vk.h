/* vk.h — the Vulkan side: device, buffers with guard regions, pipelines, timed dispatch.
 * Nothing here prints or exits: functions return 0 on success or -1 with a message in the
 * context's error buffer (vkb_vk_error), naming the Vulkan call, its VkResult and file:line. */
#ifndef VKB_VK_H
#define VKB_VK_H
#include <stdint.h>
#include <stdio.h>
#include "vkb.h"

typedef struct vkb_vk vkb_vk;
typedef struct vkb_gpu vkb_gpu;

typedef struct vkb_devinfo {
    char name[256];
    char type[16];          /* discrete | integrated | virtual | cpu | other */
    char driver[160];       /* driverName driverInfo */
    char uuid[40];          /* deviceUUID as 8-4-4-4-12 hex */
    uint8_t uuid_bytes[16];
    uint32_t vendor, device_id, api;
    int has_pci;            /* VK_EXT_pci_bus_info */
    uint32_t pci_domain, pci_bus, pci_dev, pci_func;
    double timestamp_period_ns;  /* kept as double: it may be non-integral */
    double timer_step_ns;        /* the counter's step: period x the gcd of the timer floor's raw timestamps (0 until
                                  * vkb_vk_timer_floor ran); an H200 (NVIDIA 580) ticks in 32 ns, period 1 ns */
    uint32_t timestamp_bits;
    uint32_t index;         /* index in vkEnumeratePhysicalDevices */
    uint32_t sm_count;      /* SMs (NVIDIA) or CUs (AMD) the driver reports; 0 when it does not */
    char sm_source[128];    /* the query that gave sm_count, or why there is none */
} vkb_devinfo;

/* Open an instance and a device. select: NULL (default: discrete > integrated > virtual > cpu),
 * an index, or a name substring. validate: enable VK_LAYER_KHRONOS_validation and count its
 * messages. Returns NULL with a message in err on failure (no device: says how to get lavapipe). */
vkb_vk *vkb_vk_open(const char *select, int validate, char *err, size_t errlen);
void vkb_vk_close(vkb_vk *v);
const char *vkb_vk_error(const vkb_vk *v);
const vkb_devinfo *vkb_vk_info(const vkb_vk *v);
void vkb_vk_caps(const vkb_vk *v, vkb_caps *caps);
/* Number of validation-layer warnings and errors seen so far (0 when validation is off). */
uint64_t vkb_vk_validation_messages(const vkb_vk *v);
/* Print every device with its properties (the `devices` subcommand). Returns the device count or -1. */
int vkb_vk_list(FILE *f, char *err, size_t errlen);
/* Where SPIR-V modules are read from; shader overrides as "KERNEL_SHADER=OTHER" are applied by name. */
void vkb_vk_set_spv_dir(vkb_vk *v, const char *dir);
int vkb_vk_add_override(vkb_vk *v, const char *spec);
/* The first --shader A=B whose module A no pipeline asked for (the substitution never happened), or NULL. */
const char *vkb_vk_unused_override(const vkb_vk *v);

/* Compile pipeline p as a case with nbuf buffers would create it, into the run's pipeline cache, and destroy it:
 * the case's own vkb_gpu_prepare then finds it there. Thread-safe, touches no queue; -1 when it failed (the case
 * will say why). A driver took 33-40 s over one matmul tiling on an H200 with an empty shader cache, which the
 * main thread waited 21 s for when compiled with its case. */
int vkb_vk_precompile(vkb_vk *v, const vkb_pipe *p, int nbuf);
/* Prepare a planned case: device buffers with guards, staging, pipelines, descriptors.
 * Returns NULL and sets the context error on failure. */
vkb_gpu *vkb_gpu_prepare(vkb_vk *v, vkb_case *c);
/* Write inputs (host copies) and poison outputs, guards included, to the device. */
int vkb_gpu_upload(vkb_gpu *g);
/* The host half of the next vkb_gpu_upload: inputs and poisoned outputs into the staging buffers. Neither this
 * nor vkb_gpu_prepare touches the queue or another case's objects, so a prefetch worker may call both for a
 * later case while the main thread times this one (the upload then only copies). */
void vkb_gpu_stage(vkb_gpu *g);
/* Run the case's dispatch sequence `batch` times between two timestamps; cold: one sample of vkb_gpu_run_cold
 * (batch 1). *seconds = GPU time of the whole batch. */
int vkb_gpu_run(vkb_gpu *g, uint32_t batch, int cold, double *seconds);
/* Cold mode's samples, nsamp (1 .. VKB_COLD_SAMPLES_MAX) in one submission: the dispatch sequence once, untimed
 * (its code then warm; not with VKB_COLD_CODE=cold, which takes one sample), then each sample a flush and the
 * sequence between two timestamps. seconds[i] = sample i; *busy = the submission's GPU time, flushes included.
 * Returns the samples taken, or -1. */
#define VKB_COLD_SAMPLES_MAX 32
int vkb_gpu_run_cold(vkb_gpu *g, uint32_t nsamp, double *seconds, double *busy);
/* The cold samples a submission the environment sets (VKB_COLD_SAMPLES; 1 with VKB_COLD_CODE=cold), else 0. */
int vkb_vk_cold_samples(const vkb_vk *v);
/* One run of the dispatch sequence with a timestamp after each dispatch (and its barrier): seconds[i] = the time
 * from the end of dispatch i - 1 (the start, for i = 0) to the end of dispatch i; ndisp entries. */
int vkb_gpu_profile(vkb_gpu *g, int cold, double *seconds);
/* Check every buffer's guards and, with outputs != 0, read the outputs back into their host copies (inputs never
 * come back). guard_msg is empty when intact, else names the buffer and the first changed byte. */
int vkb_gpu_download(vkb_gpu *g, int outputs, char *guard_msg, size_t len);
/* The recheck, after timing: outputs and scratch poisoned again on the device, the inputs as the timed calls left
 * them, one run, then every output byte compared with the host copies (the validated run's outputs, as
 * vkb_gpu_download brought them back) and every guard checked. msg is empty when all match bit for bit, else
 * names the first difference: a kernel whose later calls differ from its first (state carried between calls,
 * an input written, a result that is not deterministic) has only its first call validated otherwise. */
int vkb_gpu_recheck(vkb_gpu *g, char *msg, size_t len);
/* End to end, host-timed: upload inputs, run once, download outputs. */
int vkb_gpu_e2e(vkb_gpu *g, double *seconds);
/* Rotate mode (a cold-cache measurement without flushes): make copies of every input buffer until
 * the copies hold >= target_bytes (2 <= copies <= max_copies, half of device memory at most); from
 * then on repetition r of a batch reads copy r % copies. Call after vkb_gpu_upload. Returns the
 * number of copies or -1. */
int vkb_gpu_rotate(vkb_gpu *g, uint64_t target_bytes, uint32_t max_copies);
/* Copies of the inputs in use (1 unless rotating). */
uint32_t vkb_gpu_copies(const vkb_gpu *g);
/* What the driver made of the case's shaders: "SHADER: Name=value, ...; ..." from
 * VK_KHR_pipeline_executable_properties (registers, shared memory, ... as the driver names them), or "NA: why". */
const char *vkb_gpu_stats(const vkb_gpu *g);
/* Builds g's pipelines again with the gate self-test's knob compiled in (VKB_GATE_SPEC = 1, kernels/common.glsl): the
 * dispatches whose pc.slow is not 0 run those. The plain ones stay without it. Returns -1 (vkb_vk_error) on failure. */
int vkb_gpu_gate(vkb_gpu *g);
/* How cold mode flushes the caches between samples (for the rows' note): a 512 MiB read by default, the
 * former 512 MiB write with VKB_COLD_FLUSH=write. */
const char *vkb_vk_cold_flush(vkb_vk *v);
void vkb_gpu_release(vkb_gpu *g);

/* Timer floor: median GPU time of an empty batch (timestamps around nothing) in seconds. */
int vkb_vk_timer_floor(vkb_vk *v, double *seconds);

#endif
