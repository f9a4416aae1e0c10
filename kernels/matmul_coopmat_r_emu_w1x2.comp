#version 450
// matmul_coopmat_r.glsl with 1 x 2 accumulators per subgroup, matrix operations emulated (validation only)
#extension GL_GOOGLE_include_directive : require
#define VKB_COOP_EMU
#define MM_WM 1u
#define MM_WN 2u
#include "matmul_coopmat_r.glsl"
