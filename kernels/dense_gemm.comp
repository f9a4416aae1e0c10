#version 450
// Dense fp16-weight GEMM: see dense_gemm.glsl
#extension GL_GOOGLE_include_directive : require
#include "dense_gemm.glsl"
