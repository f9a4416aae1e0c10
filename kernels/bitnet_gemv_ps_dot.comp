#version 450
// BitLinear GEMV, persistent and pipelined, packed 4x8 dot products: see bitnet_gemv_ps.glsl
#extension GL_GOOGLE_include_directive : require
#define BITNET_DOT
#include "bitnet_gemv_ps.glsl"
