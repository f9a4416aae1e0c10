#version 450
// Outputs, sorted by decreasing sigma (one workgroup per source column c): its rank is the number of
// columns with a larger sigma (ties broken by index); s[rank] = sigma_c, u[:, rank] = x_c / sigma_c,
// v[:, rank] = y_c. A zero sigma leaves a zero column of u (the orthogonality check then says so).
#extension GL_GOOGLE_include_directive : require
#include "svd_common.glsl"
layout(binding = 1) writeonly buffer U { float u[]; };
layout(binding = 2) writeonly buffer S { float s[]; };
layout(binding = 3) writeonly buffer V { float v[]; };
shared uint cnt[gl_WorkGroupSize.x];

void main() {
    uint c = vkb_group_id(), lid = gl_LocalInvocationID.x, wg = gl_WorkGroupSize.x, n = pc.n, m = pc.m;
    if (c >= n) return;
    uint s0 = svd_sig0();
    float sc = ws[s0 + c];
    uint k = 0u;
    for (uint j = lid; j < n; j += wg) {
        float sj = ws[s0 + j];
        if (sj > sc || (sj == sc && j < c)) ++k;
    }
    cnt[lid] = k;
    barrier();
    for (uint h = wg / 2u; h > 0u; h /= 2u) {
        if (lid < h) cnt[lid] += cnt[lid + h];
        barrier();
    }
    uint rank = cnt[0];
    float inv = sc > 0.0 ? 1.0 / sc : 0.0;
    for (uint i = lid; i < m; i += wg) u[i * n + rank] = ws[c * m + i] * inv;
    for (uint i = lid; i < n; i += wg) v[i * n + rank] = ws[svd_y0() + c * n + i];
    if (lid == 0u) s[rank] = sc;
}
