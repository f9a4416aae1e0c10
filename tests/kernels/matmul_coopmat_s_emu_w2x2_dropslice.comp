#version 450
// BROKEN on purpose (tests/run.sh): coopmat_s's 32x32 tiling (2x2 accumulators per subgroup) with its matrix
// operations emulated, whose last K slice never stores its partial sums to shared memory: the in-workgroup
// split-K reduction then adds whatever that shared slot holds instead of that slice's share of every output.
// Run as: vkbench run --shader matmul_coopmat_s_emu_w2x2=matmul_coopmat_s_emu_w2x2_dropslice ... split=N (N > 1)
#extension GL_GOOGLE_include_directive : require
#extension GL_KHR_shader_subgroup_basic : require
#define VKB_COOP_EMU
#define MM_WM 2u
#define MM_WN 2u
#define STORE_RED(acc, elem, stride) if (ks + 1u < SK) emu_store_red(acc, elem, stride)  // BUG (deliberate)
#include "matmul_coopmat_s.glsl"
