#version 450
// QR block reflector, step 2: W2 = op(T) * sum_s W_s for 64 columns per workgroup (256 invocations).
// Spec constant 3 TRANS: 1 applies Q^T = I - V T^T V^T (factorization), 0 applies Q = I - V T V^T.
#extension GL_GOOGLE_include_directive : require
#include "qr_common.glsl"
layout(constant_id = 3) const uint TRANS = 1u;
shared float Ts[32][33];
shared float Ws[32][65];

void main() {
    uint jb = pc.p1, lid = gl_LocalInvocationID.x, c0 = pc.p3 + gl_WorkGroupID.x * 64u;
    for (uint e = lid; e < 32u * 32u; e += 256u) {
        uint a = e / 32u, b = e % 32u;
        Ts[a][b] = a < jb && b < jb ? ws[pc.q3 + a * jb + b] : 0.0;
    }
    for (uint e = lid; e < 32u * 64u; e += 256u) {
        uint a = e / 64u, col = c0 + e % 64u;
        float s = 0.0;
        if (a < jb && col < pc.n)
            for (uint k = 0u; k < pc.p2; ++k) s += ws[pc.q1 + k * 32u * pc.n + a * pc.n + col];
        Ws[a][e % 64u] = s;
    }
    barrier();
    for (uint e = lid; e < 32u * 64u; e += 256u) {
        uint a = e / 64u, b = e % 64u;
        float s = 0.0;
        for (uint k = 0u; k < jb; ++k) s += (TRANS != 0u ? Ts[k][a] : Ts[a][k]) * Ws[k][b];
        if (c0 + b < pc.n) ws[pc.q2 + a * pc.n + c0 + b] = s;
    }
}
