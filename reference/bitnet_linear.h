/* bitnet_linear.h — what reference/bitnet_linear.c shares with the cases that embed a BitLinear (bitnet_layer.c). */
#ifndef VKB_BITNET_LINEAR_H
#define VKB_BITNET_LINEAR_H
#include <stddef.h>
#include <stdint.h>
#include "vkb.h"

/* Plans algo=gemv_sg (kernels/bitnet_gemv_sg.glsl) for N = n rows, M = m tokens and nc 64-weight groups per row on
 * a device of subgroup size sg, from c's axes rows, mt, split, lanes, gpt, wg (the batch-1 default rule is at the
 * definition; min_sg: the fewest subgroups per workgroup wg defaults to). On success fills spec[0..4] (wg, R, MT,
 * G, T; spec[5] = per= for algo=gemv_ps, so spec has room for 6) and the grid *gx x *gy, writes c->note, returns 0;
 * else returns vkb_error's -1 or vkb_skip's 1. The shader's bindings: 0 W, 1 gamma', 2 xq, 3 s, 4 y. */
int bitnet_sg_plan(vkb_case *c, long long n, int64_t m, size_t nc, uint32_t sg, uint32_t min_sg, uint32_t spec[],
                   uint32_t *gx, uint32_t *gy);

/* Fills the n x kp packed ternary codes w (layout T2, zeroed; kp a multiple of 16, codes past k are w = 0) from r on
 * all cores (vkb_par_fill): ~31% -1, ~31% 0, ~38% +1, and with n >= 8 rows 0, 1, 2 all 0, all +1, all -1. */
void bitnet_fill_codes(gsl_rng *r, uint32_t *w, size_t n, size_t k, size_t kp);

/* Checks every BitLinear output y (M x N) against its exact accumulator acc (kernels.md §1): |y - acc g/s| <= 6.01 u
 * |acc g/s| and, while |acc| < 2^20, rint(y s / g) == acc exactly; a poisoned output is unwritten. mark (or NULL)
 * goes into r->detail before the first bad output when fewer than 10 were bad before (bitnet_layer: its codes come
 * first). Sets nmse and metric (bad + unwritten) and ends the check; the caller adds vkb_check_ref. */
void bitnet_check_y(vkb_check *r, const float *y, const int64_t *acc, const float *s, double g, size_t m, size_t n,
                    const char *mark);

/* Plans bitnet_linear algo=mma (emu = 0) or mma_emu (kernels/bitnet_mma.glsl) for N = n rows, K = k, M = m tokens and
 * nc 64-weight groups per row, after the caller has added the buffers w, gamma, x, s, y (reference/bitnet_linear.c);
 * adds the split-K scratch, the dispatches, c->note, bytes and flops. Returns 0, or vkb_error's -1 or vkb_skip's 1. */
int bitnet_mma_plan(vkb_case *c, long long n, long long k, int64_t m, size_t nc, int emu);
int bitnet_mma_sg_plan(vkb_case *c, long long n, long long k, int64_t m, size_t nc, int emu, int panel);
/* algo=mma_kp / mma_kp_emu (kernels/bitnet_mma_kp.glsl): as bitnet_mma_sg_plan, K parts in the workgroup, one dispatch. */
int bitnet_mma_kp_plan(vkb_case *c, long long n, long long k, int64_t m, size_t nc, int emu, int panel);

/* Whether N rows make at least 4 32-row tiles for each of sms SMs: at m=32 the wgs rule (dense_coop_plan), and
 * coopmat_g's wide tiling and x view (dense_g_plan) turn on it. */
static inline int dense_many_tiles_n(uint64_t n, uint64_t sms) { return (n + 31) / 32 >= 4 * sms; }

/* bitnet_linear algo=hmma's default 16-row panels per subgroup at 16x8x16 MMAs (ln=8; reference/bitnet_linear.c hmma_plan,
 * where it is measured) for npan 16-row panels, gy token tiles and sms SMs: 4 where 64-row tiles are at least 3 for each
 * SM, else 2 (half the code per step: a cold dispatch fetches less). */
static inline int64_t bitnet_hmma_n8_wn(uint64_t npan, uint64_t gy, uint64_t sms) { return (npan + 3) / 4 * gy >= 3 * sms ? 4 : 2; }

/* dense_f16 algo=coopmat_g's wide tiling (reference/bitnet_linear.c dense_g_plan, where it is measured): 16 < m <= 32
 * tokens, K >= 4096 and N at least 4 32-row tiles for each of sms SMs. Its default there: 64-row subgroups (wn=4) in two
 * K parts, x past L1, two blocks of K steps an iteration (ub=2). */
static inline int dense_g_wide(uint64_t n, uint64_t k, int64_t m, uint64_t sms)
{
    return m > 16 && m <= 32 && k >= 4096 && dense_many_tiles_n(n, sms);
}

/* dense_f16 algo=coopmat_g's long-K tiling (dense_g_plan, measured there): 16 < m <= 32 tokens and K >= 8192 where the
 * wide tiling does not apply. Its default there: one token set a workgroup (the two token blocks side by side in the
 * grid), 8 K parts, x past L1, ub=2. */
static inline int dense_g_longk(uint64_t n, uint64_t k, int64_t m, uint64_t sms)
{
    return m > 16 && m <= 32 && k >= 8192 && !dense_g_wide(n, k, m, sms);
}

/* uvec4 of shared memory an xs=1 mma_kp workgroup of sgs subgroups and sk K parts holds (kernels/bitnet_mma_kp.glsl's
 * sm[]): its W slabs, the ones and the parts' x stages, or the staged accumulators laid over all of them, the larger. */
static inline uint64_t bitnet_kp_xs_words(uint64_t sgs, uint64_t sk, uint64_t slab, uint64_t part, uint64_t acc, uint64_t ones)
{
    uint64_t loop = sgs * slab + ones + sk * part;
    return loop > sgs * acc ? loop : sgs * acc;
}

/* mma_kp's shared x stage by grid (xs=1; the caller takes it at a 32-token tile, gs=1, where none of xs, wn, sk, sgs is
 * given; the measurements are at its call in reference/bitnet_mma.c). For tiles 32-row x 32-token tiles, nc 64-weight
 * groups a row, sms SMs and words uvec4 of shared memory a workgroup, and the kernel's uvec4 counts at its wn (slab: a
 * subgroup's W slab; part: a K part's two x stages; acc: a subgroup's staged accumulators, which go over all the rest
 * after the loop; ones: the block of ones): SR = the row tiles a workgroup that one wave of workgroups needs; SR 4..6
 * take the most K parts sk (>= 2) whose SR sk <= 12 subgroups fit, SR >= 7 sk=1 sgs=4 (two or more workgroups an SM).
 * Returns 1 with *sk, *sgs; 0 (nothing set) below 40 groups a row, below SR 4, or where nothing fits. */
static inline int bitnet_kp_xs_rule(uint64_t tiles, uint64_t nc, uint64_t sms, uint64_t words, uint64_t slab,
                                    uint64_t part, uint64_t acc, uint64_t ones, int64_t *sk, int64_t *sgs)
{
    uint64_t sr = (tiles + sms - 1) / sms;
    if (nc < 40 || sr < 4) return 0;
    for (uint64_t k = sr >= 7 ? 1 : 12 / sr; k >= (sr >= 7 ? 1u : 2u); k--) {
        uint64_t g = sr >= 7 ? 4 : sr * k;
        if (bitnet_kp_xs_words(g, k, slab, part, acc, ones) <= words) {
            *sk = (int64_t)k, *sgs = (int64_t)g;
            return 1;
        }
    }
    return 0;
}

/* mma_kp's groups a stage with the shared x stage that bitnet_kp_xs_rule chose (xs=1, gs not given): 2 where one token
 * tile holds every token (gz == 1), or two tiles do with one K part (gz == 2, sk == 1), and the two-group x stages
 * (part2: a K part's two stages of two groups) fit beside the one-group W slabs in words uvec4, else 1 (the
 * measurements are at its call in reference/bitnet_mma.c). */
static inline int64_t bitnet_kp_xs_gs(uint64_t gz, uint64_t sgs, uint64_t sk, uint64_t slab, uint64_t part2, uint64_t acc,
                                      uint64_t ones, uint64_t words)
{
    return (gz == 1 || (gz == 2 && sk == 1)) && bitnet_kp_xs_words(sgs, sk, slab, part2, acc, ones) <= words ? 2 : 1;
}

/* Workgroups of wgw uvec4 of shared memory that sms SMs hold at once where an SM's resident workgroups share words
 * uvec4 between them: NVIDIA's driver on an H200 gives an SM the one workgroup limit, 48 KiB, in all (a 16 KiB
 * workgroup ran three an SM, 17 KiB two whatever the registers; tests/gpu/sweep_s41d.txt). */
static inline uint64_t bitnet_wave(uint64_t sms, uint64_t wgw, uint64_t words) { return sms * (words / wgw); }

/* mma_kp's subgroups a workgroup at two token tiles with gs=2 on the xs rule's sk=1 (bitnet_kp_xs_gs), for tiles
 * 32-row tiles and the kernel's uvec4 counts as there: 5 instead of the rule's 4 where 4's grid (ceil(tiles / 4) x 2
 * workgroups) is more than one wave (bitnet_wave) and 5's is not, else 4 (the measurements are at its call in
 * reference/bitnet_mma.c). */
static inline int64_t bitnet_kp_xs_sgs2(uint64_t tiles, uint64_t sms, uint64_t slab, uint64_t part2, uint64_t acc,
                                        uint64_t ones, uint64_t words)
{
    uint64_t w4 = bitnet_kp_xs_words(4, 1, slab, part2, acc, ones), w5 = bitnet_kp_xs_words(5, 1, slab, part2, acc, ones);
    return (tiles + 3) / 4 * 2 > bitnet_wave(sms, w4, words) && w5 <= words && (tiles + 4) / 5 * 2 <= bitnet_wave(sms, w5, words) ? 5 : 4;
}

#endif
