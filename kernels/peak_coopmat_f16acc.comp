#version 450
// Matrix-unit peak probe, fp16 inputs and fp16 accumulators (GL_NV_cooperative_matrix): kernels/peak_coopmat.glsl.
#extension GL_GOOGLE_include_directive : require
#extension GL_EXT_shader_16bit_storage : require
#extension GL_EXT_shader_explicit_arithmetic_types_float16 : require
#extension GL_KHR_memory_scope_semantics : require
#extension GL_NV_cooperative_matrix : require
#define A_T float16_t
#define A_BYTES 2u
#define C_T float16_t
#define C_BYTES 2u
#define FRAG_A(r, c) fcoopmatNV<16, gl_ScopeSubgroup, r, c>
#define FRAG_C(r, c) fcoopmatNV<16, gl_ScopeSubgroup, r, c>
#include "peak_coopmat.glsl"
