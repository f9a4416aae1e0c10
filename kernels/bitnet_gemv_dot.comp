#version 450
// BitLinear GEMV, packed 4x8 dot products: see bitnet_gemv.glsl
#extension GL_GOOGLE_include_directive : require
#define BITNET_DOT
#include "bitnet_gemv.glsl"
