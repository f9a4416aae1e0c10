#version 450
// The emulated twin of peak_coopmat_smem.comp (plain arithmetic over the same shared tiles).
#extension GL_GOOGLE_include_directive : require
#define PEAK_EMULATED
#include "peak_coopmat_smem.glsl"
