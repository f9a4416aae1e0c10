#version 450
#extension GL_GOOGLE_include_directive : require
// A deliberately broken fp32 softmax for tests/run.sh (`--shader rows=softmax_nomax`), bindings and
// summation order as kernels/rows.glsl: y = exp(x) / sum(exp(x)) WITHOUT subtracting the row max.
// Mathematically the same function, so it passes inputs in [-10, 10]; exp overflows to Inf (and
// Inf/Inf to NaN) once inputs exceed ~88, which softmax fill=large and fill=equal reach.
#include "common.glsl"
layout(binding = 0) readonly buffer X { float x[]; };
layout(binding = 1) writeonly buffer Y { float y[]; };
shared float red[1024];

void main() {
    uint row = vkb_group_id(), lid = gl_LocalInvocationID.x, wg = gl_WorkGroupSize.x;
    if (row >= pc.n) return;
    uint cols = pc.m, base = row * cols;
    float s = 0.0;
    for (uint j = lid; j < cols; j += wg) s += exp(x[base + j]);   // BUG: no max subtraction
    red[lid] = s;
    barrier();
    for (uint h = wg / 2u; h > 0u; h >>= 1u) {
        if (lid < h) red[lid] += red[lid + h];
        barrier();
    }
    s = red[0];
    for (uint j = lid; j < cols; j += wg) y[base + j] = exp(x[base + j]) / s;
}
