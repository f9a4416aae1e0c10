#version 450
// fp16 matmul on matrix units through GL_NV_cooperative_matrix: see matmul_coopmat.glsl
#extension GL_GOOGLE_include_directive : require
#extension GL_KHR_memory_scope_semantics : require
#extension GL_NV_cooperative_matrix : require
#include "matmul_coopmat.glsl"
