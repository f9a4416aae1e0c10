#version 450
// twin: bda -- make also builds dense_coopmat_g_emu_w1x1n8_bda.spv from this stub with VKB_BDA: its buffers by address (kernels/bda.glsl)
// dense_coopmat_g.glsl with 1 row x 1 token fragment of 8 tokens (16x8x16 MMAs: ln=8) per subgroup, matrix operations emulated (validation only)
#extension GL_GOOGLE_include_directive : require
#define VKB_COOP_EMU
#define DG_WN 1u
#define DG_MT 1u
#define DG_LN 8u
#include "dense_coopmat_g.glsl"
