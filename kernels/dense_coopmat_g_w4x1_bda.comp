#version 450
#define VKB_BDA  // the twin of dense_coopmat_g_w4x1.comp that reaches its buffers by address (bind=bda, kernels/bda.glsl)
// dense_coopmat_g.glsl with 4 row x 1 token fragments per subgroup, on GL_NV_cooperative_matrix
#extension GL_GOOGLE_include_directive : require
#extension GL_KHR_memory_scope_semantics : require
#extension GL_NV_cooperative_matrix : require
#define DG_WN 4u
#define DG_MT 1u
#include "dense_coopmat_g.glsl"
