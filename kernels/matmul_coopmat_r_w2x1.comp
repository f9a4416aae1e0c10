#version 450
// matmul_coopmat_r.glsl with 2 x 1 accumulators per subgroup, on GL_NV_cooperative_matrix
#extension GL_GOOGLE_include_directive : require
#extension GL_KHR_memory_scope_semantics : require
#extension GL_NV_cooperative_matrix : require
#define MM_WM 2u
#define MM_WN 1u
#include "matmul_coopmat_r.glsl"
