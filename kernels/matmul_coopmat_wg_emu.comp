#version 450
// matmul_coopmat_wg.comp with the matrix operations emulated (shared memory, scalar loops): lavapipe validates its tiling
#extension GL_GOOGLE_include_directive : require
#define VKB_COOP_EMU 1
#include "matmul_coopmat_wg.glsl"
