#version 450
#extension GL_GOOGLE_include_directive : require
// A deliberately broken transpose for tests/run.sh (`--shader transpose=transpose_canon`), bindings and tiling as
// transpose.glsl, the words moved as bits: it "canonicalises" on the way, -0 to +0 and a negative NaN to +NaN.
// Every value still compares equal as a number; only a bitwise check (a transpose moves bits) catches it.
#include "common.glsl"
layout(binding = 0) readonly buffer X { uint x[]; };
layout(binding = 1) writeonly buffer Y { uint y[]; };
shared uint tile[32][33];
void main() {
    uint rows = pc.n, cols = pc.m;
    uint tx = gl_LocalInvocationID.x % 32u, ty = gl_LocalInvocationID.x / 32u;
    uint c0 = gl_WorkGroupID.x * 32u, r0 = gl_WorkGroupID.y * 32u;
    for (uint k = 0u; k < 32u; k += 8u) {
        uint r = r0 + ty + k, c = c0 + tx;
        if (r < rows && c < cols) tile[ty + k][tx] = x[r * cols + c];
    }
    barrier();
    for (uint k = 0u; k < 32u; k += 8u) {
        uint c = c0 + ty + k, r = r0 + tx, b = tile[tx][ty + k];
        if (r < rows && c < cols)   // BUG: -0 -> +0, a negative NaN -> the positive quiet NaN
            y[c * rows + r] = b == 0x80000000u ? 0u : (b & 0xff800000u) == 0xff800000u && (b & 0x7fffffu) != 0u ? 0x7fc00000u : b;
    }
}
