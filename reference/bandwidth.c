/* bandwidth.c — the calibration yardsticks besides copy (elementwise.c): read-only bandwidth
 * (readbw), write-only bandwidth (writebw) and the cost of an (almost) empty dispatch (noop).
 * All three work on uint32 with wrapping integer arithmetic, so every check is exact (threshold 0):
 * readbw's per-workgroup sums are reproduced mod 2^32 by the reference in the same grouping. */
#include <stdlib.h>
#include <string.h>

#include "check.h"
#include "vkb.h"

#define WG 256u       /* power of two: readbw's shared-memory tree reduction relies on it */
#define ITEMS 4u      /* readbw's defaults: uvec4 per invocation (axis items=), all issued before any is summed */

static int plan_n(vkb_case *c, int64_t *n)
{
    *n = vkb_param_int(c, "n", -1);
    if (*n <= 0 || *n > 0xFFFFFFF0ll)
        return vkb_error(c, "n=%s: expected an integer in [1, 2^32-16]", vkb_param_str(c, "n", "(missing)")) < 0;
    snprintf(c->dtype, sizeof(c->dtype), "u32");
    return 0;
}

/* bind= (readbw, noop): how the shader reaches its buffers: desc (the default: the descriptor set, as every kernel) or
 * bda (by address from the push constants, kernels/bda.glsl). Whether the binding costs a dispatch time: cold mode
 * evicts the descriptors with the data. The pipeline's name, "" after an error. */
static const char *bind_shader(vkb_case *c, const char *base, const char *bda)
{
    const char *b = vkb_param_str(c, "bind", "desc");
    if (!strcmp(b, "desc")) return base;
    if (!strcmp(b, "bda")) return bda;
    vkb_error(c, "bind=%s: expected desc or bda", b);
    return "";
}

/* ---------------- readbw ---------------- */

/* Axes items= (uvec4 per invocation: the grid's size; default 4) and unroll= (loads each invocation issues before it
 * sums them; default items, at most 16). The grouping the reference reproduces depends on neither. Why: the loop
 * that issued one load at a time (items=8 unroll=1, the default before session 25) was bound by the loads in flight.
 * On an H200 (tests/gpu/sweep_s25b.txt, hot, 256 MiB) it read 4.128 TB/s where items=4 unroll=4 reads 4.401 (8/8:
 * 4.394, 16/16: 4.380; copy 4.171, writebw 4.252), so the calibrated read ceiling was 6.6% low; and at issue 15's
 * 4-29 MB (sweep_s25a.txt, rotate) it took 6.7-10.6 us where 4/4 takes 4.5-10.0, the fastest or within 2% of the
 * fastest of 8 configurations. */
static int readbw_plan(vkb_case *c)
{
    int64_t n, items = vkb_param_int(c, "items", ITEMS), unroll = vkb_param_int(c, "unroll", items < 16 ? items : 16);
    uint32_t g[3], spec[2] = {WG, 1};
    if (plan_n(c, &n)) return 0;
    if (items < 1 || items > 64 || unroll < 1 || unroll > 16 || unroll > items)
        return vkb_error(c, "items=%lld unroll=%lld: expected items 1..64 and unroll 1..16, at most items",
                         (long long)items, (long long)unroll);
    spec[1] = (uint32_t)unroll;
    uint64_t nvec = (uint64_t)n / 4, threads = (nvec + (uint64_t)items - 1) / (uint64_t)items;
    vkb_grid_1d(c, threads ? threads : 1, WG, g);
    size_t groups = (size_t)g[0] * g[1];
    vkb_add_buf(c, "a", VKB_U32, (size_t)n, VKB_IN);
    vkb_add_buf(c, "s", VKB_U32, groups, VKB_OUT);
    const char *sh = bind_shader(c, "readbw", "readbw_bda");
    if (!*sh) return 0;
    vkb_dispatch *d = vkb_add_dispatch(c, vkb_add_pipe(c, sh, 2, spec), g[0], g[1], 1);
    if (d) d->push.n = (uint32_t)n;
    c->bytes = 4.0 * (double)n + 4.0 * (double)groups;
    c->flops = 0;
    if (items != ITEMS || unroll != ITEMS)
        snprintf(c->variant, sizeof(c->variant), "items%lld_unroll%lld%s", (long long)items, (long long)unroll, strcmp(sh, "readbw") ? "_bda" : "");
    else snprintf(c->variant, sizeof(c->variant), "%s", strcmp(sh, "readbw") ? "bda" : "default");
    return 0;
}

static void fill_u32(vkb_case *c, gsl_rng *r)
{
    uint32_t *a = c->buf[0].host;
    for (size_t i = 0; i < c->buf[0].count; i++) a[i] = (uint32_t)gsl_rng_get(r);
}

/* The shader's grouping: uvec4 k is summed by invocation k mod total, in workgroup (k mod total)/WG;
 * the scalar tail goes to invocation 0. */
static double readbw_ref(vkb_case *c)
{
    const uint32_t *a = c->buf[0].host;
    size_t n = c->buf[0].count, groups = c->buf[1].count, total = groups * WG, nvec = n / 4;
    uint32_t *want = calloc(groups, sizeof(*want));
    c->priv = want;
    if (!want) return 0;
    for (size_t k = 0; k < nvec; k++)
        want[(k % total) / WG] += a[4 * k] + a[4 * k + 1] + a[4 * k + 2] + a[4 * k + 3];
    for (size_t j = 4 * nvec; j < n; j++) want[0] += a[j];
    return 1.0;
}

static void readbw_check(vkb_case *c, vkb_check *r)
{
    vkb_check_begin(r, "exact", 0);
    if (c->priv) vkb_cmp_exact(r, VKB_U32, c->buf[1].host, c->priv, c->buf[1].count);
    else snprintf(r->detail, sizeof(r->detail), "reference out of memory"), r->pass = 0;
}

VKB_KERNEL(readbw) = {"readbw", "n,items,unroll,bind",
                      "read-only bandwidth: per-workgroup uint32 sums of a (calibration yardstick)",
                      readbw_plan, fill_u32, readbw_ref, readbw_check, NULL,
                      "default, itemsI_unrollU (from items=, unroll=), _bda (bind=bda)"};

/* ---------------- writebw ---------------- */

static int writebw_plan(vkb_case *c)
{
    int64_t n;
    uint32_t g[3], spec[1] = {WG};
    if (plan_n(c, &n)) return 0;
    vkb_grid_1d(c, ((uint64_t)n + 3) / 4, WG, g);
    vkb_add_buf(c, "b", VKB_U32, (size_t)n, VKB_OUT);
    vkb_dispatch *d = vkb_add_dispatch(c, vkb_add_pipe(c, "writebw", 1, spec), g[0], g[1], 1);
    if (d) d->push.n = (uint32_t)n, d->push.p0 = (uint32_t)(c->seed >> 17);
    c->bytes = 4.0 * (double)n;
    c->flops = 0;
    return 0;
}

static double no_ref(vkb_case *c) { (void)c; return 1.0; }

/* b[i] = i ^ key, checked in place: no n-sized expected array (the calibration size is 1 GiB). */
static void check_xor(vkb_case *c, vkb_check *r, uint32_t key)
{
    const uint32_t *b = c->buf[0].host;
    vkb_check_begin(r, "exact", 0);
    for (size_t i = 0; i < c->buf[0].count; i++) {
        uint32_t want = (uint32_t)i ^ key;
        r->nchecked++;
        if (b[i] == want) continue;
        if (vkb_is_poison(VKB_U32, b, i)) r->nunwritten++;
        else vkb_check_bad(r, i, b[i], want);
    }
    r->metric = (double)(r->nbad + r->nunwritten);
    vkb_check_end(r);
}

static void writebw_check(vkb_case *c, vkb_check *r) { check_xor(c, r, c->disp[0].push.p0); }

VKB_KERNEL(writebw) = {"writebw", "n", "write-only bandwidth: b[i] = i ^ key (calibration yardstick)", writebw_plan,
                       NULL, no_ref, writebw_check, NULL, "default"};

/* ---------------- noop ---------------- */

static int noop_plan(vkb_case *c)
{
    uint32_t spec[1] = {64};
    snprintf(c->dtype, sizeof(c->dtype), "u32");
    vkb_add_buf(c, "b", VKB_U32, 1, VKB_OUT);
    const char *sh = bind_shader(c, "noop", "noop_bda");
    if (!*sh) return 0;
    snprintf(c->variant, sizeof(c->variant), "%s", strcmp(sh, "noop") ? "bda" : "default");
    vkb_dispatch *d = vkb_add_dispatch(c, vkb_add_pipe(c, sh, 1, spec), 1, 1, 1);
    if (d) d->push.p0 = (uint32_t)(c->seed >> 17);
    c->bytes = 4;
    c->flops = 0;
    return 0;
}

/* b[0] = key is b[i] = i ^ key at i = 0. */
static void noop_check(vkb_case *c, vkb_check *r) { check_xor(c, r, c->disp[0].push.p0); }

VKB_KERNEL(noop) = {"noop", "bind", "one workgroup storing one word: the per-dispatch overhead (calibration)", noop_plan,
                    NULL, no_ref, noop_check, NULL, "default, bda (bind=bda)"};

/* ---------------- clockprobe ---------------- */

/* One invocation counts cycles= subgroup-clock ticks (default 100000; 50 us at 2 GHz). Used by the harness in
 * pairs of lengths to read the shader clock rate after each timed case (clockcheck.h); a row of its own shows
 * the counter works. */
static int clockprobe_plan(vkb_case *c)
{
    uint32_t spec[1] = {32};
    int64_t cyc = vkb_param_int(c, "cycles", 100000);
    snprintf(c->dtype, sizeof(c->dtype), "u32");
    if (!c->caps.shader_clock) return vkb_skip(c, "the device offers no VK_KHR_shader_clock shaderSubgroupClock");
    if (cyc < 1 || cyc > (1ll << 30)) return vkb_error(c, "cycles=%lld: expected 1 .. 2^30", (long long)cyc);
    vkb_add_buf(c, "b", VKB_U32, 2, VKB_OUT);
    vkb_dispatch *d = vkb_add_dispatch(c, vkb_add_pipe(c, "clockprobe", 1, spec), 1, 1, 1);
    if (d) d->push.p0 = d->push.p1 = (uint32_t)cyc;  /* >= 1 tick a loop trip on any counter that runs */
    c->bytes = 8;
    c->flops = 0;
    return 0;
}

/* The spin ended at its target (b[0] >= cycles) after at least one read of the clock (b[1] >= 1), and not absurdly
 * late: a counter that jumps (b[0] > 2^31) is not a clock the harness can divide by. */
static void clockprobe_check(vkb_case *c, vkb_check *r)
{
    const uint32_t *b = c->buf[0].host;
    uint32_t want = c->disp[0].push.p0;
    vkb_check_begin(r, "exact", 0);
    r->nchecked = 2;
    for (int i = 0; i < 2; i++)
        if (vkb_is_poison(VKB_U32, b, (size_t)i)) r->nunwritten++;
    if (!r->nunwritten && (b[0] < want || b[0] > (1u << 31))) vkb_check_bad(r, 0, b[0], want);
    if (!r->nunwritten && b[1] < 1) vkb_check_bad(r, 1, b[1], 1);
    r->metric = (double)(r->nbad + r->nunwritten);
    vkb_check_end(r);
}

VKB_KERNEL(clockprobe) = {"clockprobe", "cycles", "one invocation spinning cycles= shader-clock ticks: the clock-rate "
                          "probe behind each row's clock_check", clockprobe_plan, NULL, no_ref, clockprobe_check, NULL,
                          "default"};
