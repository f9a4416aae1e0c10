#version 450
// BROKEN on purpose (tests/run.sh): the dense fp16-weight coopmat tiling with its matrix operations emulated
// (algo=coopmat_emu; lavapipe has no matrix units) whose last K slice never writes its partial sums, so the
// split-K reduction adds whatever the scratch buffer holds instead of that slice's share of every output.
// Run as: vkbench run --shader dense_coopmat_emu=dense_coopmat_emu_dropslice ... split=N (N > 1)
#extension GL_GOOGLE_include_directive : require
#define VKB_COOP_EMU
#define main vkb_unbroken_main
#include "dense_coopmat.glsl"
#undef main
void main() {
    if (pc.p2 > 1u && gl_WorkGroupID.y == pc.p2 - 1u) return;  // BUG (deliberate)
    vkb_unbroken_main();
}
