#version 450
// matmul_coopmat_w4x2.comp with the matrix operations emulated (validation of its tiling without matrix units)
#extension GL_GOOGLE_include_directive : require
#define VKB_COOP_EMU
#define MM_WM 4u
#define MM_WN 2u
#include "matmul_coopmat.glsl"
