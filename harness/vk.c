/* vk.c — Vulkan device, buffers, pipelines and timed dispatch for one case at a time.
 * Every call goes through VKB_CHECK, which names the call, its VkResult and file:line and jumps
 * to the function's cleanup label; nothing below main() prints or exits. */
#include <errno.h>
#include <math.h>
#include <stdarg.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>
#include <vulkan/vulkan.h>

#include "check.h"
#include "vk.h"
#include "spvkhr.h"
#include "fsutil.h"

#define MAX_OVERRIDES 16
#define GUARD_PATTERN 0x5Au

struct vkb_vk {
    VkInstance inst;
    VkDebugUtilsMessengerEXT messenger;
    VkPhysicalDevice phys;
    VkDevice dev;
    VkQueue queue;
    uint32_t qfam;
    VkCommandPool pool;
    VkCommandBuffer cmd;
    /* The timed submission, recorded once and submitted again while its key holds (timed_run): re-recording a
     * batch of small dispatches cost the host about as long as the GPU took to run them, and the GPU idled
     * meanwhile (an H200 make bench: copy 2^20 busy 32% of its energy window). Key: the vkb_gpu's id (new on
     * every prepare and rotate), batch, cold, cold samples, and a copy of the dispatches (the gate's slowdown edits
     * pushes). */
    VkCommandBuffer tcmd;
    uint64_t t_id;
    uint32_t t_batch, t_nsamp;
    int t_cold, t_ndisp, t_cap;
    vkb_dispatch *t_disp;
    VkFence fence;
    VkQueryPool qpool;
    VkQueryPool pqpool;      /* vkb_gpu_profile: one timestamp per dispatch boundary (made on demand) */
    VkPipelineCache pcache;  /* the run's pipelines (vkb_vk_precompile fills it ahead of the cases) */
    uint32_t pqcount;
    VkPhysicalDeviceProperties props;
    VkPhysicalDeviceMemoryProperties mem;
    vkb_devinfo info;
    vkb_caps caps;
    uint64_t validation_msgs;
    VkBuffer flush;          /* cold mode: read (or written) between samples to evict caches */
    VkDeviceMemory flush_mem;
    VkDeviceSize flush_size;
    uint32_t flush_value;
    int flush_write;         /* VKB_COLD_FLUSH=write: the former fill, which leaves the L2 full of dirty lines */
    int code_cold;           /* VKB_COLD_CODE=cold: no untimed run before the flush (record_timed) */
    int cold_samples;        /* VKB_COLD_SAMPLES: cold samples a submission (0: the timing rule's) */
    int bda;                 /* bufferDeviceAddress enabled: every device-local buffer has an address (kernels/bda.glsl) */
    VkBuffer flush_out;      /* read flush: kernels/readbw.comp over the flush buffer, its sums land here */
    VkDeviceMemory flush_out_mem;
    VkDescriptorSetLayout flush_dsl;
    VkPipelineLayout flush_layout;
    VkDescriptorPool flush_pool;
    VkDescriptorSet flush_set;
    VkPipeline flush_pipe;
    uint32_t flush_groups;
    int flush_state;         /* 0 not made yet, 1 ready, -1 failed (vk_err says why) */
    char flush_note[224];    /* vkb_vk_cold_flush */
    char spv_dir[512];
    /* VK_KHR_pipeline_executable_properties, when the device offers it (else NULL) */
    PFN_vkGetPipelineExecutablePropertiesKHR exec_props;
    PFN_vkGetPipelineExecutableStatisticsKHR exec_stats;
    char stats_why[128];     /* why there are none, when exec_stats is NULL */
    char override_from[MAX_OVERRIDES][48], override_to[MAX_OVERRIDES][48];
    int noverride, override_used[MAX_OVERRIDES];
};

/* The calling thread's last error (vkb_vk_error). Per thread: prefetch workers prepare cases beside the main
 * thread, and a worker's failed prepare (which the main thread repeats, and reports as its own) wrote the one
 * buffer that the main thread may be writing or reading. */
static _Thread_local char vk_err[512];

typedef struct gbuf {
    VkBuffer buf, stage;
    VkDeviceMemory mem, stage_mem;
    VkDeviceSize payload, total;  /* total = guard + payload (rounded) + guard */
    VkDeviceAddress addr;         /* the payload's device address (0 without bufferDeviceAddress) */
    uint8_t *map;                 /* staging mapping */
} gbuf;

struct vkb_gpu {
    vkb_vk *v;
    vkb_case *c;
    gbuf b[VKB_MAX_BUFS];
    VkDescriptorSetLayout dsl;
    VkPipelineLayout layout;
    VkDescriptorPool dpool;
    VkDescriptorSet set;
    VkPipeline pipe[VKB_MAX_PIPES];
    VkPipeline gate[VKB_MAX_PIPES];  /* with the gate self-test's knob compiled in (vkb_gpu_gate), for pc.slow != 0 */
    /* rotate mode: ncopies copies of every input buffer, one descriptor set per copy */
    uint32_t ncopies;
    VkBuffer *copy;            /* [ncopies - 1][VKB_MAX_BUFS]; copy 0 is b[i].buf */
    VkDeviceAddress *copy_addr; /* their payloads' device addresses, as copy */
    VkDeviceMemory *copy_mem;
    VkDescriptorPool rpool;
    VkDescriptorSet *rset;     /* [ncopies] */
    int staged;                /* the staging buffers hold the inputs and poisoned outputs (vkb_gpu_stage) */
    uint64_t id;               /* the recorded timed submission's key (struct vkb_vk's tcmd): never 0 */
    char stats[512];           /* vkb_gpu_stats */
};

static const char *vk_result_name(VkResult r)
{
    switch (r) {
#define R(x) case x: return #x;
        R(VK_SUCCESS) R(VK_NOT_READY) R(VK_TIMEOUT) R(VK_INCOMPLETE)
        R(VK_ERROR_OUT_OF_HOST_MEMORY) R(VK_ERROR_OUT_OF_DEVICE_MEMORY)
        R(VK_ERROR_INITIALIZATION_FAILED) R(VK_ERROR_DEVICE_LOST) R(VK_ERROR_MEMORY_MAP_FAILED)
        R(VK_ERROR_LAYER_NOT_PRESENT) R(VK_ERROR_EXTENSION_NOT_PRESENT)
        R(VK_ERROR_FEATURE_NOT_PRESENT) R(VK_ERROR_INCOMPATIBLE_DRIVER)
        R(VK_ERROR_TOO_MANY_OBJECTS) R(VK_ERROR_FORMAT_NOT_SUPPORTED)
        R(VK_ERROR_INVALID_SHADER_NV) R(VK_ERROR_OUT_OF_POOL_MEMORY) R(VK_ERROR_UNKNOWN)
#undef R
    default: return "VkResult(other)";
    }
}

static void set_err(char *buf, size_t len, const char *fmt, ...) __attribute__((format(printf, 3, 4)));
static void set_err(char *buf, size_t len, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(buf, len, fmt, ap);
    va_end(ap);
}

/* v: unused since the last error became per thread (vk_err); kept so that every call site reads the same. */
#define VKB_CHECK(v, call)                                                                       \
    do {                                                                                         \
        (void)(v);                                                                               \
        VkResult r_ = (call);                                                                    \
        if (r_ != VK_SUCCESS) {                                                                  \
            set_err(vk_err, sizeof(vk_err), "%s failed: %s (%d) at %s:%d", #call,            \
                    vk_result_name(r_), (int)r_, __FILE__, __LINE__);                            \
            goto error;                                                                          \
        }                                                                                        \
    } while (0)

static VKAPI_ATTR VkBool32 VKAPI_CALL on_validation(VkDebugUtilsMessageSeverityFlagBitsEXT sev,
                                                   VkDebugUtilsMessageTypeFlagsEXT type,
                                                   const VkDebugUtilsMessengerCallbackDataEXT *d,
                                                   void *user)
{
    (void)type;
    vkb_vk *v = user;
    if (sev >= VK_DEBUG_UTILS_MESSAGE_SEVERITY_WARNING_BIT_EXT) {
        v->validation_msgs++;
        fprintf(stderr, "vkbench: validation: %s\n", d->pMessage);  /* the layer's own channel */
    }
    return VK_FALSE;
}

static const char *type_name(VkPhysicalDeviceType t)
{
    switch (t) {
    case VK_PHYSICAL_DEVICE_TYPE_DISCRETE_GPU: return "discrete";
    case VK_PHYSICAL_DEVICE_TYPE_INTEGRATED_GPU: return "integrated";
    case VK_PHYSICAL_DEVICE_TYPE_VIRTUAL_GPU: return "virtual";
    case VK_PHYSICAL_DEVICE_TYPE_CPU: return "cpu";
    default: return "other";
    }
}

static int type_rank(VkPhysicalDeviceType t)
{
    switch (t) {
    case VK_PHYSICAL_DEVICE_TYPE_DISCRETE_GPU: return 0;
    case VK_PHYSICAL_DEVICE_TYPE_INTEGRATED_GPU: return 1;
    case VK_PHYSICAL_DEVICE_TYPE_VIRTUAL_GPU: return 2;
    case VK_PHYSICAL_DEVICE_TYPE_CPU: return 3;
    default: return 4;
    }
}

static int has_ext(const VkExtensionProperties *e, uint32_t n, const char *name)
{
    for (uint32_t i = 0; i < n; i++)
        if (strcmp(e[i].extensionName, name) == 0) return 1;
    return 0;
}

/* VK_KHR_cooperative_matrix's property record (Vulkan 1.3.255): Debian 12's headers (1.3.239) predate it.
 * Field for field as the registry declares it; the enums are 32-bit. */
typedef struct khr_cm_props {
    VkStructureType sType;
    void *pNext;
    uint32_t MSize, NSize, KSize;
    uint32_t AType, BType, CType, ResultType;  /* VkComponentTypeKHR: the NV values 0..10 */
    VkBool32 saturatingAccumulation;
    uint32_t scope;                            /* VkScopeKHR: 3 = subgroup, as VkScopeNV */
} khr_cm_props;
#define STYPE_CM_PROPS_KHR ((VkStructureType)1000506001)
typedef VkResult(VKAPI_PTR *pfn_cm_props_khr)(VkPhysicalDevice, uint32_t *, khr_cm_props *);

/* VK_KHR_cooperative_matrix's feature record and VK_NV_cooperative_matrix2's (Vulkan 1.3.297), as the registry
 * declares them: workgroup-scope matrices of flexible size (kernels written through harness/spvkhr.c). */
typedef struct khr_cm_feats {
    VkStructureType sType;
    void *pNext;
    VkBool32 cooperativeMatrix, cooperativeMatrixRobustBufferAccess;
} khr_cm_feats;
typedef struct nv_cm2_feats {
    VkStructureType sType;
    void *pNext;
    VkBool32 workgroupScope, flexibleDimensions, reductions, conversions, perElementOperations, tensorAddressing,
        blockLoads;
} nv_cm2_feats;
typedef struct nv_cm2_props {
    VkStructureType sType;
    void *pNext;
    uint32_t workgroupScopeMaxWorkgroupSize, flexibleDimensionsMaxDimension, workgroupScopeReservedSharedMemory;
} nv_cm2_props;
typedef struct nv_cm2_flex {
    VkStructureType sType;
    void *pNext;
    uint32_t MGranularity, NGranularity, KGranularity, AType, BType, CType, ResultType;
    VkBool32 saturatingAccumulation;
    uint32_t scope, workgroupInvocations;
} nv_cm2_flex;
#define STYPE_CM_FEATS_KHR ((VkStructureType)1000506000)
#define STYPE_CM2_FEATS_NV ((VkStructureType)1000593000)
#define STYPE_CM2_FLEX_NV ((VkStructureType)1000593001)
#define STYPE_CM2_PROPS_NV ((VkStructureType)1000593002)
typedef VkResult(VKAPI_PTR *pfn_cm2_flex)(VkPhysicalDevice, uint32_t *, nv_cm2_flex *);

/* Everything we learn about one physical device, for selection, `devices` and the caps. */
typedef struct physinfo {
    VkPhysicalDeviceProperties2 p2;
    VkPhysicalDeviceIDProperties id;
    VkPhysicalDeviceDriverProperties drv;
    VkPhysicalDeviceSubgroupProperties sub;
    VkPhysicalDeviceVulkan11Properties p11;
    VkPhysicalDeviceShaderIntegerDotProductProperties dotp;
    VkPhysicalDevicePCIBusInfoPropertiesEXT pci;
    VkPhysicalDeviceFloatControlsProperties fc;
    VkPhysicalDeviceShaderSMBuiltinsPropertiesNV sm;   /* VK_NV_shader_sm_builtins: SM count */
    VkPhysicalDeviceShaderCorePropertiesAMD amd;       /* VK_AMD_shader_core_properties: CU layout */
    VkPhysicalDeviceShaderCoreProperties2AMD amd2;     /* ..._properties2: active CU count */
    VkPhysicalDeviceFeatures2 f2;
    VkPhysicalDeviceVulkan11Features f11;
    VkPhysicalDeviceVulkan12Features f12;
    VkPhysicalDeviceVulkan13Features f13;
    VkPhysicalDevicePipelineExecutablePropertiesFeaturesKHR pexf;  /* when has_pexec */
    VkPhysicalDeviceShaderClockFeaturesKHR clkf;                   /* when has_clock */
    khr_cm_feats cmkf;                                             /* when has_coop_khr */
    nv_cm2_feats cm2f;                                             /* when has_coop2_nv */
    nv_cm2_props cm2p;                                             /* when has_coop2_nv */
    VkPhysicalDeviceMemoryProperties mem;
    VkExtensionProperties *ext;
    uint32_t next;
    int has_pci, has_coop_nv, has_coop_khr, has_coop2_nv, has_sm, has_amd, has_amd2, has_pexec, has_clock;
    int ncm, cm_other;          /* subgroup-scope configurations kept; others (other scopes, overflow) */
    vkb_cm_shape cm[VKB_MAX_CM];
} physinfo;

static void cm_add(physinfo *pi, uint32_t scope, const uint32_t mnk[3], const uint32_t abcd[4], int khr)
{
    if (scope != 3u || pi->ncm >= VKB_MAX_CM) {  /* 3: VK_SCOPE_SUBGROUP_{NV,KHR}, the only scope the probe uses */
        pi->cm_other++;
        return;
    }
    pi->cm[pi->ncm++] = (vkb_cm_shape){mnk[0], mnk[1], mnk[2], abcd[0], abcd[1], abcd[2], abcd[3], khr};
}

/* The cooperative-matrix configurations of both extensions, through the instance (the loader's
 * physical-device trampolines). A query that fails leaves the list as it is: the probe then has less to try. */
static void cm_query(VkInstance inst, VkPhysicalDevice pd, physinfo *pi)
{
    uint32_t n = 0;
    PFN_vkGetPhysicalDeviceCooperativeMatrixPropertiesNV nv =
        pi->has_coop_nv ? (PFN_vkGetPhysicalDeviceCooperativeMatrixPropertiesNV)vkGetInstanceProcAddr(
                              inst, "vkGetPhysicalDeviceCooperativeMatrixPropertiesNV")
                        : NULL;
    if (nv && nv(pd, &n, NULL) == VK_SUCCESS && n) {
        VkCooperativeMatrixPropertiesNV *p = calloc(n, sizeof(*p));
        for (uint32_t i = 0; p && i < n; i++) p[i].sType = VK_STRUCTURE_TYPE_COOPERATIVE_MATRIX_PROPERTIES_NV;
        if (p && nv(pd, &n, p) >= VK_SUCCESS)
            for (uint32_t i = 0; i < n; i++)
                cm_add(pi, (uint32_t)p[i].scope, (uint32_t[3]){p[i].MSize, p[i].NSize, p[i].KSize},
                       (uint32_t[4]){(uint32_t)p[i].AType, (uint32_t)p[i].BType, (uint32_t)p[i].CType,
                                     (uint32_t)p[i].DType}, 0);
        free(p);
    }
    n = 0;
    pfn_cm_props_khr khr = pi->has_coop_khr ? (pfn_cm_props_khr)vkGetInstanceProcAddr(
                                                  inst, "vkGetPhysicalDeviceCooperativeMatrixPropertiesKHR")
                                            : NULL;
    if (khr && khr(pd, &n, NULL) == VK_SUCCESS && n) {
        khr_cm_props *p = calloc(n, sizeof(*p));
        for (uint32_t i = 0; p && i < n; i++) p[i].sType = STYPE_CM_PROPS_KHR;
        if (p && khr(pd, &n, p) >= VK_SUCCESS)
            for (uint32_t i = 0; i < n; i++)
                cm_add(pi, p[i].scope, (uint32_t[3]){p[i].MSize, p[i].NSize, p[i].KSize},
                       (uint32_t[4]){p[i].AType, p[i].BType, p[i].CType, p[i].ResultType}, 1);
        free(p);
    }
}

/* SMs (NVIDIA) or CUs (AMD) as the driver reports them; 0 with the reason when it does not. */
static uint32_t sm_count(const physinfo *pi, char *src, size_t len)
{
    if (pi->has_sm && pi->sm.shaderSMCount) {
        snprintf(src, len, "VK_NV_shader_sm_builtins shaderSMCount");
        return pi->sm.shaderSMCount;
    }
    if (pi->has_amd2 && pi->amd2.activeComputeUnitCount) {
        snprintf(src, len, "VK_AMD_shader_core_properties2 activeComputeUnitCount");
        return pi->amd2.activeComputeUnitCount;
    }
    if (pi->has_amd && pi->amd.shaderEngineCount) {  /* an upper bound: harvested CUs are not subtracted */
        snprintf(src, len, "VK_AMD_shader_core_properties engines x arrays x CUs per array");
        return pi->amd.shaderEngineCount * pi->amd.shaderArraysPerEngineCount * pi->amd.computeUnitsPerShaderArray;
    }
    snprintf(src, len, "not reported (neither VK_NV_shader_sm_builtins nor VK_AMD_shader_core_properties)");
    return 0;
}

/* The workgroup-scope flexible configurations (granularity in M, N, K; the workgroup size each needs): the caps and
 * `devices` read them. */
static int cm2_flex(VkInstance inst, VkPhysicalDevice pd, vkb_cm_flex *out, int max)
{
    pfn_cm2_flex q = (pfn_cm2_flex)vkGetInstanceProcAddr(inst, "vkGetPhysicalDeviceCooperativeMatrixFlexibleDimensionsPropertiesNV");
    uint32_t n = 0;
    int k = 0;
    if (!q || q(pd, &n, NULL) != VK_SUCCESS || !n) return 0;
    nv_cm2_flex *p = calloc(n, sizeof(*p));
    for (uint32_t i = 0; p && i < n; i++) p[i].sType = STYPE_CM2_FLEX_NV;
    if (p && q(pd, &n, p) >= VK_SUCCESS)
        for (uint32_t i = 0; i < n && k < max; i++)
            if (p[i].scope == 2u)  /* VK_SCOPE_WORKGROUP_KHR */
                out[k++] = (vkb_cm_flex){p[i].MGranularity, p[i].NGranularity, p[i].KGranularity, p[i].AType, p[i].BType,
                                         p[i].CType, p[i].ResultType, p[i].workgroupInvocations};
    free(p);
    return k;
}

/* VK_NV_cooperative_matrix2 for `devices`: the features, the workgroup-scope limits and each flexible configuration. */
static void cm2_list(FILE *f, VkInstance inst, VkPhysicalDevice pd, const physinfo *pi)
{
    const nv_cm2_feats *x = &pi->cm2f;
    fprintf(f, "    coopmat2: workgroup scope %s, flexible dimensions %s, reductions %s, conversions %s, "
               "per-element %s, tensor addressing %s, block loads %s; workgroup scope max %u invocations, "
               "max dimension %u, reserved shared %u B\n",
            x->workgroupScope ? "yes" : "no", x->flexibleDimensions ? "yes" : "no", x->reductions ? "yes" : "no",
            x->conversions ? "yes" : "no", x->perElementOperations ? "yes" : "no", x->tensorAddressing ? "yes" : "no",
            x->blockLoads ? "yes" : "no", pi->cm2p.workgroupScopeMaxWorkgroupSize,
            pi->cm2p.flexibleDimensionsMaxDimension, pi->cm2p.workgroupScopeReservedSharedMemory);
    vkb_cm_flex fl[sizeof(((vkb_caps *)0)->flex) / sizeof(vkb_cm_flex)];  /* as many as the caps keep */
    int n = cm2_flex(inst, pd, fl, (int)(sizeof(fl) / sizeof(fl[0])));
    if (!n) fprintf(f, "    coopmat2 flexible: none at workgroup scope\n");
    for (int i = 0; i < n; i++)
        fprintf(f, "    coopmat2 flexible %ux%ux%u A %s B %s C %s D %s, workgroup scope, %u invocations\n", fl[i].m, fl[i].n,
                fl[i].k, vkb_cm_type_name(fl[i].a), vkb_cm_type_name(fl[i].b), vkb_cm_type_name(fl[i].c),
                vkb_cm_type_name(fl[i].d), fl[i].invocations);
}

static void phys_query(VkInstance inst, VkPhysicalDevice pd, physinfo *pi)
{
    memset(pi, 0, sizeof(*pi));
    vkEnumerateDeviceExtensionProperties(pd, NULL, &pi->next, NULL);
    pi->ext = calloc(pi->next ? pi->next : 1, sizeof(*pi->ext));
    if (pi->ext) vkEnumerateDeviceExtensionProperties(pd, NULL, &pi->next, pi->ext);
    else pi->next = 0;
    pi->has_pci = has_ext(pi->ext, pi->next, VK_EXT_PCI_BUS_INFO_EXTENSION_NAME);
    pi->has_coop_nv = has_ext(pi->ext, pi->next, "VK_NV_cooperative_matrix");
    pi->has_coop_khr = has_ext(pi->ext, pi->next, "VK_KHR_cooperative_matrix");
    pi->has_coop2_nv = has_ext(pi->ext, pi->next, "VK_NV_cooperative_matrix2");
    pi->has_sm = has_ext(pi->ext, pi->next, VK_NV_SHADER_SM_BUILTINS_EXTENSION_NAME);
    pi->has_amd = has_ext(pi->ext, pi->next, VK_AMD_SHADER_CORE_PROPERTIES_EXTENSION_NAME);
    pi->has_amd2 = has_ext(pi->ext, pi->next, VK_AMD_SHADER_CORE_PROPERTIES_2_EXTENSION_NAME);
    pi->has_pexec = has_ext(pi->ext, pi->next, VK_KHR_PIPELINE_EXECUTABLE_PROPERTIES_EXTENSION_NAME);
    pi->has_clock = has_ext(pi->ext, pi->next, VK_KHR_SHADER_CLOCK_EXTENSION_NAME);

    pi->p2.sType = VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_PROPERTIES_2;
    pi->id.sType = VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_ID_PROPERTIES;
    pi->drv.sType = VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_DRIVER_PROPERTIES;
    pi->sub.sType = VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_SUBGROUP_PROPERTIES;
    pi->dotp.sType = VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_SHADER_INTEGER_DOT_PRODUCT_PROPERTIES;
    pi->pci.sType = VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_PCI_BUS_INFO_PROPERTIES_EXT;
    pi->sm.sType = VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_SHADER_SM_BUILTINS_PROPERTIES_NV;
    pi->amd.sType = VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_SHADER_CORE_PROPERTIES_AMD;
    pi->amd2.sType = VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_SHADER_CORE_PROPERTIES_2_AMD;
    pi->p2.pNext = &pi->id;
    pi->id.pNext = &pi->drv;
    pi->drv.pNext = &pi->sub;
    pi->sub.pNext = &pi->dotp;
    pi->fc.sType = VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_FLOAT_CONTROLS_PROPERTIES;
    pi->dotp.pNext = &pi->fc;
    void **tail = &pi->fc.pNext;  /* extension records only when the device offers the extension */
    if (pi->has_pci) *tail = &pi->pci, tail = &pi->pci.pNext;
    if (pi->has_sm) *tail = &pi->sm, tail = &pi->sm.pNext;
    if (pi->has_amd) *tail = &pi->amd, tail = &pi->amd.pNext;
    if (pi->has_amd2) *tail = &pi->amd2, tail = &pi->amd2.pNext;
    pi->cm2p.sType = STYPE_CM2_PROPS_NV;
    if (pi->has_coop2_nv) *tail = &pi->cm2p, tail = &pi->cm2p.pNext;
    *tail = NULL;
    vkGetPhysicalDeviceProperties2(pd, &pi->p2);
    cm_query(inst, pd, pi);

    pi->f2.sType = VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_FEATURES_2;
    pi->f11.sType = VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_VULKAN_1_1_FEATURES;
    pi->f12.sType = VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_VULKAN_1_2_FEATURES;
    pi->f13.sType = VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_VULKAN_1_3_FEATURES;
    pi->f2.pNext = &pi->f11;
    pi->f11.pNext = &pi->f12;
    pi->f12.pNext = &pi->f13;
    pi->pexf.sType = VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_PIPELINE_EXECUTABLE_PROPERTIES_FEATURES_KHR;
    pi->clkf.sType = VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_SHADER_CLOCK_FEATURES_KHR;
    tail = &pi->f13.pNext;
    if (pi->has_pexec) *tail = &pi->pexf, tail = &pi->pexf.pNext;
    if (pi->has_clock) *tail = &pi->clkf, tail = &pi->clkf.pNext;
    pi->cmkf.sType = STYPE_CM_FEATS_KHR;
    pi->cm2f.sType = STYPE_CM2_FEATS_NV;
    if (pi->has_coop_khr) *tail = &pi->cmkf, tail = &pi->cmkf.pNext;
    if (pi->has_coop2_nv) *tail = &pi->cm2f, tail = &pi->cm2f.pNext;
    *tail = NULL;
    if (pi->p2.properties.apiVersion >= VK_API_VERSION_1_3) vkGetPhysicalDeviceFeatures2(pd, &pi->f2);
    vkGetPhysicalDeviceMemoryProperties(pd, &pi->mem);
}

static uint64_t largest_heap(const VkPhysicalDeviceMemoryProperties *m, int device_local)
{
    uint64_t best = 0;
    for (uint32_t i = 0; i < m->memoryHeapCount; i++)
        if (!device_local || (m->memoryHeaps[i].flags & VK_MEMORY_HEAP_DEVICE_LOCAL_BIT))
            if (m->memoryHeaps[i].size > best) best = m->memoryHeaps[i].size;
    return best;
}

static void uuid_str(const uint8_t *u, char *s, size_t len)
{
    snprintf(s, len, "%02x%02x%02x%02x-%02x%02x-%02x%02x-%02x%02x-%02x%02x%02x%02x%02x%02x", u[0], u[1],
             u[2], u[3], u[4], u[5], u[6], u[7], u[8], u[9], u[10], u[11], u[12], u[13], u[14], u[15]);
}

static VkResult make_instance(int validate, VkInstance *inst, char *err, size_t errlen)
{
    VkApplicationInfo app = {.sType = VK_STRUCTURE_TYPE_APPLICATION_INFO, .pApplicationName = "vkbench",
                             .apiVersion = VK_API_VERSION_1_3};
    const char *layers[] = {"VK_LAYER_KHRONOS_validation"};
    const char *exts[] = {VK_EXT_DEBUG_UTILS_EXTENSION_NAME};
    VkInstanceCreateInfo ci = {.sType = VK_STRUCTURE_TYPE_INSTANCE_CREATE_INFO, .pApplicationInfo = &app,
                               .enabledLayerCount = validate ? 1u : 0u, .ppEnabledLayerNames = layers,
                               .enabledExtensionCount = validate ? 1u : 0u, .ppEnabledExtensionNames = exts};
    VkResult r = vkCreateInstance(&ci, NULL, inst);
    if (r == VK_ERROR_LAYER_NOT_PRESENT)
        set_err(err, errlen, "validation requested but VK_LAYER_KHRONOS_validation is not installed "
                             "(apt-get install vulkan-validationlayers)");
    else if (r != VK_SUCCESS)
        set_err(err, errlen, "vkCreateInstance failed: %s (%d): is a Vulkan loader and driver installed? "
                             "For a CPU device: apt-get install libvulkan1 mesa-vulkan-drivers",
                vk_result_name(r), (int)r);
    return r;
}

static const char *no_device_msg =
    "no Vulkan device found. On a machine without a GPU install Mesa's CPU driver (lavapipe): "
    "apt-get install mesa-vulkan-drivers; check with `vulkaninfo --summary`";

int vkb_vk_list(FILE *f, char *err, size_t errlen)
{
    VkInstance inst = VK_NULL_HANDLE;
    VkPhysicalDevice *pds = NULL;
    uint32_t n = 0;
    int ret = -1;
    if (make_instance(0, &inst, err, errlen) != VK_SUCCESS) goto done;
    vkEnumeratePhysicalDevices(inst, &n, NULL);
    if (n == 0) {
        set_err(err, errlen, "%s", no_device_msg);
        goto done;
    }
    pds = calloc(n, sizeof(*pds));
    if (!pds) goto done;
    vkEnumeratePhysicalDevices(inst, &n, pds);
    for (uint32_t i = 0; i < n; i++) {
        physinfo pi;
        phys_query(inst, pds[i], &pi);
        const VkPhysicalDeviceProperties *p = &pi.p2.properties;
        uint32_t qn = 0;
        vkGetPhysicalDeviceQueueFamilyProperties(pds[i], &qn, NULL);
        VkQueueFamilyProperties q[16];
        if (qn > 16) qn = 16;
        vkGetPhysicalDeviceQueueFamilyProperties(pds[i], &qn, q);
        uint32_t tsbits = 0;
        for (uint32_t j = 0; j < qn; j++)
            if (q[j].queueFlags & VK_QUEUE_COMPUTE_BIT) { tsbits = q[j].timestampValidBits; break; }
        char uuid[40];
        uuid_str(pi.id.deviceUUID, uuid, sizeof(uuid));
        fprintf(f, "[%u] %s\n", i, p->deviceName);
        fprintf(f, "    type %s, vendor 0x%04x device 0x%04x, API %u.%u.%u, driver %s %s\n",
                type_name(p->deviceType), p->vendorID, p->deviceID, VK_API_VERSION_MAJOR(p->apiVersion),
                VK_API_VERSION_MINOR(p->apiVersion), VK_API_VERSION_PATCH(p->apiVersion), pi.drv.driverName,
                pi.drv.driverInfo);
        fprintf(f, "    uuid %s", uuid);
        if (pi.has_pci)
            fprintf(f, ", pci %04x:%02x:%02x.%x", pi.pci.pciDomain, pi.pci.pciBus, pi.pci.pciDevice,
                    pi.pci.pciFunction);
        fprintf(f, "\n    subgroup %u, max workgroup %u, shared %u B, max storage range %u B\n",
                pi.sub.subgroupSize, p->limits.maxComputeWorkGroupInvocations,
                p->limits.maxComputeSharedMemorySize, p->limits.maxStorageBufferRange);
        fprintf(f, "    timestamps: period %.6g ns, valid bits %u, compute+graphics %s\n",
                (double)p->limits.timestampPeriod, tsbits, p->limits.timestampComputeAndGraphics ? "yes" : "no");
        for (uint32_t h = 0; h < pi.mem.memoryHeapCount; h++)
            fprintf(f, "    heap %u: %.2f GiB%s\n", h, (double)pi.mem.memoryHeaps[h].size / 1073741824.0,
                    (pi.mem.memoryHeaps[h].flags & VK_MEMORY_HEAP_DEVICE_LOCAL_BIT) ? " device-local" : "");
        fprintf(f, "    compute: storage16 %s, storage8 %s, float16 %s, int8 %s, int-dot %s%s, "
                   "coopmat NV %s KHR %s NV2 %s\n",
                pi.f11.storageBuffer16BitAccess ? "yes" : "no", pi.f12.storageBuffer8BitAccess ? "yes" : "no",
                pi.f12.shaderFloat16 ? "yes" : "no", pi.f12.shaderInt8 ? "yes" : "no",
                pi.f13.shaderIntegerDotProduct ? "yes" : "no",
                pi.dotp.integerDotProduct4x8BitPackedSignedAccelerated ? " (accelerated)" : "",
                pi.has_coop_nv ? "yes" : "no", pi.has_coop_khr ? "yes" : "no", pi.has_coop2_nv ? "yes" : "no");
        char src[128];
        uint32_t sms = sm_count(&pi, src, sizeof(src));
        if (sms) fprintf(f, "    SMs/CUs: %u (%s)\n", sms, src);
        else fprintf(f, "    SMs/CUs: NA (%s)\n", src);
        for (int j = 0; j < pi.ncm; j++)
            fprintf(f, "    coopmat %s %ux%ux%u A %s B %s C %s D %s\n", pi.cm[j].khr ? "KHR" : "NV", pi.cm[j].m,
                    pi.cm[j].n, pi.cm[j].k, vkb_cm_type_name(pi.cm[j].a), vkb_cm_type_name(pi.cm[j].b),
                    vkb_cm_type_name(pi.cm[j].c), vkb_cm_type_name(pi.cm[j].d));
        if (pi.cm_other) fprintf(f, "    coopmat: %d more configurations not used (not subgroup scope, or past %d)\n",
                                 pi.cm_other, VKB_MAX_CM);
        if (pi.has_coop2_nv) cm2_list(f, inst, pds[i], &pi);
        free(pi.ext);
    }
    ret = (int)n;
done:
    free(pds);
    if (inst) vkDestroyInstance(inst, NULL);
    return ret;
}

vkb_vk *vkb_vk_open(const char *select, int validate, char *err, size_t errlen)
{
    vkb_vk *v = calloc(1, sizeof(*v));
    VkPhysicalDevice *pds = NULL;
    physinfo pi = {0};
    if (!v) {
        set_err(err, errlen, "out of memory");
        return NULL;
    }
    if (make_instance(validate, &v->inst, err, errlen) != VK_SUCCESS) goto fail;
    if (validate) {
        PFN_vkCreateDebugUtilsMessengerEXT create =
            (PFN_vkCreateDebugUtilsMessengerEXT)vkGetInstanceProcAddr(v->inst, "vkCreateDebugUtilsMessengerEXT");
        VkDebugUtilsMessengerCreateInfoEXT mi = {
            .sType = VK_STRUCTURE_TYPE_DEBUG_UTILS_MESSENGER_CREATE_INFO_EXT,
            .messageSeverity = VK_DEBUG_UTILS_MESSAGE_SEVERITY_WARNING_BIT_EXT |
                               VK_DEBUG_UTILS_MESSAGE_SEVERITY_ERROR_BIT_EXT,
            .messageType = VK_DEBUG_UTILS_MESSAGE_TYPE_GENERAL_BIT_EXT |
                           VK_DEBUG_UTILS_MESSAGE_TYPE_VALIDATION_BIT_EXT |
                           VK_DEBUG_UTILS_MESSAGE_TYPE_PERFORMANCE_BIT_EXT,
            .pfnUserCallback = on_validation, .pUserData = v};
        if (!create || create(v->inst, &mi, NULL, &v->messenger) != VK_SUCCESS) {
            set_err(err, errlen, "cannot create the validation messenger");
            goto fail;
        }
    }
    uint32_t n = 0;
    vkEnumeratePhysicalDevices(v->inst, &n, NULL);
    if (n == 0) {
        set_err(err, errlen, "%s", no_device_msg);
        goto fail;
    }
    pds = calloc(n, sizeof(*pds));
    if (!pds) goto fail;
    vkEnumeratePhysicalDevices(v->inst, &n, pds);

    int pick = -1;
    if (select && *select) {
        char *end;
        long idx = strtol(select, &end, 10);
        if (*end == 0) {
            if (idx < 0 || idx >= (long)n) {
                set_err(err, errlen, "--device %s: no such device (there are %u; see `vkbench devices`)", select, n);
                goto fail;
            }
            pick = (int)idx;
        } else {
            for (uint32_t i = 0; i < n && pick < 0; i++) {
                VkPhysicalDeviceProperties p;
                vkGetPhysicalDeviceProperties(pds[i], &p);
                if (strcasestr(p.deviceName, select)) pick = (int)i;
            }
            if (pick < 0) {
                set_err(err, errlen, "--device '%s': no device name contains it (see `vkbench devices`)", select);
                goto fail;
            }
        }
    } else {
        int best = 99;
        for (uint32_t i = 0; i < n; i++) {
            VkPhysicalDeviceProperties p;
            vkGetPhysicalDeviceProperties(pds[i], &p);
            if (p.apiVersion < VK_API_VERSION_1_3) continue;
            if (type_rank(p.deviceType) < best) best = type_rank(p.deviceType), pick = (int)i;
        }
        if (pick < 0) {
            set_err(err, errlen, "no Vulkan 1.3 device found (vkbench needs timestamps with synchronization2)");
            goto fail;
        }
    }
    v->phys = pds[pick];
    phys_query(v->inst, v->phys, &pi);
    v->props = pi.p2.properties;
    v->mem = pi.mem;
    if (v->props.apiVersion < VK_API_VERSION_1_3) {
        set_err(err, errlen, "device '%s' offers Vulkan %u.%u; vkbench needs 1.3", v->props.deviceName,
                VK_API_VERSION_MAJOR(v->props.apiVersion), VK_API_VERSION_MINOR(v->props.apiVersion));
        goto fail;
    }

    /* Queue: the first family with compute and timestamps. */
    uint32_t qn = 0;
    vkGetPhysicalDeviceQueueFamilyProperties(v->phys, &qn, NULL);
    VkQueueFamilyProperties q[16];
    if (qn > 16) qn = 16;
    vkGetPhysicalDeviceQueueFamilyProperties(v->phys, &qn, q);
    v->qfam = UINT32_MAX;
    for (uint32_t i = 0; i < qn; i++)
        if ((q[i].queueFlags & VK_QUEUE_COMPUTE_BIT) && q[i].timestampValidBits) {
            v->qfam = i;
            v->info.timestamp_bits = q[i].timestampValidBits;
            break;
        }
    if (v->qfam == UINT32_MAX) {
        set_err(err, errlen, "device '%s' has no compute queue with timestamps", v->props.deviceName);
        goto fail;
    }

    /* Enable what the kernels may use, when offered. */
    VkPhysicalDeviceFeatures2 f2 = {.sType = VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_FEATURES_2};
    VkPhysicalDeviceVulkan11Features f11 = {.sType = VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_VULKAN_1_1_FEATURES};
    VkPhysicalDeviceVulkan12Features f12 = {.sType = VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_VULKAN_1_2_FEATURES};
    VkPhysicalDeviceVulkan13Features f13 = {.sType = VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_VULKAN_1_3_FEATURES};
    VkPhysicalDeviceCooperativeMatrixFeaturesNV fcm = {
        .sType = VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_COOPERATIVE_MATRIX_FEATURES_NV};
    /* Pipeline statistics (registers, shared memory, spills: what the driver made of each shader) where offered. */
    const char *nostats = getenv("VKB_NO_PIPELINE_STATS");  /* a way around a driver that mishandles them */
    int pexec = pi.has_pexec && pi.pexf.pipelineExecutableInfo && !(nostats && *nostats && strcmp(nostats, "0"));
    VkPhysicalDevicePipelineExecutablePropertiesFeaturesKHR fpx = {
        .sType = VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_PIPELINE_EXECUTABLE_PROPERTIES_FEATURES_KHR,
        .pipelineExecutableInfo = VK_TRUE};
    /* The SM-cycle counter of the clock probe (clockcheck.h): subgroup scope is all it reads. */
    int clock = pi.has_clock && pi.clkf.shaderSubgroupClock;
    VkPhysicalDeviceShaderClockFeaturesKHR fclk = {.sType = VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_SHADER_CLOCK_FEATURES_KHR,
                                                   .shaderSubgroupClock = VK_TRUE};
    /* Workgroup-scope matrices of flexible size (kernels rewritten by spvkhr.c): both extensions and features. */
    const char *nocm2 = getenv("VKB_NO_COOPMAT2");  /* a way around a driver that mishandles them */
    int cm2 = pi.has_coop_khr && pi.has_coop2_nv && pi.cmkf.cooperativeMatrix && pi.cm2f.workgroupScope &&
              pi.cm2f.flexibleDimensions && !(nocm2 && *nocm2 && strcmp(nocm2, "0"));
    khr_cm_feats fkm = {.sType = STYPE_CM_FEATS_KHR, .cooperativeMatrix = VK_TRUE};
    nv_cm2_feats fcm2 = {.sType = STYPE_CM2_FEATS_NV, .workgroupScope = VK_TRUE, .flexibleDimensions = VK_TRUE,
                         .tensorAddressing = pi.cm2f.tensorAddressing};  /* spvkhr's tensor loads (coopmat_wgt) */
    f2.pNext = &f11;
    f11.pNext = &f12;
    f12.pNext = &f13;
    void **tail = &f13.pNext;
    if (pi.has_coop_nv) *tail = &fcm, tail = &fcm.pNext;
    if (cm2) *tail = &fkm, tail = &fkm.pNext, *tail = &fcm2, tail = &fcm2.pNext;
    if (pexec) *tail = &fpx, tail = &fpx.pNext;
    if (clock) *tail = &fclk, tail = &fclk.pNext;
    *tail = NULL;
    f2.features.shaderInt64 = pi.f2.features.shaderInt64;
    f2.features.shaderInt16 = pi.f2.features.shaderInt16;
    f2.features.shaderFloat64 = pi.f2.features.shaderFloat64;
    f11.storageBuffer16BitAccess = pi.f11.storageBuffer16BitAccess;
    f12.shaderFloat16 = pi.f12.shaderFloat16;
    f12.shaderInt8 = pi.f12.shaderInt8;
    f12.storageBuffer8BitAccess = pi.f12.storageBuffer8BitAccess;
    f12.hostQueryReset = pi.f12.hostQueryReset;
    f12.vulkanMemoryModel = pi.f12.vulkanMemoryModel;
    f12.vulkanMemoryModelDeviceScope = pi.f12.vulkanMemoryModelDeviceScope;
    f12.bufferDeviceAddress = pi.f12.bufferDeviceAddress;  /* required by Vulkan 1.3 */
    v->bda = pi.f12.bufferDeviceAddress;
    f13.synchronization2 = VK_TRUE;
    f13.shaderIntegerDotProduct = pi.f13.shaderIntegerDotProduct;
    f13.subgroupSizeControl = pi.f13.subgroupSizeControl;
    f13.computeFullSubgroups = pi.f13.computeFullSubgroups;
    f13.maintenance4 = pi.f13.maintenance4;
    fcm.cooperativeMatrix = pi.has_coop_nv ? VK_TRUE : VK_FALSE;
    if (!pi.f13.synchronization2) {
        set_err(err, errlen, "device '%s' lacks synchronization2", v->props.deviceName);
        goto fail;
    }
    const char *dexts[6];
    uint32_t ndext = 0;
    if (pi.has_coop_nv) dexts[ndext++] = "VK_NV_cooperative_matrix";
    if (cm2) dexts[ndext++] = "VK_KHR_cooperative_matrix", dexts[ndext++] = "VK_NV_cooperative_matrix2";
    if (pexec) dexts[ndext++] = VK_KHR_PIPELINE_EXECUTABLE_PROPERTIES_EXTENSION_NAME;
    if (clock) dexts[ndext++] = VK_KHR_SHADER_CLOCK_EXTENSION_NAME;
    float prio = 1.0f;
    VkDeviceQueueCreateInfo qci = {.sType = VK_STRUCTURE_TYPE_DEVICE_QUEUE_CREATE_INFO, .queueFamilyIndex = v->qfam,
                                   .queueCount = 1, .pQueuePriorities = &prio};
    VkDeviceCreateInfo dci = {.sType = VK_STRUCTURE_TYPE_DEVICE_CREATE_INFO, .pNext = &f2, .queueCreateInfoCount = 1,
                              .pQueueCreateInfos = &qci, .enabledExtensionCount = ndext,
                              .ppEnabledExtensionNames = dexts};
    VKB_CHECK(v, vkCreateDevice(v->phys, &dci, NULL, &v->dev));
    snprintf(v->stats_why, sizeof(v->stats_why), "NA: %s", pexec ? "" : !pi.has_pexec ? "the device does not offer VK_KHR_pipeline_executable_properties"
             : !pi.pexf.pipelineExecutableInfo ? "the device offers VK_KHR_pipeline_executable_properties without pipelineExecutableInfo"
             : "VKB_NO_PIPELINE_STATS is set");
    if (pexec) {
        v->exec_props = (PFN_vkGetPipelineExecutablePropertiesKHR)vkGetDeviceProcAddr(v->dev, "vkGetPipelineExecutablePropertiesKHR");
        v->exec_stats = (PFN_vkGetPipelineExecutableStatisticsKHR)vkGetDeviceProcAddr(v->dev, "vkGetPipelineExecutableStatisticsKHR");
        if (!v->exec_props || !v->exec_stats) {
            v->exec_props = NULL, v->exec_stats = NULL;
            snprintf(v->stats_why, sizeof(v->stats_why), "NA: vkGetDeviceProcAddr found no vkGetPipelineExecutable*KHR");
        }
    }
    vkGetDeviceQueue(v->dev, v->qfam, 0, &v->queue);
    VkCommandPoolCreateInfo pci = {.sType = VK_STRUCTURE_TYPE_COMMAND_POOL_CREATE_INFO,
                                   .flags = VK_COMMAND_POOL_CREATE_RESET_COMMAND_BUFFER_BIT,
                                   .queueFamilyIndex = v->qfam};
    VKB_CHECK(v, vkCreateCommandPool(v->dev, &pci, NULL, &v->pool));
    VkPipelineCacheCreateInfo pcci = {.sType = VK_STRUCTURE_TYPE_PIPELINE_CACHE_CREATE_INFO};
    VKB_CHECK(v, vkCreatePipelineCache(v->dev, &pcci, NULL, &v->pcache));
    VkCommandBufferAllocateInfo cai = {.sType = VK_STRUCTURE_TYPE_COMMAND_BUFFER_ALLOCATE_INFO,
                                       .commandPool = v->pool, .level = VK_COMMAND_BUFFER_LEVEL_PRIMARY,
                                       .commandBufferCount = 1};
    VKB_CHECK(v, vkAllocateCommandBuffers(v->dev, &cai, &v->cmd));
    VKB_CHECK(v, vkAllocateCommandBuffers(v->dev, &cai, &v->tcmd));
    VkFenceCreateInfo fci = {.sType = VK_STRUCTURE_TYPE_FENCE_CREATE_INFO};
    VKB_CHECK(v, vkCreateFence(v->dev, &fci, NULL, &v->fence));
    VkQueryPoolCreateInfo qpi = {.sType = VK_STRUCTURE_TYPE_QUERY_POOL_CREATE_INFO,
                                 .queryType = VK_QUERY_TYPE_TIMESTAMP, .queryCount = 2 * VKB_COLD_SAMPLES_MAX + 2};
    VKB_CHECK(v, vkCreateQueryPool(v->dev, &qpi, NULL, &v->qpool));

    /* Identity and capabilities. */
    vkb_devinfo *in = &v->info;
    snprintf(in->name, sizeof(in->name), "%s", v->props.deviceName);
    snprintf(in->type, sizeof(in->type), "%s", type_name(v->props.deviceType));
    snprintf(in->driver, sizeof(in->driver), "%s %s", pi.drv.driverName, pi.drv.driverInfo);
    memcpy(in->uuid_bytes, pi.id.deviceUUID, 16);
    uuid_str(pi.id.deviceUUID, in->uuid, sizeof(in->uuid));
    in->vendor = v->props.vendorID;
    in->device_id = v->props.deviceID;
    in->api = v->props.apiVersion;
    in->has_pci = pi.has_pci;
    in->pci_domain = pi.pci.pciDomain;
    in->pci_bus = pi.pci.pciBus;
    in->pci_dev = pi.pci.pciDevice;
    in->pci_func = pi.pci.pciFunction;
    in->timestamp_period_ns = (double)v->props.limits.timestampPeriod;
    in->index = (uint32_t)pick;
    in->sm_count = sm_count(&pi, in->sm_source, sizeof(in->sm_source));
    vkb_caps *c = &v->caps;
    c->is_cpu = v->props.deviceType == VK_PHYSICAL_DEVICE_TYPE_CPU;
    c->vendor = v->props.vendorID;
    c->f16 = pi.f12.shaderFloat16;
    c->storage16 = pi.f11.storageBuffer16BitAccess;
    c->int8 = pi.f12.shaderInt8;
    c->storage8 = pi.f12.storageBuffer8BitAccess;
    c->int_dot = pi.f13.shaderIntegerDotProduct;
    c->int_dot_accel = pi.dotp.integerDotProduct4x8BitPackedSignedAccelerated;
    c->coopmat_nv = pi.has_coop_nv;
    c->coopmat_khr = pi.has_coop_khr;
    c->coopmat_wg = cm2;
    c->coopmat_wg_max = cm2 ? pi.cm2p.workgroupScopeMaxWorkgroupSize : 0;
    c->coopmat_wg_smem = cm2 ? pi.cm2p.workgroupScopeReservedSharedMemory : 0;
    c->coopmat_tensor = cm2 && pi.cm2f.tensorAddressing;
    c->nflex = cm2 ? cm2_flex(v->inst, v->phys, c->flex, (int)(sizeof(c->flex) / sizeof(c->flex[0]))) : 0;
    c->shader_clock = clock;
    c->ieee16 = pi.fc.shaderSignedZeroInfNanPreserveFloat16;
    c->ieee32 = pi.fc.shaderSignedZeroInfNanPreserveFloat32;
    c->subgroup = pi.sub.subgroupSize;
    c->max_wg_count_x = v->props.limits.maxComputeWorkGroupCount[0];
    c->max_wg_size = v->props.limits.maxComputeWorkGroupInvocations;
    c->max_shared = v->props.limits.maxComputeSharedMemorySize;
    c->sm_count = in->sm_count;
    c->max_range = v->props.limits.maxStorageBufferRange;
    c->device_mem = largest_heap(&v->mem, 1);
    c->max_alloc = c->device_mem;
    c->ncm = pi.ncm;
    memcpy(c->cm, pi.cm, sizeof(c->cm));

    /* Cold-mode flush buffer: several times any last-level cache we expect (GPU L2 <= 128 MiB). */
    v->flush_size = c->is_cpu ? (64u << 20) : (512u << 20);
    const char *cf = getenv("VKB_COLD_FLUSH");
    v->flush_write = cf && !strcmp(cf, "write");
    const char *cc = getenv("VKB_COLD_CODE"), *cs = getenv("VKB_COLD_SAMPLES");
    v->code_cold = cc && !strcmp(cc, "cold");
    if (cc && strcmp(cc, "cold") && strcmp(cc, "warm")) {
        set_err(err, errlen, "VKB_COLD_CODE='%s': expected cold or warm", cc);
        goto fail;
    }
    if (cs) {
        char *end;
        long ns = strtol(cs, &end, 10);
        if (end == cs || *end || ns < 1 || ns > VKB_COLD_SAMPLES_MAX) {
            set_err(err, errlen, "VKB_COLD_SAMPLES='%s': expected 1..%d cold samples a submission", cs, VKB_COLD_SAMPLES_MAX);
            goto fail;
        }
        v->cold_samples = (int)ns;
    }
    /* SPIR-V lives next to the binary: <dir of vkbench>/spv. */
    char exe[400];
    ssize_t len = readlink("/proc/self/exe", exe, sizeof(exe) - 1);
    if (len > 0) {
        exe[len] = 0;
        char *slash = strrchr(exe, '/');
        if (slash) *slash = 0;
        snprintf(v->spv_dir, sizeof(v->spv_dir), "%s/spv", exe);
    } else {
        snprintf(v->spv_dir, sizeof(v->spv_dir), "build/spv");
    }
    free(pi.ext);
    free(pds);
    return v;
error:
    snprintf(err, errlen, "%s", vk_err);
fail:
    free(pi.ext);
    free(pds);
    vkb_vk_close(v);
    return NULL;
}

void vkb_vk_close(vkb_vk *v)
{
    if (!v) return;
    if (v->dev) {
        vkDeviceWaitIdle(v->dev);
        if (v->flush) vkDestroyBuffer(v->dev, v->flush, NULL);
        if (v->flush_mem) vkFreeMemory(v->dev, v->flush_mem, NULL);
        if (v->flush_pipe) vkDestroyPipeline(v->dev, v->flush_pipe, NULL);
        if (v->flush_pool) vkDestroyDescriptorPool(v->dev, v->flush_pool, NULL);
        if (v->flush_layout) vkDestroyPipelineLayout(v->dev, v->flush_layout, NULL);
        if (v->flush_dsl) vkDestroyDescriptorSetLayout(v->dev, v->flush_dsl, NULL);
        if (v->flush_out) vkDestroyBuffer(v->dev, v->flush_out, NULL);
        if (v->flush_out_mem) vkFreeMemory(v->dev, v->flush_out_mem, NULL);
        if (v->qpool) vkDestroyQueryPool(v->dev, v->qpool, NULL);
        if (v->pqpool) vkDestroyQueryPool(v->dev, v->pqpool, NULL);
        if (v->pcache) vkDestroyPipelineCache(v->dev, v->pcache, NULL);
        if (v->fence) vkDestroyFence(v->dev, v->fence, NULL);
        if (v->pool) vkDestroyCommandPool(v->dev, v->pool, NULL);
        vkDestroyDevice(v->dev, NULL);
    }
    if (v->messenger) {
        PFN_vkDestroyDebugUtilsMessengerEXT destroy =
            (PFN_vkDestroyDebugUtilsMessengerEXT)vkGetInstanceProcAddr(v->inst, "vkDestroyDebugUtilsMessengerEXT");
        if (destroy) destroy(v->inst, v->messenger, NULL);
    }
    if (v->inst) vkDestroyInstance(v->inst, NULL);
    free(v->t_disp);
    free(v);
}

const char *vkb_vk_error(const vkb_vk *v)
{
    (void)v;
    return vk_err;
}
const vkb_devinfo *vkb_vk_info(const vkb_vk *v) { return &v->info; }
void vkb_vk_caps(const vkb_vk *v, vkb_caps *caps) { *caps = v->caps; }
uint64_t vkb_vk_validation_messages(const vkb_vk *v) { return v->validation_msgs; }
void vkb_vk_set_spv_dir(vkb_vk *v, const char *dir) { snprintf(v->spv_dir, sizeof(v->spv_dir), "%s", dir); }

int vkb_vk_add_override(vkb_vk *v, const char *spec)
{
    const char *eq = strchr(spec, '=');
    if (!eq || eq == spec || !eq[1] || v->noverride >= MAX_OVERRIDES || (size_t)(eq - spec) >= 48) {
        set_err(vk_err, sizeof(vk_err), "--shader '%s': expected SHADER=OTHER_SHADER", spec);
        return -1;
    }
    snprintf(v->override_from[v->noverride], 48, "%.*s", (int)(eq - spec), spec);
    snprintf(v->override_to[v->noverride], 48, "%s", eq + 1);
    v->override_used[v->noverride++] = 0;
    return 0;
}

const char *vkb_vk_unused_override(const vkb_vk *v)
{
    for (int i = 0; i < v->noverride; i++)
        if (!v->override_used[i]) return v->override_from[i];
    return NULL;
}

static int find_memtype(const vkb_vk *v, uint32_t bits, VkMemoryPropertyFlags want)
{
    for (uint32_t i = 0; i < v->mem.memoryTypeCount; i++)
        if ((bits & (1u << i)) && (v->mem.memoryTypes[i].propertyFlags & want) == want) return (int)i;
    return -1;
}

/* A buffer with its own memory. host: host-visible (staging) else device-local. */
static int make_buffer(vkb_vk *v, VkDeviceSize size, int host, VkBuffer *buf, VkDeviceMemory *mem, void **map)
{
    VkBufferCreateInfo bi = {.sType = VK_STRUCTURE_TYPE_BUFFER_CREATE_INFO, .size = size,
                             .usage = host ? VK_BUFFER_USAGE_TRANSFER_SRC_BIT | VK_BUFFER_USAGE_TRANSFER_DST_BIT
                                           : VK_BUFFER_USAGE_STORAGE_BUFFER_BIT | VK_BUFFER_USAGE_TRANSFER_SRC_BIT |
                                                 VK_BUFFER_USAGE_TRANSFER_DST_BIT |
                                                 (v->bda ? VK_BUFFER_USAGE_SHADER_DEVICE_ADDRESS_BIT : 0),
                             .sharingMode = VK_SHARING_MODE_EXCLUSIVE};
    VKB_CHECK(v, vkCreateBuffer(v->dev, &bi, NULL, buf));
    VkMemoryRequirements req;
    vkGetBufferMemoryRequirements(v->dev, *buf, &req);
    VkMemoryPropertyFlags want = host ? VK_MEMORY_PROPERTY_HOST_VISIBLE_BIT | VK_MEMORY_PROPERTY_HOST_COHERENT_BIT
                                      : VK_MEMORY_PROPERTY_DEVICE_LOCAL_BIT;
    int t = -1;
    if (host) t = find_memtype(v, req.memoryTypeBits, want | VK_MEMORY_PROPERTY_HOST_CACHED_BIT);
    if (t < 0) t = find_memtype(v, req.memoryTypeBits, want);
    if (t < 0) {
        set_err(vk_err, sizeof(vk_err), "no %s memory type for a %.0f-byte buffer", host ? "host-visible" : "device-local",
                (double)size);
        goto error;
    }
    VkMemoryAllocateFlagsInfo af = {.sType = VK_STRUCTURE_TYPE_MEMORY_ALLOCATE_FLAGS_INFO,
                                    .flags = VK_MEMORY_ALLOCATE_DEVICE_ADDRESS_BIT};
    VkMemoryAllocateInfo ai = {.sType = VK_STRUCTURE_TYPE_MEMORY_ALLOCATE_INFO, .pNext = !host && v->bda ? &af : NULL,
                               .allocationSize = req.size, .memoryTypeIndex = (uint32_t)t};
    VKB_CHECK(v, vkAllocateMemory(v->dev, &ai, NULL, mem));
    VKB_CHECK(v, vkBindBufferMemory(v->dev, *buf, *mem, 0));
    if (host) VKB_CHECK(v, vkMapMemory(v->dev, *mem, 0, VK_WHOLE_SIZE, 0, map));
    return 0;
error:
    return -1;
}

/* The module for shader (after --shader overrides, marked used when mark); errors into err. */
static int load_module(vkb_vk *v, const char *shader, int mark, VkShaderModule *mod, char *err, size_t errlen)
{
    const char *name = shader;
    for (int i = 0; i < v->noverride; i++)
        if (strcmp(v->override_from[i], shader) == 0) {
            name = v->override_to[i];
            if (mark) v->override_used[i] = 1;
        }
    char path[700];
    snprintf(path, sizeof(path), "%s/%s.spv", v->spv_dir, name);
    FILE *f = fopen(path, "rb");
    uint32_t *code = NULL;
    long len = 0;
    size_t nl = strlen(name);
    if (!f && nl > 4 && !strcmp(name + nl - 4, "_bda")) {  /* bind=bda on a kernel without a twin (kernels/bda.glsl) */
        set_err(err, errlen, "bind=bda: %.*s has no by-address twin (kernels/%.*s.comp is not marked '// twin: bda', so no %s)",
                (int)(nl - 4), name, (int)(nl - 4), name, path);
        return -1;
    }
    if (!f) {
        set_err(err, errlen, "missing SPIR-V %s: %s (run `make`)", path, strerror(errno));
        return -1;
    }
    if (fseek(f, 0, SEEK_END) == 0) len = ftell(f);
    rewind(f);
    if (len <= 20 || len % 4) {
        set_err(err, errlen, "SPIR-V %s: bad size %ld", path, len);
        goto error;
    }
    code = malloc((size_t)len);
    if (!code || fread(code, 1, (size_t)len, f) != (size_t)len || code[0] != 0x07230203u) {
        set_err(err, errlen, "SPIR-V %s: unreadable or not SPIR-V", path);
        goto error;
    }
    /* Workgroup-scope matrices are written as NV types (glslang 12) and become KHR ones here (spvkhr.h). */
    uint32_t *khr = NULL;
    size_t nkhr = 0;
    char why[200];
    int rw = vkb_spv_khr(code, (size_t)len / 4, &khr, &nkhr, why, sizeof(why));
    if (rw < 0) {
        set_err(err, errlen, "SPIR-V %s: %s", path, why);
        goto error;
    }
    if (rw > 0) free(code), code = khr, len = (long)(nkhr * 4);
    VkShaderModuleCreateInfo ci = {.sType = VK_STRUCTURE_TYPE_SHADER_MODULE_CREATE_INFO, .codeSize = (size_t)len,
                                   .pCode = code};
    VkResult rc = vkCreateShaderModule(v->dev, &ci, NULL, mod);
    if (rc != VK_SUCCESS) {
        set_err(err, errlen, "vkCreateShaderModule(%s): %s", path, vk_result_name(rc));
        goto error;
    }
    free(code);
    fclose(f);
    return 0;
error:
    free(code);
    fclose(f);
    return -1;
}

static VkDeviceSize round_up(VkDeviceSize x, VkDeviceSize a) { return (x + a - 1) / a * a; }

/* The payload's address in a case buffer (after its front guard), or 0 without bufferDeviceAddress. */
static VkDeviceAddress payload_addr(const vkb_vk *v, VkBuffer b)
{
    if (!v->bda) return 0;
    VkBufferDeviceAddressInfo ai = {.sType = VK_STRUCTURE_TYPE_BUFFER_DEVICE_ADDRESS_INFO, .buffer = b};
    return vkGetBufferDeviceAddress(v->dev, &ai) + VKB_GUARD_BYTES;
}

static void pipe_stats(vkb_gpu *g, int p);

/* The layout of every case's pipelines: nbuf storage buffers at bindings 0.., one push-constant range. */
static VkResult make_layout(vkb_vk *v, int nbuf, VkDescriptorSetLayout *dsl, VkPipelineLayout *layout)
{
    VkDescriptorSetLayoutBinding bind[VKB_MAX_BUFS];
    for (int i = 0; i < nbuf; i++)
        bind[i] = (VkDescriptorSetLayoutBinding){.binding = (uint32_t)i,
                                                 .descriptorType = VK_DESCRIPTOR_TYPE_STORAGE_BUFFER,
                                                 .descriptorCount = 1, .stageFlags = VK_SHADER_STAGE_COMPUTE_BIT};
    VkDescriptorSetLayoutCreateInfo dli = {.sType = VK_STRUCTURE_TYPE_DESCRIPTOR_SET_LAYOUT_CREATE_INFO,
                                           .bindingCount = (uint32_t)nbuf, .pBindings = bind};
    VkResult rc = vkCreateDescriptorSetLayout(v->dev, &dli, NULL, dsl);
    if (rc != VK_SUCCESS) return rc;
    VkPushConstantRange pr = {.stageFlags = VK_SHADER_STAGE_COMPUTE_BIT, .offset = 0, .size = sizeof(vkb_push)};
    VkPipelineLayoutCreateInfo pli = {.sType = VK_STRUCTURE_TYPE_PIPELINE_LAYOUT_CREATE_INFO, .setLayoutCount = 1,
                                      .pSetLayouts = dsl, .pushConstantRangeCount = 1, .pPushConstantRanges = &pr};
    return vkCreatePipelineLayout(v->dev, &pli, NULL, layout);
}

/* The compute pipeline of pp (its shader and spec constants) on layout, through the run's pipeline cache; gate sets
 * VKB_GATE_SPEC (kernels/abi.h): 1 compiles the gate self-test's knob in, 0 (every timed pipeline but a slowed one's)
 * compiles it out. An id the module does not declare is ignored (Vulkan spec, VkSpecializationMapEntry). */
static int make_pipe(vkb_vk *v, const vkb_pipe *pp, int mark, uint32_t gate, VkPipelineLayout layout, VkPipeline *out,
                     char *err, size_t errlen)
{
    VkShaderModule mod = VK_NULL_HANDLE;
    if (load_module(v, pp->shader, mark, &mod, err, errlen)) return -1;
    VkSpecializationMapEntry me[VKB_MAX_SPEC + 1];
    uint32_t data[VKB_MAX_SPEC + 1];
    for (int s = 0; s < pp->nspec; s++) {
        me[s] = (VkSpecializationMapEntry){.constantID = (uint32_t)s, .offset = (uint32_t)(4 * s), .size = 4};
        data[s] = pp->spec[s];
    }
    me[pp->nspec] = (VkSpecializationMapEntry){.constantID = VKB_GATE_SPEC, .offset = (uint32_t)(4 * pp->nspec), .size = 4};
    data[pp->nspec] = gate;
    VkSpecializationInfo si = {.mapEntryCount = (uint32_t)pp->nspec + 1, .pMapEntries = me,
                               .dataSize = (size_t)(4 * (pp->nspec + 1)), .pData = data};
    VkComputePipelineCreateInfo ci = {
        .sType = VK_STRUCTURE_TYPE_COMPUTE_PIPELINE_CREATE_INFO, .layout = layout,
        .flags = v->exec_stats ? VK_PIPELINE_CREATE_CAPTURE_STATISTICS_BIT_KHR : 0,
        .stage = {.sType = VK_STRUCTURE_TYPE_PIPELINE_SHADER_STAGE_CREATE_INFO, .stage = VK_SHADER_STAGE_COMPUTE_BIT,
                  .module = mod, .pName = "main", .pSpecializationInfo = &si}};
    VkResult rc = vkCreateComputePipelines(v->dev, v->pcache, 1, &ci, NULL, out);
    vkDestroyShaderModule(v->dev, mod, NULL);
    if (rc != VK_SUCCESS) set_err(err, errlen, "vkCreateComputePipelines(%s): %s (%d)", pp->shader, vk_result_name(rc), (int)rc);
    return rc == VK_SUCCESS ? 0 : -1;
}

int vkb_vk_precompile(vkb_vk *v, const vkb_pipe *p, int nbuf)
{
    VkDescriptorSetLayout dsl = VK_NULL_HANDLE;
    VkPipelineLayout layout = VK_NULL_HANDLE;
    VkPipeline pipe = VK_NULL_HANDLE;
    char err[300];
    int rc = make_layout(v, nbuf, &dsl, &layout) == VK_SUCCESS ? make_pipe(v, p, 0, 0, layout, &pipe, err, sizeof(err)) : -1;
    if (pipe) vkDestroyPipeline(v->dev, pipe, NULL);
    if (layout) vkDestroyPipelineLayout(v->dev, layout, NULL);
    if (dsl) vkDestroyDescriptorSetLayout(v->dev, dsl, NULL);
    return rc;
}

/* Ids for the recorded timed submission's key: workers prepare cases concurrently, and a freed vkb_gpu's
 * address can come back for the next one. */
static uint64_t new_gpu_id(void)
{
    static atomic_uint_fast64_t serial;
    return (uint64_t)atomic_fetch_add(&serial, 1) + 1;
}

vkb_gpu *vkb_gpu_prepare(vkb_vk *v, vkb_case *c)
{
    vkb_gpu *g = calloc(1, sizeof(*g));
    if (!g) {
        set_err(vk_err, sizeof(vk_err), "out of memory");
        return NULL;
    }
    g->v = v;
    g->c = c;
    g->id = new_gpu_id();
    for (int i = 0; i < c->nbuf; i++) {
        gbuf *b = &g->b[i];
        b->payload = round_up((VkDeviceSize)(c->buf[i].count * vkb_dtype_size(c->buf[i].type)), 16);
        if (b->payload == 0) b->payload = 16;
        b->total = VKB_GUARD_BYTES + b->payload + VKB_GUARD_BYTES;
        if (make_buffer(v, b->total, 0, &b->buf, &b->mem, NULL)) goto error;
        b->addr = payload_addr(v, b->buf);
        if (make_buffer(v, b->total, 1, &b->stage, &b->stage_mem, (void **)&b->map)) goto error;
    }
    VKB_CHECK(v, make_layout(v, c->nbuf, &g->dsl, &g->layout));
    if (c->nbuf) {
        VkDescriptorPoolSize ps = {.type = VK_DESCRIPTOR_TYPE_STORAGE_BUFFER, .descriptorCount = (uint32_t)c->nbuf};
        VkDescriptorPoolCreateInfo dpi = {.sType = VK_STRUCTURE_TYPE_DESCRIPTOR_POOL_CREATE_INFO, .maxSets = 1,
                                          .poolSizeCount = 1, .pPoolSizes = &ps};
        VKB_CHECK(v, vkCreateDescriptorPool(v->dev, &dpi, NULL, &g->dpool));
        VkDescriptorSetAllocateInfo dai = {.sType = VK_STRUCTURE_TYPE_DESCRIPTOR_SET_ALLOCATE_INFO,
                                           .descriptorPool = g->dpool, .descriptorSetCount = 1, .pSetLayouts = &g->dsl};
        VKB_CHECK(v, vkAllocateDescriptorSets(v->dev, &dai, &g->set));
        VkDescriptorBufferInfo dbi[VKB_MAX_BUFS];
        VkWriteDescriptorSet w[VKB_MAX_BUFS];
        for (int i = 0; i < c->nbuf; i++) {
            /* The shader sees only the payload: the guards on both sides catch out-of-bounds writes. */
            /* The shader's range starts after the front guard and runs into the rear guard, so a write
             * past the end lands in memory we check even on implementations that bound-check accesses
             * against the range (lavapipe does). */
            dbi[i] = (VkDescriptorBufferInfo){.buffer = g->b[i].buf, .offset = VKB_GUARD_BYTES,
                                              .range = g->b[i].payload + VKB_GUARD_BYTES};
            w[i] = (VkWriteDescriptorSet){.sType = VK_STRUCTURE_TYPE_WRITE_DESCRIPTOR_SET, .dstSet = g->set,
                                          .dstBinding = (uint32_t)i, .descriptorCount = 1,
                                          .descriptorType = VK_DESCRIPTOR_TYPE_STORAGE_BUFFER, .pBufferInfo = &dbi[i]};
        }
        vkUpdateDescriptorSets(v->dev, (uint32_t)c->nbuf, w, 0, NULL);
    }
    for (int p = 0; p < c->npipe; p++) {
        if (make_pipe(v, &c->pipe[p], 1, 0, g->layout, &g->pipe[p], vk_err, sizeof(vk_err))) goto error;
        pipe_stats(g, p);
    }
    if (!v->exec_stats) snprintf(g->stats, sizeof(g->stats), "%s", v->stats_why);
    else if (!g->stats[0]) snprintf(g->stats, sizeof(g->stats), "NA: the driver returned no statistics");
    return g;
error:
    vkb_gpu_release(g);
    return NULL;
}

/* Appends "SHADER: Name=value, ..." of pipeline p's executables to g->stats ("; " between pipelines), the
 * driver's own statistics (NVIDIA: registers, shared memory, ...; lavapipe: its LLVM code size): what the
 * driver made of the shader, for reading occupancy beside the timing. Spaces in names become '_'. */
static void pipe_stats(vkb_gpu *g, int p)
{
    vkb_vk *v = g->v;
    if (!v->exec_stats) return;
    VkPipelineInfoKHR pinf = {.sType = VK_STRUCTURE_TYPE_PIPELINE_INFO_KHR, .pipeline = g->pipe[p]};
    uint32_t ne = 0;
    if (v->exec_props(v->dev, &pinf, &ne, NULL) != VK_SUCCESS || ne == 0) return;
    size_t len = strlen(g->stats);
    for (uint32_t e = 0; e < ne && e < 4; e++) {
        VkPipelineExecutableInfoKHR xi = {.sType = VK_STRUCTURE_TYPE_PIPELINE_EXECUTABLE_INFO_KHR,
                                          .pipeline = g->pipe[p], .executableIndex = e};
        VkPipelineExecutableStatisticKHR st[24];
        uint32_t ns = 24;
        for (uint32_t i = 0; i < ns; i++) st[i] = (VkPipelineExecutableStatisticKHR){.sType = VK_STRUCTURE_TYPE_PIPELINE_EXECUTABLE_STATISTIC_KHR};
        VkResult rc = v->exec_stats(v->dev, &xi, &ns, st);
        if (rc != VK_SUCCESS && rc != VK_INCOMPLETE) continue;
        len += (size_t)snprintf(g->stats + len, len < sizeof(g->stats) ? sizeof(g->stats) - len : 0, "%s%s:",
                                len ? "; " : "", g->c->pipe[p].shader);
        for (uint32_t i = 0; i < ns && len < sizeof(g->stats); i++) {
            char name[64];
            snprintf(name, sizeof(name), "%s", st[i].name);
            for (char *q = name; *q; q++)
                if (*q == ' ' || *q == ',' || *q == ';' || *q == '=') *q = '_';
            char val[32];
            switch (st[i].format) {
            case VK_PIPELINE_EXECUTABLE_STATISTIC_FORMAT_BOOL32_KHR: snprintf(val, sizeof(val), "%s", st[i].value.b32 ? "true" : "false"); break;
            case VK_PIPELINE_EXECUTABLE_STATISTIC_FORMAT_INT64_KHR: snprintf(val, sizeof(val), "%lld", (long long)st[i].value.i64); break;
            case VK_PIPELINE_EXECUTABLE_STATISTIC_FORMAT_UINT64_KHR: snprintf(val, sizeof(val), "%llu", (unsigned long long)st[i].value.u64); break;
            default: snprintf(val, sizeof(val), "%.6g", st[i].value.f64); break;
            }
            len += (size_t)snprintf(g->stats + len, len < sizeof(g->stats) ? sizeof(g->stats) - len : 0, "%s%s=%s",
                                    i ? ", " : " ", name, val);
        }
    }
}

const char *vkb_gpu_stats(const vkb_gpu *g) { return g->stats; }

int vkb_gpu_gate(vkb_gpu *g)
{
    for (int p = 0; p < g->c->npipe; p++)
        if (!g->gate[p] && make_pipe(g->v, &g->c->pipe[p], 1, 1, g->layout, &g->gate[p], vk_err, sizeof(vk_err))) return -1;
    return 0;
}

void vkb_gpu_release(vkb_gpu *g)
{
    if (!g) return;
    /* No wait for the device: every submission has completed when submit_cmd returns, error or not. A
     * vkDeviceWaitIdle here ran on a worker when its prepare failed, beside the main thread's vkQueueSubmit,
     * and the queue must not be used from two threads at once. */
    VkDevice d = g->v->dev;
    for (int p = 0; p < VKB_MAX_PIPES; p++) {
        if (g->pipe[p]) vkDestroyPipeline(d, g->pipe[p], NULL);
        if (g->gate[p]) vkDestroyPipeline(d, g->gate[p], NULL);
    }
    if (g->dpool) vkDestroyDescriptorPool(d, g->dpool, NULL);
    if (g->rpool) vkDestroyDescriptorPool(d, g->rpool, NULL);
    for (size_t k = 0; g->copy && k < (size_t)(g->ncopies - 1) * VKB_MAX_BUFS; k++) {
        if (g->copy[k]) vkDestroyBuffer(d, g->copy[k], NULL);
        if (g->copy_mem[k]) vkFreeMemory(d, g->copy_mem[k], NULL);
    }
    free(g->copy);
    free(g->copy_mem);
    free(g->copy_addr);
    free(g->rset);
    if (g->layout) vkDestroyPipelineLayout(d, g->layout, NULL);
    if (g->dsl) vkDestroyDescriptorSetLayout(d, g->dsl, NULL);
    for (int i = 0; i < VKB_MAX_BUFS; i++) {
        gbuf *b = &g->b[i];
        if (b->buf) vkDestroyBuffer(d, b->buf, NULL);
        if (b->mem) vkFreeMemory(d, b->mem, NULL);
        if (b->stage) vkDestroyBuffer(d, b->stage, NULL);
        if (b->stage_mem) vkFreeMemory(d, b->stage_mem, NULL);
    }
    free(g);
}

/* Resets cmd and begins recording with flags. */
static int begin_cmd(vkb_vk *v, VkCommandBuffer cmd, VkCommandBufferUsageFlags flags)
{
    VKB_CHECK(v, vkResetCommandBuffer(cmd, 0));
    VkCommandBufferBeginInfo bi = {.sType = VK_STRUCTURE_TYPE_COMMAND_BUFFER_BEGIN_INFO, .flags = flags};
    VKB_CHECK(v, vkBeginCommandBuffer(cmd, &bi));
    return 0;
error:
    return -1;
}

static int begin(vkb_vk *v) { return begin_cmd(v, v->cmd, VK_COMMAND_BUFFER_USAGE_ONE_TIME_SUBMIT_BIT); }

/* Submits cmd (ended) and waits for it. */
static int submit_cmd(vkb_vk *v, VkCommandBuffer cmd)
{
    VkSubmitInfo si = {.sType = VK_STRUCTURE_TYPE_SUBMIT_INFO, .commandBufferCount = 1, .pCommandBuffers = &cmd};
    VKB_CHECK(v, vkResetFences(v->dev, 1, &v->fence));
    VKB_CHECK(v, vkQueueSubmit(v->queue, 1, &si, v->fence));
    VKB_CHECK(v, vkWaitForFences(v->dev, 1, &v->fence, VK_TRUE, UINT64_MAX));
    return 0;
error:
    vkQueueWaitIdle(v->queue);  /* nothing stays pending, so vkb_gpu_release need not wait (see there) */
    return -1;
}

static int submit_wait(vkb_vk *v)
{
    VKB_CHECK(v, vkEndCommandBuffer(v->cmd));
    return submit_cmd(v, v->cmd);
error:
    return -1;
}

static void barrier(VkCommandBuffer cmd, VkPipelineStageFlags2 src, VkAccessFlags2 sa, VkPipelineStageFlags2 dst,
                    VkAccessFlags2 da)
{
    VkMemoryBarrier2 mb = {.sType = VK_STRUCTURE_TYPE_MEMORY_BARRIER_2, .srcStageMask = src, .srcAccessMask = sa,
                           .dstStageMask = dst, .dstAccessMask = da};
    VkDependencyInfo di = {.sType = VK_STRUCTURE_TYPE_DEPENDENCY_INFO, .memoryBarrierCount = 1,
                           .pMemoryBarriers = &mb};
    vkCmdPipelineBarrier2(cmd, &di);
}

#define ST_COMPUTE VK_PIPELINE_STAGE_2_COMPUTE_SHADER_BIT
#define ST_COPY VK_PIPELINE_STAGE_2_ALL_TRANSFER_BIT
#define AC_RW (VK_ACCESS_2_MEMORY_READ_BIT | VK_ACCESS_2_MEMORY_WRITE_BIT)

/* prof (vkb_gpu_profile; batch 1): after each dispatch's barrier, timestamp i + 1 into prof_pool. */
static void record_dispatches(vkb_gpu *g, VkCommandBuffer cmd, uint32_t batch, VkQueryPool prof_pool)
{
    const vkb_case *c = g->c;
    VkPipeline bound = VK_NULL_HANDLE;
    /* Every dispatch gets both ways to its buffers: the descriptor set, and the payloads' addresses in its push constants
     * (kernels/abi.h addr[]; a twin built with VKB_BDA reads them, kernels/bda.glsl): the same copies either way. */
    VkDeviceAddress addr[VKB_MAX_BUFS];
    for (int j = 0; j < c->nbuf; j++) addr[j] = g->b[j].addr;
    if (c->nbuf)
        vkCmdBindDescriptorSets(cmd, VK_PIPELINE_BIND_POINT_COMPUTE, g->layout, 0, 1, &g->set, 0, NULL);
    for (uint32_t r = 0; r < batch; r++)
        for (int i = 0; i < c->ndisp; i++) {
            if (i == 0 && g->ncopies > 1) {  /* each repetition reads the next copy of the inputs */
                uint32_t k = r % g->ncopies;
                vkCmdBindDescriptorSets(cmd, VK_PIPELINE_BIND_POINT_COMPUTE, g->layout, 0, 1, &g->rset[k], 0, NULL);
                for (int j = 0; j < c->nbuf; j++)
                    addr[j] = k && c->buf[j].role == VKB_IN ? g->copy_addr[(k - 1) * VKB_MAX_BUFS + (uint32_t)j] : g->b[j].addr;
            }
            const vkb_dispatch *d = &c->disp[i];
            /* an injected slowdown runs the pipeline with the knob compiled in, the plain batches the timed one */
            VkPipeline pl = d->push.slow && g->gate[d->pipe] ? g->gate[d->pipe] : g->pipe[d->pipe];
            if (pl != bound) {
                vkCmdBindPipeline(cmd, VK_PIPELINE_BIND_POINT_COMPUTE, pl);
                bound = pl;
            }
            vkb_push p = d->push;
            for (int j = 0; j < c->nbuf; j++)
                p.addr[2 * j] = (uint32_t)addr[j], p.addr[2 * j + 1] = (uint32_t)(addr[j] >> 32);
            vkCmdPushConstants(cmd, g->layout, VK_SHADER_STAGE_COMPUTE_BIT, 0, sizeof(p), &p);
            vkCmdDispatch(cmd, d->groups[0], d->groups[1], d->groups[2]);
            /* Serialise like a CUDA stream: each dispatch sees the previous one's writes. */
            barrier(cmd, ST_COMPUTE, VK_ACCESS_2_SHADER_WRITE_BIT | VK_ACCESS_2_SHADER_READ_BIT, ST_COMPUTE,
                    VK_ACCESS_2_SHADER_READ_BIT | VK_ACCESS_2_SHADER_WRITE_BIT);
            if (prof_pool) vkCmdWriteTimestamp2(cmd, VK_PIPELINE_STAGE_2_ALL_COMMANDS_BIT, prof_pool, (uint32_t)i + 1);
        }
}

static void copy_all(vkb_gpu *g, int to_device, int outputs_only)
{
    for (int i = 0; i < g->c->nbuf; i++) {
        vkb_role role = g->c->buf[i].role;
        if (outputs_only && (to_device ? role == VKB_OUT : role == VKB_IN)) continue;
        VkBufferCopy bc = {.size = g->b[i].total};
        if (to_device) vkCmdCopyBuffer(g->v->cmd, g->b[i].stage, g->b[i].buf, 1, &bc);
        else vkCmdCopyBuffer(g->v->cmd, g->b[i].buf, g->b[i].stage, 1, &bc);
    }
}

/* An output's or a scratch buffer's payload before a validated run: a value no kernel computes. */
static void poison(const vkb_buf *cb, uint8_t *p)
{
    vkb_poison_fill(cb->type, p, cb->count);
}

static void stage_in(vkb_gpu *g)
{
    for (int i = 0; i < g->c->nbuf; i++) {
        const vkb_buf *cb = &g->c->buf[i];
        gbuf *b = &g->b[i];
        size_t bytes = cb->count * vkb_dtype_size(cb->type);
        memset(b->map, GUARD_PATTERN, VKB_GUARD_BYTES);
        memset(b->map + VKB_GUARD_BYTES + bytes, GUARD_PATTERN, b->total - VKB_GUARD_BYTES - bytes);
        uint8_t *p = b->map + VKB_GUARD_BYTES;
        if (cb->role == VKB_IN || cb->role == VKB_INOUT) memcpy(p, cb->host, bytes);
        else poison(cb, p);
    }
}

void vkb_gpu_stage(vkb_gpu *g)
{
    stage_in(g);
    g->staged = 1;
}

int vkb_gpu_upload(vkb_gpu *g)
{
    vkb_vk *v = g->v;
    if (!g->staged) stage_in(g);
    g->staged = 0;
    if (begin(v)) return -1;
    copy_all(g, 1, 0);
    barrier(v->cmd, ST_COPY, VK_ACCESS_2_TRANSFER_WRITE_BIT, ST_COMPUTE | ST_COPY, AC_RW);
    return submit_wait(v);
}

/* Cold mode's flush between samples. By default a read of the 512 MiB flush buffer (kernels/readbw.comp, its
 * per-workgroup sums into flush_out): the caches end up holding clean lines of an unrelated buffer, and the
 * TLB its pages. The former flush, a fill of that buffer (VKB_COLD_FLUSH=write), left the L2 full of DIRTY
 * lines, so the timed kernel's first reads paid for writing them back: on an H200 cold mode added ~4.5 us to
 * every small GEMV and ~9 us to a 235 MB one over rotate mode, the size of an L2's worth of write-backs (session
 * 5's bitnet15 table), a cost of the harness, not of the kernel. The row's note says which flush ran. */
static int make_flush(vkb_vk *v);
static int ensure_flush(vkb_vk *v)
{
    if (!v->flush_state) v->flush_state = make_flush(v) ? -1 : 1;
    return v->flush_state < 0 ? -1 : 0;
}

static int make_flush(vkb_vk *v)
{
    VkShaderModule mod = VK_NULL_HANDLE;
    if (make_buffer(v, v->flush_size, 0, &v->flush, &v->flush_mem, NULL)) return -1;
    if (begin(v)) return -1;
    vkCmdFillBuffer(v->cmd, v->flush, 0, VK_WHOLE_SIZE, 0x5a5a5a5au);  /* defined contents to read */
    if (submit_wait(v)) return -1;
    if (v->flush_write) return 0;
    const uint32_t wg = 256, items = 8;  /* readbw's workgroup size (its spec 0) and uvec4 per invocation */
    uint64_t threads = (v->flush_size / 16 + items - 1) / items;
    v->flush_groups = (uint32_t)((threads + wg - 1) / wg);
    if (v->flush_groups > v->props.limits.maxComputeWorkGroupCount[0]) v->flush_groups = v->props.limits.maxComputeWorkGroupCount[0];
    if (make_buffer(v, 4ull * v->flush_groups, 0, &v->flush_out, &v->flush_out_mem, NULL)) return -1;
    VkDescriptorSetLayoutBinding bind[2];
    for (uint32_t i = 0; i < 2; i++)
        bind[i] = (VkDescriptorSetLayoutBinding){.binding = i, .descriptorType = VK_DESCRIPTOR_TYPE_STORAGE_BUFFER,
                                                 .descriptorCount = 1, .stageFlags = VK_SHADER_STAGE_COMPUTE_BIT};
    VkDescriptorSetLayoutCreateInfo dli = {.sType = VK_STRUCTURE_TYPE_DESCRIPTOR_SET_LAYOUT_CREATE_INFO,
                                           .bindingCount = 2, .pBindings = bind};
    VKB_CHECK(v, vkCreateDescriptorSetLayout(v->dev, &dli, NULL, &v->flush_dsl));
    VkPushConstantRange pr = {.stageFlags = VK_SHADER_STAGE_COMPUTE_BIT, .offset = 0, .size = sizeof(vkb_push)};
    VkPipelineLayoutCreateInfo pli = {.sType = VK_STRUCTURE_TYPE_PIPELINE_LAYOUT_CREATE_INFO, .setLayoutCount = 1,
                                      .pSetLayouts = &v->flush_dsl, .pushConstantRangeCount = 1, .pPushConstantRanges = &pr};
    VKB_CHECK(v, vkCreatePipelineLayout(v->dev, &pli, NULL, &v->flush_layout));
    VkDescriptorPoolSize ps = {.type = VK_DESCRIPTOR_TYPE_STORAGE_BUFFER, .descriptorCount = 2};
    VkDescriptorPoolCreateInfo dpi = {.sType = VK_STRUCTURE_TYPE_DESCRIPTOR_POOL_CREATE_INFO, .maxSets = 1,
                                      .poolSizeCount = 1, .pPoolSizes = &ps};
    VKB_CHECK(v, vkCreateDescriptorPool(v->dev, &dpi, NULL, &v->flush_pool));
    VkDescriptorSetAllocateInfo dai = {.sType = VK_STRUCTURE_TYPE_DESCRIPTOR_SET_ALLOCATE_INFO,
                                       .descriptorPool = v->flush_pool, .descriptorSetCount = 1, .pSetLayouts = &v->flush_dsl};
    VKB_CHECK(v, vkAllocateDescriptorSets(v->dev, &dai, &v->flush_set));
    VkDescriptorBufferInfo dbi[2] = {{.buffer = v->flush, .range = VK_WHOLE_SIZE}, {.buffer = v->flush_out, .range = VK_WHOLE_SIZE}};
    VkWriteDescriptorSet w[2];
    for (uint32_t i = 0; i < 2; i++)
        w[i] = (VkWriteDescriptorSet){.sType = VK_STRUCTURE_TYPE_WRITE_DESCRIPTOR_SET, .dstSet = v->flush_set, .dstBinding = i,
                                      .descriptorCount = 1, .descriptorType = VK_DESCRIPTOR_TYPE_STORAGE_BUFFER, .pBufferInfo = &dbi[i]};
    vkUpdateDescriptorSets(v->dev, 2, w, 0, NULL);
    if (load_module(v, "readbw", 1, &mod, vk_err, sizeof(vk_err))) return -1;
    VkSpecializationMapEntry me = {.constantID = 0, .offset = 0, .size = 4};
    VkSpecializationInfo si = {.mapEntryCount = 1, .pMapEntries = &me, .dataSize = 4, .pData = &wg};
    VkComputePipelineCreateInfo ci = {
        .sType = VK_STRUCTURE_TYPE_COMPUTE_PIPELINE_CREATE_INFO, .layout = v->flush_layout,
        .stage = {.sType = VK_STRUCTURE_TYPE_PIPELINE_SHADER_STAGE_CREATE_INFO, .stage = VK_SHADER_STAGE_COMPUTE_BIT,
                  .module = mod, .pName = "main", .pSpecializationInfo = &si}};
    VkResult rc = vkCreateComputePipelines(v->dev, VK_NULL_HANDLE, 1, &ci, NULL, &v->flush_pipe);
    vkDestroyShaderModule(v->dev, mod, NULL);
    if (rc != VK_SUCCESS) {
        set_err(vk_err, sizeof(vk_err), "cold-mode flush pipeline (readbw): %s", vk_result_name(rc));
        return -1;
    }
    return 0;
error:
    return -1;
}

/* Records the flush (ensure_flush) into cmd, then a barrier before the timed work. */
static void record_flush(vkb_vk *v, VkCommandBuffer cmd)
{
    if (v->flush_write) {  /* a new value each time so no layer can skip the write as redundant */
        vkCmdFillBuffer(cmd, v->flush, 0, VK_WHOLE_SIZE, ++v->flush_value);
        barrier(cmd, ST_COPY, VK_ACCESS_2_TRANSFER_WRITE_BIT, VK_PIPELINE_STAGE_2_ALL_COMMANDS_BIT, AC_RW);
        return;
    }
    vkb_push push = {0};
    push.n = (uint32_t)(v->flush_size / 4);
    vkCmdBindPipeline(cmd, VK_PIPELINE_BIND_POINT_COMPUTE, v->flush_pipe);
    vkCmdBindDescriptorSets(cmd, VK_PIPELINE_BIND_POINT_COMPUTE, v->flush_layout, 0, 1, &v->flush_set, 0, NULL);
    vkCmdPushConstants(cmd, v->flush_layout, VK_SHADER_STAGE_COMPUTE_BIT, 0, sizeof(push), &push);
    vkCmdDispatch(cmd, v->flush_groups, 1, 1);
    barrier(cmd, ST_COMPUTE, AC_RW, VK_PIPELINE_STAGE_2_ALL_COMMANDS_BIT, AC_RW);
}

const char *vkb_vk_cold_flush(vkb_vk *v)
{
    snprintf(v->flush_note, sizeof(v->flush_note), v->flush_write
             ? "cold: caches flushed by writing %llu MiB (VKB_COLD_FLUSH=write: the timed work pays the L2's write-backs)%s"
             : "cold: caches flushed by reading %llu MiB (clean lines)%s", (unsigned long long)(v->flush_size >> 20),
             v->code_cold ? "; code cold (VKB_COLD_CODE=cold)" : "; code warm");
    return v->flush_note;
}

static double ticks_to_s(const vkb_vk *v, uint64_t t0, uint64_t t1)
{
    uint64_t d = v->info.timestamp_bits >= 64 ? t1 - t0 : (t1 - t0) & ((1ull << v->info.timestamp_bits) - 1);
    return (double)d * v->info.timestamp_period_ns * 1e-9;
}

/* Records into cmd (begun) the timed work: the query reset, the flush when cold, the first timestamp, batch times
 * the case's dispatch sequence (none without g), and the last timestamp (qp = v->qpool), or with prof one after
 * each dispatch (batch 1). Cold (batch 1, not prof): timestamp 0, the dispatch sequence once, untimed, then nsamp
 * times (flush, timestamp 2i + 1, the sequence, timestamp 2i + 2): sample i between those two, the submission's GPU
 * time from 0 to 2 nsamp. One sample a submission cost an H200 ~220 us of host round trip beside its 120 us flush.
 * The untimed run: the NVIDIA driver starts each submission with the shaders' instruction caches empty, and timed
 * first there a kernel fetched its code from DRAM (the flush had emptied the L2 of it), 2-3 us more at 11-17 KB of
 * code (tests/gpu/sweep_s36a.txt). The flush leaves the code in the SMs' instruction caches, as it leaves cuBLAS's
 * in peers.py's cold graphs and as a decoder's one submission of many layers leaves each kernel's: the weights come
 * from DRAM, the code does not. VKB_COLD_CODE=cold: one sample, first in its submission. */
static void record_timed(vkb_vk *v, VkCommandBuffer cmd, vkb_gpu *g, uint32_t batch, int cold, uint32_t nsamp,
                         VkQueryPool qp, uint32_t nq, int prof)
{
    vkCmdResetQueryPool(cmd, qp, 0, nq);
    if (cold && !prof) vkCmdWriteTimestamp2(cmd, VK_PIPELINE_STAGE_2_ALL_COMMANDS_BIT, qp, 0);
    if (cold && g && !v->code_cold) record_dispatches(g, cmd, 1, VK_NULL_HANDLE);
    if (cold && !prof) {
        for (uint32_t i = 0; i < nsamp; i++) {
            record_flush(v, cmd);
            vkCmdWriteTimestamp2(cmd, VK_PIPELINE_STAGE_2_ALL_COMMANDS_BIT, qp, 2 * i + 1);
            if (g) record_dispatches(g, cmd, batch, VK_NULL_HANDLE);
            vkCmdWriteTimestamp2(cmd, VK_PIPELINE_STAGE_2_ALL_COMMANDS_BIT, qp, 2 * i + 2);
        }
        return;
    }
    if (cold) record_flush(v, cmd);
    vkCmdWriteTimestamp2(cmd, VK_PIPELINE_STAGE_2_ALL_COMMANDS_BIT, qp, 0);
    if (g) record_dispatches(g, cmd, batch, prof ? qp : VK_NULL_HANDLE);
    if (!prof) vkCmdWriteTimestamp2(cmd, VK_PIPELINE_STAGE_2_ALL_COMMANDS_BIT, qp, 1);
}

/* Whether v->tcmd holds g's timed work at this batch and mode, dispatches as they are now. */
static int timed_recorded(const vkb_vk *v, const vkb_gpu *g, uint32_t batch, int cold, uint32_t nsamp)
{
    const vkb_case *c = g->c;
    return v->t_id == g->id && v->t_batch == batch && v->t_cold == cold && v->t_nsamp == nsamp && v->t_ndisp == c->ndisp &&
           (c->ndisp == 0 || !memcmp(v->t_disp, c->disp, (size_t)c->ndisp * sizeof(*c->disp)));
}

/* Records g's timed work into v->tcmd and keys it (t_id 0 while it is not whole). */
static int record_tcmd(vkb_vk *v, vkb_gpu *g, uint32_t batch, int cold, uint32_t nsamp, uint32_t nq)
{
    const vkb_case *c = g->c;
    v->t_id = 0;
    if (c->ndisp > v->t_cap) {
        vkb_dispatch *d = realloc(v->t_disp, (size_t)c->ndisp * sizeof(*d));
        if (!d) {
            set_err(vk_err, sizeof(vk_err), "out of host memory (the key of %d recorded dispatches)", c->ndisp);
            return -1;
        }
        v->t_disp = d, v->t_cap = c->ndisp;
    }
    if (begin_cmd(v, v->tcmd, 0)) return -1;  /* submitted again: not one-time */
    record_timed(v, v->tcmd, g, batch, cold, nsamp, v->qpool, nq, 0);
    VKB_CHECK(v, vkEndCommandBuffer(v->tcmd));
    if (c->ndisp) memcpy(v->t_disp, c->disp, (size_t)c->ndisp * sizeof(*c->disp));
    v->t_ndisp = c->ndisp, v->t_batch = batch, v->t_cold = cold, v->t_nsamp = nsamp, v->t_id = g->id;
    return 0;
error:
    return -1;
}

/* One submission of the case's dispatch sequence (batch times; none without g) between timestamps into qp, read
 * back into ts (nq of them): qp = v->qpool: [0] before, [1] after all (cold: as record_timed, nq = 2 nsamp + 1);
 * else (vkb_gpu_profile, batch 1): [0] before, [i + 1] after dispatch i. cold: flush the caches first. A case's
 * samples submit one recording again (v->tcmd), except a write flush's, which fills a new value each time. */
static int timed_run(vkb_vk *v, vkb_gpu *g, uint32_t batch, int cold, uint32_t nsamp, VkQueryPool qp, uint32_t nq,
                     uint64_t *ts)
{
    int prof = qp != v->qpool;
    if (cold && ensure_flush(v)) return -1;
    if (g && !prof && !(cold && v->flush_write)) {
        if (!timed_recorded(v, g, batch, cold, nsamp) && record_tcmd(v, g, batch, cold, nsamp, nq)) return -1;
        if (submit_cmd(v, v->tcmd)) return -1;
    } else {
        if (begin(v)) return -1;
        record_timed(v, v->cmd, g, batch, cold, nsamp, qp, nq, prof);
        if (submit_wait(v)) return -1;
    }
    VKB_CHECK(v, vkGetQueryPoolResults(v->dev, qp, 0, nq, nq * sizeof(*ts), ts, sizeof(*ts),
                                       VK_QUERY_RESULT_64_BIT | VK_QUERY_RESULT_WAIT_BIT));
    return 0;
error:
    return -1;
}

static int timed(vkb_vk *v, vkb_gpu *g, uint32_t batch, double *seconds)
{
    uint64_t ts[2];
    if (timed_run(v, g, batch, 0, 1, v->qpool, 2, ts)) return -1;
    *seconds = ticks_to_s(v, ts[0], ts[1]);
    return 0;
}

int vkb_gpu_run(vkb_gpu *g, uint32_t batch, int cold, double *seconds)
{
    double busy;
    if (cold) return vkb_gpu_run_cold(g, 1, seconds, &busy) < 0 ? -1 : 0;  /* one sample: batch is 1 */
    return timed(g->v, g, batch, seconds);
}

int vkb_vk_cold_samples(const vkb_vk *v) { return v->code_cold ? 1 : v->cold_samples; }

int vkb_gpu_run_cold(vkb_gpu *g, uint32_t nsamp, double *seconds, double *busy)
{
    vkb_vk *v = g->v;
    uint64_t ts[2 * VKB_COLD_SAMPLES_MAX + 1];
    if (v->code_cold) nsamp = 1;  /* each sample first in its submission */
    if (nsamp < 1 || nsamp > VKB_COLD_SAMPLES_MAX) {
        set_err(vk_err, sizeof(vk_err), "cold samples per submission %u: expected 1..%d", nsamp, VKB_COLD_SAMPLES_MAX);
        return -1;
    }
    if (timed_run(v, g, 1, 1, nsamp, v->qpool, 2 * nsamp + 1, ts)) return -1;
    for (uint32_t i = 0; i < nsamp; i++) seconds[i] = ticks_to_s(v, ts[2 * i + 1], ts[2 * i + 2]);
    *busy = ticks_to_s(v, ts[0], ts[2 * nsamp]);
    return (int)nsamp;
}

int vkb_gpu_profile(vkb_gpu *g, int cold, double *seconds)
{
    vkb_vk *v = g->v;
    uint32_t nq = (uint32_t)g->c->ndisp + 1;
    uint64_t *ts = NULL;
    if (nq > v->pqcount) {
        if (v->pqpool) vkDestroyQueryPool(v->dev, v->pqpool, NULL);
        v->pqpool = VK_NULL_HANDLE, v->pqcount = 0;
        VkQueryPoolCreateInfo qpi = {.sType = VK_STRUCTURE_TYPE_QUERY_POOL_CREATE_INFO,
                                     .queryType = VK_QUERY_TYPE_TIMESTAMP, .queryCount = nq};
        VKB_CHECK(v, vkCreateQueryPool(v->dev, &qpi, NULL, &v->pqpool));
        v->pqcount = nq;
    }
    if (!(ts = malloc(nq * sizeof(*ts)))) {
        set_err(vk_err, sizeof(vk_err), "out of host memory (profile of %u dispatches)", nq - 1);
        return -1;
    }
    if (timed_run(v, g, 1, cold, 1, v->pqpool, nq, ts)) goto error;
    for (uint32_t i = 0; i + 1 < nq; i++) seconds[i] = ticks_to_s(v, ts[i], ts[i + 1]);
    free(ts);
    return 0;
error:
    free(ts);
    return -1;
}

static uint64_t gcd64(uint64_t a, uint64_t b)
{
    while (b) {
        uint64_t r = a % b;
        a = b, b = r;
    }
    return a;
}

int vkb_vk_timer_floor(vkb_vk *v, double *seconds)
{
    double t[15];
    uint64_t g = 0, mask = v->info.timestamp_bits >= 64 ? ~0ull : (1ull << v->info.timestamp_bits) - 1;
    for (int i = 0; i < 15; i++) {
        uint64_t ts[2];
        if (timed_run(v, NULL, 0, 0, 1, v->qpool, 2, ts)) return -1;
        t[i] = ticks_to_s(v, ts[0], ts[1]);
        g = gcd64(gcd64(g, ts[0] & mask), ts[1] & mask);  /* 30 readings: a coarser common step by chance has p <= 2^-30 */
    }
    v->info.timer_step_ns = (double)(g ? g : 1) * v->info.timestamp_period_ns;
    /* median of 15 without pulling in the statistics module */
    for (int i = 1; i < 15; i++)
        for (int j = i; j > 0 && t[j] < t[j - 1]; j--) {
            double x = t[j];
            t[j] = t[j - 1];
            t[j - 1] = x;
        }
    *seconds = t[7] > 0 ? t[7] : v->info.timestamp_period_ns * 1e-9;
    return 0;
}

/* The guard message for buffer i, whose guards are in its staging buffer (empty when intact). */
static void guard_check(vkb_gpu *g, int i, char *msg, size_t len)
{
    const vkb_buf *cb = &g->c->buf[i];
    gbuf *b = &g->b[i];
    size_t bytes = cb->count * vkb_dtype_size(cb->type);
    long lo = vkb_guard_first_change(b->map, VKB_GUARD_BYTES, GUARD_PATTERN);
    long hi = vkb_guard_first_change(b->map + VKB_GUARD_BYTES + bytes, b->total - VKB_GUARD_BYTES - bytes, GUARD_PATTERN);
    if (!msg[0] && hi >= 0)
        snprintf(msg, len, "out-of-bounds write into buffer '%s' at element %zu (byte +%ld past its end)", cb->name,
                 cb->count + (size_t)hi / vkb_dtype_size(cb->type), hi);
    if (!msg[0] && lo >= 0)
        snprintf(msg, len, "out-of-bounds write into buffer '%s', %ld bytes before its start", cb->name,
                 (long)VKB_GUARD_BYTES - lo);
}

/* Record the copy back, after the dispatches: both guards of every buffer and, with outputs, the payload of the
 * buffers that are not inputs (scratch too, with scratch): an input's payload never comes back (the add of an H200 gate
 * launch spent 0.1 s bringing back 384 MiB, 256 of them inputs). */
static void record_readback(vkb_gpu *g, int outputs, int scratch)
{
    VkCommandBuffer cmd = g->v->cmd;
    barrier(cmd, ST_COMPUTE, AC_RW, ST_COPY, VK_ACCESS_2_TRANSFER_READ_BIT);
    for (int i = 0; i < g->c->nbuf; i++) {
        const vkb_buf *cb = &g->c->buf[i];
        VkDeviceSize end = VKB_GUARD_BYTES + cb->count * vkb_dtype_size(cb->type);
        int payload = outputs && cb->role != VKB_IN && (scratch || cb->role != VKB_SCRATCH);
        VkBufferCopy bc[2] = {{.size = payload ? end : VKB_GUARD_BYTES},
                              {.srcOffset = end, .dstOffset = end, .size = g->b[i].total - end}};
        vkCmdCopyBuffer(cmd, g->b[i].buf, g->b[i].stage, 2, bc);
    }
    barrier(cmd, ST_COPY, VK_ACCESS_2_TRANSFER_WRITE_BIT, VK_PIPELINE_STAGE_2_HOST_BIT, VK_ACCESS_2_HOST_READ_BIT);
}

int vkb_gpu_download(vkb_gpu *g, int outputs, char *guard_msg, size_t len)
{
    vkb_vk *v = g->v;
    guard_msg[0] = 0;
    if (begin(v)) return -1;
    record_readback(g, outputs, 1);
    if (submit_wait(v)) return -1;
    for (int i = 0; i < g->c->nbuf; i++) {
        vkb_buf *cb = &g->c->buf[i];
        guard_check(g, i, guard_msg, len);
        if (outputs && cb->role != VKB_IN)
            memcpy(cb->host, g->b[i].map + VKB_GUARD_BYTES, cb->count * vkb_dtype_size(cb->type));
    }
    return 0;
}

int vkb_gpu_recheck(vkb_gpu *g, char *msg, size_t len)
{
    vkb_vk *v = g->v;
    const vkb_case *c = g->c;
    msg[0] = 0;
    for (int i = 0; i < c->nbuf; i++)
        if (c->buf[i].role == VKB_OUT || c->buf[i].role == VKB_SCRATCH) poison(&c->buf[i], g->b[i].map + VKB_GUARD_BYTES);
    if (begin(v)) return -1;
    barrier(v->cmd, ST_COMPUTE, AC_RW, ST_COPY, AC_RW);
    for (int i = 0; i < c->nbuf; i++) {
        const vkb_buf *cb = &c->buf[i];
        VkBufferCopy bc = {.srcOffset = VKB_GUARD_BYTES, .dstOffset = VKB_GUARD_BYTES,
                           .size = cb->count * vkb_dtype_size(cb->type)};
        if ((cb->role == VKB_OUT || cb->role == VKB_SCRATCH) && bc.size)
            vkCmdCopyBuffer(v->cmd, g->b[i].stage, g->b[i].buf, 1, &bc);
    }
    barrier(v->cmd, ST_COPY, VK_ACCESS_2_TRANSFER_WRITE_BIT, ST_COMPUTE, AC_RW);
    record_dispatches(g, v->cmd, 1, VK_NULL_HANDLE);
    record_readback(g, 1, 0);  /* the guards, and the outputs' payload */
    if (submit_wait(v)) return -1;
    for (int i = 0; i < c->nbuf && !msg[0]; i++) guard_check(g, i, msg, len);
    for (int i = 0; i < c->nbuf && !msg[0]; i++) {
        const vkb_buf *cb = &c->buf[i];
        if (cb->role != VKB_OUT && cb->role != VKB_INOUT) continue;
        size_t es = vkb_dtype_size(cb->type), bytes = cb->count * es;
        const uint8_t *now = g->b[i].map + VKB_GUARD_BYTES, *was = cb->host;
        if (!memcmp(now, was, bytes)) continue;
        size_t k = 0;
        while (!memcmp(now + k * es, was + k * es, es)) k++;
        uint64_t a = 0, b = 0;
        memcpy(&a, was + k * es, es < 8 ? es : 8);
        memcpy(&b, now + k * es, es < 8 ? es : 8);
        snprintf(msg, len, "buffer '%s' element %zu: 0x%0*llx in the validated call, 0x%0*llx in the call after timing",
                 cb->name, k, (int)(2 * es), (unsigned long long)a, (int)(2 * es), (unsigned long long)b);
    }
    return 0;
}

int vkb_gpu_e2e(vkb_gpu *g, double *seconds)
{
    vkb_vk *v = g->v;
    double t0 = vkb_now_s();
    for (int i = 0; i < g->c->nbuf; i++) {
        const vkb_buf *cb = &g->c->buf[i];
        if (cb->role == VKB_IN || cb->role == VKB_INOUT)
            memcpy(g->b[i].map + VKB_GUARD_BYTES, cb->host, cb->count * vkb_dtype_size(cb->type));
    }
    if (begin(v)) return -1;
    for (int i = 0; i < g->c->nbuf; i++) {
        const vkb_buf *cb = &g->c->buf[i];
        if (cb->role != VKB_IN && cb->role != VKB_INOUT) continue;
        VkBufferCopy bc = {.srcOffset = VKB_GUARD_BYTES, .dstOffset = VKB_GUARD_BYTES,
                           .size = cb->count * vkb_dtype_size(cb->type)};
        if (bc.size) vkCmdCopyBuffer(v->cmd, g->b[i].stage, g->b[i].buf, 1, &bc);
    }
    barrier(v->cmd, ST_COPY, VK_ACCESS_2_TRANSFER_WRITE_BIT, ST_COMPUTE, AC_RW);
    record_dispatches(g, v->cmd, 1, VK_NULL_HANDLE);
    barrier(v->cmd, ST_COMPUTE, AC_RW, ST_COPY, VK_ACCESS_2_TRANSFER_READ_BIT);
    for (int i = 0; i < g->c->nbuf; i++) {
        const vkb_buf *cb = &g->c->buf[i];
        if (cb->role == VKB_IN || cb->role == VKB_SCRATCH) continue;
        VkBufferCopy bc = {.srcOffset = VKB_GUARD_BYTES, .dstOffset = VKB_GUARD_BYTES,
                           .size = cb->count * vkb_dtype_size(cb->type)};
        if (bc.size) vkCmdCopyBuffer(v->cmd, g->b[i].buf, g->b[i].stage, 1, &bc);
    }
    barrier(v->cmd, ST_COPY, VK_ACCESS_2_TRANSFER_WRITE_BIT, VK_PIPELINE_STAGE_2_HOST_BIT, VK_ACCESS_2_HOST_READ_BIT);
    if (submit_wait(v)) return -1;
    for (int i = 0; i < g->c->nbuf; i++) {
        vkb_buf *cb = &g->c->buf[i];
        if (cb->role == VKB_IN || cb->role == VKB_SCRATCH) continue;
        memcpy(cb->host, g->b[i].map + VKB_GUARD_BYTES, cb->count * vkb_dtype_size(cb->type));
    }
    *seconds = vkb_now_s() - t0;
    return 0;
}

int vkb_gpu_rotate(vkb_gpu *g, uint64_t target_bytes, uint32_t max_copies)
{
    vkb_vk *v = g->v;
    const vkb_case *c = g->c;
    uint64_t in = 0;
    for (int i = 0; i < c->nbuf; i++)
        if (c->buf[i].role == VKB_IN) in += g->b[i].total;
    if (in == 0) {
        set_err(vk_err, sizeof(vk_err), "rotate mode needs input buffers to rotate");
        return -1;
    }
    uint64_t n = (target_bytes + in - 1) / in;
    if (n < 2) n = 2;
    if (n > max_copies) n = max_copies;
    if ((double)n * (double)in > 0.5 * (double)v->caps.device_mem) n = (uint64_t)(0.5 * (double)v->caps.device_mem / (double)in);
    if (n < 2) {
        set_err(vk_err, sizeof(vk_err), "rotate mode: two copies of the inputs do not fit in device memory");
        return -1;
    }
    g->ncopies = (uint32_t)n;
    g->id = new_gpu_id();  /* its timed work now binds the copies */
    g->copy = calloc((n - 1) * VKB_MAX_BUFS, sizeof(*g->copy));
    g->copy_mem = calloc((n - 1) * VKB_MAX_BUFS, sizeof(*g->copy_mem));
    g->copy_addr = calloc((n - 1) * VKB_MAX_BUFS, sizeof(*g->copy_addr));
    g->rset = calloc(n, sizeof(*g->rset));
    if (!g->copy || !g->copy_mem || !g->copy_addr || !g->rset) goto oom;
    for (uint32_t k = 1; k < n; k++)
        for (int i = 0; i < c->nbuf; i++)
            if (c->buf[i].role == VKB_IN &&
                make_buffer(v, g->b[i].total, 0, &g->copy[(k - 1) * VKB_MAX_BUFS + (uint32_t)i],
                            &g->copy_mem[(k - 1) * VKB_MAX_BUFS + (uint32_t)i], NULL))
                return -1;
            else if (c->buf[i].role == VKB_IN)
                g->copy_addr[(k - 1) * VKB_MAX_BUFS + (uint32_t)i] = payload_addr(v, g->copy[(k - 1) * VKB_MAX_BUFS + (uint32_t)i]);
    VkDescriptorPoolSize ps = {.type = VK_DESCRIPTOR_TYPE_STORAGE_BUFFER, .descriptorCount = (uint32_t)(n * (uint64_t)c->nbuf)};
    VkDescriptorPoolCreateInfo dpi = {.sType = VK_STRUCTURE_TYPE_DESCRIPTOR_POOL_CREATE_INFO, .maxSets = (uint32_t)n,
                                      .poolSizeCount = 1, .pPoolSizes = &ps};
    VKB_CHECK(v, vkCreateDescriptorPool(v->dev, &dpi, NULL, &g->rpool));
    for (uint32_t k = 0; k < n; k++) {
        VkDescriptorSetAllocateInfo dai = {.sType = VK_STRUCTURE_TYPE_DESCRIPTOR_SET_ALLOCATE_INFO,
                                           .descriptorPool = g->rpool, .descriptorSetCount = 1, .pSetLayouts = &g->dsl};
        VKB_CHECK(v, vkAllocateDescriptorSets(v->dev, &dai, &g->rset[k]));
        VkDescriptorBufferInfo dbi[VKB_MAX_BUFS];
        VkWriteDescriptorSet w[VKB_MAX_BUFS];
        for (int i = 0; i < c->nbuf; i++) {
            VkBuffer b = k && c->buf[i].role == VKB_IN ? g->copy[(k - 1) * VKB_MAX_BUFS + (uint32_t)i] : g->b[i].buf;
            dbi[i] = (VkDescriptorBufferInfo){.buffer = b, .offset = VKB_GUARD_BYTES, .range = g->b[i].payload + VKB_GUARD_BYTES};
            w[i] = (VkWriteDescriptorSet){.sType = VK_STRUCTURE_TYPE_WRITE_DESCRIPTOR_SET, .dstSet = g->rset[k],
                                          .dstBinding = (uint32_t)i, .descriptorCount = 1,
                                          .descriptorType = VK_DESCRIPTOR_TYPE_STORAGE_BUFFER, .pBufferInfo = &dbi[i]};
        }
        vkUpdateDescriptorSets(v->dev, (uint32_t)c->nbuf, w, 0, NULL);
    }
    /* Fill the copies from copy 0, which holds the uploaded inputs. */
    if (begin(v)) return -1;
    barrier(v->cmd, ST_COMPUTE | ST_COPY, AC_RW, ST_COPY, AC_RW);
    for (uint32_t k = 1; k < n; k++)
        for (int i = 0; i < c->nbuf; i++)
            if (c->buf[i].role == VKB_IN) {
                VkBufferCopy bc = {.size = g->b[i].total};
                vkCmdCopyBuffer(v->cmd, g->b[i].buf, g->copy[(k - 1) * VKB_MAX_BUFS + (uint32_t)i], 1, &bc);
            }
    barrier(v->cmd, ST_COPY, VK_ACCESS_2_TRANSFER_WRITE_BIT, ST_COMPUTE, AC_RW);
    if (submit_wait(v)) return -1;
    return (int)n;
oom:
    set_err(vk_err, sizeof(vk_err), "out of host memory");
    return -1;
error:
    return -1;
}

uint32_t vkb_gpu_copies(const vkb_gpu *g) { return g->ncopies > 1 ? g->ncopies : 1; }
