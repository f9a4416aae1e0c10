/* precompile.h — the run's distinct pipelines compiled ahead of their cases, in run order, on threads at the
 * lowest scheduling priority (as many as the prefetch workers, at least one), into the device's pipeline cache
 * (vkb_vk_precompile): a case's own compile, on a prefetch worker, then finds its pipeline there. On an H200 with
 * an empty driver shader cache one matmul tiling took 33-40 s to compile, twice over (two cases compiled it at
 * once), and the main thread waited 21 s for it.
 * The list is made while the suite is planned (run.c's preflight), before the run starts. */
#ifndef VKB_PRECOMPILE_H
#define VKB_PRECOMPILE_H
#include <stddef.h>

#include "vk.h"
#include "vkb.h"

typedef struct vkb_precompile vkb_precompile;

/* Add planned case c's pipelines not yet in *pc (made on first use); index: the case's place in the run. Returns -1
 * when out of memory. */
int vkb_precompile_add(vkb_precompile **pc, const vkb_case *c, size_t index);
/* Start nthreads threads (1 to 8) compiling the list in run order, skipping pipelines whose first case index is
 * below *reached (the case the run is on, read atomically: that case's own preparation compiled them). 0, or -1
 * when none could start. */
int vkb_precompile_start(vkb_precompile *pc, vkb_vk *v, const size_t *reached, int nthreads);
/* Stop after the compile in flight (a driver compile cannot be cut short: on an H200's empty cache one took 70 s)
 * and join; line: what it did, for run.txt. NULL: "no pipelines". */
void vkb_precompile_stop(vkb_precompile *pc, char *line, size_t len);
void vkb_precompile_free(vkb_precompile *pc);

#endif
