#version 450
#define VKB_BDA  // the twin of bitnet_gemv_sg_dot.comp that reaches its buffers by address (bind=bda, kernels/bda.glsl)
// BitLinear GEMV in subgroup row blocks, packed 4x8 dot products: see bitnet_gemv_sg.glsl
#extension GL_GOOGLE_include_directive : require
#define BITNET_DOT
#include "bitnet_gemv_sg.glsl"
