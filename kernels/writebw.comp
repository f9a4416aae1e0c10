#version 450
#extension GL_GOOGLE_include_directive : require
// writebw: write-only bandwidth. b[i] = i ^ pc.p0, one uvec4 per invocation; nothing is read.
#include "common.glsl"
layout(binding = 0) writeonly buffer B4 { uvec4 b4[]; };
layout(binding = 0) writeonly buffer B1 { uint b1[]; };
void main() {
    uint i = vkb_global_id(), n = pc.n;
    if (4u * i + 3u < n) {
        b4[i] = uvec4(4u * i, 4u * i + 1u, 4u * i + 2u, 4u * i + 3u) ^ uvec4(pc.p0);
    } else {
        for (uint j = 4u * i; j < n; ++j) b1[j] = j ^ pc.p0;
    }
}
