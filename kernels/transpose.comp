#version 450
#extension GL_GOOGLE_include_directive : require
// fp32 transpose: see transpose.glsl
#include "transpose.glsl"
