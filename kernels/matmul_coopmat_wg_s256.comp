#version 450
// twin: bda -- make also builds matmul_coopmat_wg_s256_bda.spv from this stub with VKB_BDA: its buffers by address (kernels/bda.glsl)
// matmul_coopmat_wg.glsl, tiles staged in shared memory by our loads, for 256 invocations
#extension GL_GOOGLE_include_directive : require
#define VKB_WG_DEFAULT 256
#define VKB_WG_STAGED 1
#include "matmul_coopmat_wg.glsl"
