#version 450
// twin: bda -- make also builds bitnet_mma_kp_bda.spv from this stub with VKB_BDA: its buffers by address (kernels/bda.glsl)
// BitLinear on int8 matrix units, K parts in the workgroup (algo=mma_kp), GL_NV_cooperative_matrix: see bitnet_mma_kp.glsl
#extension GL_GOOGLE_include_directive : require
#extension GL_EXT_shader_explicit_arithmetic_types_int8 : require
#extension GL_KHR_memory_scope_semantics : require
#extension GL_NV_cooperative_matrix : require
#extension GL_NV_integer_cooperative_matrix : require
#include "bitnet_mma_kp.glsl"
