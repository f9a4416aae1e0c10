#version 450
// twin: bda -- make also builds matmul_coopmat_wg_s256a4_bda.spv from this stub with VKB_BDA: its buffers by address (kernels/bda.glsl)
// matmul_coopmat_wg.glsl, tiles staged in shared memory by our loads, for 256 invocations, loads 4 steps ahead
#extension GL_GOOGLE_include_directive : require
#define VKB_WG_DEFAULT 256
#define VKB_WG_STAGED 1
#define VKB_WG_AHEAD 4
#include "matmul_coopmat_wg.glsl"
