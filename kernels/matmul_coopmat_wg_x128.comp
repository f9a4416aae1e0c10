#version 450
// matmul_coopmat_wg.glsl with tensor-addressed loads (harness/spvkhr.c), for 128 invocations
#extension GL_GOOGLE_include_directive : require
#define VKB_WG_DEFAULT 128
#define VKB_WG_TENSOR 1
#include "matmul_coopmat_wg.glsl"
