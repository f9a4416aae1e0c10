#version 450
// twin: bda -- make also builds bitnet_hmma_emu_w2x1_bda.spv from this stub with VKB_BDA: its buffers by address (kernels/bda.glsl)
// bitnet_hmma.glsl with 2 row x 1 token fragments per subgroup, matrix operations emulated (validation only)
#extension GL_GOOGLE_include_directive : require
#define VKB_COOP_EMU
#define HM_WN 2u
#define HM_MT 1u
#include "bitnet_hmma.glsl"
