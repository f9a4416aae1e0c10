#version 450
// The component order of a 16x32 int8 A fragment, GL_NV_cooperative_matrix: see coop_layout.glsl
#extension GL_GOOGLE_include_directive : require
#extension GL_EXT_shader_explicit_arithmetic_types_int8 : require
#extension GL_KHR_memory_scope_semantics : require
#extension GL_KHR_shader_subgroup_basic : require
#extension GL_NV_cooperative_matrix : require
#extension GL_NV_integer_cooperative_matrix : require
#include "coop_layout.glsl"
