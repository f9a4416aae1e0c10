#version 450
// twin: bda -- make also builds bitnet_hmma_w4x1n8_bda.spv from this stub with VKB_BDA: its buffers by address (kernels/bda.glsl)
// bitnet_hmma.glsl with 4 row fragments and one of 8 tokens (16x8x16 MMAs) per subgroup, on GL_NV_cooperative_matrix
#extension GL_GOOGLE_include_directive : require
#extension GL_KHR_memory_scope_semantics : require
#extension GL_NV_cooperative_matrix : require
#define HM_WN 4u
#define HM_MT 1u
#define HM_LN 8u
#include "bitnet_hmma.glsl"
