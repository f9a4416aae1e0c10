#version 450
// bitnet_hmma.glsl with 4 row fragments and one of 8 tokens per subgroup, the block's steps rolled (HM_ROLL), on
// GL_NV_cooperative_matrix
#extension GL_GOOGLE_include_directive : require
#extension GL_KHR_memory_scope_semantics : require
#extension GL_NV_cooperative_matrix : require
#define HM_WN 4u
#define HM_MT 1u
#define HM_LN 8u
#define HM_ROLL
#include "bitnet_hmma.glsl"
