#version 450
// bitnet_layer fuse=1, packed 4x8 dot products: see bitnet_layer_fused.glsl
#extension GL_GOOGLE_include_directive : require
#define BITNET_DOT
#include "bitnet_layer_fused.glsl"
