#version 450
// coopmat_layout.glsl on fp16 A and B (coopmat_layout type=f16)
#extension GL_GOOGLE_include_directive : require
#define VKB_LAYOUT_F16
#include "coopmat_layout.glsl"
