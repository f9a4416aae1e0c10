/* bitnet_linear.c — BitLinear and, beside it, the dense fp16-weight baseline (dense_f16, at the end). BitLinear: y[m][n] = (W_t . x_q)[m][n] * gamma' / s[m] with packed ternary W (T2 layout,
 * kernels/bitnet_layout.glsl), int8 activations (row stride Kp) and int32 accumulation (kernels.md §1).
 * Defaults per batch at linear_default_algo (measured). algo=gemv: R rows x MT tokens per workgroup, masked-word dot
 * products (kernels/bitnet_gemv.glsl); algo=gemv_sg: row blocks owned by subgroups, each invocation
 * issuing several groups' weight loads at once (kernels/bitnet_gemv_sg.glsl, tunables at sg_plan); algo=gemv_ps:
 * the same blocks, several per persistent worker with the next block's loads in flight (kernels/bitnet_gemv_ps.glsl);
 * algo=gemm: 64-row x BM-token tiles through shared memory (kernels/bitnet_gemm.glsl); algo=mma: int8 matrix
 * units (kernels/bitnet_mma.glsl, planned in reference/bitnet_mma.c; mma_emu its emulated twin); algo=hmma: fp16
 * matrix units with W (lay=hfrag) and x decoded in registers (kernels/bitnet_hmma.glsl, hmma_plan). variant=dot uses
 * the device's packed 4x8 dot product, variant=int plain integer multiply-add (the mma kernels use neither).
 *
 * Check. acc is exact in int32 (|acc| <= 127 K < 2^24, so float(acc) is exact too). The shader computes
 * y = fl(fl(float(acc) * gamma') / s): the product rounds once (u), the quotient carries Vulkan's 2.5 ulp
 * (<= 5u relative), so |y - acc gamma'/s| <= (6u + 5u^2) |acc gamma'/s| <= 6.01u |.|: that is the bound.
 * Moving acc by one moves y by |gamma'/s| = |y|/|acc|, more than twice the bound while |acc| < 2^20, so
 * there the check also recovers acc = rint(y s / gamma') and demands it equal the reference exactly.
 * Every output is compared at every size. The scalar oracle computes all of them while M N K fits its
 * budget (run --oracle-budget; default 2^27 multiply-adds). Above it a fast full reference does
 * (cpu/fastref.h; ref_method exact-int+scalar-sample): exact integer accumulators on all cores for
 * BitLinear, OpenBLAS dgemm in double for dense_f16 (derivation at dense_ref). The oracle then recomputes
 * the first and last token in full plus random (m, n) outputs up to min(2^27, its budget) multiply-adds
 * (drawn from the case's generator), and the fast reference must agree with it (BitLinear: exactly), else the row is an
 * ERROR naming the reference; ref_fraction is the oracle's share of the work.
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <gsl/gsl_randist.h>

#include "bitnet_layout.glsl"
#include "bitnet_linear.h"
#include "check.h"
#include "fastref.h"
#include "vkb.h"

#define BUDGET (1u << 27)
#define U32 0x1p-24

typedef struct lin_priv {
    size_t n, k, m, kp;
    int fast;       /* M N K above the oracle's budget: a fast reference computes every output */
    double budget;  /* the oracle's budget (multiply-adds) */
    size_t *pick;   /* fast: the outputs the oracle recomputes, as m * N + n */
    size_t npick;
    vkb_refcmp cmp; /* fast: how the fast reference agreed with the oracle on them */
    int64_t *acc;   /* BitLinear: reference accumulators, every output */
    double *want, *bound;  /* dense: reference value and error bound, every output */
    void *wlog;     /* lay=panel: W in its logical row-major layout for the references (buffer w holds panels) */
    size_t wchunk;  /* lay=panel: bytes of a panel's chunk (panel_row), set by panel_plan for the plan's kernel */
    int wfrag;      /* dense_f16 coopmat_g: each 512-byte chunk in fragment order (frag_row), 1 lay=frag, 2 lay=fragx */
    int whf;        /* lay=hfrag (BitLinear algo=hmma): buffer w in hfrag_word's blocks, built from p->wlog */
} lin_priv;

/* algo=gemv_sg (kernels/bitnet_gemv_sg.glsl): rows= R rows per block, split= subgroups per block (they split
 * K; > 1 adds one shared-memory reduction and a barrier), lanes= invocations per block when a block is a
 * power-of-two part of a subgroup (split=1; reduced by shuffles; for rows of few groups), gpt= 64-weight groups
 * per invocation per step (its G x R 16-byte weight loads are issued together), wg= invocations per workgroup,
 * mt= tokens per workgroup.
 * Default rule, for a 132-SM GPU (H100/H200) at batch 1: R = 4 (x, read through L1, is reused by 4 rows);
 * split doubles while the grid has fewer than 8192 blocks (~62 subgroups per SM) and each invocation still
 * gets a group per row (2 split sg <= groups per row): short wide rows (4096x14336, 2560x6912) get 2-4x the
 * subgroups, tall ones keep split 1 and no barrier; gpt = 1 (one group a row a step: session 29, with the gate's knob
 * compiled out of timed pipelines, gpt=1's binary was 6.4-6.9 KB against 10.8-11.3 at 2 groups, and on an H200 it took
 * 10-21% less time cold on the six bitnet.suite shapes where the rule had said 2 (its whole slice in one step) and
 * -11% .. +2.4% rotate, tests/gpu/sweep_s29c.txt); lanes = the subgroup size; wg = the fewest whole blocks that make
 * >= min_sg subgroups (4 here; bitnet_layer fuse=1 asks 16, to spread its per-workgroup quantizer over fewer
 * workgroups). algo=gemv_ps (kernels/bitnet_gemv_ps.glsl) plans the same blocks with split = 1 and per= row
 * blocks per worker (default 4: the grid shrinks by that factor, each worker pipelines its blocks' loads).
 * On success fills spec[0..4] = wg, R, MT, G, T (= split sg, or lanes), spec[5] = per for gemv_ps (spec has room
 * for 6), and the grid; else returns vkb_error's -1 or vkb_skip's 1. */
int bitnet_sg_plan(vkb_case *c, long long n, int64_t m, size_t nc, uint32_t sg, uint32_t min_sg, uint32_t spec[],
                   uint32_t *gx, uint32_t *gy)
{
    int64_t rows = vkb_param_int(c, "rows", 4), mt = vkb_param_int(c, "mt", m < 8 ? m : 8);
    if (rows < 1 || rows > 16 || mt < 1 || mt > 16)
        return vkb_error(c, "rows=%lld mt=%lld: expected 1..16 each", (long long)rows, (long long)mt);
    int64_t blocks = (n + rows - 1) / rows, split = 1;
    int lanes_set = vkb_param_str(c, "lanes", NULL) != NULL, ps = !strcmp(vkb_param_str(c, "algo", ""), "gemv_ps");
    /* 8192, not 4096: on an H200 (rotate mode, tests/gpu/sweep_gemv.txt) split=2 beat split=1 on 13824x2560 (7.25
     * vs 7.48 us), 20480x3200 (9.82 vs 9.85) and 28672x4096 (12.06 vs 12.46 at gpt=2). */
    while (!lanes_set && !ps && split < 16 && blocks * split < 8192 && 2 * (size_t)split * sg <= nc) split *= 2;
    split = vkb_param_int(c, "split", split);
    if (split < 1 || split > 16)
        return vkb_error(c, "split=%lld: expected 1..16 subgroups per row block", (long long)split);
    if (ps && split != 1) return vkb_error(c, "split=%lld: algo=gemv_ps has none (its blocks are one subgroup or lanes= of one)", (long long)split);
    int64_t lanes = vkb_param_int(c, "lanes", split * sg), tb = lanes;  /* tb: invocations per block */
    if (lanes_set && (split > 1 || lanes < 2 || lanes & (lanes - 1)))
        return vkb_error(c, "lanes=%lld split=%lld: expected lanes a power of two >= 2, and split=1", (long long)lanes,
                         (long long)split);
    if (lanes_set && (lanes > sg || sg % lanes))
        return vkb_skip(c, "lanes=%lld on this device: needs a divisor of its subgroup size %u", (long long)lanes, sg);
    int64_t gpt = vkb_param_int(c, "gpt", 1);
    int64_t wg = vkb_param_int(c, "wg", (min_sg + split - 1) / split * split * sg);  /* >= min_sg subgroups, a multiple of split */
    if (gpt < 1 || gpt > 16 || rows * gpt > 32)
        return vkb_error(c, "gpt=%lld rows=%lld: expected gpt 1..16 and rows*gpt <= 32 (16-byte loads in flight per invocation)",
                         (long long)gpt, (long long)rows);
    if (wg < 1 || wg > 1024) return vkb_error(c, "wg=%lld: expected 1..1024", (long long)wg);
    if (wg % sg || wg / sg > 16 || wg > c->caps.max_wg_size || (wg / sg) % split) /* fine elsewhere: not bad input */
        return vkb_skip(c, "wg=%lld split=%lld on this device: wg needs a multiple of split x the subgroup size %u, <= 16 subgroups, <= %u",
                        (long long)wg, (long long)split, sg, c->caps.max_wg_size);
    int64_t nper = ps ? vkb_param_int(c, "per", 4) : 1, workers = (blocks + nper - 1) / nper, wpw = wg / tb;
    if (nper < 1 || nper > 1024) return vkb_error(c, "per=%lld: expected 1..1024 row blocks per worker", (long long)nper);
    spec[0] = (uint32_t)wg, spec[1] = (uint32_t)rows, spec[2] = (uint32_t)mt, spec[3] = (uint32_t)gpt, spec[4] = (uint32_t)tb;
    if (ps) spec[5] = (uint32_t)nper;
    *gx = (uint32_t)((workers + wpw - 1) / wpw), *gy = (uint32_t)((m + mt - 1) / mt);
    snprintf(c->note, sizeof(c->note), "%s rows=%lld split=%lld lanes=%lld gpt=%lld wg=%lld mt=%lld", ps ? "gemv_ps" : "gemv_sg",
             (long long)rows, (long long)split, (long long)tb, (long long)gpt, (long long)wg, (long long)mt);
    if (ps) snprintf(c->note + strlen(c->note), sizeof(c->note) - strlen(c->note), " per=%lld", (long long)nper);
    return 0;
}
static int dense_coop_wanted(const vkb_case *c, int64_t m);
static int dense_coop_plan(vkb_case *c, long long n, long long k, int64_t m);

/* Shape, batch, algorithm, tile and dispatch, common to BitLinear and the dense baseline. kp: row stride of
 * W and x in elements; nc: chunks per row as the shaders count them (64-weight groups, or 8 halves). */
/* A case's lin_priv (c->priv) with its sizes and the oracle's budget: the fast full reference runs above it. */
static lin_priv *lin_new(vkb_case *c, long long n, long long k, int64_t m)
{
    lin_priv *p = calloc(1, sizeof(*p));
    if (!p) return NULL;
    c->priv = p;
    p->n = (size_t)n, p->k = (size_t)k, p->m = (size_t)m;
    p->budget = c->oracle_budget > 0 ? c->oracle_budget : (double)BUDGET;
    p->fast = (double)m * (double)n * (double)k > p->budget;
    return p;
}

/* lay=panel (kernels/dense_stream.glsl, dense_coopmat_g.glsl, bitnet_mma_sg.glsl): buffer w = the logical W (p->wlog,
 * row-major, row_bytes a row, a multiple of chunk = p->wchunk) in 16-row panels, chunk major: chunk ch of row i at
 * chunk ((i / 16) nc + ch) 16 + i % 16, nc = row_bytes / chunk (16 bytes; 32 for coopmat_g, one fragment row). The
 * last panel's padding rows stay zero (calloc). panel_row places logical row i; dense_f16 calls it from its fill's
 * threads (f16_chunk) as each row is made, BitLinear through panel_permute after its fill. */
static void panel_row(void *dst, const void *row, size_t i, size_t row_bytes, size_t chunk)
{
    size_t nc = row_bytes / chunk;
    for (size_t ch = 0; ch < nc; ch++)
        memcpy((unsigned char *)dst + (((i / 16) * nc + ch) * 16 + i % 16) * chunk, (const unsigned char *)row + chunk * ch,
               chunk);
}

/* lay=frag (dense_f16's coopmat_g, kernels/dense_coopmat_g.glsl PANEL 2): lay=panel's 16-row panels of 32-byte
 * chunks, and within each chunk (one 16x16 fp16 fragment, 256 halves) element (r, col) at half frag_slot(r, col): the
 * order in which a subgroup of 32 holds a 16x16 fp16 A matrix, invocation l's 8 components at halves 8 l .. 8 l + 7,
 * so that one 16-byte load an invocation fills the fragment. Component i of invocation l = 4 g + t is row g + 8 (i / 4),
 * column 2 t + (i & 1) + 8 ((i >> 1) & 1): NVIDIA's 580 driver's order, which `coopmat_layout type=f16 use=a` checks
 * (reference/peak.c cl_want); the shader's emulation reads the same slots. */
static size_t frag_slot(size_t r, size_t col)
{
    return (4 * (r % 8) + (col % 8) / 2) * 8 + 4 * (r / 8) + 2 * (col / 8) + (col & 1);
}

/* lay=fragx: lay=frag with K permuted within each 64-column block, so that x's B fragments load as 16-byte runs.
 * NVIDIA's 580 driver holds a B matrix (16 K x 16 or 8 tokens) with invocation l = 4 q + t at K rows q and q + 8
 * (`coopmat_layout type=f16 use=b`, reference/peak.c cl_want): coopMatLoadNV from row-major x then reads 2-byte
 * elements, one token's K rows q and q + 8 16 bytes apart, 4 or 8 loads an invocation a fragment. Step u (0 .. 3) of a
 * 64-column block takes its logical column col from x's column 8 (col % 8) + 2 u + col / 8: invocation q's halves of
 * four steps, for one token, are then x's 8 consecutive halves at 8 q, one 16-byte load (kernels/dense_coopmat_g.glsl
 * LOAD_XS). The same products, summed in another order: dense_f16's bound holds in any order. W takes the same
 * permutation here, offline; x stays row-major. Chunk ch's logical column col: */
static size_t fragx_col(size_t ch, size_t col)
{
    return 64 * (ch / 4) + 8 * (col % 8) + 2 * (ch % 4) + col / 8;
}

/* Row i (kp halves, kp % 16 == 0; lay=fragx, perm: kp % 64 == 0) of W into lay=frag's buffer dst. */
static void frag_row(uint16_t *dst, const uint16_t *row, size_t i, size_t kp, int perm)
{
    size_t nc = kp / 16;
    for (size_t ch = 0; ch < nc; ch++) {
        uint16_t *blk = dst + ((i / 16) * nc + ch) * 256;
        for (size_t col = 0; col < 16; col++) blk[frag_slot(i % 16, col)] = row[perm ? fragx_col(ch, col) : 16 * ch + col];
    }
}

/* Plan side of lay=panel: p->wlog for the logical W (p->n rows of row_bytes), the chunk size, and, where the CPU
 * baselines read W with this row stride (baseline), c->in0_logical. Returns the rows buffer w needs (a multiple of
 * 16), or 0 when out of memory. */
static size_t panel_plan(vkb_case *c, lin_priv *p, size_t row_bytes, size_t esize, size_t chunk, int baseline)
{
    if (!(p->wlog = calloc(p->n, row_bytes))) return 0;  /* zeroed: the code fill ORs its 2-bit fields in */
    p->wchunk = chunk;
    if (baseline) c->in0_logical.host = p->wlog, c->in0_logical.count = p->n * row_bytes / esize;
    return (p->n + 15) / 16 * 16;
}

/* W as the references (and the fills) see it: row-major, p->kp elements a row. */
static void *lin_w(const vkb_case *c)
{
    const lin_priv *p = c->priv;
    return p->wlog ? p->wlog : c->buf[0].host;
}

static void panel_permute(vkb_case *c, size_t row_bytes)
{
    lin_priv *p = c->priv;
    if (!p->wlog || p->whf) return;
    for (size_t i = 0; i < p->n; i++)
        panel_row(c->buf[0].host, (const unsigned char *)p->wlog + i * row_bytes, i, row_bytes, p->wchunk);
}

/* lay=hfrag (BitLinear algo=hmma, kernels/bitnet_hmma.glsl says why): W in blocks of 16 rows x 128 columns, 512 bytes
 * each, block (panel P, K block b) at uvec4 (P nb + b) 32 (nb = ceil(kp / 128) blocks a row). uvec4 l = 4 g + t of a
 * block is what invocation l of a 32-wide subgroup needs for the block's eight 16-deep MMA steps: its word j holds
 * row g + 8 (j / 2) at columns 32 t + 16 h + 2 s + j % 2 in bits 2 s + 16 h (the code c = w + 1; s the step, h = 0, 1),
 * so that a shift and a mask give step s's pair of fp16 A components 2 j, 2 j + 1 in frag_slot's order. Weights past
 * the rows or the columns are 0 (code 1). */
static uint32_t hfrag_word(const uint32_t *w, size_t n, size_t kp, size_t panel, size_t blk, unsigned l, unsigned j)
{
    size_t row = 16 * panel + l / 4 + 8 * (j / 2);
    uint32_t word = 0;
    for (unsigned s = 0; s < 8; s++)
        for (unsigned h = 0; h < 2; h++) {
            size_t col = 128 * blk + 32 * (l % 4) + 16 * h + 2 * s + j % 2;
            uint32_t code = 1;
            if (row < n && col < kp) code = (w[(row * kp + col) / BITNET_WORD] >> BITNET_SHIFT(col)) & 3u;
            word |= code << (2 * s + 16 * h);
        }
    return word;
}

typedef struct hfrag_arg {
    const uint32_t *w;
    uint32_t *out;
    size_t n, kp, nb;
} hfrag_arg;

static void hfrag_panel(void *arg, size_t pn)
{
    const hfrag_arg *a = arg;
    vkb_cpu_shared_begin();  /* a panel at a time: a CPU baseline being timed waits for one panel, not the whole W */
    for (size_t b = 0; b < a->nb; b++)
        for (unsigned l = 0; l < 32; l++)
            for (unsigned j = 0; j < 4; j++) a->out[((pn * a->nb + b) * 32 + l) * 4 + j] = hfrag_word(a->w, a->n, a->kp, pn, b, l, j);
    vkb_cpu_shared_end();
}

/* Buffer w from the logical codes on all cores (no draw from the case's generator: the inputs are algo=mma_kp's). */
static void hfrag_permute(vkb_case *c)
{
    lin_priv *p = c->priv;
    if (!p->whf) return;
    hfrag_arg a = {p->wlog, c->buf[0].host, p->n, p->kp, (p->kp + 127) / 128};
    vkb_par_for((p->n + 15) / 16, vkb_par_threads(), hfrag_panel, &a);
}

/* algo=hmma (kernels/bitnet_hmma.glsl): fp16 matrix units, W (lay=hfrag) and x decoded in registers, no staging but the
 * output's. Tunables: wn= 16-row panels per subgroup (1, 2, 4), mt= 16-token fragments (1, 2; wn=4 with 1), sk= K parts
 * in the workgroup (1 .. 16), sgs= subgroups (a multiple of sk, <= 16), ln= tokens a fragment (8: 16x8x16 MMAs, the
 * default at m <= 8 where the device has them; 16), ah= W's register sets (2, 4: as many blocks in flight; 1: 2 in flight, one copy of the loop's code), dec= W's decode (0: codes under a 1024 offset, three
 * instructions a pair of weights; 1: subnormal codes, one, and an MMA of the offset a step). Defaults: mt=1 to 16 tokens and 2 above
 * (grid y holds 32 a tile), sk doubling while the grid holds fewer than 8 subgroups an SM (10 at ln=8) and every part keeps 2 of
 * the 128-column blocks, sgs = sk and at least 4, ah=1; dec=1, and at ln=8 wn=4 where its 64-row tiles are at least 3 an SM
 * (bitnet_hmma_n8_wn), else 2 (emulated: 2, or 1 at mt=2, the stubs lavapipe runs). Session 35 (H200, m=8, us rotate / cold,
 * tests/gpu/sweep_s35a.txt (e)): wn=4 holds 11.6 KB of code and wn=2 8.4, and cold minus rotate went from 2.7-2.8 us to 1.6-1.8
 * (a cold dispatch fetches its code from DRAM); on 13824x2560, 20480x3200 and 6144x4096 wn=2 at sk 4, 4, 8 took 9.84 / 11.52,
 * 13.42 / 14.98, 8.35 / 10.18 against wn=4 at session 28's rule (sk 8, 4, 16) 9.62 / 12.45, 13.79 / 16.48, 8.36 / 11.07; on
 * 28672x4096 (448 64-row tiles) wn=4 sk=4 stays, 18.62 / 21.06 against wn=2's best 19.79 / 21.15. wn=2 at sk 2 took 12.84,
 * 17.03, 17.25 rotate (the 8-an-SM rule's pick on 20480x3200). Before that, at m=8 on an H200
 * (tests/gpu/sweep_s28c.txt, rotate, us, the six issue-15 shapes) ln=8 dec=1 wn=4 at the rule's sk took 9.75-9.80 15.97
 * 14.00 8.09-11.14 18.85 16.81-28.28, wn=2 9.99-11.36 9.10-13.87 13.86-15.82 8.37-10.20 21.63-22.34 14.90-24.25, dec=0 at its best
 * 12.09 11.35 17.38 10.41 25.37 19.42. ah=4 won only where sk=8 (sweep_s28d.txt); ah=1 (one copy of the block code, 11.6 KB
 * against ah=2's 17.8) took 1-6% less rotate and 7-15% less cold on all six (sweep_s28e.txt). */
static int has_f16_16x8(const vkb_case *c);

static int hmma_plan(vkb_case *c, long long n, long long k, int64_t m, int emu)
{
    if (!emu && !c->caps.coopmat_nv)
        return vkb_skip(c, "device lacks VK_NV_cooperative_matrix (fp16 matrix units); algo=hmma_emu validates the layout and tiling");
    if (!emu && !c->caps.f16) return vkb_skip(c, "device lacks shaderFloat16 (fp16 cooperative matrices)");
    uint32_t sg = c->caps.subgroup ? c->caps.subgroup : 32;
    if (!emu && (sg != 32 || c->caps.vendor != 0x10DE))  /* frag_slot's order, measured on NVIDIA's driver */
        return vkb_skip(c, "algo=hmma builds fragments in NVIDIA's 16x16 fp16 order for 32 invocations (this device: vendor 0x%04X, "
                        "subgroup %u); algo=hmma_emu validates the layout", c->caps.vendor, sg);
    if (emu && (sg < 8 || sg > 256)) return vkb_skip(c, "algo=hmma_emu needs a subgroup size of 8 .. 256 (this device: %u)", sg);
    lin_priv *p = c->priv;
    int64_t mt = vkb_param_int(c, "mt", m <= 16 ? 1 : 2), sk = vkb_param_int(c, "sk", 0), sgs = vkb_param_int(c, "sgs", 0);
    int64_t dec = vkb_param_int(c, "dec", 1), ah = vkb_param_int(c, "ah", 1);
    if (ah != 1 && ah != 2 && ah != 4)
        return vkb_error(c, "ah=%lld: expected 2 or 4 blocks of W in flight in as many register sets, or 1 (2 ahead, one copy of the code)",
                         (long long)ah);
    if (dec != 0 && dec != 1) return vkb_error(c, "dec=%lld: expected 0 (W's codes under a 1024 offset) or 1 (subnormal codes)", (long long)dec);
    int n8 = emu || has_f16_16x8(c);
    int64_t ln = vkb_param_int(c, "ln", n8 && m <= 8 && !vkb_param_str(c, "mt", NULL) ? 8 : 16);
    if ((ln != 8 && ln != 16) || (ln == 8 && mt != 1))
        return vkb_error(c, "ln=%lld mt=%lld: expected 16 tokens a fragment, or 8 with mt=1", (long long)ln, (long long)mt);
    if (ln == 8 && !n8) return vkb_skip(c, "ln=8: the device offers no 16x8x16 fp16 x fp16 -> fp32 NV cooperative matrix");
    uint64_t nb = (p->kp + 127) / 128, npan = ((uint64_t)n + 15) / 16, gy = ((uint64_t)m + (uint64_t)(ln * mt) - 1) / (uint64_t)(ln * mt);
    uint64_t sms = vkb_sms(c);
    int64_t wn = vkb_param_int(c, "wn", emu ? (mt == 2 ? 1 : 2) : ln == 8 ? bitnet_hmma_n8_wn(npan, gy, sms) : 2);
    if ((mt != 1 && mt != 2) || (wn != 1 && wn != 2 && wn != 4) || (wn == 4 && mt == 2) || sk < 0 || sk > 16 || sgs < 0 ||
        sgs > 16 || (sk && sgs && sgs % sk))
        return vkb_error(c, "wn=%lld mt=%lld sk=%lld sgs=%lld: expected wn 1, 2 or 4, mt 1 or 2 (wn 4 with mt 1), sk 1 .. 16, sgs "
                         "1 .. 16 and a multiple of sk", (long long)wn, (long long)mt, (long long)sk, (long long)sgs);
    if (emu && !((wn == 2 && mt == 1) || (wn == 1 && mt == 2 && ln == 16)))  /* three stubs cover the code paths on lavapipe */
        return vkb_skip(c, "algo=hmma_emu is compiled for wn=2 mt=1 and wn=1 mt=2 ln=16 (this case: wn=%lld mt=%lld ln=%lld)", (long long)wn,
                        (long long)mt, (long long)ln);
    if (ln == 8 && wn == 1) return vkb_skip(c, "ln=8 is compiled for wn 2 and 4");
    uint64_t tiles = (npan + (uint64_t)wn - 1) / (uint64_t)wn * gy, want = (ln == 8 ? 10 : 8) * sms;
    if (!sk)
        for (sk = 1; sk < 16 && tiles * (uint64_t)sk < want && 4 * (uint64_t)sk <= nb;) sk *= 2;
    if (!sgs) sgs = sk < 4 ? 4 / sk * sk : sk;
    while (!vkb_param_str(c, "sk", NULL) && !vkb_param_str(c, "sgs", NULL) && sk > 1 && 64.0 * (double)(sgs * wn * mt * ln) > c->caps.max_shared)
        sk /= 2, sgs = sk < 4 ? 4 / sk * sk : sk;  /* the output's staging within shared memory */
    if (sgs % sk) return vkb_error(c, "sgs=%lld: expected a multiple of sk=%lld", (long long)sgs, (long long)sk);
    uint64_t sr = (uint64_t)(sgs / sk), wg = (uint64_t)sg * (uint64_t)sgs, shared = 64 * (uint64_t)(sgs * wn * mt * ln);
    if (wg > c->caps.max_wg_size || shared > c->caps.max_shared)
        return vkb_skip(c, "wn=%lld mt=%lld sgs=%lld on this device: %llu invocations (<= %u), %llu B shared (<= %u)", (long long)wn,
                        (long long)mt, (long long)sgs, (unsigned long long)wg, c->caps.max_wg_size, (unsigned long long)shared,
                        c->caps.max_shared);
    uint64_t per = (nb + (uint64_t)sk - 1) / (uint64_t)sk, gx = (npan + (uint64_t)wn * sr - 1) / ((uint64_t)wn * sr);
    if (gx > c->caps.max_wg_count_x || gy > 65535)
        return vkb_skip(c, "grid %llux%llu exceeds this device's maxComputeWorkGroupCount", (unsigned long long)gx, (unsigned long long)gy);
    char shader[40];
    snprintf(shader, sizeof(shader), "bitnet_hmma%s_w%lldx%lld%s", emu ? "_emu" : "", (long long)wn, (long long)mt, ln == 8 ? "n8" : "");
    uint32_t spec[6] = {(uint32_t)wg, (uint32_t)sgs, (uint32_t)sk, m <= 8 && mt == 1 ? 8u : 16u, (uint32_t)dec, (uint32_t)ah};  /* TK: ln=16 */
    vkb_dispatch *d = vkb_add_dispatch(c, vkb_add_pipe(c, shader, 6, spec), (uint32_t)gx, (uint32_t)gy, 1);
    if (!d) return vkb_error(c, "out of memory");
    d->push.n = (uint32_t)n, d->push.m = (uint32_t)m, d->push.k = (uint32_t)k;
    d->push.p0 = (uint32_t)(p->kp / 16), d->push.p1 = (uint32_t)nb, d->push.p2 = (uint32_t)per;
    double nk = (double)n * (double)k, mk = (double)m * (double)k, mn = (double)m * (double)n;
    c->bytes = nk / 4 + mk + 4.0 * (double)m + 4 + 4 * mn;
    c->flops = 2.0 * (double)m * nk;
    snprintf(c->note, sizeof(c->note), "%s %llux%lld wn%lld mt%lld ln%lld sk%lld sgs%lld dec%lld ah%lld (%llu of %llu blocks a part) hfrag",
             emu ? "hmma_emu" : "hmma", (unsigned long long)(16 * (uint64_t)wn * sr), (long long)(ln * mt), (long long)wn, (long long)mt,
             (long long)ln, (long long)sk, (long long)sgs, (long long)dec, (long long)ah, (unsigned long long)per, (unsigned long long)nb);
    return 0;
}

/* BitLinear's default algo. Measured on an H200 (tests/gpu/sweep_bgemm.txt, 2026-11-23, rotate, us, on the six issue-15
 * shapes 13824x2560 2560x6912 20480x3200 6144x4096 28672x4096 4096x14336):
 *   m=8:  gemv 29.7 19.4 45.4 18.9 74.7 37.6; gemv_sg mt=8 37.0 16.5 47.0 14.9 51.4 27.6 (ahead from K >= 4096 on,
 *         and 6912); mma at its best per shape 18.9-53 but no one setting wins across shapes;
 *   m=32: gemv 97.6 50.0 166.2 65.5 283.4 137.1; mma wn=1 sgs=8 30.2 17.4 50.7 25.8 81.8 47.0 (its default since;
 *         sgs=16 where default_sgs says, session 8: 28.5 - 44.3 - 24.2 76.1 44.5).
 * And where K < 4096 (13824x2560, 20480x3200; tests/gpu/sweep_mma16.txt, session 8): gemv 29.7 45.4 at m=8 and
 * 52.5 85.7 at m=16, mma's defaults (wn=2 sgs=4) 25.6 38.3 and 30.1 44.0.
 * Session 9 (tests/gpu/sweep_mma9e.txt, m=8, us, rotate): algo=mma_sg at its defaults (wn=2 sgs=8 sb=1) took 15.0 /
 * 12.5 / 20.5 / 15.3 / 32.0 / 24.5 on the six shapes above, against the previous defaults' 17.4 (mma) / 16.5 (gemv_sg)
 * / 37.4 (mma) / 15.0 / 51.5 / 27.8 (gemv_sg), same session; in cold mode 17.8 / 15.2 / 23.5 / 17.9 / 36.0 / 27.1.
 * Session 12 (tests/gpu/sweep_gs12.txt): gemv_sg with one accumulator per output at MT > 1 took 17.7 / 24.6 / 78.9 /
 * 39.1 at m=16 on 2560x6912 / 6144x4096 / 28672x4096 / 4096x14336 (24.7 / 25.6 / 96.9 / 49.7 before it), and at m=8
 * 25.5 / 11.3 / 35.1 / 11.4 / 38.7 / 22.1 at its best rows, still behind mma_sg there.
 * Session 16 (H200, rotate, us, the six shapes): algo=mma_kp (K parts in the workgroup, no token stage, one dispatch) at
 * its automatic tiling took, at m=8, 9.34 8.14 15.21 8.25 20.12 13.08 against mma_sg's 13.86 10.93 19.22 11.45 28.17
 * 16.72; at m=32 17.46 13.30 30.01 14.63 40.02 21.58 against mma's 25.25 14.54 40.48 21.73 67.26 38.18 (accept15 and
 * tests/gpu/sweep_s16d.txt); at m=16 15.18 9.73 18.43 10.80 34.09 15.79 against the old defaults' (mma where K < 4096,
 * gemv_sg from 4096) 18.89 17.71 44.75 24.64 78.89 39.10; at m=4 9.09 7.95 14.81 8.09 19.62 12.75 against gemv's /
 * gemv_sg's 16.78 8.04 25.65 7.66 21.67 15.93 (sweep_s16f.txt: 6% slower on 6144x4096 only); at m=64 27.04 20.59 61.94
 * 21.28 81.13 36.92 against the SIMT gemm's 88.56 102.42 143.44 76.83 225.78 208.69, at m=128 2.2-3.8x under it
 * (sweep_s16g.txt). So: mma_kp at 4 <= m <= 128 where the device has int8 matrix units; else gemv_sg at m = 1 and at
 * 2 <= m <= 16 where K >= 4096, gemv up to m = 32 (m = 2, 3 unmeasured with mma_kp: its time hardly moves below 8
 * tokens); gemm above (mma_kp unmeasured past 128).
 * Session 28 (m=8, us, rotate / cold, the six shapes): algo=hmma (fp16 units, W decoded in registers) at its defaults
 * (ah=1, tests/gpu/sweep_s28e.txt) took 9.55 / 12.35, 10.02 / 12.61, 13.65 / 16.38, 8.20 / 10.88, 18.53 / 20.83, 15.06 /
 * 17.57 against mma_kp's 9.35 / 12.90, 8.01 / 10.43, 15.23 / 19.20, 8.34 / 12.13, 20.14 / 23.90, 13.06 / 15.36 (accept15,
 * 3879edc, and sweep_s28c.txt): it wins where K <= 4096 (13824x2560: +2% rotate, -4% cold) and loses on the two of K >=
 * 6912. So hmma at 4 <= m <= 8 where K <= 4096, on NVIDIA's driver with 32-wide subgroups and 16x8x16 fp16 matrices
 * (m = 4 .. 7 unmeasured: both kernels' fragments hold 8 tokens). */
static const char *linear_default_algo(const vkb_case *c, long long k, int64_t m)
{
    int units = c->caps.coopmat_nv && c->caps.int8;
    if (units && m >= 4 && m <= 8 && k <= 4096 && c->caps.f16 && c->caps.vendor == 0x10DE && c->caps.subgroup == 32 && has_f16_16x8(c))
        return "hmma";
    if (units && m >= 4 && m <= 128) return "mma_kp";  /* session 16: measured at m = 4, 8, 16, 32, 64 and 128 */
    if (m == 1 || (m <= 16 && k >= 4096)) return "gemv_sg";
    if (m <= 32) return "gemv";
    return "gemm";
}

static int linear_plan(vkb_case *c, int dense)
{
    const char *sh = vkb_param_str(c, "shape", NULL);
    long long n = -1, k = -1;
    if (sh && sscanf(sh, "%lldx%lld", &n, &k) != 2) n = -1;
    if (!sh) n = vkb_param_int(c, "n", -1), k = vkb_param_int(c, "k", -1);
    int64_t m = vkb_param_int(c, "m", 1);
    if (n <= 0 || k <= 0 || m <= 0 || k > 100000 || (double)(m > n ? m : n) * (double)BITNET_PAD((uint64_t)k) >= 2147483648.0 ||
        (double)n * (double)m >= 4294967296.0)
        return vkb_error(c, "n=%lld k=%lld m=%lld: expected positive sizes, k <= 1e5, products < 2^31", n, k, (long long)m);
    const char *var = vkb_param_str(c, "variant", dense ? "default" : "dot");
    int dot = !strcmp(var, "dot");
    if (dense ? strcmp(var, "default") != 0 : !dot && strcmp(var, "int"))
        return vkb_error(c, "variant=%s: expected %s", var, dense ? "default" : "dot or int");
    snprintf(c->variant, sizeof(c->variant), "%s", var);
    snprintf(c->dtype, sizeof(c->dtype), dense ? "f16" : "i2i8");
    if (!dense && dot && !c->caps.int_dot) return vkb_skip(c, "device lacks shaderIntegerDotProduct (variant=int is the plain path)");
    if (dense && !c->caps.storage16) return vkb_skip(c, "device lacks storageBuffer16BitAccess");
    if (dense && dense_coop_wanted(c, m)) return dense_coop_plan(c, n, k, m);
    const char *algo = vkb_param_str(c, "algo", dense ? (m <= 32 ? "gemv" : "gemm") : linear_default_algo(c, k, m));
    int gemm = !strcmp(algo, "gemm"), ps = !strcmp(algo, "gemv_ps"), sgv = ps || !strcmp(algo, "gemv_sg"), g8 = !strcmp(algo, "gemv8");
    int msg = !strcmp(algo, "mma_sg") || !strcmp(algo, "mma_sg_emu");  /* reference/bitnet_mma.c */
    int mkp = !strcmp(algo, "mma_kp") || !strcmp(algo, "mma_kp_emu");
    int mma = msg || mkp || !strcmp(algo, "mma") || !strcmp(algo, "mma_emu");
    int hm = !strcmp(algo, "hmma") || !strcmp(algo, "hmma_emu");  /* fp16 matrix units, W decoded in registers */
    if (!gemm && !sgv && !g8 && !mma && !hm && strcmp(algo, "gemv"))
        return vkb_error(c, "algo=%s: expected gemv, gemv_sg, gemv_ps, gemv8, gemm, mma, mma_emu, mma_sg, mma_sg_emu, mma_kp, mma_kp_emu, "
                         "hmma or hmma_emu", algo);
    if (!msg && vkb_param_str(c, "sb", NULL)) return vkb_error(c, "sb= applies to algo=mma_sg only (algo=%s)", algo);
    if (vkb_param_str(c, "bufs", NULL)) return vkb_error(c, "bufs= applies to dense_f16's algo=wgs only (algo=%s)", algo);
    if (!msg && vkb_param_str(c, "fold", NULL))
        return vkb_error(c, "fold= applies to bitnet_linear's algo=mma_sg and dense_f16's coopmat_g only (algo=%s)", algo);
    if ((msg || mkp) && (vkb_param_str(c, "bk", NULL) || vkb_param_str(c, "rb", NULL)))
        return vkb_error(c, "bk= and rb= apply to algo=mma only (algo=%s: one 64-weight group a step, loads 4 steps ahead)", algo);
    if ((!mkp && (vkb_param_str(c, "gs", NULL) || vkb_param_str(c, "xs", NULL) || vkb_param_str(c, "xsum", NULL))) ||
        (!mkp && !hm && vkb_param_str(c, "ah", NULL)))
        return vkb_error(c, "gs=, xs= and xsum= apply to algo=mma_kp only, ah= to mma_kp and hmma (algo=%s)", algo);
    if (mkp && vkb_param_str(c, "split", NULL))
        return vkb_error(c, "split= does not apply to algo=%s (its K parts, sk=, stay in the workgroup)", algo);
    if (!hm && vkb_param_str(c, "dec", NULL)) return vkb_error(c, "dec= applies to algo=hmma only (algo=%s)", algo);
    if ((mma || hm) && dense) return vkb_error(c, "algo=%s: BitLinear only (dense_f16: coopmat*, stream*)", algo);
    if (sgv && dense) return vkb_error(c, "algo=%s: BitLinear only (dense_f16: gemv, gemv8, gemm, coopmat*, stream*)", algo);
    if (!ps && vkb_param_str(c, "per", NULL)) return vkb_error(c, "per= applies to algo=gemv_ps only (algo=%s)", algo);
    if (g8 && !dense) return vkb_error(c, "algo=gemv8: dense_f16 only");
    if (!mma && !hm && vkb_param_str(c, "wn", NULL)) return vkb_error(c, "wn= applies to algo=coopmat_g, stream, mma and hmma only (algo=%s)", algo);
    if (vkb_param_str(c, "sr", NULL) || (!mkp && !hm && vkb_param_str(c, "sk", NULL)) || vkb_param_str(c, "xpre", NULL) || (!hm && vkb_param_str(c, "ln", NULL)) ||
        (dense && (vkb_param_str(c, "rb", NULL) || vkb_param_str(c, "lay", NULL))))
        return vkb_error(c, "sr=, xpre= and rb= apply to dense_f16's algo=stream only, sk= to stream, coopmat_g and BitLinear's mma_kp and hmma, ln= to "
                         "coopmat_g and hmma, lay= also to mma_sg and mma_kp (algo=%s)", algo);
    const char *lay = vkb_param_str(c, "lay", msg || mkp ? "panel" : "rows");  /* panels: bitnet_mma_sg_plan says why */
    int panel = !strcmp(lay, "panel");
    if ((!msg && !mkp && vkb_param_str(c, "lay", NULL)) || (!panel && strcmp(lay, "rows")))
        return vkb_error(c, "lay=%s: expected rows or panel, and only with algo=mma_sg or mma_kp (algo=%s)", lay, algo);
    int emu = strstr(algo, "_emu") != NULL;
    if (!sgv && (vkb_param_str(c, "gpt", NULL) || (!mma && vkb_param_str(c, "split", NULL)) || vkb_param_str(c, "lanes", NULL)))
        return vkb_error(c, "gpt=, split= and lanes= apply to algo=gemv_sg and gemv_ps only, split= also to mma (algo=%s)", algo);
    if ((!mma && (vkb_param_str(c, "frag", NULL) || vkb_param_str(c, "bk", NULL))) || (!mma && !hm && vkb_param_str(c, "sgs", NULL)))
        return vkb_error(c, "frag=, bk= and sgs= apply to the matrix-unit algos only (algo=%s)", algo);
    lin_priv *p = lin_new(c, n, k, m);
    if (!p) return vkb_error(c, "out of memory");
    p->kp = dense ? ((size_t)k + 7) / 8 * 8 : BITNET_PAD((size_t)k);
    size_t nc = p->kp / (dense ? 8 : BITNET_GROUP);
    if (dense) {
        vkb_add_buf(c, "w", VKB_F16, p->n * p->kp, VKB_IN);
        vkb_add_buf(c, "x", VKB_F16, p->m * p->kp, VKB_IN);
    } else {
        size_t rows = panel || hm ? panel_plan(c, p, p->kp / 4, sizeof(uint32_t), 16, 1) : p->n;
        if (!rows) return vkb_error(c, "out of memory");
        p->whf = hm;  /* lay=hfrag: 16-row panels of 128-column blocks of 512 bytes (hfrag_word) */
        vkb_add_buf(c, "w", VKB_U32, hm ? rows / 16 * ((p->kp + 127) / 128) * 128 : rows * p->kp / BITNET_WORD, VKB_IN);
        vkb_add_buf(c, "gamma", VKB_F32, 1, VKB_IN);
        vkb_add_buf(c, "x", VKB_I8, p->m * p->kp, VKB_IN);
        vkb_add_buf(c, "s", VKB_F32, p->m, VKB_IN);
    }
    vkb_add_buf(c, "y", VKB_F32, p->m * p->n, VKB_OUT);
    if (msg) return bitnet_mma_sg_plan(c, n, k, m, nc, emu, panel);
    if (mkp) return bitnet_mma_kp_plan(c, n, k, m, nc, emu, panel);
    if (hm) return hmma_plan(c, n, k, m, emu);
    if (mma) return bitnet_mma_plan(c, n, k, m, nc, algo[3] != 0);
    uint32_t sg = c->caps.subgroup ? c->caps.subgroup : 32, gx = 0, gy = 0, spec[6];
    int nspec = 3;
    char shader[48];
    if (dense) snprintf(shader, sizeof(shader), "dense_%s", gemm ? "gemm" : g8 ? "gemv8" : "gemv");
    else snprintf(shader, sizeof(shader), "bitnet_%s_%s", algo, var);
    if (sgv) {
        int e = bitnet_sg_plan(c, n, m, nc, sg, 4, spec, &gx, &gy);
        if (e) return e;
        nspec = ps ? 6 : 5;
    } else if (gemm) {
        /* BM = 64 unless that leaves fewer than ~2 tiles per SM of a 132-SM GPU; bm= overrides. */
        uint32_t bm = (uint32_t)vkb_param_int(c, "bm", m >= 64 && ((n + 63) / 64) * ((m + 63) / 64) >= 264 ? 64 : 32);
        if (bm != 16 && bm != 32 && bm != 64) return vkb_error(c, "bm=%u: expected 16, 32 or 64", bm);
        spec[0] = 256, spec[1] = bm;
        gx = (uint32_t)((n + 63) / 64), gy = (uint32_t)((m + bm - 1) / bm);
        snprintf(c->note, sizeof(c->note), "gemm tile 64x%u%s", bm, dense ? " (SIMT fp32, no tensor cores)" : "");
    } else {
        /* wg/rows/mt override the defaults; BitLinear: 32 invocations for rows of <= 48 groups, else 64;
         * dense: 64 for rows of <= 512 chunks (4096 halves), else 128. gemv8 (dense_gemv8.comp, same spec
         * constants): 4 rows x up to 8 tokens, 64 invocations (~100 registers: 32 accumulators, 32 converted W,
         * 16 prefetched W words; ~20 subgroups per SM), a guess until measured. */
        uint32_t mt = (uint32_t)vkb_param_int(c, "mt", m < 8 ? m : 8);
        uint32_t rows = (uint32_t)vkb_param_int(c, "rows", g8 ? 4 : m == 1 ? 4 : 2);
        uint32_t wg = (uint32_t)vkb_param_int(c, "wg", g8 ? 64 : dense ? (nc <= 512 ? 64 : 128) : nc <= 48 ? 32 : 64);
        if (mt < 1 || mt > 16 || rows < 1 || rows > 16 || wg < 1 || wg > 1024)
            return vkb_error(c, "mt=%u rows=%u wg=%u: expected 1..16, 1..16 and 1..1024", mt, rows, wg);
        if (wg < sg || wg % sg || wg / sg > 16 || wg > c->caps.max_wg_size)   /* fine elsewhere: not bad input */
            return vkb_skip(c, "wg=%u on this device: needs a multiple of its subgroup size %u, <= 16 subgroups, <= %u",
                            wg, sg, c->caps.max_wg_size);
        spec[0] = wg, spec[1] = rows, spec[2] = mt;
        gx = (uint32_t)((n + rows - 1) / rows), gy = (uint32_t)((m + mt - 1) / mt);
        snprintf(c->note, sizeof(c->note), "%s rows=%u mt=%u wg=%u", g8 ? "gemv8" : "gemv", rows, mt, wg);
    }
    if (gx > c->caps.max_wg_count_x || gy > 65535)
        return vkb_skip(c, "grid %ux%u exceeds this device's maxComputeWorkGroupCount (%u x 65535)", gx, gy, c->caps.max_wg_count_x);
    vkb_dispatch *d = vkb_add_dispatch(c, vkb_add_pipe(c, shader, gemm ? 2 : nspec, spec), gx, gy, 1);
    if (!d) return vkb_error(c, "out of memory");
    d->push.n = (uint32_t)n, d->push.m = (uint32_t)m, d->push.k = (uint32_t)k, d->push.p0 = (uint32_t)nc;
    double nk = (double)n * (double)k, mk = (double)m * (double)k, mn = (double)m * (double)n;
    c->bytes = dense ? 2 * nk + 2 * mk + 4 * mn : nk / 4 + mk + 4.0 * (double)m + 4 + 4 * mn;
    c->flops = 2.0 * (double)m * nk;
    return 0;
}

static int starts(const char *s, const char *p) { return !strncmp(s, p, strlen(p)); }

/* Whether pipeline i of a planned case runs by address when bind= is not given. On an H200 (NVIDIA 580; tests/gpu/
 * sweep_s37a.txt, s37b: rotate and cold, the six issue-15 shapes, two runs in either order) the by-address twins took
 * 0.2-0.96 us less a call on every row of mma_kp (m=8, 32), hmma (m=8), dense gemv (m=1; 6144x4096 cold +0.26 and
 * +0.42) and coopmat_g at m=8; coopmat_g at m=32 (two token sets, x through its coherent view) took 1.9-9.5 us more,
 * and gemv_sg at m=1 0.2-0.65 less but on 4096x14336 0.3 more rotate and 0.7-0.9 cold: its twin holds 67-69
 * registers against 64, so 28 subgroups an SM fit against 32, and that grid's 4096 subgroups (31 an SM) took two waves
 * instead of one. sweep_s37c.txt: mma_kp at m=4 and 16 0.3-1.2 us less on 13824x2560, 28672x4096, 4096x14336, at
 * m=64 0.2-0.6 less on two and 0.4 / 0.9 more on 28672x4096; coopmat_g at m=16 -0.4 .. +0.8; gemv_sg and dense gemv
 * at m=1 0.3-0.6 less on 3840x2560, 2560x2560, 4096x4096. coopmat_g's loss at m=32 is its coherent view of x (xc=1,
 * which by descriptor takes 8-12% off those shapes): by address the view reads as the plain one, and with xc=0 on both
 * sides by address won 0.6-0.85 (sweep_s37d.txt). wgs (dense m=32 and 64 on the many-tile shapes) took 0.4-1.7 less
 * on all 12 default rows (sweep_s37e.txt). So by address on NVIDIA: mma_kp to m = 32, hmma, dense gemv, wgs,
 * coopmat_g (and its split-K sum) to m = 8, gemv_sg unless its grid lies between 28 and 32 subgroups an SM;
 * elsewhere by descriptor (the other kernels have no twin). */
static int bind_default(const vkb_case *c, int i, void *arg)
{
    const char *s = c->pipe[i].shader;
    int64_t m = *(const int64_t *)arg;
    if (c->caps.vendor != 0x10DE || strstr(s, "_emu")) return 0;
    if (!strcmp(s, "bitnet_gemv_sg_dot")) {
        const vkb_dispatch *d = &c->disp[0];
        uint64_t sg = c->caps.subgroup ? c->caps.subgroup : 32, sgs = (uint64_t)d->groups[0] * d->groups[1] * (c->pipe[i].spec[0] / sg);
        return !(sgs > 28 * vkb_sms(c) && sgs <= 32 * vkb_sms(c));
    }
    return (m <= 32 && !strcmp(s, "bitnet_mma_kp")) || starts(s, "bitnet_hmma_w") || !strcmp(s, "dense_gemv") || starts(s, "dense_wgs_s") ||
           (m <= 8 && (starts(s, "dense_coopmat_g_w") || !strcmp(s, "dense_splitk")));
}

/* bind= (vkb_bind_twins): desc, bda, or not given: bind_default's choice per pipeline. */
static int bind_plan(vkb_case *c, int dense)
{
    int64_t m = vkb_param_int(c, "m", 1);
    return vkb_bind_twins(c, linear_plan(c, dense), bind_default, &m);
}

static int lin_plan(vkb_case *c) { return bind_plan(c, 0); }

/* Fast path: the outputs the oracle recomputes to check the fast reference: tokens 0 and M-1 in full plus
 * random (m, n) drawn from the case's generator up to min(2^27, the oracle's budget) multiply-adds (at
 * least 64); every output when that is no fewer. */
static void pick_outputs(vkb_case *c, gsl_rng *r)
{
    lin_priv *p = c->priv;
    size_t total = p->m * p->n, budget = (size_t)(fmin(BUDGET, p->budget) / (double)p->k);
    if (!p->fast) return;
    p->npick = 2 * p->n + (budget > 2 * p->n + 64 ? budget - 2 * p->n : 64);
    int all = p->npick >= total;
    if (all) p->npick = total;
    p->pick = malloc(p->npick * sizeof(*p->pick));
    if (!p->pick) return;
    for (size_t i = 0; i < p->npick; i++)
        p->pick[i] = all || i < p->n ? i : i < 2 * p->n ? (p->m - 1) * p->n + (i - p->n) : (size_t)gsl_rng_uniform_int(r, total);
    size_t len = strlen(c->note);
    snprintf(c->note + len, sizeof(c->note) - len, "; every output vs a fast reference, oracle-checked on %s", all ? "all" : "");
    len = strlen(c->note);
    if (!all) snprintf(c->note + len, sizeof(c->note) - len, "tokens 0, M-1 + %zu random", p->npick - 2 * p->n);
}

/* Ternary codes ~ the absmean quantizer's output of normal weights (P(0) ~ 0.31); int8 activations shaped as
 * the activation quantizer's (a row's max |x_q| is 127). Edge cases: weight rows all 0, all +1, all -1 (the
 * sum(x) correction at its extremes); tokens all zero (s = 127/eps) and with one outlier. */
typedef struct codes_arg {
    uint32_t *w;
    size_t n, k, kp;
} codes_arg;

static void code_rows(gsl_rng *r, size_t lo, size_t hi, void *arg)
{
    const codes_arg *a = arg;
    for (size_t i = lo; i < hi; i++)
        for (size_t j = 0; j < a->kp; j++) {
            double u = gsl_rng_uniform(r);
            uint32_t code = j >= a->k ? 1u : i < 3 && a->n >= 8 ? (i == 0 ? 1u : i == 1 ? 2u : 0u) : u < 0.345 ? 0u : u < 0.655 ? 1u : 2u;
            a->w[(i * a->kp + j) / BITNET_WORD] |= code << BITNET_SHIFT(j);
        }
}

void bitnet_fill_codes(gsl_rng *r, uint32_t *w, size_t n, size_t k, size_t kp)
{
    codes_arg a = {w, n, k, kp};   /* a row holds kp (a multiple of 16) codes: whole words */
    vkb_par_fill(r, n, (1u << 16) / kp + 1, code_rows, &a);
}

static void lin_fill(vkb_case *c, gsl_rng *r)
{
    lin_priv *p = c->priv;
    int8_t *x = c->buf[2].host;
    float *s = c->buf[3].host;
    bitnet_fill_codes(r, lin_w(c), p->n, p->k, p->kp);
    panel_permute(c, p->kp / 4);
    hfrag_permute(c);
    ((float *)c->buf[1].host)[0] = (float)(0.01 + 0.04 * gsl_rng_uniform(r));
    double *z = malloc(p->k * sizeof(*z));
    if (!z) return;
    for (size_t t = 0; t < p->m; t++) {
        double amax = 0;
        for (size_t j = 0; j < p->k; j++) {
            z[j] = gsl_ran_gaussian_ziggurat(r, 1.0);
            if (t == 1 && p->m >= 3) z[j] = j == p->k / 2 ? 1000.0 : z[j];
            if (t == 0 && p->m >= 3) z[j] = 0;
            amax = fmax(amax, fabs(z[j]));
        }
        double sc = 127.0 / fmax(amax, BITNET_EPS);
        for (size_t j = 0; j < p->k; j++) x[t * p->kp + j] = (int8_t)nearbyint(z[j] * sc);
        s[t] = (float)sc;
    }
    free(z);
    pick_outputs(c, r);
}

/* The oracle: accumulator of output o = t N + row, plain loop. */
static int64_t lin_acc(const vkb_case *c, size_t o)
{
    const lin_priv *p = c->priv;
    const uint32_t *w = lin_w(c);
    const int8_t *x = c->buf[2].host;
    size_t t = o / p->n, row = o % p->n;
    int64_t a = 0;
    for (size_t j = 0; j < p->k; j++) {
        uint32_t word = w[(row * p->kp + j) / BITNET_WORD];
        int code = (int)((word >> BITNET_SHIFT(j)) & 3u);
        a += (int64_t)(code - 1) * x[t * p->kp + j];
    }
    return a;
}

static double lin_ref(vkb_case *c)
{
    lin_priv *p = c->priv;
    size_t total = p->m * p->n;
    p->acc = malloc(total * sizeof(*p->acc));
    if (!p->acc) return 1.0;
    if (!p->fast) {
        for (size_t o = 0; o < total; o++) p->acc[o] = lin_acc(c, o);
        return 1.0;
    }
    if (vkb_fast_ternary_acc(lin_w(c), c->buf[2].host, p->n, p->k, p->kp, p->m, p->acc, &c->fast_ref_s) || !p->pick) {
        free(p->acc);
        p->acc = NULL;  /* the check reports the reference as out of memory */
        return 1.0;
    }
    for (size_t i = 0; i < p->npick; i++) {  /* integers: the two must be equal */
        size_t o = p->pick[i];
        vkb_refcmp_add(&p->cmp, "acc", o / p->n, o % p->n, (double)p->acc[o], (double)lin_acc(c, o), 0);
    }
    return (double)p->npick / (double)total;
}

static void lin_check(vkb_case *c, vkb_check *r)
{
    lin_priv *p = c->priv;
    const float *y = c->buf[4].host, *s = c->buf[3].host;
    double g = ((const float *)c->buf[1].host)[0];
    vkb_check_begin(r, "exact", 0);
    if (!p->acc) {
        snprintf(r->detail, sizeof(r->detail), "reference ran out of memory");
        r->metric = NAN;
        vkb_check_end(r);
        return;
    }
    bitnet_check_y(r, y, p->acc, s, g, p->m, p->n, NULL);
    vkb_check_ref(r, p->fast ? &p->cmp : NULL, p->fast ? "exact-int+scalar-sample" : "scalar");
}

void bitnet_check_y(vkb_check *r, const float *y, const int64_t *acc, const float *s, double g, size_t m, size_t n,
                    const char *mark)
{
    double se = 0, sw = 0;
    size_t nq = r->nbad;
    for (size_t o = 0; o < m * n; o++) {
        size_t t = o / n;
        double want = (double)acc[o] * g / s[t], got = y[o];
        r->nchecked++;
        if (vkb_is_poison(VKB_F32, y, o)) {
            r->nunwritten++;
            continue;
        }
        double e = fabs(got - want);
        se += e * e, sw += want * want;
        if (e > r->max_abs) r->max_abs = e;
        if (want != 0 && e / fabs(want) > r->max_rel) r->max_rel = e / fabs(want);
        int acc_ok = llabs(acc[o]) >= (1 << 20) || nearbyint(got * s[t] / g) == (double)acc[o];
        if (!(e <= 6.01 * U32 * fabs(want)) || !acc_ok) {
            size_t len = strlen(r->detail);
            if (mark && r->nbad == nq && r->nbad < 10)
                snprintf(r->detail + len, sizeof(r->detail) - len, "%s%s", len ? "; " : "", mark);
            vkb_check_bad(r, o, got, want);
        }
    }
    r->nmse = sw > 0 ? se / sw : se;
    r->metric = (double)(r->nbad + r->nunwritten);
    vkb_check_end(r);
}

static void lin_release(vkb_case *c)
{
    lin_priv *p = c->priv;
    if (p) free(p->pick), free(p->acc), free(p->want), free(p->bound), free(p->wlog);
}

VKB_KERNEL(bitnet_linear) = {"bitnet_linear", "n,k,m,shape,algo,rows,mt,wg,bm,gpt,split,lanes,per,wn,sgs,bk,frag,rb,sb,lay,fold,sk,gs,ah,dec,ln,xs,xsum,bind",
                             "BitLinear y = (W_t x_q) gamma'/s, packed 2-bit W, int8 x, int32 acc (variant dot|int; algo gemv|gemv_sg|gemv_ps|gemm "
                             "SIMT, mma, mma_sg and mma_kp on int8 matrix units, hmma on fp16 ones, mma_emu, mma_sg_emu, mma_kp_emu and hmma_emu "
                             "emulated)",
                             lin_plan, lin_fill, lin_ref, lin_check, lin_release, "dot, int"};

/* ---------------- the dense fp16-weight baseline ----------------
 * Tolerance: products of two fp16 values are exact in fp32 (11 + 11 significant bits <= 24) and unpacking
 * fp16 is exact, so only the K - 1 additions round, in whatever order the GPU uses: |y - y_exact| <=
 * gamma_{K-1} sum_k |W[n][k] x[m][k]|, gamma_j = j u / (1 - j u) (Higham §3.1). Reference in double.
 * Fast reference (above the oracle's budget): y_ref = x W^T and S = |x| |W|^T by OpenBLAS dgemm on the
 * fp16 values widened to double. Each product is exact in double (22 significant bits); a double sum of K
 * terms in any order errs by <= gamma_K(u_d) S, u_d = 2^-53. So S, a sum of terms >= 0, is within a
 * relative gamma_K(u_d) <= 1.2e-11 (K <= 10^5) of the exact sum -- negligible in a bound of relative size
 * gamma_{K-1}(u32) -- and y_ref's error gamma_K(u_d) S is 2^-29 of the bound, as the oracle's own. Oracle
 * and fast reference, both within gamma_K(u_d) S of the exact sums, must agree within
 * 2 gamma_K(u_d) / (1 - gamma_K(u_d)) S_oracle (for y_ref and S alike), else the row is an ERROR. */

static int dense_plan(vkb_case *c) { return bind_plan(c, 1); }

/* ---- dense_f16 on matrix units (kernels/dense_coopmat.glsl) ----
 * algo=coopmat, the staged tiling (a named option; the defaults at m >= 8 where the device has VK_NV_cooperative_matrix
 * are coopmat_g to m = 16 and stream above, at dense_coop_plan; elsewhere the SIMT gemv/gemm above stay the default,
 * and algo=gemv|gemv8|gemm force them anywhere); algo=coopmat_emu is the same
 * tiling with the matrix operations emulated, on any device, for validation only. Tunables: bn (W rows per
 * workgroup), bk (K per staged step), sgs (subgroups per workgroup), split (K slices; 0 = auto).
 * Tolerance: unchanged (the bound above holds for the K - 1 fp32 additions in any order, split-K's partial
 * sums included). Matrix units may accumulate with truncation (up to 2u per addition, Fasi et al. 2021;
 * matmul.c takes c = 2 for them); this baseline keeps the round-to-nearest bound: with N(0,1) inputs the
 * truncation error grows like u K^1.5 against a bound of u K^2 (~60x below it at K = 4096). A FAIL on a
 * GPU would name that, not a tiling error, if the emulated twin passes the same case. */
static int dense_coop_wanted(const vkb_case *c, int64_t m)
{
    const char *algo = vkb_param_str(c, "algo", NULL);
    if (algo) return !strncmp(algo, "coopmat", 7) || !strncmp(algo, "stream", 6) || !strncmp(algo, "wgs", 3);
    return m >= 8 && c->caps.coopmat_nv;
}

/* Split-K: S slices fill ~4 workgroups on each SM of a 132-SM GPU (H100/H200), with at least one BK step
 * per slice and the partial sums (S M N fp32, written and read once) at most 1/8 of W's bytes. */
static uint32_t dense_split(uint64_t tiles, uint64_t steps, int64_t m, long long k)
{
    uint64_t s = 528 / tiles, cap = (uint64_t)k / (16 * (uint64_t)m);
    if (s > cap) s = cap;
    if (s > steps) s = steps;
    return s < 1 ? 1 : (uint32_t)s;
}

/* The matrix-unit plans' shared tail: split-K's second pass (dense_splitk.comp sums the s partial sums in slice
 * order; returns nonzero when out of memory), and the case's bytes and FLOPs (W, x and y each once). */
static int dense_add_splitk(vkb_case *c, long long n, int64_t m, uint64_t s)
{
    uint32_t g[3], rspec[1] = {256};
    vkb_grid_1d(c, (uint64_t)m * (uint64_t)n, 256, g);
    vkb_dispatch *d = vkb_add_dispatch(c, vkb_add_pipe(c, "dense_splitk", 1, rspec), g[0], g[1], g[2]);
    if (!d) return 1;
    d->push.n = (uint32_t)n, d->push.m = (uint32_t)m, d->push.p2 = (uint32_t)s;
    return 0;
}

static void dense_cost(vkb_case *c, long long n, long long k, int64_t m)
{
    double nk = (double)n * (double)k, mk = (double)m * (double)k, mn = (double)m * (double)n;
    c->bytes = 2 * nk + 2 * mk + 4 * mn;
    c->flops = 2.0 * (double)m * nk;
}

/* ---- algo=coopmat_g (kernels/dense_coopmat_g.glsl): fragments straight from global memory ----
 * Why: the staged kernel above streams W at about half of copy on an H200 (28672x4096 m=32: 135 us, 2.1 TB/s)
 * although the math is ~15 us: a workgroup holds only one BK step of W in flight (its register prefetch) and
 * every step ends in a barrier, so an SM waits on its slowest warp's loads with too few bytes outstanding.
 * Loading W fragments with coopMatLoadNV from global memory removes staging and barriers: each subgroup keeps
 * 4 WN x 512 bytes of W in flight (4 16-deep fragments per row block: whole 128-byte lines) and runs on its own.
 * Session 10: that was W's layout, not the loads. Row-major, a fragment is 16 rows x 32 bytes 8 KiB apart; with
 * lay=panel (the default until session 27) it is 512 contiguous bytes, and coopmat_g became the fastest dense kernel
 * at m <= 16 (on an H200, 28672x4096 m=8: 204.5 us rows, 71.6 panels at wn=4; tests/gpu/sweep_cg10.txt, at
 * dense_coop_plan). Session 27: lay=frag (frag_slot: each fragment's 512 bytes in the order its invocations hold them,
 * one 16-byte load an invocation where coopMatLoadNV made four 4-byte loads of 8 rows each) is the default on NVIDIA's
 * driver with 32-invocation subgroups. On an H200 (tests/gpu/sweep_s27a.txt, sweep_s27b.txt, us, the six shapes)
 * against panels:
 *   m=8  rotate 21.47 13.19 36.79 17.91 60.36 31.65 (panel 22.48 14.15 37.87 19.40 62.41 32.36);
 *        cold   22.11 14.34 37.44 19.04 61.76 32.99 (panel 23.71 15.58 39.17 20.70 64.58 33.70);
 *   m=16 rotate 25.61 16.67 43.97 22.11 69.93 36.18 (panel 28.11 18.41 47.62 23.51 76.08 37.21);
 *        cold   26.75 17.92 45.06 23.62 72.03 37.18 (panel 28.93 19.65 48.83 24.61 77.92 37.60).
 * At m=32 no coopmat_g tiling with lay=frag reached wgs on five of the six shapes (sweep_s27a .. s27e); on 2560x6912
 * mt=1 ts=2 sk=4 sgs=8 took 23.48-23.50 against wgs's 24.27 (-3%, rotate; cold not measured). W's fragments an
 * iteration ahead (removed) took -4% .. +26%, x's -4% .. +13%; x's fragments cost 12-15 us of mt=2's 41.5 on
 * 13824x2560 (`ablate dense_g32`, tests/gpu/sweep_s27e.txt).
 * Tunables: wn= row fragments per subgroup (1 or 2 or 4; 1 needs mt=1, 4 mt <= 2), mt= token fragments per subgroup (1, 2, 4),
 * sgs= subgroups per workgroup (share x in L1), ts= token sets (subgroups of a workgroup on the same rows for different
 * token blocks: 2 at 16 < m <= 32 with mt=1, sk_default says why; else 1), sk= K parts (sk subgroups of a workgroup split one tile's K slice and
 * their partial tiles are summed in shared memory, in part order: split-K without a second dispatch), ln= tokens per
 * fragment (8: 16x8x16 MMAs, mt=1 only; 16), split= K slices (0 = auto), lay= rows | panel | frag | fragx (frag_row), fold= 0 (split-K
 * summed by dense_splitk) | 1 (by the tile's last workgroup, kernels/splitk_fold.glsl: slower at sk=1's auto splits on the
 * H200, tests/gpu/sweep_fold11.txt; the default with K parts, at dense_g_plan), xc= 0 | 1 (x through a coherent view,
 * kernels/dense_coopmat_g.glsl XC; its default and the 64-row subgroups of many-tile shapes at dense_g_plan), ub= 1 .. 3
 * (blocks of 4 K steps an iteration, UB; 2 in those 64-row subgroups and the long-K tiling, at dense_g_plan). Defaults:
 * mt=1 (one token block per workgroup, the blocks side by side in grid x so
 * that they share W through L2; mt=2 at m=32 took 2.2-2.6x its time, tests/gpu/sweep_cg11b.txt, with its accumulators
 * in local memory, and 0.78-1.47x without, sweep_s26b.txt: faster on 2560x6912 alone), wn=4 with mt=1
 * (measured: 0.82-0.91x of wn=2's time at m=8), else 2, sgs=4 (sgs=1, 2 and 8 within 3%), all three as before
 * session 15 where sk_default is 1 (its K parts otherwise, with wn=2 and sgs = sk ts: see there), ln=8 where m <= 8
 * and the device has the shape (else 16); split-K as
 * dense_split below with subgroups as the unit: slices until ~2112 subgroups (16 per SM of a 132-SM GPU, i.e.
 * ~64 KiB of W in flight per SM at wn=2) are in the grid, at most k / (16 m) (partial sums written <= 1/8 of
 * W's bytes) and at most one slice per 64-deep iteration (explicit splits 2 .. 16 were no faster at m=8 wn=4 on any of
 * the six shapes but 28672x4096, 69.5 at 4 against 71.2; tests/gpu/sweep_cg10b.txt). */
/* coopmat_g's default K parts (sk=): at m <= 16 with one token fragment a subgroup, the largest power of two <= 16
 * that leaves each subgroup >= 4 of K's 64-deep iterations and keeps the grid within 64 subgroups per SM (132 SMs where
 * the device does not say); 1 elsewhere. Measured (m=8, us, the six shapes; tests/gpu/sweep_s15c.txt .. s15i.txt):
 * - H100, rotate, 16-token fragments: wn=2 with sgs = sk = 8 at split 1 took 31.9 21.3 55.6 25.0 100.4 51.1, with 16
 *   36.0 19.3 56.0 25.9 90.9 47.0, against the old default's (wn=4 sgs=4 sk=1, 10-22 slices and the second dispatch)
 *   36.5 25.3 57.7 29.7 92.3 53.6.
 * - H200, rotate, 8-token fragments (ln=8): the rule's parts took 22.7 14.3 (sk 8, 16) .. 19.3 32.8 on four shapes
 *   against 29.2 21.9 24.4 41.9 for the old tiling; on 20480x3200 sk 4 / 8 37.2 / 38.2 and on 28672x4096 sk 8 / 16
 *   62.8 / 66.8, against the old tiling's 46.2 and 75.0 (with 16-token fragments the parts had lost 5-6% on those
 *   two, sweep_s15g; at m=16 they win 1-11% rotate and lose 5-6% cold there, sweep_s15k).
 * The rule takes 8 at K = 2560 and 3200, 16 from 4096 but 8 on 28672x4096 (the cap; 8 beat 16 there). Halved further
 * while its sk ts subgroups (ts token sets) exceed 16 or their output staging (2 KiB each at wn=2, and FOLD's flag)
 * the device's shared memory.
 * Session 30: the same at 16 < m <= 32 with two token sets (ts=2, the default there: both 16-token blocks of a row tile
 * in one workgroup, W's fragments loaded by one subgroup found in L1 by the other), with sk ts <= 8. On an H200 with
 * lay=fragx (m=32, rotate, us, the six shapes; tests/gpu/sweep_s30.txt) ts=2 sk=4 sgs=8 took 31.77 53.19 18.96 25.37
 * 83.37 43.60, sk=8 sgs=16 34.16 51.54 21.65 26.65 85.72 40.91, against the old defaults' (wn=4 sk=1, token blocks
 * side by side, 3-16 slices) 37.08 54.46 31.11 32.24 85.00 52.06. */
static int64_t sk_default(const vkb_case *c, long long n, long long k, int64_t m, uint32_t mt, int64_t ts)
{
    uint64_t sms = vkb_sms(c), tiles = ((uint64_t)n + 31) / 32;
    if (m > (ts == 2 ? 32 : 16) || mt != 1) return 1;
    int64_t its = ((int64_t)k + 63) / 64, sk = 1;
    while (sk < 16 && its / (2 * sk) >= 4 && tiles * 2 * (uint64_t)sk <= 64 * sms) sk *= 2;
    while (sk > 1 && (sk * ts > (ts == 2 ? 8 : 16) || 2048 * sk * ts + 16 > (int64_t)c->caps.max_shared)) sk /= 2;
    return sk;
}

/* dense_many_tiles_n (reference/bitnet_linear.h) on the case's device (132 SMs where it reports none). */
static int dense_many_tiles(const vkb_case *c, long long n)
{
    return dense_many_tiles_n((uint64_t)n, vkb_sms(c));
}

/* Whether the device offers NV cooperative matrices 16x8x16 fp16 x fp16 -> fp32. */
static int has_f16_16x8(const vkb_case *c)
{
    for (int i = 0; i < c->caps.ncm; i++) {
        const vkb_cm_shape *q = &c->caps.cm[i];
        if (!q->khr && q->m == 16 && q->n == 8 && q->k == 16 && q->a == 0 && q->b == 0 && q->c == 1 && q->d == 1) return 1;
    }
    return 0;
}

/* Whether the case names an axis that only algo=coopmat_g reads (fold, mt, ts, ln, xc, ub): the other dense plans refuse them. */
static int dense_g_axis_given(const vkb_case *c)
{
    static const char *const axes[] = {"fold", "mt", "ts", "ln", "xc", "ub"};
    for (size_t i = 0; i < sizeof(axes) / sizeof(axes[0]); i++)
        if (vkb_param_str(c, axes[i], NULL)) return 1;
    return 0;
}

static int dense_g_plan(vkb_case *c, long long n, long long k, int64_t m, int emu)
{
    if (!emu && !c->caps.coopmat_nv)
        return vkb_skip(c, "device lacks VK_NV_cooperative_matrix (fp16 matrix units); algo=coopmat_g_emu validates the tiling");
    if (!emu && !c->caps.f16) return vkb_skip(c, "device lacks shaderFloat16 (fp16 cooperative matrices)");
    int64_t mt64 = vkb_param_int(c, "mt", 1);  /* mt=2: 0.78-1.47x mt=1's time at m=32 (dense_coop_plan) */
    if (mt64 != 1 && mt64 != 2 && mt64 != 4) return vkb_error(c, "mt=%lld: expected 1, 2 or 4 token fragments per subgroup", (long long)mt64);
    uint32_t mt = (uint32_t)mt64;
    /* K parts by default where one token block holds every token (m <= 16, mt=1), or two token sets do (16 < m <= 32):
     * sk_default (sk ts subgroups a workgroup: one 32-row tile, wn=2); the auto split then comes to 1 .. 3 slices (below). */
    /* many: 32-row tiles at least 4 an SM. There at 16 < m <= 32 with K >= 4096, 64-row subgroups (wn=4) in two K parts
     * and x past L1 (xc=1, below): on an H200 (session 31, us, 28672x4096 m=32; tests/gpu/sweep_s31c.txt) 77.67 and
     * 77.97 rotate, 78.91 cold, against 82.57 and 81.76 rotate, 83.90 cold for the 32-row tiles of sk_default; with x
     * through L1 (xc=0) 83.16 / 84.48; sk=4 sgs=8 82.05, one K part 82.2-82.4, split 2 94.0; on the shapes with fewer
     * tiles it lost (33.6-33.8 against 28.8 on 13824x2560, 28.35 against 22.52 on 6144x4096, 46.8 against 39.8 on
     * 4096x14336). */
    /* longk: 16 < m <= 32 with K >= 8192 (and not wide): one token set a workgroup, 8 K parts, x past L1 and two blocks
     * of K steps an iteration. On an H200 (session 34, us, 4096x14336, tests/gpu/sweep_s34c.txt) m=32 took 35.23 rotate
     * and 37.31 cold against 39.37 and 40.99 for ts=2 sk=4 (split 2, folded), m=17 35.34 against 39.13, m=24 36.02
     * against 39.24; ts=1 sk=8 without x past L1 or at ub=1, or sk=16, were slower (37.4-43.4). On 2560x6912 (K = 6912)
     * the same tiling lost (19.10 / 20.77 against 16.98 / 20.06), so the bound is K >= 8192, from one shape above it. */
    uint64_t sms = vkb_sms(c);
    int many = dense_many_tiles_n((uint64_t)n, sms), wide = mt == 1 && dense_g_wide((uint64_t)n, (uint64_t)k, m, sms);
    int longk = mt == 1 && dense_g_longk((uint64_t)n, (uint64_t)k, m, sms);
    int64_t ts = vkb_param_int(c, "ts", m > 16 && m <= 32 && mt == 1 && !longk ? 2 : 1);
    int64_t skd = wide && ts == 2 ? 2 : longk && ts == 1 ? 8 : sk_default(c, n, k, m, mt, ts);
    int64_t sgs = vkb_param_int(c, "sgs", skd > 1 ? skd * ts : 4);
    int64_t sk = vkb_param_int(c, "sk", skd > 1 && sgs % (skd * ts) == 0 ? skd : 1);
    int64_t wn = vkb_param_int(c, "wn", (sk > 1 && !wide) || mt > 1 ? 2 : 4), split = vkb_param_int(c, "split", 0);
    /* fold: 1 lost at the auto splits of sk=1 on the H200 (10-22 slices, tests/gpu/sweep_fold11.txt); with K parts (sk > 1)
     * the auto split is 1 to 3 slices, and folding them in the kernel saves dense_splitk's dispatch: at m=32 (ts=2 sk=4)
     * 2560x6912 (3 slices) took 16.96 / 20.10 us rotate / cold against 18.93 / 20.61, 4096x14336 (2) 39.23 / 40.77
     * against 43.60 / 45.31; the same elsewhere (one slice; tests/gpu/sweep_s30.txt (j)). So 1 where sk > 1. */
    int64_t fold = vkb_param_int(c, "fold", sk > 1 ? 1 : 0);
    if (fold != 0 && fold != 1) return vkb_error(c, "fold=%lld: expected 0 (split-K summed by a second dispatch) or 1 (in the kernel)", (long long)fold);
    /* xc=1: x's loads past L1 (kernels/dense_coopmat_g.glsl XC). On an H200 (session 31, us, rotate, the six shapes,
     * defaults; tests/gpu/sweep_s31b.txt) m=32 took 28.71 17.07 50.37 22.64 82.90 39.87 against 31.59 16.96 53.05 25.13
     * 81.82 39.44 (cold 29.89 20.19 51.23 24.10 84.80 41.34 against 32.96 20.06 51.47 26.59 84.35 40.61), m=16 22.26
     * 12.95 38.27 18.21 63.01 31.15 against 22.77 13.70 39.12 18.74 63.87 31.48, m=8 within 1.2%. So 1, but at 16 < m
     * <= 32 where K > 4096, or where the 32-row tiles are at least 4 an SM (where it cost 1-6%) but in 64-row subgroups. */
    int64_t xc = vkb_param_int(c, "xc", m > 16 && m <= 32 && !longk && (k > 4096 || (many && wn != 4)) ? 0 : 1);
    if (xc != 0 && xc != 1) return vkb_error(c, "xc=%lld: expected 0 or 1 (x's loads past L1)", (long long)xc);
    /* ub=: blocks of 4 K steps an iteration (kernels/dense_coopmat_g.glsl UB). 2 in the 64-row subgroups of `wide`: on an
     * H200 (session 34, us, 28672x4096 m=32, tests/gpu/sweep_s34a.txt) 69.44 rotate and 72.29 cold against 77.77 and
     * 78.98 at 1; and in `longk`'s tiling (above). */
    int64_t ub = vkb_param_int(c, "ub", (wide && wn == 4) || longk ? 2 : 1);
    if (ub < 1 || ub > 3) return vkb_error(c, "ub=%lld: expected 1, 2 or 3 blocks of 4 K steps an iteration", (long long)ub);
    if (vkb_param_str(c, "sr", NULL) || vkb_param_str(c, "xpre", NULL) || vkb_param_str(c, "rb", NULL))
        return vkb_error(c, "sr=, xpre= and rb= apply to algo=stream only (algo=coopmat_g)");
    /* lay=fragx by default on NVIDIA's driver with 32-invocation subgroups (the orders frag_slot and fragx_col rely on
     * were measured there) and in the emulation; panel elsewhere, where the order is not known. fragx against frag on an
     * H200 (session 30, us, the six shapes, defaults; tests/gpu/sweep_s30.txt): m=8 rotate 20.75 12.33 35.84 17.08 59.33
     * 30.54 against 21.59 13.09 37.29 17.87 60.97 31.75, cold 22.37 13.60 36.54 19.26 60.70 31.39 against 22.62 14.62
     * 38.02 19.14 62.24 32.74; m=16 rotate 22.82 13.56 39.13 18.78 64.07 31.43 against 25.56 16.58 43.91 22.30 70.31
     * 36.31, cold 23.84 15.20 39.87 20.90 65.38 32.38 against 27.04 17.89 45.28 23.20 72.06 37.63. */
    const char *lay = vkb_param_str(c, "lay", emu || (c->caps.vendor == 0x10DE && c->caps.subgroup == 32) ? "fragx" : "panel");
    int panel = !strcmp(lay, "panel") ? 1 : !strcmp(lay, "frag") ? 2 : !strcmp(lay, "fragx") ? 3 : 0;
    if (!panel && strcmp(lay, "rows")) return vkb_error(c, "lay=%s: expected rows, panel, frag or fragx", lay);
    if (ts < 1 || ts > 4 || sk < 1 || sk > 16 || sgs % (ts * sk))
        return vkb_error(c, "ts=%lld sk=%lld sgs=%lld: expected 1..4 token sets and 1..16 K parts, whose product divides the subgroups "
                         "per workgroup", (long long)ts, (long long)sk, (long long)sgs);
    if ((wn != 1 && wn != 2 && wn != 4) || (wn == 4 && mt > 2) || (wn == 1 && mt > 1) || sgs < 1 || sgs > 16 || split < 0 || split > 4096)
        return vkb_error(c, "wn=%lld sgs=%lld split=%lld mt=%u: expected wn 1 (with mt=1), 2 or 4 (4 with mt <= 2), sgs 1..16, split 0 (auto) .. 4096",
                         (long long)wn, (long long)sgs, (long long)split, mt);
    /* Tokens per fragment: 8 (16x8x16 MMAs, B 16 x 8: half the x bytes and MMA work of 16) where every token fits one
     * fragment (m <= 8, mt=1) and the device offers that shape, else 16 (ln= names it). */
    int n8 = emu || has_f16_16x8(c);
    int64_t ln = vkb_param_int(c, "ln", n8 && m <= 8 && mt == 1 ? 8 : 16);
    if ((ln != 8 && ln != 16) || (ln == 8 && mt != 1))
        return vkb_error(c, "ln=%lld mt=%u: expected 16 tokens per fragment, or 8 with mt=1", (long long)ln, mt);
    if (ln == 8 && !n8)
        return vkb_skip(c, "ln=8: the device offers no 16x8x16 fp16 x fp16 -> fp32 NV cooperative matrix (`vkbench devices`)");
    /* With K parts or MT > 1 each subgroup stages all of its wn x mt tiles (1 KiB each) at the end: a default sgs halves
     * while they exceed the device's shared memory (lavapipe's 32 KiB at mt=4 or wn=4 mt=2). */
    long long tiles_kib = sk > 1 || mt > 1 ? wn * (long long)mt : 1;
    if (!vkb_param_str(c, "sgs", NULL))
        while (sgs % 2 == 0 && (sgs / 2) % (ts * sk) == 0 && 1024.0 * (double)sgs * (double)tiles_kib + 16 > c->caps.max_shared) sgs /= 2;
    uint32_t sg = c->caps.subgroup ? c->caps.subgroup : 32, wg = sg * (uint32_t)sgs;
    if (panel >= 2 && !emu && sg != 32)  /* frag_slot's order: 8 halves for each of 32 invocations */
        return vkb_skip(c, "lay=%s lays a fragment out for 32 invocations (this device's subgroup: %u); algo=coopmat_g_emu validates it", lay, sg);
    if (emu && (sg < 8 || sg > 16 * (uint32_t)ln))  /* an invocation owns 16 ln / sg accumulator elements */
        return vkb_skip(c, "algo=coopmat_g_emu needs a subgroup size of 8 .. %u at ln=%lld (this device: %u)", 16 * (uint32_t)ln,
                        (long long)ln, sg);
    /* the output's staging, and FOLD's flag (kernels/splitk_fold.glsl: declared whether used or not) */
    long long smem = 1024 * (long long)sgs * tiles_kib + 16;
    if (wg > c->caps.max_wg_size || (double)smem > c->caps.max_shared)
        return vkb_skip(c, "sgs=%lld sk=%lld on this device: %u invocations (<= %u), %lld B shared (<= %u)", (long long)sgs, (long long)sk, wg,
                        c->caps.max_wg_size, smem, c->caps.max_shared);
    lin_priv *p = lin_new(c, n, k, m);
    if (!p) return vkb_error(c, "out of memory");
    size_t kq = panel == 3 ? 64 : 16;  /* lay=fragx permutes whole 64-column blocks */
    p->kp = ((size_t)k + kq - 1) / kq * kq;
    uint64_t n16 = ((uint64_t)n + 15) / 16 * 16, tm = (uint64_t)ln * mt, tw = tm * (uint64_t)ts, mp = ((uint64_t)m + tw - 1) / tw * tw;
    uint64_t nc = p->kp / 8, its = (nc + 7) / 8, bn = 16 * (uint64_t)wn * (uint64_t)(sgs / (ts * sk));
    uint64_t gx = ((uint64_t)n + bn - 1) / bn, gz = mp / tw;
    uint64_t tasks = ((n16 / 16 + (uint64_t)wn - 1) / (uint64_t)wn) * (((uint64_t)m + tm - 1) / tm);  /* subgroups a slice */
    uint64_t s = (uint64_t)split;
    if (!s) {
        uint64_t cap = (uint64_t)k / (16 * (uint64_t)m);
        /* sk subgroups share a tile's slice; with K parts, at most 2112 subgroups (one slice wherever the tiles and
         * parts reach that alone: split 2 took 25.3 / 51.8 us where 1 took 19.3 / 47.0 on 2560x6912 / 4096x14336 at
         * sk=16, tests/gpu/sweep_s15e.txt), else at least (the first slices of sk=1) */
        s = sk > 1 ? 2112 / (tasks * (uint64_t)sk) : (2112 + tasks - 1) / tasks;
        if (sk > 1 && s > its / (4 * (uint64_t)sk)) s = its / (4 * (uint64_t)sk);  /* >= 4 iterations a part, as sk_default */
        if (s > cap) s = cap;
        if (s < 1) s = 1;
    }
    if (s > its) s = its;
    uint64_t per = (its + s - 1) / s * 8;  /* uvec4 per slice: whole iterations */
    s = (nc + per - 1) / per;              /* no empty slice */
    if ((double)s * (double)m * (double)n >= 4294967296.0 || (double)mp * (double)p->kp >= 2147483648.0 ||
        (double)n16 * (double)p->kp >= 2147483648.0)
        return vkb_error(c, "split=%llu: the partial sums need < 2^32 elements, padded W and x < 2^31", (unsigned long long)s);
    if (gx * gz > c->caps.max_wg_count_x || s > 65535)
        return vkb_skip(c, "grid %llux%llux1 exceeds this device's maxComputeWorkGroupCount", (unsigned long long)(gx * gz),
                        (unsigned long long)s);
    /* lay=panel: 16-row panels of 32-byte chunks (one 16x16 fragment = 512 contiguous bytes). The CPU baseline reads
     * the logical copy where its row stride (K rounded up to 8) is this one's, else its padded-layout NA stands. */
    if (panel && !panel_plan(c, p, p->kp * sizeof(uint16_t), sizeof(uint16_t), 32, p->kp == ((size_t)k + 7) / 8 * 8))
        return vkb_error(c, "out of memory");
    p->wfrag = panel >= 2 ? panel - 1 : 0;
    vkb_add_buf(c, "w", VKB_F16, (size_t)n16 * p->kp, VKB_IN);  /* padding rows and columns stay zero (calloc) */
    vkb_add_buf(c, "x", VKB_F16, (size_t)mp * p->kp, VKB_IN);
    vkb_add_buf(c, "y", VKB_F32, p->m * p->n, VKB_OUT);
    vkb_add_buf(c, "part", VKB_F32, s > 1 ? (size_t)s * p->m * p->n : 1, VKB_SCRATCH);
    fold = fold && s > 1;
    vkb_add_buf(c, "tickets", VKB_U32, fold ? (size_t)(gx * gz) : 1, VKB_IN);  /* zero (kernels/splitk_fold.glsl) */
    char shader[48];
    snprintf(shader, sizeof(shader), "dense_coopmat_g%s_w%lldx%u%s", emu ? "_emu" : "", (long long)wn, mt, ln == 8 ? "n8" : "");
    uint32_t spec[8] = {wg, (uint32_t)sgs, (uint32_t)panel, fold ? (n % 4 == 0 ? 2u : 1u) : 0u /* the 4-row path only: less code */,
                        (uint32_t)ts, (uint32_t)sk, (uint32_t)xc, (uint32_t)ub};
    vkb_dispatch *d = vkb_add_dispatch(c, vkb_add_pipe(c, shader, 8, spec), (uint32_t)(gx * gz), (uint32_t)s, 1);
    if (!d) return vkb_error(c, "out of memory");
    d->push.n = (uint32_t)n, d->push.m = (uint32_t)m, d->push.k = (uint32_t)k;
    d->push.p0 = (uint32_t)nc, d->push.p1 = (uint32_t)per, d->push.p2 = (uint32_t)s, d->push.p3 = (uint32_t)n16;
    if (s > 1 && !fold && dense_add_splitk(c, n, m, s)) return vkb_error(c, "out of memory");
    snprintf(c->note, sizeof(c->note), "%s %llux%llu wn%lld ln%lld sg%lld ts%lld sk%lld split%llu%s%s ub%lld %s", emu ? "coopmat_g_emu" : "coopmat_g",
             (unsigned long long)bn, (unsigned long long)tw, (long long)wn, (long long)ln, (long long)sgs, (long long)ts, (long long)sk, (unsigned long long)s,
             fold ? " folded" : "", xc ? " xc" : "", (long long)ub, lay);
    dense_cost(c, n, k, m);
    return 0;
}

/* The matrix-unit plans' common tail: a grid of gx x s (K slices) x gz workgroups within the device's limits, partial
 * sums that index in 32 bits, and the buffers w, x, y and part (s x M x N fp32 when s > 1). 0, or vkb_error/vkb_skip's. */
static int dense_grid_bufs(vkb_case *c, const lin_priv *p, uint64_t s, uint64_t gx, uint64_t gz, size_t wrows)
{
    if ((double)s * (double)p->m * (double)p->n >= 4294967296.0)
        return vkb_error(c, "split=%llu: the partial sums need < 2^32 elements", (unsigned long long)s);
    if (gx > c->caps.max_wg_count_x || s > 65535 || gz > 65535)
        return vkb_skip(c, "grid %llux%llux%llu exceeds this device's maxComputeWorkGroupCount", (unsigned long long)gx,
                        (unsigned long long)s, (unsigned long long)gz);
    vkb_add_buf(c, "w", VKB_F16, wrows * p->kp, VKB_IN);
    vkb_add_buf(c, "x", VKB_F16, p->m * p->kp, VKB_IN);
    vkb_add_buf(c, "y", VKB_F32, p->m * p->n, VKB_OUT);
    vkb_add_buf(c, "part", VKB_F32, s > 1 ? (size_t)s * p->m * p->n : 1, VKB_SCRATCH);
    return 0;
}

/* ---- algo=stream (kernels/dense_stream.glsl): every subgroup streams its own rows, two steps in flight ----
 * Why: the staged kernel above holds one BK step per workgroup in flight and waits on a workgroup barrier each
 * step (~2 TB/s on an H200); coopmat_g's global fragment loads were slower still. Here each subgroup stages its
 * own W rows and x tokens in shared memory with 16-byte loads, two steps ahead in registers, and syncs only
 * itself. Tunables: wn= row fragments per subgroup (2 or 4), sr= subgroups over rows, sk= subgroups over K
 * (summed in-kernel in a fixed order), bk= K per step (16..128, a multiple of 16), split= K slices across
 * workgroups (0 = auto; dense_splitk.comp sums them in order). Token fragments MT = 1 at m <= 16, else 2 (grid z
 * covers 32 tokens each). Defaults from the H200 sweep (tests/gpu/sweep_dense3.txt, at dense_coop_plan): wn=2,
 * bk=32, sr=2 sk=2 at m <= 16, sr=4 sk=1 above (bk=64 was no faster overall; wn=4 slower on every shape). Auto split: grid slices until ~2112 subgroups (16 per SM of a
 * 132-SM GPU) are in the grid, at most k / (16 m) (partial sums written <= 1/8 of W's bytes), and at most one
 * slice per two steps of each subgroup (so its pipeline fills). */
/* lay= W's layout: panel (the default: 16-row panels, chunk major, so a step reads one contiguous run per panel) or rows
 * (row-major); rb= register buffers (W steps in flight, 1, 2 or 4); xpre=0: x loaded at stash time instead of held in
 * registers. On an H200 (tests/gpu/sweep_panel10.txt, sweep_panel10b.txt, rotate) panels took 0.58-0.86x of rows' time at
 * m = 8 (28672x4096: 96 against 166 us) and 0.95-1.02x at m = 32; rb=4 (160 registers) and xpre=0 were slower at both,
 * and so was rb=1 with 1-2 steps a subgroup (tests/gpu/sweep_burst10.txt).
 * An ablation (session 10) that kept only the W loads (no staging, MMAs or barriers) still took 80.5 us on 28672x4096 m=8
 * (2.9 TB/s; rows: 112), where readbw reads the same bytes in 57.4: the per-subgroup load stream itself is the cap. */
static int dense_stream_plan(vkb_case *c, long long n, long long k, int64_t m, int emu)
{
    if (!emu && !c->caps.coopmat_nv)
        return vkb_skip(c, "device lacks VK_NV_cooperative_matrix (fp16 matrix units); algo=stream_emu validates the tiling");
    if (!emu && !c->caps.f16) return vkb_skip(c, "device lacks shaderFloat16 (fp16 cooperative matrices)");
    uint32_t mt = m <= 16 ? 1 : 2;
    int64_t wn = vkb_param_int(c, "wn", 2), sr = vkb_param_int(c, "sr", m <= 16 ? 2 : 4), sk = vkb_param_int(c, "sk", m <= 16 ? 2 : 1);
    int64_t bk = vkb_param_int(c, "bk", 32), split = vkb_param_int(c, "split", 0);
    const char *lay = vkb_param_str(c, "lay", "panel");
    int panel = !strcmp(lay, "panel");
    int64_t rb = vkb_param_int(c, "rb", 2), xpre = vkb_param_int(c, "xpre", 1);
    if (dense_g_axis_given(c)) return vkb_error(c, "fold=, mt=, ts=, ln=, xc= and ub= apply to algo=coopmat_g only (algo=stream)");
    if (!panel && strcmp(lay, "rows")) return vkb_error(c, "lay=%s: expected rows or panel", lay);
    if ((rb != 1 && rb != 2 && rb != 4) || (xpre != 0 && xpre != 1))
        return vkb_error(c, "rb=%lld xpre=%lld: expected rb 1, 2 or 4 (register buffers), xpre 0 or 1", (long long)rb, (long long)xpre);
    if ((wn != 2 && wn != 4) || sr < 1 || sk < 1 || sr * sk > 16 || bk < 16 || bk > 128 || bk % 16 || split < 0 || split > 4096)
        return vkb_error(c, "wn=%lld sr=%lld sk=%lld bk=%lld split=%lld: expected wn 2 or 4, sr sk <= 16 subgroups, bk a multiple "
                         "of 16 <= 128, split 0 (auto) .. 4096", (long long)wn, (long long)sr, (long long)sk, (long long)bk,
                         (long long)split);
    uint32_t sg = c->caps.subgroup ? c->caps.subgroup : 32, sgs = (uint32_t)(sr * sk), wg = sg * sgs, ck = (uint32_t)bk / 8;
    double sub = (16.0 * (double)wn + 16.0 * mt) * (ck + 1), suby = 64.0 * (double)wn * mt;
    double shared = 16.0 * sgs * (sub > suby ? sub : suby);  /* as the shader: SUB uvec4 per subgroup */
    if (sg < 8 || sg > 128 || (16 * ck) % sg || wg > c->caps.max_wg_size || shared > c->caps.max_shared)
        return vkb_skip(c, "wn=%lld sr=%lld sk=%lld bk=%lld on this device (subgroup %u): needs a subgroup size of 8 .. 128 "
                        "dividing 2 bk, %u invocations (<= %u), %.0f B shared (<= %u)", (long long)wn, (long long)sr, (long long)sk,
                        (long long)bk, sg, wg, c->caps.max_wg_size, shared, c->caps.max_shared);
    lin_priv *p = lin_new(c, n, k, m);
    if (!p) return vkb_error(c, "out of memory");
    p->kp = ((size_t)k + 7) / 8 * 8;
    uint64_t nc = p->kp / 8, steps = (nc + ck - 1) / ck, bn = 16 * (uint64_t)wn * (uint64_t)sr;
    uint64_t gx = ((uint64_t)n + bn - 1) / bn, gz = ((uint64_t)m + 16 * mt - 1) / (16 * mt), s = (uint64_t)split;
    if (!s) {
        uint64_t cap = (uint64_t)k / (16 * (uint64_t)m), cap2 = steps / (2 * (uint64_t)sk);
        s = (2112 + gx * gz * sgs - 1) / (gx * gz * sgs);
        if (s > cap) s = cap;
        if (s > cap2) s = cap2;
        if (s < 1) s = 1;
    }
    uint64_t slices = s * (uint64_t)sk;
    if (slices > steps) slices = steps;
    uint64_t per = (steps + slices - 1) / slices * ck;  /* uvec4 per slice, whole steps */
    slices = (nc + per - 1) / per;                      /* no empty grid slice below */
    s = (slices + (uint64_t)sk - 1) / (uint64_t)sk;
    size_t rows = panel ? panel_plan(c, p, p->kp * sizeof(uint16_t), sizeof(uint16_t), 16, 1) : p->n;
    if (!rows) return vkb_error(c, "out of memory");
    int e = dense_grid_bufs(c, p, s, gx, gz, rows);
    if (e) return e;
    char shader[48];
    snprintf(shader, sizeof(shader), "dense_stream%s_w%lldx%u", emu ? "_emu" : "", (long long)wn, mt);
    uint32_t spec[8] = {wg, sg, (uint32_t)sr, (uint32_t)sk, (uint32_t)bk, (uint32_t)panel, (uint32_t)rb, (uint32_t)xpre};
    vkb_dispatch *d = vkb_add_dispatch(c, vkb_add_pipe(c, shader, 8, spec), (uint32_t)gx, (uint32_t)s, (uint32_t)gz);
    if (!d) return vkb_error(c, "out of memory");
    d->push.n = (uint32_t)n, d->push.m = (uint32_t)m, d->push.k = (uint32_t)k;
    d->push.p0 = (uint32_t)nc, d->push.p1 = (uint32_t)per, d->push.p2 = (uint32_t)s;
    if (s > 1 && dense_add_splitk(c, n, m, s)) return vkb_error(c, "out of memory");
    snprintf(c->note, sizeof(c->note), "%s %llux%u wn%lld sr%lld sk%lld bk%lld split%llu rb%lld xpre%lld %s",
             emu ? "stream_emu" : "stream", (unsigned long long)bn, 16 * mt, (long long)wn, (long long)sr, (long long)sk,
             (long long)bk, (unsigned long long)s, (long long)rb, (long long)xpre, lay);
    dense_cost(c, n, k, m);
    return 0;
}

/* ---- algo=wgs (kernels/dense_wgs_*.comp: matmul_coopmat_wg.glsl's staged workgroup-scope loop, VKB_WG_BT) ----
 * y = x W^T as the matmul C = A B with A = x (M tokens x K) and B = W^T, read column-major from row-major W: a workgroup
 * stages a 32-token x bk tile of x and a bn x bk tile of W in shared memory (two buffers), the driver's workgroup-scope
 * MulAdd (VK_NV_cooperative_matrix2) multiplies them, and the loads run `ahead` steps in flight (a ring of register
 * sets). Why: on an H200 a matmul proxy (m = N, n = 32, k = K, W as A, rotate; tests/gpu/sweep_s13h.txt) took 36.2 26.3
 * 66.2 28.8 109.9 51.2 us on the six shapes against coopmat_g's 40.6 33.5 59.5 34.3 135.7 55.8 at m=32.
 * Tunables: bn= W rows per workgroup (64), bk= K per step (64), sgs= subgroups (4), ahead= (8; the GPU stubs: 2, 3, 4, 8),
 * split= K slices summed in the kernel by the tile's last workgroup (kernels/splitk_fold.glsl; 1), bufs= shared buffers (2:
 * one barrier a step; 1: a second one before each stash, room for deeper or wider steps); bufs 1 and ahead 3 on grids of
 * 1.45 workgroups an SM or more, split to 1.94 where K >= 4096 (dense_wgs_plan). Whole tiles only:
 * m % 32 (the device's workgroup-scope granularity), n % bn, k % (split x bk); W row-major (lay=rows). The tolerance is
 * dense_f16's (fp32 sums of exact fp16 products, in any order). algo=wgs_emu runs the same staging and addressing with the
 * matrix operations emulated, on any device. */
/* Whether algo=wgs runs this tiling on this device and shape: 0, or 1 with the reason in why. */
static int dense_wgs_check(const vkb_case *c, long long n, long long k, int64_t m, int emu, uint32_t wg, int64_t bn, int64_t bk,
                           int64_t ahead, int64_t split, int64_t bufs, char *why, size_t wl)
{
    const uint32_t bm = 32;
    char w[200];
    if (!emu && !c->caps.f16) return snprintf(why, wl, "device lacks shaderFloat16 (fp16 cooperative matrices)"), 1;
    if (!emu && vkb_wg_tiling(&c->caps, wg, bm, (uint32_t)bn, (uint32_t)bk, w, sizeof(w)))
        return snprintf(why, wl, "algo=wgs: %s (algo=wgs_emu validates the tiling)", w), 1;
    if (!emu && ((wg != 128 && wg != 256) || (ahead != 2 && ahead != 3 && ahead != 4 && ahead != 8)))
        return snprintf(why, wl, "algo=wgs: %u invocations, ahead %lld: compiled for 128 and 256, ahead 2, 3, 4 and 8", wg, (long long)ahead), 1;
    if (m % bm || n % bn || k % (split * bk))
        return snprintf(why, wl, "algo=wgs takes whole tiles only: m %% %u, n %% %lld and k %% (split %lld x bk %lld) must be 0", bm,
                        (long long)bn, (long long)split, (long long)bk), 1;
    if (vkb_wg_staged(wg, bm, (uint32_t)bn, (uint32_t)bk, (uint32_t)ahead, (uint64_t)(k / split / bk), emu, w, sizeof(w)))
        return snprintf(why, wl, "algo=%s: %s", emu ? "wgs_emu" : "wgs", w), 1;
    double shared = vkb_wg_staged_shared(bm, (uint32_t)bn, (uint32_t)bk, (uint32_t)bufs, 1) + (emu ? 0 : c->caps.coopmat_wg_smem);
    if (shared > c->caps.max_shared)
        return snprintf(why, wl, "algo=wgs needs %.0f B shared memory > maxComputeSharedMemorySize %u", shared, c->caps.max_shared), 1;
    uint64_t gx = (uint64_t)n / (uint64_t)bn, gy = (uint64_t)m / bm;
    if (gx > c->caps.max_wg_count_x || gy > 65535)
        return snprintf(why, wl, "grid %llux%llux%lld exceeds this device's maxComputeWorkGroupCount", (unsigned long long)gx,
                        (unsigned long long)gy, (long long)split), 1;
    return 0;
}

/* algo=wgs's split when none is named: 2 where the tiles are fewer than 80 (under ~0.6 per SM of an H200; there split 2
 * took 24.2 / 47.2 us against 33.4 / 55.8 unsplit at 2560x6912 / 4096x14336 m=32, and lost at 96 or more tiles,
 * tests/gpu/sweep_s13i.txt) and K holds two slices of whole steps, else 1. */
static int64_t dense_wgs_split(long long n, long long k, int64_t m, int64_t bn, int64_t bk)
{
    return (n / bn) * (m / 32) < 80 && k % (2 * bk) == 0 ? 2 : 1;
}

static int dense_wgs_plan(vkb_case *c, long long n, long long k, int64_t m, int emu)
{
    if (vkb_param_str(c, "sr", NULL) || vkb_param_str(c, "sk", NULL) || vkb_param_str(c, "xpre", NULL) || vkb_param_str(c, "rb", NULL) ||
        vkb_param_str(c, "wn", NULL) || dense_g_axis_given(c))
        return vkb_error(c, "sr=, sk=, xpre=, rb=, fold=, mt=, ts=, wn=, ln=, xc= and ub= do not apply to algo=wgs (its axes: bn, bk, sgs, ahead, split, "
                         "bufs)");
    const char *lay = vkb_param_str(c, "lay", "rows");
    if (strcmp(lay, "rows")) return vkb_error(c, "lay=%s: algo=wgs reads W row-major (lay=rows)", lay);
    int64_t bn = vkb_param_int(c, "bn", 64), bk = vkb_param_int(c, "bk", 64), sgs = vkb_param_int(c, "sgs", 4);
    int64_t ahead = vkb_param_int(c, "ahead", 8), split = vkb_param_int(c, "split", 0), bufs = vkb_param_int(c, "bufs", 2);
    if (bn < 16 || bn > 256 || bn % 16 || bk < 16 || bk > 256 || bk % 16 || sgs < 1 || sgs > 16 || ahead < 1 || ahead > 16 ||
        split < 0 || split > 64 || (bufs != 1 && bufs != 2))
        return vkb_error(c, "bn=%lld bk=%lld sgs=%lld ahead=%lld split=%lld bufs=%lld: expected bn and bk multiples of 16 up to 256, "
                         "sgs 1..16, ahead 1..16, split 0 (auto) .. 64, bufs 1 or 2 (shared buffers)", (long long)bn, (long long)bk,
                         (long long)sgs, (long long)ahead, (long long)split, (long long)bufs);
    /* The defaults by grid, a set taken where none of split=, bufs= and ahead= is named (H200, bitnet.suite's nine shapes
     * at m = 32 and 64, rotate and cold; tests/gpu/sweep_s26d.txt .. s26f.txt):
     * - under 1.94 workgroups an SM (256 on the H200's 132) and K >= 4096: split 2 or 4 (K slices folded in the kernel),
     *   the first to reach 256 workgroups, into whole steps, with the next rule's buffer and ahead: 0-19% less time
     *   rotate (4096x4096: 1-5% more) and 14-30% less cold on all eight such grids, each at the best of splits 1, 2 and 4
     *   (split 8 at ahead 4 lost to 4 wherever measured);
     * - from 1.45 workgroups an SM (192) one shared buffer and loads 3 steps ahead (135 registers, three workgroups an
     *   SM; 247 and two at ahead 8): at ahead 4, 10-25% less time rotate and 19-31% cold on every such grid; ahead 3
     *   within 1-3% of 4, and 8% faster on 28672x4096 m=32 cold;
     * - else, or where one of the three is named, two buffers, ahead 8 and dense_wgs_split for those not named (the rules
     *   above made the K = 2560 grids under 192 workgroups 8-11% slower rotate). */
    int pick = !vkb_param_str(c, "split", NULL) && !vkb_param_str(c, "bufs", NULL) && !vkb_param_str(c, "ahead", NULL);
    uint64_t sms = vkb_sms(c), tiles = (uint64_t)(n / bn) * (uint64_t)(m / 32);
    if (pick && tiles * 132 < 256 * sms && k >= 4096) {
        for (split = 2; split < 4 && tiles * (uint64_t)split * 132 < 256 * sms; split *= 2) {}
        while (split > 1 && k % (split * bk)) split /= 2;
        if (split == 1) split = 0;
    }
    if (pick && (split > 1 || tiles * 132 >= 192 * sms)) bufs = 1, ahead = 3;
    if (!split) split = dense_wgs_split(n, k, m, bn, bk);
    uint32_t sg = c->caps.subgroup ? c->caps.subgroup : 32, wg = sg * (uint32_t)sgs, bm = 32;
    char why[300];
    if (dense_wgs_check(c, n, k, m, emu, wg, bn, bk, ahead, split, bufs, why, sizeof(why))) return vkb_skip(c, "%s", why);
    lin_priv *p = lin_new(c, n, k, m);
    if (!p) return vkb_error(c, "out of memory");
    p->kp = (size_t)k;  /* a multiple of bk */
    uint64_t gx = (uint64_t)n / (uint64_t)bn, gy = (uint64_t)m / bm;
    int e = dense_grid_bufs(c, p, (uint64_t)split, gx, gy, p->n);  /* w (row-major), x, y, part */
    if (e) return e;
    vkb_add_buf(c, "tickets", VKB_U32, split > 1 ? (size_t)(gx * gy) : 1, VKB_IN);  /* zero (kernels/splitk_fold.glsl) */
    char shader[48];
    if (emu) snprintf(shader, sizeof(shader), "dense_wgs_emu");
    else snprintf(shader, sizeof(shader), "dense_wgs_s%ua%lld", wg, (long long)ahead);
    uint32_t spec[7] = {wg, bm, (uint32_t)bn, (uint32_t)bk, (uint32_t)split, (uint32_t)ahead, (uint32_t)bufs};
    vkb_dispatch *d = vkb_add_dispatch(c, vkb_add_pipe(c, shader, 7, spec), (uint32_t)gx, (uint32_t)gy, (uint32_t)split);
    if (!d) return vkb_error(c, "out of memory");
    d->push.m = (uint32_t)m, d->push.n = (uint32_t)n, d->push.k = (uint32_t)k;
    snprintf(c->note, sizeof(c->note), "%s 32x%lld bk%lld sg%lld ahead%lld split%lld%s rows", emu ? "wgs_emu" : "wgs", (long long)bn,
             (long long)bk, (long long)sgs, (long long)ahead, (long long)split, bufs == 1 ? " bufs1" : "");
    dense_cost(c, n, k, m);
    return 0;
}

static int dense_coop_plan(vkb_case *c, long long n, long long k, int64_t m)
{
    /* coopmat_g (panels, wn=4; lay=frag since session 27, at dense_g_plan) at 8 <= m <= 16, stream (panels) above. On
     * an H200 (rotate, us, shapes as at linear_default_algo): session 8 (tests/gpu/sweep_dense3.txt) had the staged
     * coopmat at m=8: 49.9 30.8 76.2 36.0 131.4 68.6, m=32: 85.9 45.2 137.0 61.4 236.5 125.6; stream (rows) m=8: 42.9
     * 28.8 71.8 35.4 131.3 69.6, m=32: 74.6 31.5 112.1 52.5 174.6 93.2; coopmat_g on row-major W 5-10x slower.
     * Session 10 (sweep_cg10.txt, sweep_cg10b.txt): with W in panels coopmat_g wn=4 took m=8: 29.0 21.2 44.0 24.0 73.6 41.0 (cold 28.7 22.3 43.9 24.2 74.2 40.8), m=16:
     * 31.4 23.4 47.3 26.4 75.3 43.1, against stream's (panels) m=8 35.1 24.9 54.7 29.8 96.1 54.2, m=16 36.8 26.0 57.7
     * 31.1 123.1 56.6; at m=32 it lost (wn=4: 112.3 57.6 173.7 76.8 300.8 169.6 against 70.1 32.1 108.0 52.5 170.9 91.4).
     * Session 11 (tests/gpu/sweep_cg11b.txt): those m=32 rows held two token fragments per subgroup (mt=2). With one
     * (mt=1, wn=4) and the token blocks side by side in the grid, so that they share W through L2, coopmat_g took m=32:
     * 40.6 33.9 59.6 34.8 136.8 56.1 against stream's 70.7 32.5 109.6 53.4 175.3 92.1, and m=64: 70.5 55.0 99.6 55.0
     * 215.2 95.8 against 112.3 55.2 208.3 92.1 334.6 199.5. So coopmat_g (mt=1) to m = 64, stream above (unmeasured). */
    /* Session 13: where the device has coopmat2 and whole tiles, algo=wgs (bn 64, bk 64, ahead 8, its split rule) at m =
     * 32 and 64, 15-28% under coopmat_g on five of the six shapes (20480x3200 a tie at m=32, +4% at m=64; H200, rotate,
     * tests/gpu/sweep_s13i.txt: m=32 34.5 24.2 59.5 26.0 101.6 47.2 against 40.6 33.4 60.1 34.2 136.8 55.8, m=64 65.1
     * 37.8 103.2 45.8 177.8 76.0 against 69.5 54.2 99.2 53.9 210.1 95.2). Session 26: one shared buffer, ahead 3 and split-K
     * by grid and K (dense_wgs_plan): m=32 rotate 30.2 24.3 45.2 24.9 89.0 45.0 (tests/gpu/sweep_s26f.txt).
     * Session 30: coopmat_g with lay=fragx and two token sets (sk_default) at m=32 against wgs (H200, us, rotate / cold;
     * tests/gpu/sweep_s30.txt): 31.62 / 32.99 against 30.18 / 30.88 (13824x2560), 53.11 / 55.02 against 45.33 / 46.43
     * (20480x3200), 18.96 / 20.70 against 24.24 / 25.70 (2560x6912), 25.20 / 26.94 against 24.83 / 26.37 (6144x4096),
     * 82.64 / 84.16 against 89.88 / 87.65 (28672x4096), 44.18 / 45.31 against 45.19 / 46.46 (4096x14336). So wgs stays
     * at m=32 where K < 4096, and at K = 4096 where the 32-row tiles are fewer than 4 an SM (6144x4096); coopmat_g
     * elsewhere (K > 4096, and 28672x4096's 896 tiles).
     * Session 31: with x read past L1 (xc=1, dense_g_plan) coopmat_g took 28.71 (13824x2560) and 22.64 (6144x4096)
     * against wgs's 30.11 and 24.99, and 50.37 on 20480x3200 against 45.10 (tests/gpu/sweep_s31b.txt). So wgs stays at
     * m=32 only where K < 4096 and the 32-row tiles are at least 4 an SM (20480x3200's 640). */
    const char *algo = vkb_param_str(c, "algo", NULL);
    if (!algo) {  /* the default: wgs where its default tiling runs at m = 64, and at 32 by K and grid (above); else
                   * coopmat_g to m = 64, stream above */
        char why[300];
        uint32_t sg4 = 4 * (c->caps.subgroup ? c->caps.subgroup : 32);
        int wgs = ((m == 32 && k < 4096 && dense_many_tiles(c, n)) || m == 64) && !dense_wgs_check(c, n, k, m, 0, sg4, 64, 64, 8, dense_wgs_split(n, k, m, 64, 64), 2, why,
                                                              sizeof(why));
        algo = wgs ? "wgs" : m <= 64 ? "coopmat_g" : "stream";
    }
    if (vkb_param_str(c, "bufs", NULL) && strcmp(algo, "wgs") && strcmp(algo, "wgs_emu"))
        return vkb_error(c, "bufs= applies to algo=wgs only (algo=%s)", algo);
    if (!strcmp(algo, "coopmat_g") || !strcmp(algo, "coopmat_g_emu")) return dense_g_plan(c, n, k, m, algo[9] != 0);
    if (!strcmp(algo, "stream") || !strcmp(algo, "stream_emu")) return dense_stream_plan(c, n, k, m, algo[6] != 0);
    if (!strcmp(algo, "wgs") || !strcmp(algo, "wgs_emu")) return dense_wgs_plan(c, n, k, m, algo[3] != 0);
    if (strcmp(algo, "coopmat") && strcmp(algo, "coopmat_emu"))
        return vkb_error(c, "algo=%s: expected gemv, gemv8, gemm, coopmat, coopmat_emu, coopmat_g, coopmat_g_emu, stream, stream_emu, "
                         "wgs or wgs_emu", algo);
    int emu = !strcmp(algo, "coopmat_emu");
    if (vkb_param_str(c, "wn", NULL)) return vkb_error(c, "wn= applies to algo=coopmat_g and stream only (algo=%s)", algo);
    if (vkb_param_str(c, "sr", NULL) || vkb_param_str(c, "sk", NULL) || vkb_param_str(c, "lay", NULL) || vkb_param_str(c, "xpre", NULL) ||
        vkb_param_str(c, "rb", NULL))
        return vkb_error(c, "sr=, xpre= and rb= apply to algo=stream only, sk= and lay= to stream and coopmat_g (algo=%s)", algo);
    if (dense_g_axis_given(c)) return vkb_error(c, "fold=, mt=, ts=, ln=, xc= and ub= apply to algo=coopmat_g only (algo=%s)", algo);
    if (!emu && !c->caps.coopmat_nv)
        return vkb_skip(c, "device lacks VK_NV_cooperative_matrix (fp16 matrix units); algo=coopmat_emu validates the tiling");
    if (!emu && !c->caps.f16) return vkb_skip(c, "device lacks shaderFloat16 (fp16 cooperative matrices)");
    int64_t bn = vkb_param_int(c, "bn", 128), sgs = vkb_param_int(c, "sgs", 4), split = vkb_param_int(c, "split", 0);
    uint32_t mt = (uint32_t)(m >= 64 ? 4 : (m + 15) / 16);
    int64_t bk = 64;  /* default: the widest of 64, 32, 16 whose two stages fit in shared memory (48 KiB on NVIDIA) */
    while (bk > 16 && 32.0 * (double)((uint64_t)bn + 16 * mt) * (double)(bk / 8 + 1) > c->caps.max_shared) bk /= 2;
    bk = vkb_param_int(c, "bk", bk);
    if (bn < 16 || bn > 512 || bk < 16 || bk > 256 || bk % 16 || sgs < 1 || sgs > 16 || bn % (16 * sgs) || split < 0 || split > 4096)
        return vkb_error(c, "bn=%lld bk=%lld sgs=%lld split=%lld: expected bn a multiple of 16 sgs <= 512, bk a multiple of 16 "
                         "<= 256, sgs 1..16, split 0 (auto) .. 4096", (long long)bn, (long long)bk, (long long)sgs, (long long)split);
    uint32_t sg = c->caps.subgroup ? c->caps.subgroup : 32, wg = sg * (uint32_t)sgs, ck = (uint32_t)bk / 8;
    uint32_t buf = ((uint32_t)bn + 16 * mt) * (ck + 1);
    double shared = 16.0 * 2 * buf;  /* uvec4, two stages, as the shader */
    if (((uint32_t)bn * ck) % wg || wg > c->caps.max_wg_size || shared > c->caps.max_shared || 64 * (uint32_t)sgs > 2 * buf)
        return vkb_skip(c, "bn=%lld bk=%lld sgs=%lld on this device (subgroup %u): the W tile must split over %u invocations "
                        "(<= %u), %.0f B shared (<= %u)", (long long)bn, (long long)bk, (long long)sgs, sg, wg,
                        c->caps.max_wg_size, shared, c->caps.max_shared);
    lin_priv *p = lin_new(c, n, k, m);
    if (!p) return vkb_error(c, "out of memory");
    p->kp = ((size_t)k + 7) / 8 * 8;
    uint64_t nc = p->kp / 8, steps = (nc + ck - 1) / ck, gx = ((uint64_t)n + (uint64_t)bn - 1) / (uint64_t)bn,
             gz = ((uint64_t)m + 16 * mt - 1) / (16 * mt);
    uint64_t s = split ? (uint64_t)split : dense_split(gx * gz, steps, m, k);
    if (s > steps) s = steps;
    uint64_t per = (steps + s - 1) / s * ck;  /* uvec4 per slice, whole steps */
    s = (nc + per - 1) / per;                 /* no empty slice */
    int e = dense_grid_bufs(c, p, s, gx, gz, p->n);
    if (e) return e;
    uint32_t spec[5] = {wg, (uint32_t)bn, (uint32_t)bk, (uint32_t)sgs, mt};
    vkb_dispatch *d = vkb_add_dispatch(c, vkb_add_pipe(c, emu ? "dense_coopmat_emu" : "dense_coopmat", 5, spec),
                                       (uint32_t)gx, (uint32_t)s, (uint32_t)gz);
    if (!d) return vkb_error(c, "out of memory");
    d->push.n = (uint32_t)n, d->push.m = (uint32_t)m, d->push.k = (uint32_t)k;
    d->push.p0 = (uint32_t)nc, d->push.p1 = (uint32_t)per, d->push.p2 = (uint32_t)s;
    if (s > 1 && dense_add_splitk(c, n, m, s)) return vkb_error(c, "out of memory");
    snprintf(c->note, sizeof(c->note), "%s %lldx%u bk%lld sg%lld split%llu", emu ? "coopmat_emu" : "coopmat", (long long)bn,
             16 * mt, (long long)bk, (long long)sgs, (unsigned long long)s);
    dense_cost(c, n, k, m);
    return 0;
}

typedef struct f16_rows {
    uint16_t *h, *panel; /* rows; panel: where not NULL, the same rows placed in panels (panel_row, chunk bytes) */
    size_t k, kp, chunk;
    int frag;            /* panel in lay=frag's order (frag_row): 1, or 2 with lay=fragx's K permutation */
} f16_rows;

static void f16_chunk(gsl_rng *r, size_t lo, size_t hi, void *arg)
{
    const f16_rows *f = arg;
    for (size_t i = lo; i < hi; i++) {
        for (size_t j = 0; j < f->kp; j++)
            f->h[i * f->kp + j] = j < f->k ? vkb_f32_to_f16((float)gsl_ran_gaussian_ziggurat(r, 1.0)) : 0;
        if (f->panel && f->frag) frag_row(f->panel, f->h + i * f->kp, i, f->kp, f->frag == 2);
        else if (f->panel)  /* here, on the fill's threads: a 235 MB W took ~0.2 s more setup permuted afterwards */
            panel_row(f->panel, f->h + i * f->kp, i, f->kp * sizeof(uint16_t), f->chunk);
    }
}

static void fill_f16_rows(gsl_rng *r, uint16_t *h, uint16_t *panel, size_t chunk, int frag, size_t rows, size_t k, size_t kp)
{
    f16_rows f = {h, panel, k, kp, chunk, frag};
    vkb_par_fill(r, rows, (1u << 16) / kp + 1, f16_chunk, &f);
}

static void dense_fill(vkb_case *c, gsl_rng *r)
{
    lin_priv *p = c->priv;
    fill_f16_rows(r, lin_w(c), p->wlog ? c->buf[0].host : NULL, p->wchunk, p->wfrag, p->n, p->k, p->kp);
    fill_f16_rows(r, c->buf[1].host, NULL, 0, 0, p->m, p->k, p->kp);
    pick_outputs(c, r);
}

/* The oracle: y and S = sum |W x| of output o = t N + row, plain loop, double. */
static void dense_one(const vkb_case *c, size_t o, double *y, double *sa)
{
    const lin_priv *p = c->priv;
    const uint16_t *w = lin_w(c), *x = c->buf[1].host;
    size_t t = o / p->n, row = o % p->n;
    double s = 0, a = 0;
    for (size_t j = 0; j < p->k; j++) {
        double v = (double)vkb_f16_to_f32(w[row * p->kp + j]) * vkb_f16_to_f32(x[t * p->kp + j]);
        s += v;
        a += fabs(v);
    }
    *y = s, *sa = a;
}

static double dense_ref(vkb_case *c)
{
    lin_priv *p = c->priv;
    size_t total = p->m * p->n;
    p->want = malloc(total * sizeof(double));
    p->bound = malloc(total * sizeof(double));
    if (!p->want || !p->bound) return 1.0;
    double km1 = (double)(p->k - 1) * U32, gam = km1 / (1 - km1), work = 1.0;
    if (!p->fast) {
        for (size_t o = 0; o < total; o++) dense_one(c, o, p->want + o, p->bound + o);
    } else {
        vkb_fast_mat x = {c->buf[1].host, VKB_F16, p->kp, 0}, w = {lin_w(c), VKB_F16, p->kp, 1};
        if (vkb_fast_gemm(x, w, p->m, p->n, p->k, p->want, p->bound, &c->fast_ref_s) || !p->pick) {
            free(p->want);
            p->want = NULL;  /* the check reports the reference as out of memory */
            return 1.0;
        }
        double gd = (double)p->k * 0x1p-53, tf;
        gd /= 1 - gd;
        tf = 2 * gd / (1 - gd);
        for (size_t i = 0; i < p->npick; i++) {
            size_t o = p->pick[i];
            double y, sa;
            dense_one(c, o, &y, &sa);
            vkb_refcmp_add(&p->cmp, "y", o / p->n, o % p->n, p->want[o], y, tf * sa);
            vkb_refcmp_add(&p->cmp, "|x||W|", o / p->n, o % p->n, p->bound[o], sa, tf * sa);
        }
        work = (double)p->npick / (double)total;
    }
    for (size_t o = 0; o < total; o++) p->bound[o] *= gam;
    return work;
}

static void dense_check(vkb_case *c, vkb_check *r)
{
    lin_priv *p = c->priv;
    vkb_check_begin(r, "bound", 1);
    if (!p->want || !p->bound) {
        snprintf(r->detail, sizeof(r->detail), "reference ran out of memory");
        r->metric = NAN;
        vkb_check_end(r);
        return;
    }
    vkb_cmp_bound(r, VKB_F32, c->buf[2].host, p->want, p->m * p->n, (vkb_tol){.bound = p->bound});
    vkb_check_ref(r, p->fast ? &p->cmp : NULL, p->fast ? "blas+scalar-sample" : "scalar");
}

VKB_KERNEL(dense_f16) = {"dense_f16", "n,k,m,shape,algo,rows,mt,wg,bm,bn,bk,sgs,split,wn,sr,sk,lay,rb,xpre,fold,ts,ahead,ln,bufs,xc,ub,bind",
                         "fp16-weight GEMV/GEMM baseline for bitnet_linear: fp16 W, x; fp32 accumulate and y "
                         "(algo gemv|gemv8|gemm SIMT; coopmat, coopmat_g (the default at m 8..64) or stream (above) on matrix units; wgs on "
                         "workgroup-scope matrices (coopmat2: the default at m 64, and at 32 where K < 4096 and the grid is large); coopmat_emu, coopmat_g_emu, stream_emu, wgs_emu)",
                         dense_plan, dense_fill, dense_ref, dense_check, lin_release, "default"};
