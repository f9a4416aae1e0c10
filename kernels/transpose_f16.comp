#version 450
#extension GL_GOOGLE_include_directive : require
// fp16 transpose: see transpose.glsl
#define VKB_F16
#include "transpose.glsl"
