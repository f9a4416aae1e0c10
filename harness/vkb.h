/* vkb.h — the kernel model: what a reference/NAME.c file declares and what the driver does with it.
 *
 * A kernel is one `vkb_kernel` value, marked VKB_KERNEL(name) so `make` finds it (no list to edit).
 * For each case (one point of a suite line's axes) the driver calls, in order:
 *   plan(c)       read c->params, declare buffers, pipelines, dispatches and cost; or set c->skip
 *   fill(c, rng)  write random inputs into the host copies of the input buffers (recorded seed)
 *   reference(c)  compute the expected result on the CPU (scalar, double accumulation) into c->priv;
 *                 returns the fraction of the full work the scalar oracle did (1.0, or below 1 when a fast
 *                 full reference computed every element and the oracle a sample of them: c->fast_ref_s)
 *   check(c, r)   compare the downloaded outputs with the expected result; fill r
 *   release(c)    free what c->priv points to (optional; the driver frees c->priv itself)
 * This header has no Vulkan in it: reference/ never sees Vulkan.
 */
#ifndef VKB_H
#define VKB_H

#include <stddef.h>
#include <stdint.h>
#include <gsl/gsl_rng.h>

#include "abi.h"

#define VKB_MAX_PARAMS 12
#define VKB_MAX_BUFS 8
#define VKB_MAX_PIPES 12
#define VKB_MAX_SPEC 16  /* spec ids 0..15 (kernels/abi.h) */

typedef enum { VKB_F32, VKB_F16, VKB_I8, VKB_U8, VKB_I32, VKB_U32 } vkb_dtype;
size_t vkb_dtype_size(vkb_dtype t);
const char *vkb_dtype_name(vkb_dtype t);

typedef enum { VKB_IN, VKB_OUT, VKB_INOUT, VKB_SCRATCH } vkb_role;

/* One axis value of a case: the text as written plus its integer/real reading. */
typedef struct vkb_param {
    char key[24];
    char val[40];
    int64_t ival;  /* valid when isint */
    double dval;   /* valid when isnum */
    int isint, isnum;
} vkb_param;

typedef struct vkb_buf {
    char name[16];
    vkb_dtype type;
    size_t count;   /* elements */
    vkb_role role;
    void *host;     /* host copy (allocated by the driver): inputs filled by fill(), outputs read back */
} vkb_buf;

typedef struct vkb_pipe {
    char shader[48];            /* SPIR-V module name: build/spv/<shader>.spv */
    uint32_t spec[VKB_MAX_SPEC];/* spec constant i = spec[i]; spec[0] = workgroup size x */
    int nspec;
} vkb_pipe;

typedef struct vkb_dispatch {
    int pipe;
    uint32_t groups[3];
    vkb_push push;
} vkb_dispatch;

/* One cooperative-matrix configuration the device reports (subgroup scope only): D = A·B + C with A M×K,
 * B K×N, C and D M×N. Component types are VkComponentTypeKHR values (NV and KHR share 0..10:
 * 0 fp16, 1 fp32, 3 sint8, 5 sint32, 7 uint8, 9 uint32). khr: from the KHR query, else the NV one. */
#define VKB_MAX_CM 48
typedef struct vkb_cm_shape {
    uint32_t m, n, k, a, b, c, d;
    int khr;
} vkb_cm_shape;
/* A workgroup-scope configuration of flexible size: dimensions in multiples of m, n, k, types a, b, c, d, for workgroups
 * of exactly `invocations`. */
typedef struct vkb_cm_flex {
    uint32_t m, n, k, a, b, c, d, invocations;
} vkb_cm_flex;
/* "fp16", "fp32", "sint8", ... for a component type of vkb_cm_shape; "type<N>" for others (harness/devpeak.c). */
const char *vkb_cm_type_name(uint32_t t);

struct vkb_caps;
/* Whether a BM x BN x BK fp16 -> fp32 workgroup-scope tiling runs on `wg` invocations (harness/util.c): 0, or 1 with
 * the reason in why (no coopmat2 workgroup scope, no configuration for wg invocations, off the device's granularity, over
 * its largest workgroup). */
int vkb_wg_tiling(const struct vkb_caps *cp, uint32_t wg, uint32_t bm, uint32_t bn, uint32_t bk, char *why, size_t wl);
/* kernels/matmul_coopmat_wg.glsl's staging (matmul coopmat_wgs*, dense_f16 algo=wgs) over `steps` BK-deep steps an
 * invocation (K / split / BK): 0, or 1 with the reason in why when the BM x BK and BK x BN tiles do not split into whole
 * uvec4 over wg invocations, when `ahead` register sets hold more than 48 uvec4 an invocation (GPU), or (emu) when the
 * emulation's loops would pass llvmpipe's loop limit. Its shared memory in bytes: bufs buffers of padded tiles (bt: B
 * staged as B^T, VKB_WG_BT). */
int vkb_wg_staged(uint32_t wg, uint32_t bm, uint32_t bn, uint32_t bk, uint32_t ahead, uint64_t steps, int emu, char *why,
                  size_t wl);
double vkb_wg_staged_shared(uint32_t bm, uint32_t bn, uint32_t bk, uint32_t bufs, int bt);
/* The share of `slots` workgroup places (SMs x workgroups an SM) that a grid of wgs workgroups keeps busy over its
 * waves: wgs / (slots x ceil(wgs / slots)); 0 when either is 0 (harness/util.c). */
double vkb_wave_fill(uint64_t wgs, uint64_t slots);

/* What the device offers, as plain flags, so plan() can SKIP with a reason. */
typedef struct vkb_caps {
    int is_cpu;                 /* lavapipe or another CPU implementation */
    uint32_t vendor;            /* PCI vendor ID (VkPhysicalDeviceProperties::vendorID; 0x10DE NVIDIA) */
    int f16, storage16, int8, storage8, int_dot, int_dot_accel, coopmat_nv, coopmat_khr;
    int coopmat_wg;             /* VK_NV_cooperative_matrix2 workgroup scope + flexible dimensions, enabled */
    uint32_t coopmat_wg_max;    /* its largest workgroup (invocations) */
    uint32_t coopmat_wg_smem;   /* shared memory the driver keeps for workgroup-scope matrices (bytes) */
    int coopmat_tensor;         /* ... and tensor-addressed loads (cooperativeMatrixTensorAddressing), enabled */
    int nflex;                  /* its workgroup-scope flexible configurations (vkGetPhysicalDeviceCooperativeMatrix-
                                 * FlexibleDimensionsPropertiesNV, scope workgroup) */
    vkb_cm_flex flex[32];
    int ieee16, ieee32;         /* shaderSignedZeroInfNanPreserveFloat16/32: shaders may keep NaN/Inf (ieee.glsl) */
    int shader_clock;           /* VK_KHR_shader_clock shaderSubgroupClock: the clock probe can count SM cycles */
    uint32_t subgroup, max_wg_count_x, max_wg_size, max_shared;
    uint32_t sm_count;          /* SMs / compute units where the device says (VK_NV_shader_sm_builtins ...); 0: unknown */
    uint64_t max_range;         /* maxStorageBufferRange */
    uint64_t max_alloc;         /* maxMemoryAllocationSize or the largest heap */
    uint64_t device_mem;        /* largest device-local heap */
    int ncm;                    /* cooperative-matrix configurations reported (NV first, then KHR) */
    vkb_cm_shape cm[VKB_MAX_CM];
} vkb_caps;

typedef struct vkb_check {
    char method[24];     /* exact | ulp | bound | nmse | lapack | freivalds ... */
    double metric, threshold;
    double max_abs, max_rel, nmse;
    size_t nbad, nnan, nunwritten, nchecked, ntie; /* ntie: near-tie differences counted, allowed */
    int pass;            /* set by the checker: 1 PASS, 0 FAIL */
    char ref_method[48]; /* how the expected values were made: scalar | blas+scalar-sample | exact-int+scalar-sample ... */
    double fraction;     /* fraction of output elements compared with an elementwise bound (1 = all); NAN: unset */
    int ref_error;       /* 1: the fast reference disagreed with the scalar oracle's sample: the row is an ERROR */
    char detail[256];    /* first mismatches, or how the check was made */
} vkb_check;

typedef struct vkb_case vkb_case;

typedef struct vkb_kernel {
    const char *name;
    const char *axes;    /* accepted axes, comma-separated, e.g. "n,dtype"; mode and variant are always accepted */
    const char *doc;     /* one line */
    int (*plan)(vkb_case *c);
    void (*fill)(vkb_case *c, gsl_rng *rng);
    double (*reference)(vkb_case *c);
    void (*check)(vkb_case *c, vkb_check *r);
    void (*release)(vkb_case *c);
    const char *variants; /* for `vkbench list`: the variant names it runs or records, the default first;
                           * "(from AXIS=)" where an axis picks it, not variant= */
} vkb_kernel;

/* Registry marker: the Makefile greps reference/NAME.c files for VKB_KERNEL(name) and lists &vkb_kernel_name. */
#define VKB_KERNEL(name) const vkb_kernel vkb_kernel_##name

struct vkb_case {
    const vkb_kernel *k;
    vkb_param params[VKB_MAX_PARAMS];
    int nparams;
    uint64_t seed;
    vkb_caps caps;
    double oracle_budget; /* multiply-adds the scalar oracle may spend on a case (0: the kernel's default);
                           * above it a fast independent reference computes every element (run --oracle-budget) */
    double fast_ref_s;    /* seconds reference() spent in a fast full reference (cpu/fastref.h), which the
                           * driver must not extrapolate by the returned fraction (0: none) */

    vkb_buf buf[VKB_MAX_BUFS];
    int nbuf;
    vkb_pipe pipe[VKB_MAX_PIPES];
    int npipe;
    vkb_dispatch *disp;
    int ndisp, capdisp;

    double bytes;        /* minimum bytes a kernel must move (read + written) */
    double flops;        /* floating-point (or integer) operations */
    char dtype[8];       /* element type of the row, for the CSV */
    char variant[24];
    char note[256];      /* free text the kernel wants in the row (e.g. sweeps done, the rule auto applied) */
    char skip[200];      /* plan() writes a reason here to SKIP the case */
    char error[200];     /* plan() writes here for a bad parameter (ERROR) */
    void *priv;          /* kernel-owned: expected results etc. */
    struct {                 /* kernel-owned: buffer 0's contents in the plain row-major layout the CPU baselines read, */
        const void *host;    /* where the GPU's copy is permuted (bitnet_linear/dense_f16 lay=panel); else NULL */
        size_t count;        /* its elements (buffer 0's type) */
    } in0_logical;
};

/* The device's SMs for the tiling rules measured on an H200: its 132 where the device does not report them. */
static inline uint64_t vkb_sms(const vkb_case *c) { return c->caps.sm_count ? c->caps.sm_count : 132; }

/* --- helpers for reference/ files (harness/case.c) --- */

/* Parameter lookup: value of key, or def if absent. */
int64_t vkb_param_int(const vkb_case *c, const char *key, int64_t def);
double vkb_param_num(const vkb_case *c, const char *key, double def);
const char *vkb_param_str(const vkb_case *c, const char *key, const char *def);

/* Declare a buffer; returns its index (= its binding). */
int vkb_add_buf(vkb_case *c, const char *name, vkb_dtype t, size_t count, vkb_role role);
/* Declare a pipeline (shader + spec constants, spec[0] = workgroup size); returns its index. */
int vkb_add_pipe(vkb_case *c, const char *shader, int nspec, const uint32_t *spec);
/* Append a dispatch; the driver inserts a compute barrier between consecutive dispatches. */
vkb_dispatch *vkb_add_dispatch(vkb_case *c, int pipe, uint32_t gx, uint32_t gy, uint32_t gz);
/* Groups for `items` work items of `per_group` each, split into x*y <= max_wg_count_x per row;
 * shaders use vkb_group_id() (common.glsl) and must bound-check against their item count. */
void vkb_grid_1d(const vkb_case *c, uint64_t items, uint32_t per_group, uint32_t groups[3]);
/* dtype from the "dtype" axis (default f32); sets c->dtype; returns -1 and sets c->error if unknown. */
int vkb_case_dtype(vkb_case *c, vkb_dtype *out);
/* SKIP with a formatted reason; returns 1 so plan() can `return vkb_skip(...)`. */
int vkb_skip(vkb_case *c, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
int vkb_error(vkb_case *c, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
/* bind= (kernels/bda.glsl), applied after plan() has added its pipelines, with plan()'s result `planned`: desc (the
 * descriptor sets), bda (every pipeline's twin NAME_bda, which reaches the buffers by address), or not given: the
 * twin where dflt(c, pipe, arg) says so (NULL: nowhere). A bad value is an ERROR whatever plan() said; a plan() that
 * did not run (SKIP, ERROR) is returned as is. The note says which ran by address; a missing twin is an ERROR row
 * when the pipeline is built (vk.c). */
int vkb_bind_twins(vkb_case *c, int planned, int (*dflt)(const vkb_case *c, int pipe, void *arg), void *arg);
/* Driver side: release(c), then free c->priv, the host buffers and the dispatch list. */
void vkb_case_free(vkb_case *c);
/* A case's host buffer: zeroed, as calloc; >= 4 MiB from mmap with transparent huge pages asked for. NULL: out of
 * memory. Freed by vkb_host_free only (vkb_case_free does it for every c->buf[i].host). */
void *vkb_host_calloc(size_t count, size_t size);
void vkb_host_free(void *p);

/* Random fills (GSL generators, seeded per case). */
void vkb_fill_uniform_f32(gsl_rng *r, float *x, size_t n, double lo, double hi);
void vkb_fill_normal_f32(gsl_rng *r, float *x, size_t n, double sigma);
/* A fill of n items on all cores, deterministic whatever the thread count: fn(cr, lo, hi, arg) fills items
 * [lo, hi) from generator cr. With at least VKB_PAR_CHUNKS chunks of `grain` items, one 64-bit draw from r
 * seeds a fresh vkb_rng_xoshiro per chunk (its index mixed in) and the chunks spread over the cores; fewer items
 * are one call with r itself, so small cases keep the inputs they always had. A fill of 2^26 normals took
 * ~0.7 s on one core: the gate's launches and the default suite's large cases waited on it. */
#define VKB_PAR_CHUNKS 16
/* The chunks' generator: xoshiro256** as a gsl_rng_type (gsl_rng_set seeds all 64 bits through SplitMix64). */
extern const gsl_rng_type *vkb_rng_xoshiro;
/* SplitMix64's finaliser: case seeds from the run seed, chunk seeds from a fill's draw. */
uint64_t vkb_mix64(uint64_t x);
void vkb_par_fill(gsl_rng *r, size_t n, size_t grain, void (*fn)(gsl_rng *cr, size_t lo, size_t hi, void *arg),
                  void *arg);
/* fn(arg, k) for every k in [0, count), each once, on up to nthreads threads (this one among them; at most 64),
 * which claim k in turn; returns when all are done. What each k computes must not depend on which thread runs it:
 * the parallel fills and the checks' spans (check.c) are built on it. */
void vkb_par_for(size_t count, int nthreads, void (*fn)(void *arg, size_t k), void *arg);
/* The threads a parallel fill uses: the cores online, 1 .. 64 (vkb_par_for's limit). */
int vkb_par_threads(void);
/* The CPU guard: work that uses every core (a parallel fill's chunk, a slice of a fast reference, cpu/fastref.h)
 * runs between vkb_cpu_shared_begin and _end, which call enter(arg) and leave(arg) when set (run.c: the prefetch
 * workers' shared CPU lock, so that none of it competes with a CPU baseline being timed, and a baseline waits for
 * one chunk or slice, not a whole fill or reference). Set it before any such work starts, clear it (NULLs) after
 * all of it ends. */
void vkb_cpu_guard_set(void (*enter)(void *), void (*leave)(void *), void *arg);
void vkb_cpu_shared_begin(void);
void vkb_cpu_shared_end(void);
/* The "fill" axis: the input distributions a kernel offers, each aimed at one of its failure modes.
 * names is NULL-terminated; names[0] is the kernel's historical distribution, used when the axis is
 * absent, so rows without fill= keep their inputs. Returns the index of the case's value, or -1 after
 * setting c->error to a message that lists the accepted values. Call it from plan(). */
int vkb_fill_pick(vkb_case *c, const char *const *names);
/* Edge-of-range values, each exactly representable in t (VKB_F32 or VKB_F16; written as floats):
 *   LARGE      |x| log-uniform over [1, largest finite of t] (exponent uniform), random sign
 *   SPECIAL    half from the table +-0, +-Inf, NaN, +-max, +-smallest normal, +-smallest subnormal,
 *              +-1, half drawn as N(0,1), SUBNORMAL or LARGE: every pair of specials meets in a binary op
 *   SUBNORMAL  |x| log-uniform over [smallest subnormal, 4 * smallest normal], random sign */
typedef enum { VKB_FILL_LARGE, VKB_FILL_SPECIAL, VKB_FILL_SUBNORMAL } vkb_fill_kind;
void vkb_fill_edge(gsl_rng *r, float *x, size_t n, vkb_dtype t, vkb_fill_kind kind);
/* Copy n floats into an input buffer's host copy in its type (VKB_F16: rounded to nearest even). */
void vkb_store_f32(vkb_buf *b, const float *x, size_t n);
/* Smallest positive normal of t (VKB_F32 2^-126, VKB_F16 2^-14): below it Vulkan may flush to zero. */
double vkb_min_normal(vkb_dtype t);
/* Round-trip through fp16 so host and device see identical values; stores fp16 bits. */
void vkb_f32_to_f16_array(const float *x, uint16_t *h, size_t n);
float vkb_f16_to_f32(uint16_t h);
uint16_t vkb_f32_to_f16(float f);  /* round to nearest even */

#endif
