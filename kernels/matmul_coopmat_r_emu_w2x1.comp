#version 450
// matmul_coopmat_r.glsl with 2 x 1 accumulators per subgroup, matrix operations emulated (validation only)
#extension GL_GOOGLE_include_directive : require
#define VKB_COOP_EMU
#define MM_WM 2u
#define MM_WN 1u
#include "matmul_coopmat_r.glsl"
