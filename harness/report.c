/* report.c — `vkbench report` (see report.h). Every number goes through num(): it is computed by eval()
 * from a named source (cell, formula, bootstrap, published constant), printed, and listed in
 * report-numbers.csv; verify re-evaluates the list and scans report.md for digits nobody accounted for. */
#include <ctype.h>
#include <errno.h>
#include <fcntl.h>
#include <math.h>
#include <spawn.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>

#include "report.h"
#include "result.h"
#include "rundir.h"

#define BOOT_B 1000
#define CONF 0.95
#define MAX_RUNS 8
#define BOX_MAX 24   /* timing-distribution plot: at most this many boxes per run (see box_pick) */

extern char **environ;

/* ---------------- sources: runs, cells, constants ---------------- */

typedef struct run {
    char dir[512];
    vkb_result *rows;
    long n;
    int64_t *sc;   /* samples.csv: case ids and per-launch times, in file order (grouped by case) */
    double *st;
    size_t ns;
} rrun;

/* Published claims (bitnet-metal 1.0.0) and the report's fixed method constants. */
static const struct { const char *name; double v; const char *text; } consts[] = {
    {"claim_version", NAN, "1.0.0"},
    {"claim_matmul_x", 2915.5, NULL}, {"claim_elementwise_x", 2955.4, NULL}, {"claim_quant_x", 3059, NULL},
    {"claim_bw_pct", 85, NULL},       {"claim_power_pct", 40, NULL},        {"matmul_size", 512, NULL},
    {"conf_pct", 100 * CONF, NULL},   {"boot_B", BOOT_B, NULL},
    {"floor_factor", 10, NULL},  /* below_floor: median < this x max(timer_floor_s, dispatch_s), calibrate.c */
    {"box_max", BOX_MAX, NULL},
};

static int col_num(const vkb_result *r, const char *name, double *v)
{
#define VKB_X_NUM_S(n)
#define VKB_X_NUM_I(n) if (!strcmp(name, #n)) { *v = r->n == VKB_NA_I ? NAN : (double)r->n; return 0; }
#define VKB_X_NUM_D(n) if (!strcmp(name, #n)) { *v = r->n; return 0; }
#define VKB_X_NUM(t, n) VKB_X_NUM_##t(n)
    VKB_RESULT_COLUMNS(VKB_X_NUM)
#undef VKB_X_NUM
    *v = NAN;
    return -1;
}

static const char *col_str(const vkb_result *r, const char *name)
{
#define VKB_X_STR_S(n) if (!strcmp(name, #n)) return r->n;
#define VKB_X_STR_I(n)
#define VKB_X_STR_D(n)
#define VKB_X_STR(t, n) VKB_X_STR_##t(n)
    VKB_RESULT_COLUMNS(VKB_X_STR)
#undef VKB_X_STR
    return NULL;
}

static double col(const vkb_result *r, const char *name)
{
    double v;
    col_num(r, name, &v);
    return v;
}

static const vkb_result *find_case(const rrun *R, int64_t id)
{
    for (long i = 0; i < R->n; i++)
        if (R->rows[i].case_id == id) return &R->rows[i];
    return NULL;
}

static size_t case_samples(const rrun *R, int64_t id, const double **t)
{
    size_t i = 0, n = 0;
    while (i < R->ns && R->sc[i] != id) i++;
    while (i + n < R->ns && R->sc[i + n] == id) n++;
    *t = R->st + i;
    return n;
}

static uint64_t splitmix(uint64_t *s)
{
    uint64_t z = (*s += 0x9e3779b97f4a7c15ull);
    z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
    z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
    return z ^ (z >> 31);
}

static int cmp_d(const void *a, const void *b)
{
    double x = *(const double *)a, y = *(const double *)b;
    return x < y ? -1 : x > y;
}

/* k-th smallest of x[0..n) (Hoare's selection; reorders x). */
static double select_k(double *x, size_t n, size_t k)
{
    size_t lo = 0, hi = n - 1;
    while (lo < hi) {
        double p = x[lo + (hi - lo) / 2];
        size_t i = lo, j = hi;
        while (i <= j) {
            while (x[i] < p) i++;
            while (x[j] > p) j--;
            if (i <= j) {
                double t = x[i];
                x[i] = x[j], x[j] = t;
                i++;
                if (j == 0) break;
                j--;
            }
        }
        if (k <= j) hi = j;
        else if (k >= i) lo = i;
        else return x[k];
    }
    return x[k];
}

/* Median of x[0..n) (reorders x): the mean of the two middle values when n is even. */
static double median_select(double *x, size_t n)
{
    double hi = select_k(x, n, n / 2);
    if (n % 2) return hi;
    double lo = x[0];
    for (size_t i = 1; i < n / 2; i++) lo = x[i] > lo ? x[i] : lo;  /* after selection, x[0..n/2) <= hi */
    return 0.5 * (lo + hi);
}

int vkb_report_boot_ratio(double num, const double *x, size_t n, int B, double conf, uint64_t seed, double *lo,
                          double *hi)
{
    *lo = *hi = NAN;
    if (n < 2 || B < 10 || isnan(num)) return -1;
    double *res = malloc(n * sizeof(*res)), *stat = malloc((size_t)B * sizeof(*stat));
    if (!res || !stat) {
        free(res), free(stat);
        return -1;
    }
    uint64_t s = seed;
    for (int b = 0; b < B; b++) {
        for (size_t i = 0; i < n; i++) res[i] = x[splitmix(&s) % n];
        stat[b] = num / median_select(res, n);
    }
    qsort(stat, (size_t)B, sizeof(*stat), cmp_d);
    double a = (1 - conf) / 2 * (B - 1), c = (1 + conf) / 2 * (B - 1);  /* linear interpolation (type 7) */
    size_t ia = (size_t)a, ic = (size_t)c;
    *lo = stat[ia] + (a - (double)ia) * (ia + 1 < (size_t)B ? stat[ia + 1] - stat[ia] : 0);
    *hi = stat[ic] + (c - (double)ic) * (ic + 1 < (size_t)B ? stat[ic + 1] - stat[ic] : 0);
    free(res), free(stat);
    return 0;
}

/* ---------------- row selections shared by the report and its verification ---------------- */

static int is_pass(const vkb_result *r) { return !strcmp(r->status, "PASS"); }
static int fast_ok(const vkb_result *r) { return !strcmp(r->cpu_fast_status, "PASS"); }

/* m, n, k of a matmul row from its params text (m and k default to n). */
static void mnk(const char *params, long *m, long *n, long *k)
{
    *m = *n = *k = -1;
    for (const char *p = params; p && *p; p++)
        if ((p == params || p[-1] == ' ') && p[1] == '=') {
            long v = strtol(p + 2, NULL, 10);
            if (*p == 'm') *m = v;
            if (*p == 'n') *n = v;
            if (*p == 'k') *k = v;
        }
    if (*m < 0) *m = *n;
    if (*k < 0) *k = *n;
}

static int in_list(const char *k, const char *const *list)
{
    for (; *list; list++)
        if (!strcmp(k, *list)) return 1;
    return 0;
}

static const char *const elementwise[] = {"copy", "add", "sub", "mul", "div", "scale_add", "relu", "gelu", "silu", "sigmoid", NULL};
static int want_elem(const vkb_result *r) { return in_list(r->kernel, elementwise); }
static int want_elem_nocopy(const vkb_result *r) { return want_elem(r) && strcmp(r->kernel, "copy"); }
static int want_elem_fast(const vkb_result *r) { return want_elem(r) && fast_ok(r); }
static int want_quant(const vkb_result *r) { return !strcmp(r->kernel, "bitnet_wquant"); }
static int want_quant_fast(const vkb_result *r) { return want_quant(r) && fast_ok(r); }
static int want_mm(const vkb_result *r)
{
    long m, n, k;
    mnk(r->params, &m, &n, &k);
    return !strcmp(r->kernel, "matmul") && m == 512 && n == 512 && k == 512;
}

/* The row sets a claim picks from, by name (report-numbers.csv names them so --verify can redo the count);
 * one_size: the set is one size, so every row of it that did not PASS matters, whatever bytes it declares. */
typedef struct pickset {
    const char *name;
    int (*want)(const vkb_result *);
    int one_size;
    const char *what;
} pickset;
static const pickset picks[] = {
    {"elementwise", want_elem, 0, "elementwise rows moving as many bytes or more"},
    {"elementwise_nocopy", want_elem_nocopy, 0, "elementwise rows other than copy moving as many bytes or more"},
    {"bitnet_wquant", want_quant, 0, "bitnet_wquant rows moving as many bytes or more"},
    {"matmul_512", want_mm, 1, "matmul rows at that size"},
};

static const pickset *pick_set(const char *name)
{
    for (size_t i = 0; i < sizeof(picks) / sizeof(picks[0]); i++)
        if (!strcmp(picks[i].name, name)) return &picks[i];
    return NULL;
}

/* The rows of set ps that did not PASS and move at least as many bytes as the picked row r (a claim made
 * from r says nothing about them; a row whose bytes are unknown counts only in a one-size set); *big gets
 * the one moving the most bytes (ties: first). */
static long not_measured(const rrun *u, const vkb_result *r, const pickset *ps, const vkb_result **big)
{
    long k = 0;
    *big = NULL;
    for (long j = 0; ps && j < u->n; j++) {
        const vkb_result *o = &u->rows[j];
        if (is_pass(o) || !ps->want(o) || !(ps->one_size || (o->bytes > 0 && o->bytes >= r->bytes))) continue;
        k++;
        if (!*big || o->bytes > (*big)->bytes) *big = o;
    }
    return k;
}

/* A reason with its sizes elided, so that reasons differing only in numbers fall into one group: a number
 * not glued to a word (fp16 stays), with 2^k, AxB and a byte unit after it, becomes "…"; so does a quoted name. */
static void mask_reason(const char *in, char *out, size_t len)
{
    size_t o = 0;
    const char *p = in;
    while (*p && o + 6 < len) {
        int glued = p > in && (isalnum((unsigned char)p[-1]) || p[-1] == '_');
        const char *q = p;
        if (*p == '\'' && (q = strchr(p + 1, '\''))) {
            memcpy(out + o, "'…'", 5), o += 5, p = q + 1;  /* "…" is three bytes */
            continue;
        }
        if (!isdigit((unsigned char)*p) || glued) {
            out[o++] = *p++;
            continue;
        }
        while (isdigit((unsigned char)*p) || ((*p == '.' || *p == '^' || *p == 'x') && isdigit((unsigned char)p[1]))) p++;
        q = p + (*p == ' ');
        if (q[0] && strchr("KMGT", q[0]) && q[1] == 'i' && q[2] == 'B') p = q + 3;
        else if (q[0] == 'B' && !isalnum((unsigned char)q[1])) p = q + 1;
        memcpy(out + o, "…", 3), o += 3;
    }
    out[o] = 0;
}

/* The rows among the first `upto` in r's group: same status, same reason once masked. */
static long group_count(const rrun *u, const vkb_result *r, long upto)
{
    char a[600], b[600];
    long k = 0;
    mask_reason(r->reason, a, sizeof(a));
    for (long q = 0; q < upto; q++) {
        if (strcmp(u->rows[q].status, r->status)) continue;
        mask_reason(u->rows[q].reason, b, sizeof(b));
        k += !strcmp(a, b);
    }
    return k;
}

/* The timing-distribution plot's cases: PASS rows with at least two samples; all of them when they fit
 * in BOX_MAX boxes, else each kernel's largest (most bytes; ties: first), the first BOX_MAX kernels in
 * run order. Fills idx (BOX_MAX entries), returns how many; *eligible and *kernels count the candidates. */
static int box_pick(const rrun *u, long *idx, long *eligible, long *kernels)
{
    int n = 0;
    char *ok = calloc((size_t)u->n + 1, 1);
    *eligible = *kernels = 0;
    for (long j = 0; ok && j < u->n; j++) {
        const double *t;
        ok[j] = is_pass(&u->rows[j]) && case_samples(u, u->rows[j].case_id, &t) >= 2;
        long p = 0;
        while (ok[j] && p < j && !(ok[p] && !strcmp(u->rows[p].kernel, u->rows[j].kernel))) p++;
        *eligible += ok[j], *kernels += ok[j] && p == j;
    }
    int all = *eligible <= BOX_MAX;
    for (long j = 0; ok && j < u->n; j++) {
        if (!ok[j]) continue;
        int q = 0;
        while (!all && q < n && strcmp(u->rows[idx[q]].kernel, u->rows[j].kernel)) q++;
        if (all || q == n) {
            if (n < BOX_MAX) idx[n++] = j;
        } else if (u->rows[j].bytes > u->rows[idx[q]].bytes) {
            idx[q] = j;
        }
    }
    free(ok);
    return n;
}

/* A number's source. kinds: cell (a * scale), ratio (a / b * scale), boot_lo / boot_hi (bootstrap of
 * a / median(GPU samples) * scale), count (rows of the run whose column a equals b), rows (rows of the run),
 * group (rows in the case's group_count), nomeas (not_measured() of pick set a), boxes (box_pick: a = shown,
 * eligible or kernels), const (table above), str (the text of string column a: identity, parameters,
 * reasons), mask (the same through mask_reason). */
typedef struct src {
    char kind[8];
    int run;
    int64_t case_id;
    char a[32], b[32];
    double scale;
    int sig;
} src;

static double eval(const rrun *runs, int nruns, const src *s)
{
    if (!strcmp(s->kind, "const")) {
        for (size_t i = 0; i < sizeof(consts) / sizeof(consts[0]); i++)
            if (!strcmp(consts[i].name, s->a)) return consts[i].v;
        return NAN;
    }
    if (s->run < 0 || s->run >= nruns) return NAN;
    const rrun *R = &runs[s->run];
    if (!strcmp(s->kind, "count")) {
        double k = 0;
        for (long i = 0; i < R->n; i++) {
            const char *v = col_str(&R->rows[i], s->a);
            k += v ? !strcmp(v, s->b) : col(&R->rows[i], s->a) == strtod(s->b, NULL);
        }
        return k;
    }
    if (!strcmp(s->kind, "rows")) return (double)R->n;
    if (!strcmp(s->kind, "boxes")) {
        long idx[BOX_MAX], el, kn;
        int n = box_pick(R, idx, &el, &kn);
        return !strcmp(s->a, "shown") ? n : !strcmp(s->a, "eligible") ? (double)el : !strcmp(s->a, "kernels") ? (double)kn : NAN;
    }
    const vkb_result *r = find_case(R, s->case_id);
    if (!r) return NAN;
    if (!strcmp(s->kind, "group")) return (double)group_count(R, r, R->n);
    if (!strcmp(s->kind, "nomeas")) {
        const vkb_result *big;
        return (double)not_measured(R, r, pick_set(s->a), &big);
    }
    if (!strcmp(s->kind, "cell")) return col(r, s->a) * s->scale;
    if (!strcmp(s->kind, "ratio")) return col(r, s->a) / col(r, s->b) * s->scale;
    if (!strncmp(s->kind, "boot_", 5)) {
        /* Each interval is asked for several times (low and high end, table and plot): keep the last ones. */
        static struct { const rrun *r; int64_t id; char a[32]; double num, lo, hi; } cache[64];
        static unsigned next;
        double num = col(r, s->a), lo = NAN, hi = NAN;
        int hit = 0;
        for (unsigned c = 0; c < 64 && !hit; c++)
            if (cache[c].r == R && cache[c].id == s->case_id && !strcmp(cache[c].a, s->a) && cache[c].num == num)
                lo = cache[c].lo, hi = cache[c].hi, hit = 1;
        if (!hit) {
            const double *t;
            size_t n = case_samples(R, s->case_id, &t);
            vkb_report_boot_ratio(num, t, n, BOOT_B, CONF, (uint64_t)s->case_id * 7919u + (uint64_t)s->run, &lo, &hi);
            unsigned c = next++ % 64;
            cache[c].r = R, cache[c].id = s->case_id, cache[c].num = num, cache[c].lo = lo, cache[c].hi = hi;
            snprintf(cache[c].a, sizeof(cache[c].a), "%s", s->a);
        }
        return (!strcmp(s->kind, "boot_lo") ? lo : hi) * s->scale;
    }
    return NAN;
}

/* The printed text of a source: numbers with s->sig significant digits, NA when not measured. */
static void render(const rrun *runs, int nruns, const src *s, char *out, size_t len)
{
    for (size_t i = 0; !strcmp(s->kind, "const") && i < sizeof(consts) / sizeof(consts[0]); i++)
        if (!strcmp(consts[i].name, s->a) && consts[i].text) {
            snprintf(out, len, "%s", consts[i].text);
            return;
        }
    if (!strcmp(s->kind, "str") || !strcmp(s->kind, "mask")) {
        const vkb_result *r = s->run >= 0 && s->run < nruns ? find_case(&runs[s->run], s->case_id) : NULL;
        const char *v = r ? col_str(r, s->a) : NULL;
        if (v && *v && s->kind[0] == 'm') mask_reason(v, out, len);
        else snprintf(out, len, "%s", v && *v ? v : "NA");
        return;
    }
    if (!strcmp(s->kind, "why")) {   /* item b's reason within a "k1: why1; k2: why2" column a */
        const vkb_result *r = s->run >= 0 && s->run < nruns ? find_case(&runs[s->run], s->case_id) : NULL;
        const char *v = r ? col_str(r, s->a) : NULL, *p = v;
        size_t kl = strlen(s->b);
        while (p && *p && !(!strncmp(p, s->b, kl) && p[kl] == ':' && p[kl + 1] == ' '))
            if ((p = strstr(p, "; "))) p += 2;
        if (!p || !*p) snprintf(out, len, "NA");
        else {
            const char *e = strstr(p + kl + 2, "; ");
            snprintf(out, len, "%.*s", (int)(e ? (size_t)(e - p) - kl - 2 : strlen(p + kl + 2)), p + kl + 2);
        }
        return;
    }
    double v = eval(runs, nruns, s);
    if (isnan(v) || isinf(v)) snprintf(out, len, "NA");
    else snprintf(out, len, "%.*g", s->sig, v);
}

/* ---------------- output: markdown + HTML side by side ---------------- */

typedef struct rep {
    rrun *r;
    int nr;
    FILE *md, *html, *nums;
    int nid;
    char ring[64][200];
    int ri;
    char plotdir[600];
    const char *tmpl;
    char noplot[200];  /* why plots are not rendered, or "" */
} rep;

static void html_esc(FILE *f, const char *s)
{
    for (; *s; s++)
        if (*s == '<') fputs("&lt;", f);
        else if (*s == '>') fputs("&gt;", f);
        else if (*s == '&') fputs("&amp;", f);
        else fputc(*s, f);
}

/* Register and render one number (or string cell); returns the text (valid for the next 64 calls). */
static const char *num(rep *R, const char *kind, int run, int64_t case_id, const char *a, const char *b, double scale,
                       int sig)
{
    src s = {.run = run, .case_id = case_id, .scale = scale, .sig = sig};
    snprintf(s.kind, sizeof(s.kind), "%s", kind);
    snprintf(s.a, sizeof(s.a), "%s", a ? a : "");
    snprintf(s.b, sizeof(s.b), "%s", b ? b : "");
    char *out = R->ring[R->ri++ % 64];
    render(R->r, R->nr, &s, out, 200);
    for (char *p = out; *p; p++)
        if (*p == '|' || *p == '\n') *p = ' ';  /* keep tables intact */
    fprintf(R->nums, "%d,%s,%d,%lld,%s,%s,%.17g,%d,", R->nid++, s.kind, run, (long long)case_id, s.a, s.b, scale, sig);
    vkb_csv_field(R->nums, out);
    fputc('\n', R->nums);
    return out;
}

static const char *cst(rep *R, const char *name, int sig) { return num(R, "const", -1, -1, name, NULL, 1, sig); }
static const char *cell(rep *R, int run, const vkb_result *r, const char *c, double scale, int sig)
{
    return num(R, "cell", run, r->case_id, c, NULL, scale, sig);
}
static const char *ratio(rep *R, int run, const vkb_result *r, const char *a, const char *b)
{
    return num(R, "ratio", run, r->case_id, a, b, 1, 3);
}
static const char *str(rep *R, int run, const vkb_result *r, const char *c) { return num(R, "str", run, r->case_id, c, NULL, 1, 0); }
static const char *why(rep *R, int run, const vkb_result *r, const char *c, const char *item)
{
    return num(R, "why", run, r->case_id, c, item, 1, 0);
}

/* Text to both outputs: md as given; html with **x** -> <b>, escaped, paragraphs per call. */
static void para(rep *R, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
static void para(rep *R, const char *fmt, ...)
{
    char buf[4096];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(buf, sizeof(buf), fmt, ap);
    va_end(ap);
    fprintf(R->md, "%s\n\n", buf);
    fputs("<p>", R->html);
    int bold = 0;
    for (const char *p = buf; *p; p++) {
        if (p[0] == '*' && p[1] == '*') {
            fputs(bold ? "</b>" : "<b>", R->html);
            bold = !bold;
            p++;
        } else if (*p == '`') {
            continue;
        } else {
            char c[2] = {*p, 0};
            html_esc(R->html, c);
        }
    }
    fputs("</p>\n", R->html);
}

static void heading(rep *R, int level, const char *text)
{
    fprintf(R->md, "%.*s %s\n\n", level, "####", text);
    fprintf(R->html, "<h%d>", level);
    html_esc(R->html, text);
    fprintf(R->html, "</h%d>\n", level);
}

static void row(rep *R, int header, int n, const char *const *cells)
{
    fputs("|", R->md);
    fputs("<tr>", R->html);
    for (int i = 0; i < n; i++) {
        fprintf(R->md, " %s |", cells[i]);
        fputs(header ? "<th>" : "<td>", R->html);
        html_esc(R->html, cells[i]);
        fputs(header ? "</th>" : "</td>", R->html);
    }
    fputs("\n", R->md);
    fputs("</tr>\n", R->html);
    if (header) {
        fputs("|", R->md);
        for (int i = 0; i < n; i++) fputs("---|", R->md);
        fputs("\n", R->md);
    }
}
static void table_begin(rep *R) { fputs("<table>\n", R->html); }
static void table_end(rep *R)
{
    fputs("\n", R->md);
    fputs("</table>\n", R->html);
}

static char run_letter(int i) { return (char)('A' + i); }

/* The runs that did not complete (rundir.h), as one line: "run A (DIR): interrupted after 3 of 10 cases; ...".
 * words: say it without digits (for report.md, where every digit must be a listed number). Returns how many. */
static int partial_runs(const char *const *dirs, int n, int words, char *out, size_t len)
{
    int k = 0;
    size_t used = 0;
    out[0] = 0;
    for (int i = 0; i < n; i++) {
        char why[700];
        vkb_runstate st = vkb_rundir_state(dirs[i], why, sizeof(why));
        if (st == VKB_RUN_COMPLETE || st == VKB_RUN_UNKNOWN) continue;
        int w = words ? snprintf(out + used, len - used, "%srun %c %s", k ? "; " : "", run_letter(i), vkb_runstate_name(st))
                      : snprintf(out + used, len - used, "%srun %c (%s): %s", k ? "; " : "", run_letter(i), dirs[i], why);
        k++;
        if (w < 0 || (size_t)w >= len - used) break;
        used += (size_t)w;
    }
    return k;
}

/* ---------------- plots ---------------- */

/* Run gnuplot -c TEMPLATE args... without a shell; stderr goes to plots/gnuplot.log. 0 when the output
 * file exists and is non-empty. */
static int gnuplot(rep *R, const char *tmpl, const char *const *args, int nargs, const char *out)
{
    char path[700], log[700];
    char *argv[16];
    int k = 0;
    snprintf(path, sizeof(path), "%s/%s", R->tmpl, tmpl);
    argv[k++] = (char *)(uintptr_t)"gnuplot";
    argv[k++] = (char *)(uintptr_t)"-c";
    argv[k++] = path;
    for (int i = 0; i < nargs && k < 15; i++) argv[k++] = (char *)(uintptr_t)args[i];
    argv[k] = NULL;
    snprintf(log, sizeof(log), "%s/gnuplot.log", R->plotdir);
    posix_spawn_file_actions_t fa;
    posix_spawn_file_actions_init(&fa);
    posix_spawn_file_actions_addopen(&fa, 1, log, O_WRONLY | O_CREAT | O_APPEND, 0644);
    posix_spawn_file_actions_addopen(&fa, 2, log, O_WRONLY | O_CREAT | O_APPEND, 0644);
    pid_t pid;
    int rc = posix_spawnp(&pid, "gnuplot", &fa, NULL, argv, environ), st = 0;
    posix_spawn_file_actions_destroy(&fa);
    if (rc) {
        snprintf(R->noplot, sizeof(R->noplot), "gnuplot could not be started (%s)", strerror(rc));
        return -1;
    }
    if (waitpid(pid, &st, 0) < 0 || !WIFEXITED(st) || WEXITSTATUS(st)) return -1;
    struct stat sb;
    return stat(out, &sb) == 0 && sb.st_size > 0 ? 0 : -1;
}

/* Render NAME.svg and NAME.png from a template, then reference it from both documents. */
static void plot(rep *R, const char *tmpl, const char *name, const char *alt, const char *const *extra, int nextra)
{
    char data[700], out[700];
    const char *args[12];
    snprintf(data, sizeof(data), "%s/%s.dat", R->plotdir, name);
    int ok = !R->noplot[0];
    for (int t = 0; t < 2 && ok; t++) {
        const char *term = t ? "png" : "svg";
        snprintf(out, sizeof(out), "%s/%s.%s", R->plotdir, name, term);
        args[0] = data, args[1] = out, args[2] = term;
        for (int i = 0; i < nextra && i < 9; i++) args[3 + i] = extra[i];
        if (gnuplot(R, tmpl, args, 3 + (nextra < 9 ? nextra : 9), out)) ok = 0;
    }
    if (!ok) {
        para(R, "*%s: not rendered here (%s); the data is in `plots/%s.dat`: run `vkbench report` on this "
                "directory where gnuplot exists.*", alt, R->noplot[0] ? R->noplot : "gnuplot failed: see plots/gnuplot.log",
             name);
        return;
    }
    fprintf(R->md, "![%s](plots/%s.svg) ([PNG](plots/%s.png))\n\n", alt, name, name);
    snprintf(out, sizeof(out), "%s/%s.svg", R->plotdir, name);
    FILE *f = fopen(out, "r");
    fputs("<figure>", R->html);
    if (f) {
        char buf[8192];
        size_t n;
        int skip = 1;  /* drop the XML prolog and doctype: inline SVG starts at <svg */
        while ((n = fread(buf, 1, sizeof(buf) - 1, f)) > 0) {
            buf[n] = 0;
            char *p = buf;
            if (skip) {
                char *s = strstr(buf, "<svg");
                if (!s) continue;
                p = s, skip = 0;
            }
            fwrite(p, 1, n - (size_t)(p - buf), R->html);
        }
        fclose(f);
    }
    fputs("<figcaption>", R->html);
    html_esc(R->html, alt);
    fputs("</figcaption></figure>\n", R->html);
}

static FILE *data_file(rep *R, const char *name)
{
    char path[700];
    snprintf(path, sizeof(path), "%s/%s.dat", R->plotdir, name);
    return fopen(path, "w");
}

static void dval(FILE *f, double v, const char *sep)
{
    if (isnan(v) || isinf(v)) fprintf(f, "NA%s", sep);
    else fprintf(f, "%.6g%s", v, sep);
}

/* ---------------- sections ---------------- */

static void runs_table(rep *R)
{
    static const char *const h[] = {"run", "device", "driver", "host CPU", "CPU threads (optimized baseline)",
                                    "commit", "date (UTC)", "cases", "PASS", "FAIL", "SKIP", "ERROR"};
    heading(R, 2, "Runs");
    table_begin(R);
    row(R, 1, 12, h);
    for (int i = 0; i < R->nr; i++) {
        const rrun *u = &R->r[i];
        const vkb_result *r0 = u->n ? &u->rows[0] : NULL;
        char letter[2] = {run_letter(i), 0};
        const char *threads = "NA";
        for (long j = 0; j < u->n; j++)
            if (u->rows[j].cpu_fast_threads > 0) {
                threads = cell(R, i, &u->rows[j], "cpu_fast_threads", 1, 6);
                break;
            }
        const char *c[12] = {letter, r0 ? str(R, i, r0, "device") : "NA", r0 ? str(R, i, r0, "driver") : "NA",
                             r0 ? str(R, i, r0, "cpu_model") : "NA", threads, r0 ? str(R, i, r0, "commit") : "NA",
                             r0 ? str(R, i, r0, "date_utc") : "NA", num(R, "rows", i, -1, NULL, NULL, 1, 9),
                             num(R, "count", i, -1, "status", "PASS", 1, 9), num(R, "count", i, -1, "status", "FAIL", 1, 9),
                             num(R, "count", i, -1, "status", "SKIP", 1, 9), num(R, "count", i, -1, "status", "ERROR", 1, 9)};
        row(R, 0, 12, c);
    }
    table_end(R);
}

/* One run's cases by status: SKIP reasons grouped with their sizes elided (a suite sized for a large GPU
 * SKIPs many cases on a small device, for a handful of reasons), every FAIL and ERROR named. */
static void status_cases(rep *R, int i)
{
    const rrun *u = &R->r[i];
    char title[160], kern[1024], ex[600], a[600], b[600];
    snprintf(title, sizeof(title), "Case status, run %c", run_letter(i));
    heading(R, 2, title);
    para(R, "%s cases: %s PASS, %s FAIL, %s SKIP, %s ERROR. Only PASS cases have times; the tables and plots below "
            "leave the others out.", num(R, "rows", i, -1, NULL, NULL, 1, 9), num(R, "count", i, -1, "status", "PASS", 1, 9),
         num(R, "count", i, -1, "status", "FAIL", 1, 9), num(R, "count", i, -1, "status", "SKIP", 1, 9),
         num(R, "count", i, -1, "status", "ERROR", 1, 9));
    for (long j = 0; j < u->n; j++)
        if (!strcmp(u->rows[j].status, "INTERRUPTED")) {
            para(R, "%s INTERRUPTED: the case in flight when the run was stopped, recorded without a result.",
                 num(R, "count", i, -1, "status", "INTERRUPTED", 1, 9));
            break;
        }
    static const char *const hs[] = {"SKIP cases", "reason (sizes elided: …)", "kernels", "first case"};
    int any = 0;
    for (long j = 0; j < u->n; j++) {
        const vkb_result *r = &u->rows[j];
        if (strcmp(r->status, "SKIP") || group_count(u, r, j)) continue;  /* one line per group, at its first row */
        if (!any++) {
            para(R, "SKIP reasons, grouped where they differ only in sizes or buffer names:");
            table_begin(R), row(R, 1, 4, hs);
        }
        const char *seen[64];
        int ns = 0;
        size_t kl = 0;
        kern[0] = 0;
        mask_reason(r->reason, a, sizeof(a));
        for (long q = j; q < u->n; q++) {
            const vkb_result *o = &u->rows[q];
            int d = 0;
            if (strcmp(o->status, r->status)) continue;
            mask_reason(o->reason, b, sizeof(b));
            while (d < ns && strcmp(seen[d], o->kernel)) d++;
            if (strcmp(a, b) || d < ns || ns == 64 || kl >= sizeof(kern)) continue;
            seen[ns++] = o->kernel;
            kl += (size_t)snprintf(kern + kl, sizeof(kern) - kl, "%s%s", kl ? ", " : "", str(R, i, o, "kernel"));
        }
        snprintf(ex, sizeof(ex), "%s %s: %s", str(R, i, r, "kernel"), str(R, i, r, "params"), str(R, i, r, "reason"));
        const char *c[4] = {num(R, "group", i, r->case_id, "reason", NULL, 1, 9), num(R, "mask", i, r->case_id, "reason", NULL, 1, 0),
                            kern, ex};
        row(R, 0, 4, c);
    }
    if (any) table_end(R);
    static const char *const hf[] = {"status", "kernel", "params", "reason"};
    any = 0;
    for (long j = 0; j < u->n; j++) {
        const vkb_result *r = &u->rows[j];
        if (strcmp(r->status, "FAIL") && strcmp(r->status, "ERROR") && strcmp(r->status, "INTERRUPTED")) continue;
        if (!any++) table_begin(R), row(R, 1, 4, hf);
        const char *c[4] = {r->status, str(R, i, r, "kernel"), str(R, i, r, "params"), str(R, i, r, "reason")};
        row(R, 0, 4, c);
    }
    if (any) table_end(R);
}

/* Rows whose median is under floor_factor x the timer floor (or the dispatch overhead) carry FLOOR_MARK
 * wherever a kernel-only time or speedup of theirs is printed; floor_note explains it under the table. */
#define FLOOR_SYM "†"
#define FLOOR_MARK " " FLOOR_SYM
static const char *floor_mark(const vkb_result *r) { return r->below_floor > 0 ? FLOOR_MARK : ""; }
static void floor_note(rep *R, const vkb_result *const *low)
{
    char fl[1024] = "";
    size_t n = 0;
    for (int i = 0; i < R->nr; i++)
        if (low[i] && n < sizeof(fl))
            n += (size_t)snprintf(fl + n, sizeof(fl) - n, "%srun %c: timer_floor_s %s us, dispatch_s %s us", n ? "; " : "",
                                  run_letter(i), cell(R, i, low[i], "timer_floor_s", 1e6, 4),
                                  cell(R, i, low[i], "dispatch_s", 1e6, 4));
    if (!n) return;
    para(R, "%s below the timer floor: a marked row's GPU median is under %sx the larger of the timer's resolution and "
            "one dispatch's overhead (%s), so that time is mostly timer and dispatch, not the kernel, and its kernel-only "
            "speedups are not speedups of the kernel: do not compare them with the unmarked rows.",
         FLOOR_SYM, cst(R, "floor_factor", 3), fl);
}

static void method(rep *R)
{
    heading(R, 2, "How to read this report");
    para(R, "**Speedup** = CPU time / GPU time for the same case (same inputs, same validation). It is given first "
            "against the **optimized CPU baseline** (cpu/: OpenMP + SIMD C on all cores pinned through hwloc; OpenBLAS "
            "sgemm/sgemv through GSL's CBLAS interface; OpenBLAS's LAPACK for the decompositions), validated by the "
            "kernel's own check with the GPU's tolerance, and beside it against the **single-thread naive reference** "
            "(reference/: scalar loops, double accumulation): the latter is what inflated GPU-vs-CPU claims use.");
    para(R, "**Kernel-only** uses the GPU's median per-launch time from Vulkan timestamps; **end-to-end** uses "
            "the host-timed upload + kernel + download (best of up to three). Intervals are %s%% percentile-bootstrap "
            "intervals of the kernel-only speedup: the GPU's raw samples (samples.csv) are resampled %s times, the "
            "median of each resample divides the CPU's median time, and the central %s%% of those ratios is shown. The "
            "CPU side is a median over its timed runs (cpu_fast_runs); its own interval is in results.csv "
            "(cpu_fast_ci_lo_s, cpu_fast_ci_hi_s). End-to-end is a single best time: no interval.",
         cst(R, "conf_pct", 3), cst(R, "boot_B", 6), cst(R, "conf_pct", 3));
    para(R, "Every number below is listed in report-numbers.csv with its source (a results.csv cell, a ratio of "
            "cells, a bootstrap over samples.csv, or a published constant); `vkbench report --verify DIR` recomputes "
            "them all. NA means not measured, with the reason where there is one.");
}

/* One run's speedup table: PASS rows. */
static void speedup_table(rep *R, int i)
{
    static const char *const h[] = {"kernel", "params", "mode", "GPU kernel median (us)", "GPU end-to-end (us)",
                                    "optimized CPU (us)", "speedup vs optimized: kernel-only [CI]",
                                    "speedup vs optimized: end-to-end", "single-thread naive reference (us)",
                                    "speedup vs naive reference: kernel-only [CI]", "speedup vs naive reference: end-to-end"};
    char title[200];
    snprintf(title, sizeof(title), "Speedups, run %c", run_letter(i));
    heading(R, 2, title);
    const rrun *u = &R->r[i];
    const vkb_result *low[MAX_RUNS] = {NULL};
    table_begin(R);
    row(R, 1, 11, h);
    for (long j = 0; j < u->n; j++) {
        const vkb_result *r = &u->rows[j];
        if (!is_pass(r)) continue;
        char gpu[64], fs[256], fe[64], rs[256], re[64], ft[300];
        const char *e2e = cell(R, i, r, "e2e_time_s", 1e6, 4), *fm = floor_mark(r);
        snprintf(gpu, sizeof(gpu), "%s%s", cell(R, i, r, "time_median_s", 1e6, 4), fm);
        if (r->below_floor > 0 && !low[i]) low[i] = r;
        if (fast_ok(r)) {
            snprintf(ft, sizeof(ft), "%s", cell(R, i, r, "cpu_fast_time_s", 1e6, 4));
            snprintf(fs, sizeof(fs), "%s [%s, %s]%s", ratio(R, i, r, "cpu_fast_time_s", "time_median_s"),
                     num(R, "boot_lo", i, r->case_id, "cpu_fast_time_s", NULL, 1, 3),
                     num(R, "boot_hi", i, r->case_id, "cpu_fast_time_s", NULL, 1, 3), fm);
            snprintf(fe, sizeof(fe), "%s", ratio(R, i, r, "cpu_fast_time_s", "e2e_time_s"));
        } else {
            snprintf(ft, sizeof(ft), "%s: %s", r->cpu_fast_status[0] ? r->cpu_fast_status : "NA",
                     r->cpu_fast_why[0] ? str(R, i, r, "cpu_fast_why") : "no baseline result");
            snprintf(fs, sizeof(fs), "NA");
            snprintf(fe, sizeof(fe), "NA");
        }
        snprintf(rs, sizeof(rs), "%s [%s, %s]%s", ratio(R, i, r, "ref_time_s", "time_median_s"),
                 num(R, "boot_lo", i, r->case_id, "ref_time_s", NULL, 1, 3),
                 num(R, "boot_hi", i, r->case_id, "ref_time_s", NULL, 1, 3), fm);
        snprintf(re, sizeof(re), "%s", ratio(R, i, r, "ref_time_s", "e2e_time_s"));
        const char *c[11] = {str(R, i, r, "kernel"), str(R, i, r, "params"), r->mode, gpu, e2e, ft, fs, fe,
                             cell(R, i, r, "ref_time_s", 1e6, 4), rs, re};
        row(R, 0, 11, c);
    }
    table_end(R);
    floor_note(R, low);
}

static int same_case(const vkb_result *a, const vkb_result *b)
{
    return !strcmp(a->kernel, b->kernel) && !strcmp(a->params, b->params) && !strcmp(a->mode, b->mode);
}

/* Several runs: the kernel-only speedup vs each run's optimized CPU, one column per run. */
static void side_by_side(rep *R)
{
    if (R->nr < 2) return;
    heading(R, 2, "Side by side: speedup vs optimized CPU, kernel-only");
    const char *h[2 + 2 * MAX_RUNS];
    char hb[2 * MAX_RUNS][64];
    h[0] = "kernel", h[1] = "params";
    for (int i = 0; i < R->nr; i++) {
        snprintf(hb[2 * i], 64, "run %c: GPU median (us)", run_letter(i));
        snprintf(hb[2 * i + 1], 64, "run %c: speedup vs optimized", run_letter(i));
        h[2 + 2 * i] = hb[2 * i], h[3 + 2 * i] = hb[2 * i + 1];
    }
    int nc = 2 + 2 * R->nr;
    const vkb_result *low[MAX_RUNS] = {NULL};
    char cb[2 * MAX_RUNS][96];
    table_begin(R);
    row(R, 1, nc, h);
    for (int i = 0; i < R->nr; i++)
        for (long j = 0; j < R->r[i].n; j++) {
            const vkb_result *r = &R->r[i].rows[j];
            int seen = !is_pass(r);
            for (int p = 0; p < i && !seen; p++)
                for (long q = 0; q < R->r[p].n && !seen; q++) seen = is_pass(&R->r[p].rows[q]) && same_case(r, &R->r[p].rows[q]);
            if (seen) continue;
            const char *c[2 + 2 * MAX_RUNS];
            c[0] = str(R, i, r, "kernel"), c[1] = str(R, i, r, "params");
            for (int p = 0; p < R->nr; p++) {
                const vkb_result *o = NULL;
                for (long q = 0; q < R->r[p].n && !o; q++)
                    if (is_pass(&R->r[p].rows[q]) && same_case(r, &R->r[p].rows[q])) o = &R->r[p].rows[q];
                snprintf(cb[2 * p], 96, "%s%s", o ? cell(R, p, o, "time_median_s", 1e6, 4) : "not run", o ? floor_mark(o) : "");
                snprintf(cb[2 * p + 1], 96, "%s%s", o && fast_ok(o) ? ratio(R, p, o, "cpu_fast_time_s", "time_median_s") : "NA",
                         o && fast_ok(o) ? floor_mark(o) : "");
                c[2 + 2 * p] = cb[2 * p], c[3 + 2 * p] = cb[2 * p + 1];
                if (o && o->below_floor > 0 && !low[p]) low[p] = o;
            }
            row(R, 0, nc, c);
        }
    table_end(R);
    floor_note(R, low);
}

/* The PASS row of run i with the largest a/b among rows accepted by want (ties: first). */
static const vkb_result *best(const rrun *u, const char *a, const char *b, int (*want)(const vkb_result *))
{
    const vkb_result *bst = NULL;
    double bv = -1;
    for (long j = 0; j < u->n; j++) {
        const vkb_result *r = &u->rows[j];
        double v = col(r, a) / col(r, b);
        if (is_pass(r) && want(r) && !isnan(v) && v > bv) bst = r, bv = v;
    }
    return bst;
}

/* "PRE N of the ... did not PASS here (the largest: ...)" when rows of pick set `set` at least as large
 * as the picked row r were not measured (a claim made from r says nothing about them), else "". */
static void unmeasured(rep *R, int i, const vkb_result *r, const char *set, const char *pre, char *out, size_t len)
{
    const vkb_result *big;
    const pickset *ps = pick_set(set);
    out[0] = 0;
    if (!r || !not_measured(&R->r[i], r, ps, &big)) return;
    snprintf(out, len, "%s%s of the %s did not PASS here (the largest: %s %s, %s: %s)", pre,
             num(R, "nomeas", i, r->case_id, set, NULL, 1, 9), ps->what, str(R, i, big, "kernel"), str(R, i, big, "params"),
             big->status, str(R, i, big, "reason"));
}

/* One claim line: the row's speedups (naive kernel-only, optimized kernel-only and e2e); *low gets r if
 * its median is below the timer floor. */
static void claim_row(rep *R, int i, const char *claim, const char *what, const vkb_result *r, const char *absent,
                      const char *set, const vkb_result **low)
{
    char where[1024], note[800], sn[64], sf[64];
    if (!r) {
        const char *c[7] = {claim, what, absent, "NA", "NA", "NA", "NA"};
        row(R, 0, 7, c);
        return;
    }
    if (r->below_floor > 0 && !*low) *low = r;
    unmeasured(R, i, r, set, "; ", note, sizeof(note));
    snprintf(where, sizeof(where), "%s %s%s%s", str(R, i, r, "kernel"), str(R, i, r, "params"), floor_mark(r), note);
    snprintf(sn, sizeof(sn), "%s%s", ratio(R, i, r, "ref_time_s", "time_median_s"), floor_mark(r));
    snprintf(sf, sizeof(sf), "%s%s", fast_ok(r) ? ratio(R, i, r, "cpu_fast_time_s", "time_median_s") : "NA (no validated optimized baseline)",
             fast_ok(r) ? floor_mark(r) : "");
    const char *c[7] = {claim, what, where, sn, sf, fast_ok(r) ? ratio(R, i, r, "cpu_fast_time_s", "e2e_time_s") : "NA",
                        cell(R, i, r, "bw_frac_copy", 100, 3)};
    row(R, 0, 7, c);
}

static void claims(rep *R, int i)
{
    static const char *const h[] = {"bitnet-metal claim", "vkbench equivalent", "row", "speedup vs naive reference (kernel-only)",
                                    "speedup vs optimized CPU (kernel-only)", "speedup vs optimized CPU (end-to-end)",
                                    "bandwidth, % of measured copy"};
    const rrun *u = &R->r[i];
    const vkb_result *low[MAX_RUNS] = {NULL};
    char title[160], cl[5][96];
    snprintf(title, sizeof(title), "Claims: bitnet-metal next to vkbench, run %c", run_letter(i));
    heading(R, 2, title);
    para(R, "The bitnet-metal crate (version %s) publishes speedups of a Metal GPU over CPU. Below, for each claim, the same operation "
            "at a comparable size measured here on this run's device, against both CPU baselines.", cst(R, "claim_version", 1));
    table_begin(R);
    row(R, 1, 7, h);
    snprintf(cl[0], 96, "%sx, %sx%s matmul", cst(R, "claim_matmul_x", 6), cst(R, "matmul_size", 4), cst(R, "matmul_size", 4));
    claim_row(R, i, cl[0], "fastest PASS matmul variant, m = n = k at that size", best(u, "ref_time_s", "time_median_s", want_mm),
              "NA: no PASS matmul row of that size in this run", "matmul_512", &low[i]);
    snprintf(cl[1], 96, "up to %sx, elementwise", cst(R, "claim_elementwise_x", 6));
    claim_row(R, i, cl[1], "elementwise row with the largest speedup vs the naive reference",
              best(u, "ref_time_s", "time_median_s", want_elem), "NA: no PASS elementwise row", "elementwise", &low[i]);
    snprintf(cl[1], 96, "up to %sx, elementwise", cst(R, "claim_elementwise_x", 6));
    claim_row(R, i, cl[1], "elementwise row with the largest speedup vs the optimized CPU",
              best(u, "cpu_fast_time_s", "time_median_s", want_elem_fast), "NA: no elementwise row with a validated baseline",
              "elementwise", &low[i]);
    snprintf(cl[2], 96, "%sx, BitNet quantization", cst(R, "claim_quant_x", 6));
    claim_row(R, i, cl[2], "absmean ternary weight quantization, largest speedup vs the naive reference",
              best(u, "ref_time_s", "time_median_s", want_quant), "NA: no PASS bitnet_wquant row", "bitnet_wquant", &low[i]);
    snprintf(cl[2], 96, "%sx, BitNet quantization", cst(R, "claim_quant_x", 6));
    claim_row(R, i, cl[2], "absmean ternary weight quantization, largest speedup vs the optimized CPU",
              best(u, "cpu_fast_time_s", "time_median_s", want_quant_fast), "NA: no bitnet_wquant row with a validated baseline",
              "bitnet_wquant", &low[i]);
    table_end(R);
    /* Bandwidth and power. */
    const vkb_result *bw = NULL;
    for (long j = 0; j < u->n; j++) {
        const vkb_result *r = &u->rows[j];
        if (is_pass(r) && want_elem_nocopy(r) && !isnan(r->bw_frac_copy) &&
            (!bw || r->bytes > bw->bytes || (r->bytes == bw->bytes && r->bw_frac_copy > bw->bw_frac_copy)))
            bw = r;
    }
    if (bw && bw->below_floor > 0 && !low[i]) low[i] = bw;
    floor_note(R, low);
    snprintf(cl[3], 96, "%s%%+ bandwidth utilization", cst(R, "claim_bw_pct", 3));
    if (bw) {
        char theo[400], note[800];
        unmeasured(R, i, bw, "elementwise_nocopy", " Larger sizes are not covered: ", note, sizeof(note));
        if (isnan(bw->bw_frac_theoretical))
            snprintf(theo, sizeof(theo), "the device's theoretical bandwidth is NA (%s)", why(R, i, bw, "util_why", "theoretical_Bps"));
        else
            snprintf(theo, sizeof(theo), "%s%% of the device's theoretical bandwidth (theoretical_Bps)",
                     cell(R, i, bw, "bw_frac_theoretical", 100, 3));
        para(R, "**%s**: the elementwise row that moves the most bytes among those that PASS (%s %s%s; smaller ones can sit in a "
                "cache) reaches %s%% of the copy bandwidth measured in the same run (%s GB/s, copy_Bps); %s.%s%s%s",
             cl[3], str(R, i, bw, "kernel"), str(R, i, bw, "params"), floor_mark(bw), cell(R, i, bw, "bw_frac_copy", 100, 3),
             cell(R, i, bw, "copy_Bps", 1e-9, 4), theo, note, note[0] ? "." : "",
             bw->below_floor > 0 ? " Its median is below the timer floor (see the note under the claims table): the bandwidth "
                               "figure is a lower bound." : "");
    } else
        para(R, "**%s**: NA: no PASS elementwise row with a bandwidth figure in this run.", cl[3]);
    snprintf(cl[4], 96, "%s%%+ power-efficiency improvement over CPU", cst(R, "claim_power_pct", 3));
    const vkb_result *pe = best(u, "ref_time_s", "time_median_s", want_mm);
    if (!pe) pe = best(u, "ref_time_s", "time_median_s", want_elem);
    if (pe)
        para(R, "**%s**: energy per call on the GPU for %s %s: %s J (%s); the optimized CPU baseline's energy: NA "
                "(vkbench does not meter the CPU while the baseline runs); the naive reference's energy: %s J (%s). A "
                "GPU-vs-CPU energy ratio is given only where both sides are metered.",
             cl[4], str(R, i, pe, "kernel"), str(R, i, pe, "params"), cell(R, i, pe, "energy_per_call_J", 1, 3),
             isnan(pe->energy_per_call_J) ? (pe->telemetry_why[0] ? str(R, i, pe, "telemetry_why") : "no reading")
                                          : "telemetry",
             cell(R, i, pe, "ref_energy_J", 1, 3),
             isnan(pe->ref_energy_J) ? (pe->cpu_sensor_why[0] ? str(R, i, pe, "cpu_sensor_why") : "no reading")
                                     : "CPU package meter");
    else para(R, "**%s**: NA: no PASS matmul or elementwise row in this run.", cl[4]);
}

static void baseline_status(rep *R, int i)
{
    const rrun *u = &R->r[i];
    char title[160];
    snprintf(title, sizeof(title), "Optimized CPU baselines, run %c", run_letter(i));
    heading(R, 2, title);
    para(R, "Validated by the kernel's own check (GPU tolerance): %s PASS, %s FAIL, %s NA.",
         num(R, "count", i, -1, "cpu_fast_status", "PASS", 1, 9), num(R, "count", i, -1, "cpu_fast_status", "FAIL", 1, 9),
         num(R, "count", i, -1, "cpu_fast_status", "NA", 1, 9));
    static const char *const h[] = {"kernel", "params", "baseline status", "implementation", "reason"};
    int any = 0;
    for (long j = 0; j < u->n; j++) {
        const vkb_result *r = &u->rows[j];
        if (!strcmp(r->cpu_fast_status, "FAIL") || (!strcmp(r->cpu_fast_status, "NA") && is_pass(r))) {
            if (!any++) table_begin(R), row(R, 1, 5, h);
            const char *c[5] = {str(R, i, r, "kernel"), str(R, i, r, "params"), r->cpu_fast_status,
                                str(R, i, r, "cpu_fast_impl"), str(R, i, r, "cpu_fast_why")};
            row(R, 0, 5, c);
        }
    }
    if (any) table_end(R);
}

static double evalc(rep *R, const char *kind, int i, const vkb_result *r, const char *a, const char *b)
{
    src s = {.run = i, .case_id = r->case_id, .scale = 1, .sig = 6};
    snprintf(s.kind, sizeof(s.kind), "%s", kind);
    snprintf(s.a, sizeof(s.a), "%s", a);
    snprintf(s.b, sizeof(s.b), "%s", b ? b : "");
    return eval(R->r, R->nr, &s);
}

static void plots(rep *R)
{
    heading(R, 2, "Plots");
    char name[64], alt[400], title[300], arg[4][160];
    for (int i = 0; i < R->nr; i++) {
        const rrun *u = &R->r[i];
        const char *dev = u->n ? u->rows[0].device : "?";
        /* speedup by kernel and size */
        snprintf(name, sizeof(name), "speedup-%c", run_letter(i) + 32);
        FILE *f = data_file(R, name);
        int k = 0, flagged = 0;
        for (long j = 0; f && j < u->n; j++) {
            const vkb_result *r = &u->rows[j];
            if (!is_pass(r)) continue;
            flagged |= r->below_floor > 0;
            fprintf(f, "%d\t%s %s%s\t", k++, r->kernel, r->params, floor_mark(r));
            int ok = fast_ok(r);
            dval(f, ok ? evalc(R, "ratio", i, r, "cpu_fast_time_s", "time_median_s") : NAN, "\t");
            dval(f, ok ? evalc(R, "boot_lo", i, r, "cpu_fast_time_s", NULL) : NAN, "\t");
            dval(f, ok ? evalc(R, "boot_hi", i, r, "cpu_fast_time_s", NULL) : NAN, "\t");
            dval(f, evalc(R, "ratio", i, r, "ref_time_s", "time_median_s"), "\t");
            dval(f, evalc(R, "boot_lo", i, r, "ref_time_s", NULL), "\t");
            dval(f, evalc(R, "boot_hi", i, r, "ref_time_s", NULL), "\n");
        }
        if (f) fclose(f);
        snprintf(title, sizeof(title), "run %c: %s", run_letter(i), dev);
        const char *ex[1] = {title};
        snprintf(alt, sizeof(alt), "Speedup by kernel and size, run %c (log scale%s%s)", run_letter(i), flagged ? "; " : "",
                 flagged ? FLOOR_SYM " median below the timer floor: not a speedup of the kernel" : "");
        if (k) plot(R, "speedup.gp", name, alt, ex, 1);
        else para(R, "%s: NA: no PASS case.", alt);
        /* roofline */
        snprintf(name, sizeof(name), "roofline-%c", run_letter(i) + 32);
        f = data_file(R, name);
        double copy = NAN, peak = NAN;
        const char *peak_why = "no calibrated compute peak in this run";
        for (long j = 0; j < u->n; j++) {
            const vkb_result *r = &u->rows[j];
            if (isnan(copy) && !isnan(r->copy_Bps)) copy = r->copy_Bps;
            if (!isnan(r->fma_flop_per_s) && (isnan(peak) || r->fma_flop_per_s > peak)) peak = r->fma_flop_per_s;
            if (isnan(peak) && r->util_why[0]) peak_why = r->util_why;
            if (f && is_pass(r) && r->flops > 0 && r->bytes > 0)
                fprintf(f, "%.6g\t%.6g\t%s\n", r->flops / r->bytes, r->flop_per_s, r->kernel);
        }
        if (f) fclose(f);
        snprintf(arg[0], 160, "%.6g", copy);
        snprintf(arg[1], 160, "%.6g", peak);
        snprintf(arg[2], 160, "%s", isnan(peak) ? peak_why : "calibrated FMA peak (fma_flop_per_s)");
        const char *rx[4] = {title, isnan(copy) ? "NA" : arg[0], isnan(peak) ? "NA" : arg[1], arg[2]};
        snprintf(alt, sizeof(alt), "Roofline, run %c: achieved FLOP/s against FLOPs per byte, under the measured copy "
                                   "bandwidth and the compute ceiling where one was calibrated", run_letter(i));
        plot(R, "roofline.gp", name, alt, rx, 4);
        /* timing distributions */
        snprintf(name, sizeof(name), "timing-%c", run_letter(i) + 32);
        f = data_file(R, name);
        long idx[BOX_MAX], eligible, kernels;
        int nbox = box_pick(u, idx, &eligible, &kernels);
        size_t lab = 0;
        flagged = 0;
        for (int b = 0; f && b < nbox; b++) {
            const vkb_result *r = &u->rows[idx[b]];
            const double *t;
            size_t n = case_samples(u, r->case_id, &t), l = strlen(r->kernel) + 1 + strlen(r->params) + strlen(floor_mark(r));
            flagged |= r->below_floor > 0;
            lab = l > lab ? l : lab;
            for (size_t q = 0; q < n; q++) fprintf(f, "%s %s%s\t%.6g\n", r->kernel, r->params, floor_mark(r), t[q]);
        }
        if (f) fclose(f);
        snprintf(alt, sizeof(alt), "Timing distributions (raw samples), run %c", run_letter(i));
        size_t al = strlen(alt);
        if (!eligible)
            para(R, "%s: NA: no PASS case with raw samples.", alt);
        else if (eligible <= BOX_MAX)
            snprintf(alt + al, sizeof(alt) - al, ": all %s PASS cases with samples", num(R, "boxes", i, -1, "eligible", NULL, 1, 9));
        else if (kernels <= BOX_MAX)
            snprintf(alt + al, sizeof(alt) - al, ": %s of %s PASS cases with samples, the largest (most bytes) of each kernel",
                     num(R, "boxes", i, -1, "shown", NULL, 1, 9), num(R, "boxes", i, -1, "eligible", NULL, 1, 9));
        else
            snprintf(alt + al, sizeof(alt) - al, ": %s of %s PASS cases with samples, the largest (most bytes) of each of "
                     "the first %s of %s kernels", num(R, "boxes", i, -1, "shown", NULL, 1, 9),
                     num(R, "boxes", i, -1, "eligible", NULL, 1, 9), cst(R, "box_max", 9), num(R, "boxes", i, -1, "kernels", NULL, 1, 9));
        if (flagged) snprintf(alt + strlen(alt), sizeof(alt) - strlen(alt), "; %s below the timer floor", FLOOR_SYM);
        snprintf(arg[0], 160, "%zu", lab);
        const char *tx[2] = {title, arg[0]};
        if (eligible) plot(R, "timing.gp", name, alt, tx, 2);
        /* power and temperature over the rrun */
        snprintf(name, sizeof(name), "power-%c", run_letter(i) + 32);
        f = data_file(R, name);
        int have = 0;
        const char *why = "no power or temperature column was measured in this run";
        for (long j = 0; f && j < u->n; j++) {
            const vkb_result *r = &u->rows[j];
            if (!isnan(r->power_mean_W) || !isnan(r->gpu_temp_max_C) || !isnan(r->cpu_temp_max_C)) {
                have = 1;
                fprintf(f, "%lld\t", (long long)r->case_id);
                dval(f, r->power_mean_W, "\t");
                dval(f, r->gpu_temp_max_C, "\t");
                dval(f, r->cpu_temp_max_C, "\n");
            } else if (r->telemetry_why[0]) {
                why = r->telemetry_why;
            }
        }
        if (f) fclose(f);
        snprintf(arg[3], 160, "%s", have ? "" : why);
        const char *px[2] = {title, arg[3]};
        snprintf(alt, sizeof(alt), "Power and temperature over the run, run %c", run_letter(i));
        plot(R, "power.gp", name, alt, px, 2);
    }
    /* bandwidth utilization against size: every run in one plot */
    FILE *f = data_file(R, "bandwidth");
    for (int i = 0; f && i < R->nr; i++) {
        fprintf(f, "%sbytes\trun %c: %s\n", i ? "\n\n" : "", run_letter(i), R->r[i].n ? R->r[i].rows[0].device : "?");
        for (long j = 0; j < R->r[i].n; j++) {
            const vkb_result *r = &R->r[i].rows[j];
            if (is_pass(r) && !isnan(r->bw_frac_copy) && r->bytes > 0) fprintf(f, "%.6g\t%.6g\n", r->bytes, r->bw_frac_copy);
        }
    }
    if (f) fclose(f);
    char nr[8];
    snprintf(nr, sizeof(nr), "%d", R->nr);
    const char *bx[1] = {nr};
    plot(R, "bandwidth.gp", "bandwidth", "Bandwidth utilization (fraction of the run's copy bandwidth) against bytes moved", bx, 1);
}

/* The gate's ratio-with-interval chart from a `vkbench compare` CSV (columns by name). */
static void gate(rep *R, const char *path)
{
    heading(R, 2, "Gate: candidate / baseline");
    FILE *in = fopen(path, "r"), *f = data_file(R, "gate");
    char line[4096], *fl[64];
    int ix[6] = {-1, -1, -1, -1, -1, -1}, k = 0;
    static const char *const need[6] = {"ratio", "ci_lo", "ci_hi", "verdict", "kernel", "params"};
    if (in && fgets(line, sizeof(line), in)) {
        line[strcspn(line, "\r\n")] = 0;
        int n = vkb_csv_split(line, fl, 64);
        for (int j = 0; j < n; j++)
            for (int q = 0; q < 6; q++)
                if (!strcmp(fl[j], need[q])) ix[q] = j;
    }
    int ok = in && f && ix[0] >= 0 && ix[1] >= 0 && ix[2] >= 0;
    while (ok && fgets(line, sizeof(line), in)) {
        line[strcspn(line, "\r\n")] = 0;
        int n = vkb_csv_split(line, fl, 64);
        if (n <= ix[2] || !strcmp(fl[ix[0]], "NA") || !strcmp(fl[ix[1]], "NA")) continue;
        const char *v = ix[3] >= 0 && ix[3] < n ? fl[ix[3]] : "";
        int code = !strcmp(v, "FASTER") ? 1 : !strcmp(v, "SLOWER") ? 2 : !strcmp(v, "INCONCLUSIVE") ? 3 : 0;
        fprintf(f, "%d\t%s\t%s\t%s\t%d\t%s %s\t0.02\n", k++, fl[ix[0]], fl[ix[1]], fl[ix[2]], code,
                ix[4] >= 0 && ix[4] < n ? fl[ix[4]] : "", ix[5] >= 0 && ix[5] < n ? fl[ix[5]] : "");
    }
    if (in) fclose(in);
    if (f) fclose(f);
    if (!ok || !k) {
        para(R, "NA: the comparison file has no ratio, ci_lo and ci_hi columns with values.");
        return;
    }
    const char *gx[1] = {"0.02"};
    plot(R, "gate_ratios.gp", "gate", "Time ratio candidate / baseline with its bootstrap interval, from the comparison file", gx, 1);
}

/* ---------------- reading runs ---------------- */

static int read_samples(rrun *u, char *err, size_t errlen)
{
    char path[600], line[512];
    snprintf(path, sizeof(path), "%s/samples.csv", u->dir);
    FILE *f = fopen(path, "r");
    if (!f) return 0;  /* no samples: intervals are NA */
    size_t cap = 0;
    while (fgets(line, sizeof(line), f)) {
        long long id, s;
        double t;
        if (sscanf(line, "%lld,%lld,%lf", &id, &s, &t) != 3) continue;  /* header */
        if (u->ns == cap) {
            cap = cap ? 2 * cap : 4096;
            int64_t *a = realloc(u->sc, cap * sizeof(*a));
            double *b = a ? realloc(u->st, cap * sizeof(*b)) : NULL;
            if (a) u->sc = a;
            if (!b) {
                fclose(f);
                snprintf(err, errlen, "%s: out of memory", path);
                return -1;
            }
            u->st = b;
        }
        u->sc[u->ns] = id, u->st[u->ns++] = t;
    }
    fclose(f);
    return 0;
}

static int read_runs(rrun *runs, const char *const *dirs, int n, char *err, size_t errlen)
{
    for (int i = 0; i < n; i++) {
        char path[600];
        snprintf(runs[i].dir, sizeof(runs[i].dir), "%s", dirs[i]);
        snprintf(path, sizeof(path), "%s/results.csv", dirs[i]);
        runs[i].n = vkb_result_read(path, &runs[i].rows, err, errlen);
        if (runs[i].n < 0 || read_samples(&runs[i], err, errlen)) return -1;
    }
    return 0;
}

static void free_runs(rrun *runs, int n)
{
    for (int i = 0; i < n; i++) free(runs[i].rows), free(runs[i].sc), free(runs[i].st);
}

int vkb_report_write(const vkb_report_opts *o, char *err, size_t errlen)
{
    rep R;
    rrun runs[MAX_RUNS];
    char path[700];
    int ret = -1;
    memset(&R, 0, sizeof(R));
    memset(runs, 0, sizeof(runs));
    if (o->nruns < 1 || o->nruns > MAX_RUNS) {
        snprintf(err, errlen, "report: give 1 to %d run directories (got %d)", MAX_RUNS, o->nruns);
        return -1;
    }
    if (read_runs(runs, o->runs, o->nruns, err, errlen)) goto out;
    R.r = runs, R.nr = o->nruns;
    R.tmpl = o->plot_dir ? o->plot_dir : "plots";
    snprintf(R.plotdir, sizeof(R.plotdir), "%s/plots", o->runs[0]);
    if (mkdir(R.plotdir, 0777) && errno != EEXIST) {
        snprintf(err, errlen, "%s: %s", R.plotdir, strerror(errno));
        goto out;
    }
    if (o->no_plots) snprintf(R.noplot, sizeof(R.noplot), "--no-plots was given");
#define OPEN(var, name)                                                                  \
    snprintf(path, sizeof(path), "%s/%s", o->runs[0], name);                            \
    if (!(var = fopen(path, "w"))) {                                                    \
        snprintf(err, errlen, "%s: %s", path, strerror(errno));                        \
        goto out;                                                                       \
    }
    OPEN(R.md, "report.md");
    OPEN(R.html, "report.html");
    OPEN(R.nums, "report-numbers.csv");
#undef OPEN
    for (int i = 0; i < R.nr; i++) fprintf(R.nums, "# run %d %s\n", i, o->runs[i]);
    fprintf(R.nums, "id,kind,run,case_id,a,b,scale,sig,text\n");
    fputs("<!DOCTYPE html>\n<html><head><meta charset=\"utf-8\"><title>vkbench report</title><style>"
          "body{font-family:sans-serif;max-width:1400px;margin:auto}table{border-collapse:collapse;font-size:12px}"
          "td,th{border:1px solid #ccc;padding:2px 6px}th{background:#eee}figure svg{max-width:100%;height:auto}"
          "</style></head><body>\n", R.html);
    char partial[1200], title[1300];
    if (partial_runs(o->runs, o->nruns, 1, partial, sizeof(partial)))
        snprintf(title, sizeof(title), "vkbench report: PARTIAL, %s: only its finished cases are reported", partial);
    else snprintf(title, sizeof(title), "vkbench report");
    heading(&R, 1, title);
    runs_table(&R);
    for (int i = 0; i < R.nr; i++) status_cases(&R, i);
    method(&R);
    for (int i = 0; i < R.nr; i++) claims(&R, i);
    side_by_side(&R);
    for (int i = 0; i < R.nr; i++) speedup_table(&R, i);
    for (int i = 0; i < R.nr; i++) baseline_status(&R, i);
    plots(&R);
    if (o->compare_csv) gate(&R, o->compare_csv);
    fputs("</body></html>\n", R.html);
    ret = 0;
out:
    if (R.md) fclose(R.md);
    if (R.html) fclose(R.html);
    if (R.nums) fclose(R.nums);
    free_runs(runs, o->nruns);
    return ret;
}

/* ---------------- verification ---------------- */

static int cmp_len(const void *a, const void *b)
{
    size_t x = strlen(*(char *const *)a), y = strlen(*(char *const *)b);
    return x < y ? 1 : x > y ? -1 : 0;
}

static int numch(char c) { return (c >= '0' && c <= '9') || c == '.' || c == 'e' || c == '+' || c == '-'; }

/* First occurrence of t in md not glued to other number characters (so "1" does not match inside "21"). */
static char *find_token(char *md, const char *t)
{
    size_t n = strlen(t);
    for (char *at = strstr(md, t); at; at = strstr(at + 1, t))
        if ((at == md || !numch(at[-1]) || !numch(t[0])) && (!numch(at[n]) || !numch(t[n - 1]))) return at;
    return NULL;
}

int vkb_report_verify(const char *dir, FILE *out, char *err, size_t errlen)
{
    char path[700], line[4096], *fl[12];
    const char *dirs[MAX_RUNS];
    char dirbuf[MAX_RUNS][512];
    rrun runs[MAX_RUNS];
    int nr = 0, problems = 0;
    char *md = NULL;
    memset(runs, 0, sizeof(runs));
    snprintf(path, sizeof(path), "%s/report-numbers.csv", dir);
    FILE *f = fopen(path, "r");
    if (!f) {
        snprintf(err, errlen, "%s: %s", path, strerror(errno));
        return -1;
    }
    while (fgets(line, sizeof(line), f) && !strncmp(line, "# run ", 6) && nr < MAX_RUNS) {
        int idx;
        char d[512];
        /* run 0 is the directory the report is in (it may have been copied since); others as recorded */
        if (sscanf(line, "# run %d %511[^\n]", &idx, d) == 2)
            snprintf(dirbuf[nr], 512, "%s", nr ? d : dir), dirs[nr] = dirbuf[nr], nr++;
    }
    if (read_runs(runs, dirs, nr, err, errlen)) {
        fclose(f);
        free_runs(runs, nr);
        return -1;
    }
    snprintf(path, sizeof(path), "%s/report.md", dir);
    FILE *m = fopen(path, "r");
    long len = 0;
    if (m && !fseek(m, 0, SEEK_END) && (len = ftell(m)) >= 0 && !fseek(m, 0, SEEK_SET) && (md = malloc((size_t)len + 1)))
        md[fread(md, 1, (size_t)len, m)] = 0;
    if (m) fclose(m);
    if (!md) {
        snprintf(err, errlen, "%s: cannot read", path);
        fclose(f);
        free_runs(runs, nr);
        return -1;
    }
    long entries = 0, ntexts = 0;
    char **texts = NULL;
    while (fgets(line, sizeof(line), f)) {
        line[strcspn(line, "\r\n")] = 0;
        if (vkb_csv_split(line, fl, 12) != 9) continue;
        entries++;
        src s = {.run = atoi(fl[2]), .case_id = atoll(fl[3]), .scale = strtod(fl[6], NULL), .sig = atoi(fl[7])};
        snprintf(s.kind, sizeof(s.kind), "%s", fl[1]);
        snprintf(s.a, sizeof(s.a), "%s", fl[4]);
        snprintf(s.b, sizeof(s.b), "%s", fl[5]);
        char want[200];
        render(runs, nr, &s, want, sizeof(want));
        for (char *p = want; *p; p++)
            if (*p == '|' || *p == '\n') *p = ' ';
        if (strcmp(want, fl[8])) {
            fprintf(out, "number %s (%s %s/%s of run %d case %s): report says '%s', the CSVs give '%s'\n", fl[0], s.kind,
                    s.a, s.b, s.run, fl[3], fl[8], want);
            problems++;
        }
        if (!strpbrk(fl[8], "0123456789")) continue;  /* nothing to account for */
        char **nt = realloc(texts, (size_t)(ntexts + 1) * sizeof(*texts));
        if (!nt || !(nt[ntexts] = strdup(fl[8]))) {
            texts = nt ? nt : texts;
            fprintf(out, "out of memory\n");
            problems++;
            break;
        }
        texts = nt, ntexts++;
    }
    /* Longest texts first, so a short number never takes its digits from inside a longer entry. */
    qsort(texts, (size_t)ntexts, sizeof(*texts), cmp_len);
    for (long t = 0; t < ntexts; t++) {
        char *at = find_token(md, texts[t]);
        if (!at) {
            fprintf(out, "'%s' (from report-numbers.csv) does not appear in report.md\n", texts[t]);
            problems++;
        } else {
            memset(at, '_', strlen(texts[t]));  /* accounted for */
        }
        free(texts[t]);
    }
    free(texts);
    fclose(f);
    for (char *p = md; *p; p++) {
        if (p[0] == ']' && p[1] == '(') {  /* link targets: file names */
            char *e = strchr(p, ')');
            if (e) p = e;
            continue;
        }
        if (*p >= '0' && *p <= '9') {
            char ctx[60];
            snprintf(ctx, sizeof(ctx), "%.40s", p > md + 15 ? p - 15 : md);
            for (char *q = ctx; *q; q++)
                if (*q == '\n') *q = ' ';
            fprintf(out, "report.md has a digit no entry accounts for: ...%s...\n", ctx);
            problems++;
            while (p[1] >= '0' && p[1] <= '9') p++;
        }
    }
    if (!entries) fprintf(out, "report-numbers.csv lists no numbers\n"), problems++;
    free(md);
    free_runs(runs, nr);
    return problems;
}

int vkb_report_cli(int argc, char **argv)
{
    const char *dirs[MAX_RUNS];
    vkb_report_opts o = {.runs = dirs};
    int verify = 0;
    char err[1024];
    for (int i = 1; i < argc; i++) {
        if (!strcmp(argv[i], "--help") || !strcmp(argv[i], "-h")) {
            printf("usage: vkbench report [--verify] [--no-plots] [--compare FILE.csv] [--plots DIR] RUN_DIR...\n"
                   "  writes report.md, report.html (plots inlined) and report-numbers.csv into the first RUN_DIR;\n"
                   "  several runs (several devices) appear side by side\n"
                   "  --verify          recompute every number in RUN_DIR/report.md from the CSVs (exit 1 on a mismatch)\n"
                   "  --no-plots        write the plot data, do not run gnuplot\n"
                   "  --compare F.csv   add the gate's ratio chart from a `vkbench compare` verdicts.csv\n"
                   "  --plots DIR       where the gnuplot templates are (default plots/)\n");
            return 0;
        }
        if (!strcmp(argv[i], "--verify")) verify = 1;
        else if (!strcmp(argv[i], "--no-plots")) o.no_plots = 1;
        else if (!strcmp(argv[i], "--compare") && i + 1 < argc) o.compare_csv = argv[++i];
        else if (!strcmp(argv[i], "--plots") && i + 1 < argc) o.plot_dir = argv[++i];
        else if (argv[i][0] == '-' || o.nruns == MAX_RUNS) {
            fprintf(stderr, "vkbench report: %s: expected [--verify] [--no-plots] [--compare FILE.csv] [--plots DIR] "
                            "RUN_DIR... (at most %d)\n", argv[i], MAX_RUNS);
            return 3;
        } else dirs[o.nruns++] = argv[i];
    }
    if (!o.nruns) {
        fprintf(stderr, "vkbench report: give at least one run directory\n");
        return 3;
    }
    char partial[2400];
    if (partial_runs(dirs, o.nruns, 0, partial, sizeof(partial)))  /* the first line says so */
        printf("vkbench report: PARTIAL: %s\n", partial);
    if (verify) {
        int p = vkb_report_verify(dirs[0], stdout, err, sizeof(err));
        if (p < 0) fprintf(stderr, "vkbench report: %s\n", err);
        else printf("%s: %d problem%s\n", dirs[0], p, p == 1 ? "" : "s");
        return p < 0 ? 3 : p ? 1 : 0;
    }
    if (vkb_report_write(&o, err, sizeof(err))) {
        fprintf(stderr, "vkbench report: %s\n", err);
        return 3;
    }
    printf("report in %s/report.md and %s/report.html\n", dirs[0], dirs[0]);
    return 0;
}
