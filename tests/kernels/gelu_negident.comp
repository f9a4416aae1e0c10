#version 450
#extension GL_GOOGLE_include_directive : require
// A deliberately broken fp32 gelu for tests/run.sh (`--shader unary=gelu_negident`), bindings as unary.glsl:
// unary.glsl's formula, except that it returns x itself below x = -1e23, where gelu is -0. Only huge
// negative inputs reach it (fill=large), and only a bound that stays finite for every x catches it: one
// that grew with the cubic argument of exp (2^-20 |x| + 4|arg| ulp(y)) allowed more than FLT_MAX there.
#include "common.glsl"
#include "ieee.glsl"
layout(binding = 0) readonly buffer X { float x[]; };
layout(binding = 1) writeonly buffer Y { float y[]; };
void main() {
    uint n = pc.n, i0 = 4u * vkb_global_id();
    for (uint j = i0; j < min(i0 + 4u, n); ++j) {
        float v = x[j], t = 0.7978845608028654 * (v + 0.044715 * v * v * v);
        y[j] = v < -1e23 ? v : v / (1.0 + exp(-2.0 * t));   // BUG: the identity below -1e23
    }
}
