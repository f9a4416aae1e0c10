#version 450
// bitnet_mma_sg.glsl with the loads 8 steps ahead (algo=mma_sg ahead=8)
#extension GL_GOOGLE_include_directive : require
#extension GL_EXT_shader_explicit_arithmetic_types_int8 : require
#extension GL_KHR_memory_scope_semantics : require
#extension GL_NV_cooperative_matrix : require
#extension GL_NV_integer_cooperative_matrix : require
#define VKB_MMA_AHEAD 8
#include "bitnet_mma_sg.glsl"
