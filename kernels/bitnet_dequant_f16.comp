#version 450
// fp16 output: see bitnet_dequant.glsl
#extension GL_GOOGLE_include_directive : require
#define VKB_F16
#include "bitnet_dequant.glsl"
