#version 450
#define VKB_BDA  // the twin of readbw.comp that reaches its buffers by address (bind=bda, kernels/bda.glsl)
#extension GL_GOOGLE_include_directive : require
#include "readbw.glsl"
