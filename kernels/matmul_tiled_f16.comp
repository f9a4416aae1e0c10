#version 450
// fp16-storage tiled matmul (fp32 arithmetic and shared tiles, fp32 C): see matmul_tiled.glsl
#extension GL_GOOGLE_include_directive : require
#define VKB_F16
#include "matmul_tiled.glsl"
