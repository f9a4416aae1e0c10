// 2-D transpose: y (cols x rows) = x (rows x cols)^T through a 32x33 shared tile (the +1 column
// avoids bank conflicts). Workgroup 32 x 8; each invocation moves 4 elements.
#include "common.glsl"
#include "types.glsl"
layout(binding = 0) readonly buffer X { T x[]; };
layout(binding = 1) writeonly buffer Y { T y[]; };
shared T tile[32][33];
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
        uint c = c0 + ty + k, r = r0 + tx;   // output row c, column r
        if (r < rows && c < cols) y[c * rows + r] = tile[tx][ty + k];
    }
}
