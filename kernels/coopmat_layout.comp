#version 450
// coopmat_layout.glsl on int8 A and B and int32 accumulators (coopmat_layout type=s8)
#extension GL_GOOGLE_include_directive : require
#include "coopmat_layout.glsl"
