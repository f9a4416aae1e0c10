#version 450
// fp32 tiled matmul: see matmul_tiled.glsl
#extension GL_GOOGLE_include_directive : require
#include "matmul_tiled.glsl"
