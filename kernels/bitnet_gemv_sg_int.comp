#version 450
// BitLinear GEMV in subgroup row blocks, plain integer multiply-add: see bitnet_gemv_sg.glsl
#extension GL_GOOGLE_include_directive : require
#include "bitnet_gemv_sg.glsl"
