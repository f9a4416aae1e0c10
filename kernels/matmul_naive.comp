#version 450
// fp32 naive matmul: see matmul_naive.glsl
#extension GL_GOOGLE_include_directive : require
#include "matmul_naive.glsl"
