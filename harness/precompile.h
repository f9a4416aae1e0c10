/* precompile.h — the run's distinct pipelines compiled ahead of their cases, in run order, on one thread at the
 * lowest scheduling priority, into the device's pipeline cache (vkb_vk_precompile): a case's own compile, on a
 * prefetch worker, then finds its pipeline there. On an H200 with an empty driver shader cache one matmul tiling
 * took 33-40 s to compile, twice over (two cases compiled it at once), and the main thread waited 21 s for it.
 * The list is made while the suite is planned (run.c's preflight), before the run starts. */
#ifndef VKB_PRECOMPILE_H
#define VKB_PRECOMPILE_H
#include <stddef.h>

#include "vk.h"
#include "vkb.h"

typedef struct vkb_precompile vkb_precompile;

/* Add planned case c's pipelines not yet in *pc (made on first use). Returns -1 when out of memory. */
int vkb_precompile_add(vkb_precompile **pc, const vkb_case *c);
/* Start the thread compiling the list. 0, or -1 when it could not start (then nothing runs). */
int vkb_precompile_start(vkb_precompile *pc, vkb_vk *v);
/* Stop after the compile in flight and join. *done: pipelines compiled (failures included), *total: in the list,
 * *secs: the thread's time on them. NULL is a no-op (zeros). */
void vkb_precompile_stop(vkb_precompile *pc, size_t *done, size_t *total, double *secs);
void vkb_precompile_free(vkb_precompile *pc);

#endif
