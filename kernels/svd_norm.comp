#version 450
// sigma_c = |x_c| (one workgroup per column).
#extension GL_GOOGLE_include_directive : require
#include "svd_common.glsl"
shared float red[gl_WorkGroupSize.x];

void main() {
    uint c = vkb_group_id(), lid = gl_LocalInvocationID.x, wg = gl_WorkGroupSize.x, m = pc.m;
    if (c >= pc.n) return;
    float s = 0.0;
    for (uint i = lid; i < m; i += wg) s += ws[c * m + i] * ws[c * m + i];
    red[lid] = s;
    barrier();
    for (uint h = wg / 2u; h > 0u; h /= 2u) {
        if (lid < h) red[lid] += red[lid + h];
        barrier();
    }
    if (lid == 0u) ws[svd_sig0() + c] = sqrt(red[0]);
}
