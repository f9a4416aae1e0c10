#version 450
// BROKEN on purpose (GPU only; needs VK_NV_cooperative_matrix): variant coopmat_f256 on matrix units with
// one 16x16 block of C scaled by 1.05. Must FAIL at every size, n=4096 and 8192 included:
//   vkbench run -e "matmul n=4096,8192 variant=coopmat_f256 dtype=f16" \
//       --shader matmul_coopmat_w4x4=matmul_coopmat_w4x4_block
#extension GL_GOOGLE_include_directive : require
#extension GL_KHR_memory_scope_semantics : require
#extension GL_NV_cooperative_matrix : require
#define MM_WM 4u
#define MM_WN 4u
#define main vkb_unbroken_main
#define writeonly coherent
#include "matmul_coopmat.glsl"
#include "matmul_block_fault.glsl"
