// Which element of a 16 x 32 int8 A fragment (the BitLinear MMA kernels' FRAG_A, bitnet_mma_ops.glsl) each invocation of
// a subgroup holds in each of its components. GL_NV_cooperative_matrix leaves that order to the implementation, and
// lay=frag (bitnet_mma_kp.glsl) stores W so that a lane's loads are its own components: the host reads the order here
// once per device (reference/bitnet_mma.c, coop_layout) instead of assuming one. One subgroup loads two fragments from
// shared memory, one whose element (r, c) is r, one whose element is c, and invocation l writes o[l C + i] = 32 r + c
// for its component i (C = 512 / subgroup size); invocation 0 also writes C at o[512].
// Spec: 0 workgroup size (the subgroup size).
#extension GL_EXT_control_flow_attributes : enable
layout(local_size_x_id = 0) in;
layout(constant_id = 1) const uint LM = 16u;
layout(constant_id = 2) const uint LN = 8u;
layout(constant_id = 3) const uint LK = 32u;
layout(binding = 0) writeonly buffer Ob { uint o[]; };
shared uvec4 sm[64];
#include "bitnet_mma_ops.glsl"

void main() {
    uint l = gl_SubgroupInvocationID;
    for (uint e = l; e < 64u; e += gl_SubgroupSize) {  // uvec4 e: matrix e / 32, row (e % 32) / 2, columns 16 (e % 2) ..
        uint r = (e % 32u) / 2u, c0 = (e % 2u) * 16u;
        uvec4 v = uvec4(r * 0x01010101u);
        if (e >= 32u) v = uvec4(0x03020100u, 0x07060504u, 0x0b0a0908u, 0x0f0e0d0cu) + (c0 * 0x01010101u);
        sm[e] = v;
    }
    memoryBarrierShared();
    barrier();
    FRAG_AR fr, fc;
    AR_LOAD(fr, 0u, 2u);
    AR_LOAD(fc, 32u, 2u);
    uint n = AR_LEN(fr);
    for (uint i = 0u; i < n; ++i) o[l * n + i] = uint(AR_GET(fr, i)) * 32u + uint(AR_GET(fc, i));
    if (l == 0u) o[512] = n;
}
