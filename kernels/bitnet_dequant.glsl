// Dequantize packed ternary weights (bitnet_layout.glsl): out[n][k] = (code - 1) * gamma', exact in fp32
// (the product is 0 or +-gamma'). One invocation per 4 weights; out is N x K, unpadded, row-major.
// Buffers: 0 packed words, 1 gamma' (fp32), 2 out (T). Push: n = N, k = K.
#include "common.glsl"
#include "types.glsl"
#include "bitnet_layout.glsl"
layout(binding = 0) readonly buffer Q { uint q[]; };
layout(binding = 1) readonly buffer Gam { float gam[]; };
layout(binding = 2) writeonly buffer O4 { T4 o4[]; };
layout(binding = 2) writeonly buffer O1 { T o1[]; };

void main() {
    uint t = vkb_global_id();
    uint K = pc.k, wpr = BITNET_PAD(K) / 16u, word = t >> 2, j = t & 3u;
    if (word >= pc.n * wpr) return;
    uint row = word / wpr, k0 = (word % wpr) * 16u + 4u * j;
    if (k0 >= K) return;
    uvec4 c = (uvec4(q[word]) >> (uvec4(0u, 8u, 16u, 24u) + 2u * j)) & 3u;
    vec4 v = (vec4(c) - 1.0) * gam[0];
    if ((K & 3u) == 0u) {
        o4[(row * K + k0) >> 2] = T4(v);
    } else {
        for (uint b = 0u; b < 4u; ++b)
            if (k0 + b < K) o1[row * K + k0 + b] = T(v[b]);
    }
}
