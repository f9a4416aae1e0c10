#version 450
// twin: bda -- make also builds bitnet_hmma_emu_w2x1n8_bda.spv from this stub with VKB_BDA: its buffers by address (kernels/bda.glsl)
// bitnet_hmma.glsl with 2 row fragments and one of 8 tokens per subgroup, matrix operations emulated (validation only)
#extension GL_GOOGLE_include_directive : require
#define VKB_COOP_EMU
#define HM_WN 2u
#define HM_MT 1u
#define HM_LN 8u
#include "bitnet_hmma.glsl"
