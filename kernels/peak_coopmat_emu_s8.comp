#version 450
// The emulated twin of peak_coopmat_s8.comp (plain arithmetic, no matrix units): kernels/peak_coopmat.glsl.
#extension GL_GOOGLE_include_directive : require
#extension GL_EXT_shader_8bit_storage : require
#extension GL_EXT_shader_explicit_arithmetic_types_int8 : require
#define A_T int8_t
#define A_BYTES 1u
#define C_T int
#define C_BYTES 4u
#define PEAK_EMULATED
#include "peak_coopmat.glsl"
