// Per-token int8 activation quantization (BitNet b1.58), one workgroup per row, single pass over x:
//   s = 127 / max(max_k |y_k|, 1e-5);  q_k = clamp(roundEven(y_k * s), -128, 127)
// with y = x, or (NORM = 1) y = RMSNorm(x) = (x * r) * g, r = inversesqrt(mean(x^2) + eps): the fused
// "activation_norm_quant" that feeds every BitLinear. The row stays in registers (NV vec4 per invocation).
// Outputs: q (int8, row stride Kp, padding 0), s per row, and r per row (NORM) so the CPU can reproduce
// y, s-products and every rounding bit for bit from the GPU's own r and s.
// Buffers: 0 x (fp32 M x K), 1 q, 2 s, 3 g (fp32 K), 4 r; a including shader may renumber them (AQ_BIND_*,
// as bitnet_layer_aquant.comp does to share one descriptor set with the GEMV). Push: m = M, k = K, eps.
// AQ_LIB: the buffers, load4 and the rounding steps (aq_norm, aq_scale, aq_pack) without main and its spec
// constants, for a shader that quantizes inside another kernel (bitnet_layer_fused.glsl): one copy of every
// rounding, so the fused path's codes are the standalone quantizer's bit for bit.
#ifndef BITNET_AQUANT_GLSL
#define BITNET_AQUANT_GLSL
#ifndef AQ_BIND_X
#define AQ_BIND_X 0
#define AQ_BIND_Q 1
#define AQ_BIND_S 2
#define AQ_BIND_G 3
#define AQ_BIND_R 4
#endif
#include "common.glsl"
#include "bitnet_common.glsl"
#ifndef AQ_LIB
layout(constant_id = 1) const uint NORM = 0u;
layout(constant_id = 2) const uint NV = 4u;
#endif
layout(binding = AQ_BIND_X) readonly buffer AqX4 { vec4 x4[]; };
layout(binding = AQ_BIND_X) readonly buffer AqX1 { float x1[]; };
layout(binding = AQ_BIND_Q) writeonly buffer AqQ { uint q[]; };
layout(binding = AQ_BIND_S) writeonly buffer AqS { float s_out[]; };
layout(binding = AQ_BIND_G) readonly buffer AqG4 { vec4 g4[]; };
layout(binding = AQ_BIND_G) readonly buffer AqG1 { float g1[]; };
layout(binding = AQ_BIND_R) writeonly buffer AqR { float r_out[]; };

vec4 load4(uint base, uint k0, bool gam) {
    uint K = pc.k;
    if ((K & 3u) == 0u) return k0 < K ? (gam ? g4[k0 >> 2] : x4[(base + k0) >> 2]) : vec4(0.0);
    vec4 v = vec4(0.0);
    for (uint b = 0u; b < 4u; ++b)
        if (k0 + b < K) v[b] = gam ? g1[k0 + b] : x1[base + k0 + b];
    return v;
}

// y = (x r) g: two correctly rounded fp32 products, never fused (the check's order).
vec4 aq_norm(vec4 v, float r, vec4 g) {
    precise vec4 y = v * r;
    precise vec4 z = y * g;
    return z;
}
float aq_scale(float absmax) { return 127.0 / max(absmax, BITNET_EPS); }
// Four codes clamp(roundEven(y s), -128, 127), the product rounded to fp32 first, packed little-endian.
uint aq_pack(vec4 v, float s) {
    precise vec4 p = v * s;
    ivec4 c = clamp(ivec4(roundEven(p)), -128, 127) & 255;
    return uint(c.x | (c.y << 8) | (c.z << 16) | (c.w << 24));
}

#ifndef AQ_LIB
void main() {
    uint row = vkb_group_id(), tid = gl_LocalInvocationID.x, WG = gl_WorkGroupSize.x;
    if (row >= pc.m) return;                       // uniform over the workgroup
    uint K = pc.k, Kp = BITNET_PAD(K);
    vec4 v[NV];
    for (uint i = 0u; i < NV; ++i) v[i] = load4(row * K, 4u * (tid + i * WG), false);
    if (NORM == 1u) {
        float ss = 0.0;
        for (uint i = 0u; i < NV; ++i) ss += dot(v[i], v[i]);
        float r = inversesqrt(wg_sum(ss) / float(K) + pc.eps);
        for (uint i = 0u; i < NV; ++i) v[i] = aq_norm(v[i], r, load4(0u, 4u * (tid + i * WG), true));
        if (tid == 0u) r_out[row] = r;
    }
    float mx = 0.0;
    for (uint i = 0u; i < NV; ++i) mx = max(mx, max(max(abs(v[i].x), abs(v[i].y)), max(abs(v[i].z), abs(v[i].w))));
    float s = aq_scale(wg_max(mx));
    if (tid == 0u) s_out[row] = s;
    for (uint i = 0u; i < NV; ++i) {
        uint k0 = 4u * (tid + i * WG);
        if (k0 >= Kp) break;
        q[(row * Kp + k0) >> 2] = aq_pack(v[i], s);
    }
}
#endif
#endif
