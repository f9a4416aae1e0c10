#version 450
// fp16-storage naive matmul (fp32 arithmetic, fp32 C): see matmul_naive.glsl
#extension GL_GOOGLE_include_directive : require
#define VKB_F16
#include "matmul_naive.glsl"
