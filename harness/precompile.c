/* precompile.c — see precompile.h. */
#include <pthread.h>
#include <sched.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "fsutil.h"
#include "precompile.h"

typedef struct entry {
    vkb_pipe p;
    int nbuf;
    size_t first;   /* the first case that uses it */
} entry;

enum { MAX_THREADS = 8 };

struct vkb_precompile {
    entry *e;
    size_t n, cap;
    size_t next, done, failed, skipped;  /* atomic: the next entry to claim, and the threads' counts */
    double t0, end;                      /* end: the last thread's finish (under lock) */
    vkb_vk *v;
    const size_t *reached;  /* the case the run is on (atomic) */
    pthread_t th[MAX_THREADS];
    pthread_mutex_t lock;
    int nth, threads_used, stop;  /* nth: running threads; stop: atomic */
};

static int same(const entry *a, const vkb_pipe *p, int nbuf)
{
    return a->nbuf == nbuf && a->p.nspec == p->nspec && !strcmp(a->p.shader, p->shader) &&
           !memcmp(a->p.spec, p->spec, (size_t)p->nspec * sizeof(p->spec[0]));
}

int vkb_precompile_add(vkb_precompile **pcp, const vkb_case *c, size_t index)
{
    if (!*pcp && !(*pcp = calloc(1, sizeof(**pcp)))) return -1;
    vkb_precompile *pc = *pcp;
    for (int i = 0; i < c->npipe; i++) {
        size_t k = 0;
        while (k < pc->n && !same(&pc->e[k], &c->pipe[i], c->nbuf)) k++;
        if (k < pc->n) continue;
        if (pc->n == pc->cap) {
            entry *ne = realloc(pc->e, (pc->cap = pc->cap * 2 + 32) * sizeof(*ne));
            if (!ne) return -1;
            pc->e = ne;
        }
        pc->e[pc->n++] = (entry){c->pipe[i], c->nbuf, index};
    }
    return 0;
}

/* Each thread claims the next entry in run order, so the early cases' pipelines come first, and one long compile
 * (33-56 s for an fp32 tiling on an empty H200 cache) holds up only its own thread. */
static void *compile_all(void *arg)
{
    vkb_precompile *pc = arg;
    struct sched_param sp = {0};
    pthread_setschedparam(pthread_self(), SCHED_IDLE, &sp);  /* never beside a CPU baseline's cores */
    for (;;) {
        /* No new compile while a CPU baseline holds the CPU (the run's CPU guard): idle priority does not keep a
         * thread off the other hardware thread of a core the baseline pinned. One in flight runs on. */
        vkb_cpu_shared_begin();
        vkb_cpu_shared_end();
        if (__atomic_load_n(&pc->stop, __ATOMIC_RELAXED)) break;
        size_t i = __atomic_fetch_add(&pc->next, 1, __ATOMIC_RELAXED);
        if (i >= pc->n) break;
        double t = vkb_now_s();
        if (pc->e[i].first < __atomic_load_n(pc->reached, __ATOMIC_RELAXED))
            __atomic_fetch_add(&pc->skipped, 1, __ATOMIC_RELAXED);  /* its case compiled it */
        else if (vkb_vk_precompile(pc->v, &pc->e[i].p, pc->e[i].nbuf))
            __atomic_fetch_add(&pc->failed, 1, __ATOMIC_RELAXED);   /* the case will say why */
        vkb_trace("precompile", pc->e[i].p.shader, t);
        __atomic_fetch_add(&pc->done, 1, __ATOMIC_RELAXED);
    }
    pthread_mutex_lock(&pc->lock);
    double now = vkb_now_s();
    if (now > pc->end) pc->end = now;
    pthread_mutex_unlock(&pc->lock);
    return NULL;
}

int vkb_precompile_start(vkb_precompile *pc, vkb_vk *v, const size_t *reached, int nthreads)
{
    if (!pc || pc->nth) return -1;
    pc->v = v;
    pc->reached = reached;
    pc->t0 = pc->end = vkb_now_s();
    pthread_mutex_init(&pc->lock, NULL);
    if (nthreads > MAX_THREADS) nthreads = MAX_THREADS;
    for (int i = 0; i < (nthreads < 1 ? 1 : nthreads); i++)
        if (pthread_create(&pc->th[pc->nth], NULL, compile_all, pc) == 0) pc->nth++;
    if (!pc->nth) pthread_mutex_destroy(&pc->lock);
    return pc->nth ? 0 : -1;
}

/* Stop after the compiles in flight; the threads are gone on return. */
static void join(vkb_precompile *pc)
{
    if (!pc->nth) return;
    __atomic_store_n(&pc->stop, 1, __ATOMIC_RELAXED);
    for (int i = 0; i < pc->nth; i++) pthread_join(pc->th[i], NULL);
    pthread_mutex_destroy(&pc->lock);
    pc->threads_used = pc->nth;
    pc->nth = 0;
}

void vkb_precompile_stop(vkb_precompile *pc, char *line, size_t len)
{
    if (!pc) {
        snprintf(line, len, "no pipelines");
        return;
    }
    join(pc);
    snprintf(line, len, "%zu of %zu distinct pipelines compiled ahead of their cases in %.3f s (%d idle-priority "
             "thread%s; %zu skipped: their case came first; %zu failed: their case says why)", pc->done - pc->skipped -
             pc->failed, pc->n, pc->end - pc->t0, pc->threads_used, pc->threads_used == 1 ? "" : "s", pc->skipped,
             pc->failed);
}

void vkb_precompile_free(vkb_precompile *pc)
{
    if (!pc) return;
    join(pc);
    free(pc->e);
    free(pc);
}
