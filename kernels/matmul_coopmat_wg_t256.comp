#version 450
// matmul_coopmat_wg.glsl on workgroup-scope matrices (rewritten to KHR at load, harness/spvkhr.c), for 256 invocations
#extension GL_GOOGLE_include_directive : require
#define VKB_WG_DEFAULT 256
#include "matmul_coopmat_wg.glsl"
