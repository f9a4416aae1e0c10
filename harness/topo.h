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
    char cpu_vendor[64];
    unsigned long long mem_total;  /* /proc/meminfo MemTotal, bytes (0: unreadable) */
    char numa_nodes[160];          /* "0:31.2GiB 1:31.5GiB" */
    int main_pu, sampler_pu;       /* OS PU indices chosen by vkb_topo_pick (-1: none) */
    char locality[200];            /* where they came from (GPU's PCI locality or why not) */
} vkb_topo;

void vkb_topo_read(vkb_topo *t);
/* Write the topology block of run.txt. */
void vkb_topo_print(FILE *f, const vkb_topo *t);
/* Pin the calling thread to one core (logical index, wrapped to the core count).
 * Returns the OS index of the PU it is bound to, or -1 with a reason in why. */
int vkb_topo_pin_thread(int core, char *why, size_t len);

/* Choose two PUs on distinct cores for the main thread (reference, submission) and the sensor sampler:
 * inside the GPU's PCI locality when hwloc knows the device at this bus id, else the first cores.
 * Fills t->main_pu, t->sampler_pu (-1 when only one core) and t->locality. */
void vkb_topo_pick(vkb_topo *t, int has_pci, unsigned dom, unsigned bus, unsigned dev, unsigned fn);
/* Bind the calling thread to the PU with this OS index. Returns pu, or -1 with a reason in why. */
int vkb_topo_bind_pu(int pu, char *why, size_t len);
/* The calling thread's binding, to put back with vkb_topo_bind_restore (which frees it); NULL-safe. */
void *vkb_topo_bind_save(void);
void vkb_topo_bind_restore(void *saved);

#endif
