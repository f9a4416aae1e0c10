/* bitnet_quant.h — what reference/bitnet_quant.c shares with the cases that embed its activation quantizer
 * (bitnet_layer.c), so that they check it exactly as bitnet_aquant does. */
#ifndef VKB_BITNET_QUANT_H
#define VKB_BITNET_QUANT_H
#include <stddef.h>
#include <stdint.h>
#include "vkb.h"

/* Relative bound on the GPU's RMSNorm factor r (derivation at aquant_plan) for kernels/bitnet_aquant.glsl's sum of
 * squares: nv vec4 per invocation (its spec constant 2), wg invocations (bitnet_aquant: 256), on a device of subgroup
 * size `subgroup` (0: unknown). */
double bitnet_aquant_r_bound(uint32_t subgroup, size_t nv, uint32_t wg);
/* r_ref[i] = 1 / sqrt(mean_j x[i][j]^2 + eps) in double, for the m rows of k floats of x. */
void bitnet_aquant_r_ref(const float *x, size_t m, size_t k, float eps, double *r_ref);

/* One activation quantizer's inputs and the GPU's outputs, as the check reads them. */
typedef struct bitnet_aq_rows {
    const float *x, *g;   /* x: m x k; g: the RMSNorm weight (k), NULL for variant=plain */
    const float *r, *s;   /* the GPU's r per row (read only when g) and s per row */
    const int8_t *q;      /* the GPU's codes, row stride Kp = BITNET_PAD(k) */
    const double *r_ref;  /* bitnet_aquant_r_ref's values (when g) */
    double r_bound;       /* bitnet_aquant_r_bound's value (when g) */
    size_t m, k;
} bitnet_aq_rows;
/* Checks r (when g) against r_ref, s within 2.5 ulp of 127/max(max|y|, eps), and every code bit for bit against
 * the CPU's recomputation from the GPU's own r and s; adds to r's counters (nbad, ntie, nchecked, max_rel) and
 * detail. When want is not NULL it receives the CPU's codes (m x Kp, padding 0). Returns 0, -1 out of memory. */
int bitnet_aquant_check_rows(const bitnet_aq_rows *a, vkb_check *r, int8_t *want);

#endif
