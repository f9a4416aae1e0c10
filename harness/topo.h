/* topo.h — host topology through hwloc: identity for rows and run.txt, and thread pinning.
 * Never fails: what hwloc cannot tell is "NA (reason)". */
#ifndef VKB_TOPO_H
#define VKB_TOPO_H
#include <stdio.h>

typedef struct vkb_topo {
    char host[128];
    char cpu_model[160];
    int packages, cores, pus, numa;
    char caches[160];        /* e.g. "L1d 48KiB, L2 1.25MiB, L3 48MiB" */
    unsigned long long numa_mem; /* bytes, from hwloc */
    char hwloc_version[16];
} vkb_topo;

void vkb_topo_read(vkb_topo *t);
/* Write the topology block of run.txt. */
void vkb_topo_print(FILE *f, const vkb_topo *t);
/* Pin the calling thread to one core (logical index, wrapped to the core count).
 * Returns the OS index of the PU it is bound to, or -1 with a reason in why. */
int vkb_topo_pin_thread(int core, char *why, size_t len);

#endif
