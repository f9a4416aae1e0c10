#version 450
#extension GL_GOOGLE_include_directive : require
// Per-token int8 activation quantization, optionally RMSNorm-fused: see bitnet_aquant.glsl
#include "bitnet_aquant.glsl"
