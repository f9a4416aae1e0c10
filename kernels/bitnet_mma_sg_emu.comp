#version 450
// bitnet_mma_sg.glsl with the matrix operations emulated (algo=mma_sg_emu: validates its staging, per-subgroup
// decode, prefetch, correction and split-K without matrix units)
#extension GL_GOOGLE_include_directive : require
#define VKB_COOP_EMU
#include "bitnet_mma_sg.glsl"
