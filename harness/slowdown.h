/* slowdown.h — the gate's self-measurement knob: make chosen kernels slower by a known fraction by
 * calibrating the push constant `slow` (kernels/common.glsl vkb_slow burns pc.slow dependent iterations). */
#ifndef VKB_SLOWDOWN_H
#define VKB_SLOWDOWN_H
#include <stddef.h>
#include "vk.h"

/* Find kernel's fraction in spec "KERNEL=F[,KERNEL=F...]" (0 < F <= 10). Returns 1 and sets *f when
 * kernel is listed, 0 when not (or spec is NULL), -1 with a message in err when spec is malformed
 * (call with kernel NULL to validate the whole spec). */
int vkb_slowdown_find(const char *spec, const char *kernel, double *f, char *err, size_t errlen);

/* If spec lists c's kernel: pick pc.slow for every dispatch of c (bisection on the iteration count)
 * so the median time becomes (1+f) times the unmodified median, leave it set for timing, and append
 * the count and the achieved factor to note. Returns 0 (also when not listed) or -1 with err set
 * (Vulkan error, or the kernel does not respond to pc.slow). */
int vkb_slowdown_apply(vkb_vk *v, vkb_gpu *g, vkb_case *c, const char *spec, int cold, char *note, size_t notelen, char *err,
                       size_t errlen);
#endif
