/* suite.h — the suite text format (pure: no Vulkan).
 *
 *   # comment (anywhere after a '#')
 *   set KEY=VALUE ...            run options for the following lines (min_time, max_noise, timeout,
 *                                min_samples, cpu_max_bytes, cpu_budget, mode, gate_delta, warmup)
 *   KERNEL KEY=V1,V2,... ...     one kernel line; each comma list is an axis, expanded as a cartesian
 *                                product (first axis varies slowest)
 * Values: integers (1000, 2^20, 64Ki, 1Mi, and sums of them: 2^20+1, 1Mi-16), reals, words, and ranges inside a list:
 *   A..B         every integer from A to B
 *   A..B:*F      geometric: A, A*F, ... <= B          A..B:+S   arithmetic: A, A+S, ... <= B
 * `tol=X` overrides a kernel's tolerance and is only accepted with a `# reason` on the same line.
 * A control byte (NUL, ESC, DEL, ...; tab and a CR before a line end excepted) is an error at file:line:column;
 * a suite file without a kernel line is an error naming the file; a line may expand to VKB_SUITE_MAX_CASES cases.
 */
#ifndef VKB_SUITE_H
#define VKB_SUITE_H
#include <stddef.h>
#include <stdint.h>

#define VKB_SUITE_MAX_AXES 12
#define VKB_SUITE_MAX_VALUES 256
#define VKB_SUITE_MAX_CASES 1000000   /* per line: a week of cases at half a second each */

typedef struct vkb_axis {
    char key[24];
    int nval;
    char (*val)[40];     /* nval strings, each as it will appear in the case */
} vkb_axis;

typedef struct vkb_options {
    double min_time, max_noise, timeout;
    long min_samples;
    double cpu_max_bytes;   /* footprint cap on CPU devices (lavapipe profile); 0 = none */
    double gate_delta;      /* regression-gate effect floor for these lines (0 < d < 1); 0 = compare's default */
    double cpu_budget;      /* seconds the optimized CPU baseline may spend on a case, warm-up included; 0 = none */
    double warmup;          /* seconds of the kernel run before its samples, at least (0 = the harness's rule) */
    char mode[8];           /* default mode: hot | cold */
} vkb_options;

typedef struct vkb_line {
    char file[256];
    int lineno;
    char kernel[32];
    vkb_axis axis[VKB_SUITE_MAX_AXES];
    int naxes;
    double tol;             /* NAN unless overridden */
    char tol_reason[160];
    vkb_options opt;        /* options in force for this line */
} vkb_line;

typedef struct vkb_suite {
    vkb_line *line;
    int nline;
} vkb_suite;

/* Parse one file (or, with text != NULL, the given text under the name `file`) and append its
 * lines to s. `opt` holds the options in force at the start and is updated by `set` lines.
 * On error returns -1 and writes "file:line: message" into err; s keeps what was parsed before. */
int vkb_suite_parse(vkb_suite *s, const char *file, const char *text, vkb_options *opt,
                    char *err, size_t errlen);
/* The same for len bytes of a file's content held in memory (they may hold any byte: a NUL is reported, not
 * taken as the end), read as the file `file`. For the fuzz target and tests. */
int vkb_suite_parse_mem(vkb_suite *s, const char *file, const void *data, size_t len, vkb_options *opt, char *err,
                        size_t errlen);
void vkb_suite_free(vkb_suite *s);

/* Number of cases a line expands to (product of axis sizes). */
size_t vkb_line_ncases(const vkb_line *l);
/* The idx-th case: writes the chosen value index of each axis into pick[naxes]. */
void vkb_line_case(const vkb_line *l, size_t idx, int *pick);

/* Parse an integer value with the suite's notation (2^20, 64Ki, 1Mi, 1e6 when integral), or terms of it joined
 * by + and - (2^20+1), evaluated left to right. Returns 0 and sets *out, or -1 (also on int64 overflow). */
int vkb_parse_int(const char *s, int64_t *out);

#endif
