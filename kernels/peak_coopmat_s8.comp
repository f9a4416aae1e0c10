#version 450
// Matrix-unit peak probe, int8 inputs and int32 accumulators (GL_NV_integer_cooperative_matrix):
// kernels/peak_coopmat.glsl.
#extension GL_GOOGLE_include_directive : require
#extension GL_EXT_shader_8bit_storage : require
#extension GL_EXT_shader_explicit_arithmetic_types_int8 : require
#extension GL_KHR_memory_scope_semantics : require
#extension GL_NV_cooperative_matrix : require
#extension GL_NV_integer_cooperative_matrix : require
#define A_T int8_t
#define A_BYTES 1u
#define C_T int
#define C_BYTES 4u
#define FRAG_A(r, c) icoopmatNV<8, gl_ScopeSubgroup, r, c>
#define FRAG_C(r, c) icoopmatNV<32, gl_ScopeSubgroup, r, c>
#include "peak_coopmat.glsl"
