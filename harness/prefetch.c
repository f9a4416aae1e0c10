/* prefetch.c — see prefetch.h. One mutex and one condition guard the counters; a writer-preferring rwlock
 * is the "CPU": work() may hold it shared, the caller's exclusive sections hold it alone. */
#include <pthread.h>
#include <sched.h>
#include <stdlib.h>

#include "fsutil.h"

#include "prefetch.h"

enum { ITEM_FREE, ITEM_CLAIMED, ITEM_READY };

struct vkb_prefetch {
    vkb_prefetch_fns fns;
    size_t n, ahead;
    double budget, reserved;
    size_t next_claim, next_reserve, consumed;
    unsigned char *state;
    double *bytes;
    int stop, nworkers;
    pthread_t *tid;
    pthread_mutex_t m;
    pthread_cond_t cv;
    pthread_rwlock_t cpu;
    pthread_t owner;     /* the exclusive holder, while excl (both atomic) */
    int excl;
};

/* Reserve item i's bytes, in index order. Called with m held; returns 0, or -1 when stopped. */
static int reserve(vkb_prefetch *p, size_t i, double b)
{
    while (!p->stop && !(p->next_reserve == i && (p->reserved <= 0 || p->reserved + b <= p->budget)))
        pthread_cond_wait(&p->cv, &p->m);
    if (p->stop) return -1;
    p->bytes[i] = b;
    p->reserved += b;
    p->next_reserve++;
    pthread_cond_broadcast(&p->cv);
    return 0;
}

static void prepare(vkb_prefetch *p, size_t i)
{
    p->fns.work(p->fns.ctx, i);
}

static void *worker(void *arg)
{
    vkb_prefetch *p = arg;
    /* Lowest priority: whatever else wants a core (the caller's exclusive sections, the timed GPU submissions)
     * preempts the preparation. Not allowed or not offered: the workers run at normal priority. */
    struct sched_param sp = {0};
    pthread_setschedparam(pthread_self(), SCHED_IDLE, &sp);
    pthread_mutex_lock(&p->m);
    while (!p->stop && p->next_claim < p->n) {
        size_t i = p->next_claim;
        if (i > p->consumed + p->ahead) {
            pthread_cond_wait(&p->cv, &p->m);
            continue;
        }
        p->next_claim++;
        p->state[i] = ITEM_CLAIMED;
        pthread_mutex_unlock(&p->m);
        double b = p->fns.size(p->fns.ctx, i);
        pthread_mutex_lock(&p->m);
        if (reserve(p, i, b)) break;
        pthread_mutex_unlock(&p->m);
        prepare(p, i);
        pthread_mutex_lock(&p->m);
        p->state[i] = ITEM_READY;
        pthread_cond_broadcast(&p->cv);
    }
    pthread_mutex_unlock(&p->m);
    return NULL;
}

vkb_prefetch *vkb_prefetch_start(size_t n, int workers, size_t ahead, double budget_bytes, vkb_prefetch_fns fns)
{
    vkb_prefetch *p = calloc(1, sizeof(*p));
    pthread_rwlockattr_t ra;
    if (!p) return NULL;
    pthread_mutex_init(&p->m, NULL);
    pthread_cond_init(&p->cv, NULL);
    pthread_rwlockattr_init(&ra);
    pthread_rwlockattr_setkind_np(&ra, PTHREAD_RWLOCK_PREFER_WRITER_NONRECURSIVE_NP);
    pthread_rwlock_init(&p->cpu, &ra);
    pthread_rwlockattr_destroy(&ra);
    p->fns = fns;
    p->n = n;
    p->ahead = ahead;
    p->budget = budget_bytes;
    p->state = calloc(n ? n : 1, sizeof(*p->state));
    p->bytes = calloc(n ? n : 1, sizeof(*p->bytes));
    p->tid = calloc(workers > 0 ? (size_t)workers : 1, sizeof(*p->tid));
    if (!p->state || !p->bytes || !p->tid) goto fail;
    if (fns.ready) fns.ready(fns.ctx, p);
    for (int w = 0; w < workers; w++) {
        if (pthread_create(&p->tid[w], NULL, worker, p)) break;  /* fewer workers still work; none: inline */
        p->nworkers++;
    }
    return p;
fail:
    vkb_prefetch_free(p);
    return NULL;
}

double vkb_prefetch_wait(vkb_prefetch *p, size_t i)
{
    pthread_mutex_lock(&p->m);
    if (p->nworkers == 0) {
        p->state[i] = ITEM_CLAIMED;
        p->next_claim = i + 1;
        pthread_mutex_unlock(&p->m);
        double b = p->fns.size(p->fns.ctx, i);
        pthread_mutex_lock(&p->m);
        reserve(p, i, b);
        pthread_mutex_unlock(&p->m);
        prepare(p, i);
        pthread_mutex_lock(&p->m);
        p->state[i] = ITEM_READY;
        pthread_mutex_unlock(&p->m);
        return 0;
    }
    double t0 = vkb_now_s();
    while (p->state[i] != ITEM_READY) pthread_cond_wait(&p->cv, &p->m);
    pthread_mutex_unlock(&p->m);
    return vkb_now_s() - t0;
}

void vkb_prefetch_done(vkb_prefetch *p, size_t i)
{
    pthread_mutex_lock(&p->m);
    p->reserved -= p->bytes[i];
    p->bytes[i] = 0;
    p->consumed = i + 1;
    pthread_cond_broadcast(&p->cv);
    pthread_mutex_unlock(&p->m);
}


void vkb_prefetch_stop(vkb_prefetch *p)
{
    if (!p) return;
    pthread_mutex_lock(&p->m);
    p->stop = 1;
    pthread_cond_broadcast(&p->cv);
    pthread_mutex_unlock(&p->m);
    for (int w = 0; w < p->nworkers; w++) pthread_join(p->tid[w], NULL);
    p->nworkers = 0;
}

/* The exclusive holder asking for a shared section already has the CPU: taking the lock again would fail
 * (EDEADLK) and the matching unlock would release its exclusive hold. */
static int mine(vkb_prefetch *p)
{
    return __atomic_load_n(&p->excl, __ATOMIC_ACQUIRE) &&
           pthread_equal(__atomic_load_n(&p->owner, __ATOMIC_RELAXED), pthread_self());
}

void vkb_prefetch_shared_begin(vkb_prefetch *p)
{
    if (!mine(p)) pthread_rwlock_rdlock(&p->cpu);
}

void vkb_prefetch_shared_end(vkb_prefetch *p)
{
    if (!mine(p)) pthread_rwlock_unlock(&p->cpu);
}

void vkb_prefetch_exclusive_begin(vkb_prefetch *p)
{
    pthread_rwlock_wrlock(&p->cpu);
    __atomic_store_n(&p->owner, pthread_self(), __ATOMIC_RELAXED);
    __atomic_store_n(&p->excl, 1, __ATOMIC_RELEASE);
}

void vkb_prefetch_exclusive_end(vkb_prefetch *p)
{
    __atomic_store_n(&p->excl, 0, __ATOMIC_RELEASE);
    pthread_rwlock_unlock(&p->cpu);
}

void vkb_prefetch_free(vkb_prefetch *p)
{
    if (!p) return;
    vkb_prefetch_stop(p);
    pthread_mutex_destroy(&p->m);
    pthread_cond_destroy(&p->cv);
    pthread_rwlock_destroy(&p->cpu);
    free(p->state);
    free(p->bytes);
    free(p->tid);
    free(p);
}
