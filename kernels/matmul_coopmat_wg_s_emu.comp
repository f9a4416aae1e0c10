#version 450
// twin: bda -- make also builds matmul_coopmat_wg_s_emu_bda.spv from this stub with VKB_BDA: its buffers by address (kernels/bda.glsl)
// matmul_coopmat_wg.glsl staged in shared memory, the matrix operations emulated: lavapipe validates the staging
#extension GL_GOOGLE_include_directive : require
#define VKB_WG_STAGED 1
#define VKB_COOP_EMU 1
#include "matmul_coopmat_wg.glsl"
