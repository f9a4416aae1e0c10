#version 450
#extension GL_GOOGLE_include_directive : require
// noop: one workgroup whose first invocation stores one word: the cost of a dispatch and its barrier.
#include "common.glsl"
layout(binding = 0) writeonly buffer B { uint b[]; };
void main() {
    if (gl_LocalInvocationID.x == 0u) b[0] = pc.p0;
}
