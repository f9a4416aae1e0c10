#version 450
// coop_layout.glsl for the emulated fragments (bitnet_mma_ops.glsl with VKB_COOP_EMU): the order the _emu kernels use
#extension GL_GOOGLE_include_directive : require
#extension GL_KHR_shader_subgroup_basic : require
#define VKB_COOP_EMU
#include "coop_layout.glsl"
