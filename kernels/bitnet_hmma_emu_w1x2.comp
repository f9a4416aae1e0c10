#version 450
// twin: bda -- make also builds bitnet_hmma_emu_w1x2_bda.spv from this stub with VKB_BDA: its buffers by address (kernels/bda.glsl)
// bitnet_hmma.glsl with 1 row x 2 token fragments per subgroup, matrix operations emulated (validation only)
#extension GL_GOOGLE_include_directive : require
#define VKB_COOP_EMU
#define HM_WN 1u
#define HM_MT 2u
#include "bitnet_hmma.glsl"
