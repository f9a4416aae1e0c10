#version 450
// BROKEN on purpose (tests/run.sh): the fp32 tiled matmul with one 16x16 block of C scaled by 1.05.
// Run as: vkbench run --shader matmul_tiled=matmul_tiled_block ...
#extension GL_GOOGLE_include_directive : require
#define main vkb_unbroken_main
#define writeonly coherent
#include "matmul_tiled.glsl"
#include "matmul_block_fault.glsl"
