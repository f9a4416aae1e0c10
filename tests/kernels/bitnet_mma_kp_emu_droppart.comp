#version 450
// BROKEN on purpose (tests/run.sh): BitLinear with K parts in the workgroup (algo=mma_kp_emu, matrix operations
// emulated) whose final sum over the SK parts leaves out the last one, so every output misses that part's share of
// its accumulator. Run as: vkbench run --shader bitnet_mma_kp_emu=bitnet_mma_kp_emu_droppart ... algo=mma_kp_emu sk=N (N > 1)
#extension GL_GOOGLE_include_directive : require
#define VKB_COOP_EMU
#define KP_SUM_END (SK - 1u)  // BUG (deliberate)
#include "bitnet_mma_kp.glsl"
