/* telrow.c — per-row telemetry; see telrow.h. Energy per call comes from the energy counter over a
 * window of back-to-back batches (hot), never from integrating power readings (notes/telemetry.md §5). */
#include <math.h>
#include <string.h>
#include <time.h>

#include "telrow.h"
#include "fsutil.h"

static void add_why(char *s, size_t len, const char *what, const char *why)
{
    size_t u = strlen(s);
    if (why && why[0]) snprintf(s + u, len - u, "%s%s: %s", u ? "; " : "", what, why);
}

void vkb_telrow_open(vkb_telrow *t, vkb_topo *topo, const vkb_devinfo *d, int off, int discard)
{
    char gpu_why[120];
    memset(t, 0, sizeof(*t));
    t->discard = discard;
    vkb_topo_pick(topo, d->has_pci, d->pci_domain, d->pci_bus, d->pci_dev, d->pci_func);
    t->ref_pu = topo->main_pu;
    snprintf(t->ref_pin_why, sizeof(t->ref_pin_why), "%s", t->ref_pu < 0 ? topo->locality : "");
    if (off) {
        snprintf(t->off_why, sizeof(t->off_why), "telemetry off (--no-telemetry)");
        return;
    }
    snprintf(gpu_why, sizeof(gpu_why), "not_present (not an NVIDIA device: vendor 0x%04x, NVML not consulted)",
             d->vendor);
    vkb_tel_cfg cfg = {.gpu = d->vendor == 0x10DE, .gpu_why = gpu_why, .uuid = d->uuid_bytes,
                       .has_pci = d->has_pci, .pci = {d->pci_domain, d->pci_bus, d->pci_dev, d->pci_func},
                       .pu = topo->sampler_pu};
    t->tel = vkb_tel_open(&cfg);
    if (!t->tel) snprintf(t->off_why, sizeof(t->off_why), "telemetry unavailable (out of memory)");
}

void vkb_telrow_close(vkb_telrow *t)
{
    vkb_tel_close(t->tel);
    t->tel = NULL;
}

const vkb_nvml *vkb_telrow_nvml(const vkb_telrow *t) { return vkb_tel_nvml(t->tel); }

void vkb_telrow_print(FILE *f, const vkb_telrow *t)
{
    if (t->ref_pu >= 0) fprintf(f, "reference_pu: %d\n", t->ref_pu);
    else fprintf(f, "reference_pu: NA (%s)\n", t->ref_pin_why);
    if (!t->tel) {
        fprintf(f, "telemetry: %s\n", t->off_why);
        return;
    }
    fprintf(f, "telemetry: on%s\n", t->discard ? ", throttled samples discarded (--discard-throttled)" : "");
    vkb_tel_print(f, t->tel);
    fprintf(f, "energy_window: >= %.1f s of back-to-back (hot) batches of the case, extended to %.1f s while the "
               "counter updated < %d times; energy per call = mean power between first and last update x window / "
               "calls\n", VKB_ENERGY_MIN_S, VKB_ENERGY_MAX_S, VKB_TEL_MIN_UPDATES);
}

static int cpu_sensors(const vkb_telrow *t)
{
    return t->tel && (!vkb_tel_cpu_energy_why(t->tel)[0] || !vkb_tel_cpu_temp_why(t->tel)[0]);
}

void vkb_telrow_ref_begin(vkb_telrow *t)
{
    char why[120];
    t->have_ref = 0;
    if (t->ref_pu >= 0) {
        t->saved_bind = vkb_topo_bind_save();
        if (vkb_topo_bind_pu(t->ref_pu, why, sizeof(why)) < 0) snprintf(t->ref_pin_why, sizeof(t->ref_pin_why), "%s", why);
    }
    t->in_ref = cpu_sensors(t);
    if (t->in_ref) vkb_tel_begin(t->tel);
}

void vkb_telrow_ref_end(vkb_telrow *t, double tref, double frac, vkb_result *r)
{
    char why[200] = "";
    if (t->in_ref) {
        vkb_tel_end(t->tel, &t->ref);
        t->in_ref = 0;
        t->have_ref = 1;
    }
    /* Restore before anything else runs: threads created later (OpenMP) inherit the binding. */
    vkb_topo_bind_restore(t->saved_bind);
    t->saved_bind = NULL;
    if (!t->tel) return;
    const char *ew = vkb_tel_cpu_energy_why(t->tel);
    if (ew[0]) add_why(r->cpu_sensor_why, sizeof(r->cpu_sensor_why), "energy", ew);
    else {
        double sum = 0;
        for (int z = 0; z < t->ref.ncpu && !why[0]; z++) {
            double j, p;
            if (vkb_tel_energy_eval(&t->ref.cpu_energy[z], 1e-6, tref, frac, &j, &p, why, sizeof(why)) == 0) sum += j;
        }
        if (why[0]) add_why(r->cpu_sensor_why, sizeof(r->cpu_sensor_why), "energy", why);
        else r->ref_energy_J = sum;
    }
}

void vkb_telrow_case_begin(vkb_telrow *t)
{
    t->discarded = t->kept_throttled = t->streak = 0;
    t->cooldown_s = 0.05;
    if (!t->tel) return;
    vkb_tel_begin(t->tel);
    t->in_case = 1;
}

int vkb_telrow_reject(vkb_telrow *t, double elapsed, double timeout)
{
    if (!t->tel || !t->discard || !(vkb_tel_mark(t->tel) & VKB_TEL_THROTTLE_BITS)) {
        t->streak = 0;
        return 0;
    }
    if (elapsed >= timeout) {
        t->kept_throttled++;
        return 0;
    }
    /* nvbench: sleep 50 ms, growing 1.5x (to 0.5 s) after more than 2 discards in a row. */
    if (++t->streak > 2) t->cooldown_s = fmin(1.5 * t->cooldown_s, 0.5);
    struct timespec ts = {(time_t)t->cooldown_s, (long)(fmod(t->cooldown_s, 1.0) * 1e9)};
    nanosleep(&ts, NULL);
    vkb_tel_mark(t->tel);   /* what the cool-down saw belongs to no sample */
    t->discarded++;
    return 1;
}

/* Energy columns from a window of `calls` back-to-back calls over `wall` seconds. */
static void energy_eval(vkb_result *r, const vkb_tel_window *w, double wall, double calls, char *why, size_t len)
{
    double j, p;
    r->energy_window_s = wall;
    r->energy_updates = w->gpu_energy.updates;
    if (why[0]) return;
    if (vkb_tel_energy_eval(&w->gpu_energy, 1e-3, wall, calls, &j, &p, why, len) == 0) {
        r->energy_per_call_J = j;
        r->gflop_per_J = r->flops > 0 ? r->flops / 1e9 / j : NAN;
        r->gb_per_J = r->bytes > 0 ? r->bytes / 1e9 / j : NAN;
    }
}

int vkb_telrow_energy_ready(vkb_telrow *t, double seconds)
{
    return seconds >= VKB_ENERGY_MAX_S ||
           (seconds >= VKB_ENERGY_MIN_S && vkb_tel_gpu_updates(t->tel) >= VKB_TEL_MIN_UPDATES);
}

/* Repeat the case's dispatch sequence until the energy window is long enough; fill the energy columns. */
static void energy_window(vkb_telrow *t, vkb_gpu *g, vkb_result *r, vkb_tel_window *w, char *why, size_t len)
{
    double per_call = !isnan(r->time_median_s) && r->time_median_s > 0 ? r->time_median_s : 1e-3;
    uint32_t batch = (uint32_t)fmin(fmax(ceil(0.1 / per_call), 1), 10000);
    double gpu = 0, calls = 0, t0 = vkb_now_s();
    vkb_tel_begin(t->tel);
    while (!vkb_telrow_energy_ready(t, gpu)) {
        double s;
        if (vkb_gpu_run(g, batch, 0, &s)) {
            snprintf(why, len, "error (energy window: vkb_gpu_run failed)");
            break;
        }
        gpu += s;
        calls += batch;
    }
    double wall = vkb_now_s() - t0;
    vkb_tel_end(t->tel, w);
    energy_eval(r, w, wall, calls, why, len);
}

static double mean_or_na(double sum, int n) { return n > 0 ? sum / n : NAN; }

/* The sensor columns of a closed window w (the samples', merged with the energy window's). */
static void sensor_columns(vkb_telrow *t, const vkb_tel_window *w, const char *ewhy, vkb_result *r)
{
    r->power_mean_W = mean_or_na(w->power_sum_W, w->power_n);
    r->power_max_W = w->power_max_W;
    r->gpu_temp_max_C = w->temp_max_C;
    r->sm_clock_min_MHz = w->sm_min_MHz;
    r->sm_clock_mean_MHz = mean_or_na(w->sm_sum_MHz, w->sm_n);
    r->mem_clock_min_MHz = w->mem_min_MHz;
    r->mem_clock_mean_MHz = mean_or_na(w->mem_sum_MHz, w->mem_n);
    r->throttle_time_s = w->throttle_s;
    if (w->reasons_n) vkb_tel_reasons_str(w->reasons, r->clock_reasons, sizeof(r->clock_reasons));
    if (w->reasons_n || !isnan(w->throttle_s)) {
        snprintf(r->throttled, sizeof(r->throttled), "%s",
                 (w->reasons & VKB_TEL_THROTTLE_BITS) || w->throttle_s > 0 || t->kept_throttled ? "yes" : "no");
        r->throttle_discarded = t->discarded;   /* a count only where throttling could be seen: else NA, not 0 */
    }
    r->cpu_temp_max_C = fmax(w->cpu_temp_max_C, t->have_ref ? t->ref.cpu_temp_max_C : NAN);  /* fmax skips a NAN */
    add_why(r->telemetry_why, sizeof(r->telemetry_why), "energy", ewhy);
    if (t->kept_throttled) {
        char s[80];
        snprintf(s, sizeof(s), "%d samples kept throttled at the timeout", t->kept_throttled);
        add_why(r->telemetry_why, sizeof(r->telemetry_why), "throttle", s);
    }
}

int vkb_telrow_energy_shared(const vkb_telrow *t, int hot)
{
    return hot && t->tel && vkb_tel_has_gpu_energy(t->tel) && !t->discard;
}

void vkb_telrow_case_end(vkb_telrow *t, vkb_gpu *g, vkb_result *r)
{
    vkb_tel_window w, e;
    char ewhy[200] = "";
    if (!t->tel || !t->in_case) return;
    vkb_tel_end(t->tel, &w);
    t->in_case = 0;
    if (vkb_tel_has_gpu_energy(t->tel)) {
        energy_window(t, g, r, &e, ewhy, sizeof(ewhy));
        vkb_tel_merge(&w, &e);
    } else {
        snprintf(ewhy, sizeof(ewhy), "%s", vkb_tel_nvml(t->tel) ? "not_supported (no energy counter)" : "");
    }
    sensor_columns(t, &w, ewhy, r);
}

void vkb_telrow_case_end_shared(vkb_telrow *t, double wall, double calls, vkb_result *r)
{
    vkb_tel_window w;
    char ewhy[200] = "";
    if (!t->tel || !t->in_case) return;
    vkb_tel_end(t->tel, &w);
    t->in_case = 0;
    energy_eval(r, &w, wall, calls, ewhy, sizeof(ewhy));
    sensor_columns(t, &w, ewhy, r);
}

void vkb_telrow_finish(vkb_telrow *t, vkb_result *r)
{
    vkb_tel_window w;
    if (t->in_case) vkb_tel_end(t->tel, &w), t->in_case = 0;
    if (t->in_ref) vkb_tel_end(t->tel, &w), t->in_ref = 0;
    vkb_topo_bind_restore(t->saved_bind);
    t->saved_bind = NULL;
    const char *gw = !t->tel ? t->off_why : vkb_tel_nvml(t->tel) ? "" : vkb_tel_gpu_why(t->tel);
    int timed = !isnan(r->time_median_s);
    if (!timed && !r->telemetry_why[0]) add_why(r->telemetry_why, sizeof(r->telemetry_why), "gpu", "case not timed");
    else if (gw[0]) add_why(r->telemetry_why, sizeof(r->telemetry_why), "gpu", gw);
    if (!r->throttled[0]) snprintf(r->throttled, sizeof(r->throttled), "NA");
    if (!r->clock_reasons[0]) snprintf(r->clock_reasons, sizeof(r->clock_reasons), "NA");
    if (isnan(r->ref_energy_J) && !r->cpu_sensor_why[0])
        add_why(r->cpu_sensor_why, sizeof(r->cpu_sensor_why), "energy",
                !t->tel ? t->off_why : isnan(r->ref_time_s) ? "reference not run" : vkb_tel_cpu_energy_why(t->tel));
    if (isnan(r->cpu_temp_max_C) && t->tel && vkb_tel_cpu_temp_why(t->tel)[0])
        add_why(r->cpu_sensor_why, sizeof(r->cpu_sensor_why), "temperature", vkb_tel_cpu_temp_why(t->tel));
    else if (isnan(r->cpu_temp_max_C) && !t->tel)
        add_why(r->cpu_sensor_why, sizeof(r->cpu_sensor_why), "temperature", t->off_why);
}
