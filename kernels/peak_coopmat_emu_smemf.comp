#version 450
// The emulated twin of peak_coopmat_smemf.comp (plain arithmetic over the same fragment-order shared tiles).
#extension GL_GOOGLE_include_directive : require
#define PEAK_EMULATED
#define PEAK_FRAG
#include "peak_coopmat_smem.glsl"
