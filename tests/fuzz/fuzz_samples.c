/* fuzz_samples.c — libFuzzer target: the samples.csv loader that every analysis reads through (vkb_samples_load in
 * harness/result.c: compare, report, export) on arbitrary bytes, under ASan/UBSan. Beyond "no crash, no leak, no
 * undefined behaviour": an error names the file and a line; every time it returns is positive and finite; one
 * case's samples are those of all cases with that id, in order; and skipping a torn last line only ever turns a
 * refusal into a success, never changes what a successful read returns. */
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "result.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static long load_mem(const char *buf, size_t len, int64_t case_id, int torn, int64_t **ids, double **t, char *err,
                     size_t errlen)
{
    FILE *f = fmemopen((void *)(uintptr_t)buf, len, "r");
    if (!f) abort();
    long n = vkb_samples_load_stream(f, "fuzz.csv", case_id, torn, ids, t, err, errlen);
    fclose(f);
    return n;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    char err[1024], *in = malloc(size + 1);
    double *all = NULL, *one = NULL, *torn = NULL;
    int64_t *ids = NULL;
    if (!in) return 0;
    if (size) memcpy(in, data, size);
    long n = load_mem(in, size, -1, 0, &ids, &all, err, sizeof(err));
    if (n < 0 && (strncmp(err, "fuzz.csv:", 9) || !(err[9] >= '1' && err[9] <= '9'))) abort();
    for (long i = 0; i < n; i++)
        if (!(all[i] > 0) || isinf(all[i])) abort();
    long k = load_mem(in, size, 0, 0, NULL, &one, err, sizeof(err));
    if ((n < 0) != (k < 0) || k > n) abort();
    long j = 0;
    for (long i = 0; i < n; i++)   /* case 0's samples: those of all with id 0, in file order, and no others */
        if (ids[i] == 0 && (j >= k || memcmp(&all[i], &one[j++], sizeof(double)))) abort();
    if (n >= 0 && j != k) abort();
    long m = load_mem(in, size, -1, 1, NULL, &torn, err, sizeof(err));
    if (n >= 0 && (m != n || (n && memcmp(all, torn, (size_t)n * sizeof(double))))) abort();
    free(all);
    free(one);
    free(torn);
    free(ids);
    free(in);
    return 0;
}
