#version 450
#extension GL_GOOGLE_include_directive : require
// Absmean ternary weight quantization (BitNet b1.58), one shader, three passes (spec constant 1 = PASS):
//   PASS 0  partial[g] = sum |W| over workgroup g's grid-stride share of the flat N*K tensor
//   PASS 1  one workgroup: gamma' = max(sum partial / (N*K), 1e-5)          (gamma must exist before
//   PASS 2  quantize: one invocation per 4 weights                             any weight is quantized)
// round-half-even(W / gamma') clamped to [-1, 1] is +1 iff W > gamma'/2, -1 iff W < -gamma'/2, else 0
// (0.5 ties go to the even 0). gamma'/2 is exact in fp32, so the test is exact and division-free: the CPU
// reproduces every code bit for bit from the gamma' the GPU wrote.
// Spec constant 2 = FMT: 0 packed 2-bit (bitnet_layout.glsl), 1 int8 with row stride Kp.
// Push: n = N rows, k = K, m = number of PASS-0 workgroups (partials).
#include "common.glsl"
#include "bitnet_common.glsl"
layout(constant_id = 1) const uint PASS = 0u;
layout(constant_id = 2) const uint FMT = 0u;
layout(binding = 0) readonly buffer W4 { vec4 w4[]; };
layout(binding = 0) readonly buffer W1 { float w1[]; };
layout(binding = 1) writeonly buffer Q { uint q[]; };
layout(binding = 2) buffer Gam { float gam[]; };
layout(binding = 3) buffer Part { float partial[]; };
shared uint wq_bits[1024];

// Weights k0..k0+3 of a row (zero = code 1 in the padding k >= K).
vec4 load4(uint row, uint k0) {
    uint K = pc.k;
    if ((K & 3u) == 0u) return k0 < K ? w4[(row * K + k0) >> 2] : vec4(0.0);
    vec4 v = vec4(0.0);
    for (uint b = 0u; b < 4u; ++b)
        if (k0 + b < K) v[b] = w1[row * K + k0 + b];
    return v;
}

void main() {
    uint tid = gl_LocalInvocationID.x;
    uint total = pc.n * pc.k;
    if (PASS == 0u) {
        uint nv = total >> 2, stride = pc.m * gl_WorkGroupSize.x;
        vec4 a = vec4(0.0);
        for (uint i = vkb_global_id(); i < nv; i += stride) a += abs(w4[i]);
        uint t = vkb_global_id();
        if (t < (total & 3u)) a.x += abs(w1[(nv << 2) + t]);
        float s = wg_sum((a.x + a.y) + (a.z + a.w));
        if (tid == 0u && vkb_group_id() < pc.m) partial[vkb_group_id()] = s;
    } else if (PASS == 1u) {
        float a = 0.0;
        for (uint i = tid; i < pc.m; i += gl_WorkGroupSize.x) a += partial[i];
        float s = wg_sum(a);
        if (tid == 0u) gam[0] = max(s / float(total), BITNET_EPS);
    } else {
        // Invocation t makes bit pair j = t % 4 of packed word t / 4; the four parts meet in shared memory
        // (lavapipe 22.3's subgroupClusteredOr ignored the cluster size, so no clustered op here).
        uint t = vkb_global_id();
        uint wpr = BITNET_PAD(pc.k) / 16u, word = t >> 2, j = t & 3u;
        bool live = word < pc.n * wpr;
        float h = 0.5 * gam[0];
        vec4 v = live ? load4(word / wpr, (word % wpr) * 16u + 4u * j) : vec4(0.0);
        ivec4 w = ivec4(greaterThan(v, vec4(h))) - ivec4(lessThan(v, vec4(-h)));
        if (FMT == 0u) {
            uvec4 c = uvec4(w + 1) << (uvec4(0u, 8u, 16u, 24u) + 2u * j);
            wq_bits[tid] = c.x | c.y | c.z | c.w;
            barrier();
            if (live && j == 0u) q[word] = wq_bits[tid] | wq_bits[tid + 1u] | wq_bits[tid + 2u] | wq_bits[tid + 3u];
        } else if (live) {
            q[t] = (uint(w.x) & 255u) | ((uint(w.y) & 255u) << 8) |
                   ((uint(w.z) & 255u) << 16) | (uint(w.w) << 24);
        }
    }
}
