#version 450
// Dense fp16-weight GEMM at batch >= 8 on matrix units through GL_NV_cooperative_matrix: see dense_coopmat.glsl
#extension GL_GOOGLE_include_directive : require
#extension GL_KHR_memory_scope_semantics : require
#extension GL_NV_cooperative_matrix : require
#include "dense_coopmat.glsl"
