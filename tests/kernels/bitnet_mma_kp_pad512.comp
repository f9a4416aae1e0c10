#version 450
// The occupancy probe (tests/gpu/run.sh occupancy): algo=mma_kp with its shared array 512 uvec4 longer, unused, the same
// code otherwise. At m=64 xs=1 sk=1 sgs=4 ah=2 its 16384 B become 24576 B. Run as: vkbench run
// --shader bitnet_mma_kp=bitnet_mma_kp_pad512 ... algo=mma_kp bind=desc
#extension GL_GOOGLE_include_directive : require
#extension GL_EXT_shader_explicit_arithmetic_types_int8 : require
#extension GL_KHR_memory_scope_semantics : require
#extension GL_NV_cooperative_matrix : require
#extension GL_NV_integer_cooperative_matrix : require
#define KP_PAD 512u
#include "bitnet_mma_kp.glsl"
