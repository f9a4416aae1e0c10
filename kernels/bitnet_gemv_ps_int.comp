#version 450
// BitLinear GEMV, persistent and pipelined, plain integer multiply-add: see bitnet_gemv_ps.glsl
#extension GL_GOOGLE_include_directive : require
#include "bitnet_gemv_ps.glsl"
