#version 450
// matmul_coopmat.glsl with the matrix operations emulated (validation of its tiling without matrix units)
#extension GL_GOOGLE_include_directive : require
#define VKB_COOP_EMU
#include "matmul_coopmat.glsl"
