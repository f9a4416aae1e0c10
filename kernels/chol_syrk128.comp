#version 450
// Cholesky trailing update, 128x128 lower tiles, 8x8 per invocation (256 invocations): chol_syrk.glsl.
// Twice the FMAs per shared-memory load of chol_syrk.comp (64 per 16 loads against 16 per 8) and half the
// L2 traffic per flop, as kernels/matmul_tiled.glsl's default 128x128/8x8 tiling; a quarter of the tiles,
// which matters only once the trailing matrix is small (where the step is latency-bound anyway).
#extension GL_GOOGLE_include_directive : require
#define TM 128u
#define TN 128u
#define TK 16u
#define RM 8u
#define RN 8u
#include "chol_syrk.glsl"
