// Shared by the one-sided Jacobi SVD shaders. Buffers: 0 a (m x n input), 1 u (m x n), 2 s (n), 3 v (n x n),
// 4 ws: X = the working columns of A stored as rows (n x m) at 0, Y = the columns of V as rows (n x n)
// at n*m, sigma (n) at n*m + n*n; 5 info: [0] sweeps done, [1] converged flag, [2] rotations this sweep.
// pc.n = n, pc.m = m.
#extension GL_GOOGLE_include_directive : require
#include "common.glsl"
layout(binding = 4) buffer WS { float ws[]; };
layout(binding = 5) buffer Info { uint info[]; };
uint svd_y0() { return pc.n * pc.m; }
uint svd_sig0() { return pc.n * pc.m + pc.n * pc.n; }
