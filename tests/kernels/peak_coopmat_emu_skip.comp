#version 450
#extension GL_GOOGLE_include_directive : require
// A deliberately broken matrix-unit probe for the harness's own tests (tests/run.sh): the emulated
// fp16/fp32 probe (kernels/peak_coopmat.glsl) with its last round skipped. The exact check must see it.
#extension GL_EXT_shader_16bit_storage : require
#extension GL_EXT_shader_explicit_arithmetic_types_float16 : require
#define A_T float16_t
#define A_BYTES 2u
#define C_T float
#define C_BYTES 4u
#define PEAK_EMULATED
#define PEAK_NO_MAIN
#include "peak_coopmat.glsl"
void main() {
    uint sg = vkb_group_id() * gl_NumSubgroups + gl_SubgroupID;
    if (sg >= pc.n) return;
    for (uint e = gl_SubgroupInvocationID; e < GM * GN * lM * lN; e += gl_SubgroupSize) {
        uint c = e % lN, r = (e / lN) % lM, j = (e / (lN * lM)) % GN, i = e / (lN * lM * GN);
        uint o = (i * GN + j) * lM * SC + r * SC + c;
        C_T acc = c0[o];
        for (uint it = 1u; it < pc.m; ++it) {  // BUG: one round short
            acc += dot_row_col(i * lM * SA, B_BASE + j * lK * SB, r, c);
            acc += dot_row_col(i * lM * SA, B_BASE + (GN + j) * lK * SB, r, c);
        }
        if (sg < pc.p1) y[sg * GM * GN * lM * SC + o] = acc;
    }
}
