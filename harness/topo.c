/* topo.c — hwloc queries. One topology is loaded per call: cheap next to a benchmark run. */
#include <stdio.h>
#include <string.h>
#include <unistd.h>
#include <hwloc.h>

#include "topo.h"

static void add_cache(char *s, size_t len, hwloc_topology_t t, hwloc_obj_type_t type, const char *name)
{
    hwloc_obj_t o = hwloc_get_obj_by_type(t, type, 0);
    if (!o || !o->attr) return;
    size_t used = strlen(s);
    double kib = (double)o->attr->cache.size / 1024.0;
    snprintf(s + used, len - used, "%s%s %.0f%s", used ? ", " : "", name, kib >= 1024 ? kib / 1024 : kib,
             kib >= 1024 ? "MiB" : "KiB");
}

void vkb_topo_read(vkb_topo *t)
{
    hwloc_topology_t topo;
    memset(t, 0, sizeof(*t));
    snprintf(t->cpu_model, sizeof(t->cpu_model), "NA (hwloc gave no CPUModel)");
    if (gethostname(t->host, sizeof(t->host)) != 0) snprintf(t->host, sizeof(t->host), "NA");
    unsigned v = hwloc_get_api_version();
    snprintf(t->hwloc_version, sizeof(t->hwloc_version), "%u.%u.%u", v >> 16, (v >> 8) & 0xff, v & 0xff);
    if (hwloc_topology_init(&topo) != 0) return;
    if (hwloc_topology_load(topo) != 0) goto done;
    hwloc_obj_t pkg = hwloc_get_obj_by_type(topo, HWLOC_OBJ_PACKAGE, 0);
    const char *model = pkg ? hwloc_obj_get_info_by_name(pkg, "CPUModel") : NULL;
    if (!model) model = hwloc_obj_get_info_by_name(hwloc_get_root_obj(topo), "CPUModel");
    if (model) snprintf(t->cpu_model, sizeof(t->cpu_model), "%s", model);
    t->packages = hwloc_get_nbobjs_by_type(topo, HWLOC_OBJ_PACKAGE);
    t->cores = hwloc_get_nbobjs_by_type(topo, HWLOC_OBJ_CORE);
    t->pus = hwloc_get_nbobjs_by_type(topo, HWLOC_OBJ_PU);
    t->numa = hwloc_get_nbobjs_by_type(topo, HWLOC_OBJ_NUMANODE);
    for (int i = 0; i < t->numa; i++) {
        hwloc_obj_t n = hwloc_get_obj_by_type(topo, HWLOC_OBJ_NUMANODE, (unsigned)i);
        if (n && n->attr) t->numa_mem += n->attr->numanode.local_memory;
    }
    add_cache(t->caches, sizeof(t->caches), topo, HWLOC_OBJ_L1CACHE, "L1d");
    add_cache(t->caches, sizeof(t->caches), topo, HWLOC_OBJ_L2CACHE, "L2");
    add_cache(t->caches, sizeof(t->caches), topo, HWLOC_OBJ_L3CACHE, "L3");
done:
    hwloc_topology_destroy(topo);
}

void vkb_topo_print(FILE *f, const vkb_topo *t)
{
    fprintf(f, "host: %s\ncpu_model: %s\npackages: %d\ncores: %d\npus: %d\nnuma_nodes: %d\n"
               "numa_memory_bytes: %llu\ncaches: %s\nhwloc: %s\n",
            t->host, t->cpu_model, t->packages, t->cores, t->pus, t->numa, t->numa_mem,
            t->caches[0] ? t->caches : "NA (hwloc found no caches)", t->hwloc_version);
}

int vkb_topo_pin_thread(int core, char *why, size_t len)
{
    hwloc_topology_t topo;
    int ret = -1;
    hwloc_bitmap_t set = NULL;
    if (hwloc_topology_init(&topo) != 0) {
        snprintf(why, len, "hwloc_topology_init failed");
        return -1;
    }
    if (hwloc_topology_load(topo) != 0) {
        snprintf(why, len, "hwloc_topology_load failed");
        goto done;
    }
    const struct hwloc_topology_support *sup = hwloc_topology_get_support(topo);
    if (!sup->cpubind->set_thisthread_cpubind) {
        snprintf(why, len, "thread binding not supported here");
        goto done;
    }
    int ncores = hwloc_get_nbobjs_by_type(topo, HWLOC_OBJ_CORE);
    hwloc_obj_t c = hwloc_get_obj_by_type(topo, HWLOC_OBJ_CORE, (unsigned)(core % (ncores > 0 ? ncores : 1)));
    if (!c) {
        snprintf(why, len, "no core objects");
        goto done;
    }
    set = hwloc_bitmap_dup(c->cpuset);
    hwloc_bitmap_singlify(set);
    if (hwloc_set_cpubind(topo, set, HWLOC_CPUBIND_THREAD) != 0) {
        snprintf(why, len, "hwloc_set_cpubind refused");
        goto done;
    }
    ret = hwloc_bitmap_first(set);
done:
    if (set) hwloc_bitmap_free(set);
    hwloc_topology_destroy(topo);
    return ret;
}
