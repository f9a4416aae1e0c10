#version 450
// BitLinear GEMV, plain integer multiply-add: see bitnet_gemv.glsl
#extension GL_GOOGLE_include_directive : require
#include "bitnet_gemv.glsl"
