#version 450
#extension GL_GOOGLE_include_directive : require
// A deliberately broken dense_coopmat_g (emulated, 4 x 1 fragments) for the harness's own tests (tests/run.sh): its
// split-K tickets (kernels/splitk_fold.glsl) are never set back to zero, so only the first call after the upload
// sums every tile; on later calls no workgroup draws the last ticket and y keeps its poison. Only the recheck after
// timing (harness/run.c case_recheck) sees it.
#define VKB_COOP_EMU
#define DG_WN 4u
#define DG_MT 1u
#define SPLITK_FOLD_GLSL
layout(binding = 4) coherent buffer FoldCnt { uint fold_cnt[]; };
shared bool fold_last;
bool fold_arrive(uint tile, uint slices) {
    memoryBarrierBuffer();
    barrier();
    if (gl_LocalInvocationIndex == 0u) fold_last = atomicAdd(fold_cnt[tile], 1u) == slices - 1u;  // BUG: no reset
    barrier();
    memoryBarrierBuffer();
    return fold_last;
}
#include "dense_coopmat_g.glsl"
