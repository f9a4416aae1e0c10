#version 450
// matmul_coopmat_wg.glsl, tiles staged in shared memory by our loads, for 128 invocations, two accumulators (the halves
// of each step's K)
#extension GL_GOOGLE_include_directive : require
#define VKB_WG_DEFAULT 128
#define VKB_WG_STAGED 1
#define VKB_WG_NACC2 1
#include "matmul_coopmat_wg.glsl"
