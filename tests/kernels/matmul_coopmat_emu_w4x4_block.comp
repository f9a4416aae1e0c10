#version 450
// BROKEN on purpose (tests/run.sh): the emulated coopmat tiling of variant coopmat_f256_emu (4 x 4
// accumulators per subgroup, as coopmat_f256 on matrix units) with one 16x16 block of C scaled by 1.05.
// Run as: vkbench run --shader matmul_coopmat_emu_w4x4=matmul_coopmat_emu_w4x4_block ...
#extension GL_GOOGLE_include_directive : require
#define VKB_COOP_EMU
#define MM_WM 4u
#define MM_WN 4u
#define main vkb_unbroken_main
#define writeonly coherent
#include "matmul_coopmat.glsl"
#include "matmul_block_fault.glsl"
