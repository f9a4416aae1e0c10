#version 450
#extension GL_GOOGLE_include_directive : require
// fp32 row-wise kernels: see rows.glsl
#include "rows.glsl"
