#version 450
// The emulated twin of peak_coopmat.comp (plain arithmetic, no matrix units): kernels/peak_coopmat.glsl.
#extension GL_GOOGLE_include_directive : require
#extension GL_EXT_shader_16bit_storage : require
#extension GL_EXT_shader_explicit_arithmetic_types_float16 : require
#define A_T float16_t
#define A_BYTES 2u
#define C_T float
#define C_BYTES 4u
#define PEAK_EMULATED
#include "peak_coopmat.glsl"
