// Shared by the BitNet shaders: workgroup reductions and the 4x8-bit dot products.
#ifndef BITNET_COMMON_GLSL
#define BITNET_COMMON_GLSL
#extension GL_KHR_shader_subgroup_basic : require
#extension GL_KHR_shader_subgroup_arithmetic : require
#include "bitnet_layout.glsl"
#if BITNET_GROUP != 64 || BITNET_WORD != 16
#error "the shaders assume 64-weight groups of four 16-weight words"
#endif

// Workgroup reductions: subgroup op, one value per subgroup in shared memory, then every invocation
// combines them in the same order, so all see the same value. Needs <= 64 subgroups.
shared float bitnet_red[64];
float wg_sum(float v) {
    v = subgroupAdd(v);
    if (subgroupElect()) bitnet_red[gl_SubgroupID] = v;
    barrier();
    float s = 0.0;
    for (uint i = 0u; i < gl_NumSubgroups; ++i) s += bitnet_red[i];
    barrier();
    return s;
}
float wg_max(float v) {
    v = subgroupMax(v);
    if (subgroupElect()) bitnet_red[gl_SubgroupID] = v;
    barrier();
    float s = 0.0;
    for (uint i = 0u; i < gl_NumSubgroups; ++i) s = max(s, bitnet_red[i]);
    barrier();
    return s;
}

#include "bitnet_dot.glsl"
#endif
