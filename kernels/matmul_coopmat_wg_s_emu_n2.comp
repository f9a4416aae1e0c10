#version 450
// matmul_coopmat_wg.glsl staged, two accumulators, the matrix operations emulated: lavapipe validates the half-step split
#extension GL_GOOGLE_include_directive : require
#define VKB_WG_STAGED 1
#define VKB_WG_NACC2 1
#define VKB_COOP_EMU 1
#include "matmul_coopmat_wg.glsl"
