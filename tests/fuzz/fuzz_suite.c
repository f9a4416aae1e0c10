/* fuzz_suite.c — libFuzzer target: the suite parser (harness/suite.c) on arbitrary bytes, under ASan/UBSan.
 * Beyond "no crash, no leak, no undefined behaviour" it checks the parser's promises (suite.h): an error names the
 * file and a line (or says the file holds no kernel line); a parsed line has a kernel, axes of 1..256 values and
 * at most VKB_SUITE_MAX_CASES cases, each of which vkb_line_case maps inside its axes; an accepted suite holds no
 * control byte (a NUL once ended a line early and the rest ran unseen); an integer the value parser accepts prints
 * and parses back to itself. A broken promise aborts, and libFuzzer keeps the input. */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "suite.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static void int_roundtrip(const char *v)
{
    int64_t x, y;
    char buf[32];
    if (vkb_parse_int(v, &x)) return;
    snprintf(buf, sizeof(buf), "%lld", (long long)x);
    if (vkb_parse_int(buf, &y) || x != y) abort();
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    static const char name[] = "fuzz.suite";
    vkb_suite s = {0};
    vkb_options opt = {.min_time = 0.5, .max_noise = 0.005, .timeout = 15, .min_samples = 10, .mode = "hot"};
    char err[1024], value[64];
    int rc = vkb_suite_parse_mem(&s, name, data, size, &opt, err, sizeof(err));
    if (rc) {
        size_t n = strlen(name);
        if (strncmp(err, name, n) || err[n] != ':') abort();
        if (!(err[n + 1] >= '1' && err[n + 1] <= '9') && !strstr(err, "no kernel line") && !strstr(err, "memory")) abort();
    }
    for (size_t i = 0; !rc && i < size; i++) {
        uint8_t c = data[i];
        if (c < 0x20 && c != '\t' && c != '\n' && !(c == '\r' && (i + 1 == size || data[i + 1] == '\n'))) abort();
        if (c == 0x7f) abort();
    }
    for (int i = 0; i < s.nline; i++) {
        const vkb_line *l = &s.line[i];
        if (!l->kernel[0] || l->lineno < 1 || l->naxes < 0 || l->naxes > VKB_SUITE_MAX_AXES) abort();
        size_t nc = vkb_line_ncases(l);
        if (nc == 0 || nc > VKB_SUITE_MAX_CASES) abort();
        int pick[VKB_SUITE_MAX_AXES];
        vkb_line_case(l, nc - 1, pick);
        for (int a = 0; a < l->naxes; a++) {
            if (l->axis[a].nval < 1 || l->axis[a].nval > VKB_SUITE_MAX_VALUES) abort();
            if (pick[a] != l->axis[a].nval - 1) abort();   /* the last case picks every axis' last value */
            for (int v = 0; v < l->axis[a].nval; v++) int_roundtrip(l->axis[a].val[v]);
        }
    }
    vkb_suite_free(&s);
    /* The value parser alone, on the first bytes as one value. */
    size_t n = size < sizeof(value) - 1 ? size : sizeof(value) - 1;
    if (n) memcpy(value, data, n);
    value[n] = 0;
    int_roundtrip(value);
    return 0;
}
