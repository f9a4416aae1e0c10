#version 450
// fp32 output: see bitnet_dequant.glsl
#extension GL_GOOGLE_include_directive : require
#include "bitnet_dequant.glsl"
