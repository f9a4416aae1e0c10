#version 450
#extension GL_GOOGLE_include_directive : require
// A deliberately broken fp32 add for the harness's own tests (tests/run.sh), bindings as binary.glsl: right on
// the first call after the upload, then each call adds 1 to its input a, so every later call computes another c.
// Only the recheck after timing (harness/run.c case_recheck) can see it.
#include "common.glsl"
layout(binding = 0) buffer A { float a[]; };
layout(binding = 1) readonly buffer B { float b[]; };
layout(binding = 2) writeonly buffer C { float c[]; };
void main() {
    uint n = pc.n;
    for (uint j = 4u * vkb_global_id(); j < min(4u * vkb_global_id() + 4u, n); ++j) {
        float x = a[j];
        c[j] = x + b[j];
        a[j] = x + 1.0;   // BUG: state carried into the next call
    }
}
