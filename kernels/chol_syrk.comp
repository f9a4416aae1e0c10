#version 450
// Cholesky trailing update, 64x64 lower tiles, 4x4 per invocation (256 invocations): chol_syrk.glsl.
#extension GL_GOOGLE_include_directive : require
#define TM 64u
#define TN 64u
#define TK 16u
#define RM 4u
#define RN 4u
#include "chol_syrk.glsl"
