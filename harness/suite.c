/* suite.c — the suite text format (see suite.h for the grammar). */
#include "suite.h"

#include <ctype.h>
#include <errno.h>
#include <limits.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* One term: 1000, -3, B^E, 64Ki, 1e6 (when integral). */
static int parse_atom(const char *s, int64_t *out)
{
    char *end;
    if (!s || !*s || isspace((unsigned char)*s)) return -1;
    errno = 0;
    long long v = strtoll(s, &end, 10);
    if (errno || end == s) return -1;
    if (!*end) { *out = v; return 0; }
    if (v == LLONG_MIN) return -1;   /* llabs below would overflow */
    if (*end == '^') {   /* B^E, exact and overflow-checked */
        const char *e = end + 1;
        if (!isdigit((unsigned char)*e)) return -1;
        long long x = strtoll(e, &end, 10);
        if (errno || *end || x > 62) return -1;
        int64_t r = 1;
        for (long long i = 0; i < x; i++) {
            if (v != 0 && llabs(r) > INT64_MAX / llabs(v)) return -1;
            r *= v;
        }
        *out = r;
        return 0;
    }
    static const struct { const char *suf; int shift; } bin[] = {
        {"Ki", 10}, {"Mi", 20}, {"Gi", 30}, {"Ti", 40},
    };
    for (size_t i = 0; i < sizeof(bin) / sizeof(bin[0]); i++)
        if (!strcmp(end, bin[i].suf)) {
            if (llabs(v) > (INT64_MAX >> bin[i].shift)) return -1;
            *out = v * ((int64_t)1 << bin[i].shift);
            return 0;
        }
    /* 1e6, 1.5e3: accepted only when the value is an exact integer. strspn keeps strtod's
     * extras (hex, inf, nan) out. */
    if (strspn(s, "0123456789+-.eE") != strlen(s)) return -1;
    double d = strtod(s, &end);
    if (*end || !isfinite(d) || d != floor(d) || fabs(d) >= 9.2e18) return -1;
    *out = (int64_t)d;
    return 0;
}

/* A sign inside a term: the exponent's of 1e+6 or 2.5e-3 (an 'e' after a digit or '.'), not an operator. */
static int exponent_sign(const char *term, const char *at)
{
    return at > term + 1 && (at[-1] == 'e' || at[-1] == 'E') && (isdigit((unsigned char)at[-2]) || at[-2] == '.');
}

int vkb_parse_int(const char *s, int64_t *out)
{
    int64_t acc = 0;
    char op = '+';
    if (!s || !*s || isspace((unsigned char)*s)) return -1;
    /* Terms joined by + and -, left to right, overflow-checked: 2^20+1, 1Mi-16. Only the first term may
     * carry a sign of its own (-3+1); after an operator a term starts with a digit. */
    for (const char *p = s;;) {
        const char *q = p;
        if (p == s && (*q == '-' || *q == '+')) q++;
        else if (!isdigit((unsigned char)*q)) return -1;
        while (*q && !((*q == '+' || *q == '-') && !exponent_sign(p, q))) q++;
        char term[48];
        int64_t v;
        size_t n = (size_t)(q - p);
        if (n == 0 || n >= sizeof(term)) return -1;
        memcpy(term, p, n);
        term[n] = 0;
        if (parse_atom(term, &v)) return -1;
        if (op == '+' ? __builtin_add_overflow(acc, v, &acc) : __builtin_sub_overflow(acc, v, &acc)) return -1;
        if (!*q) break;
        op = *q;
        p = q + 1;
    }
    *out = acc;
    return 0;
}

/* Format checked by the compiler, so every error message is checked too. */
__attribute__((format(printf, 5, 6)))
static int seterr(char *err, size_t errlen, const char *file, int lineno, const char *fmt, ...)
{
    va_list ap;
    int k = snprintf(err, errlen, "%s:%d: ", file, lineno);
    if (k >= 0 && (size_t)k < errlen) {
        va_start(ap, fmt);
        vsnprintf(err + k, errlen - (size_t)k, fmt, ap);
        va_end(ap);
    }
    return -1;
}

static int is_ident(const char *s, size_t maxlen)
{
    size_t n = strspn(s, "abcdefghijklmnopqrstuvwxyz0123456789_");
    return n > 0 && !s[n] && n < maxlen;
}

/* Append one value to an axis (the array grows with it). Returns -1 when the axis is full. */
static int axis_push(vkb_axis *a, const char *v)
{
    if (a->nval >= VKB_SUITE_MAX_VALUES) return -1;
    if (a->nval % 16 == 0) {
        char (*nv)[40] = realloc(a->val, (size_t)(a->nval + 16) * sizeof(*nv));
        if (!nv) return -1;
        a->val = nv;
    }
    snprintf(a->val[a->nval++], sizeof(a->val[0]), "%s", v);
    return 0;
}

/* One comma-list element "A..B", "A..B:*F" or "A..B:+S", expanded into a. Writes a reason on error. */
static int expand_range(vkb_axis *a, char *el, char *why, size_t whylen)
{
    char *dots = strstr(el, ".."), *colon = strchr(el, ':');
    int64_t lo, hi, by = 1;
    int geo = 0;
    *dots = 0;
    if (colon) {
        *colon = 0;
        if (colon[1] != '*' && colon[1] != '+') goto bad;
        geo = colon[1] == '*';
        if (vkb_parse_int(colon + 2, &by)) goto bad;
    }
    if (vkb_parse_int(el, &lo) || vkb_parse_int(dots + 2, &hi)) goto bad;
    if (lo > hi) return snprintf(why, whylen, "empty range (start > end)"), -1;
    if (geo && by <= 1) return snprintf(why, whylen, "range factor must be > 1"), -1;
    if (geo && lo <= 0) return snprintf(why, whylen, "geometric range must start > 0"), -1;
    if (!geo && by <= 0) return snprintf(why, whylen, "range step must be > 0"), -1;
    for (int64_t v = lo;;) {
        char buf[24];
        snprintf(buf, sizeof(buf), "%lld", (long long)v);
        if (axis_push(a, buf)) return snprintf(why, whylen, "too many values (max %d)", VKB_SUITE_MAX_VALUES), -1;
        /* stop before the next value passes hi; unsigned difference so nothing overflows */
        if (geo ? v > hi / by : (uint64_t)hi - (uint64_t)v < (uint64_t)by) break;
        v = geo ? v * by : v + by;
    }
    return 0;
bad:
    return snprintf(why, whylen, "bad range"), -1;
}

static int parse_real(const char *s, double *out)
{
    char *end;
    if (!*s) return -1;
    double d = strtod(s, &end);
    if (*end || !isfinite(d)) return -1;
    *out = d;
    return 0;
}

/* `set KEY=VALUE...`: applied to a copy so a bad line leaves the options as they were. */
static int parse_set(char **tok, int ntok, vkb_options *opt, const char *file, int lineno,
                     char *err, size_t errlen)
{
    vkb_options o = *opt;
    if (ntok < 2) return seterr(err, errlen, file, lineno, "set needs KEY=VALUE");
    for (int t = 1; t < ntok; t++) {
        char *eq = strchr(tok[t], '=');
        if (!eq) return seterr(err, errlen, file, lineno, "expected KEY=VALUE, got '%s'", tok[t]);
        *eq = 0;
        const char *k = tok[t], *v = eq + 1;
        int64_t iv;
        int ok;
        if (!strcmp(k, "min_time")) ok = !parse_real(v, &o.min_time) && o.min_time >= 0;
        else if (!strcmp(k, "max_noise")) ok = !parse_real(v, &o.max_noise) && o.max_noise > 0;
        else if (!strcmp(k, "timeout")) ok = !parse_real(v, &o.timeout) && o.timeout > 0;
        else if (!strcmp(k, "min_samples")) {
            ok = !vkb_parse_int(v, &iv) && iv >= 1;
            o.min_samples = ok ? (long)iv : o.min_samples;
        } else if (!strcmp(k, "cpu_max_bytes")) {
            ok = !vkb_parse_int(v, &iv) && iv >= 0;
            o.cpu_max_bytes = ok ? (double)iv : o.cpu_max_bytes;
        } else if (!strcmp(k, "cpu_budget")) {
            ok = !parse_real(v, &o.cpu_budget) && o.cpu_budget >= 0;
        } else if (!strcmp(k, "warmup")) {
            ok = !parse_real(v, &o.warmup) && o.warmup >= 0 && o.warmup <= 10;
        } else if (!strcmp(k, "gate_delta")) {
            ok = !parse_real(v, &o.gate_delta) && o.gate_delta > 0 && o.gate_delta < 1;
        } else if (!strcmp(k, "mode")) {
            ok = !strcmp(v, "hot") || !strcmp(v, "cold") || !strcmp(v, "rotate");
            if (ok) snprintf(o.mode, sizeof(o.mode), "%s", v);
        } else
            return seterr(err, errlen, file, lineno, "unknown set key '%s' (min_time, max_noise, "
                          "timeout, min_samples, cpu_max_bytes, cpu_budget, mode, gate_delta, warmup)", k);
        if (!ok) return seterr(err, errlen, file, lineno, "bad value for %s: '%s'", k, v);
    }
    *opt = o;
    return 0;
}

static void line_free_axes(vkb_line *l)
{
    for (int i = 0; i < l->naxes; i++) {
        free(l->axis[i].val);
        l->axis[i].val = NULL;
    }
    l->naxes = 0;
}

static int parse_kernel(vkb_suite *s, char **tok, int ntok, const char *comment, const vkb_options *opt,
                        const char *file, int lineno, char *err, size_t errlen)
{
    vkb_line l;
    int rc = -1;
    char why[96];
    memset(&l, 0, sizeof(l));
    l.tol = NAN;
    l.lineno = lineno;
    l.opt = *opt;
    snprintf(l.file, sizeof(l.file), "%s", file);
    if (!is_ident(tok[0], sizeof(l.kernel))) {
        seterr(err, errlen, file, lineno, "bad kernel name '%s' (want [a-z0-9_]+)", tok[0]);
        goto cleanup;
    }
    snprintf(l.kernel, sizeof(l.kernel), "%s", tok[0]);
    int have_tol = 0;
    for (int t = 1; t < ntok; t++) {
        char *eq = strchr(tok[t], '=');
        if (!eq) { seterr(err, errlen, file, lineno, "expected KEY=VALUE, got '%s'", tok[t]); goto cleanup; }
        *eq = 0;
        char *k = tok[t], *v = eq + 1;
        if (!is_ident(k, sizeof(l.axis[0].key))) {
            seterr(err, errlen, file, lineno, "bad key '%s' (want [a-z0-9_]+)", k);
            goto cleanup;
        }
        int dup = have_tol && !strcmp(k, "tol");
        for (int i = 0; i < l.naxes; i++) dup |= !strcmp(l.axis[i].key, k);
        if (dup) { seterr(err, errlen, file, lineno, "duplicate key '%s'", k); goto cleanup; }
        if (!strcmp(k, "tol")) {   /* not an axis: one real, justified in the comment */
            if (parse_real(v, &l.tol) || !(l.tol > 0)) {
                seterr(err, errlen, file, lineno, "bad tol '%s' (want one real > 0)", v);
                goto cleanup;
            }
            if (!*comment) {
                seterr(err, errlen, file, lineno, "tol= needs a reason: add '# why' on the same line");
                goto cleanup;
            }
            snprintf(l.tol_reason, sizeof(l.tol_reason), "%s", comment);
            have_tol = 1;
            continue;
        }
        if (l.naxes >= VKB_SUITE_MAX_AXES) {
            seterr(err, errlen, file, lineno, "too many axes (max %d) at '%s'", VKB_SUITE_MAX_AXES, k);
            goto cleanup;
        }
        vkb_axis *a = &l.axis[l.naxes++];
        snprintf(a->key, sizeof(a->key), "%s", k);
        for (char *el = v, *next;; el = next + 1) {
            next = strchr(el, ',');
            if (next) *next = 0;
            if (!*el) { seterr(err, errlen, file, lineno, "empty value in '%s='", k); goto cleanup; }
            if (strstr(el, "..")) {
                char copy[64];
                snprintf(copy, sizeof(copy), "%s", el);
                if (expand_range(a, el, why, sizeof(why))) {
                    seterr(err, errlen, file, lineno, "%s: '%s' in '%s='", why, copy, k);
                    goto cleanup;
                }
            } else if (strlen(el) >= sizeof(a->val[0])) {
                seterr(err, errlen, file, lineno, "value too long: '%s'", el);
                goto cleanup;
            } else if (axis_push(a, el)) {
                seterr(err, errlen, file, lineno, "too many values in '%s=' (max %d)", k, VKB_SUITE_MAX_VALUES);
                goto cleanup;
            }
            if (!next) break;
        }
    }
    size_t ncases = 1;   /* vkb_line_ncases must not wrap: 12 axes of 256 values are 2^96 cases */
    for (int i = 0; i < l.naxes; i++)
        if (__builtin_mul_overflow(ncases, (size_t)l.axis[i].nval, &ncases) || ncases > VKB_SUITE_MAX_CASES) {
            seterr(err, errlen, file, lineno, "the line expands to more than %d cases (the product of its axes' sizes)",
                   VKB_SUITE_MAX_CASES);
            goto cleanup;
        }
    vkb_line *nl = realloc(s->line, (size_t)(s->nline + 1) * sizeof(*nl));
    if (!nl) { seterr(err, errlen, file, lineno, "out of memory"); goto cleanup; }
    s->line = nl;
    s->line[s->nline++] = l;
    l.naxes = 0;   /* the suite owns the axis arrays now */
    rc = 0;
cleanup:
    line_free_axes(&l);
    return rc;
}

static char *read_file(const char *file, size_t *lenp, char *err, size_t errlen)
{
    FILE *f = fopen(file, "rb");
    char *buf = NULL;
    size_t len = 0, cap = 0;
    if (!f) {
        snprintf(err, errlen, "%s: cannot open: %s", file, strerror(errno));
        return NULL;
    }
    for (;;) {
        if (cap - len < 4096) {
            char *nb = realloc(buf, cap = cap * 2 + 8192);
            if (!nb) { free(buf); buf = NULL; snprintf(err, errlen, "%s: out of memory", file); goto cleanup; }
            buf = nb;
        }
        size_t k = fread(buf + len, 1, cap - len - 1, f);
        len += k;
        if (k == 0) break;
    }
    if (ferror(f)) { free(buf); buf = NULL; snprintf(err, errlen, "%s: read error", file); goto cleanup; }
    buf[len] = 0;
    *lenp = len;
cleanup:
    fclose(f);
    return buf;
}

/* A control byte would change what a line means without showing it (a NUL ended the line early, so
 * `add n=1000\0 dtype=f16` ran in f32): refuse each, by file:line:column. Tab is whitespace; CR only
 * before a line end (CRLF files). */
static int check_bytes(const char *buf, size_t len, const char *file, char *err, size_t errlen)
{
    size_t line0 = 0;
    int lineno = 1;
    for (size_t i = 0; i < len; i++) {
        unsigned char c = (unsigned char)buf[i];
        if (c == '\n') {
            lineno++;
            line0 = i + 1;
            continue;
        }
        if (c == '\t' || (c == '\r' && (i + 1 == len || buf[i + 1] == '\n')) || (c >= 0x20 && c != 0x7f)) continue;
        snprintf(err, errlen, "%s:%d:%zu: control byte 0x%02x%s in the suite: only tab, and CR before a line end, "
                 "are allowed", file, lineno, i - line0 + 1, c, c == 0 ? " (NUL)" : c == '\r' ? " (CR)" : c == 0x7f ? " (DEL)" : "");
        return -1;
    }
    return 0;
}

/* Parse buf (len bytes, buf[len] == 0); a file (is_file) must hold at least one kernel line. */
static int parse_buf(vkb_suite *s, const char *file, char *buf, size_t len, int is_file, vkb_options *opt, char *err,
                     size_t errlen)
{
    char **tok = NULL;
    int rc = -1, lineno = 0, before = s->nline;
    if (check_bytes(buf, len, file, err, errlen)) return -1;
    /* A line has at most len/2 + 1 tokens; size the token array once for the longest. */
    if (!(tok = malloc((len / 2 + 2) * sizeof(*tok)))) {
        snprintf(err, errlen, "%s: out of memory", file);
        goto cleanup;
    }
    for (char *line = buf, *next; line; line = next) {
        lineno++;
        next = strchr(line, '\n');
        if (next) *next++ = 0;
        const char *comment = "";
        char *hash = strchr(line, '#');
        if (hash) {
            *hash = 0;
            char *c = hash + 1, *e = c + strlen(c);
            while (isspace((unsigned char)*c)) c++;
            while (e > c && isspace((unsigned char)e[-1])) *--e = 0;
            comment = c;
        }
        int ntok = 0;
        char *save = NULL;
        for (char *p = strtok_r(line, " \t\r", &save); p; p = strtok_r(NULL, " \t\r", &save))
            tok[ntok++] = p;
        if (ntok == 0) continue;
        int bad = !strcmp(tok[0], "set")
                      ? parse_set(tok, ntok, opt, file, lineno, err, errlen)
                      : parse_kernel(s, tok, ntok, comment, opt, file, lineno, err, errlen);
        if (bad) goto cleanup;
    }
    if (is_file && s->nline == before) {
        snprintf(err, errlen, "%s: no kernel line in the suite (it is empty, or holds only comments and set lines)", file);
        goto cleanup;
    }
    rc = 0;
cleanup:
    free(tok);
    return rc;
}

int vkb_suite_parse(vkb_suite *s, const char *file, const char *text, vkb_options *opt,
                    char *err, size_t errlen)
{
    size_t len = text ? strlen(text) : 0;
    char *buf = text ? strdup(text) : read_file(file, &len, err, errlen);
    if (!buf) {
        if (text) snprintf(err, errlen, "%s: out of memory", file);
        return -1;
    }
    int rc = parse_buf(s, file, buf, len, !text, opt, err, errlen);
    free(buf);
    return rc;
}

int vkb_suite_parse_mem(vkb_suite *s, const char *file, const void *data, size_t len, vkb_options *opt, char *err,
                        size_t errlen)
{
    char *buf = malloc(len + 1);
    if (!buf) {
        snprintf(err, errlen, "%s: out of memory", file);
        return -1;
    }
    if (len) memcpy(buf, data, len);
    buf[len] = 0;
    int rc = parse_buf(s, file, buf, len, 1, opt, err, errlen);
    free(buf);
    return rc;
}

void vkb_suite_free(vkb_suite *s)
{
    for (int i = 0; i < s->nline; i++) line_free_axes(&s->line[i]);
    free(s->line);
    s->line = NULL;
    s->nline = 0;
}

size_t vkb_line_ncases(const vkb_line *l)
{
    size_t n = 1;
    for (int i = 0; i < l->naxes; i++) n *= (size_t)l->axis[i].nval;
    return n;
}

void vkb_line_case(const vkb_line *l, size_t idx, int *pick)
{
    for (int i = l->naxes - 1; i >= 0; i--) {   /* last axis varies fastest */
        size_t nv = (size_t)l->axis[i].nval;
        pick[i] = (int)(idx % nv);
        idx /= nv;
    }
}
