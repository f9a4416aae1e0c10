#version 450
// bitnet_hmma.glsl with 2 row fragments and one of 8 tokens per subgroup, the block's steps rolled (HM_ROLL), matrix
// operations emulated (validation only)
#extension GL_GOOGLE_include_directive : require
#define VKB_COOP_EMU
#define HM_WN 2u
#define HM_MT 1u
#define HM_LN 8u
#define HM_ROLL
#include "bitnet_hmma.glsl"
