#version 450
// BROKEN on purpose (tests/run.sh): the dense fp16-weight streaming tiling (algo=stream_emu, matrix operations
// emulated) whose in-kernel reduction over the SK K slices of a workgroup leaves out the last one, so every
// output misses that slice's share of the sum. Run as: vkbench run --shader dense_stream_emu_w2x2=dense_stream_emu_dropslice
// ... m=17..32 sk=N (N > 1)
#extension GL_GOOGLE_include_directive : require
#define VKB_COOP_EMU
#define DS_WN 2u
#define DS_MT 2u
#define DS_SUM_END (SK - 1u)  // BUG (deliberate)
#include "dense_stream.glsl"
