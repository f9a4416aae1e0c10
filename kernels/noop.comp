#version 450
// twin: bda -- make also builds noop_bda.spv from this stub with VKB_BDA: its buffers by address (kernels/bda.glsl)
#extension GL_GOOGLE_include_directive : require
// noop: one workgroup whose first invocation stores one word: the cost of a dispatch and its barrier. Its twin
// noop_bda (bind=bda) reaches the word by address (kernels/bda.glsl).
#include "common.glsl"
#ifdef VKB_BDA
#include "bda.glsl"
VKB_REF(NoopOut, writeonly, uint, 4);
#define NOOP_B NoopOut(VKB_ADDR(0u)).v
#else
layout(binding = 0) writeonly buffer B { uint b[]; };
#define NOOP_B b
#endif
void main() {
    if (gl_LocalInvocationID.x == 0u) NOOP_B[0] = pc.p0;
}
