/* report_data.c — the report's sources (runs, cells, constants), the row selections shared by the report
 * and its verification, the evaluation and rendering of a number's source, and reading runs. */
#include <ctype.h>
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "report_impl.h"
#include "rundir.h"
#include "telemetry.h"

/* ---------------- sources: runs, cells, constants ---------------- */

/* Published claims (bitnet-metal 1.0.0) and the report's fixed method constants. */
static const struct { const char *name; double v; const char *text; } consts[] = {
    {"claim_version", NAN, "1.0.0"},
    {"claim_matmul_x", 2915.5, NULL}, {"claim_elementwise_x", 2955.4, NULL}, {"claim_quant_x", 3059, NULL},
    {"claim_bw_pct", 85, NULL},       {"claim_power_pct", 40, NULL},        {"matmul_size", 512, NULL},
    {"conf_pct", 100 * CONF, NULL},   {"boot_B", BOOT_B, NULL},
    {"floor_factor", 10, NULL},
    {"clock_low_frac", VKB_CLOCK_LOW_FRAC, NULL},  /* clock_check "low": below this x the run's highest reading (telemetry.h) */  /* below_floor: median < this x max(timer_floor_s, dispatch_s), calibrate.c */
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

double rep_col(const vkb_result *r, const char *name)
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

size_t rep_case_samples(const rrun *R, int64_t id, const double **t)
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

static int cmp_i64(const void *a, const void *b)
{
    int64_t x = *(const int64_t *)a, y = *(const int64_t *)b;
    return x < y ? -1 : x > y;
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

int rep_is_pass(const vkb_result *r) { return !strcmp(r->status, "PASS"); }
int rep_fast_ok(const vkb_result *r) { return !strcmp(r->cpu_fast_status, "PASS"); }

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

/* Kernel families, for grouping plots and the claims' row sets. The CSV has no family column: a kernel
 * not listed here is its own family (named after itself), so a new kernel is shown, only not grouped. */
static const struct { const char *family, *kernels[11]; } families[] = {
    {"elementwise", {"copy", "add", "sub", "mul", "div", "scale_add", "relu", "gelu", "silu", "sigmoid"}},
    {"reductions and rows", {"sum", "max", "rowsum", "rowmax", "softmax", "rmsnorm", "transpose"}},
    {"BitNet", {"bitnet_wquant", "bitnet_dequant", "bitnet_aquant", "bitnet_linear", "dense_f16"}},
    {"matmul", {"matmul"}},
    {"decompositions", {"cholesky", "qr", "svd"}},
    {"calibration", {"peak_fma", "peak_coopmat", "readbw", "writebw", "noop"}},
};

int rep_family_index(const char *kernel)
{
    for (size_t f = 0; f < sizeof(families) / sizeof(families[0]); f++)
        for (size_t k = 0; k < sizeof(families[f].kernels) / sizeof(families[f].kernels[0]) && families[f].kernels[k]; k++)
            if (!strcmp(kernel, families[f].kernels[k])) return (int)f;
    return -1;
}

const char *rep_family(const char *kernel)
{
    int f = rep_family_index(kernel);
    return f < 0 ? kernel : families[f].family;
}

int rep_on_matrix_units(const vkb_result *r)
{
    const char *v = !strncmp(r->variant, "auto:", 5) ? r->variant + 5 : r->variant;  /* what variant=auto chose */
    size_t n = strlen(v);
    return (!strcmp(r->kernel, "peak_coopmat") && !strstr(r->params, "impl=emu")) ||
           (!strcmp(r->kernel, "matmul") && !strncmp(v, "coopmat", 7) && !(n >= 4 && !strcmp(v + n - 4, "_emu")));
}

int rep_want_elem(const vkb_result *r) { return !strcmp(rep_family(r->kernel), "elementwise"); }
int rep_want_elem_nocopy(const vkb_result *r) { return rep_want_elem(r) && strcmp(r->kernel, "copy"); }
int rep_want_elem_fast(const vkb_result *r) { return rep_want_elem(r) && rep_fast_ok(r); }
int rep_want_quant(const vkb_result *r) { return !strcmp(r->kernel, "bitnet_wquant"); }
int rep_want_quant_fast(const vkb_result *r) { return rep_want_quant(r) && rep_fast_ok(r); }
int rep_want_mm(const vkb_result *r)
{
    long m, n, k;
    mnk(r->params, &m, &n, &k);
    return !strcmp(r->kernel, "matmul") && m == 512 && n == 512 && k == 512;
}

static const pickset picks[] = {
    {"elementwise", rep_want_elem, 0, "elementwise rows moving as many bytes or more"},
    {"elementwise_nocopy", rep_want_elem_nocopy, 0, "elementwise rows other than copy moving as many bytes or more"},
    {"bitnet_wquant", rep_want_quant, 0, "bitnet_wquant rows moving as many bytes or more"},
    {"matmul_512", rep_want_mm, 1, "matmul rows at that size"},
};

const pickset *rep_pick_set(const char *name)
{
    for (size_t i = 0; i < sizeof(picks) / sizeof(picks[0]); i++)
        if (!strcmp(picks[i].name, name)) return &picks[i];
    return NULL;
}

/* The rows of set ps that did not PASS and move at least as many bytes as the picked row r (a claim made
 * from r says nothing about them; a row whose bytes are unknown counts only in a one-size set); *big gets
 * the one moving the most bytes (ties: first). */
long rep_not_measured(const rrun *u, const vkb_result *r, const pickset *ps, const vkb_result **big)
{
    long k = 0;
    *big = NULL;
    for (long j = 0; ps && j < u->n; j++) {
        const vkb_result *o = &u->rows[j];
        if (rep_is_pass(o) || !ps->want(o) || !(ps->one_size || (o->bytes > 0 && o->bytes >= r->bytes))) continue;
        k++;
        if (!*big || o->bytes > (*big)->bytes) *big = o;
    }
    return k;
}

/* A reason with its sizes elided, so that reasons differing only in numbers fall into one group: a number
 * not glued to a word (fp16 stays), with 2^k, AxB and a byte unit after it, becomes "…"; so does a quoted name. */
void rep_mask_reason(const char *in, char *out, size_t len)
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
long rep_group_count(const rrun *u, const vkb_result *r, long upto)
{
    char a[600], b[600];
    long k = 0;
    rep_mask_reason(r->reason, a, sizeof(a));
    for (long q = 0; q < upto; q++) {
        if (strcmp(u->rows[q].status, r->status)) continue;
        rep_mask_reason(u->rows[q].reason, b, sizeof(b));
        k += !strcmp(a, b);
    }
    return k;
}

/* The timing-distribution plot's cases: PASS rows with at least two samples; all of them when they fit
 * in BOX_MAX boxes, else each kernel's largest (most bytes; ties: first), the first BOX_MAX kernels in
 * run order. Fills idx (BOX_MAX entries), returns how many; *eligible and *kernels count the candidates. */
int rep_box_pick(const rrun *u, long *idx, long *eligible, long *kernels)
{
    int n = 0;
    char *ok = calloc((size_t)u->n + 1, 1);
    *eligible = *kernels = 0;
    for (long j = 0; ok && j < u->n; j++) {
        const double *t;
        ok[j] = rep_is_pass(&u->rows[j]) && rep_case_samples(u, u->rows[j].case_id, &t) >= 2;
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

double rep_eval(const rrun *runs, int nruns, const src *s)
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
            k += v ? !strcmp(v, s->b) : rep_col(&R->rows[i], s->a) == strtod(s->b, NULL);
        }
        return k;
    }
    if (!strcmp(s->kind, "has")) {  /* rows whose string column a contains b */
        double k = 0;
        for (long i = 0; i < R->n; i++) {
            const char *v = col_str(&R->rows[i], s->a);
            k += v && strstr(v, s->b) != NULL;
        }
        return k;
    }
    if (!strcmp(s->kind, "rows")) return (double)R->n;
    if (!strcmp(s->kind, "done")) return R->finished < 0 ? NAN : (double)R->finished;
    if (!strcmp(s->kind, "boxes")) {
        long idx[BOX_MAX], el, kn;
        int n = rep_box_pick(R, idx, &el, &kn);
        return !strcmp(s->a, "shown") ? n : !strcmp(s->a, "eligible") ? (double)el : !strcmp(s->a, "kernels") ? (double)kn : NAN;
    }
    const vkb_result *r = find_case(R, s->case_id);
    if (!r) return NAN;
    if (!strcmp(s->kind, "group")) return (double)rep_group_count(R, r, R->n);
    if (!strcmp(s->kind, "nomeas")) {
        const vkb_result *big;
        return (double)rep_not_measured(R, r, rep_pick_set(s->a), &big);
    }
    if (!strcmp(s->kind, "cell")) return rep_col(r, s->a) * s->scale;
    if (!strcmp(s->kind, "ratio")) return rep_col(r, s->a) / rep_col(r, s->b) * s->scale;
    if (!strncmp(s->kind, "boot_", 5)) {
        /* Each interval is asked for several times (low and high end, table and plot): keep the last ones. */
        static struct { const rrun *r; int64_t id; char a[32]; double num, lo, hi; } cache[64];
        static unsigned next;
        double num = rep_col(r, s->a), lo = NAN, hi = NAN;
        int hit = 0;
        for (unsigned c = 0; c < 64 && !hit; c++)
            if (cache[c].r == R && cache[c].id == s->case_id && !strcmp(cache[c].a, s->a) && cache[c].num == num)
                lo = cache[c].lo, hi = cache[c].hi, hit = 1;
        if (!hit) {
            const double *t;
            size_t n = rep_case_samples(R, s->case_id, &t);
            vkb_report_boot_ratio(num, t, n, BOOT_B, CONF, (uint64_t)s->case_id * 7919u + (uint64_t)s->run, &lo, &hi);
            unsigned c = next++ % 64;
            cache[c].r = R, cache[c].id = s->case_id, cache[c].num = num, cache[c].lo = lo, cache[c].hi = hi;
            snprintf(cache[c].a, sizeof(cache[c].a), "%s", s->a);
        }
        return (!strcmp(s->kind, "boot_lo") ? lo : hi) * s->scale;
    }
    return NAN;
}

void rep_fmt_sig(double v, int sig, char *out, size_t len)
{
    if (v == 0 || sig < 1) {
        snprintf(out, len, "%.*g", sig < 1 ? 1 : sig, v);
        return;
    }
    char e[40];
    snprintf(e, sizeof(e), "%.*e", sig - 1, v);  /* rounded to sig digits; its exponent says where the point goes */
    int x = atoi(strchr(e, 'e') + 1), dec = sig - 1 - x;
    snprintf(out, len, "%.*f", dec > 0 ? dec : 0, strtod(e, NULL));
    if (dec > 0) {  /* %g's habit: no trailing zeros */
        char *p = out + strlen(out) - 1;
        while (*p == '0') *p-- = 0;
        if (*p == '.') *p = 0;
    }
}

/* The printed text of a source: numbers with s->sig significant digits, NA when not measured. */
void rep_render(const rrun *runs, int nruns, const src *s, char *out, size_t len)
{
    for (size_t i = 0; !strcmp(s->kind, "const") && i < sizeof(consts) / sizeof(consts[0]); i++)
        if (!strcmp(consts[i].name, s->a) && consts[i].text) {
            snprintf(out, len, "%s", consts[i].text);
            return;
        }
    if (!strcmp(s->kind, "str") || !strcmp(s->kind, "mask")) {
        const vkb_result *r = s->run >= 0 && s->run < nruns ? find_case(&runs[s->run], s->case_id) : NULL;
        const char *v = r ? col_str(r, s->a) : NULL;
        if (v && *v && s->kind[0] == 'm') rep_mask_reason(v, out, len);
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
    double v = rep_eval(runs, nruns, s);
    if (isnan(v) || isinf(v)) snprintf(out, len, "NA");
    else rep_fmt_sig(v, s->sig, out, len);
}

/* ---------------- reading runs ---------------- */

/* samples.csv, checked line by line; then each timed row against its samples (compare's checks). */
static int read_samples(rrun *u, const char *results, char *err, size_t errlen)
{
    char path[600];
    snprintf(path, sizeof(path), "%s/samples.csv", u->dir);
    if (access(path, F_OK) && errno == ENOENT) {  /* finished rows stay readable: their medians, no intervals */
        snprintf(u->nosamp, sizeof(u->nosamp), "%s is missing", path);
        return 0;
    }
    long n = vkb_samples_load(path, -1, vkb_rundir_torn_tail(u->dir), &u->sc, &u->st, err, errlen);
    if (n < 0) return -1;
    u->ns = (size_t)n;
    /* A case's samples are one block (run.c writes them at once): rep_case_samples sees only the first. */
    int64_t *blk = malloc((u->ns + 1) * sizeof(*blk));
    size_t nb = 0;
    if (!blk) {
        snprintf(err, errlen, "%s: out of memory", path);
        return -1;
    }
    for (size_t j = 0; j < u->ns; j++)
        if (!j || u->sc[j] != u->sc[j - 1]) blk[nb++] = u->sc[j];
    qsort(blk, nb, sizeof(*blk), cmp_i64);
    for (size_t j = 1; j < nb; j++)
        if (blk[j] == blk[j - 1]) {
            snprintf(err, errlen, "%s: the samples of case_id %lld are not on consecutive lines (mixed files?)", path,
                     (long long)blk[j]);
            free(blk);
            return -1;
        }
    free(blk);
    for (long i = 0; i < u->n; i++) {
        const vkb_result *r = &u->rows[i];
        const double *t;
        if (strcmp(r->status, "PASS") && strcmp(r->status, "TIMED")) continue;
        if (vkb_samples_match_row(path, results, r, (long)rep_case_samples(u, r->case_id, &t), err, errlen)) return -1;
    }
    return 0;
}

/* The rows run.txt's "totals:" line counts (run.c writes a row for every finished case), or -1 without one. */
static long finished_rows(const char *dir)
{
    char path[600], line[1024];
    long n = -1;
    snprintf(path, sizeof(path), "%s/run.txt", dir);
    FILE *f = fopen(path, "r");
    while (f && fgets(line, sizeof(line), f)) {
        long p, fl, sk, e, in = 0;
        if (sscanf(line, "totals: pass %ld fail %ld skip %ld error %ld interrupted %ld", &p, &fl, &sk, &e, &in) >= 4)
            n = p + fl + sk + e + in;
    }
    if (f) fclose(f);
    return n;
}

int rep_read_runs(rrun *runs, const char *const *dirs, int n, char *err, size_t errlen)
{
    /* Without these every row would read as NA or as nothing: a missing one is refused by name. */
    static const char *const need[] = {"kernel", "variant", "params", "mode", "status", "reason", "case_id", "samples",
                                       "time_median_s"};
    for (int i = 0; i < n; i++) {
        char path[600];
        snprintf(runs[i].dir, sizeof(runs[i].dir), "%s", dirs[i]);
        snprintf(path, sizeof(path), "%s/results.csv", dirs[i]);
        runs[i].finished = finished_rows(dirs[i]);
        if (vkb_result_require(path, need, sizeof(need) / sizeof(need[0]), err, errlen)) return -1;
        runs[i].n = vkb_result_read(path, &runs[i].rows, err, errlen);
        if (runs[i].n < 0 || vkb_result_need_status(path, runs[i].rows, runs[i].n, err, errlen) ||
            read_samples(&runs[i], path, err, errlen)) return -1;
    }
    return 0;
}

void rep_free_runs(rrun *runs, int n)
{
    for (int i = 0; i < n; i++) free(runs[i].rows), free(runs[i].sc), free(runs[i].st);
}
