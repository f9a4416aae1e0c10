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
// No compiler may prove the loop dead: lavapipe's NIR/LLVM folded the former `y - y + x` to x, and a test
// on y's bit pattern that only a NaN could pass is foldable by a compiler that knows its FMA returns a
// canonical NaN. So y reaches the result through a mask from the push constants: the top byte of
// pc.slow, which the host always leaves 0 (counts stop at 2^24 - 1). x ^ (y & 0) is x, bit for bit.
float vkb_slow(float x) {
    float y = x;
    uint count = pc.slow & 0xFFFFFFu, mask = pc.slow >> 24;
    for (uint i = 0u; i < count; ++i) y = y * 0.9999999f + 1e-30f;
    return uintBitsToFloat(floatBitsToUint(x) ^ (floatBitsToUint(y) & mask));
}
#endif
