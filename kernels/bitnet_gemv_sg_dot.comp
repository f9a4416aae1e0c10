#version 450
// twin: bda -- make also builds bitnet_gemv_sg_dot_bda.spv from this stub with VKB_BDA: its buffers by address (kernels/bda.glsl)
// BitLinear GEMV in subgroup row blocks, packed 4x8 dot products: see bitnet_gemv_sg.glsl
#extension GL_GOOGLE_include_directive : require
#define BITNET_DOT
#include "bitnet_gemv_sg.glsl"
