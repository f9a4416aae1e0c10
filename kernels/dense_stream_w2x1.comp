#version 450
// dense_stream.glsl with 2 row x 1 token fragments per subgroup, on GL_NV_cooperative_matrix
#extension GL_GOOGLE_include_directive : require
#extension GL_KHR_memory_scope_semantics : require
#extension GL_NV_cooperative_matrix : require
#define DS_WN 2u
#define DS_MT 1u
#include "dense_stream.glsl"
