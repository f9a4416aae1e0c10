// Row-wise kernels on a rows x cols row-major matrix, one workgroup per row (spec 1 = op):
//   0 rowsum, 1 rowmax  -> out[row] (fp32)
//   2 softmax           -> y[row, :] = exp(x - max) / sum(exp(x - max))
//   3 rmsnorm           -> y[row, :] = x * g / sqrt(mean(x^2) + eps)     (g: cols weights)
// Each invocation walks its columns j = lid, lid + WG, ... sequentially, then a shared-memory binary
// tree combines the WG partials: reference/rows.c's error bounds count exactly this order.
#include "common.glsl"
#include "types.glsl"
layout(constant_id = 1) const uint OP = 0u;
layout(binding = 0) readonly buffer X { T x[]; };
layout(binding = 1) writeonly buffer Y { T y[]; };        // softmax, rmsnorm
layout(binding = 2) writeonly buffer O { float outv[]; }; // rowsum, rowmax
layout(binding = 3) readonly buffer G { T g[]; };         // rmsnorm weights
shared float red[1024];

float tree(float v, bool is_max) {
    uint lid = gl_LocalInvocationID.x;
    barrier();                 // red[] may still be read by a previous tree
    red[lid] = v;
    barrier();
    for (uint s = gl_WorkGroupSize.x / 2u; s > 0u; s >>= 1u) {
        if (lid < s) red[lid] = is_max ? max(red[lid], red[lid + s]) : red[lid] + red[lid + s];
        barrier();
    }
    return red[0];
}

void main() {
    uint row = vkb_group_id();
    if (row >= pc.n) return;   // uniform per workgroup
    uint cols = pc.m, lid = gl_LocalInvocationID.x, base = row * cols, wg = gl_WorkGroupSize.x;
    const float ninf = uintBitsToFloat(0xff800000u);
    if (OP == 0u || OP == 1u) {
        float a = OP == 0u ? 0.0 : ninf;
        for (uint j = lid; j < cols; j += wg) a = OP == 0u ? a + float(x[base + j]) : max(a, float(x[base + j]));
        float r = tree(a, OP == 1u);
        if (lid == 0u) outv[row] = r;
    } else if (OP == 2u) {
        float m = ninf;
        for (uint j = lid; j < cols; j += wg) m = max(m, float(x[base + j]));
        m = tree(m, true);
        float s = 0.0;
        for (uint j = lid; j < cols; j += wg) s += exp(float(x[base + j]) - m);
        s = tree(s, false);
        for (uint j = lid; j < cols; j += wg) y[base + j] = T(exp(float(x[base + j]) - m) / s);
    } else {
        float s = 0.0;
        for (uint j = lid; j < cols; j += wg) { float v = float(x[base + j]); s += v * v; }
        s = tree(s, false);
        float r = inversesqrt(s * (1.0 / float(cols)) + pc.eps);
        for (uint j = lid; j < cols; j += wg) y[base + j] = T(float(x[base + j]) * float(g[j]) * r);
    }
}
