#version 450
// BROKEN on purpose (tests/run.sh): the dense fp16-weight GEMM whose first token tile stops one token
// short (its bound off by one), so row BM-1 of y -- a token in the middle when M > BM -- is never written.
// Run as: vkbench run --shader dense_gemm=dense_gemm_skiprow ...
#extension GL_GOOGLE_include_directive : require
#include "common.glsl"
struct VkbPushCopy { VKB_PUSH_FIELDS };
VkbPushCopy vkb_pc;  // what the body reads as pc
#define pc vkb_pc
#define main vkb_unbroken_main
#include "dense_gemm.glsl"
#undef main
#undef pc
void main() {
    vkb_pc.n = pc.n, vkb_pc.m = pc.m, vkb_pc.k = pc.k, vkb_pc.p0 = pc.p0;
    if (gl_WorkGroupID.y == 0u && pc.m > BM) vkb_pc.m = BM - 1u;  // BUG (deliberate)
    vkb_unbroken_main();
}
