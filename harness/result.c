/* result.c — the result schema's CSV writer and reader, and samples.csv (see result.h). */
#include "result.h"

#include <errno.h>
#include <inttypes.h>
#include <math.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>

enum { COL_S, COL_I, COL_D };
typedef struct { const char *name; int type; size_t off; } vkb_col;

/* The one column table; header, writer and reader walk it. */
static const vkb_col cols[] = {
#define VKB_X_COL(t, name) {#name, COL_##t, offsetof(vkb_result, name)},
    VKB_RESULT_COLUMNS(VKB_X_COL)
#undef VKB_X_COL
};
#define NCOLS ((int)(sizeof(cols) / sizeof(cols[0])))

void vkb_result_init(vkb_result *r)
{
    memset(r, 0, sizeof(*r));
    for (int i = 0; i < NCOLS; i++)
        if (cols[i].type == COL_D) *(double *)(void *)((char *)r + cols[i].off) = NAN;
    /* Measured counts start NA, so a row that stops early (SKIP, ERROR) never claims a 0 it did not see. */
    r->n_bad = r->n_nan = r->n_unwritten = r->n_tie = r->n_checked = VKB_NA_I;
    r->samples = r->batch = r->outliers = r->below_floor = VKB_NA_I;
    r->cpu_fast_runs = r->cpu_fast_threads = r->throttle_discarded = r->e2e_runs = VKB_NA_I;
}

void vkb_result_write_header(FILE *f)
{
    for (int i = 0; i < NCOLS; i++) fprintf(f, "%s%s", i ? "," : "", cols[i].name);
    fputc('\n', f);
}

void vkb_csv_field(FILE *f, const char *s)
{
    if (!strpbrk(s, ",\"\n\r")) { fputs(s, f); return; }
    fputc('"', f);
    for (; *s; s++) {
        if (*s == '"') fputc('"', f);
        fputc(*s, f);
    }
    fputc('"', f);
}

/* Shortest of %.15g..%.17g that reads back to the same double: readable cells, no lost bits
 * (tie counts in the Mann-Whitney test depend on exact sample values). */
static void put_double(FILE *f, double v)
{
    char buf[40];
    if (isnan(v)) { fputs("NA", f); return; }
    if (isinf(v)) { fputs(v > 0 ? "inf" : "-inf", f); return; }
    for (int p = 15; p <= 17; p++) {
        snprintf(buf, sizeof(buf), "%.*g", p, v);
        if (strtod(buf, NULL) == v) break;
    }
    fputs(buf, f);
}

void vkb_result_write_row(FILE *f, const vkb_result *r)
{
    for (int i = 0; i < NCOLS; i++) {
        const char *p = (const char *)r + cols[i].off;
        if (i) fputc(',', f);
        switch (cols[i].type) {
        case COL_S: vkb_csv_field(f, p); break;
        case COL_I: {
            int64_t v = *(const int64_t *)(const void *)p;
            v == VKB_NA_I ? (void)fputs("NA", f) : (void)fprintf(f, "%" PRId64, v);
            break;
        }
        default: put_double(f, *(const double *)(const void *)p); break;
        }
    }
    fputc('\n', f);
    fflush(f);
}

int vkb_csv_split(char *line, char **fields, int max)
{
    int n = 0;
    for (char *p = line;;) {
        if (n >= max) return -1;
        if (*p != '"') {
            fields[n++] = p;
            char *c = strchr(p, ',');
            if (!c) return n;
            *c = 0;
            p = c + 1;
            continue;
        }
        char *w = ++p;   /* unquote in place: w trails p */
        fields[n++] = w;
        for (;;) {
            if (!*p) return -1;   /* unterminated quote */
            if (*p == '"' && p[1] == '"') { *w++ = '"'; p += 2; continue; }
            if (*p == '"') { p++; break; }
            *w++ = *p++;
        }
        char c = *p;
        *w = 0;
        if (c == 0) return n;
        if (c != ',') return -1;   /* text after the closing quote */
        p++;
    }
}

/* Reads logical CSV records: a quoted field may span physical lines. */
typedef struct {
    FILE *f;
    char *rec, *line;
    size_t reccap, linecap;
    long lineno, start;   /* lines read so far; first line of the current record */
    int noeol;            /* the current record's last line had no newline: the end of the file, maybe cut short */
    char **fields;
    int fieldcap;
} csv_reader;

/* 1 = a record in r->rec (line end stripped), 0 = end of file, -1 = unterminated quote / no memory. */
static int csv_next(csv_reader *r)
{
    size_t len = 0;
    int quotes = 0;
    ssize_t k;
    r->start = r->lineno + 1;
    r->noeol = 0;
    while ((k = getline(&r->line, &r->linecap, r->f)) >= 0) {
        r->lineno++;
        r->noeol = k == 0 || r->line[k - 1] != '\n';
        if (len + (size_t)k + 1 > r->reccap) {
            size_t nc = (len + (size_t)k + 1) * 2;
            char *nr = realloc(r->rec, nc);
            if (!nr) return -1;
            r->rec = nr;
            r->reccap = nc;
        }
        memcpy(r->rec + len, r->line, (size_t)k + 1);
        len += (size_t)k;
        for (ssize_t i = 0; i < k; i++) quotes ^= r->line[i] == '"';
        if (!quotes) break;
    }
    if (len == 0) return 0;
    if (quotes) return -1;
    while (len > 0 && (r->rec[len - 1] == '\n' || r->rec[len - 1] == '\r')) r->rec[--len] = 0;
    return 1;
}

/* Split the current record; the field array grows to the record's comma count. */
static int csv_fields(csv_reader *r)
{
    int need = 1;
    for (const char *p = r->rec; *p; p++) need += *p == ',';
    if (need > r->fieldcap) {
        char **nf = realloc(r->fields, (size_t)need * sizeof(*nf));
        if (!nf) return -1;
        r->fields = nf;
        r->fieldcap = need;
    }
    return vkb_csv_split(r->rec, r->fields, r->fieldcap);
}

static void csv_close(csv_reader *r)
{
    free(r->rec);
    free(r->line);
    free(r->fields);
}

__attribute__((format(printf, 5, 6)))
static int fail(char *err, size_t errlen, const char *path, long line, const char *fmt, ...)
{
    va_list ap;
    int k = snprintf(err, errlen, "%s:%ld: ", path, line);
    if (k >= 0 && (size_t)k < errlen) {
        va_start(ap, fmt);
        vsnprintf(err + k, errlen - (size_t)k, fmt, ap);
        va_end(ap);
    }
    return -1;
}

/* Read the header of f (owned by the caller: csv_close leaves it open). Returns its field count, or -1 with err. */
static int csv_open(csv_reader *r, FILE *f, const char *path, char *err, size_t errlen)
{
    memset(r, 0, sizeof(*r));
    r->f = f;
    int st = csv_next(r);
    if (st <= 0 || !*r->rec) return fail(err, errlen, path, 1, "no header");
    int n = csv_fields(r);
    if (n < 0) return fail(err, errlen, path, 1, "malformed header");
    return n;
}

/* The next non-empty record split into exactly nf fields: 1, 0 at end, -1 with err set. */
static int csv_row(csv_reader *r, int nf, const char *path, char *err, size_t errlen)
{
    int st;
    while ((st = csv_next(r)) == 1 && !*r->rec) {}
    if (st == 0) return 0;
    if (st < 0) return fail(err, errlen, path, r->start, "unterminated quote");
    int n = csv_fields(r);
    if (n < 0) return fail(err, errlen, path, r->start, "malformed field (text after a closing quote)");
    if (n != nf) return fail(err, errlen, path, r->start, "expected %d fields, got %d", nf, n);
    return 1;
}

/* An empty cell is never written (unmeasured is "NA"): it is refused, not read as 0 or NA. */
static int parse_i64(const char *s, int64_t *v)
{
    char *end;
    if (!*s) return -1;
    if (!strcmp(s, "NA")) { *v = VKB_NA_I; return 0; }
    errno = 0;
    long long x = strtoll(s, &end, 10);
    if (errno || *end) return -1;
    *v = x;
    return 0;
}

static int parse_double(const char *s, double *v)
{
    char *end;
    if (!*s) return -1;
    if (!strcmp(s, "NA")) { *v = NAN; return 0; }
    double x = strtod(s, &end);
    if (*end || isnan(x)) return -1;   /* unmeasured is written NA: a literal NaN is corrupt input */
    *v = x;
    return 0;
}

const char vkb_result_statuses[] = "PASS, TIMED, FAIL, SKIP, ERROR or INTERRUPTED";

int vkb_result_status_known(const char *s)
{
    static const char *const known[] = {"PASS", "TIMED", "FAIL", "SKIP", "ERROR", "INTERRUPTED"};
    for (size_t i = 0; i < sizeof(known) / sizeof(known[0]); i++)
        if (!strcmp(s, known[i])) return 1;
    return 0;
}

int vkb_result_need_status(const char *path, const vkb_result *rows, long n, char *err, size_t errlen)
{
    for (long i = 0; i < n; i++)
        if (!rows[i].status[0]) {
            snprintf(err, errlen, "%s: data row %ld (case_id %lld, %s %s): no status (vkbench writes %s)", path, i + 1,
                     (long long)rows[i].case_id, rows[i].kernel, rows[i].params, vkb_result_statuses);
            return -1;
        }
    return 0;
}

int vkb_result_column(const char *name)
{
    for (int i = 0; i < NCOLS; i++)
        if (!strcmp(cols[i].name, name)) return i;
    return -1;
}

/* fopen path and hand it to read; the file is closed after. */
static FILE *open_read(const char *path, char *err, size_t errlen)
{
    FILE *f = fopen(path, "r");
    if (!f) snprintf(err, errlen, "%s: cannot open: %s", path, strerror(errno));
    return f;
}

long vkb_result_read(const char *path, vkb_result **out, char *err, size_t errlen)
{
    FILE *f = open_read(path, err, errlen);
    *out = NULL;
    if (!f) return -1;
    long n = vkb_result_read_stream(f, path, out, err, errlen);
    fclose(f);
    return n;
}

long vkb_result_read_stream(FILE *f, const char *path, vkb_result **out, char *err, size_t errlen)
{
    csv_reader r;
    int *map = NULL;
    vkb_result *rows = NULL;
    long n = 0, cap = 0, rc = -1;
    int nf = csv_open(&r, f, path, err, errlen), st, known = 0;
    *out = NULL;
    if (nf < 0) goto cleanup;
    if (!(map = malloc((size_t)nf * sizeof(*map)))) { fail(err, errlen, path, 1, "out of memory"); goto cleanup; }
    for (int j = 0; j < nf; j++) {
        map[j] = -1;
        for (int i = 0; i < NCOLS; i++)
            if (!strcmp(r.fields[j], cols[i].name)) { map[j] = i; known++; break; }
    }
    if (!known) { fail(err, errlen, path, 1, "no known column in the header"); goto cleanup; }
    while ((st = csv_row(&r, nf, path, err, errlen)) == 1) {
        if (n == cap) {
            vkb_result *nr = realloc(rows, (size_t)(cap = cap * 2 + 16) * sizeof(*nr));
            if (!nr) { fail(err, errlen, path, r.start, "out of memory"); goto cleanup; }
            rows = nr;
        }
        vkb_result *x = &rows[n];
        vkb_result_init(x);
        for (int j = 0; j < nf; j++) {
            if (map[j] < 0) continue;
            const vkb_col *c = &cols[map[j]];
            char *p = (char *)x + c->off;
            const char *v = r.fields[j];
            int bad = 0, ident = !strcmp(c->name, "line") || !strcmp(c->name, "case_id") || !strcmp(c->name, "seed");
            if (c->type == COL_S) {
                snprintf(p, VKB_STR_LEN, "%s", v);
                /* Every reader counts rows by status: one it does not know would be counted as nothing. */
                if (c->off == offsetof(vkb_result, status) && *v && !vkb_result_status_known(v)) {
                    fail(err, errlen, path, r.start, "bad status '%s' in column status (vkbench writes %s)", v,
                         vkb_result_statuses);
                    goto cleanup;
                }
            } else if (c->type == COL_I)   /* a row's identity is always known: NA only for measured counts */
                bad = parse_i64(v, (int64_t *)(void *)p) || (*(int64_t *)(void *)p == VKB_NA_I && ident);
            else bad = parse_double(v, (double *)(void *)p);
            if (bad && !*v) {
                fail(err, errlen, path, r.start, "empty cell in column %s (vkbench writes %s there)", c->name,
                     c->type == COL_D ? "a number, or NA where it was not measured"
                     : ident          ? "an integer"
                                      : "an integer, or NA where it was not measured");
                goto cleanup;
            }
            if (bad) {
                fail(err, errlen, path, r.start, "bad %s '%s' in column %s",
                     c->type == COL_I ? "integer" : "number", v, c->name);
                goto cleanup;
            }
        }
        n++;
    }
    if (st < 0) goto cleanup;
    *out = rows;
    rows = NULL;
    rc = n;
cleanup:
    free(rows);
    free(map);
    csv_close(&r);
    return rc;
}

int vkb_result_require(const char *path, const char *const *need, size_t n, char *err, size_t errlen)
{
    csv_reader r;
    FILE *f = open_read(path, err, errlen);
    if (!f) return -1;
    int nf = csv_open(&r, f, path, err, errlen), rc = nf < 0 ? -1 : 0;
    for (size_t i = 0; rc == 0 && i < n; i++) {
        int j = 0;
        while (j < nf && strcmp(r.fields[j], need[i])) j++;
        if (j == nf) rc = fail(err, errlen, path, 1, "missing required column '%s' (the header has %d columns)", need[i], nf);
    }
    csv_close(&r);
    fclose(f);
    return rc;
}

void vkb_samples_write_header(FILE *f)
{
    fputs("case_id,sample,time_s,batch\n", f);
}

void vkb_samples_write(FILE *f, int64_t case_id, const double *t, size_t n, int64_t batch)
{
    for (size_t i = 0; i < n; i++) {
        fprintf(f, "%" PRId64 ",%zu,", case_id, i);
        put_double(f, t[i]);
        fprintf(f, ",%" PRId64 "\n", batch);
    }
    fflush(f);
}

/* The first fault of one samples.csv line (fields already split), or NULL; *id, *x get its case and time. */
static const char *sample_fault(char **fl, const int *j, int64_t *id, double *x, char *msg, size_t len)
{
    int64_t s, b;
    if (parse_i64(fl[j[0]], id) || *id == VKB_NA_I || *id < 0)
        snprintf(msg, len, "column case_id: '%s' is not a case id (an integer >= 0)", fl[j[0]]);
    else if (parse_i64(fl[j[1]], &s) || s == VKB_NA_I || s < 0)
        snprintf(msg, len, "column sample: '%s' is not a sample index (an integer >= 0)", fl[j[1]]);
    else if (parse_i64(fl[j[3]], &b) || b == VKB_NA_I || b < 1)
        snprintf(msg, len, "column batch: '%s' is not a batch size (an integer >= 1)", fl[j[3]]);
    else if (parse_double(fl[j[2]], x) || !(*x > 0) || isinf(*x))
        snprintf(msg, len, "column time_s: '%s' is not a positive finite time (a time not measured has no line)",
                 fl[j[2]]);
    else return NULL;
    return msg;
}

long vkb_samples_load(const char *path, int64_t case_id, int torn_tail, int64_t **ids, double **t, char *err,
                      size_t errlen)
{
    FILE *f = open_read(path, err, errlen);
    *t = NULL;
    if (ids) *ids = NULL;
    if (!f) return -1;
    long n = vkb_samples_load_stream(f, path, case_id, torn_tail, ids, t, err, errlen);
    fclose(f);
    return n;
}

long vkb_samples_load_stream(FILE *f, const char *path, int64_t case_id, int torn_tail, int64_t **ids, double **t,
                             char *err, size_t errlen)
{
    static const char *const name[4] = {"case_id", "sample", "time_s", "batch"};
    csv_reader r;
    double *v = NULL;
    int64_t *vid = NULL;
    long n = 0, cap = 0, rc = -1;
    int j[4], st;
    *t = NULL;
    if (ids) *ids = NULL;
    int nf = csv_open(&r, f, path, err, errlen);
    if (nf < 0) goto cleanup;
    for (int q = 0; q < 4; q++) {
        j[q] = -1;
        for (int k = 0; k < nf; k++)
            if (!strcmp(r.fields[k], name[q])) j[q] = k;
        if (j[q] < 0) {
            fail(err, errlen, path, 1, "missing required column '%s' (samples.csv has case_id,sample,time_s,batch)", name[q]);
            goto cleanup;
        }
    }
    while ((st = csv_next(&r)) == 1) {
        char msg[300];
        const char *bad = NULL;
        int64_t id = 0;
        double x = NAN;
        if (!*r.rec) continue;
        int k = csv_fields(&r);
        if (k < 0) bad = "malformed field (text after a closing quote)";
        else if (k != nf) snprintf(msg, sizeof(msg), "expected %d fields, got %d", nf, k), bad = msg;
        else bad = sample_fault(r.fields, j, &id, &x, msg, sizeof(msg));
        if (bad && torn_tail && r.noeol) break;  /* the write of the case in flight, cut short: no row needs it */
        if (bad) {
            fail(err, errlen, path, r.start, "%s", bad);
            goto cleanup;
        }
        if (case_id >= 0 && id != case_id) continue;
        if (n == cap) {
            cap = cap * 2 + 256;
            double *nv = realloc(v, (size_t)cap * sizeof(*nv));
            if (nv) v = nv;
            int64_t *ni = nv && ids ? realloc(vid, (size_t)cap * sizeof(*ni)) : NULL;
            if (ni) vid = ni;
            if (!nv || (ids && !ni)) {
                fail(err, errlen, path, r.start, "out of memory");
                goto cleanup;
            }
        }
        if (ids) vid[n] = id;
        v[n++] = x;
    }
    if (st < 0 && !(torn_tail && r.noeol)) {
        fail(err, errlen, path, r.start, "unterminated quote");
        goto cleanup;
    }
    *t = v;
    if (ids) *ids = vid;
    v = NULL, vid = NULL;
    rc = n;
cleanup:
    free(v);
    free(vid);
    csv_close(&r);
    return rc;
}

int vkb_samples_match_row(const char *samples_csv, const char *results_csv, const vkb_result *r, long ns, char *err,
                          size_t errlen)
{
    if (ns > 0 && (r->samples == VKB_NA_I || ns == r->samples)) return 0;
    if (ns == 0)
        snprintf(err, errlen, "%s: case_id %lld (%s %s) is %s in %s but has no samples (truncated or mixed files?)",
                 samples_csv, (long long)r->case_id, r->kernel, r->params, r->status, results_csv);
    else
        snprintf(err, errlen, "%s: case_id %lld (%s %s): %ld samples, but %s says %lld (truncated or mixed files?)",
                 samples_csv, (long long)r->case_id, r->kernel, r->params, ns, results_csv, (long long)r->samples);
    return -1;
}

long vkb_samples_for_row(const char *samples_csv, const char *results_csv, const vkb_result *r, int torn_tail, double **t,
                         char *err, size_t errlen)
{
    long ns = vkb_samples_load(samples_csv, r->case_id, torn_tail, NULL, t, err, errlen);
    if (ns < 0) return -1;
    if (!vkb_samples_match_row(samples_csv, results_csv, r, ns, err, errlen)) return ns;
    free(*t);
    *t = NULL;
    return -1;
}
