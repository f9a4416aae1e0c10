#version 450
// matmul_coopmat_wg.glsl on workgroup-scope matrices (rewritten to KHR at load, harness/spvkhr.c)
#extension GL_GOOGLE_include_directive : require
#include "matmul_coopmat_wg.glsl"
