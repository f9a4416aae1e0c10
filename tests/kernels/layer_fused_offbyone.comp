#version 450
// BROKEN on purpose (tests/run.sh): bitnet_layer fuse=1 (variant=int) whose LAST workgroup quantizes one activation
// code off by one for itself (invocation 0's first code of its tile's first token), as a workgroup whose statistics
// or rounding drifted from the others' would. Workgroup 0 writes the intermediates xq, s, r correctly, so the code
// check passes; the outputs of the last workgroup's rows must FAIL the y check.
// Run as: vkbench run --shader bitnet_layer_fused_int=layer_fused_offbyone ...
#extension GL_GOOGLE_include_directive : require
#define AQ_BIND_X 5
#define AQ_BIND_Q 2
#define AQ_BIND_S 3
#define AQ_BIND_G 6
#define AQ_BIND_R 7
#define AQ_LIB
#include "bitnet_aquant.glsl"
uint bad_calls = 0u;
uint aq_pack_bad(vec4 v, float s) {
    uint c = aq_pack(v, s);
    bool last = gl_NumWorkGroups.x > 1u && gl_WorkGroupID.x == gl_NumWorkGroups.x - 1u;
    if (last && gl_LocalInvocationID.x == 0u && bad_calls++ == 0u) c ^= 1u;  // BUG (deliberate): code 0 changes by 1
    return c;
}
#define aq_pack aq_pack_bad
#include "bitnet_layer_fused.glsl"
