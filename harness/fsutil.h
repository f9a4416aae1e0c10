/* fsutil.h — small file-system and naming helpers shared by run, calibrate and compare (pure). */
#ifndef VKB_FSUTIL_H
#define VKB_FSUTIL_H
#include <stddef.h>

/* mkdir -p: create path and its parents (0777 & umask). Returns 0, or -1 with errno set. */
int vkb_mkdirs(const char *path);
/* A name made safe for a file name: letters, digits and '.', other runs folded to one '-'. */
void vkb_slug(const char *in, char *out, size_t len);

/* A duration for people: "12.34 us", "1.234 ms", "1.234 s", or "NA" for NAN. Returns buf. */
const char *vkb_fmt_time(double s, char *buf, size_t len);
/* Seconds on CLOCK_MONOTONIC (for host-side durations). */
double vkb_now_s(void);
/* VKB_TRACE=1 in the environment: one line per harness step on stderr, "trace T STEP WHAT SECONDS" (T: seconds
 * since vkb_trace_init, SECONDS: since t0), for finding where a run's wall time goes. Otherwise nothing. */
void vkb_trace_init(void);
void vkb_trace(const char *step, const char *what, double t0);

#endif
