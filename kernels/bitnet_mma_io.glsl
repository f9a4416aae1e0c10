// Declarations shared by the BitLinear MMA kernels (bitnet_mma.glsl, bitnet_mma_sg.glsl): the buffers (bitnet_bufs.glsl: 0
// packed W, 1 gamma', 2 xq, 3 s, 4 y, 5 part), spec constants 1..6 (fragment LM x LN x LK, WN row fragments per subgroup, SGS
// subgroups, MT token fragments) and the byte sum behind sum_k x.
#ifndef BITNET_MMA_IO_GLSL
#define BITNET_MMA_IO_GLSL
#extension GL_EXT_control_flow_attributes : enable
#extension GL_KHR_shader_subgroup_basic : require
#include "common.glsl"
#include "bitnet_layout.glsl"
layout(constant_id = 1) const uint LM = 16u;
layout(constant_id = 2) const uint LN = 8u;
layout(constant_id = 3) const uint LK = 32u;
layout(constant_id = 4) const uint WN = 2u;
layout(constant_id = 5) const uint SGS = 4u;
layout(constant_id = 6) const uint MT = 1u;

#include "bitnet_bufs.glsl"

const uint WG = gl_WorkGroupSize.x;
const uint TN = LN * MT;

// Word q of a packed group (T2, bitnet_layout.glsl) as 4 uvec4 of codes c = w + 1, one per byte, weights 16 q .. 16 q + 15
// in order: (word >> 2j) & 0x03030303 holds weights 16 q + 4 j + 0..3.
uvec4 bitnet_codes(uint word) { return (uvec4(word) >> uvec4(0u, 2u, 4u, 6u)) & 0x03030303u; }

int bytesum(uint u) {
    int i = int(u);
    return bitfieldExtract(i, 0, 8) + bitfieldExtract(i, 8, 8) + bitfieldExtract(i, 16, 8) + bitfieldExtract(i, 24, 8);
}
#endif
