#version 450
// Matrix-unit probe, fragments built from one 16-byte shared load an invocation (fragment-order tiles): kernels/peak_coopmat_smem.glsl.
#extension GL_GOOGLE_include_directive : require
#define PEAK_FRAG
#include "peak_coopmat_smem.glsl"
