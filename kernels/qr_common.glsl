// Shared by the QR block-reflector shaders. Buffers: 1 = r (V below the diagonal of each panel, R above),
// 2 = q, 3 = ws (tau, T per panel, partial products). Spec constant 2 CBUF picks the matrix being
// updated (1 = r during the factorization, 2 = q while Q is formed).
// Push: pc.n = n (ld of r and q), pc.m = m, pc.p0 = j0, pc.p1 = jb (panel), pc.p2 = splits,
//       pc.p3 = first column of C, pc.k = rows per split, pc.q1 = W offset, pc.q2 = W2 offset, pc.q3 = T offset.
#extension GL_GOOGLE_include_directive : require
#include "common.glsl"
layout(binding = 1) buffer R { float r[]; };
layout(binding = 2) buffer Q { float q[]; };
layout(binding = 3) buffer WS { float ws[]; };
layout(constant_id = 2) const uint CBUF = 1u;

// Householder vector c of the current panel at panel row i: unit diagonal, zeros above, stored below.
float qr_v(uint i, uint c) {
    if (c >= pc.p1 || i < c || pc.p0 + i >= pc.m) return 0.0;
    return i == c ? 1.0 : r[(pc.p0 + i) * pc.n + pc.p0 + c];
}
float qr_c(uint i, uint j) { return CBUF == 1u ? r[i * pc.n + j] : q[i * pc.n + j]; }
