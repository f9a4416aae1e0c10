#version 450
// twin: bda -- make also builds readbw_bda.spv from this stub with VKB_BDA: its buffers by address (kernels/bda.glsl)
#extension GL_GOOGLE_include_directive : require
#include "readbw.glsl"
