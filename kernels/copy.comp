#version 450
#extension GL_GOOGLE_include_directive : require
// copy: b = a. The bandwidth yardstick every row is compared with (bytes read + written).
#include "common.glsl"
layout(binding = 0) readonly buffer A4 { vec4 a4[]; };
layout(binding = 0) readonly buffer A1 { float a1[]; };
layout(binding = 1) writeonly buffer B4 { vec4 b4[]; };
layout(binding = 1) writeonly buffer B1 { float b1[]; };
void main() {
    uint i = vkb_global_id();          // one vec4 per invocation
    uint n = pc.n;
    if (4u * i + 3u < n) {
        b4[i] = a4[i];
    } else {
        for (uint j = 4u * i; j < n; ++j) b1[j] = a1[j];
    }
}
