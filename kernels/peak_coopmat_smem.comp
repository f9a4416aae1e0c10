#version 450
// Matrix-unit probe, fragments reloaded from shared memory every k-step: kernels/peak_coopmat_smem.glsl.
#extension GL_GOOGLE_include_directive : require
#include "peak_coopmat_smem.glsl"
