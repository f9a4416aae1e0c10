/* later.c — see later.h. A mutex, a condition and a FIFO of nodes. */
#include <pthread.h>
#include <stdlib.h>

#include "later.h"

typedef struct node {
    void *item;
    struct node *next;
} node;

struct vkb_later {
    void (*fn)(void *ctx, void *item);
    void *ctx;
    pthread_mutex_t m;
    pthread_cond_t cv;
    pthread_t tid;
    node *head, *tail;
    int stop;
};

static void *run(void *arg)
{
    vkb_later *l = arg;
    pthread_mutex_lock(&l->m);
    for (;;) {
        node *n = l->head;
        if (!n) {
            if (l->stop) break;
            pthread_cond_wait(&l->cv, &l->m);
            continue;
        }
        l->head = n->next;
        if (!l->head) l->tail = NULL;
        pthread_mutex_unlock(&l->m);
        l->fn(l->ctx, n->item);
        free(n);
        pthread_mutex_lock(&l->m);
    }
    pthread_mutex_unlock(&l->m);
    return NULL;
}

vkb_later *vkb_later_start(void (*fn)(void *ctx, void *item), void *ctx)
{
    vkb_later *l = calloc(1, sizeof(*l));
    if (!l) return NULL;
    l->fn = fn, l->ctx = ctx;
    pthread_mutex_init(&l->m, NULL);
    pthread_cond_init(&l->cv, NULL);
    if (pthread_create(&l->tid, NULL, run, l)) {
        pthread_mutex_destroy(&l->m);
        pthread_cond_destroy(&l->cv);
        free(l);
        return NULL;
    }
    return l;
}

int vkb_later_push(vkb_later *l, void *item)
{
    node *n = malloc(sizeof(*n));
    if (!n) return -1;
    n->item = item, n->next = NULL;
    pthread_mutex_lock(&l->m);
    if (l->tail) l->tail->next = n;
    else l->head = n;
    l->tail = n;
    pthread_cond_signal(&l->cv);
    pthread_mutex_unlock(&l->m);
    return 0;
}

void vkb_later_stop(vkb_later *l)
{
    if (!l) return;
    pthread_mutex_lock(&l->m);
    l->stop = 1;
    pthread_cond_signal(&l->cv);
    pthread_mutex_unlock(&l->m);
    pthread_join(l->tid, NULL);
    pthread_mutex_destroy(&l->m);
    pthread_cond_destroy(&l->cv);
    free(l);
}
