#version 450
// BROKEN on purpose (tests/run.sh): the BitLinear GEMM (plain integer path) with the int32 accumulator of
// one output, token M/2 and row N/2, off by one: y off by one quantum gamma'/s there, nowhere else.
// Run as: vkbench run --shader bitnet_gemm_int=bitnet_gemm_int_offbyone ...
#extension GL_GOOGLE_include_directive : require
#include "common.glsl"
#include "bitnet_common.glsl"
bool vkb_fault_done = false;  // per invocation: add the one exactly once
int vkb_fault(uint tok, uint row) {
    if (vkb_fault_done || tok != pc.m / 2u || row != pc.n / 2u) return 0;
    vkb_fault_done = true;
    return 1;  // BUG (deliberate)
}
// Every dot product the GEMM body adds into acc[i][j] passes through here (the inner dot_ss is the function).
#define dot_ss(a, b) (dot_ss(a, b) + vkb_fault(m0 + ty + 16u * i, n0 + tx + 16u * j))
#include "bitnet_gemm.glsl"
