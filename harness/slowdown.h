/* slowdown.h — the gate's self-measurement knob: make chosen kernels slower by a known factor by calibrating
 * the push constant `slow` (kernels/common.glsl: extra bytes streamed for memory-bound kernels, extra
 * dependent FMAs for compute-bound ones). */
#ifndef VKB_SLOWDOWN_H
#define VKB_SLOWDOWN_H
#include <stddef.h>
#include "result.h"
#include "vk.h"

/* The kinds of injected work (pc.slow bit 23). AUTO picks MEM below 16 flop per byte, else ALU. */
typedef enum { VKB_SLOW_AUTO, VKB_SLOW_ALU, VKB_SLOW_MEM } vkb_slow_kind;

/* Find kernel's entry in spec "KERNEL=F[:alu|:mem][,KERNEL=F...]" (0 < F <= 10). Returns 1 and sets *f
 * (and *kind when not NULL) when kernel is listed, 0 when not (or spec is NULL), -1 with a message in err
 * when spec is malformed (call with kernel NULL to validate the whole spec, every KERNEL a registered one). */
int vkb_slowdown_find(const char *spec, const char *kernel, double *f, vkb_slow_kind *kind, char *err, size_t errlen);

/* If spec lists c's kernel: calibrate pc.slow for every dispatch of c (measured medians of interleaved
 * plain and slowed batches, a safeguarded secant search on the level) so the median time becomes (1+F)
 * times the plain one within max(1%, F/5) absolute, leave it set for timing, and record the achieved
 * factor in r->injected_factor and the level in r->note. Returns 0 (also when not listed), or 1 when the
 * row is finished: status SKIP with the reason when the calibration failed (the kernel ignores pc.slow,
 * or the device is too noisy to hit the target: a slowdown of unknown size must not be timed, and it is
 * not a correctness failure), status ERROR on a Vulkan error. pc.slow is 0 again on return 1. */
int vkb_slowdown_apply(vkb_vk *v, vkb_gpu *g, vkb_case *c, const char *spec, int cold, vkb_result *r);
#endif
