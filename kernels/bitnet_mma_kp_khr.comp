#version 450
// bitnet_mma_kp.comp rewritten to SPV_KHR_cooperative_matrix when loaded (harness/spvkhr.c, the vkb_khr_subgroup marker):
// whether NVIDIA's compiler treats the KHR form (lay=frag's component writes above all) differently from the NV one
#extension GL_GOOGLE_include_directive : require
#extension GL_EXT_shader_explicit_arithmetic_types_int8 : require
#extension GL_KHR_memory_scope_semantics : require
#extension GL_NV_cooperative_matrix : require
#extension GL_NV_integer_cooperative_matrix : require
#define KP_KHR
#include "bitnet_mma_kp.glsl"
