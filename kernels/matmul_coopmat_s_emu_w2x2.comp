#version 450
// matmul_coopmat_s.glsl, 2 x 2 accumulators per subgroup, matrix operations emulated (validation without matrix units)
#extension GL_GOOGLE_include_directive : require
#extension GL_KHR_shader_subgroup_basic : require
#define VKB_COOP_EMU
#define MM_WM 2u
#define MM_WN 2u
#include "matmul_coopmat_s.glsl"
