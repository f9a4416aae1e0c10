#version 450
// BROKEN on purpose (tests/run.sh): BitLinear gemv_ps (plain integer path) whose odd items do their math on the
// even buffer: every odd row block of a worker gets the weights of the block before it, so its outputs are wrong
// while the first block of every worker is right. Run as: --shader bitnet_gemv_ps_int=bitnet_gemv_ps_pingpong
#extension GL_GOOGLE_include_directive : require
#define PS_ODD 0u  // BUG (deliberate)
#include "bitnet_gemv_ps.glsl"
