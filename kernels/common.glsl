// Shared by every shader: the ABI (push constants), the workgroup-size spec constant,
// and helpers for flat indexing over 2-D dispatch grids (maxComputeWorkGroupCount.x may be 65535).
#ifndef VKB_COMMON_GLSL
#define VKB_COMMON_GLSL
#extension GL_GOOGLE_include_directive : require
#include "abi.h"

layout(local_size_x_id = 0, local_size_y = 1, local_size_z = 1) in;

// Flat workgroup index for a grid split as (x, y) by vkb_grid_1d on the host.
uint vkb_group_id() { return gl_WorkGroupID.y * gl_NumWorkGroups.x + gl_WorkGroupID.x; }
uint vkb_global_id() { return vkb_group_id() * gl_WorkGroupSize.x + gl_LocalInvocationID.x; }

// Gate self-test knob: burn pc.slow dependent iterations so a kernel becomes slower by a known amount.
// The result must depend on y in a way no compiler can fold: lavapipe's NIR/LLVM folded the former
// `y - y + x` to x and dropped the loop (no slowdown at any count). An all-ones bit pattern is a NaN that
// only a NaN input can reach, and then the output is NaN either way: the result is x for every input.
float vkb_slow(float x) {
    float y = x;
    for (uint i = 0u; i < pc.slow; ++i) y = y * 0.9999999f + 1e-30f;
    return floatBitsToUint(y) == 0xFFFFFFFFu ? y : x;
}
#endif
