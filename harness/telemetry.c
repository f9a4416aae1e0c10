/* telemetry.c — NVML through dlopen, powercap/hwmon/thermal through sysfs, and the sampler thread.
 * The NVML surface is declared here (types and values from the NVML header as documented in
 * notes/telemetry.md §1–§4); every entry point is optional except init and device lookup. */
#include <ctype.h>
#include <dirent.h>
#include <dlfcn.h>
#include <errno.h>
#include <fcntl.h>
#include <math.h>
#include <pthread.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "telemetry.h"
#include "topo.h"

/* ---------------- pure helpers ---------------- */

int vkb_tel_uuid_parse(const char *s, uint8_t out[16])
{
    int nd = 0;
    if (!strncmp(s, "GPU-", 4) || !strncmp(s, "MIG-", 4)) s += 4;
    for (; *s; s++) {
        if (*s == '-') continue;
        if (!isxdigit((unsigned char)*s) || nd >= 32) return -1;
        int v = isdigit((unsigned char)*s) ? *s - '0' : tolower((unsigned char)*s) - 'a' + 10;
        if (nd % 2 == 0) out[nd / 2] = (uint8_t)(v << 4);
        else out[nd / 2] = (uint8_t)(out[nd / 2] | v);
        nd++;
    }
    return nd == 32 ? 0 : -1;
}

void vkb_tel_pci_format(unsigned dom, unsigned bus, unsigned dev, unsigned fn, char *out, size_t len)
{
    snprintf(out, len, "%08X:%02X:%02X.%X", dom, bus, dev, fn);
}

int vkb_tel_pci_match(const char *busid, unsigned dom, unsigned bus, unsigned dev, unsigned fn)
{
    unsigned a = 0, b = 0, c = 0, d = 0;
    int end = -1;
    if (strspn(busid, "0123456789abcdefABCDEF:.") != strlen(busid)) return 0;  /* %x would take "0x", "-1" */
    if (sscanf(busid, "%x:%x:%x.%x%n", &a, &b, &c, &d, &end) == 4 && !busid[end])
        return a == dom && b == bus && c == dev && d == fn;
    if (sscanf(busid, "%x:%x.%x%n", &b, &c, &d, &end) == 3 && !busid[end]) return dom == 0 && b == bus && c == dev && d == fn;
    if (sscanf(busid, "%x:%x:%x%n", &a, &b, &c, &end) == 3 && !busid[end]) return a == dom && b == bus && c == dev && fn == 0;
    return 0;
}

int vkb_tel_counter_delta(uint64_t prev, uint64_t cur, uint64_t range, uint64_t *delta)
{
    if (cur >= prev) *delta = cur - prev;
    else if (range > 0 && prev <= range) *delta = range - prev + cur;
    else return -1;
    return 0;
}

void vkb_tel_track_add(vkb_tel_track *k, double t, uint64_t raw, uint64_t range)
{
    if (!k->started) {
        k->started = 1;
        k->raw_prev = raw;
        return;
    }
    if (raw == k->raw_prev) return;
    uint64_t d;
    if (vkb_tel_counter_delta(k->raw_prev, raw, range, &d)) {
        k->wrapped_bad = 1;
        d = 0;
    }
    k->raw_prev = raw;
    k->cum += d;
    if (k->updates++ == 0) {
        k->t_first = t;
        k->c_first = k->cum;
    }
    k->t_last = t;
    k->c_last = k->cum;
}

int vkb_tel_energy_eval(const vkb_tel_track *k, double unit_J, double wall_s, double calls, double *joules_per_call,
                        double *power_W, char *why, size_t len)
{
    *joules_per_call = *power_W = NAN;
    if (!k->started) snprintf(why, len, "insufficient_window (no counter reading)");
    else if (k->wrapped_bad) snprintf(why, len, "wrapped_unhandled (counter went backwards, range unknown)");
    else if (k->updates < VKB_TEL_MIN_UPDATES)
        snprintf(why, len, "insufficient_window (%d counter updates < %d in %.3g s)", k->updates, VKB_TEL_MIN_UPDATES,
                 wall_s);
    else if (!(k->t_last > k->t_first) || !(calls > 0) || !(wall_s > 0))
        snprintf(why, len, "error (empty window: %.3g s, %.3g calls)", wall_s, calls);
    else {
        *power_W = (double)(k->c_last - k->c_first) * unit_J / (k->t_last - k->t_first);
        *joules_per_call = *power_W * wall_s / calls;
        why[0] = 0;
        return 0;
    }
    return -1;
}

double vkb_clock_rate_MHz(double ticks1, double t1_s, double ticks2, double t2_s)
{
    double r = (ticks2 - ticks1) / (t2_s - t1_s) / 1e6;
    return ticks2 > ticks1 && t2_s > t1_s && isfinite(r) ? r : NAN;
}

int vkb_clock_judge(double mhz, double ref_mhz, int is_cpu, const char *na_why, char *out, size_t len)
{
    if (is_cpu && isnan(mhz)) snprintf(out, len, "NA (CPU device: no clock states to check; %s)", na_why && na_why[0] ? na_why : "no probe reading");
    else if (is_cpu) snprintf(out, len, "NA (CPU device: no clock states to check; the probe read %.0f MHz)", mhz);
    else if (isnan(mhz) || isnan(ref_mhz)) snprintf(out, len, "NA (%s)", na_why && na_why[0] ? na_why : "no clock reading");
    else if (mhz < VKB_CLOCK_LOW_FRAC * ref_mhz) {
        snprintf(out, len, "low: %.0f of %.0f MHz (< %.1f x the reference)", mhz, ref_mhz, VKB_CLOCK_LOW_FRAC);
        return 1;
    } else snprintf(out, len, "ok: %.0f of %.0f MHz", mhz, ref_mhz);
    return 0;
}

int vkb_clock_retime(double mhz, double ref, double pre, double post, int is_cpu, int low, int retimed,
                     size_t *slow_kept)
{
    int slow = !is_cpu && mhz < VKB_CLOCK_RETIME_FRAC * ref;
    if (retimed) {
        *slow_kept += (size_t)slow;
        return 0;
    }
    return low || (slow && (post >= 1.05 * pre || *slow_kept < VKB_CLOCK_SETTLED_MAX));
}

int vkb_clock_warm_step(double mhz, double ref, double *base, int *flat)
{
    if (mhz >= VKB_CLOCK_WARM_FRAC * ref) return 1;
    if (isnan(*base) || mhz >= 1.05 * *base) {
        *base = mhz;
        *flat = 0;
        return 0;
    }
    return ++*flat >= VKB_CLOCK_FLAT_STEPS && mhz >= VKB_CLOCK_LOW_FRAC * ref;
}

void vkb_tel_window_init(vkb_tel_window *w)
{
    memset(w, 0, sizeof(*w));
    w->power_max_W = w->temp_max_C = w->sm_min_MHz = w->mem_min_MHz = w->cpu_temp_max_C = NAN;
    w->throttle_s = NAN;
}

static double fmax_na(double a, double b) { return isnan(a) ? b : isnan(b) ? a : fmax(a, b); }
static double fmin_na(double a, double b) { return isnan(a) ? b : isnan(b) ? a : fmin(a, b); }

void vkb_tel_merge(vkb_tel_window *a, const vkb_tel_window *b)
{
    a->wall_s += b->wall_s;
    a->readings += b->readings;
    a->power_sum_W += b->power_sum_W;
    a->power_n += b->power_n;
    a->power_max_W = fmax_na(a->power_max_W, b->power_max_W);
    a->temp_max_C = fmax_na(a->temp_max_C, b->temp_max_C);
    a->sm_min_MHz = fmin_na(a->sm_min_MHz, b->sm_min_MHz);
    a->sm_sum_MHz += b->sm_sum_MHz;
    a->sm_n += b->sm_n;
    a->mem_min_MHz = fmin_na(a->mem_min_MHz, b->mem_min_MHz);
    a->mem_sum_MHz += b->mem_sum_MHz;
    a->mem_n += b->mem_n;
    a->reasons |= b->reasons;
    a->reasons_n += b->reasons_n;
    a->throttle_s += b->throttle_s;   /* NA in either window makes the total NA */
    a->cpu_temp_max_C = fmax_na(a->cpu_temp_max_C, b->cpu_temp_max_C);
}

void vkb_tel_reasons_str(uint64_t reasons, char *out, size_t len)
{
    static const char *const names[] = {"idle", "app_clocks", "sw_power_cap", "hw_slowdown", "sync_boost",
                                        "sw_thermal", "hw_thermal", "hw_power_brake", "display_clock"};
    snprintf(out, len, "0x%llx", (unsigned long long)reasons);
    const char *sep = " (";
    for (unsigned i = 0; i < 9; i++)
        if (reasons & (1ull << i)) {
            size_t u = strlen(out);
            snprintf(out + u, len - u, "%s%s", sep, names[i]);
            sep = ",";
        }
    if (reasons) {
        size_t u = strlen(out);
        snprintf(out + u, len - u, ")");
    }
}

/* ---------------- NVML ---------------- */

typedef int nvmlReturn_t;
typedef struct nvmlDevice_st *nvmlDevice_t;
typedef struct {
    char busIdLegacy[16];
    unsigned domain, bus, device, pciDeviceId, pciSubSystemId;
    char busId[32];
} nvmlPciInfo_t;
typedef struct {
    unsigned fieldId, scopeId;
    long long timestamp, latencyUsec;
    int valueType, nvmlReturn;
    union { double d; unsigned ui; unsigned long ul; unsigned long long ull; long long sll; int si; } value;
} nvmlFieldValue_t;

enum { NV_CLOCK_SM = 1, NV_CLOCK_MEM = 2, NV_TEMP_GPU = 0 };
enum { FI_POWER_INSTANT = 186, FI_VIOLATION_POWER = 74, FI_VIOLATION_THERMAL = 75 };

typedef struct nvml_api {
    nvmlReturn_t (*init)(void);
    nvmlReturn_t (*shutdown)(void);
    const char *(*error_string)(nvmlReturn_t);
    nvmlReturn_t (*count)(unsigned *);
    nvmlReturn_t (*by_index)(unsigned, nvmlDevice_t *);
    nvmlReturn_t (*by_pci)(const char *, nvmlDevice_t *);
    nvmlReturn_t (*uuid)(nvmlDevice_t, char *, unsigned);
    nvmlReturn_t (*name)(nvmlDevice_t, char *, unsigned);
    nvmlReturn_t (*pci_info)(nvmlDevice_t, nvmlPciInfo_t *);
    nvmlReturn_t (*driver_version)(char *, unsigned);
    nvmlReturn_t (*nvml_version)(char *, unsigned);
    nvmlReturn_t (*energy)(nvmlDevice_t, unsigned long long *);
    nvmlReturn_t (*power)(nvmlDevice_t, unsigned *);
    nvmlReturn_t (*fields)(nvmlDevice_t, int, nvmlFieldValue_t *);
    nvmlReturn_t (*temp)(nvmlDevice_t, int, unsigned *);
    nvmlReturn_t (*clock)(nvmlDevice_t, int, unsigned *);
    nvmlReturn_t (*max_clock)(nvmlDevice_t, int, unsigned *);
    nvmlReturn_t (*reasons)(nvmlDevice_t, unsigned long long *);
    nvmlReturn_t (*bus_width)(nvmlDevice_t, unsigned *);
    nvmlReturn_t (*power_limit)(nvmlDevice_t, unsigned *);
} nvml_api;

/* Versioned names first (nvtop, go-nvml do the same); the new clock-event name before the deprecated one. */
static const struct { const char *name[3]; size_t off; int required; } nvml_syms[] = {
    {{"nvmlInit_v2", "nvmlInit", NULL}, offsetof(nvml_api, init), 1},
    {{"nvmlShutdown", NULL, NULL}, offsetof(nvml_api, shutdown), 1},
    {{"nvmlErrorString", NULL, NULL}, offsetof(nvml_api, error_string), 1},
    {{"nvmlDeviceGetCount_v2", "nvmlDeviceGetCount", NULL}, offsetof(nvml_api, count), 1},
    {{"nvmlDeviceGetHandleByIndex_v2", "nvmlDeviceGetHandleByIndex", NULL}, offsetof(nvml_api, by_index), 1},
    {{"nvmlDeviceGetHandleByPciBusId_v2", "nvmlDeviceGetHandleByPciBusId", NULL}, offsetof(nvml_api, by_pci), 0},
    {{"nvmlDeviceGetUUID", NULL, NULL}, offsetof(nvml_api, uuid), 1},
    {{"nvmlDeviceGetName", NULL, NULL}, offsetof(nvml_api, name), 0},
    {{"nvmlDeviceGetPciInfo_v3", "nvmlDeviceGetPciInfo_v2", "nvmlDeviceGetPciInfo"}, offsetof(nvml_api, pci_info), 0},
    {{"nvmlSystemGetDriverVersion", NULL, NULL}, offsetof(nvml_api, driver_version), 0},
    {{"nvmlSystemGetNVMLVersion", NULL, NULL}, offsetof(nvml_api, nvml_version), 0},
    {{"nvmlDeviceGetTotalEnergyConsumption", NULL, NULL}, offsetof(nvml_api, energy), 0},
    {{"nvmlDeviceGetPowerUsage", NULL, NULL}, offsetof(nvml_api, power), 0},
    {{"nvmlDeviceGetFieldValues", NULL, NULL}, offsetof(nvml_api, fields), 0},
    {{"nvmlDeviceGetTemperature", NULL, NULL}, offsetof(nvml_api, temp), 0},
    {{"nvmlDeviceGetClockInfo", NULL, NULL}, offsetof(nvml_api, clock), 0},
    {{"nvmlDeviceGetMaxClockInfo", NULL, NULL}, offsetof(nvml_api, max_clock), 0},
    {{"nvmlDeviceGetCurrentClocksEventReasons", "nvmlDeviceGetCurrentClocksThrottleReasons", NULL},
     offsetof(nvml_api, reasons), 0},
    {{"nvmlDeviceGetMemoryBusWidth", NULL, NULL}, offsetof(nvml_api, bus_width), 0},
    {{"nvmlDeviceGetEnforcedPowerLimit", NULL, NULL}, offsetof(nvml_api, power_limit), 0},
};

struct vkb_nvml {
    void *lib;
    nvml_api f;
    nvmlDevice_t dev;
    char matched_by[64], name[96], uuid[96], busid[32], driver[80], version[80];
    int power_field;              /* field 186 works; else nvmlDeviceGetPowerUsage (1-s average on Ampere+) */
    int ok_energy, ok_power, ok_temp, ok_sm, ok_mem, ok_reasons, ok_violation;
    unsigned max_mem_MHz, bus_width, power_limit_mW, max_sm_MHz;
    char sensor_why[200];         /* which sensors are not supported, with NVML's code */
};

static const char *nv_err(const vkb_nvml *n, nvmlReturn_t r) { return n->f.error_string ? n->f.error_string(r) : "?"; }

static int field_u64(const vkb_nvml *n, unsigned id, uint64_t *v)
{
    nvmlFieldValue_t fv;
    memset(&fv, 0, sizeof(fv));
    fv.fieldId = id;
    if (!n->f.fields || n->f.fields(n->dev, 1, &fv) != 0 || fv.nvmlReturn != 0) return -1;
    switch (fv.valueType) {
    case 0: *v = (uint64_t)fv.value.d; break;
    case 1: *v = fv.value.ui; break;
    case 2: *v = fv.value.ul; break;
    case 3: *v = fv.value.ull; break;
    case 4: *v = (uint64_t)fv.value.sll; break;
    case 5: *v = (uint64_t)fv.value.si; break;
    default: return -1;
    }
    return 0;
}

/* Probe one sensor once: 1 if it answers, else 0 and its reason appended to n->sensor_why. */
static int probe(vkb_nvml *n, const char *what, int present, nvmlReturn_t r)
{
    size_t u = strlen(n->sensor_why);
    if (!present) snprintf(n->sensor_why + u, sizeof(n->sensor_why) - u, "%s%s: not_supported (no entry point)",
                           u ? "; " : "", what);
    else if (r != 0) snprintf(n->sensor_why + u, sizeof(n->sensor_why) - u, "%s%s: %s (nvml %d %s)", u ? "; " : "",
                              what, r == 4 ? "no_permission" : r == 3 ? "not_supported" : "error", r, nv_err(n, r));
    return present && r == 0;
}

static void nvml_probe(vkb_nvml *n)
{
    unsigned long long e;
    unsigned u;
    uint64_t v;
    nvml_api *f = &n->f;
    if (f->name) f->name(n->dev, n->name, sizeof(n->name));
    nvmlPciInfo_t pci;
    if (f->pci_info && f->pci_info(n->dev, &pci) == 0) snprintf(n->busid, sizeof(n->busid), "%s", pci.busId);
    if (f->driver_version) f->driver_version(n->driver, sizeof(n->driver));
    if (f->nvml_version) f->nvml_version(n->version, sizeof(n->version));
    n->ok_energy = probe(n, "energy", f->energy != NULL, f->energy ? f->energy(n->dev, &e) : 0);
    n->power_field = field_u64(n, FI_POWER_INSTANT, &v) == 0;
    n->ok_power = n->power_field || probe(n, "power", f->power != NULL, f->power ? f->power(n->dev, &u) : 0);
    n->ok_temp = probe(n, "temperature", f->temp != NULL, f->temp ? f->temp(n->dev, NV_TEMP_GPU, &u) : 0);
    n->ok_sm = probe(n, "sm_clock", f->clock != NULL, f->clock ? f->clock(n->dev, NV_CLOCK_SM, &u) : 0);
    n->ok_mem = probe(n, "mem_clock", f->clock != NULL, f->clock ? f->clock(n->dev, NV_CLOCK_MEM, &u) : 0);
    n->ok_reasons = probe(n, "clock_reasons", f->reasons != NULL, f->reasons ? f->reasons(n->dev, &e) : 0);
    n->ok_violation = field_u64(n, FI_VIOLATION_POWER, &v) == 0 && field_u64(n, FI_VIOLATION_THERMAL, &v) == 0;
    if (!n->ok_violation) probe(n, "throttle_time", 1, 3);
    if (!f->max_clock || f->max_clock(n->dev, NV_CLOCK_MEM, &n->max_mem_MHz)) n->max_mem_MHz = 0;
    if (!f->max_clock || f->max_clock(n->dev, NV_CLOCK_SM, &n->max_sm_MHz)) n->max_sm_MHz = 0;
    if (!f->bus_width || f->bus_width(n->dev, &n->bus_width)) n->bus_width = 0;
    if (!f->power_limit || f->power_limit(n->dev, &n->power_limit_mW)) n->power_limit_mW = 0;
}

vkb_nvml *vkb_nvml_open(const char *lib, const uint8_t uuid[16], int has_pci, unsigned dom, unsigned bus,
                        unsigned dev, unsigned fn, char *why, size_t len)
{
    const char *name = lib ? lib : "libnvidia-ml.so.1";
    vkb_nvml *n = calloc(1, sizeof(*n));
    if (!n) {
        snprintf(why, len, "error: out of memory");
        return NULL;
    }
    n->lib = dlopen(name, RTLD_LAZY | RTLD_LOCAL);
    if (!n->lib) {
        const char *e = dlerror();
        snprintf(why, len, "not_present (dlopen %s: %s)", name, e ? e : "failed");
        goto fail;
    }
    for (size_t i = 0; i < sizeof(nvml_syms) / sizeof(nvml_syms[0]); i++) {
        void *p = NULL;
        for (int j = 0; j < 3 && !p && nvml_syms[i].name[j]; j++) p = dlsym(n->lib, nvml_syms[i].name[j]);
        if (!p && nvml_syms[i].required) {
            snprintf(why, len, "error (%s lacks %s)", name, nvml_syms[i].name[0]);
            goto fail;
        }
        memcpy((char *)&n->f + nvml_syms[i].off, &p, sizeof(p));  /* POSIX: dlsym's pointer is the function */
    }
    nvmlReturn_t r = n->f.init();
    if (r != 0) {
        snprintf(why, len, "error (nvmlInit: %s, code %d)", nv_err(n, r), r);
        n->f.shutdown = NULL;
        goto fail;
    }
    unsigned count = 0;
    if (n->f.count(&count) != 0) count = 0;
    for (unsigned i = 0; i < count && !n->matched_by[0]; i++) {
        nvmlDevice_t d;
        char text[96];
        uint8_t b[16];
        if (n->f.by_index(i, &d) || n->f.uuid(d, text, sizeof(text)) || vkb_tel_uuid_parse(text, b)) continue;
        if (memcmp(b, uuid, 16) == 0) {
            n->dev = d;
            snprintf(n->uuid, sizeof(n->uuid), "%s", text);
            snprintf(n->matched_by, sizeof(n->matched_by), "uuid");
        }
    }
    char busid[32];
    vkb_tel_pci_format(dom, bus, dev, fn, busid, sizeof(busid));
    if (!n->matched_by[0] && has_pci && n->f.by_pci && n->f.by_pci(busid, &n->dev) == 0) {
        n->f.uuid(n->dev, n->uuid, sizeof(n->uuid));
        snprintf(n->matched_by, sizeof(n->matched_by), "pci bus id %s (UUID differed)", busid);
    }
    if (!n->matched_by[0]) {
        snprintf(why, len, "not_present (none of %u NVML devices has the Vulkan UUID%s%s)", count,
                 has_pci ? " or PCI bus id " : "", has_pci ? busid : "");
        goto fail;
    }
    nvml_probe(n);
    return n;
fail:
    vkb_nvml_close(n);
    return NULL;
}

void vkb_nvml_close(vkb_nvml *n)
{
    if (!n) return;
    if (n->f.shutdown) n->f.shutdown();
    if (n->lib) dlclose(n->lib);
    free(n);
}

void vkb_nvml_print(FILE *f, const vkb_nvml *n)
{
    fprintf(f, "nvml_device: %s\nnvml_uuid: %s\nnvml_matched_by: %s\nnvml_bus_id: %s\nnvml_driver: %s\nnvml_version: %s\n",
            n->name, n->uuid, n->matched_by, n->busid[0] ? n->busid : "NA", n->driver, n->version);
    fprintf(f, "nvml_power_source: %s\n", n->power_field ? "field 186 (instantaneous)"
                                          : n->ok_power ? "nvmlDeviceGetPowerUsage (1-s average on Ampere and newer)"
                                                        : "NA");
    if (n->power_limit_mW) fprintf(f, "nvml_power_limit_W: %.1f\n", n->power_limit_mW / 1e3);
    else fprintf(f, "nvml_power_limit_W: NA (not readable)\n");
    fprintf(f, "nvml_max_mem_clock_MHz: %u\nnvml_memory_bus_width_bits: %u\n", n->max_mem_MHz, n->bus_width);
    fprintf(f, "nvml_sensors_missing: %s\n", n->sensor_why[0] ? n->sensor_why : "none");
}

double vkb_nvml_peak_Bps(const vkb_nvml *n, char *why, size_t len)
{
    if (!n->max_mem_MHz || !n->bus_width) {
        snprintf(why, len, "NVML gave no %s", !n->max_mem_MHz ? "max memory clock" : "memory bus width");
        return NAN;
    }
    why[0] = 0;
    return 2.0 * n->max_mem_MHz * 1e6 * n->bus_width / 8.0;
}

double vkb_nvml_max_sm_Hz(const vkb_nvml *n, char *why, size_t len)
{
    if (!n->max_sm_MHz) {
        snprintf(why, len, "NVML gave no max SM clock (nvmlDeviceGetMaxClockInfo)");
        return NAN;
    }
    why[0] = 0;
    return n->max_sm_MHz * 1e6;
}

/* ---------------- sysfs ---------------- */

typedef struct zone {
    int fd;
    uint64_t range;
    char name[64];
} zone;

static int read_fd_u64(int fd, uint64_t *v)
{
    char buf[32];
    ssize_t k = pread(fd, buf, sizeof(buf) - 1, 0);
    if (k <= 0) return -1;
    buf[k] = 0;
    char *end;
    errno = 0;
    long long x = strtoll(buf, &end, 10);
    if (errno || end == buf) return -1;
    *v = (uint64_t)x;
    return 0;
}

static int read_text(const char *path, char *out, size_t len)
{
    FILE *f = fopen(path, "r");
    if (!f) return -1;
    if (!fgets(out, (int)len, f)) out[0] = 0;
    fclose(f);
    out[strcspn(out, "\n")] = 0;
    return 0;
}

const char *vkb_tel_errno_status(int err)
{
    return err == EACCES || err == EPERM ? "no_permission" : err == ENOENT || err == ENOTDIR ? "not_present" : "error";
}

/* Why a sysfs file or directory cannot be used, in the NA vocabulary. */
static void sys_why(char *why, size_t len, int err, const char *path)
{
    snprintf(why, len, "%s (%s: %s)", vkb_tel_errno_status(err), path, strerror(err));
}

struct vkb_tel {
    vkb_nvml *nv;
    char gpu_why[240], cpu_e_why[240], cpu_t_why[240], pin_why[120];
    zone rapl[8];
    int nrapl;
    int temp_fd[32];
    int ntemp;
    int pu, pinned_pu;
    double interval;
    pthread_t th;
    pthread_mutex_t mu;
    pthread_cond_t cv;
    int thread, active, quit;
    double t0;
    vkb_tel_window acc;
    uint64_t mark, v_power0, v_thermal0;
    int violation0;
};

static void find_rapl(vkb_tel *t, const char *sysfs)
{
    char dir[512], path[800], name[64];
    snprintf(dir, sizeof(dir), "%s/powercap", sysfs);
    DIR *d = opendir(dir);
    if (!d) {
        sys_why(t->cpu_e_why, sizeof(t->cpu_e_why), errno, dir);
        return;
    }
    struct dirent *e;
    int denied = 0, zones = 0;
    while ((e = readdir(d)) && t->nrapl < 8) {
        unsigned idx;
        char extra;
        if (sscanf(e->d_name, "intel-rapl:%u%c", &idx, &extra) != 1) continue;  /* packages only, not sub-zones */
        snprintf(path, sizeof(path), "%s/%s/name", dir, e->d_name);
        if (read_text(path, name, sizeof(name)) || strncmp(name, "package", 7)) continue;
        zones++;
        snprintf(path, sizeof(path), "%s/%s/energy_uj", dir, e->d_name);
        int fd = open(path, O_RDONLY | O_CLOEXEC);
        uint64_t v;
        if (fd < 0 || read_fd_u64(fd, &v)) {
            int err = fd < 0 ? errno : EIO;
            if (fd >= 0) close(fd);
            sys_why(t->cpu_e_why, sizeof(t->cpu_e_why), err, path);
            denied = 1;
            continue;
        }
        zone *z = &t->rapl[t->nrapl++];
        z->fd = fd;
        snprintf(z->name, sizeof(z->name), "%s:%s", e->d_name, name);
        snprintf(path, sizeof(path), "%s/%s/max_energy_range_uj", dir, e->d_name);
        int rf = open(path, O_RDONLY | O_CLOEXEC);
        if (rf < 0 || read_fd_u64(rf, &z->range)) z->range = 0;  /* a wrap then reads wrapped_unhandled */
        if (rf >= 0) close(rf);
    }
    closedir(d);
    if (t->nrapl) t->cpu_e_why[0] = 0;
    else if (!denied && !zones) snprintf(t->cpu_e_why, sizeof(t->cpu_e_why), "not_present (no package zone in %s)", dir);
}

/* CPU temperature inputs: hwmon drivers and thermal zones that belong to the CPU package. */
static int cpu_sensor(const char *name)
{
    static const char *const cpu[] = {"coretemp", "k10temp", "zenpower", "cpu_thermal", "x86_pkg_temp", "cpu-thermal"};
    for (size_t i = 0; i < sizeof(cpu) / sizeof(cpu[0]); i++)
        if (!strcmp(name, cpu[i])) return 1;
    return 0;
}

static void add_temp(vkb_tel *t, const char *path)
{
    if (t->ntemp >= 32) return;
    int fd = open(path, O_RDONLY | O_CLOEXEC);
    uint64_t v;
    if (fd >= 0 && read_fd_u64(fd, &v) == 0) {
        t->temp_fd[t->ntemp++] = fd;
        return;
    }
    int err = fd < 0 ? errno : EIO;
    if (fd >= 0) close(fd);
    if (!t->ntemp) sys_why(t->cpu_t_why, sizeof(t->cpu_t_why), err, path);
}

static void find_temps(vkb_tel *t, const char *sysfs)
{
    static const struct { const char *dir, *prefix, *namefile; } src[] = {{"hwmon", "hwmon", "name"},
                                                                          {"thermal", "thermal_zone", "type"}};
    char dir[512], path[800], name[64];
    snprintf(t->cpu_t_why, sizeof(t->cpu_t_why), "not_present (no coretemp/k10temp/zenpower hwmon or CPU thermal zone "
                                                 "under %s)", sysfs);
    for (int s = 0; s < 2; s++) {
        snprintf(dir, sizeof(dir), "%s/%s", sysfs, src[s].dir);
        DIR *d = opendir(dir);
        if (!d) continue;
        struct dirent *e;
        while ((e = readdir(d))) {
            if (strncmp(e->d_name, src[s].prefix, strlen(src[s].prefix))) continue;
            snprintf(path, sizeof(path), "%s/%s/%s", dir, e->d_name, src[s].namefile);
            if (read_text(path, name, sizeof(name)) || !cpu_sensor(name)) continue;
            if (s == 1) {
                snprintf(path, sizeof(path), "%s/%s/temp", dir, e->d_name);
                add_temp(t, path);
                continue;
            }
            snprintf(path, sizeof(path), "%s/%s", dir, e->d_name);
            DIR *h = opendir(path);
            struct dirent *f;
            while (h && (f = readdir(h))) {
                size_t l = strlen(f->d_name);
                if (strncmp(f->d_name, "temp", 4) || l < 6 || strcmp(f->d_name + l - 6, "_input")) continue;
                char p2[1100];
                snprintf(p2, sizeof(p2), "%s/%s", path, f->d_name);
                add_temp(t, p2);
            }
            if (h) closedir(h);
        }
        closedir(d);
    }
    if (t->ntemp) t->cpu_t_why[0] = 0;
}

/* ---------------- the sampler ---------------- */

static double mono_s(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + 1e-9 * (double)ts.tv_nsec;
}

/* One tick: energy counters always, the rest when full. Called with the mutex released
 * (NVML calls can take a while), then folded under it. */
static void sample(vkb_tel *t, int full)
{
    vkb_tel_window r;
    vkb_tel_window_init(&r);
    uint64_t raw[9];
    int have[9] = {0};
    vkb_nvml *n = t->nv;
    double now = mono_s();
    unsigned long long e;
    if (n && n->ok_energy && n->f.energy(n->dev, &e) == 0) raw[8] = e, have[8] = 1;
    for (int z = 0; z < t->nrapl; z++) have[z] = read_fd_u64(t->rapl[z].fd, &raw[z]) == 0;
    if (full) {
        unsigned u;
        uint64_t v;
        if (n && n->power_field && field_u64(n, FI_POWER_INSTANT, &v) == 0) r.power_sum_W = r.power_max_W = (double)v / 1e3;
        else if (n && n->ok_power && n->f.power(n->dev, &u) == 0) r.power_sum_W = r.power_max_W = u / 1e3;
        r.power_n = !isnan(r.power_max_W);
        if (isnan(r.power_max_W)) r.power_sum_W = 0;
        if (n && n->ok_temp && n->f.temp(n->dev, NV_TEMP_GPU, &u) == 0) r.temp_max_C = u;
        if (n && n->ok_sm && n->f.clock(n->dev, NV_CLOCK_SM, &u) == 0) r.sm_min_MHz = r.sm_sum_MHz = u, r.sm_n = 1;
        if (n && n->ok_mem && n->f.clock(n->dev, NV_CLOCK_MEM, &u) == 0) r.mem_min_MHz = r.mem_sum_MHz = u, r.mem_n = 1;
        if (n && n->ok_reasons && n->f.reasons(n->dev, &e) == 0) r.reasons = e, r.reasons_n = 1;
        for (int i = 0; i < t->ntemp; i++)
            if (read_fd_u64(t->temp_fd[i], &v) == 0) r.cpu_temp_max_C = fmax_na(r.cpu_temp_max_C, (double)v / 1e3);
    }
    r.readings = 1;
    pthread_mutex_lock(&t->mu);
    if (t->active) {
        double keep = t->acc.throttle_s;
        vkb_tel_merge(&t->acc, &r);
        t->acc.throttle_s = keep;
        if (have[8]) vkb_tel_track_add(&t->acc.gpu_energy, now, raw[8], 0);
        for (int z = 0; z < t->nrapl; z++)
            if (have[z]) vkb_tel_track_add(&t->acc.cpu_energy[z], now, raw[z], t->rapl[z].range);
        t->mark |= r.reasons;
    }
    pthread_mutex_unlock(&t->mu);
}

static void *sampler(void *arg)
{
    vkb_tel *t = arg;
    char why[120] = "";
    int pu = t->pu >= 0 ? vkb_topo_bind_pu(t->pu, why, sizeof(why)) : -1;
    unsigned tick = 0;
    pthread_mutex_lock(&t->mu);
    t->pinned_pu = pu;
    if (t->pu >= 0) snprintf(t->pin_why, sizeof(t->pin_why), "%s", why);
    while (!t->quit) {
        if (!t->active) {
            pthread_cond_wait(&t->cv, &t->mu);
            tick = 0;
            continue;
        }
        pthread_mutex_unlock(&t->mu);
        sample(t, tick++ % 4 == 0);
        struct timespec ts = {0, (long)(t->interval * 1e9)};
        nanosleep(&ts, NULL);
        pthread_mutex_lock(&t->mu);
    }
    pthread_mutex_unlock(&t->mu);
    return NULL;
}

vkb_tel *vkb_tel_open(const vkb_tel_cfg *cfg)
{
    vkb_tel *t = calloc(1, sizeof(*t));
    if (!t) return NULL;
    const char *sysfs = cfg->sysfs ? cfg->sysfs : "/sys/class";
    t->pu = cfg->pu;
    t->pinned_pu = -1;
    t->interval = cfg->interval_s > 0 ? cfg->interval_s : 5e-3;
    snprintf(t->pin_why, sizeof(t->pin_why), "sampler not started (nothing to sample)");
    if (cfg->gpu)
        t->nv = vkb_nvml_open(cfg->nvml_lib, cfg->uuid, cfg->has_pci, cfg->pci[0], cfg->pci[1], cfg->pci[2],
                              cfg->pci[3], t->gpu_why, sizeof(t->gpu_why));
    else snprintf(t->gpu_why, sizeof(t->gpu_why), "%s", cfg->gpu_why ? cfg->gpu_why : "GPU sensors not requested");
    find_rapl(t, sysfs);
    find_temps(t, sysfs);
    pthread_mutex_init(&t->mu, NULL);
    pthread_cond_init(&t->cv, NULL);
    vkb_tel_window_init(&t->acc);
    if ((t->nv || t->nrapl || t->ntemp) && pthread_create(&t->th, NULL, sampler, t) == 0) {
        t->thread = 1;
        snprintf(t->pin_why, sizeof(t->pin_why), "%s", t->pu >= 0 ? "pending" : "not pinned (no second core)");
    }
    return t;
}

void vkb_tel_close(vkb_tel *t)
{
    if (!t) return;
    if (t->thread) {
        pthread_mutex_lock(&t->mu);
        t->quit = 1;
        pthread_cond_signal(&t->cv);
        pthread_mutex_unlock(&t->mu);
        pthread_join(t->th, NULL);
    }
    pthread_mutex_destroy(&t->mu);
    pthread_cond_destroy(&t->cv);
    for (int i = 0; i < t->nrapl; i++) close(t->rapl[i].fd);
    for (int i = 0; i < t->ntemp; i++) close(t->temp_fd[i]);
    vkb_nvml_close(t->nv);
    free(t);
}

const vkb_nvml *vkb_tel_nvml(const vkb_tel *t) { return t ? t->nv : NULL; }
int vkb_tel_has_gpu_energy(const vkb_tel *t) { return t && t->nv && t->nv->ok_energy; }
const char *vkb_tel_gpu_why(const vkb_tel *t) { return t->gpu_why; }
const char *vkb_tel_cpu_energy_why(const vkb_tel *t) { return t->cpu_e_why; }
const char *vkb_tel_cpu_temp_why(const vkb_tel *t) { return t->cpu_t_why; }

void vkb_tel_print(FILE *f, vkb_tel *t)
{
    fprintf(f, "gpu_sensors: %s\n", t->nv ? "nvml" : t->gpu_why);
    if (t->nv) vkb_nvml_print(f, t->nv);
    fprintf(f, "cpu_energy: ");
    for (int i = 0; i < t->nrapl; i++) fprintf(f, "%spowercap:%s", i ? ", " : "", t->rapl[i].name);
    fprintf(f, "%s\ncpu_temperature: %s\n", t->nrapl ? "" : t->cpu_e_why,
            t->ntemp ? "hwmon/thermal (max over CPU inputs)" : t->cpu_t_why);
    fprintf(f, "sampler_interval_s: %.3g (energy counters; other sensors every 4th tick)\n", t->interval);
    pthread_mutex_lock(&t->mu);
    if (t->pinned_pu >= 0) fprintf(f, "sampler_pu: %d\n", t->pinned_pu);
    else fprintf(f, "sampler_pu: NA (%s)\n", t->pin_why);
    pthread_mutex_unlock(&t->mu);
}

static int violation(const vkb_tel *t, uint64_t *p, uint64_t *th)
{
    return t->nv && t->nv->ok_violation && field_u64(t->nv, FI_VIOLATION_POWER, p) == 0 &&
           field_u64(t->nv, FI_VIOLATION_THERMAL, th) == 0;
}

void vkb_tel_begin(vkb_tel *t)
{
    uint64_t p = 0, th = 0;
    int ok = violation(t, &p, &th);
    pthread_mutex_lock(&t->mu);
    vkb_tel_window_init(&t->acc);
    t->acc.ncpu = t->nrapl;
    t->v_power0 = p;
    t->v_thermal0 = th;
    t->violation0 = ok;
    t->mark = 0;
    t->t0 = mono_s();
    t->active = 1;
    pthread_cond_signal(&t->cv);
    pthread_mutex_unlock(&t->mu);
}

void vkb_tel_end(vkb_tel *t, vkb_tel_window *w)
{
    pthread_mutex_lock(&t->mu);
    t->active = 0;
    *w = t->acc;
    w->wall_s = mono_s() - t->t0;
    int ok0 = t->violation0;
    uint64_t p0 = t->v_power0, th0 = t->v_thermal0;
    pthread_mutex_unlock(&t->mu);
    uint64_t p, th;
    /* Cumulative ns counters: they must not go backwards, or the field id means something else here. */
    if (ok0 && violation(t, &p, &th) && p >= p0 && th >= th0) w->throttle_s = (double)(p - p0 + th - th0) * 1e-9;
}

int vkb_tel_gpu_updates(vkb_tel *t)
{
    pthread_mutex_lock(&t->mu);
    int u = t->acc.gpu_energy.updates;
    pthread_mutex_unlock(&t->mu);
    return u;
}

uint64_t vkb_tel_mark(vkb_tel *t)
{
    pthread_mutex_lock(&t->mu);
    uint64_t m = t->mark;
    t->mark = 0;
    pthread_mutex_unlock(&t->mu);
    return m;
}
