#version 450
#define VKB_BDA  // the twin of bitnet_mma_kp_emu.comp that reaches its buffers by address (bind=bda, kernels/bda.glsl)
// bitnet_mma_kp.glsl with the matrix operations emulated (algo=mma_kp_emu: validates its per-subgroup staging, K parts,
// prefetch, sum_k x by MMA and the parts' sum without matrix units)
#extension GL_GOOGLE_include_directive : require
#define VKB_COOP_EMU
#include "bitnet_mma_kp.glsl"
