/* prefetch.h — items 0..n-1 prepared ahead, in order, by worker threads while the caller consumes them in
 * order (the driver: the next cases' inputs and references are computed while the GPU times this one).
 *
 * An item is prepared in two steps: size(i) (cheap) says how many host bytes it will hold, then work(i), on a
 * worker thread at the lowest scheduling priority (SCHED_IDLE). Items reserve their bytes against a budget
 * strictly in index order, so the lowest unconsumed item can always proceed: no deadlock, whatever the sizes.
 * work() may take the "CPU" lock shared around what must not run beside the caller's exclusive sections
 * (multithreaded references); single-threaded work at idle priority yields its core to them anyway. The caller
 * takes the lock exclusively (e.g. to time a CPU baseline on every core): no shared section runs meanwhile.
 * With workers == 0 nothing runs in the background: vkb_prefetch_wait(i) prepares item i itself. */
#ifndef VKB_PREFETCH_H
#define VKB_PREFETCH_H
#include <stddef.h>

typedef struct vkb_prefetch vkb_prefetch;

typedef struct vkb_prefetch_fns {
    double (*size)(void *ctx, size_t i);   /* host bytes item i will hold until consumed */
    void (*work)(void *ctx, size_t i);     /* prepare item i (called once, on a worker or in wait) */
    void *ctx;
    /* NULL, or called once before any worker starts, with the lock ready: where work() reaches the lock through
     * hooks (run.c's guards), they must be in place before the first item, or a section in flight when they were
     * set would leave the lock without having taken it. */
    void (*ready)(void *ctx, vkb_prefetch *p);
} vkb_prefetch_fns;

/* Start workers (0: none) that keep at most `ahead` items prepared beyond the one being consumed and at
 * most budget_bytes reserved (an item larger than the budget runs alone). Returns NULL on failure. */
vkb_prefetch *vkb_prefetch_start(size_t n, int workers, size_t ahead, double budget_bytes, vkb_prefetch_fns fns);
/* Block until item i is prepared (preparing it here when there are no workers). Returns the seconds the caller
 * waited on workers (0 without workers: the work is the caller's own time). Items are consumed in order. */
double vkb_prefetch_wait(vkb_prefetch *p, size_t i);
/* Item i was consumed and its memory freed: release its reservation. */
void vkb_prefetch_done(vkb_prefetch *p, size_t i);
/* Shared use of the CPU lock (inside work()), and exclusive use by the caller: exclusive_begin waits for the
 * shared sections in progress to end and holds new ones back. A shared section asked for by the exclusive holder
 * itself (a baseline's check that calls a fast reference) runs without the lock: it has the CPU already. */
void vkb_prefetch_shared_begin(vkb_prefetch *p);
void vkb_prefetch_shared_end(vkb_prefetch *p);
void vkb_prefetch_exclusive_begin(vkb_prefetch *p);
void vkb_prefetch_exclusive_end(vkb_prefetch *p);
/* Stop: workers finish the item in hand and exit; returns once they have. NULL is a no-op. */
void vkb_prefetch_stop(vkb_prefetch *p);
void vkb_prefetch_free(vkb_prefetch *p);

#endif
