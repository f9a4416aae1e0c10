#version 450
// BitLinear GEMM, plain integer multiply-add: see bitnet_gemm.glsl
#extension GL_GOOGLE_include_directive : require
#include "bitnet_gemm.glsl"
