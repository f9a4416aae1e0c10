#version 450
// Jacobi SVD step 0: X = A^T (columns made contiguous), Y = I, counters cleared.
#extension GL_GOOGLE_include_directive : require
#include "svd_common.glsl"
layout(binding = 0) readonly buffer A { float a[]; };

void main() {
    uint e = vkb_global_id(), n = pc.n, m = pc.m;
    if (e < m * n) ws[(e % n) * m + e / n] = a[e];
    if (e < n * n) ws[svd_y0() + e] = e / n == e % n ? 1.0 : 0.0;
    if (e < 3u) info[e] = 0u;
}
