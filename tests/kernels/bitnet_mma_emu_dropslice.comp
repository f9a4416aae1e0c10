#version 450
// BROKEN on purpose (tests/run.sh): BitLinear on emulated int8 matrix units (bitnet_linear algo=mma_emu) whose last K
// slice never writes its partial sums, so the split-K epilogue (bitnet_mma_sum.comp) adds whatever the scratch
// buffer holds instead of that slice's share of every accumulator.
// Run as: vkbench run --shader bitnet_mma_emu=bitnet_mma_emu_dropslice ... algo=mma_emu split=N (N > 1)
#extension GL_GOOGLE_include_directive : require
#define VKB_COOP_EMU
#define main vkb_unbroken_main
#include "bitnet_mma.glsl"
#undef main
void main() {
    if (pc.p2 > 1u && gl_WorkGroupID.y == pc.p2 - 1u) return;  // BUG (deliberate)
    vkb_unbroken_main();
}
