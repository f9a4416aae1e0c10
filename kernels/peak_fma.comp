#version 450
// fp32 FMA peak probe: 8 chains per invocation, every step an fma whose multiplier is another live
// chain, so no two steps can be merged (a chain c = a*c + b with invariant a, b folds into one fma per
// two steps and reports twice the real rate); every starting value comes from a buffer.
//   sign chains     s_i <- fma(s_i, s_{i+1}, z_i)   values +-1, z_i = 0 at run time (the compiler cannot
//                                                   know): a long-period sign sequence
//   counter chains  c_i <- fma(c_i, s_i, k_r)       k in {1, 2}, rotating per round: integer-valued
// Everything stays an integer of magnitude <= 2 + 16 * iters < 2^24, so fused or not the arithmetic is
// exact and the result, which depends on the exact number of steps, is compared bit for bit.
// Push: pc.n invocations, pc.m iterations of 8 rounds x 8 fma, pc.p0 distinct input sets (invocation i
// reads set i % p0), pc.p1 invocations that store their results: a run-time count, so all work is live.
#extension GL_GOOGLE_include_directive : require
#include "common.glsl"
layout(binding = 0) readonly buffer X { float x[]; };   // p0 sets of s_0..s_3, c_0..c_3
layout(binding = 1) readonly buffer K { float k[]; };   // z_0..z_3 (zeros), k_0..k_3
layout(binding = 2) writeonly buffer Y { float y[]; };  // p1 x 8 results

#define ROUND(a, b, c, d)                                                                              \
    s0 = fma(s0, s1, z0); s1 = fma(s1, s2, z1); s2 = fma(s2, s3, z2); s3 = fma(s3, s0, z3);            \
    c0 = fma(c0, s0, a); c1 = fma(c1, s1, b); c2 = fma(c2, s2, c); c3 = fma(c3, s3, d);

void main() {
    uint gid = vkb_global_id();
    if (gid >= pc.n) return;
    uint i = 8u * (gid % pc.p0);
    float s0 = x[i], s1 = x[i + 1u], s2 = x[i + 2u], s3 = x[i + 3u];
    float c0 = x[i + 4u], c1 = x[i + 5u], c2 = x[i + 6u], c3 = x[i + 7u];
    float z0 = k[0], z1 = k[1], z2 = k[2], z3 = k[3], k0 = k[4], k1 = k[5], k2 = k[6], k3 = k[7];
    for (uint it = 0u; it < pc.m; ++it) {
        ROUND(k0, k1, k2, k3)
        ROUND(k1, k2, k3, k0)
        ROUND(k2, k3, k0, k1)
        ROUND(k3, k0, k1, k2)
        ROUND(k0, k1, k2, k3)
        ROUND(k1, k2, k3, k0)
        ROUND(k2, k3, k0, k1)
        ROUND(k3, k0, k1, k2)
    }
    if (gid < pc.p1) {
        y[8u * gid] = s0; y[8u * gid + 1u] = s1; y[8u * gid + 2u] = s2; y[8u * gid + 3u] = s3;
        y[8u * gid + 4u] = c0; y[8u * gid + 5u] = c1; y[8u * gid + 6u] = c2; y[8u * gid + 7u] = c3;
    }
}
