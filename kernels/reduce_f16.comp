#version 450
#extension GL_GOOGLE_include_directive : require
// fp16-input whole-vector reductions (fp32 accumulation): see reduce.glsl
#define VKB_F16
#include "reduce.glsl"
