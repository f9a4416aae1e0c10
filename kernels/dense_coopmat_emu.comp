#version 450
// dense_coopmat.glsl with the matrix operations emulated (validation of its tiling and split-K without matrix units)
#extension GL_GOOGLE_include_directive : require
#define VKB_COOP_EMU
#include "dense_coopmat.glsl"
