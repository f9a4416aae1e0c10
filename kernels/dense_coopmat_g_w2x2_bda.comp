#version 450
#define VKB_BDA  // the twin of dense_coopmat_g_w2x2.comp that reaches its buffers by address (bind=bda, kernels/bda.glsl)
// dense_coopmat_g.glsl with 2 row x 2 token fragments per subgroup, on GL_NV_cooperative_matrix
#extension GL_GOOGLE_include_directive : require
#extension GL_KHR_memory_scope_semantics : require
#extension GL_NV_cooperative_matrix : require
#define DG_WN 2u
#define DG_MT 2u
#include "dense_coopmat_g.glsl"
