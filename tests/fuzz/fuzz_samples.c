/* fuzz_samples.c — libFuzzer target: the samples.csv reader (harness/result.c) on arbitrary bytes, under
 * ASan/UBSan. Beyond "no crash, no leak, no undefined behaviour": an error names the file and a line, and the
 * samples of one case are never more than the samples of all cases. */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "result.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static long read_mem(const char *buf, size_t len, int64_t case_id, double **t, char *err, size_t errlen)
{
    FILE *f = fmemopen((void *)(uintptr_t)buf, len, "r");
    if (!f) abort();
    long n = vkb_samples_read_stream(f, "fuzz.csv", case_id, t, err, errlen);
    fclose(f);
    return n;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    char err[1024], *in = malloc(size + 1);
    double *all = NULL, *one = NULL;
    if (!in) return 0;
    if (size) memcpy(in, data, size);
    long n = read_mem(in, size, -1, &all, err, sizeof(err));
    if (n < 0 && (strncmp(err, "fuzz.csv:", 9) || !(err[9] >= '1' && err[9] <= '9'))) abort();
    long k = read_mem(in, size, 0, &one, err, sizeof(err));
    if ((n < 0) != (k < 0) || k > n) abort();
    free(all);
    free(one);
    free(in);
    return 0;
}
