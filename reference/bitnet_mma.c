/* bitnet_mma.c — the plan of bitnet_linear algo=mma / mma_emu (kernels/bitnet_mma.glsl): BitLinear on int8 matrix
 * units. The case, its inputs, reference and exact check are bitnet_linear's (reference/bitnet_linear.c); only the
 * tiling and dispatches are planned here.
 * Tunables: frag= MxNxK fragment shape (an NV sint8 x sint8 -> sint32 configuration the device reports; M 8 or 16,
 * N 8 or 16, K 16, 32 or 64), wn= row fragments per subgroup (1, 2, 4), sgs= subgroups per workgroup (1..16), bk=
 * weights per staged step (64, 128, 256; a multiple of K), split= K slices (0 = auto), rb= steps of packed loads in
 * flight (register sets, 1 or 2; default 2 at m <= 16: on an H200, session 9, rb=2 took 0.84-1.02x of rb=1's time
 * at m=8 on the six issue-15 shapes at their best split, and up to 1.16x at m=32, where the default stays 1).
 * Defaults: the device's configuration with M = 16 and N = 8 at m <= 8, else
 * N = 16 (the first sint8 one otherwise; 16x8x32 / 16x16x32 when emulated); token fragments MT = ceil(m / N) up to
 * 64 tokens per pass; wn=1 sgs=8 above m = 16, wn=2 sgs=4 at m <= 16 (BN = 128 rows at M = 16): on an H200
 * (tests/gpu/sweep_bgemm.txt, 2026-11-23) wn=1 sgs=8 took 0.54-0.62x of wn=2 sgs=4's time at m=32 on all six
 * issue-15 shapes, and 0.96-1.2x at m=8. sgs=16 (bk 64), the m=32 default of session 8, lost to sgs=8 (bk 128) on
 * all six shapes once the loads went RB steps ahead (session 9, rotate, us: 30.4 / 14.6 / 46.6 / 25.4 / 79.1 / 46.6
 * against 25.1 / 14.5 / 40.1 / 21.6 / 66.5 / 37.7). bk = 128, halved while the two stages overflow shared
 * memory. Split-K (auto_split): slices until the grid holds ~528 workgroups (4 per SM of a 132-SM GPU), at most one
 * per step, and the int32 partial sums (4 s M N bytes, written and read once, L2-resident at these sizes) at most
 * half of W's 2-bit bytes (s <= K / (32 m)).
 * lavapipe (Mesa 22.3) breaks out of any loop past ~65k iterations per invocation (gallivm's loop limiter, as
 * dense_coopmat_g.glsl found): mma_emu's 32-deep dot product is unrolled, so a case's loop trips are its MMAs x
 * 256 / S, and n=77 k=1000 m=70 (80k multiply-adds per lane, which left most outputs unwritten) passes. */
#include <stdio.h>
#include <string.h>

#include "bitnet_layout.glsl"
#include "bitnet_linear.h"
#include "vkb.h"

/* The fragment shape: frag= or the default rule above; 0, or vkb_error/vkb_skip's return. */
static int mma_frag(vkb_case *c, int64_t m, int emu, uint32_t f[3])
{
    const char *s = vkb_param_str(c, "frag", NULL);
    uint32_t want_n = m <= 8 ? 8 : 16;
    f[0] = 16, f[1] = want_n, f[2] = 32;
    if (s) {
        unsigned a, b, k;
        char tail;
        if (sscanf(s, "%ux%ux%u%c", &a, &b, &k, &tail) != 3 || (a != 8 && a != 16) || (b != 8 && b != 16) ||
            (k != 16 && k != 32 && k != 64))
            return vkb_error(c, "frag=%s: expected MxNxK with M, N in {8, 16} and K in {16, 32, 64}", s);
        f[0] = a, f[1] = b, f[2] = k;
    }
    if (emu) return 0;
    int best = -1;  /* M = 16 first, then N = want_n */
    for (int i = 0; i < c->caps.ncm; i++) {
        const vkb_cm_shape *q = &c->caps.cm[i];
        int ok = !q->khr && q->a == 3 && q->b == 3 && q->c == 5 && q->d == 5 && (q->m == 8 || q->m == 16) &&
                 (q->n == 8 || q->n == 16) && (q->k == 16 || q->k == 32 || q->k == 64);
        if (!ok) continue;
        if (s) {
            if (q->m == f[0] && q->n == f[1] && q->k == f[2]) return 0;
            continue;
        }
        int score = (q->m == 16) * 2 + (q->n == want_n);
        if (score > best) best = score, f[0] = q->m, f[1] = q->n, f[2] = q->k;
    }
    if (best >= 0) return 0;
    return vkb_skip(c, "device reports no NV cooperative-matrix configuration %s sint8/sint32 (see `vkbench devices`); "
                       "algo=mma_emu validates the tiling", s ? s : "with M, N in {8, 16}, K in {16, 32, 64}");
}

/* Split-K's automatic slice count for a grid of gx x gz workgroups: slices until ~528 workgroups (4 per SM of a
 * 132-SM GPU), at most K / (32 m) (the int32 partial sums at most half of W's 2-bit bytes) and one per step.
 * At m <= 16 a grid of >= 96 workgroups keeps one slice: on an H200 (session 9, rotate, m=8, wn2 sg4 bk128 rb2) one
 * slice took 17.5 / 37.7 / 48.1 us on 13824x2560 / 20480x3200 / 28672x4096 (108 / 160 / 224 workgroups) against
 * 25.6 / 35.6 / 53.9 at the ~528 rule's 5 / 4 / 3 slices: each slice adds the partial-sum pass (~4 us) and the
 * per-workgroup prologue and epilogue, which --profile and ablated shaders put at ~11 us of a 51 us call at one
 * slice and ~20 at four. Narrower grids (6144x4096: 48, 4096x14336: 32, 2560x6912: 20) keep the 528 rule, which
 * measured best or within 14% there (20.1, 31.0, 20.1 us). At m = 32 the 528 rule's choice measured best (sgs 16, same sweep). */
static uint64_t auto_split(uint64_t gx, uint64_t gz, long long k, int64_t m, uint64_t steps)
{
    if (m <= 16 && gx * gz >= 96) return 1;
    uint64_t cap = (uint64_t)k / (32 * (uint64_t)m), s = (528 + gx * gz - 1) / (gx * gz);
    if (s > cap) s = cap;
    if (s < 1) s = 1;
    return s > steps ? steps : s;
}

/* A BitLinear case's declared cost: W's 2-bit bytes, x, s, gamma' and y moved once; 2 m n k operations. */
static void mma_cost(vkb_case *c, long long n, long long k, int64_t m)
{
    double nk = (double)n * (double)k, mk = (double)m * (double)k, mn = (double)m * (double)n;
    c->bytes = nk / 4 + mk + 4.0 * (double)m + 4 + 4 * mn;
    c->flops = 2.0 * (double)m * nk;
}

/* The MMA kernel's dispatch (grid gx x s x gz, nspec spec constants) and, with s > 1 slices, bitnet_mma_sum's; part[] sized for
 * them; the case's bytes and flops. 0, or vkb_error's -1. */
static int mma_dispatch(vkb_case *c, const char *shader, const uint32_t *spec, int nspec, uint64_t gx, uint64_t gz, uint64_t s,
                        uint64_t per, long long n, long long k, int64_t m, size_t nc, int fold)
{
    vkb_add_buf(c, "part", VKB_I32, s > 1 ? (size_t)(s * (uint64_t)m * (uint64_t)n) : 1, VKB_SCRATCH);
    if (fold >= 0) {  /* mma_sg: zero between calls (kernels/splitk_fold.glsl, bitnet_mma_sg.glsl) */
        vkb_add_buf(c, "tickets", VKB_U32, fold ? (size_t)(gx * gz) : 1, VKB_IN);
        vkb_add_buf(c, "sums", VKB_I32, fold ? (size_t)((uint64_t)m * (uint64_t)n) : 1, VKB_IN);
    }
    vkb_dispatch *d = vkb_add_dispatch(c, vkb_add_pipe(c, shader, nspec, spec), (uint32_t)gx, (uint32_t)s, (uint32_t)gz);
    if (!d) return vkb_error(c, "out of memory");
    d->push.n = (uint32_t)n, d->push.m = (uint32_t)m, d->push.k = (uint32_t)k;
    d->push.p0 = (uint32_t)nc, d->push.p1 = (uint32_t)per, d->push.p2 = (uint32_t)s;
    if (s > 1 && fold <= 0) {
        uint32_t g[3], rspec[1] = {256};
        vkb_grid_1d(c, (uint64_t)m * (uint64_t)n, 256, g);
        if (!(d = vkb_add_dispatch(c, vkb_add_pipe(c, "bitnet_mma_sum", 1, rspec), g[0], g[1], g[2])))
            return vkb_error(c, "out of memory");
        d->push.n = (uint32_t)n, d->push.m = (uint32_t)m, d->push.p2 = (uint32_t)s;
    }
    mma_cost(c, n, k, m);
    return 0;
}

/* What both MMA algos need of the device (algo names the one asked for): the fragment shape into f, the subgroup
 * size into *sg. 0, or vkb_error's / vkb_skip's return. */
static int mma_begin(vkb_case *c, int64_t m, int emu, const char *algo, uint32_t f[3], uint32_t *sg)
{
    if (!emu && !c->caps.coopmat_nv)
        return vkb_skip(c, "device lacks VK_NV_cooperative_matrix (int8 matrix units); algo=%s_emu validates the tiling", algo);
    if (!emu && !c->caps.int8) return vkb_skip(c, "device lacks shaderInt8 (int8 cooperative matrices)");
    *sg = c->caps.subgroup ? c->caps.subgroup : 32;
    int e = mma_frag(c, m, emu, f);
    if (e) return e;
    if (emu && (*sg < 8 || *sg > 256)) return vkb_skip(c, "algo=%s_emu needs a subgroup size of 8 .. 256 (this device: %u)", algo, *sg);
    return 0;
}

int bitnet_mma_plan(vkb_case *c, long long n, long long k, int64_t m, size_t nc, int emu)
{
    uint32_t f[3], sg;
    int e = mma_begin(c, m, emu, "mma", f, &sg);
    if (e) return e;
    uint64_t mt = ((uint64_t)m + f[1] - 1) / f[1], mtmax = 64 / f[1];
    if (mt > mtmax) mt = mtmax;
    int64_t tn = (int64_t)(f[1] * mt), wn = vkb_param_int(c, "wn", m > 16 ? 1 : 2);
    int64_t sgs = vkb_param_int(c, "sgs", m <= 16 ? 4 : 8);
    int64_t split = vkb_param_int(c, "split", 0), bk = 128, rb = vkb_param_int(c, "rb", m <= 16 ? 2 : 1);
    if (rb != 1 && rb != 2) return vkb_error(c, "rb=%lld: expected 1 or 2 (steps of packed loads in flight)", (long long)rb);
    /* two stages of (BN + TN) rows x (bk / 16 + 1) uvec4 */
    while (bk > 64 && 32.0 * (double)(sgs * wn * f[0] + tn) * (double)(bk / 16 + 1) > c->caps.max_shared) bk /= 2;
    bk = vkb_param_int(c, "bk", bk);
    if ((wn != 1 && wn != 2 && wn != 4) || sgs < 1 || sgs > 16 || (bk != 64 && bk != 128 && bk != 256) || bk % f[2] ||
        split < 0 || split > 4096)
        return vkb_error(c, "wn=%lld sgs=%lld bk=%lld split=%lld: expected wn 1, 2 or 4, sgs 1..16, bk 64, 128 or 256 (a multiple "
                         "of the fragment's K), split 0 (auto) .. 4096", (long long)wn, (long long)sgs, (long long)bk, (long long)split);
    uint64_t bn = (uint64_t)sgs * (uint64_t)wn * f[0], wg = sg * (uint64_t)sgs, str = (uint64_t)bk / 16 + 1;
    double shared = 16.0 * 2 * (double)((bn + (uint64_t)tn) * str) + 4.0 * (double)tn;
    if (wg > c->caps.max_wg_size || shared > c->caps.max_shared || (uint64_t)sgs * f[0] * f[1] / 4 > 2 * (bn + (uint64_t)tn) * str)
        return vkb_skip(c, "wn=%lld sgs=%lld bk=%lld on this device: %llu invocations (<= %u), %.0f B shared (<= %u)", (long long)wn,
                        (long long)sgs, (long long)bk, (unsigned long long)wg, c->caps.max_wg_size, shared, c->caps.max_shared);
    uint64_t gk = (uint64_t)bk / 64, steps = (nc + gk - 1) / gk, gx = ((uint64_t)n + bn - 1) / bn;
    uint64_t gz = ((uint64_t)m + (uint64_t)tn - 1) / (uint64_t)tn, s = (uint64_t)split;
    if (!s) s = auto_split(gx, gz, k, m, steps);
    if (s > steps) s = steps;
    uint64_t per = (steps + s - 1) / s * gk;  /* groups per slice: whole steps */
    s = (nc + per - 1) / per;                 /* no empty slice */
    if ((double)s * (double)m * (double)n >= 2147483648.0)
        return vkb_error(c, "split=%llu: the partial sums need < 2^31 elements", (unsigned long long)s);
    if (gx > c->caps.max_wg_count_x || s > 65535 || gz > 65535)
        return vkb_skip(c, "grid %llux%llux%llu exceeds this device's maxComputeWorkGroupCount", (unsigned long long)gx,
                        (unsigned long long)s, (unsigned long long)gz);
    uint32_t spec[9] = {(uint32_t)wg, f[0], f[1], f[2], (uint32_t)wn, (uint32_t)sgs, (uint32_t)mt, (uint32_t)bk, (uint32_t)rb};
    if (mma_dispatch(c, emu ? "bitnet_mma_emu" : "bitnet_mma", spec, 9, gx, gz, s, per, n, k, m, nc, -1)) return -1;
    snprintf(c->note, sizeof(c->note), "%s %ux%ux%u %llux%llu wn%lld sg%lld bk%lld split%llu rb%lld", emu ? "mma_emu" : "mma", f[0],
             f[1], f[2], (unsigned long long)bn, (unsigned long long)tn, (long long)wn, (long long)sgs, (long long)bk,
             (unsigned long long)s, (long long)rb);
    return 0;
}

/* algo=mma_sg (kernels/bitnet_mma_sg.glsl): one pipeline per subgroup, the workgroup's tokens staged once.
 * Tunables: frag= (K must be 32), wn= row fragments per subgroup (1, 2, 4; RS = 16 wn rows), sgs= subgroups per
 * workgroup (1..16), split= K slices (0 = auto), sb= slab buffers per subgroup (2: by step parity; 1: one subgroup
 * barrier more a step, half the slab bytes). Defaults wn=2 sgs=8 sb=1: on an H200 (session 9, m=8, rotate, us,
 * tests/gpu/sweep_mma9e.txt) 15.0 / 12.5 / 20.5 / 15.3 / 32.0 / 24.5 on 13824x2560 / 2560x6912 / 20480x3200 / 6144x4096
 * / 28672x4096 / 4096x14336, against 21.3 / 15.7 / 28.3 / 18.9 / 46.0 / 24.6 at wn=4 sgs=4 sb=2 (the first default);
 * at the same split sb=1 took 0.78-0.81x of sb=2's time on three shapes (wn=2 sgs=4).
 * The token stage holds TN tokens x XG groups (XG: as many as the shared memory leaves beside the slabs), so a
 * slice is at most XG groups. Auto split: enough slices for that, and otherwise the most that keep the grid within one
 * workgroup per SM (the token stage fills an SM's shared memory, so a second workgroup on an SM runs as a second wave),
 * at most one per group; on a device that does not say its SM count, >= 528 subgroups (4 per SM of a 132-SM GPU).
 * On an H200 (tests/gpu/sweep_split10.txt, m=8, panels, us) the fastest split of each shape was the largest within
 * 132 workgroups: 13824x2560 2 (13.8; 3: 16.5), 2560x6912 12 (11.0; 16: 11.8), 20480x3200 1 (19.1; 2: 24.3), 6144x4096
 * 4 of those tried (12.3; 6: 15.0), 4096x14336 8 (16.7; 12: 21.8), where the 528-subgroup rule took 2, 7, 1, 3, 5.
 * W's layout (lay=, reference/bitnet_linear.c): panel, the default, or rows (T2 row-major: a step's load instruction
 * reads 16 bytes of each of 32 rows). On an H200 (tests/gpu/sweep_bpanel10.txt, m=8, us) panels took 13.8 / 12.1 / 19.1
 * / 14.0 / 28.1 / 20.6 against rows' 15.0 / 12.5 / 20.6 / 15.4 / 31.9 / 24.4 (rotate), cold 0.89-1.0x; at m=32 0.97-1.0x.
 * fold=1 sums the slices in the kernel (exact int32 atomics, kernels/splitk_fold.glsl) instead of bitnet_mma_sum: within
 * -0.3 .. +1.4 us of the second dispatch on the six shapes at m=8 (tests/gpu/sweep_fold11.txt), so fold=0 stays. */
int bitnet_mma_sg_plan(vkb_case *c, long long n, long long k, int64_t m, size_t nc, int emu, int panel)
{
    uint32_t f[3], ss;
    int e = mma_begin(c, m, emu, "mma_sg", f, &ss);
    if (e) return e;
    if (f[2] != 32) return vkb_skip(c, "algo=mma_sg needs a K = 32 fragment (two per 64-weight group); this one is %ux%ux%u", f[0], f[1], f[2]);
    uint64_t mt = ((uint64_t)m + f[1] - 1) / f[1];
    if (mt > 2) mt = 2;
    int64_t wn = vkb_param_int(c, "wn", 2), sgs = vkb_param_int(c, "sgs", 8), split = vkb_param_int(c, "split", 0);
    int64_t sb = vkb_param_int(c, "sb", 1), fold = vkb_param_int(c, "fold", 0);
    if (fold != 0 && fold != 1) return vkb_error(c, "fold=%lld: expected 0 (split-K summed by a second dispatch) or 1 (in the kernel)", (long long)fold);
    if ((wn != 1 && wn != 2 && wn != 4) || sgs < 1 || sgs > 16 || split < 0 || split > 4096 || (sb != 1 && sb != 2))
        return vkb_error(c, "wn=%lld sgs=%lld split=%lld sb=%lld: expected wn 1, 2 or 4, sgs 1..16, split 0 (auto) .. 4096, sb 1 or 2",
                         (long long)wn, (long long)sgs, (long long)split, (long long)sb);
    uint64_t rs = (uint64_t)wn * f[0], tn = f[1] * mt, wg = (uint64_t)ss * (uint64_t)sgs;
    /* shared: the stage (tn rows of 4 xg + 1 uvec4), sgs slabs of 2 rs x 5 uvec4, sum_k x (4 tn) */
    double fixed = 16.0 * ((double)tn + (double)sgs * (double)sb * (double)rs * 5) + 4.0 * (double)tn;
    double xgf = ((double)c->caps.max_shared - fixed) / (64.0 * (double)tn);
    if (wg > c->caps.max_wg_size || xgf < 1)
        return vkb_skip(c, "wn=%lld sgs=%lld on this device: %llu invocations (<= %u), %.0f B of slabs (<= %u shared)", (long long)wn,
                        (long long)sgs, (unsigned long long)wg, c->caps.max_wg_size, fixed, c->caps.max_shared);
    uint64_t xg = xgf > (double)nc ? (uint64_t)nc : (uint64_t)xgf;
    uint64_t gx = ((uint64_t)n + rs * (uint64_t)sgs - 1) / (rs * (uint64_t)sgs), gz = ((uint64_t)m + tn - 1) / tn;
    uint64_t s = (uint64_t)split, need = (nc + xg - 1) / xg;
    if (!s) {
        uint64_t sms = c->caps.sm_count;
        if (sms) s = sms / (gx * gz);  /* one wave: as many slices as keep the grid within one workgroup per SM */
        else s = (528 + gx * gz * (uint64_t)sgs - 1) / (gx * gz * (uint64_t)sgs);
        if (s < need) s = need;
        if (s < 1) s = 1;
    }
    if (s > nc) s = nc;
    uint64_t per = (nc + s - 1) / s;
    if (per > xg) return vkb_error(c, "split=%lld: slices of %llu groups exceed the token stage's %llu (use split >= %llu)",
                                   (long long)split, (unsigned long long)per, (unsigned long long)xg, (unsigned long long)need);
    s = (nc + per - 1) / per;
    if ((double)s * (double)m * (double)n >= 2147483648.0)
        return vkb_error(c, "split=%llu: the partial sums need < 2^31 elements", (unsigned long long)s);
    if (gx > c->caps.max_wg_count_x || s > 65535 || gz > 65535)
        return vkb_skip(c, "grid %llux%llux%llu exceeds this device's maxComputeWorkGroupCount", (unsigned long long)gx,
                        (unsigned long long)s, (unsigned long long)gz);
    fold = fold && s > 1;
    uint32_t spec[12] = {(uint32_t)wg, f[0], f[1], f[2], (uint32_t)wn, (uint32_t)sgs, (uint32_t)mt, (uint32_t)per, ss, (uint32_t)sb,
                         (uint32_t)panel, (uint32_t)fold};
    if (mma_dispatch(c, emu ? "bitnet_mma_sg_emu" : "bitnet_mma_sg", spec, 12, gx, gz, s, per, n, k, m, nc, (int)fold)) return -1;
    snprintf(c->note, sizeof(c->note), "%s %ux%ux%u %llux%llu wn%lld sg%lld split%llu%s (%llu groups a slice) %s",
             emu ? "mma_sg_emu" : "mma_sg", f[0], f[1], f[2], (unsigned long long)(rs * (uint64_t)sgs), (unsigned long long)tn,
             (long long)wn, (long long)sgs, (unsigned long long)s, fold ? " folded" : "", (unsigned long long)per,
             panel ? "panel" : "rows");
    return 0;
}

/* uvec4 of one mma_kp subgroup's staged int32 accumulators (wn x TN / N of them, kernels/bitnet_mma_kp.glsl ACS) */
static uint64_t kp_acc(int64_t wn, uint64_t tn, const uint32_t f[3]) { return (uint64_t)wn * (tn / f[1]) * f[0] * f[1] / 4; }

/* uvec4 of one mma_kp subgroup's shared slot (SLOT): its slab (RS = 16 wn rows and, unless xs, TN tokens, 4 gs + 1
 * uvec4 each; with xs RS rows of one group, 5 uvec4, whatever gs) or, after the loop and unless xs (which stages them over
 * the whole array), its accumulators, whichever is larger. */
static uint64_t kp_slot(int64_t wn, uint64_t tn, const uint32_t f[3], int64_t gs, int xs)
{
    uint64_t slab = xs ? (uint64_t)wn * f[0] * 5 : ((uint64_t)wn * f[0] + tn) * (4 * (uint64_t)gs + 1), stage = kp_acc(wn, tn, f);
    return slab > stage || xs ? slab : stage;
}

/* uvec4 of an xs=1 K part's two x stages (kernels/bitnet_mma_kp.glsl): TN rows of gs groups, 4 gs + 1 uvec4 each. */
static uint64_t kp_xpart(uint64_t tn, int64_t gs) { return 2 * tn * (4 * (uint64_t)gs + 1); }

/* algo=mma_kp's automatic tiling (kernels/bitnet_mma_kp.glsl) for N rows, nc groups a row and gz token tiles of TN tokens:
 * the most subgroups S = gz x ceil(N / RS) x sk within 8 a SM (SMs: the device's, else 132), over wn 4 and 2 (2 above 16
 * tokens a tile: at m=32 wn=4 held 220-255 registers and lost on all six issue-15 shapes, by 2% to 5.6x, on an H200,
 * tests/gpu/sweep_s32c.txt; wn=1 only when given) and sk a power of two up to 16 whose parts keep >= 4 groups and whose sk slots fit
 * the shared memory (fit_words uvec4); ties: the larger wn; when even the fewest exceed the bound, the fewest. sgs = sk:
 * one row tile a workgroup. Measured on an H200 (tests/gpu/sweep_s16e.txt, rotate): the rule's tiling is the fastest of
 * the 9 tried at m = 32 on all six issue-15 shapes, and of the 12 tried at m = 8 on five, 11% behind the best on
 * 20480x3200 (15.19 us against 13.73 at wn=2 sk=2). Why: each SM ran a roughly fixed number of steps a microsecond whatever
 * its occupancy (sweep_s16b.txt), so more subgroups than ~8 a SM only add parts to sum, and fewer leave SMs waiting on
 * each subgroup's chain of steps. A given wn, sk or sgs restricts the search to it. 0, or 1 when no tiling fits. */
static int kp_auto(uint64_t n, size_t nc, uint64_t tn, uint64_t gz, uint64_t sms, uint64_t fit_words, const uint32_t f[3],
                   int64_t gs, int64_t *wn, int64_t *sk, int64_t *sgs)
{
    static const int64_t wns[] = {4, 2, 1};
    const int64_t wn0 = *wn, sk0 = *sk, sgs0 = *sgs;  /* given (0: any); *wn, *sk, *sgs hold the best so far */
    uint64_t cap = 8 * sms, best = 0;
    for (size_t i = 0; i < sizeof(wns) / sizeof(wns[0]); i++) {
        int64_t w = wns[i];
        if ((wn0 && w != wn0) || (!wn0 && (w == 1 || (w == 4 && tn > 16)))) continue;
        uint64_t rs = (uint64_t)w * f[0], tiles = (n + rs - 1) / rs, fit = fit_words / kp_slot(w, tn, f, gs, 0);
        for (int64_t k = sk0 ? sk0 : 1; k <= (sk0 ? sk0 : 16); k *= 2) {
            int64_t g = sgs0 ? sgs0 : k;
            if ((!sk0 && k > 1 && (nc + (uint64_t)k - 1) / (uint64_t)k < 4) || g % k || (uint64_t)g > fit) continue;
            uint64_t sub = gz * tiles * (uint64_t)k;  /* wns[] runs from the larger wn: a tie keeps it */
            if (!best || (sub <= cap ? best > cap || sub > best : best > cap && sub < best)) best = sub, *wn = w, *sk = k, *sgs = g;
        }
    }
    return !best;
}

/* algo=mma_kp (kernels/bitnet_mma_kp.glsl): K parts within the workgroup, no token stage, one dispatch.
 * Tunables: frag= (K must be 32), wn= row fragments per subgroup (1, 2, 4; RS = 16 wn rows), sk= K parts (1..16), sgs=
 * subgroups per workgroup (a multiple of sk, <= 16; SR = sgs / sk row tiles); those not given come from kp_auto. MT =
 * ceil(m / N) token fragments per subgroup, up to 32 tokens a tile (grid z holds the rest). gs= groups staged between
 * one pair of barriers (1, the default; 2: no consistent gain without xs, tests/gpu/sweep_s17c.txt; 2 by default with the
 * xs rule's tiling where it fits, below), ah= groups in flight (4 in four
 * register sets; 2 in two, fewer registers: the default where one 32-token tile holds every token, below). Shared
 * memory: sgs slots of max(RS + TN rows x (4 gs + 1) uvec4, the WN x MT staged accumulators) and the block of ones.
 * xs=1 (wn, sk and sgs given): a step's x staged once per K part and shared by its sgs / sk row tiles, in two stages
 * of TN rows x (4 gs + 1) uvec4 a part (the slots then hold RS rows of one group), one workgroup barrier a stage instead
 * of two subgroup ones; with gs=2 a stage holds two groups' x and each subgroup decodes their W one after the other
 * behind subgroup barriers (one workgroup barrier a pair of groups); the accumulators are staged over the whole array
 * at the end. */
int bitnet_mma_kp_plan(vkb_case *c, long long n, long long k, int64_t m, size_t nc, int emu, int panel)
{
    int64_t gs = vkb_param_int(c, "gs", 1);
    if (gs != 1 && gs != 2) return vkb_error(c, "gs=%lld: expected 1 or 2 groups a stage", (long long)gs);
    uint32_t f[3], ss;
    int e = mma_begin(c, m, emu, "mma_kp", f, &ss);
    if (e) return e;
    if (f[2] != 32) return vkb_skip(c, "algo=mma_kp needs a K = 32 fragment (two per 64-weight group); this one is %ux%ux%u", f[0], f[1], f[2]);
    uint64_t mt = ((uint64_t)m + f[1] - 1) / f[1], mtmax = 32 / f[1];
    if (mt > mtmax) mt = mtmax;
    uint64_t tn = f[1] * mt, gz = ((uint64_t)m + tn - 1) / tn;
    int64_t wn = vkb_param_int(c, "wn", 0), sk = vkb_param_int(c, "sk", 0), sgs = vkb_param_int(c, "sgs", 0);
    int64_t xs = vkb_param_int(c, "xs", 0);
    if ((xs != 0 && xs != 1) || (xs && (!wn || !sk || !sgs)))
        return vkb_error(c, "xs=%lld: expected 0, or 1 with wn, sk and sgs given (wn=%lld sk=%lld sgs=%lld)", (long long)xs,
                         (long long)wn, (long long)sk, (long long)sgs);
    /* xs=1 wn=2 with bitnet_kp_xs_rule's sk and sgs (reference/bitnet_linear.h) at 32-token tiles, one or two of them
     * (17 <= m <= 64), gs=1, where none of xs, wn, sk, sgs is given. On the H200 (rotate / cold, us; sweep_s33c.txt):
     *   13824x2560 (SR 4: sk=3 sgs=12) 15.63 / 17.70 against kp_auto's 17.30 / 20.03;
     *   20480x3200 (SR 5: sk=2 sgs=10) 22.25 / 24.16 against kp_auto's 30.44 / 33.34 and sk=1 sgs=4's 29.27 / 31.90;
     *   28672x4096 (SR 7: sk=1 sgs=4, 2 workgroups an SM) 35.87 against 39.94, where SR 7 sk=1 took 38.45;
     *   6144x4096 (SR 2, left to kp_auto) ties at best (sk=4 sgs=8 14.58 against 14.45); 2560x6912 and 4096x14336
     *   (SR 1) only lose with xs; 16896x1000 (16 groups a row) took 10.81 at m=17 with sk=1 sgs=4 where kp_auto took
     *   9.23 on 16864x1000.
     * One wave of workgroups sharing x over SR row tiles cuts x's L2 reads by SR; K parts fill the SMs' subgroups.
     * At m=64 (two token tiles: twice the tiles) it picks sk=1 sgs=4 on 13824x2560, 20480x3200 and 28672x4096: 24.92,
     * 35.24, 71.92 rotate against kp_auto's 27.12, 61.79, 81.26, each the fastest of the 5 xs tilings tried or within
     * 0.1%; on the other three kp_auto stays (6144x4096: 21.38, where SR 3 sk=3 sgs=12 took 20.21; 2560x6912 and
     * 4096x14336 lost with xs) (sweep_s33c.txt (m)). m=16 is left out (xs won 17% on 28672x4096 and lost 24% on
     * 20480x3200), and so is m > 64 (unmeasured). */
    uint64_t sms = vkb_sms(c), smw = (uint64_t)c->caps.max_shared / 16, tiles = ((uint64_t)n + 31) / 32;
    if (!vkb_param_str(c, "xs", NULL) && !wn && !sk && !sgs && gs == 1 && tn == 32 && gz <= 2 &&
        bitnet_kp_xs_rule(tiles * gz, nc, sms, smw, kp_slot(2, tn, f, gs, 1), kp_xpart(tn, gs), kp_acc(2, tn, f), 2 * f[0], &sk, &sgs)) {
        xs = 1, wn = 2;
        /* gs=2 on that tiling (bitnet_kp_xs_gs: one token tile, or two at sk=1, and it fits): x staged two groups a
         * workgroup barrier, W decoded a group at a time behind subgroup barriers. On the H200 (session 40, us, rotate /
         * cold, two runs; tests/gpu/sweep_s40c.txt):
         *   20480x3200 m=32 (sk=2 sgs=10) 20.43 / 21.22 both runs against gs=1's 21.41-21.42 / 22.14-22.21 (ah=2;
         *   21.53-21.55 / 22.37-22.43 at ah=4); 28672x4096 m=32 (sk=1 sgs=4, xsum) 30.07-30.08 / 30.98 against
         *   33.35-33.38 / 34.24-34.30; at m=24 (sweep_s40d.txt) 20.22 / 20.99 against 21.19 / 21.95 and 29.54 / 30.21
         *   against 32.94 / 33.92.
         * 13824x2560's sk=3 sgs=12 does not fit with gs=2, and none of the six tried that fit reached its gs=1 default
         * (best: sk=2 sgs=8, 15.42 against 14.84). At m=64 (two token tiles) gs=2 took 13824x2560 from 25.07 to 23.03
         * and 28672x4096 from 73.28 to 60.68, but 20480x3200 from 35.40 to 49.50 at the rule's sk=1 sgs=4 (sgs=5 won with
         * it: sweep_s40f.txt). Session 41 found why (sweep_s41c.txt, s41d.txt): an SM's resident workgroups share 48 KiB
         * of shared memory, so gs=2's 19968 B run two an SM where gs=1's 16384 ran three, and 20480x3200's 320 workgroups
         * take two waves. So at two token tiles too, with sgs 5 where that keeps one wave (bitnet_kp_xs_sgs2): m=64, rotate
         * / cold (sweep_s41b.txt) 13824x2560 sgs=4 22.85 / 23.71 against 24.82 / 25.76, 20480x3200 sgs=5 32.80 / 33.70
         * against 35.14 / 36.16, 28672x4096 sgs=4 (two waves either way) 60.48 / 61.22 against 71.54 / 71.81; m=48
         * 32.10 and 58.77 against 34.47 and 71.3 on the last two. */
        if (!vkb_param_str(c, "gs", NULL) && vkb_param_int(c, "ah", 4) != 2) {  /* gs=2 runs 4 groups in flight */
            uint64_t slab2 = kp_slot(2, tn, f, 2, 1), part2 = kp_xpart(tn, 2), acc = kp_acc(2, tn, f);
            gs = bitnet_kp_xs_gs(gz, (uint64_t)sgs, (uint64_t)sk, slab2, part2, acc, 2 * f[0], smw);
            if (gs == 2 && gz == 2) sgs = bitnet_kp_xs_sgs2(tiles, sms, slab2, part2, acc, 2 * f[0], smw);
        }
    }
    /* ah: 2 where a tile holds 32 tokens and m <= 64 (gs=1) without xs: on the H200 (tests/gpu/sweep_s26g.txt, m=32, the six
     * shapes) 164 registers against 206 took 3.5-11% less time cold and -1.5..+2.2% rotate; at m=8 (118 against 138) 3-13%
     * less cold but up to 8% more rotate, so 4 there. With xs (x's loads shared) ah=4 held 146 registers against 130 and
     * took 1.4-3.7% less on 28672x4096 and 20480x3200 at sk=1 sgs=4, both modes (sweep_s33c.txt (d)), but with K parts ah=2
     * (125 against 144) took 1.5-6% less: 13824x2560 sk=3 sgs=12 15.15 / 16.74 against 15.66 / 17.82, 20480x3200 sk=2 sgs=10
     * 21.80 / 23.17 against 22.13 / 23.97 (rotate / cold, sweep_s33c.txt (k); the rule's figures above are at ah=4). So 2
     * there, 4 at xs sk=1. Session 35 (sweep_s35a.txt (l)): at m=64 without xs (2560x6912, 6144x4096, 4096x14336) ah=2 took
     * 20.43 / 23.23, 21.50 / 24.45, 36.62 / 39.71 against 20.63 / 24.80, 21.49 / 26.21, 37.17 / 41.73 (rotate / cold; 11.5
     * KB of code against 18.9), so the rule runs to m=64; at m=12 and 16 (16-token tiles) ah=2 took 4-8% less cold but
     * 0.6-4.7% more rotate, and on 28672x4096 more in both, so 4 stays there. */
    int64_t ah = vkb_param_int(c, "ah", tn == 32 && m <= 64 && gs == 1 && (!xs || sk >= 2) ? 2 : 4);
    if ((ah != 2 && ah != 4) || (ah == 2 && gs == 2))
        return vkb_error(c, "ah=%lld gs=%lld: expected 4 or 2 groups in flight (2 with gs=1 only)", (long long)ah, (long long)gs);
    if ((wn != 0 && wn != 1 && wn != 2 && wn != 4) || sk < 0 || sk > 16 || sgs < 0 || sgs > 16 || (sk && sgs && sgs % sk))
        return vkb_error(c, "wn=%lld sk=%lld sgs=%lld: expected wn 1, 2 or 4, sk 1 .. 16, sgs 1 .. 16 and a multiple of sk",
                         (long long)wn, (long long)sk, (long long)sgs);
    uint64_t fit_words = smw - 2 * f[0];  /* uvec4 beside the ones */
    if ((!wn || !sk || !sgs) && kp_auto((uint64_t)n, nc, tn, gz, sms, fit_words, f, gs, &wn, &sk, &sgs))
        return vkb_skip(c, "algo=mma_kp: no tiling with wn=%lld sk=%lld sgs=%lld (0: any) fits this device's %u B of shared memory",
                        (long long)wn, (long long)sk, (long long)sgs, c->caps.max_shared);
    uint64_t rs = (uint64_t)wn * f[0], sr = (uint64_t)(sgs / sk), wg = (uint64_t)ss * (uint64_t)sgs;
    uint64_t words = xs ? bitnet_kp_xs_words((uint64_t)sgs, (uint64_t)sk, kp_slot(wn, tn, f, gs, 1), kp_xpart(tn, gs), kp_acc(wn, tn, f), 2 * f[0])
                        : (uint64_t)sgs * kp_slot(wn, tn, f, gs, 0) + 2 * f[0];
    /* xsum=1 (xs only): sum_k x by packed dot products over the staged x words instead of the ones MMA (kernels/
     * bitnet_mma_kp.glsl XSUM; TN ints more shared memory). On the H200 (session 34, us, tests/gpu/sweep_s34d.txt) with
     * one K part at one 32-token tile, 28672x4096 m=32 took 33.92 rotate and 37.12 cold against 35.77 and 37.98; with two
     * K parts 20480x3200 lost 1.3% and 3.8%, and at two token tiles (m=64) it went 24.15 / 49.63 / 62.07 against 24.68 /
     * 35.16 / 71.62 on 13824x2560 / 20480x3200 / 28672x4096 (the middle one a cliff not pinned down). So the default
     * where xs takes sk=1 at one token tile, and it fits. */
    int64_t xsum = vkb_param_int(c, "xsum", xs && sk == 1 && gz == 1 && 16 * (words + tn / 4) <= c->caps.max_shared ? 1 : 0);
    if (xsum < 0 || xsum > 1 || (xsum && !xs))
        return vkb_error(c, "xsum=%lld: expected 0, or 1 with xs=1 (xs=%lld)", (long long)xsum, (long long)xs);
    if (xsum) words += tn / 4;
    uint64_t shared = 16 * words;
    if (wg > c->caps.max_wg_size || shared > c->caps.max_shared)
        return vkb_skip(c, "wn=%lld sk=%lld sgs=%lld on this device: %llu invocations (<= %u), %llu B shared (<= %u)", (long long)wn,
                        (long long)sk, (long long)sgs, (unsigned long long)wg, c->caps.max_wg_size, (unsigned long long)shared,
                        c->caps.max_shared);
    uint64_t per = (nc + (uint64_t)sk - 1) / (uint64_t)sk, gx = ((uint64_t)n + rs * sr - 1) / (rs * sr);
    if (gx > c->caps.max_wg_count_x || gz > 65535)
        return vkb_skip(c, "grid %llux1x%llu exceeds this device's maxComputeWorkGroupCount", (unsigned long long)gx,
                        (unsigned long long)gz);
    uint32_t spec[14] = {(uint32_t)wg, f[0], f[1], f[2], (uint32_t)wn, (uint32_t)sgs, (uint32_t)mt, (uint32_t)sk, ss, (uint32_t)panel, (uint32_t)gs,
                         (uint32_t)ah, (uint32_t)xs, (uint32_t)xsum};
    vkb_dispatch *d = vkb_add_dispatch(c, vkb_add_pipe(c, emu ? "bitnet_mma_kp_emu" : "bitnet_mma_kp", 14, spec), (uint32_t)gx, 1,
                                       (uint32_t)gz);
    if (!d) return vkb_error(c, "out of memory");
    d->push.n = (uint32_t)n, d->push.m = (uint32_t)m, d->push.k = (uint32_t)k, d->push.p0 = (uint32_t)nc, d->push.p1 = (uint32_t)per;
    mma_cost(c, n, k, m);
    snprintf(c->note, sizeof(c->note), "%s %ux%ux%u %llux%llu wn%lld sk%lld sgs%lld gs%lld%s%s (%llu groups a part) %s",
             emu ? "mma_kp_emu" : "mma_kp", f[0], f[1], f[2], (unsigned long long)(rs * sr), (unsigned long long)tn, (long long)wn,
             (long long)sk, (long long)sgs, (long long)gs, ah == 2 ? " ah2" : "", xs ? (xsum ? " xs xsum" : " xs") : "", (unsigned long long)per,
             panel ? "panel" : "rows");
    return 0;
}
