#version 450
// dense_stream.glsl with 2 row x 2 token fragments per subgroup, matrix operations emulated (validation only)
#extension GL_GOOGLE_include_directive : require
#define VKB_COOP_EMU
#define DS_WN 2u
#define DS_MT 2u
#include "dense_stream.glsl"
