#version 450
// bitnet_mma_sg.glsl emulated with the loads 8 steps ahead (algo=mma_sg_emu ahead=8: validates the 8-set ring)
#extension GL_GOOGLE_include_directive : require
#define VKB_COOP_EMU
#define VKB_MMA_AHEAD 8
#include "bitnet_mma_sg.glsl"
