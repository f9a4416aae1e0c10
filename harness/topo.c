/* topo.c — hwloc queries. One topology (with PCI devices, for GPU locality) is loaded once per
 * process and kept: pinning happens per case and must be cheap. */
#include <pthread.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>
#include <hwloc.h>

#include "topo.h"

static hwloc_topology_t g_topo;
static int g_ok;
static pthread_once_t g_once = PTHREAD_ONCE_INIT;

static void load_once(void)
{
    if (hwloc_topology_init(&g_topo) != 0) return;
    /* PCI devices for the GPU's locality; never initialise OpenCL drivers while loading. */
    hwloc_topology_set_io_types_filter(g_topo, HWLOC_TYPE_FILTER_KEEP_IMPORTANT);
    hwloc_topology_set_components(g_topo, HWLOC_TOPOLOGY_COMPONENTS_FLAG_BLACKLIST, "opencl");
    if (hwloc_topology_load(g_topo) != 0) {
        hwloc_topology_destroy(g_topo);
        return;
    }
    g_ok = 1;
}

/* The process-wide topology, or NULL when hwloc could not load one. */
static hwloc_topology_t topo_get(void)
{
    pthread_once(&g_once, load_once);
    return g_ok ? g_topo : NULL;
}


static void add_cache(char *s, size_t len, hwloc_topology_t t, hwloc_obj_type_t type, const char *name)
{
    hwloc_obj_t o = hwloc_get_obj_by_type(t, type, 0);
    if (!o || !o->attr) return;
    size_t used = strlen(s);
    double kib = (double)o->attr->cache.size / 1024.0;
    snprintf(s + used, len - used, "%s%s %.0f%s", used ? ", " : "", name, kib >= 1024 ? kib / 1024 : kib,
             kib >= 1024 ? "MiB" : "KiB");
    used = strlen(s);
    snprintf(s + used, len - used, " x%d", hwloc_get_nbobjs_by_type(t, type));
}

static unsigned long long meminfo_total(void)
{
    FILE *f = fopen("/proc/meminfo", "r");
    char line[256];
    unsigned long long kb = 0;
    while (f && fgets(line, sizeof(line), f))
        if (sscanf(line, "MemTotal: %llu kB", &kb) == 1) break;
    if (f) fclose(f);
    return kb * 1024;
}

void vkb_topo_read(vkb_topo *t)
{
    memset(t, 0, sizeof(*t));
    t->main_pu = t->sampler_pu = -1;
    snprintf(t->cpu_model, sizeof(t->cpu_model), "NA (hwloc gave no CPUModel)");
    snprintf(t->cpu_vendor, sizeof(t->cpu_vendor), "NA");
    snprintf(t->locality, sizeof(t->locality), "not chosen");
    if (gethostname(t->host, sizeof(t->host)) != 0) snprintf(t->host, sizeof(t->host), "NA");
    unsigned v = hwloc_get_api_version();
    snprintf(t->hwloc_version, sizeof(t->hwloc_version), "%u.%u.%u", v >> 16, (v >> 8) & 0xff, v & 0xff);
    t->mem_total = meminfo_total();
    hwloc_topology_t topo = topo_get();
    if (!topo) return;
    hwloc_obj_t pkg = hwloc_get_obj_by_type(topo, HWLOC_OBJ_PACKAGE, 0), root = hwloc_get_root_obj(topo);
    const char *model = pkg ? hwloc_obj_get_info_by_name(pkg, "CPUModel") : NULL;
    const char *vendor = pkg ? hwloc_obj_get_info_by_name(pkg, "CPUVendor") : NULL;
    if (!model) model = hwloc_obj_get_info_by_name(root, "CPUModel");
    if (!vendor) vendor = hwloc_obj_get_info_by_name(root, "CPUVendor");
    if (model) snprintf(t->cpu_model, sizeof(t->cpu_model), "%s", model);
    if (vendor) snprintf(t->cpu_vendor, sizeof(t->cpu_vendor), "%s", vendor);
    t->packages = hwloc_get_nbobjs_by_type(topo, HWLOC_OBJ_PACKAGE);
    t->cores = hwloc_get_nbobjs_by_type(topo, HWLOC_OBJ_CORE);
    t->pus = hwloc_get_nbobjs_by_type(topo, HWLOC_OBJ_PU);
    t->numa = hwloc_get_nbobjs_by_type(topo, HWLOC_OBJ_NUMANODE);
    for (int i = 0; i < t->numa; i++) {
        hwloc_obj_t n = hwloc_get_obj_by_type(topo, HWLOC_OBJ_NUMANODE, (unsigned)i);
        if (!n || !n->attr) continue;
        t->numa_mem += n->attr->numanode.local_memory;
        size_t used = strlen(t->numa_nodes);
        snprintf(t->numa_nodes + used, sizeof(t->numa_nodes) - used, "%s%u:%.1fGiB", used ? " " : "", n->os_index,
                 (double)n->attr->numanode.local_memory / 1073741824.0);
    }
    add_cache(t->caches, sizeof(t->caches), topo, HWLOC_OBJ_L1CACHE, "L1d");
    add_cache(t->caches, sizeof(t->caches), topo, HWLOC_OBJ_L2CACHE, "L2");
    add_cache(t->caches, sizeof(t->caches), topo, HWLOC_OBJ_L3CACHE, "L3");
}

void vkb_topo_print(FILE *f, const vkb_topo *t)
{
    fprintf(f, "host: %s\ncpu_model: %s\ncpu_vendor: %s\npackages: %d\ncores: %d\npus: %d\nnuma_nodes: %d (%s)\n"
               "numa_memory_bytes: %llu\nmem_total_bytes: %llu (/proc/meminfo; may differ from NUMA memory in VMs)\n"
               "caches: %s\nhwloc: %s\n",
            t->host, t->cpu_model, t->cpu_vendor, t->packages, t->cores, t->pus, t->numa,
            t->numa_nodes[0] ? t->numa_nodes : "NA", t->numa_mem, t->mem_total,
            t->caches[0] ? t->caches : "NA (hwloc found no caches)", t->hwloc_version);
    fprintf(f, "main_thread_pu: %d\nsampler_pu_requested: %d\npinning: %s\n", t->main_pu, t->sampler_pu, t->locality);
}

int vkb_topo_pin_thread(int core, char *why, size_t len)
{
    hwloc_topology_t topo = topo_get();
    if (!topo) {
        snprintf(why, len, "hwloc could not load the topology");
        return -1;
    }
    int ncores = hwloc_get_nbobjs_by_type(topo, HWLOC_OBJ_CORE);
    hwloc_obj_t c = hwloc_get_obj_by_type(topo, HWLOC_OBJ_CORE, (unsigned)(core % (ncores > 0 ? ncores : 1)));
    if (!c) {
        snprintf(why, len, "no core objects");
        return -1;
    }
    return vkb_topo_bind_pu((int)hwloc_bitmap_first(c->cpuset), why, len);
}

/* First PU of the i-th core inside set, or -1. */
static int core_pu(hwloc_topology_t topo, hwloc_const_cpuset_t set, unsigned i)
{
    hwloc_obj_t c = hwloc_get_obj_inside_cpuset_by_type(topo, set, HWLOC_OBJ_CORE, i);
    return c ? hwloc_bitmap_first(c->cpuset) : -1;
}

void vkb_topo_pick(vkb_topo *t, int has_pci, unsigned dom, unsigned bus, unsigned dev, unsigned fn)
{
    hwloc_topology_t topo = topo_get();
    t->main_pu = t->sampler_pu = -1;
    if (!topo) {
        snprintf(t->locality, sizeof(t->locality), "none (hwloc could not load the topology)");
        return;
    }
    hwloc_const_cpuset_t all = hwloc_topology_get_allowed_cpuset(topo), set = all;
    hwloc_obj_t pci = has_pci ? hwloc_get_pcidev_by_busid(topo, dom, bus, dev, fn) : NULL;
    hwloc_obj_t near = pci ? hwloc_get_non_io_ancestor_obj(topo, pci) : NULL;
    if (near && near->cpuset && hwloc_get_nbobjs_inside_cpuset_by_type(topo, near->cpuset, HWLOC_OBJ_CORE) > 0) {
        set = near->cpuset;
        snprintf(t->locality, sizeof(t->locality), "near the GPU (PCI %04x:%02x:%02x.%x, hwloc %s L#%u)", dom, bus,
                 dev, fn, hwloc_obj_type_string(near->type), near->logical_index);
    } else {
        snprintf(t->locality, sizeof(t->locality), "first cores (GPU locality unknown: %s)",
                 !has_pci ? "no PCI bus id from Vulkan" : !pci ? "hwloc has no PCI device at that bus id"
                                                           : "its ancestor has no cores");
    }
    t->main_pu = core_pu(topo, set, 0);
    t->sampler_pu = core_pu(topo, set, 1);
    if (t->sampler_pu < 0 && set != all) {   /* one core near the GPU: the sampler goes to any other core */
        for (unsigned i = 0; t->sampler_pu < 0 || t->sampler_pu == t->main_pu; i++) {
            int pu = core_pu(topo, all, i);
            if (pu < 0) {
                t->sampler_pu = -1;
                break;
            }
            t->sampler_pu = pu;
        }
    }
}

int vkb_topo_bind_pu(int pu, char *why, size_t len)
{
    hwloc_topology_t topo = topo_get();
    if (!topo || pu < 0) {
        snprintf(why, len, "%s", topo ? "no PU chosen" : "hwloc could not load the topology");
        return -1;
    }
    if (!hwloc_topology_get_support(topo)->cpubind->set_thisthread_cpubind) {
        snprintf(why, len, "thread binding not supported here");
        return -1;
    }
    hwloc_bitmap_t set = hwloc_bitmap_alloc();
    hwloc_bitmap_only(set, (unsigned)pu);
    int rc = hwloc_set_cpubind(topo, set, HWLOC_CPUBIND_THREAD);
    hwloc_bitmap_free(set);
    if (rc != 0) {
        snprintf(why, len, "hwloc_set_cpubind to PU %d refused", pu);
        return -1;
    }
    return pu;
}

void *vkb_topo_bind_save(void)
{
    hwloc_topology_t topo = topo_get();
    if (!topo) return NULL;
    hwloc_bitmap_t set = hwloc_bitmap_alloc();
    if (set && hwloc_get_cpubind(topo, set, HWLOC_CPUBIND_THREAD) != 0) {
        hwloc_bitmap_free(set);
        return NULL;
    }
    return set;
}

void vkb_topo_bind_restore(void *saved)
{
    hwloc_topology_t topo = topo_get();
    if (!saved) return;
    if (topo) hwloc_set_cpubind(topo, saved, HWLOC_CPUBIND_THREAD);
    hwloc_bitmap_free(saved);
}
