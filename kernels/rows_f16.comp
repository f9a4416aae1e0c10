#version 450
#extension GL_GOOGLE_include_directive : require
// fp16-storage row-wise kernels (fp32 arithmetic): see rows.glsl
#define VKB_F16
#include "rows.glsl"
