#version 450
#extension GL_GOOGLE_include_directive : require
// A deliberately broken copy for tests/run.sh (`--shader copy=copy_nanzero`), bindings as copy.comp:
// a "sanitising" copy that writes +0 for every NaN. Only fill=special gives it a NaN to drop.
#include "common.glsl"
layout(binding = 0) readonly buffer A { uint a[]; };
layout(binding = 1) writeonly buffer B { uint b[]; };
void main() {
    uint n = pc.n, i0 = 4u * vkb_global_id();
    for (uint j = i0; j < min(i0 + 4u, n); ++j)
        b[j] = (a[j] & 0x7fffffffu) > 0x7f800000u ? 0u : a[j];   // BUG: NaN becomes +0
}
