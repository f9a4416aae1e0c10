#version 450
// twin: bda -- make also builds dense_coopmat_g_emu_w4x2_bda.spv from this stub with VKB_BDA: its buffers by address (kernels/bda.glsl)
// dense_coopmat_g.glsl with 4 row x 2 token fragments per subgroup, matrix operations emulated (validation only)
#extension GL_GOOGLE_include_directive : require
#define VKB_COOP_EMU
#define DG_WN 4u
#define DG_MT 2u
#include "dense_coopmat_g.glsl"
