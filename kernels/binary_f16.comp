#version 450
// fp16-storage binary ops (fp32 arithmetic): see binary.glsl
#extension GL_GOOGLE_include_directive : require
#define VKB_F16
#include "binary.glsl"
