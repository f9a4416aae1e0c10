#version 450
// matmul_coopmat_pipe.glsl with 2 x 4 accumulators per subgroup fixed at compile time
#extension GL_GOOGLE_include_directive : require
#extension GL_KHR_memory_scope_semantics : require
#extension GL_NV_cooperative_matrix : require
#define MM_WM 2u
#define MM_WN 4u
#include "matmul_coopmat_pipe.glsl"
