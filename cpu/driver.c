/* driver.c — runs, times and validates one case's optimized CPU baseline (see cpu.h). */
#include <dirent.h>
#include <math.h>
#include <sched.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <hwloc.h>
#include <omp.h>
#include <pthread.h>

#include "check.h"
#include "cpu.h"
#include "stats.h"
#include "fsutil.h"

/* OpenBLAS's own controls (pthreads build); not in GSL's CBLAS header. */
void openblas_set_num_threads(int n);
int openblas_setaffinity(int thread_idx, size_t cpusetsize, cpu_set_t *cpu_set);

#define MIN_RUNS 5
#define MAX_RUNS 50
#define MIN_TIME 0.1   /* seconds of timed runs to aim for (every case runs one: keep suites fast) */
#define SLOW_RUN 0.5   /* a first run longer than this: only 3 timed runs */

static hwloc_topology_t topo;

/* GSL (the scalar references, the checks) calls OpenBLAS too: single-threaded unless a baseline runs. */
__attribute__((constructor)) static void blas_single(void) { openblas_set_num_threads(1); }
static int ncores = 1;
static pthread_once_t cores_once = PTHREAD_ONCE_INIT;

static void cores_init(void)
{
    if (hwloc_topology_init(&topo) == 0 && hwloc_topology_load(topo) == 0) {
        int n = hwloc_get_nbobjs_by_type(topo, HWLOC_OBJ_CORE);
        ncores = n > 0 ? n : 1;
    } else {
        topo = NULL;
    }
}

/* Once, whichever thread asks first: the prefetch workers' references and the main thread's baselines both ask, and
 * a second caller while the first loaded the topology read 1 core (ThreadSanitizer, session 25). */
int vkb_cpu_threads(void)
{
    pthread_once(&cores_once, cores_init);
    return ncores;
}

const vkb_baseline *vkb_cpu_find(const char *name);
const vkb_baseline *vkb_cpu_find(const char *name)
{
    for (int i = 0; vkb_baselines[i]; i++)
        if (!strcmp(vkb_baselines[i]->name, name)) return vkb_baselines[i];
    return NULL;
}

/* The first PU of core i, as a fresh bitmap (caller frees), or NULL. */
static hwloc_bitmap_t core_set(int i)
{
    hwloc_obj_t o = topo ? hwloc_get_obj_by_type(topo, HWLOC_OBJ_CORE, (unsigned)i) : NULL;
    if (!o) return NULL;
    hwloc_bitmap_t s = hwloc_bitmap_dup(o->cpuset);
    hwloc_bitmap_singlify(s);
    return s;
}

/* Pin OpenMP thread t and OpenBLAS thread t to core t (the caller is thread 0 of both). Returns the
 * number of threads pinned, or 0 when hwloc cannot bind here. */
static int pin_all(int n, int blas)
{
    int pinned = 0;
#pragma omp parallel num_threads(n) reduction(+ : pinned)
    {
        hwloc_bitmap_t s = core_set(omp_get_thread_num());
        if (s && hwloc_set_cpubind(topo, s, HWLOC_CPUBIND_THREAD) == 0) pinned = 1;
        if (s) hwloc_bitmap_free(s);
    }
    for (int t = 1; blas && t < n; t++) {  /* OpenBLAS workers; its thread 0 is the caller, pinned above */
        hwloc_bitmap_t s = core_set(t);
        cpu_set_t cs;
        CPU_ZERO(&cs);
        if (s && hwloc_bitmap_first(s) >= 0) CPU_SET((unsigned)hwloc_bitmap_first(s), &cs);
        if (s) openblas_setaffinity(t, sizeof(cs), &cs), hwloc_bitmap_free(s);
    }
    return pinned;
}

static void poison_outputs(vkb_case *c)
{
    for (int i = 0; i < c->nbuf; i++) {
        vkb_buf *b = &c->buf[i];
        if (b->role == VKB_OUT) vkb_poison_fill(b->type, b->host, b->count);
    }
}

/* INOUT buffers are inputs too: keep a copy to restore before every run and at the end. */
static int inout_save(vkb_case *c, void **save)
{
    for (int i = 0; i < c->nbuf; i++) {
        save[i] = NULL;
        if (c->buf[i].role != VKB_INOUT) continue;
        size_t bytes = c->buf[i].count * vkb_dtype_size(c->buf[i].type);
        if (!(save[i] = malloc(bytes))) return -1;
        memcpy(save[i], c->buf[i].host, bytes);
    }
    return 0;
}

static void inout_restore(vkb_case *c, void **save)
{
    for (int i = 0; i < c->nbuf; i++)
        if (save[i]) memcpy(c->buf[i].host, save[i], c->buf[i].count * vkb_dtype_size(c->buf[i].type));
}

static void set_na(vkb_result *r, const char *why)
{
    snprintf(r->cpu_fast_status, sizeof(r->cpu_fast_status), "NA");
    snprintf(r->cpu_fast_why, sizeof(r->cpu_fast_why), "%s", why);
}

/* This process's threads, from /proc/self/task (-1 where it cannot be read). */
static int nthreads_now(void)
{
    DIR *d = opendir("/proc/self/task");
    int n = 0;
    if (!d) return -1;
    for (struct dirent *e; (e = readdir(d));) n += e->d_name[0] != '.';
    closedir(d);
    return n;
}

/* Back to the caller's binding (saved in *mine, then freed), single-threaded BLAS and no OpenMP team; a second call
 * does nothing more. The team goes because its idle threads spin before they sleep, pinned one per core: on an H200
 * host the check after a baseline took 2-4x as long beside them (scale_add 2^26: 0.36 s, 0.09 s with
 * OMP_WAIT_POLICY=passive, which would also have changed the baselines' own times). The next baseline's warm-up run
 * starts a new team. */
static void unpin(const vkb_baseline *b, hwloc_bitmap_t *mine)
{
    omp_pause_resource_all(omp_pause_soft);
    if (b->blas) openblas_set_num_threads(1);  /* the scalar reference and the checks stay single-threaded BLAS */
    if (*mine) {
        hwloc_set_cpubind(topo, *mine, HWLOC_CPUBIND_THREAD);
        hwloc_bitmap_free(*mine);
        *mine = NULL;
    }
}

void vkb_cpu_baseline(vkb_case *c, vkb_result *r, double budget)
{
    const vkb_baseline *b = vkb_cpu_find(c->k->name);
    void *save[VKB_MAX_BUFS] = {0}, *st = NULL;
    double *t = NULL;
    hwloc_bitmap_t mine = NULL;
    char note[sizeof(c->note)];
    const char *why = NULL;
    if (!b) return set_na(r, "no optimized baseline");
    int n = vkb_cpu_threads();
    snprintf(r->cpu_fast_impl, sizeof(r->cpu_fast_impl), "%s", b->impl);
    r->cpu_fast_threads = n;
    memcpy(note, c->note, sizeof(note));
    if (inout_save(c, save) || !(t = malloc(MAX_RUNS * sizeof(*t)))) {
        set_na(r, "out of host memory for the baseline");
        goto out;
    }
    if (topo && (mine = hwloc_bitmap_alloc())) hwloc_get_cpubind(topo, mine, HWLOC_CPUBIND_THREAD);
    omp_set_num_threads(n);
    if (b->blas) openblas_set_num_threads(n);
    if (pin_all(n, b->blas) != n) snprintf(r->cpu_fast_impl + strlen(r->cpu_fast_impl),
                                  sizeof(r->cpu_fast_impl) - strlen(r->cpu_fast_impl), " (threads not pinned: hwloc refused)");
    if (b->prep && !(st = b->prep(c))) {
        set_na(r, "baseline setup ran out of memory");
        goto out;
    }
    poison_outputs(c);
    double t0 = vkb_now_s();
    if ((why = b->run(c, st))) {  /* warm-up; also where an unsupported case says so */
        set_na(r, why);
        goto out;
    }
    double first = vkb_now_s() - t0;
    int runs = first > SLOW_RUN ? 3 : first * MAX_RUNS < MIN_TIME ? MAX_RUNS : (int)ceil(MIN_TIME / first);
    if (runs < MIN_RUNS && first <= SLOW_RUN) runs = MIN_RUNS;
    if (budget > 0 && first * (runs + 1) > budget) runs = (int)fmax(1, floor(budget / first - 1));  /* cpu_budget */
    for (int i = 0; i < runs; i++) {
        inout_restore(c, save);
        if (i == runs - 1) poison_outputs(c);  /* the validated run starts from poison */
        t0 = vkb_now_s();
        b->run(c, st);
        t[i] = vkb_now_s() - t0;
    }
    vkb_summary sm;
    vkb_stats_summarise(t, (size_t)runs, &sm);
    r->cpu_fast_time_s = sm.median;
    r->cpu_fast_ci_lo_s = sm.ci_lo;
    r->cpu_fast_ci_hi_s = sm.ci_hi;
    r->cpu_fast_runs = runs;
    /* The check's threads (vkb_par_for) inherit the creating thread's binding: checked while pinned to core 0,
     * all of them shared that core (rmsnorm 8192x2560's baseline spent 0.74 s beside 38 runs of 1.3 ms on an
     * H200 host). So the caller's binding comes back first. */
    int team = nthreads_now();
    unpin(b, &mine);
    vkb_check chk;
    memset(&chk, 0, sizeof(chk));
    cpu_set_t cs;
    char what[96];
    snprintf(what, sizeof(what), "%s:cpus=%d:threads=%d->%d", c->k->name,
             sched_getaffinity(0, sizeof(cs), &cs) == 0 ? CPU_COUNT(&cs) : -1, team, nthreads_now());
    t0 = vkb_now_s();
    c->k->check(c, &chk);
    vkb_trace("cpu_check", what, t0);  /* cpus: the CPUs the check's threads may use (tests/run.sh reads it) */
    r->cpu_fast_metric = chk.metric;
    snprintf(r->cpu_fast_status, sizeof(r->cpu_fast_status), "%s", chk.pass ? "PASS" : "FAIL");
    if (!chk.pass)
        snprintf(r->cpu_fast_why, sizeof(r->cpu_fast_why), "%s metric %.4g > %.4g (%zu bad, %zu NaN, %zu unwritten): %s",
                 chk.method, chk.metric, chk.threshold, chk.nbad, chk.nnan, chk.nunwritten, chk.detail);
    else if (isnan(sm.ci_lo))   /* the NA interval's reason (a distribution-free 95% CI of a median needs 6 runs) */
        snprintf(r->cpu_fast_why, sizeof(r->cpu_fast_why), "cpu_fast_ci_lo_s, cpu_fast_ci_hi_s: NA: %d timed run%s "
                 "(a 95%% CI of the median needs >= 6)", runs, runs == 1 ? "" : "s");
out:
    if (st && b->done) b->done(st);
    inout_restore(c, save);
    for (int i = 0; i < VKB_MAX_BUFS; i++) free(save[i]);
    free(t);
    memcpy(c->note, note, sizeof(note));
    unpin(b, &mine);
}
