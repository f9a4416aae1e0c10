#version 450
// fp32 unary ops: see unary.glsl
#extension GL_GOOGLE_include_directive : require
#include "unary.glsl"
