/* later.h — work handed to one background thread and done there in the order it was handed over (the driver: a
 * finished case's buffers, pipelines and host memory freed while the next case runs). Pure: no Vulkan.
 * vkb_later_start returns NULL when the thread cannot start (the caller then does the work itself); push never
 * blocks on the work; stop does what is queued, then joins. NULL is a no-op for push's caller to check and for stop. */
#ifndef VKB_LATER_H
#define VKB_LATER_H

typedef struct vkb_later vkb_later;

vkb_later *vkb_later_start(void (*fn)(void *ctx, void *item), void *ctx);
/* Queue item for fn(ctx, item). Returns 0, or -1 when out of memory (nothing queued: the caller does it). */
int vkb_later_push(vkb_later *l, void *item);
void vkb_later_stop(vkb_later *l);

#endif
