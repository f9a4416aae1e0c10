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

struct vkb_precompile {
    entry *e;
    size_t n, cap, done, failed, skipped;
    double secs;
    vkb_vk *v;
    const size_t *reached;  /* the case the run is on (atomic) */
    pthread_t th;
    int running, stop;  /* stop: atomic */
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

static void *compile_all(void *arg)
{
    vkb_precompile *pc = arg;
    struct sched_param sp = {0};
    pthread_setschedparam(pthread_self(), SCHED_IDLE, &sp);  /* never beside a CPU baseline's cores */
    double t0 = vkb_now_s();
    for (size_t i = 0; i < pc->n && !__atomic_load_n(&pc->stop, __ATOMIC_RELAXED); i++) {
        double t = vkb_now_s();
        if (pc->e[i].first < __atomic_load_n(pc->reached, __ATOMIC_RELAXED)) pc->skipped++;  /* its case compiled it */
        else if (vkb_vk_precompile(pc->v, &pc->e[i].p, pc->e[i].nbuf)) pc->failed++;  /* the case will say why */
        vkb_trace("precompile", pc->e[i].p.shader, t);
        pc->done = i + 1;
    }
    pc->secs = vkb_now_s() - t0;
    return NULL;
}

int vkb_precompile_start(vkb_precompile *pc, vkb_vk *v, const size_t *reached)
{
    if (!pc || pc->running) return -1;
    pc->v = v;
    pc->reached = reached;
    pc->running = pthread_create(&pc->th, NULL, compile_all, pc) == 0;
    return pc->running ? 0 : -1;
}

/* Stop after the compile in flight; the thread is gone on return. */
static void join(vkb_precompile *pc)
{
    if (!pc->running) return;
    __atomic_store_n(&pc->stop, 1, __ATOMIC_RELAXED);
    pthread_join(pc->th, NULL);
    pc->running = 0;
}

void vkb_precompile_stop(vkb_precompile *pc, char *line, size_t len)
{
    if (!pc) {
        snprintf(line, len, "no pipelines");
        return;
    }
    join(pc);
    snprintf(line, len, "%zu of %zu distinct pipelines compiled ahead of their cases in %.3f s (one idle-priority "
             "thread; %zu skipped: their case came first; %zu failed: their case says why)", pc->done - pc->skipped -
             pc->failed, pc->n, pc->secs, pc->skipped, pc->failed);
}

void vkb_precompile_free(vkb_precompile *pc)
{
    if (!pc) return;
    join(pc);
    free(pc->e);
    free(pc);
}
