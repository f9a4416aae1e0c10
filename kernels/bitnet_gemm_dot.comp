#version 450
// BitLinear GEMM, packed 4x8 dot products: see bitnet_gemm.glsl
#extension GL_GOOGLE_include_directive : require
#define BITNET_DOT
#include "bitnet_gemm.glsl"
