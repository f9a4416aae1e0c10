#version 450
// matmul_coopmat_wg.glsl on workgroup-scope matrices, the next step's tiles loaded before this step's MulAdd
// (coopmat_wgp), for 128 invocations
#extension GL_GOOGLE_include_directive : require
#define VKB_WG_DEFAULT 128
#define VKB_WG_PF 1
#include "matmul_coopmat_wg.glsl"
