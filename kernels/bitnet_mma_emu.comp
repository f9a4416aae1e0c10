#version 450
// bitnet_mma.glsl with the matrix operations emulated (algo=mma_emu: validates its decode, tiling, sum_k x correction
// and split-K without matrix units)
#extension GL_GOOGLE_include_directive : require
#define VKB_COOP_EMU
#include "bitnet_mma.glsl"
