#version 450
// BROKEN on purpose (tests/run.sh): bitnet_layer's quantizer with one int8 activation, token M/2 at K/2, one code
// off by one (as a wrong rounding or a stale write would leave it): the intermediate xq is wrong there and the GEMV
// reads it for every output of that token, so the code check and the y check must both FAIL.
// Run as: vkbench run --shader bitnet_layer_aquant=layer_aquant_offbyone ...
#extension GL_GOOGLE_include_directive : require
#define main vkb_unbroken_main
#define writeonly coherent
#define AQ_BIND_X 5
#define AQ_BIND_Q 2
#define AQ_BIND_S 3
#define AQ_BIND_G 6
#define AQ_BIND_R 7
#include "bitnet_aquant.glsl"
#undef main
void main() {
    vkb_unbroken_main();
    memoryBarrierBuffer();  // q is coherent: this workgroup's stores are visible to its own reads after the barrier
    barrier();
    uint row = vkb_group_id(), K = pc.k, i = row * BITNET_PAD(K) + K / 2u;
    if (row != pc.m / 2u || gl_LocalInvocationID.x != 0u) return;
    uint sh = 8u * (i & 3u), c = (q[i >> 2] >> sh) & 255u;
    c = c == 127u ? 126u : (c + 1u) & 255u;  // BUG (deliberate): one code off by one
    q[i >> 2] = (q[i >> 2] & ~(255u << sh)) | (c << sh);
}
