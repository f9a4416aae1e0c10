#version 450
// twin: bda -- make also builds bitnet_mma_kp_emu_bda.spv from this stub with VKB_BDA: its buffers by address (kernels/bda.glsl)
// bitnet_mma_kp.glsl with the matrix operations emulated (algo=mma_kp_emu: validates its per-subgroup staging, K parts,
// prefetch, sum_k x by MMA and the parts' sum without matrix units)
#extension GL_GOOGLE_include_directive : require
#define VKB_COOP_EMU
#include "bitnet_mma_kp.glsl"
