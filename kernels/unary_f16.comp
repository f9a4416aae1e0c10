#version 450
// fp16-storage unary ops (fp32 arithmetic): see unary.glsl
#extension GL_GOOGLE_include_directive : require
#define VKB_F16
#include "unary.glsl"
