#version 450
// BROKEN on purpose (tests/run.sh): the coopmat tiling with its matrix operations emulated (variant
// coopmat_emu; lavapipe has no matrix units) with one 16x16 block of C scaled by 1.05.
// Run as: vkbench run --shader matmul_coopmat_emu=matmul_coopmat_emu_block ...
#extension GL_GOOGLE_include_directive : require
#define VKB_COOP_EMU
#define main vkb_unbroken_main
#define writeonly coherent
#include "matmul_coopmat.glsl"
#include "matmul_block_fault.glsl"
