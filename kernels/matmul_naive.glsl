// Naive matmul: one invocation per output element, no reuse beyond the caches: the floor.
// Layouts: A row-major M x K, B row-major K x N (as given), C row-major M x N in fp32.
// Push: pc.m = M, pc.n = N, pc.k = K. Workgroup 16 x 16 outputs (spec 0 = 256), grid (ceil(N/16), ceil(M/16)).
#include "common.glsl"
#include "types.glsl"
layout(binding = 0) readonly buffer A1 { T a[]; };
layout(binding = 1) readonly buffer B1 { T b[]; };
layout(binding = 2) writeonly buffer C1 { float c[]; };

void main() {
    // Consecutive invocations take consecutive columns: B reads and C writes coalesce, A is broadcast.
    uint col = gl_WorkGroupID.x * 16u + gl_LocalInvocationID.x % 16u;
    uint row = gl_WorkGroupID.y * 16u + gl_LocalInvocationID.x / 16u;
    if (row >= pc.m || col >= pc.n) return;
    float acc = 0.0;
    for (uint k = 0u; k < pc.k; ++k) acc += float(a[row * pc.k + k]) * float(b[k * pc.n + col]);
    c[row * pc.n + col] = acc;
}
