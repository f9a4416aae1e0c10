#version 450
// bitnet_layer fuse=1, plain integer multiply-add: see bitnet_layer_fused.glsl
#extension GL_GOOGLE_include_directive : require
#include "bitnet_layer_fused.glsl"
