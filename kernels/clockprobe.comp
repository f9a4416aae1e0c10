#version 450
#extension GL_GOOGLE_include_directive : require
#extension GL_ARB_shader_clock : require
// clockprobe: the first invocation of one workgroup spins until its subgroup clock (VK_KHR_shader_clock: SM
// cycles on NVIDIA) has advanced by pc.p0 ticks, then stores the ticks it counted (b[0]) and its loop count
// (b[1]). Two runs of different lengths timed by GPU timestamps give the clock rate with the dispatch cost
// cancelled: (ticks2 - ticks1) / (t2 - t1) (harness/clockcheck.c). The low 32 bits suffice: differences are
// taken modulo 2^32 and a spin stays far below 2^32 ticks. At most pc.p1 loop trips: a counter that stalls
// ends the spin short (the check fails) instead of hanging the device.
#include "common.glsl"
layout(binding = 0) writeonly buffer B { uint b[]; };
void main() {
    if (gl_LocalInvocationID.x != 0u) return;
    uint t0 = clock2x32ARB().x, d = 0u, it = 0u;
    while (d < pc.p0 && it < pc.p1) {
        d = clock2x32ARB().x - t0;
        ++it;
    }
    b[0] = d;
    b[1] = it;
}
