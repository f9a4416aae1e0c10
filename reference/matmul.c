/* matmul.c — C = A·B across sizes: naive, fp32 tiled (shared-memory tiles, register blocking, vec4
 * loads), fp16 storage on the same portable path, fp16 on matrix units (NV cooperative matrix).
 *
 * Layouts (all variants): A row-major M×K, B row-major K×N as given (no pre-transposed copy), C row-major
 * M×N in fp32. dtype=f16 stores A and B in fp16 (fp32 arithmetic / fp32 accumulation), C stays fp32.
 * Cost: flops = 2·M·N·K; bytes = size(A) + size(B) + size(C), each moved once.
 * Axes: m, n, k (m and k default to n: `n=512` alone is square), dtype=f32|f16, inputs=rand|int,
 * check=auto|full|freivalds, variant (table below; tile configurations are separate variants; auto, the
 * default, picks one by the rule table above mm_config and records it as auto:VARIANT).
 *
 * Tolerance (kernels.md §3.3/§3.4). Reference: double accumulation from the same stored (already
 * rounded) inputs. An fp32 inner product of length K, in any order, with or without fma, satisfies
 * |fl(Σ a_k b_k) − Σ a_k b_k| ≤ γ_K·Σ|a_k||b_k|, γ_K = K·u/(1 − K·u), u = 2⁻²⁴ (Higham §3.1).
 * fp16 inputs: a product of two fp16 values (11-bit significands) is exact in fp32, so only the fp32
 * accumulation rounds and the same bound holds with u = u₃₂. Matrix units accumulate with truncation
 * (round toward zero: error up to 2u per add, Fasi et al. 2021), so the bound is taken with c = 2:
 *     |C − C_ref|_ij ≤ 2·K·u₃₂·(|A|·|B|)_ij        (c = 2 covers RZ accumulation and γ_K's denominator)
 * Caveat: units that align a block of n_b products to the largest exponent and truncate can, for
 * adversarial inputs, reach 2(1 + 1/n_b)·K·u; random inputs stay far below (truncation errors of
 * partial sums of size ~√K against a bound of size ~K), so c = 2 is kept as kernels.md §3.4 says.
 * C is stored in fp32 as accumulated: no output rounding term.
 * inputs=int: entries in {−2..2} (exact in fp16 and fp32); every product and partial sum is an integer of
 * magnitude ≤ 4K < 2²⁴, hence exact in fp32 whatever the order or the rounding mode: compared bit-exactly.
 * fp16 random inputs avoid the fp16 subnormal range (|x| ≥ 2⁻¹³), whose handling Vulkan leaves open.
 *
 * Checks: every element of C against its bound, at every size. Axis check=:
 *   auto       the scalar oracle (plain loops, double) computes every element while M·N·K fits its budget
 *              (run --oracle-budget; default 2³⁰ multiply-adds); above, the fast reference does;
 *   full       the scalar oracle at any size;   blas   the fast reference at any size;
 *   freivalds  auto, plus NV Freivalds vectors: an additional check, never the only one.
 * Fast reference (ref_method blas+scalar-sample, cpu/fastref.h): OpenBLAS dgemm on the stored inputs
 * widened to double gives C_ref = A·B, and a second dgemm gives S = |A|·|B|, the sum in the bound. A
 * product of two fp32 (or fp16) values has at most 48 significant bits: exact in double. A double sum of
 * K such terms, in any order and with or without fma, errs by at most γ_K(u_d)·S, u_d = 2⁻⁵³ (Higham
 * §3.1). S's terms are all ≥ 0, so dgemm's S is within a relative γ_K(u_d) ≈ K·1.1e-16 (≤ 1e-9 for
 * K ≤ 2²³) of the exact sum: the bound moves by that relative amount at most, far inside the slack that
 * c = 2 already carries; and C_ref's own error, γ_K(u_d)·S, is 2⁻²⁹ of the K·u₃₂·S term, exactly as for
 * the scalar oracle. inputs=int: every partial sum is an integer of magnitude < 2⁵³, so C_ref is exact
 * and C is compared bit-exactly as with the oracle.
 * The fast reference is checked against the oracle on sampled whole rows and columns (first, last,
 * random; up to min(2²⁷, half the budget) multiply-adds each way, 4..16 of each). Both are double
 * evaluations of the same exact sums, each within γ_K(u_d)·S of it, and S ≤ Ŝ/(1 − γ_K(u_d)) for the
 * oracle's Ŝ, so they must agree within
 *     |fast − oracle| ≤ 2·γ_K(u_d)/(1 − γ_K(u_d))·Ŝ_oracle            (for C_ref and for S alike);
 * a larger difference is an ERROR that names the reference (vkb_check_ref), never a PASS.
 * Freivalds (check=freivalds): NV Rademacher vectors r ∈ {−1, +1}ᴺ; accept when for every vector and row
 *     |(C·r)_i − (A·(B·r))_i| ≤ 2·K·u₃₂·(|A|·(|B|·|r|))_i + double-rounding slack,
 * all in double. |r| = 1, so the right side is one vector for all r. If some C_ij is off by more than
 * row i's allowance, flipping r_j moves (C·r)_i by twice that error, so at most one of r and its flip
 * passes: P(miss) ≤ 1/2 per vector, ≤ 2^−NV overall. It cannot see errors confined to a few elements
 * of a row and below the row's summed allowance (kernels.md §5): hence the elementwise comparison first.
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "check.h"
#include "fastref.h"
#include "vkb.h"

enum { K_NAIVE, K_TILED, K_WARP, K_COOP, K_EMU, K_WG };  /* K_WARP: warp-tiled SIMT; K_EMU: the coopmat tiling, matrix ops
                                                          * emulated; K_WG: workgroup-scope matrices (coopmat2) */
#define ORACLE_MAX 0x1p30      /* default oracle budget: M·N·K the scalar oracle computes in full (seconds) */
#define NV 20                   /* Freivalds vectors: false accept ≤ 2^-20 */
#define C_BOUND 2.0             /* c in c·K·u */
#define U32 0x1p-24
#define UD 0x1p-53

typedef struct mm_variant {
    const char *name, *shader;  /* shader base name; dtype=f16 appends _f16 (except coopmat: f16 only) */
    int kind;
    uint32_t bm, bn, bk, tm, tn; /* tiled, warp: block tile and register tile; coop: tm × tn subgroups */
    int fixed;                   /* coop: stub SHADER_wIxJ with I × J accumulators per subgroup compiled in,
                                  * and when the sizes are multiples of the tile spec FULL = fixed: 1 shared
                                  * staging without bounds code, 2 fragments straight from global memory */
    uint32_t stages, rb, group;  /* warp: stages = shared stages (1, 2), the rest unused.
                                  * coop, shader matmul_coopmat_pipe only (stages != 0): shared stages (1, 2),
                                  * register buffers = k-steps a global load has to land (1, 2), workgroups
                                  * rasterized in groups of this many block-rows (0: plain order) */
    uint32_t split;              /* shader matmul_coopmat_s only (split != 0): K slices per workgroup (SK); then
                                  * bk is the chunk (16-deep steps x 16 loaded ahead of their MMAs) and tm x tn
                                  * the subgroups of one slice. The axes tile=, sub=, split=, chunk= override. */
    uint32_t regk;               /* shader matmul_coopmat_r only (regk != 0): every global load issued at the start,
                                  * K / bk steps of them, at most regk; tm x tn subgroups, split of them over each step's
                                  * k-steps (0 = 1). Axes tile=, sub=, split=, chunk=. */
    int wgscope;                 /* shader matmul_coopmat_wg[_emu]: one BM x BN workgroup-scope accumulator, BK-deep
                                  * tiles, tm x tn subgroups in the workgroup; 2: the tiles staged in shared memory by
                                  * our own loads (stages = shared buffers, 0 = 2: axis bufs=; split = K slices summed in
                                  * the kernel, 0 = 1; rb = steps of loads in flight, 0 = 1: axis ahead=; group = the
                                  * raster's block-rows, 0 = 1: axis group=); 3: coopmat_wg's
                                  * loads made tensor-addressed by spvkhr.c
                                  * (the twin coopmat_wg_emu validates the same addressing). Axes tile=, sub=, chunk=. */
} mm_variant;

static const mm_variant variants[] = {
    {"naive", "matmul_naive", K_NAIVE, 16, 16, 1, 1, 1, 0, 0, 0, 0, 0, 0, 0},
    {"tiled", "matmul_tiled", K_TILED, 128, 128, 8, 8, 8, 0, 0, 0, 0, 0, 0, 0},
    {"tiled_bk16", "matmul_tiled", K_TILED, 128, 128, 16, 8, 8, 0, 0, 0, 0, 0, 0, 0},
    {"tiled_128x64", "matmul_tiled", K_TILED, 128, 64, 16, 8, 4, 0, 0, 0, 0, 0, 0, 0},
    {"tiled_64", "matmul_tiled", K_TILED, 64, 64, 16, 4, 4, 0, 0, 0, 0, 0, 0, 0},
    /* Issue 16, fp32: matmul_tiled.glsl with WARP = 1: 32 invocations own a 4·TM x 8·TN warp tile, each lane TM x TN
     * in 4x4 sub-blocks 16 rows / 32 columns apart (CUTLASS SIMT sgemm). Shared bytes: wt 16896, wt16 (one stage)
     * 16896, wt256 24832. tests/gpu/sweep_fp32.txt times them against tiled on the H200. */
    {"tiled_wt", "matmul_tiled", K_WARP, 128, 128, 8, 8, 8, 0, 2, 0, 0, 0, 0, 0},     /* tiled's tile, warp tiles 32x64 */
    {"tiled_wt16", "matmul_tiled", K_WARP, 128, 128, 16, 8, 8, 0, 1, 0, 0, 0, 0, 0},  /* BK 16, one stage + prefetch */
    {"tiled_wt256", "matmul_tiled", K_WARP, 128, 256, 8, 8, 16, 0, 2, 0, 0, 0, 0, 0}, /* 8x16 per lane, warp tiles 32x128 */
    /* wt256's 8x16 per lane (217 registers on the H200: one 256-invocation workgroup per SM) in 128-invocation
     * workgroups, so that two share an SM and one's barrier overlaps the other's math: 128x128 (4 warps of 32x128)
     * and 64x256 (2 x 2 warps). Shared bytes 16768 and 20864. Both lost on the H200 (tests/gpu/sweep_fp32b.txt,
     * session 8, fp32 ms at 2048 / 4096 / 8192): wt128 0.439 / 3.584 / 27.90, wt64 0.397 / 3.138 / 24.88, against
     * wt256's 0.378 / 2.904 / 23.23. */
    {"tiled_wt128", "matmul_tiled", K_WARP, 128, 128, 8, 8, 16, 0, 2, 0, 0, 0, 0, 0},
    {"tiled_wt64", "matmul_tiled", K_WARP, 64, 256, 8, 8, 16, 0, 2, 0, 0, 0, 0, 0},
    {"coopmat", "matmul_coopmat", K_COOP, 128, 128, 32, 2, 4, 0, 0, 0, 0, 0, 0, 0},
    {"coopmat_64", "matmul_coopmat", K_COOP, 64, 64, 32, 2, 2, 0, 0, 0, 0, 0, 0, 0},
    {"coopmat_128x64", "matmul_coopmat", K_COOP, 128, 64, 32, 4, 2, 0, 0, 0, 0, 0, 0, 0},
    {"coopmat_w64", "matmul_coopmat", K_COOP, 128, 128, 32, 2, 2, 0, 0, 0, 0, 0, 0, 0},  /* 64x64 per subgroup: fewer shared reads */
    /* Compile-time accumulator grids (the peak probe's form) and no bounds code on whole tiles. */
    {"coopmat_f", "matmul_coopmat", K_COOP, 128, 128, 32, 2, 4, 1, 0, 0, 0, 0, 0, 0},      /* coopmat's tiling */
    {"coopmat_f64", "matmul_coopmat", K_COOP, 128, 128, 32, 2, 2, 1, 0, 0, 0, 0, 0, 0},    /* 64x64 per subgroup, 4 subgroups */
    {"coopmat_f256", "matmul_coopmat", K_COOP, 128, 256, 16, 2, 4, 1, 0, 0, 0, 0, 0, 0},   /* 64x64 per subgroup, 8 subgroups */
    {"coopmat_g", "matmul_coopmat", K_COOP, 128, 128, 32, 2, 4, 2, 0, 0, 0, 0, 0, 0},      /* coopmat_f, no shared staging */
    {"coopmat_g64", "matmul_coopmat", K_COOP, 128, 128, 32, 2, 2, 2, 0, 0, 0, 0, 0, 0},    /* coopmat_f64, no shared staging */
    {"coopmat_emu", "matmul_coopmat_emu", K_EMU, 64, 64, 32, 2, 2, 0, 0, 0, 0, 0, 0, 0},  /* validation only, any device */
    {"coopmat_f_emu", "matmul_coopmat_emu", K_EMU, 128, 128, 16, 2, 4, 1, 0, 0, 0, 0, 0, 0},  /* BK 16: lavapipe has 32 KiB */
    {"coopmat_f64_emu", "matmul_coopmat_emu", K_EMU, 128, 128, 16, 2, 2, 1, 0, 0, 0, 0, 0, 0},
    {"coopmat_f256_emu", "matmul_coopmat_emu", K_EMU, 128, 256, 16, 2, 4, 1, 0, 0, 0, 0, 0, 0},
    {"coopmat_g_emu", "matmul_coopmat_emu", K_EMU, 128, 128, 16, 2, 4, 2, 0, 0, 0, 0, 0, 0},
    {"coopmat_g64_emu", "matmul_coopmat_emu", K_EMU, 128, 128, 16, 2, 2, 2, 0, 0, 0, 0, 0, 0},
    /* Issue 16, pipelined (kernels/matmul_coopmat_pipe.glsl): coopmat_f256's 128x256 block, 8 subgroups of
     * 64x64, raster groups of 8 block-rows; they differ in k-depth per barrier (BK), shared stages and
     * register buffers (how many k-steps of math cover a global load). Shared bytes at 16-B row padding:
     * BK 16 x 2 stages 29184, BK 32 x 1 stage 27136, BK 32 x 2 54272, BK 64 x 2 104448. */
    {"coopmat_r16", "matmul_coopmat_pipe", K_COOP, 128, 256, 16, 2, 4, 1, 2, 1, 8, 0, 0, 0},    /* coopmat_f256 + raster */
    {"coopmat_p16", "matmul_coopmat_pipe", K_COOP, 128, 256, 16, 2, 4, 1, 2, 2, 8, 0, 0, 0},    /* loads 2 steps ahead */
    {"coopmat_p32s1", "matmul_coopmat_pipe", K_COOP, 128, 256, 32, 2, 4, 1, 1, 2, 8, 0, 0, 0},  /* fits 48 KiB */
    {"coopmat_p32", "matmul_coopmat_pipe", K_COOP, 128, 256, 32, 2, 4, 1, 2, 1, 8, 0, 0, 0},
    {"coopmat_p32r2", "matmul_coopmat_pipe", K_COOP, 128, 256, 32, 2, 4, 1, 2, 2, 8, 0, 0, 0},
    {"coopmat_p64", "matmul_coopmat_pipe", K_COOP, 128, 256, 64, 2, 4, 1, 2, 1, 8, 0, 0, 0},
    /* Smaller blocks, so that 2+ workgroups share an SM (128x256 with 8 subgroups of 64x64 keeps one: ~170
     * registers per invocation): 128x128 with 4 subgroups of 64x64 (the same reuse per subgroup, half the block)
     * and 64x128 with 4 subgroups of 32x64. Shared bytes: q128 BK 32 x 2 stages 37888; q64 BK 32 x 2 27648. */
    {"coopmat_q128", "matmul_coopmat_pipe", K_COOP, 128, 128, 32, 2, 2, 1, 2, 2, 8, 0, 0, 0},
    {"coopmat_q64", "matmul_coopmat_pipe", K_COOP, 64, 128, 32, 2, 2, 1, 2, 2, 8, 0, 0, 0},
    {"coopmat_q64b16", "matmul_coopmat_pipe", K_COOP, 64, 128, 16, 2, 2, 1, 2, 2, 8, 0, 0, 0},
    /* Their twins on lavapipe (32 KiB of shared memory): the same tiling where it fits (r16, p16, p32s1),
     * else the same BK, stages and register depth on a smaller block (p32, p32r2: 64x128, 2 subgroups of
     * 64x64; p64: 32x64, one subgroup of 32x64). */
    {"coopmat_r16_emu", "matmul_coopmat_pipe_emu", K_EMU, 128, 256, 16, 2, 4, 1, 2, 1, 8, 0, 0, 0},
    {"coopmat_p16_emu", "matmul_coopmat_pipe_emu", K_EMU, 128, 256, 16, 2, 4, 1, 2, 2, 8, 0, 0, 0},
    {"coopmat_p32s1_emu", "matmul_coopmat_pipe_emu", K_EMU, 128, 256, 32, 2, 4, 1, 1, 2, 8, 0, 0, 0},
    {"coopmat_p32_emu", "matmul_coopmat_pipe_emu", K_EMU, 64, 128, 32, 1, 2, 1, 2, 1, 8, 0, 0, 0},
    {"coopmat_p32r2_emu", "matmul_coopmat_pipe_emu", K_EMU, 64, 128, 32, 1, 2, 1, 2, 2, 8, 0, 0, 0},
    {"coopmat_p64_emu", "matmul_coopmat_pipe_emu", K_EMU, 32, 64, 64, 1, 1, 1, 2, 1, 8, 0, 0, 0},
    {"coopmat_q128_emu", "matmul_coopmat_pipe_emu", K_EMU, 128, 128, 32, 2, 2, 1, 1, 2, 8, 0, 0, 0},  /* 1 stage: 32 KiB */
    {"coopmat_q64_emu", "matmul_coopmat_pipe_emu", K_EMU, 64, 128, 32, 2, 2, 1, 2, 2, 8, 0, 0, 0},
    {"coopmat_q64b16_emu", "matmul_coopmat_pipe_emu", K_EMU, 64, 128, 16, 2, 2, 1, 2, 2, 8, 0, 0, 0},
    /* Issue 16, small sizes (kernels/matmul_coopmat_s.glsl): fragments straight from L2, no barrier in the K
     * loop, chunks of BK loaded ahead of their MMAs, split-K over SK subgroup groups of one workgroup reduced
     * through shared memory by a fixed pairwise tree (deterministic). Defaults 32x32 blocks, one subgroup per slice, 4 slices, chunks of
     * 64: n=512 gives 256 workgroups of 4 subgroups, each 128 deep. Whole tiles only (else SKIP, auto moves on). */
    {"coopmat_s", "matmul_coopmat_s", K_COOP, 32, 32, 64, 1, 1, 0, 0, 0, 0, 4, 0, 0},
    {"coopmat_s_emu", "matmul_coopmat_s_emu", K_EMU, 32, 32, 64, 1, 1, 0, 0, 0, 0, 4, 0, 0},
    /* Issue 16, small sizes (kernels/matmul_coopmat_r.glsl): the workgroup's whole A and B panels loaded into registers
     * at its start (16-byte loads, all in flight at once), then K / BK barrier steps from shared memory, each step's
     * k-steps split over 2 subgroup groups. coopmat_r: 32x64 blocks, 1x2 subgroups of 32x32 (2 x 2 accumulators) x 2,
     * BK 128, K <= 512 (48 uvec4 of loads per invocation); coopmat_r8: 64x32, 2x2 subgroups of 32x16 x 2, K <= 1024.
     * On an H200 (tests/gpu/sweep_r11.txt, sweep_r11b.txt, hot, us) coopmat_r took 5.78 at n=512 (the best of 69
     * tilings; 64x32 sub 2x2 split 1 6.01), coopmat_r8 18.79 / 30.91 at 768 / 1024. */
    {"coopmat_r", "matmul_coopmat_r", K_COOP, 32, 64, 128, 1, 2, 1, 0, 0, 0, 2, 8, 0},
    {"coopmat_r8", "matmul_coopmat_r", K_COOP, 64, 32, 128, 2, 2, 1, 0, 0, 0, 2, 8, 0},
    {"coopmat_r_emu", "matmul_coopmat_r_emu", K_EMU, 32, 64, 128, 1, 2, 1, 0, 0, 0, 2, 8, 0},
    {"coopmat_r8_emu", "matmul_coopmat_r_emu", K_EMU, 64, 32, 128, 2, 2, 1, 0, 0, 0, 2, 8, 0},
    /* Issue 16, workgroup-scope matrices (kernels/matmul_coopmat_wg.glsl, VK_NV_cooperative_matrix2 through
     * harness/spvkhr.c): coopmat_wg leaves the staging of the tiles to the driver, coopmat_wgs stages them in shared
     * memory by our loads. 128x128 blocks, BK 32, 4 subgroups. On the H200 (tests/gpu/sweep_wg12.txt, sweep_wg12b.txt,
     * hot, 4096) neither beat coopmat_p32s1 (0.733-0.737 ms): coopmat_wg's best 1.93 ms, coopmat_wgs's 0.782 (128x256,
     * chunk 16, 256 invocations). The twins validate the addressing and the staging on lavapipe. */
    {"coopmat_wg", "matmul_coopmat_wg", K_WG, 128, 128, 32, 2, 2, 0, 0, 0, 0, 0, 0, 1},
    /* coopmat_wgs: the tiles staged by our loads. Its three tilings are auto's first rules from 256^2 to 4096^2 outputs
     * where the device has coopmat2 (H200, tests/gpu/sweep_wg12e.txt, sweep_wg12f.txt, hot, us, against the rules below):
     * _s 32x64 chunk 64 on 256 invocations 4.10 / 5.58 at 256 / 512 (coopmat_r 4.39 / 5.79); the default 64x128 chunk
     * 32 on 128 13.1 / 17.1 / 59.9 at 768 / 1024 / 1536 (coopmat_r8 18.7 / 30.4, coopmat_f256 77.0); _l 128x128 chunk
     * 32 on 256 91.9 / 361.9 at 2048 / 3072 (coopmat_f256 101.8 / 447.7), 791 at 4096 (coopmat_p32s1 736).
 * _l and _xl (128x256 chunk 16 on 256) load 4 steps ahead (ahead=4, a ring of register sets, stubs _sNa4): with the
 * loads one step ahead the bigger tiles wait on L2 under load (H200, tests/gpu/sweep_s13c.txt, sweep_s13d.txt, hot, us,
 * ahead 1 / 2 / 4 / 8): _l 92.4 / 89.5 / 84.5 / 93.9 at 2048, 360 / 323 / 294 / 317 at 3072, 783 / 700 / 620 / 672 at
 * 4096, 5999 / 5342 / 4707 / 5113 at 8192; _xl 769 / 655 / 612 / 694 at 4096, 4617 at 8192 (ahead 4), against
 * coopmat_p32s1's 733 and 5534 in the same run. At 512-1024 (coopmat_wgs_s, coopmat_wgs) ahead= changes nothing
 * (sweep_s13b.txt: 5.65 / 5.64 / 5.58 at 512), so they keep one step.
 * One shared buffer (bufs=1, a second barrier a step) leaves room for deeper steps, and those won (sweep_s13j.txt,
 * sweep_s13k.txt, sweep_s13l.txt, hot, us, H100 / H200): 128x128 chunk 64 at ahead 1 took 77.1 / 77.4 at 2048, 255.8 /
 * 255.3 at 3072, 532.2 / 530.0 at 4096 (258 / 259 TFLOP/s), 1791 / 1795 at 6144, 4242 / 4333 at 8192; 128x256 chunk 32
 * at ahead 2 546.7 / 548.6 at 4096, 1743 at 6144 (H100), 4040 / 4065 at 8192 (272 / 270 TFLOP/s); ahead 3 or 4 on
 * those tiles was 10-25% slower (registers). So _l is the first (from 2^22 outputs) and _xl the second (from 2^25).
 * _k16, the two-buffer 128x256 chunk 16 at ahead 4 that was _xl before, follows them for a K that 64 does not divide
 * (k = 4112 at 4096^2: 635.9 us on an H100, sweep_s13j.txt, where coopmat_p32s1's bounds code took 3853 in sweep_s13e;
 * as auto's rule at 010d7eb+: 629.9, and 88.2 at 2048^2 x 2064, every element checked). */
    {"coopmat_wgs", "matmul_coopmat_wg", K_WG, 64, 128, 32, 2, 2, 0, 0, 0, 0, 0, 0, 2},
    {"coopmat_wgs_s", "matmul_coopmat_wg", K_WG, 32, 64, 64, 2, 4, 0, 0, 0, 0, 0, 0, 2},
    /* _m (session 41): _l's 128x128 tile on 128 invocations (2x2 subgroups of 64x64), chunk 32, one buffer, 2 steps
     * ahead: 18948 B of shared memory and 255 registers, so two workgroups an SM where _l's 35844 B hold one (an SM's
     * workgroups share 48 KiB, tests/gpu/sweep_s41d.txt): one's loads and barriers run beside the other's MMAs. On the
     * H200 (tests/gpu/sweep_s41i.txt, hot, us, against auto's _l / _xl in the same runs) 71.4 / 75.9 at 2048, 513.6-516.1
     * / 525.3-532.4 at 4096 (266-268 TFLOP/s against 258-262), 1734.9 / 1754.9 (_xl) at 6144, 2076 / 2187 at 8192 x 8320
     * x 4096, 4129 / 4134 (_xl) at 8192; but 275.7 / 250.2 at 3072, whose 576 tiles fill 3 waves of 264 to 73% where
     * _l's 5 of 132 fill 87%: so auto takes it only where its last wave is as full as _l's would be (mm_auto). 3 or 4
     * steps ahead (the registers past 255) took 190-197 TFLOP/s, 16-deep steps 230-243, rasters (group=) 264. */
    {"coopmat_wgs_m", "matmul_coopmat_wg", K_WG, 128, 128, 32, 2, 2, 0, 1, 2, 0, 0, 0, 2},
    {"coopmat_wgs_l", "matmul_coopmat_wg", K_WG, 128, 128, 64, 2, 4, 0, 1, 0, 0, 0, 0, 2},
    {"coopmat_wgs_xl", "matmul_coopmat_wg", K_WG, 128, 256, 32, 2, 4, 0, 1, 2, 0, 0, 0, 2},
    {"coopmat_wgs_k16", "matmul_coopmat_wg", K_WG, 128, 256, 16, 2, 4, 0, 0, 4, 0, 0, 0, 2},  /* 16-deep steps: any K % 16 */
    {"coopmat_wgt", "matmul_coopmat_wg", K_WG, 128, 128, 32, 2, 2, 0, 0, 0, 0, 0, 0, 3},  /* tensor-addressed loads */
    {"coopmat_wg_emu", "matmul_coopmat_wg_emu", K_EMU, 64, 64, 32, 2, 2, 0, 0, 0, 0, 0, 0, 1},
    {"coopmat_wgs_emu", "matmul_coopmat_wg_s_emu", K_EMU, 64, 64, 32, 2, 2, 0, 0, 0, 0, 0, 0, 2},
};

typedef struct priv {
    size_t m, n, k;
    int intin, fast, freivalds;  /* fast: OpenBLAS computes every element, the oracle a sample */
    int rule;                   /* variant=auto: the rule (index into rules[]) that chose; -1: named */
    char cfg[128];              /* coopmat_s, _r, _wg*: the tiling that ran (defaults or axes), for the note */
    double budget;              /* the oracle's budget (multiply-adds) */
    float *a, *b;               /* inputs as float (fp16 widened exactly); point at host for fp32 */
    int own_ab;
    double *want, *bound;       /* M×N: expected C and its bound, every element */
    size_t nrow, ncol, *rows, *cols;  /* fast: the rows and columns the oracle recomputes */
    vkb_refcmp cmp;             /* fast: how the fast reference agreed with the oracle on them */
    double *r;                  /* freivalds: N×NV, ±1 */
    double *abr, *rowb;         /* A·(B·r): M×NV; |A|·(|B|·1): M */
} priv;

static const mm_variant *find_variant(const char *name)
{
    for (size_t i = 0; i < sizeof(variants) / sizeof(variants[0]); i++)
        if (!strcmp(variants[i].name, name)) return &variants[i];
    return NULL;
}

/* variant=auto, the default: the first row whose unit and size range match the case and whose variant runs
 * on this device (tiles split over its subgroup size, shared memory, workgroup size) is the one timed, and
 * the row records it as `auto:VARIANT` with the rule in its note. Keyed on m·n (output elements), which sets
 * the workgroup count. Measured on an H200 (tests/gpu/sweep_auto.txt, us, fp16 | fp32):
 *   n=512:  coopmat_64 20.0, coopmat_f256 32.0, coopmat 55.4 | tiled_64 27.5, tiled 67.7, naive 69.2
 *   n=1024: coopmat_f256 53.8, coopmat_64 81.6, coopmat 106.8 | tiled_64 77.1, tiled 133.2
 *   n=2048: coopmat_f256 103.7, coopmat 535, coopmat_64 569 | tiled 405, tiled_64 641
 * and coopmat_f256 is the fastest at 4096 and 8192 (825 us, 6.27 ms). So the matrix units switch to the
 * 128x256 tile from 1024² outputs, the SIMT rows to the 128x128 one from 2048². Matrix units need fp16 and
 * VK_NV_cooperative_matrix; every other case takes the SIMT rows (fp32 or fp16 storage). The _emu twins
 * are validation tools, never chosen (mm_auto refuses them). The last row runs anywhere.
 * coopmat_s (split-K from L2 for small sizes, issue 16) is the first rule below 1024^2 outputs: on the H200
 * (tests/gpu/sweep_small16.txt, 2026-11-23, rotate, us) its defaults took 6.75 / 14.51 / 43.62 at n=256 / 512 / 768
 * against coopmat_64's 11.48 / 19.08 / 49.35; at 1024 coopmat_f256 (56.7) beats every coopmat_s tiling (>= 66).
 * Whole tiles only (m, n multiples of its tile, k of split x chunk): any other size SKIPs it and the next rule
 * runs. From 4096^2 outputs the pipelined coopmat_p32s1 leads (H200, tests/gpu/sweep_probe16.txt, 2026-11-23, hot:
 * 4096 728.6 us against coopmat_f256's 774.7; 8192 5.53 ms against 5.92 for f256 in the acceptance run of the same day). Its best tiling at 512 (32x64 split 4 chunk 32, 13.14 hot) was within 10% of the defaults, which stay.
 * coopmat_r and coopmat_r8 (all of K's loads in flight at once, issue 16) come first below 2^21 outputs: on the H200
 * (tests/gpu/sweep_r11.txt, sweep_r11b.txt, 2026-11-24, hot, us) 5.78 at n=512 against coopmat_s's 14.24, and 18.79 /
 * 30.91 at 768 / 1024 against auto's 43.26 (coopmat_s) / 53.80 (coopmat_f256); 4.38-4.48 at 256 against 6.42. Measured
 * to 1024^2 outputs; whole tiles and k <= 512 (r) or 1024 (r8) only, else the rules below run.
 * SIMT from 2048^2: the warp-tiled tiled_wt256 (H200, tests/gpu/sweep_fp32.txt, session 8, fp32 hot, ms) 0.376 /
 * 2.901 / 23.04 at 2048 / 4096 / 8192 against tiled's 0.397 / 3.107 / 24.64 (tiled_wt 0.388 / 3.098 / 24.06,
 * tiled_wt16 0.549 / 4.285 / 35.16); cuBLAS fp32 at 4096: 2.694 ms.
 * Where the device has VK_NV_cooperative_matrix2, coopmat_wgs's tilings come first at every size: _s and the default
 * below 2048^2 outputs, _l from there, _xl from 2^25, _m before _l from 2^22 where _xl does not run and _m's grid at
 * two workgroups an SM fills its last wave as well as _l's at one, _l where _xl's 128x256 tile does not divide and _m
 * is not taken (the variants table says what they measured); without coopmat2 they SKIP and the rules after them run
 * as before. */
typedef struct mm_rule {
    int unit;        /* 1: matrix units (fp16 + NV coopmat); 0: SIMT, any dtype */
    double mn_lo;    /* applies when m·n >= mn_lo */
    double mn_hi;    /* ... and m·n < mn_hi (0: no upper bound) */
    const char *variant, *why;
    uint32_t per_sm; /* > 0: the variant runs this many workgroups an SM, and the rule applies only where its grid
                      * fills its last wave at least as well as the same tiles at one an SM would (vkb_wave_fill) */
} mm_rule;

static const mm_rule rules[] = {
    {1, 0, 0x1p19, "coopmat_wgs_s", "matrix units, workgroup-scope matrices (coopmat2), m*n < 2^19, whole tiles", 0},
    {1, 0x1p19, 0x1p22, "coopmat_wgs", "matrix units, workgroup-scope matrices (coopmat2), m*n < 2^22, whole tiles", 0},
    {1, 0x1p25, 0, "coopmat_wgs_xl", "matrix units, workgroup-scope matrices (coopmat2), m*n >= 2^25, whole tiles", 0},
    {1, 0x1p22, 0, "coopmat_wgs_m", "matrix units, workgroup-scope matrices (coopmat2), m*n >= 2^22, whole tiles, two "
                                    "workgroups an SM filling the last wave as well as one", 2},
    {1, 0x1p22, 0, "coopmat_wgs_l", "matrix units, workgroup-scope matrices (coopmat2), m*n >= 2^22, whole tiles", 0},
    {1, 0x1p22, 0, "coopmat_wgs_k16", "matrix units, workgroup-scope matrices (coopmat2), m*n >= 2^22, k % 16 (_l's 64: no)", 0},
    {1, 0, 0x1p21, "coopmat_r", "matrix units, m*n < 2^21, whole tiles, k <= 512", 0},
    {1, 0, 0x1p21, "coopmat_r8", "matrix units, m*n < 2^21, whole tiles, k <= 1024", 0},
    {1, 0, 0x1p20, "coopmat_s", "matrix units, m*n < 1024^2, whole tiles", 0},
    {1, 0x1p24, 0, "coopmat_p32s1", "matrix units, m*n >= 4096^2", 0},
    {1, 0x1p20, 0, "coopmat_f256", "matrix units, m*n >= 1024^2", 0},
    {1, 0, 0, "coopmat_64", "matrix units, where the rules above do not run", 0},
    {0, 0x1p22, 0, "tiled_wt256", "SIMT, m*n >= 2048^2", 0},
    {0, 0x1p22, 0, "tiled", "SIMT, m*n >= 2048^2, tiled_wt256's tile does not fit", 0},
    {0, 0, 0, "tiled_64", "SIMT, m*n < 2048^2 or tiled's tile does not fit", 0},
    {0, 0, 0, "naive", "fallback: no tiled variant fits this device", 0},
};

/* The accumulator grids (WM x WN per subgroup) that have stubs matmul_coopmat_s[_emu]_wIxJ.comp. */
static const char *const s_grids[] = {"2x2", "2x4", "4x4", NULL};

/* The WM x WN accumulator grid that tile= over sub= gives each subgroup, into grid: 0 when grids (NULL-ended: the
 * compiled stubs) has it, else 1 (a SKIP) with the reason in why. */
static int mm_grid(const mm_variant *v, const char *const *grids, char *grid, size_t gl, char *why, size_t wl)
{
    char have[64] = "";
    int stub = 0;
    snprintf(grid, gl, "%ux%u", v->tm ? v->bm / (16 * v->tm) : 0, v->tn ? v->bn / (16 * v->tn) : 0);
    for (size_t i = 0; grids[i]; i++) {
        stub |= !strcmp(grid, grids[i]);
        snprintf(have + strlen(have), sizeof(have) - strlen(have), "%s%s", i ? ", " : "", grids[i]);
    }
    if (v->tm && v->tn && v->bm % (16 * v->tm) == 0 && v->bn % (16 * v->tn) == 0 && stub) return 0;
    return snprintf(why, wl, "variant %s: tile=%ux%u over sub=%ux%u subgroups gives %s accumulators per subgroup; "
                    "compiled grids are %s", v->name, v->bm, v->bn, v->tm, v->tn, grid, have), 1;
}

/* 0 when shared bytes of shared memory and a workgroup of wg invocations fit this device, else 1 with why. */
static int mm_fits(const vkb_case *c, const mm_variant *v, double shared, uint32_t wg, char *why, size_t wl)
{
    if (shared > c->caps.max_shared)
        return snprintf(why, wl, "variant %s needs %.0f B shared memory > maxComputeSharedMemorySize %u", v->name, shared,
                        c->caps.max_shared), 1;
    if (wg > c->caps.max_wg_size)
        return snprintf(why, wl, "variant %s needs workgroup %u > max %u", v->name, wg, c->caps.max_wg_size), 1;
    return 0;
}

/* mm_config for the coopmat_s family (v->split != 0): whole tiles only, so a size that is not a multiple of
 * them is a SKIP (variant=auto takes the next rule); so is a tiling without a stub or beyond the device (a
 * SKIP with the reason, so that a sweep may take the product of tile= and sub=). Spec: 1 BM, 2 BN, 3 UK = chunk / 16, 4 SM, 5 SN, 6 SK. */
static int mm_config_s(const vkb_case *c, const mm_variant *v, int64_t m, int64_t n, int64_t k, uint32_t spec[11],
                       uint32_t *nspec, char *shader, size_t sl, char *why, size_t wl)
{
    uint32_t sg = c->caps.subgroup ? c->caps.subgroup : 32;
    char grid[16];
    if (mm_grid(v, s_grids, grid, sizeof(grid), why, wl)) return 1;
    if (v->bk < 16 || v->bk % 16 || v->bk > 128 || v->split > 16)
        return snprintf(why, wl, "variant %s: chunk=%u split=%u: expected chunk 16, 32, .., 128 and split 1..16",
                        v->name, v->bk, v->split), -1;
    if (v->kind == K_EMU && (sg < 4 || sg > 64))
        return snprintf(why, wl, "variant %s: emulation needs subgroup size 4..64 (this device: %u)", v->name, sg), 1;
    if (m % v->bm || n % v->bn || k % ((int64_t)v->split * v->bk))
        return snprintf(why, wl, "variant %s takes whole tiles only: m %% %u, n %% %u and k %% (split %u x chunk %u) "
                        "must be 0", v->name, v->bm, v->bn, v->split, v->bk), 1;
    uint32_t wg = sg * v->tm * v->tn * v->split;
    double shared = 4.0 * (v->split < 2 ? 1 : v->split / 2) * v->bm * v->bn;  /* the reduction tree's slots */
    if (mm_fits(c, v, shared, wg, why, wl)) return 1;
    spec[0] = wg, spec[1] = v->bm, spec[2] = v->bn, spec[3] = v->bk / 16, spec[4] = v->tm, spec[5] = v->tn;
    spec[6] = v->split, *nspec = 7;
    snprintf(shader, sl, "%s_w%s", v->shader, grid);
    return 0;
}

/* The accumulator grids that have stubs matmul_coopmat_r[_emu]_wIxJ.comp. */
static const char *const r_grids[] = {"1x1", "2x1", "1x2", "2x2", NULL};

/* mm_config for coopmat_r (v->regk != 0): whole tiles, K / bk <= regk steps, the loads of all of them in registers
 * (<= 48 uvec4 per invocation) and one step in shared memory. Spec: 1 BM, 2 BN, 3 BK, 4 SM, 5 SN, 6 NS = K / BK. */
static int mm_config_r(const vkb_case *c, const mm_variant *v, int64_t m, int64_t n, int64_t k, uint32_t spec[11],
                       uint32_t *nspec, char *shader, size_t sl, char *why, size_t wl)
{
    uint32_t sg = c->caps.subgroup ? c->caps.subgroup : 32;
    char grid[16];
    if (mm_grid(v, r_grids, grid, sizeof(grid), why, wl)) return 1;
    if (v->kind == K_EMU && (sg < 4 || sg > 64))
        return snprintf(why, wl, "variant %s: emulation needs subgroup size 4..64 (this device: %u)", v->name, sg), 1;
    if (m % v->bm || n % v->bn || k % v->bk || k / v->bk > v->regk)
        return snprintf(why, wl, "variant %s takes whole tiles of K <= %u x chunk %u only: m %% %u, n %% %u, k %% %u must be 0",
                        v->name, v->regk, v->bk, v->bm, v->bn, v->bk), 1;
    uint32_t sk = v->split ? v->split : 1, wg = sg * v->tm * v->tn * sk, ns = (uint32_t)(k / v->bk);
    if ((v->bk / 16) % sk)
        return snprintf(why, wl, "variant %s: chunk %u is %u k-steps, not a multiple of split %u", v->name, v->bk, v->bk / 16, sk), 1;
    if ((v->bm * v->bk / 8) % wg || (v->bk * v->bn / 8) % wg)
        return snprintf(why, wl, "variant %s: tiles do not split over %u invocations (this device's subgroup size %u)",
                        v->name, wg, sg), 1;
    uint32_t regs = ns * (v->bm * v->bk / 8 + v->bk * v->bn / 8) / wg;
    double stage = 16.0 * (v->bm * (v->bk / 8 + 1) + v->bk * (v->bn / 8 + 1)), red = 4.0 * (sk - 1) * v->bm * v->bn;
    double shared = stage > red ? stage : red;  /* the reduction's blocks reuse the tiles' memory */
    if (regs > 48 && v->kind != K_EMU)  /* the emulation runs on CPU devices of 4..16-wide subgroups: no register file to fit */
        return snprintf(why, wl, "variant %s: %u uvec4 of loads per invocation (> 48: 192 registers)", v->name, regs), 1;
    if (mm_fits(c, v, shared, wg, why, wl)) return 1;
    spec[0] = wg, spec[1] = v->bm, spec[2] = v->bn, spec[3] = v->bk, spec[4] = v->tm, spec[5] = v->tn, spec[6] = ns;
    spec[7] = sk, *nspec = 8;
    snprintf(shader, sl, "%s_w%s", v->shader, grid);
    return 0;
}

/* Whether this device runs coopmat_wg* at workgroup size wg: coopmat2 on, tensor addressing for coopmat_wgt, the fp16 x
 * fp16 -> fp32 flexible configuration for wg invocations and its granularity, the workgroup limit. 0 or 1 (why). */
static int wg_device(const vkb_case *c, const mm_variant *v, uint32_t wg, char *why, size_t wl)
{
    const vkb_caps *cp = &c->caps;
    if (!cp->coopmat_wg)
        return snprintf(why, wl, "device lacks VK_NV_cooperative_matrix2 workgroup scope with flexible dimensions "
                        "(variant=%s validates the tiling)", v->wgscope == 2 ? "coopmat_wgs_emu" : "coopmat_wg_emu"), 1;
    if (v->wgscope == 3 && !cp->coopmat_tensor)
        return snprintf(why, wl, "device lacks VK_NV_cooperative_matrix2 tensor addressing"), 1;
    char w[200];
    if (vkb_wg_tiling(cp, wg, v->bm, v->bn, v->bk, w, sizeof(w))) return snprintf(why, wl, "variant %s: %s", v->name, w), 1;
    return 0;
}

/* mm_config for coopmat_wg* (v->wgscope): whole tiles, tm x tn subgroups. Spec: 1 BM, 2 BN, 3 BK, and for the staged
 * shader 4 SPLIT. */
static int mm_config_wg(const vkb_case *c, const mm_variant *v, int64_t m, int64_t n, int64_t k, uint32_t spec[11],
                        uint32_t *nspec, char *shader, size_t sl, char *why, size_t wl)
{
    uint32_t sg = c->caps.subgroup ? c->caps.subgroup : 32, wg = sg * v->tm * v->tn;
    if (v->kind == K_WG && wg_device(c, v, wg, why, wl)) return 1;
    if (v->bm % 16 || v->bn % 16 || v->bk % 16)
        return snprintf(why, wl, "variant %s: tile %ux%u chunk %u: expected multiples of 16", v->name, v->bm, v->bn, v->bk), -1;
    uint32_t slices = v->wgscope == 2 && v->split ? v->split : 1;
    if (m % v->bm || n % v->bn || k % ((int64_t)slices * v->bk))
        return snprintf(why, wl, "variant %s takes whole tiles only: m %% %u, n %% %u and k %% (split %u x chunk %u) must be 0",
                        v->name, v->bm, v->bn, slices, v->bk), 1;
    if (slices > c->caps.max_wg_count_x)  /* grid z */
        return snprintf(why, wl, "variant %s: split %u exceeds the device's workgroup count", v->name, slices), 1;
    if ((v->bm * v->bn) % wg)
        return snprintf(why, wl, "variant %s: a %ux%u block does not split over %u invocations", v->name, v->bm, v->bn, wg), 1;
    /* Staged: buffers of padded tiles, whole uvec4 loads per invocation; the driver's own shared memory besides. */
    uint32_t bufs = v->wgscope == 2 && v->stages ? v->stages : 2;  /* staged: shared buffers (axis bufs=) */
    uint32_t ahead = v->wgscope == 2 && v->rb ? v->rb : 1;
    double shared = v->wgscope == 2 ? vkb_wg_staged_shared(v->bm, v->bn, v->bk, bufs, 0) : 0;
    if (v->kind == K_WG) shared += c->caps.coopmat_wg_smem;  /* what the driver keeps back for the matrices */
    char w[200];
    if (v->wgscope == 2 && vkb_wg_staged(wg, v->bm, v->bn, v->bk, ahead, (uint64_t)(k / slices / v->bk), v->kind == K_EMU, w, sizeof(w)))
        return snprintf(why, wl, "variant %s: %s", v->name, w), 1;
    if (mm_fits(c, v, shared, wg, why, wl)) return 1;
    if (v->kind == K_WG && wg != 128 && wg != 256)  /* stubs matmul_coopmat_wg_{t,s}128, _256: see the shader */
        return snprintf(why, wl, "variant %s: %u invocations: compiled for 128 and 256 only", v->name, wg), 1;
    if (v->kind == K_WG && ahead != 1 && ahead != 2 && ahead != 3 && ahead != 4 && ahead != 8)  /* stubs _sNa2, 3, 4, 8 */
        return snprintf(why, wl, "variant %s: ahead %u: compiled for 1, 2, 3, 4 and 8 only", v->name, ahead), 1;
    spec[0] = wg, spec[1] = v->bm, spec[2] = v->bn, spec[3] = v->bk, spec[4] = slices, spec[5] = ahead, spec[6] = bufs;
    spec[7] = v->group ? v->group : 1;  /* staged: the raster (kernels/matmul_coopmat_wg.glsl wg_tile) */
    *nspec = v->wgscope == 2 ? 8 : 4;
    if (v->kind == K_WG && ahead > 1) snprintf(shader, sl, "%s_s%ua%u", v->shader, wg, ahead);
    else if (v->kind == K_WG) snprintf(shader, sl, "%s_%c%u", v->shader, "tsx"[v->wgscope - 1], wg);
    else snprintf(shader, sl, "%s", v->shader);
    return 0;
}

/* Spec constants, workgroup size and shader of variant v for this case: 0 (runs), 1 (SKIP: why), -1 (ERROR: why). */
static int mm_config(const vkb_case *c, const mm_variant *v, vkb_dtype t, int64_t m, int64_t n, int64_t k,
                     uint32_t spec[11], uint32_t *nspec, char *shader, size_t sl, char *why, size_t wl)
{
    uint32_t wg;
    double shared = 0;
    int vec;
    *nspec = 1;
    if (v->kind >= K_COOP && t != VKB_F16) return snprintf(why, wl, "variant=%s takes dtype=f16 only", v->name), -1;
    if (v->kind == K_COOP && !c->caps.coopmat_nv)
        return snprintf(why, wl, "device lacks VK_NV_cooperative_matrix (fp16 matrix units)"), 1;
    if (v->wgscope) return mm_config_wg(c, v, m, n, k, spec, nspec, shader, sl, why, wl);
    if (v->kind == K_NAIVE) {
        wg = 256;
    } else if (v->kind == K_TILED || v->kind == K_WARP) {
        uint32_t stages = v->kind == K_WARP ? v->stages : 2;
        vec = k % 4 == 0 && n % 4 == 0;
        wg = (v->bm / v->tm) * (v->bn / v->tn);
        shared = 4.0 * stages * v->bk * (v->bm + 4 + v->bn);
        /* The shader fetches whole vec4 per invocation: each tile must split evenly over the workgroup; warp
         * tiles (4·tm x 8·tn, 32 invocations) must tile the block. */
        if ((v->bm * v->bk / 4) % wg || (v->bk * v->bn / 4) % wg || v->tm % 4 || v->tn % 4 || v->bk % 4 ||
            (v->kind == K_WARP && (v->bm % (4 * v->tm) || v->bn % (8 * v->tn) || (stages != 1 && stages != 2))))
            return snprintf(why, wl, "variant %s: tiles do not split over %u invocations", v->name, wg), -1;
        spec[1] = v->bm, spec[2] = v->bn, spec[3] = v->bk, spec[4] = v->tm, spec[5] = v->tn, spec[6] = (uint32_t)vec;
        spec[7] = stages, spec[8] = v->kind == K_WARP;
        *nspec = 9;
    } else if (v->regk) {
        return mm_config_r(c, v, m, n, k, spec, nspec, shader, sl, why, wl);
    } else if (v->split) {
        return mm_config_s(c, v, m, n, k, spec, nspec, shader, sl, why, wl);
    } else {
        uint32_t sg = c->caps.subgroup ? c->caps.subgroup : 32;
        vec = k % 8 == 0 && n % 8 == 0;
        wg = sg * v->tm * v->tn;
        uint32_t buf = v->bm * (v->bk / 8 + 1) + v->bk * (v->bn / 8 + 1);  /* uvec4 per stage, as the shader */
        uint32_t stages = v->stages ? v->stages : 2;
        shared = 16.0 * stages * buf;
        /* The pipelined emulation spreads a 16x16 accumulator over the subgroup, <= 64 elements each. */
        if (v->stages && v->kind == K_EMU && (sg < 4 || sg > 64))
            return snprintf(why, wl, "variant %s: emulation needs subgroup size 4..64 (this device: %u)", v->name, sg), 1;
        /* Whole uvec4 fetches per invocation, 16x16 fragments per subgroup, edge staging (64 uvec4 per
         * subgroup) inside the two stages. */
        if ((v->bm * v->bk / 8) % wg || (v->bk * v->bn / 8) % wg || v->bk % 16 || v->bm % (16 * v->tm) ||
            v->bn % (16 * v->tn) || 64 * v->tm * v->tn > stages * buf || (v->stages && v->rb != 1 && v->rb != 2))
            return snprintf(why, wl, "variant %s: tiles do not split over %u invocations (this device's subgroup size %u)",
                            v->name, wg, sg), 1;
        spec[1] = v->bm, spec[2] = v->bn, spec[3] = v->bk, spec[4] = v->tm, spec[5] = v->tn, spec[6] = (uint32_t)vec;
        spec[7] = vec && m % v->bm == 0 && n % v->bn == 0 && k % v->bk == 0 ? (uint32_t)v->fixed : 0;
        *nspec = 8;
        if (v->stages) spec[8] = v->stages, spec[9] = v->rb, spec[10] = v->group, *nspec = 11;
    }
    if (mm_fits(c, v, shared, wg, why, wl)) return 1;
    spec[0] = wg;
    snprintf(shader, sl, "%s%s", v->shader, t == VKB_F16 && v->kind < K_COOP ? "_f16" : "");
    if (v->fixed)  /* the stub compiled with this I x J accumulator grid (kernels/matmul_coopmat*_wIxJ.comp) */
        snprintf(shader, sl, "%s_w%ux%u", v->shader, v->bm / (16 * v->tm), v->bn / (16 * v->tn));
    return 0;
}

/* variant=auto: the first rule (table above) that matches and runs; NULL when none does (*rule: its index). */
static const mm_variant *mm_auto(const vkb_case *c, vkb_dtype t, int64_t m, int64_t n, int64_t k, int *rule)
{
    int unit = t == VKB_F16 && c->caps.coopmat_nv;
    uint32_t spec[11], nspec;
    char shader[48], why[200];
    for (size_t i = 0; i < sizeof(rules) / sizeof(rules[0]); i++) {
        const mm_variant *v = find_variant(rules[i].variant);
        double mn = (double)m * (double)n;
        if (!v || v->kind == K_EMU || rules[i].unit > unit || mn < rules[i].mn_lo || (rules[i].mn_hi && mn >= rules[i].mn_hi))
            continue;
        if (mm_config(c, v, t, m, n, k, spec, &nspec, shader, sizeof(shader), why, sizeof(why))) continue;
        if (rules[i].per_sm) {
            uint64_t sms = vkb_sms(c), tiles = (uint64_t)(m / v->bm) * (uint64_t)(n / v->bn);
            if (vkb_wave_fill(tiles, rules[i].per_sm * sms) < vkb_wave_fill(tiles, sms)) continue;
        }
        *rule = (int)i;
        return v;
    }
    return NULL;
}

static int mm_plan_pipes(vkb_case *c)
{
    vkb_dtype t;
    if (vkb_case_dtype(c, &t)) return 0;
    if (t != VKB_F32 && t != VKB_F16) return vkb_error(c, "dtype %s: expected f32 or f16", c->dtype) < 0;
    if (!c->variant[0]) snprintf(c->variant, sizeof(c->variant), "auto");
    int is_auto = !strcmp(c->variant, "auto"), rule = -1;
    const mm_variant *v = is_auto ? NULL : find_variant(c->variant);
    if (!is_auto && !v)
        return vkb_error(c, "variant=%s: not a matmul variant; expected auto or one of the %zu that `vkbench list` names",
                         c->variant, sizeof(variants) / sizeof(variants[0])) < 0;
    int64_t n = vkb_param_int(c, "n", -1), m = vkb_param_int(c, "m", n), k = vkb_param_int(c, "k", n);
    if (n <= 0 || m <= 0 || k <= 0)
        return vkb_error(c, "m=%lld n=%lld k=%lld: expected positive sizes", (long long)m, (long long)n,
                         (long long)k) < 0;
    if ((double)m * (double)k >= 4294967296.0 || (double)k * (double)n >= 4294967296.0 ||
        (double)m * (double)n >= 4294967296.0)
        return vkb_error(c, "m=%lld n=%lld k=%lld: each matrix must have < 2^32 elements (32-bit indexing)",
                         (long long)m, (long long)n, (long long)k) < 0;
    const char *in = vkb_param_str(c, "inputs", "rand"), *ck = vkb_param_str(c, "check", "auto");
    if (strcmp(in, "rand") && strcmp(in, "int")) return vkb_error(c, "inputs=%s: expected rand or int", in) < 0;
    if (strcmp(ck, "auto") && strcmp(ck, "full") && strcmp(ck, "blas") && strcmp(ck, "freivalds"))
        return vkb_error(c, "check=%s: expected auto, full, blas or freivalds", ck) < 0;
    int intin = !strcmp(in, "int");
    if (intin && k > (1 << 22)) return vkb_error(c, "inputs=int needs k <= 2^22 (sums of 4k < 2^24 stay exact)") < 0;
    if (v && v->kind >= K_COOP && t != VKB_F16) return vkb_error(c, "variant=%s takes dtype=f16 only", v->name) < 0;
    if (t == VKB_F16 && !(c->caps.f16 && c->caps.storage16))
        return vkb_skip(c, "device lacks shaderFloat16 + storageBuffer16BitAccess");
    if (is_auto) {
        if (!(v = mm_auto(c, t, m, n, k, &rule))) return vkb_skip(c, "variant=auto: no variant of the rule table runs here");
        snprintf(c->variant, sizeof(c->variant), "auto:%s", v->name);
    }

    mm_variant sv;  /* coopmat_s with its axes applied */
    int has_axes = 0;
    const char *axes[] = {"tile", "sub", "split", "chunk", "ahead", "bufs", "group"};
    for (size_t i = 0; i < 7; i++) has_axes |= vkb_param_str(c, axes[i], NULL) != NULL;
    if (has_axes && (is_auto || (!v->split && !v->regk && !v->wgscope)))
        return vkb_error(c, "tile=, sub=, split=, chunk= (and ahead=, bufs=, group=) apply to variant=coopmat_s, "
                            "coopmat_r, coopmat_wg and their _emu twins only") < 0;
    if (has_axes && v->wgscope != 2 && (vkb_param_str(c, "ahead", NULL) || vkb_param_str(c, "bufs", NULL) ||
                                        vkb_param_str(c, "group", NULL) || (v->wgscope && vkb_param_str(c, "split", NULL))))
        return vkb_error(c, "ahead=, bufs=, group= (and split= among the workgroup-scope variants) apply to coopmat_wgs* only (variant=%s)",
                         v->name) < 0;
    if (has_axes) {
        sv = *v;
        const char *tile = vkb_param_str(c, "tile", NULL), *sub = vkb_param_str(c, "sub", NULL);
        char x;
        if (tile && (sscanf(tile, "%u%c%u", &sv.bm, &x, &sv.bn) != 3 || x != 'x' || !sv.bm || !sv.bn))
            return vkb_error(c, "tile=%s: expected BMxBN, e.g. 32x64", tile) < 0;
        if (sub && (sscanf(sub, "%u%c%u", &sv.tm, &x, &sv.tn) != 3 || x != 'x' || !sv.tm || !sv.tn))
            return vkb_error(c, "sub=%s: expected SMxSN subgroups per K slice, e.g. 2x2", sub) < 0;
        int64_t sp = vkb_param_int(c, "split", sv.split ? sv.split : 1), ch = vkb_param_int(c, "chunk", sv.bk);
        if (sp < 1 || sp > 16 || ch < 16 || ch > 512 || ch % 16 || (!v->regk && !v->wgscope && ch > 128))
            return vkb_error(c, "split=%lld chunk=%lld: expected split 1..16 and chunk 16, 32, .., 128 (coopmat_r: .., 512)",
                             (long long)sp, (long long)ch) < 0;
        int64_t ah = vkb_param_int(c, "ahead", sv.rb ? sv.rb : 1);
        if (ah < 1 || ah > 16) return vkb_error(c, "ahead=%lld: expected 1..16 steps of loads in flight", (long long)ah) < 0;
        int64_t bf = vkb_param_int(c, "bufs", sv.stages ? sv.stages : 2);
        if (bf != 1 && bf != 2) return vkb_error(c, "bufs=%lld: expected 1 or 2 shared buffers", (long long)bf) < 0;
        int64_t gr = vkb_param_int(c, "group", v->wgscope == 2 && sv.group ? sv.group : 1);
        if (gr < 1 || gr > 64) return vkb_error(c, "group=%lld: expected 1..64 block-rows a raster band", (long long)gr) < 0;
        sv.split = (uint32_t)sp, sv.bk = (uint32_t)ch;
        if (v->wgscope == 2) sv.rb = (uint32_t)ah, sv.stages = (uint32_t)bf, sv.group = (uint32_t)gr;
        v = &sv;
    }

    uint32_t spec[11], nspec;
    char shader[48], why[200];
    int rc = mm_config(c, v, t, m, n, k, spec, &nspec, shader, sizeof(shader), why, sizeof(why));
    if (rc) return rc < 0 ? vkb_error(c, "%s", why) < 0 : vkb_skip(c, "%s", why);
    vkb_add_buf(c, "a", t, (size_t)(m * k), VKB_IN);
    vkb_add_buf(c, "b", t, (size_t)(k * n), VKB_IN);
    vkb_add_buf(c, "c", VKB_F32, (size_t)(m * n), VKB_OUT);
    uint32_t slices = v->wgscope == 2 ? spec[4] : 1, gx = (uint32_t)((n + v->bn - 1) / v->bn);  /* mm_config_wg's */
    uint32_t gy = (uint32_t)((m + v->bm - 1) / v->bm);
    if (v->wgscope == 2) {  /* the staged shader's split-K: partial sums and the tiles' tickets (zero, kernels/splitk_fold.glsl) */
        vkb_add_buf(c, "part", VKB_F32, slices > 1 ? (size_t)slices * (size_t)(m * n) : 1, VKB_SCRATCH);
        vkb_add_buf(c, "tickets", VKB_U32, slices > 1 ? (size_t)gx * gy : 1, VKB_IN);
    }
    int p = vkb_add_pipe(c, shader, (int)nspec, spec);
    vkb_dispatch *d = vkb_add_dispatch(c, p, gx, gy, slices);
    if (d) d->push.m = (uint32_t)m, d->push.n = (uint32_t)n, d->push.k = (uint32_t)k;
    double es = (double)vkb_dtype_size(t);
    c->flops = 2.0 * (double)m * (double)n * (double)k;
    c->bytes = es * ((double)m * (double)k + (double)k * (double)n) + 4.0 * (double)m * (double)n;
    priv *pv = calloc(1, sizeof(priv));
    if (!pv) return vkb_error(c, "out of memory") < 0;
    pv->m = (size_t)m, pv->n = (size_t)n, pv->k = (size_t)k, pv->intin = intin, pv->rule = rule;
    if (v->split)
        snprintf(pv->cfg, sizeof(pv->cfg), "tile %ux%u sub %ux%u split %u chunk %u; ", v->bm, v->bn, v->tm, v->tn,
                 v->split, v->bk);
    if (v->wgscope)
        snprintf(pv->cfg, sizeof(pv->cfg), "tile %ux%u sub %ux%u chunk %u split %u ahead %u bufs %u group %u; ", v->bm, v->bn,
                 v->tm, v->tn, v->bk, v->wgscope == 2 && v->split ? v->split : 1, v->wgscope == 2 && v->rb ? v->rb : 1,
                 v->wgscope == 2 && v->stages ? v->stages : 2, v->wgscope == 2 && v->group ? v->group : 1);
    if (v->regk)
        snprintf(pv->cfg, sizeof(pv->cfg), "tile %ux%u sub %ux%u split %u chunk %u, %u steps; ", v->bm, v->bn, v->tm, v->tn,
                 v->split ? v->split : 1, v->bk, (uint32_t)(k / v->bk));
    double budget = c->oracle_budget > 0 ? c->oracle_budget : ORACLE_MAX;
    pv->freivalds = !strcmp(ck, "freivalds");
    pv->fast = !strcmp(ck, "blas") || (strcmp(ck, "full") && (double)m * (double)n * (double)k > budget);
    pv->budget = budget;
    c->priv = pv;
    return 0;
}

/* bind= (vkb_bind_twins): the staged workgroup-scope stubs (matmul_coopmat_wg_s*) have by-address twins. On an H200
 * (NVIDIA 580; tests/gpu/sweep_s38a.txt, hot, us, two runs in either order, desc -> bda) coopmat_wgs_s took 4.12-4.19 ->
 * 3.81-3.91 at 256 and 5.62-5.74 -> 5.37-5.50 at 512 (rotate 8.20-8.28 -> 7.79-7.86), coopmat_wgs 17.08-17.11 ->
 * 16.76-17.00 at 1024, noop 1.94-2.03 -> 1.67-1.70; with split=2 (the fold) 10.00-10.14 -> 10.20-10.25. The big tiles
 * (sweep_s38b.txt, s38c, four runs): _l at 4096 527.0-527.7 -> 525.5-526.3 (the same registers, 162), but _xl
 * (128x256, 242 registers) 554.3 -> 572.0-572.6 at 4096 and 4100.9-4113.4 -> 4248.4-4273.9 at 8192, 3-4% slower.
 * So by address on NVIDIA where K is not split and the tile is under 128x256; the other variants have no twin. */
static int mm_bind_default(const vkb_case *c, int i, void *arg)
{
    (void)arg;
    const vkb_pipe *p = &c->pipe[i];
    return c->caps.vendor == 0x10DE && !strncmp(p->shader, "matmul_coopmat_wg_s", 19) && !strstr(p->shader, "_emu") &&
           p->spec[4] == 1 && p->spec[1] * p->spec[2] < 128 * 256;
}

static int mm_plan(vkb_case *c)
{
    int e = vkb_bind_twins(c, mm_plan_pipes(c), mm_bind_default, NULL);
    priv *p = c->priv;
    if (!e && p && !strncmp(c->note, "; ", 2)) {  /* vkb_bind_twins's "; buffers by address (...)": mm_check writes the note */
        snprintf(p->cfg + strlen(p->cfg), sizeof(p->cfg) - strlen(p->cfg), "%s; ", c->note + 2);
        c->note[0] = '\0';
    }
    return e;
}

typedef struct fill_arg {
    float *x;
    int intin, f16;
} fill_arg;

static void fill_chunk(gsl_rng *r, size_t lo, size_t hi, void *arg)
{
    const fill_arg *f = arg;
    for (size_t i = lo; i < hi; i++) {
        if (f->intin) {
            f->x[i] = (float)((int)gsl_rng_uniform_int(r, 5) - 2);
        } else {
            double u = 2.0 * gsl_rng_uniform(r) - 1.0;
            if (f->f16 && fabs(u) < 0x1p-13) u = u < 0 ? -0x1p-13 : 0x1p-13;
            f->x[i] = (float)u;
        }
    }
}

static void fill_input(gsl_rng *r, vkb_buf *b, int intin)
{
    float *x = b->type == VKB_F32 ? b->host : malloc(b->count * sizeof(float));
    if (!x) return;
    fill_arg f = {x, intin, b->type == VKB_F16};
    vkb_par_fill(r, b->count, 1u << 16, fill_chunk, &f);
    if (b->type == VKB_F16) {
        vkb_f32_to_f16_array(x, b->host, b->count);
        free(x);
    }
}

/* Sample of n indices in [0, len): first, last, then random (repeats are harmless). */
static size_t *sample(gsl_rng *r, size_t len, size_t n)
{
    size_t *s = malloc(n * sizeof(*s));
    if (!s) return NULL;
    for (size_t i = 0; i < n; i++) s[i] = i == 0 ? 0 : i == 1 ? len - 1 : (size_t)gsl_rng_uniform_int(r, len);
    return s;
}

static size_t clampz(double x, size_t lo, size_t hi) { return x < (double)lo ? lo : x > (double)hi ? hi : (size_t)x; }

static void mm_fill(vkb_case *c, gsl_rng *r)
{
    priv *p = c->priv;
    fill_input(r, &c->buf[0], p->intin);
    fill_input(r, &c->buf[1], p->intin);
    if (p->fast) {
        /* Sampled rows cost N·K each, columns M·K: up to min(2^27, half the oracle's budget) multiply-adds
         * each way, 4..16 of each. */
        double side = fmin(0x1p27, p->budget / 2);
        p->nrow = clampz(side / ((double)p->n * (double)p->k), 4, 16);
        p->ncol = clampz(side / ((double)p->m * (double)p->k), 4, 16);
        p->rows = sample(r, p->m, p->nrow);
        p->cols = sample(r, p->n, p->ncol);
    }
    if (!p->freivalds || !(p->r = malloc(p->n * NV * sizeof(double)))) return;
    for (size_t i = 0; i < p->n * NV; i++) p->r[i] = gsl_rng_uniform_int(r, 2) ? 1.0 : -1.0;
}

static float *widen(const vkb_buf *b, int *owned)
{
    *owned = b->type != VKB_F32;
    if (!*owned) return b->host;
    float *x = malloc(b->count * sizeof(float));
    if (x)
        for (size_t i = 0; i < b->count; i++) x[i] = vkb_f16_to_f32(((const uint16_t *)b->host)[i]);
    return x;
}

/* Row i of A·B and of |A|·|B| into w[0..N), bd[0..N): plain loops, k ascending, double accumulation. */
static void ref_row(const priv *p, size_t i, double *w, double *bd)
{
    for (size_t j = 0; j < p->n; j++) w[j] = bd[j] = 0;
    for (size_t k = 0; k < p->k; k++) {
        double a = p->a[i * p->k + k];
        const float *b = p->b + k * p->n;
        for (size_t j = 0; j < p->n; j++) {
            w[j] += a * b[j];
            bd[j] += fabs(a) * fabs((double)b[j]);
        }
    }
}

/* Column j of A·B and of |A|·|B| into w[0..M), bd[0..M), likewise; col: scratch of K. */
static void ref_col(const priv *p, size_t j, double *col, double *w, double *bd)
{
    for (size_t kk = 0; kk < p->k; kk++) col[kk] = p->b[kk * p->n + j];
    for (size_t i = 0; i < p->m; i++) {
        double s = 0, sa = 0;
        for (size_t kk = 0; kk < p->k; kk++) {
            s += (double)p->a[i * p->k + kk] * col[kk];
            sa += fabs((double)p->a[i * p->k + kk]) * fabs(col[kk]);
        }
        w[i] = s, bd[i] = sa;
    }
}

/* The fast reference (want, bound = S) against the oracle on the sampled rows and columns (header). */
static void cross_check(priv *p)
{
    size_t m = p->m, n = p->n, len = m > n ? m : n;
    double g = (double)p->k * UD, tf;
    g /= 1 - g;
    tf = 2 * g / (1 - g);
    double *w = malloc(len * sizeof(double)), *bd = malloc(len * sizeof(double)), *col = malloc(p->k * sizeof(double));
    if (!w || !bd || !col || !p->rows || !p->cols) {
        vkb_refcmp_add(&p->cmp, "oracle sample out of memory", 0, 0, NAN, 0, 0);
        goto out;
    }
    for (size_t s = 0; s < p->nrow; s++) {
        size_t i = p->rows[s];
        ref_row(p, i, w, bd);
        for (size_t j = 0; j < n; j++) {
            vkb_refcmp_add(&p->cmp, "C", i, j, p->want[i * n + j], w[j], tf * bd[j]);
            vkb_refcmp_add(&p->cmp, "|A||B|", i, j, p->bound[i * n + j], bd[j], tf * bd[j]);
        }
    }
    for (size_t s = 0; s < p->ncol; s++) {
        size_t j = p->cols[s];
        ref_col(p, j, col, w, bd);
        for (size_t i = 0; i < m; i++) {
            vkb_refcmp_add(&p->cmp, "C", i, j, p->want[i * n + j], w[i], tf * bd[i]);
            vkb_refcmp_add(&p->cmp, "|A||B|", i, j, p->bound[i * n + j], bd[i], tf * bd[i]);
        }
    }
out:
    free(w), free(bd), free(col);
}

/* Freivalds, A and B side: B·r for all vectors in one pass over B, then A·(B·r) and |A|·(|B|·1). */
static void freivalds_ref(priv *p)
{
    size_t m = p->m, n = p->n, k = p->k;
    double *br = calloc(k * NV, sizeof(double)), *babs = calloc(k, sizeof(double));
    p->abr = calloc(m * NV, sizeof(double));
    p->rowb = calloc(m, sizeof(double));
    if (!br || !babs || !p->abr || !p->rowb || !p->r) {
        free(p->abr);
        p->abr = NULL;  /* the check reports the reference as out of memory */
        goto out;
    }
    for (size_t kk = 0; kk < k; kk++)
        for (size_t j = 0; j < n; j++) {
            double b = p->b[kk * n + j];
            for (int v = 0; v < NV; v++) br[kk * NV + v] += b * p->r[j * NV + v];
            babs[kk] += fabs(b);
        }
    for (size_t i = 0; i < m; i++)
        for (size_t kk = 0; kk < k; kk++) {
            double a = p->a[i * k + kk];
            for (int v = 0; v < NV; v++) p->abr[i * NV + v] += a * br[kk * NV + v];
            p->rowb[i] += fabs(a) * babs[kk];
        }
out:
    free(br);
    free(babs);
}

static double mm_ref(vkb_case *c)
{
    priv *p = c->priv;
    size_t m = p->m, n = p->n, k = p->k;
    double mnk = (double)m * (double)n * (double)k, work = mnk;
    int owna, ownb;
    p->a = widen(&c->buf[0], &owna);
    p->b = widen(&c->buf[1], &ownb);
    p->own_ab = owna;  /* both or neither are owned: same dtype */
    (void)ownb;
    p->want = malloc(m * n * sizeof(double));
    p->bound = malloc(m * n * sizeof(double));
    if (!p->a || !p->b || !p->want || !p->bound) return 1.0;
    if (p->fast) {
        vkb_fast_mat a = {p->a, VKB_F32, k, 0}, b = {p->b, VKB_F32, n, 0};
        if (vkb_fast_gemm(a, b, m, n, k, p->want, p->bound, &c->fast_ref_s)) {
            free(p->want);
            p->want = NULL;  /* the check reports the reference as out of memory */
            return 1.0;
        }
        cross_check(p);
        work = (double)(p->nrow * n * k) + (double)(p->ncol * m * k);
    } else {
        for (size_t i = 0; i < m; i++) ref_row(p, i, p->want + i * n, p->bound + i * n);
    }
    for (size_t i = 0; i < m * n; i++) p->bound[i] *= C_BOUND * U32 * (double)k;
    if (p->freivalds) {
        freivalds_ref(p);
        work += (double)NV * ((double)k * (double)n + (double)m * (double)k);
    }
    return fmin(1.0, work / mnk);
}

/* Freivalds on top of the elementwise comparison in r: a failing row and vector counts as one more bad
 * element (with its detail); passing needs every vector to pass. */
static void check_freivalds(vkb_case *c, vkb_check *r)
{
    priv *p = c->priv;
    const float *got = c->buf[2].host;
    size_t m = p->m, n = p->n, k = p->k;
    double u = p->intin ? 0 : C_BOUND * U32, cr[NV];
    for (size_t i = 0; i < m; i++) {
        double cabs = 0;
        for (int v = 0; v < NV; v++) cr[v] = 0;
        for (size_t j = 0; j < n; j++) {
            double g = got[i * n + j];
            if (!isfinite(g)) continue;  /* already counted as unwritten or NaN */
            for (int v = 0; v < NV; v++) cr[v] += g * p->r[j * NV + v];
            cabs += fabs(g);
        }
        /* Double evaluation slack: C·r and A·(B·r) are sums of N and K+N terms; integer data is exact. */
        double allowed = u * (double)k * p->rowb[i] + (p->intin ? 0 : 2.0 * (double)(n + k) * UD * (p->rowb[i] + cabs));
        for (int v = 0; v < NV; v++) {
            double e = fabs(cr[v] - p->abr[i * NV + v]);
            if (e <= allowed) continue;
            if (r->nbad < 10) {
                size_t len = strlen(r->detail);
                snprintf(r->detail + len, sizeof(r->detail) - len, "%srow %zu vec %d: |Cr-ABr|=%.3g > %.3g",
                         len ? "; " : "", i, v, e, allowed);
            }
            r->nbad++;
        }
    }
    size_t len = strlen(r->method);
    snprintf(r->method + len, sizeof(r->method) - len, "+freivalds");
    vkb_check_end(r);
}

static void mm_check(vkb_case *c, vkb_check *r)
{
    priv *p = c->priv;
    size_t mn = p->m * p->n;
    vkb_check_begin(r, p->intin ? "exact" : "bound", p->intin ? 0 : 1);
    if (!p->a || !p->b || !p->want || !p->bound || (p->freivalds && !p->abr)) {
        snprintf(r->detail, sizeof(r->detail), "reference ran out of memory");
        r->metric = NAN;
        vkb_check_end(r);
        return;
    }
    if (p->intin) {  /* exact integers: the fp32 result must be these bits */
        float *w = malloc(mn * sizeof(float));
        if (!w) {
            r->metric = NAN;
            vkb_check_end(r);
            return;
        }
        for (size_t i = 0; i < mn; i++) w[i] = (float)p->want[i];
        vkb_cmp_ulp(r, VKB_F32, c->buf[2].host, w, mn, 0);
        free(w);
    } else {
        vkb_cmp_bound(r, VKB_F32, c->buf[2].host, p->want, mn, (vkb_tol){.bound = p->bound});
    }
    if (p->freivalds) check_freivalds(c, r);
    vkb_check_ref(r, p->fast ? &p->cmp : NULL, p->fast ? "blas+scalar-sample" : "scalar");
    char ref[64] = "the scalar oracle", fv[32] = "";
    if (p->fast) snprintf(ref, sizeof(ref), "OpenBLAS dgemm, oracle-checked on %zu rows %zu cols", p->nrow, p->ncol);
    if (p->freivalds) snprintf(fv, sizeof(fv), "; + freivalds %d x r = +-1", NV);
    char rule[96] = "";
    if (p->rule >= 0) snprintf(rule, sizeof(rule), "auto rule %d (%s); ", p->rule + 1, rules[p->rule].why);
    snprintf(c->note, sizeof(c->note), "%s%severy element vs %s; %s%s", rule, p->cfg, ref,
             p->intin ? "int inputs bit-exact" : "|err| <= 2 K u32 (|A||B|)_ij", fv);
}

static void mm_release(vkb_case *c)
{
    priv *p = c->priv;
    if (!p) return;
    if (p->own_ab) {
        free(p->a);
        free(p->b);
    }
    void *blocks[] = {p->want, p->bound, p->r, p->abr, p->rowb, p->rows, p->cols};
    for (size_t i = 0; i < sizeof(blocks) / sizeof(blocks[0]); i++) free(blocks[i]);
}

VKB_KERNEL(matmul) = {"matmul", "m,n,k,dtype,inputs,check,tile,sub,split,chunk,ahead,bufs,group,bind",
                      "C = A*B, A MxK and B KxN row-major, C fp32; variants auto (default), naive, tiled*, coopmat* (fp16, matrix units)",
                      mm_plan, mm_fill, mm_ref, mm_check, mm_release,
                      "auto (recorded as auto:VARIANT, the rule in the note), tiled, naive, tiled_bk16, tiled_128x64, tiled_64, "
                      "tiled_wt, tiled_wt16, tiled_wt256, tiled_wt128, tiled_wt64 (warp tiles); fp16 on matrix units: coopmat, coopmat_64, "
                      "coopmat_128x64, coopmat_w64, coopmat_f, coopmat_f64, coopmat_f256, coopmat_g, coopmat_g64, "
                      "coopmat_r16, coopmat_p16, coopmat_p32s1, coopmat_p32, coopmat_p32r2, coopmat_p64, coopmat_q128, coopmat_q64, "
                      "coopmat_q64b16, coopmat_s (tile=, sub=, "
                      "split=, chunk=), coopmat_r, coopmat_r8 (tile=, sub=, split=, chunk=), coopmat_wg, coopmat_wgs, coopmat_wgs_s, "
                      "coopmat_wgs_l, coopmat_wgs_xl, coopmat_wgs_k16, coopmat_wgt (workgroup-scope matrices, VK_NV_cooperative_matrix2; tile=, sub=, chunk=; "
                      "coopmat_wgs*: split=, ahead=, bufs=, group=, bind=desc|bda); the same "
                      "tilings on plain FMA (any device): coopmat_emu, coopmat_f_emu, coopmat_f64_emu, coopmat_f256_emu, "
                      "coopmat_g_emu, coopmat_g64_emu, coopmat_r16_emu, coopmat_p16_emu, coopmat_p32s1_emu, "
                      "coopmat_p32_emu, coopmat_p32r2_emu, coopmat_p64_emu, coopmat_q128_emu, coopmat_q64_emu, coopmat_q64b16_emu, "
                      "coopmat_s_emu, coopmat_r_emu, coopmat_r8_emu, coopmat_wg_emu, coopmat_wgs_emu"};
