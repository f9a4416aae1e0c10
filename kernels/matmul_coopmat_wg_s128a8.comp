#version 450
// twin: bda -- make also builds matmul_coopmat_wg_s128a8_bda.spv from this stub with VKB_BDA: its buffers by address (kernels/bda.glsl)
// matmul_coopmat_wg.glsl, tiles staged in shared memory by our loads, for 128 invocations, loads 8 steps ahead
#extension GL_GOOGLE_include_directive : require
#define VKB_WG_DEFAULT 128
#define VKB_WG_STAGED 1
#define VKB_WG_AHEAD 8
#include "matmul_coopmat_wg.glsl"
