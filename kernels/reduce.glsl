// Whole-vector sum or max in two dispatches (spec 1 = op: 0 sum, 1 max; spec 2 = stage).
// Stage 0: each of G workgroups strides over the input in vec4s (4 independent accumulators per
//   invocation), folds the lanes as (x+y)+(z+w), then a shared-memory binary tree; writes partial[g].
// Stage 1: one workgroup reduces the G partials the same way and writes out[0].
// The exact operation order is what reference/reduce.c's error bound counts: keep them in step.
#include "common.glsl"
#include "types.glsl"
layout(constant_id = 1) const uint OP = 0u;
layout(constant_id = 2) const uint STAGE = 0u;
layout(binding = 0) readonly buffer X4 { T4 x4[]; };
layout(binding = 0) readonly buffer X1 { T x1[]; };
layout(binding = 1) buffer P { float part[]; };
layout(binding = 2) writeonly buffer O { float outv[]; };
shared float red[1024];

float comb(float a, float b) { return OP == 0u ? a + b : max(a, b); }

void main() {
    const float ident = OP == 0u ? 0.0 : uintBitsToFloat(0xff800000u);  // -inf for max
    uint lid = gl_LocalInvocationID.x;
    float acc;
    if (STAGE == 0u) {
        uint n = pc.n, nv = n / 4u, stride = gl_NumWorkGroups.x * gl_WorkGroupSize.x;
        vec4 a = vec4(ident);
        uint extra = 0u;
        for (uint v = gl_WorkGroupID.x * gl_WorkGroupSize.x + lid; v < nv; v += stride) {
            vec4 x = vec4(x4[v]);
            VKB_SLOW_READ(extra, x4, v, nv);
            a = OP == 0u ? a + x : max(a, x);
        }
        a.x = vkb_slow(a.x, extra);
        if (gl_WorkGroupID.x == 0u && lid == 0u)  // the n % 4 tail: at most one more step per lane
            for (uint j = 4u * nv; j < n; ++j) a[j - 4u * nv] = comb(a[j - 4u * nv], float(x1[j]));
        acc = comb(comb(a.x, a.y), comb(a.z, a.w));
    } else {
        acc = ident;
        for (uint g = lid; g < pc.m; g += gl_WorkGroupSize.x) acc = comb(acc, part[g]);
    }
    red[lid] = acc;
    barrier();
    for (uint s = gl_WorkGroupSize.x / 2u; s > 0u; s >>= 1u) {
        if (lid < s) red[lid] = comb(red[lid], red[lid + s]);
        barrier();
    }
    if (lid == 0u) {
        if (STAGE == 0u) part[gl_WorkGroupID.x] = red[0];
        else outv[0] = red[0];
    }
}
