/* fuzz_results.c — libFuzzer target: the results.csv reader (harness/result.c) on arbitrary bytes, under
 * ASan/UBSan. Beyond "no crash, no leak, no undefined behaviour": an error names the file and a line; rows that
 * were read, written back with the writer and read again, come back equal, column by column (what run writes,
 * compare and report can read). A broken promise aborts, and libFuzzer keeps the input. */
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "result.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

/* Read len bytes of buf as a results.csv named name. */
static long read_mem(const char *buf, size_t len, const char *name, vkb_result **rows, char *err, size_t errlen)
{
    FILE *f = fmemopen((void *)(uintptr_t)buf, len, "r");
    if (!f) abort();
    long n = vkb_result_read_stream(f, name, rows, err, errlen);
    fclose(f);
    return n;
}

static int same(const vkb_result *a, const vkb_result *b)
{
#define SAME_S(x) if (strcmp(a->x, b->x)) return 0;
#define SAME_I(x) if (a->x != b->x) return 0;
#define SAME_D(x) if (!(a->x == b->x || (isnan(a->x) && isnan(b->x)))) return 0;
#define SAME(t, x) SAME_##t(x)
    VKB_RESULT_COLUMNS(SAME)
#undef SAME
    return 1;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    char err[1024], *out = NULL, *in = malloc(size + 1);
    vkb_result *rows = NULL, *back = NULL;
    size_t outlen = 0;
    if (!in) return 0;
    if (size) memcpy(in, data, size);   /* glibc's fmemopen takes a 0-byte buffer (not a NULL one) */
    long n = read_mem(in, size, "fuzz.csv", &rows, err, sizeof(err));
    if (n < 0) {
        if (strncmp(err, "fuzz.csv:", 9) || !(err[9] >= '1' && err[9] <= '9')) abort();
        goto done;
    }
    FILE *w = open_memstream(&out, &outlen);
    if (!w) abort();
    vkb_result_write_header(w);
    for (long i = 0; i < n; i++) vkb_result_write_row(w, &rows[i]);
    fclose(w);
    long m = read_mem(out, outlen, "again.csv", &back, err, sizeof(err));
    if (m != n) {
        fprintf(stderr, "round trip: read %ld rows, wrote them, read back %ld: %s\n", n, m, m < 0 ? err : "");
        abort();
    }
    for (long i = 0; i < n; i++)
        if (!same(&rows[i], &back[i])) {
            fprintf(stderr, "round trip: row %ld differs\n", i + 1);
            abort();
        }
done:
    free(rows);
    free(back);
    free(out);
    free(in);
    return 0;
}
