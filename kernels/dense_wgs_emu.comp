#version 450
// twin: bda -- make also builds dense_wgs_emu_bda.spv from this stub with VKB_BDA: its buffers by address (kernels/bda.glsl)
// dense_f16 algo=wgs_emu: dense_wgs_*'s staging and W^T addressing with the matrix operations emulated (lavapipe)
#extension GL_GOOGLE_include_directive : require
#define VKB_WG_STAGED 1
#define VKB_COOP_EMU 1
#define VKB_WG_BT 1
#include "matmul_coopmat_wg.glsl"
