/* util.c — pure helpers behind vkb.h: element types, fp16, random fills, case declarations. */
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <gsl/gsl_randist.h>

#include <errno.h>
#include <pthread.h>
#include <stdint.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

#include "fsutil.h"
#include "vkb.h"

size_t vkb_dtype_size(vkb_dtype t)
{
    static const size_t size[] = {[VKB_F32] = 4, [VKB_F16] = 2, [VKB_I8] = 1, [VKB_U8] = 1,
                                  [VKB_I32] = 4, [VKB_U32] = 4};
    return size[t];
}

const char *vkb_dtype_name(vkb_dtype t)
{
    static const char *const name[] = {[VKB_F32] = "f32", [VKB_F16] = "f16", [VKB_I8] = "i8",
                                       [VKB_U8] = "u8", [VKB_I32] = "i32", [VKB_U32] = "u32"};
    return name[t];
}

static const vkb_param *find_param(const vkb_case *c, const char *key)
{
    for (int i = 0; i < c->nparams; i++)
        if (strcmp(c->params[i].key, key) == 0) return &c->params[i];
    return NULL;
}

int64_t vkb_param_int(const vkb_case *c, const char *key, int64_t def)
{
    const vkb_param *p = find_param(c, key);
    return p && p->isint ? p->ival : def;
}

double vkb_param_num(const vkb_case *c, const char *key, double def)
{
    const vkb_param *p = find_param(c, key);
    return p && p->isnum ? p->dval : def;
}

const char *vkb_param_str(const vkb_case *c, const char *key, const char *def)
{
    const vkb_param *p = find_param(c, key);
    return p ? p->val : def;
}

int vkb_add_buf(vkb_case *c, const char *name, vkb_dtype t, size_t count, vkb_role role)
{
    if (c->nbuf >= VKB_MAX_BUFS) return -1;
    vkb_buf *b = &c->buf[c->nbuf];
    memset(b, 0, sizeof(*b));
    snprintf(b->name, sizeof(b->name), "%s", name);
    b->type = t;
    b->count = count;
    b->role = role;
    return c->nbuf++;
}

int vkb_add_pipe(vkb_case *c, const char *shader, int nspec, const uint32_t *spec)
{
    if (c->npipe >= VKB_MAX_PIPES || nspec > VKB_MAX_SPEC) return -1;
    vkb_pipe *p = &c->pipe[c->npipe];
    memset(p, 0, sizeof(*p));
    snprintf(p->shader, sizeof(p->shader), "%s", shader);
    for (int i = 0; i < nspec; i++) p->spec[i] = spec[i];
    p->nspec = nspec;
    return c->npipe++;
}

vkb_dispatch *vkb_add_dispatch(vkb_case *c, int pipe, uint32_t gx, uint32_t gy, uint32_t gz)
{
    if (pipe < 0) return NULL;  /* vkb_add_pipe refused it (too many pipelines or spec constants) */
    if (c->ndisp == c->capdisp) {
        int cap = c->capdisp ? 2 * c->capdisp : 8;
        vkb_dispatch *d = realloc(c->disp, (size_t)cap * sizeof(*d));
        if (!d) return NULL;
        c->disp = d;
        c->capdisp = cap;
    }
    vkb_dispatch *d = &c->disp[c->ndisp++];
    memset(d, 0, sizeof(*d));
    d->pipe = pipe;
    d->groups[0] = gx;
    d->groups[1] = gy;
    d->groups[2] = gz;
    return d;
}

void vkb_grid_1d(const vkb_case *c, uint64_t items, uint32_t per_group, uint32_t groups[3])
{
    uint64_t g = (items + per_group - 1) / per_group;
    uint64_t maxx = c->caps.max_wg_count_x ? c->caps.max_wg_count_x : 65535;
    if (g == 0) g = 1;
    if (g <= maxx) {
        groups[0] = (uint32_t)g;
        groups[1] = 1;
    } else {
        groups[1] = (uint32_t)((g + maxx - 1) / maxx);
        groups[0] = (uint32_t)((g + groups[1] - 1) / groups[1]);
    }
    groups[2] = 1;
}

int vkb_case_dtype(vkb_case *c, vkb_dtype *out)
{
    const char *s = vkb_param_str(c, "dtype", "f32");
    static const struct { const char *name; vkb_dtype t; } known[] = {
        {"f32", VKB_F32}, {"f16", VKB_F16}, {"i8", VKB_I8}, {"i32", VKB_I32}};
    for (size_t i = 0; i < sizeof(known) / sizeof(known[0]); i++)
        if (strcmp(s, known[i].name) == 0) {
            *out = known[i].t;
            snprintf(c->dtype, sizeof(c->dtype), "%s", s);
            return 0;
        }
    vkb_error(c, "unknown dtype '%s' (expected f32 or f16)", s);
    return -1;
}

int vkb_skip(vkb_case *c, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(c->skip, sizeof(c->skip), fmt, ap);
    va_end(ap);
    return 1;
}

int vkb_error(vkb_case *c, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(c->error, sizeof(c->error), fmt, ap);
    va_end(ap);
    return -1;
}

int vkb_bind_twins(vkb_case *c, int planned, int (*dflt)(const vkb_case *c, int pipe, void *arg), void *arg)
{
    const char *bind = vkb_param_str(c, "bind", NULL);
    if (bind && strcmp(bind, "desc") && strcmp(bind, "bda")) return vkb_error(c, "bind=%s: expected desc or bda", bind);
    if (planned || (bind && !strcmp(bind, "desc"))) return planned;
    int n = 0;
    for (int i = 0; i < c->npipe; i++) {
        size_t len = strlen(c->pipe[i].shader);
        if (!bind && !(dflt && dflt(c, i, arg))) continue;
        if (len + 4 >= sizeof(c->pipe[i].shader)) return vkb_error(c, "bind=bda: shader name %s too long", c->pipe[i].shader);
        memcpy(c->pipe[i].shader + len, "_bda", 5);
        n++;
    }
    size_t len = strlen(c->note);
    if (n) snprintf(c->note + len, sizeof(c->note) - len, "; buffers by address (%s)", bind ? "bind=bda" : "the default here");
    return 0;
}

/* A case's host buffers carry a header before the data: how they were allocated and how large. Large ones come
 * straight from mmap, 2 MiB-aligned, with transparent huge pages asked for: on an H200 host (session 23) the first
 * touch of fresh 4 KiB pages ran at 1.8 GB/s and unmapping 256 MiB took 9-12 ms, against 5.6 GB/s and 1 ms with
 * 2 MiB pages. Under AddressSanitizer every buffer comes from calloc, which it watches (it does not watch mmap). */
enum { HOST_HDR = 64 };
#define HOST_MAGIC 0x766b62686f737431ull  /* "vkbhost1" */
#define HOST_HUGE ((size_t)2 << 20)
#if defined(__SANITIZE_ADDRESS__)
#define HOST_MMAP_MIN SIZE_MAX
#else
#define HOST_MMAP_MIN ((size_t)4 << 20)
#endif

void *vkb_host_calloc(size_t count, size_t size)
{
    if (size && count > (SIZE_MAX - HOST_HDR - 2 * HOST_HUGE) / size) return NULL;
    size_t total = count * size + HOST_HDR;
    uint64_t *h;
    if (total < HOST_MMAP_MIN) {
        if (!(h = calloc(1, total))) return NULL;
    } else {  /* map 2 MiB more than whole 2 MiB pages, keep the aligned part: the huge pages cover all of it */
        size_t len = (total + HOST_HUGE - 1) / HOST_HUGE * HOST_HUGE;
        char *m = mmap(NULL, len + HOST_HUGE, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
        if (m == MAP_FAILED) return NULL;
        char *a = (char *)(((uintptr_t)m + HOST_HUGE - 1) & ~(uintptr_t)(HOST_HUGE - 1));
        if (a > m) munmap(m, (size_t)(a - m));
        if (m + HOST_HUGE > a) munmap(a + len, (size_t)(m + HOST_HUGE - a));
        madvise(a, len, MADV_HUGEPAGE);  /* a request: where the kernel says no, 4 KiB pages as before */
        h = (uint64_t *)a;               /* anonymous memory is zero: calloc's promise */
        total = len;
    }
    h[0] = HOST_MAGIC, h[1] = total;
    return (char *)h + HOST_HDR;
}

void vkb_host_free(void *p)
{
    if (!p) return;
    uint64_t *h = (uint64_t *)((char *)p - HOST_HDR);
    if (h[0] != HOST_MAGIC) abort();  /* not from vkb_host_calloc, or its header overwritten: a harness bug */
    h[0] = 0;
    if (h[1] < HOST_MMAP_MIN) free(h);
    else munmap(h, h[1]);
}

void vkb_case_free(vkb_case *c)
{
    if (c->k && c->k->release) c->k->release(c);
    free(c->priv);
    c->priv = NULL;
    for (int i = 0; i < c->nbuf; i++) vkb_host_free(c->buf[i].host);
    free(c->disp);
}

static void (*cpu_enter)(void *), (*cpu_leave)(void *);
static void *cpu_arg;

void vkb_cpu_guard_set(void (*enter)(void *), void (*leave)(void *), void *arg)
{
    cpu_enter = enter, cpu_leave = leave, cpu_arg = arg;
}

void vkb_cpu_shared_begin(void)
{
    if (cpu_enter) cpu_enter(cpu_arg);
}

void vkb_cpu_shared_end(void)
{
    if (cpu_leave) cpu_leave(cpu_arg);
}

typedef struct par_job {
    size_t n, grain;
    uint64_t seed;
    void (*fn)(gsl_rng *, size_t, size_t, void *);
    void *arg;
} par_job;

uint64_t vkb_mix64(uint64_t x)
{
    x += 0x9e3779b97f4a7c15ull;
    x = (x ^ (x >> 30)) * 0xbf58476d1ce4e5b9ull;
    x = (x ^ (x >> 27)) * 0x94d049bb133111ebull;
    return x ^ (x >> 31);
}

/* xoshiro256** (Blackman and Vigna) as a GSL generator, seeded through SplitMix64: the chunks' generator. GSL's
 * ziggurat drew a normal in ~7 ns from it against ~21 ns from mt19937, whose calls were most of a fill's time
 * (an H200 gate launch waited 0.3 s for add n=2^25's inputs). The state lives on the caller's stack. */
typedef struct xo_state {
    uint64_t s[4];
} xo_state;

static uint64_t xo_next(xo_state *x)
{
    uint64_t *s = x->s, r = s[1] * 5, t = s[1] << 17;
    r = (r << 7 | r >> 57) * 9;
    s[2] ^= s[0], s[3] ^= s[1], s[1] ^= s[2], s[0] ^= s[3], s[2] ^= t;
    s[3] = s[3] << 45 | s[3] >> 19;
    return r;
}

static void xo_set(void *st, unsigned long seed)
{
    xo_state *x = st;
    uint64_t z = seed;
    for (int i = 0; i < 4; i++, z += 0x9e3779b97f4a7c15ull) x->s[i] = vkb_mix64(z);  /* never all zero */
}

static unsigned long xo_get(void *st) { return (unsigned long)(xo_next(st) >> 32); }
static double xo_get_double(void *st) { return (double)(xo_next(st) >> 11) * 0x1p-53; }

static const gsl_rng_type xo_type = {"xoshiro256**", 0xffffffffUL, 0, sizeof(xo_state), xo_set, xo_get,
                                     xo_get_double};
const gsl_rng_type *vkb_rng_xoshiro = &xo_type;

typedef struct par_for_job {
    size_t count;
    void (*fn)(void *, size_t);
    void *arg;
    size_t next;   /* the next k to claim (atomic) */
} par_for_job;

static void *par_for_worker(void *a)
{
    par_for_job *j = a;
    for (size_t k; (k = __atomic_fetch_add(&j->next, 1, __ATOMIC_RELAXED)) < j->count;) j->fn(j->arg, k);
    return NULL;
}

void vkb_par_for(size_t count, int nthreads, void (*fn)(void *arg, size_t k), void *arg)
{
    par_for_job j = {count, fn, arg, 0};
    pthread_t th[64];
    int nt = 0, want = nthreads < 1 ? 1 : nthreads > 64 ? 64 : nthreads;
    if ((size_t)want > count) want = (int)(count ? count : 1);
    for (; nt < want - 1 && pthread_create(&th[nt], NULL, par_for_worker, &j) == 0; nt++) {}
    par_for_worker(&j);   /* this thread works too, until no k is left */
    for (int t = 0; t < nt; t++) pthread_join(th[t], NULL);
}

/* Chunk i of a parallel fill, from a generator of its own seeded by the fill's draw and i. */
static void fill_chunk(void *a, size_t i)
{
    const par_job *j = a;
    xo_state st;
    gsl_rng cr = {vkb_rng_xoshiro, &st};
    gsl_rng_set(&cr, (unsigned long)vkb_mix64(j->seed ^ vkb_mix64(i)));
    size_t lo = i * j->grain, hi = lo + j->grain < j->n ? lo + j->grain : j->n;
    vkb_cpu_shared_begin();
    j->fn(&cr, lo, hi, j->arg);
    vkb_cpu_shared_end();
}

void vkb_par_fill(gsl_rng *r, size_t n, size_t grain, void (*fn)(gsl_rng *cr, size_t lo, size_t hi, void *arg),
                  void *arg)
{
    if (grain < 1) grain = 1;
    if (n / grain < VKB_PAR_CHUNKS) {
        fn(r, 0, n, arg);
        return;
    }
    par_job j = {n, grain, (uint64_t)gsl_rng_get(r) << 32 ^ gsl_rng_get(r), fn, arg};
    vkb_par_for((n + grain - 1) / grain, vkb_par_threads(), fill_chunk, &j);
}

int vkb_par_threads(void)
{
    long ncpu = sysconf(_SC_NPROCESSORS_ONLN);
    return ncpu < 1 ? 1 : ncpu > 64 ? 64 : (int)ncpu;
}

typedef struct fill_arg {
    float *x;
    double a, b;
} fill_arg;

static void uniform_chunk(gsl_rng *r, size_t lo, size_t hi, void *arg)
{
    const fill_arg *f = arg;
    for (size_t i = lo; i < hi; i++) f->x[i] = (float)(f->a + (f->b - f->a) * gsl_rng_uniform(r));
}

static void normal_chunk(gsl_rng *r, size_t lo, size_t hi, void *arg)
{
    const fill_arg *f = arg;
    for (size_t i = lo; i < hi; i++) f->x[i] = (float)gsl_ran_gaussian_ziggurat(r, f->a);
}

#define FILL_GRAIN (1u << 16)

void vkb_fill_uniform_f32(gsl_rng *r, float *x, size_t n, double lo, double hi)
{
    fill_arg f = {x, lo, hi};
    vkb_par_fill(r, n, FILL_GRAIN, uniform_chunk, &f);
}

void vkb_fill_normal_f32(gsl_rng *r, float *x, size_t n, double sigma)
{
    fill_arg f = {x, sigma, 0};
    vkb_par_fill(r, n, FILL_GRAIN, normal_chunk, &f);
}

int vkb_fill_pick(vkb_case *c, const char *const *names)
{
    const char *v = vkb_param_str(c, "fill", names[0]);
    char list[160] = "";
    for (int i = 0; names[i]; i++) {
        if (!strcmp(v, names[i])) return i;
        size_t len = strlen(list);
        snprintf(list + len, sizeof(list) - len, "%s%s", i ? ", " : "", names[i]);
    }
    vkb_error(c, "fill=%s: %s offers %s", v, c->k ? c->k->name : "this kernel", list);
    return -1;
}

double vkb_min_normal(vkb_dtype t) { return t == VKB_F16 ? 0x1p-14 : 0x1p-126; }

/* x rounded into type t: fp16 through the harness's own conversion, so the device sees the same value. */
static float in_type(vkb_dtype t, double x)
{
    float f = (float)x;
    return t == VKB_F16 ? vkb_f16_to_f32(vkb_f32_to_f16(f)) : f;
}

/* m * 2^e with m uniform in [1, 2) and e uniform over [lo, hi], random sign, kept finite in t. */
static float log_uniform(gsl_rng *r, vkb_dtype t, int lo, int hi)
{
    double max = t == VKB_F16 ? 65504.0 : 0x1.fffffep127;
    int e = lo + (int)gsl_rng_uniform_int(r, (unsigned long)(hi - lo + 1));
    double m = ldexp(1.0 + gsl_rng_uniform(r), e);
    float v = in_type(t, m > max ? max : m);
    if (isinf(v)) v = (float)max;  /* rounding up past the largest finite */
    return gsl_rng_uniform(r) < 0.5 ? -v : v;
}

void vkb_fill_edge(gsl_rng *r, float *x, size_t n, vkb_dtype t, vkb_fill_kind kind)
{
    int f16 = t == VKB_F16, emax = f16 ? 15 : 127, esub = f16 ? -24 : -149, emin = f16 ? -14 : -126;
    const double table[] = {0.0, -0.0, INFINITY, -INFINITY, NAN, f16 ? 65504.0 : 0x1.fffffep127,
                            f16 ? -65504.0 : -0x1.fffffep127, ldexp(1, emin), -ldexp(1, emin), ldexp(1, esub),
                            -ldexp(1, esub), 1.0, -1.0};
    const size_t ntab = sizeof(table) / sizeof(table[0]);
    for (size_t i = 0; i < n; i++) {
        vkb_fill_kind k = kind;
        if (k == VKB_FILL_SPECIAL) {
            unsigned long pick = gsl_rng_uniform_int(r, 2 * ntab);
            if (pick < ntab) {
                x[i] = (float)table[pick];
                continue;
            }
            pick -= ntab;  /* the other half: normal, subnormal or large, in thirds */
            if (pick < ntab / 3) {
                x[i] = in_type(t, gsl_ran_gaussian_ziggurat(r, 1.0));
                continue;
            }
            k = pick < 2 * ntab / 3 ? VKB_FILL_SUBNORMAL : VKB_FILL_LARGE;
        }
        x[i] = k == VKB_FILL_LARGE ? log_uniform(r, t, 0, emax) : log_uniform(r, t, esub, emin + 1);
    }
}

void vkb_store_f32(vkb_buf *b, const float *x, size_t n)
{
    if (b->type == VKB_F16) vkb_f32_to_f16_array(x, b->host, n);
    else memcpy(b->host, x, n * sizeof(float));
}

uint16_t vkb_f32_to_f16(float f)
{
    uint32_t x;
    memcpy(&x, &f, 4);
    uint32_t sign = (x >> 16) & 0x8000u, ex = (x >> 23) & 0xffu, man = x & 0x7fffffu;
    if (ex == 0xff) return (uint16_t)(sign | 0x7c00u | (man ? 0x200u : 0));
    int e = (int)ex - 127 + 15;
    if (e >= 31) return (uint16_t)(sign | 0x7c00u);
    if (e <= 0) {                      /* subnormal or zero: shift with round-half-even */
        if (e < -10) return (uint16_t)sign;
        man |= 0x800000u;
        uint32_t shift = (uint32_t)(14 - e), half = 1u << (shift - 1);
        uint32_t q = man >> shift, rem = man & ((1u << shift) - 1);
        if (rem > half || (rem == half && (q & 1u))) q++;
        return (uint16_t)(sign | q);
    }
    uint32_t q = ((uint32_t)e << 10) | (man >> 13), rem = man & 0x1fffu;
    if (rem > 0x1000u || (rem == 0x1000u && (q & 1u))) q++;  /* carry into the exponent is right */
    return (uint16_t)(sign | q);
}

float vkb_f16_to_f32(uint16_t h)
{
    uint32_t sign = (uint32_t)(h & 0x8000u) << 16, ex = (h >> 10) & 0x1fu, man = h & 0x3ffu, x;
    if (ex == 0) {
        float v = ldexpf((float)man, -24);
        return sign ? -v : v;
    }
    if (ex == 31) x = sign | 0x7f800000u | (man << 13);
    else x = sign | ((ex - 15 + 127) << 23) | (man << 13);
    float f;
    memcpy(&f, &x, 4);
    return f;
}

void vkb_f32_to_f16_array(const float *x, uint16_t *h, size_t n)
{
    for (size_t i = 0; i < n; i++) h[i] = vkb_f32_to_f16(x[i]);
}

void vkb_slug(const char *in, char *out, size_t len)
{
    size_t j = 0;
    for (size_t i = 0; in[i] && j + 1 < len; i++) {
        char ch = in[i];
        int ok = (ch >= 'a' && ch <= 'z') || (ch >= 'A' && ch <= 'Z') || (ch >= '0' && ch <= '9') || ch == '.';
        if (ok) out[j++] = ch;
        else if (j && out[j - 1] != '-') out[j++] = '-';
    }
    while (j && out[j - 1] == '-') j--;
    out[j] = 0;
}


int vkb_mkdirs(const char *path)
{
    char tmp[600];
    snprintf(tmp, sizeof(tmp), "%s", path);
    for (char *p = tmp + 1; *p; p++)
        if (*p == '/') {
            *p = 0;
            if (mkdir(tmp, 0777) && errno != EEXIST) return -1;
            *p = '/';
        }
    return mkdir(tmp, 0777) && errno != EEXIST ? -1 : 0;
}


double vkb_now_s(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + 1e-9 * (double)ts.tv_nsec;
}

static double trace_start = NAN;

void vkb_trace_init(void)
{
    const char *e = getenv("VKB_TRACE");
    if (e && *e && strcmp(e, "0")) trace_start = vkb_now_s();
}

void vkb_trace(const char *step, const char *what, double t0)
{
    if (isnan(trace_start)) return;
    double now = vkb_now_s();
    fprintf(stderr, "trace %.4f %s %s %.6f\n", now - trace_start, step, what ? what : "-", now - t0);
}

const char *vkb_fmt_time(double s, char *buf, size_t len)
{
    if (isnan(s)) snprintf(buf, len, "NA");
    else if (s < 1e-3) snprintf(buf, len, "%.2f us", s * 1e6);
    else if (s < 1) snprintf(buf, len, "%.3f ms", s * 1e3);
    else snprintf(buf, len, "%.3f s", s);
    return buf;
}

int vkb_wg_tiling(const vkb_caps *cp, uint32_t wg, uint32_t bm, uint32_t bn, uint32_t bk, char *why, size_t wl)
{
    if (!cp->coopmat_wg)
        return snprintf(why, wl, "device lacks VK_NV_cooperative_matrix2 workgroup scope with flexible dimensions"), 1;
    const vkb_cm_flex *f = NULL;
    for (int i = 0; i < cp->nflex && !f; i++)
        if (cp->flex[i].a == 0 && cp->flex[i].b == 0 && cp->flex[i].c == 1 && cp->flex[i].d == 1 &&
            cp->flex[i].invocations == wg)
            f = &cp->flex[i];  /* component types 0 fp16, 1 fp32 (VkComponentTypeKHR) */
    if (!f) return snprintf(why, wl, "the device lists no fp16 workgroup-scope configuration for %u invocations", wg), 1;
    if (!f->m || !f->n || !f->k || bm % f->m || bn % f->n || bk % f->k)
        return snprintf(why, wl, "tile %ux%u chunk %u is not a multiple of the device's %ux%ux%u granularity at %u invocations",
                        bm, bn, bk, f->m, f->n, f->k, wg), 1;
    if (wg > cp->coopmat_wg_max)
        return snprintf(why, wl, "%u invocations, over this device's %u for workgroup-scope matrices", wg, cp->coopmat_wg_max), 1;
    return 0;
}

int vkb_wg_staged(uint32_t wg, uint32_t bm, uint32_t bn, uint32_t bk, uint32_t ahead, uint64_t steps, int emu, char *why,
                  size_t wl)
{
    uint64_t na = (uint64_t)bm * bk / 8, nb = (uint64_t)bk * bn / 8;
    if (!wg || na % wg || nb % wg) return snprintf(why, wl, "the tiles do not split into whole uvec4 over %u invocations", wg), 1;
    if (!emu && ahead * (na + nb) / wg > 48)  /* as coopmat_r: 48 uvec4 = 192 registers */
        return snprintf(why, wl, "ahead %u holds %llu uvec4 of loads per invocation (> 48)", ahead,
                        (unsigned long long)(ahead * (na + nb) / wg)), 1;
    /* llvmpipe's loop limiter counts every pass of every loop of an invocation (the exiting ones too) against one budget
     * of 65535 and, past it, leaves the outputs unwritten: dense_f16 64x4032 m=32 bn=16 on 32 invocations FAILed at
     * ~66.7k, matmul 64x128 tiles on 32 invocations (256 sums each) at K = 256 (~70.7k) where K = 224 (~62.0k) PASSed.
     * The emulation's passes: per step PER (bk + 1) in its dot products and PER + 2 around them, PER = bm bn / wg; below
     * 60000 of them, with a margin for the rest, it runs. */
    uint64_t per = (uint64_t)bm * bn / wg, trips = steps * (per * ((uint64_t)bk + 1) + per + 2) + 4 * per;
    if (emu && trips >= 60000)
        return snprintf(why, wl, "~%llu loop passes an invocation (>= 60000: llvmpipe's loop limiter stops at 65535 and leaves "
                        "outputs unwritten; more invocations or split= take fewer)", (unsigned long long)trips), 1;
    return 0;
}

double vkb_wave_fill(uint64_t wgs, uint64_t slots)
{
    if (!wgs || !slots) return 0;
    return (double)wgs / ((double)slots * (double)((wgs + slots - 1) / slots));
}

double vkb_wg_staged_shared(uint32_t bm, uint32_t bn, uint32_t bk, uint32_t bufs, int bt)
{
    double b = bt ? (double)bn * (bk / 8 + 1) : (double)bk * (bn / 8 + 1);  /* B^T: BN rows of BK; else BK rows of BN */
    return 16.0 * bufs * ((double)bm * (bk / 8 + 1) + b);
}
