#version 450
#define VKB_BDA  // the twin of bitnet_hmma_emu_w1x2.comp that reaches its buffers by address (bind=bda, kernels/bda.glsl)
// bitnet_hmma.glsl with 1 row x 2 token fragments per subgroup, matrix operations emulated (validation only)
#extension GL_GOOGLE_include_directive : require
#define VKB_COOP_EMU
#define HM_WN 1u
#define HM_MT 2u
#include "bitnet_hmma.glsl"
