#version 450
// twin: bda -- make also builds dense_coopmat_g_w4x1n8_bda.spv from this stub with VKB_BDA: its buffers by address (kernels/bda.glsl)
// dense_coopmat_g.glsl with 4 row x 1 token fragment of 8 tokens (16x8x16 MMAs: ln=8) per subgroup, on GL_NV_cooperative_matrix
#extension GL_GOOGLE_include_directive : require
#extension GL_KHR_memory_scope_semantics : require
#extension GL_NV_cooperative_matrix : require
#define DG_WN 4u
#define DG_MT 1u
#define DG_LN 8u
#include "dense_coopmat_g.glsl"
