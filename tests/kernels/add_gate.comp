#version 450
#extension GL_GOOGLE_include_directive : require
// An fp32 add for the harness's own tests (tests/run.sh), bindings as binary.glsl: right only where the gate's knob is
// compiled out (VKB_GATE = 0, kernels/common.glsl), one element off where it is compiled in. As a case's timed
// pipeline it must PASS: the harness builds every pipeline but a slowed one's with VKB_GATE_SPEC = 0.
#include "common.glsl"
layout(binding = 0) readonly buffer A { float a[]; };
layout(binding = 1) readonly buffer B { float b[]; };
layout(binding = 2) writeonly buffer C { float c[]; };
void main() {
    uint n = pc.n;
    for (uint j = 4u * vkb_global_id(); j < min(4u * vkb_global_id() + 4u, n); ++j)
        c[j] = a[j] + b[j] + (VKB_GATE != 0u && j == n / 2u ? 1.0 : 0.0);
}
