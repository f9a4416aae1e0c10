#version 450
// fp32 binary ops: see binary.glsl
#extension GL_GOOGLE_include_directive : require
#include "binary.glsl"
