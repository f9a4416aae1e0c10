#version 450
#extension GL_GOOGLE_include_directive : require
// An fp32 rmsnorm AT the error bound, for tests/run.sh (`--shader rows=rmsnorm_at_bound`, cols=1024),
// bindings as rows.glsl: the exact result (fp64) times 1 + 14.5u (u = 2^-24), rounded to fp32: 13.5u..15.5u
// relative. Not a bug: rows.glsl's worst case at cols = 1024 (k = 4 + 8 chained roundings) is
// gamma_{k+8}/2 + 6u ~ 16u, the division 1.0 / float(cols) counted at Vulkan's 2.5 ULP (<= 5u). A bound that
// counts that division as one rounding (gamma_{k+4}/2 + 6u ~ 14u) is tighter than true and rejects it.
#include "common.glsl"
layout(binding = 0) readonly buffer X { float x[]; };
layout(binding = 1) writeonly buffer Y { float y[]; };
layout(binding = 2) writeonly buffer O { float outv[]; };
layout(binding = 3) readonly buffer G { float g[]; };
void main() {
    uint row = vkb_group_id();
    if (row >= pc.n) return;   // uniform per workgroup
    uint cols = pc.m, base = row * cols;
    double s = 0.0LF;
    for (uint j = 0u; j < cols; ++j) s += double(x[base + j]) * double(x[base + j]);
    double r = 1.0LF / sqrt(s / double(cols) + double(pc.eps));
    for (uint j = gl_LocalInvocationID.x; j < cols; j += gl_WorkGroupSize.x)
        y[base + j] = float(double(x[base + j]) * double(g[j]) * r * (1.0LF + 14.5LF / 16777216.0LF));
}
