#version 450
#extension GL_GOOGLE_include_directive : require
// fp32 whole-vector reductions: see reduce.glsl
#include "reduce.glsl"
