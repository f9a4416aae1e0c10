// Dense fp16-weight baseline for BitLinear, larger batches: SIMT fp32-accumulating GEMM with the tiling of
// bitnet_gemm.glsl (64 rows x BM tokens, 256 invocations, rows tx + 16j x tokens ty + 16i). K advances 32
// per step; W and x are converted to fp32 once when staged in shared memory (row stride 36 floats: vec4
// reads of 8 consecutive rows hit distinct banks). No tensor cores: see the matmul family for coopmat.
// Buffers and push as dense_gemv.comp. Grid: (ceil(N/64), ceil(M/BM)).
#include "common.glsl"
layout(constant_id = 1) const uint BM = 64u;
const uint TM = BM / 16u, STRIDE = 9u;  // STRIDE in vec4
layout(binding = 0) readonly buffer Wb { uvec4 w[]; };
layout(binding = 1) readonly buffer Xb { uvec4 x[]; };
layout(binding = 2) writeonly buffer Yb { float y[]; };
shared vec4 sw[64u * STRIDE];
shared vec4 sxm[BM * STRIDE];

// 8 halves -> two vec4 at row*STRIDE + 2*q (q = which uvec4 of the 32-wide step)
void stage(uint slot, uvec4 v, bool isw) {
    vec4 lo = vec4(unpackHalf2x16(v.x), unpackHalf2x16(v.y)), hi = vec4(unpackHalf2x16(v.z), unpackHalf2x16(v.w));
    if (isw) sw[slot] = lo, sw[slot + 1u] = hi;
    else sxm[slot] = lo, sxm[slot + 1u] = hi;
}

void main() {
    uint tid = gl_LocalInvocationID.x, tx = tid % 16u, ty = tid / 16u, nc = pc.p0;
    uint n0 = gl_WorkGroupID.x * 64u, m0 = gl_WorkGroupID.y * BM;
    vec4 acc[TM];  // acc[i][j]: token ty + 16i, row tx + 16j
    for (uint i = 0u; i < TM; ++i) acc[i] = vec4(0.0);
    for (uint c = 0u; c < nc; c += 4u) {
        for (uint e = tid; e < 256u; e += 256u) {  // 64 rows x 4 uvec4
            uint row = e / 4u, q = e % 4u;
            stage(row * STRIDE + 2u * q, c + q < nc ? w[min(n0 + row, pc.n - 1u) * nc + c + q] : uvec4(0u), true);
        }
        for (uint e = tid; e < BM * 4u; e += 256u) {
            uint tok = e / 4u, q = e % 4u;
            stage(tok * STRIDE + 2u * q, c + q < nc ? x[min(m0 + tok, pc.m - 1u) * nc + c + q] : uvec4(0u), false);
        }
        barrier();
        for (uint kk = 0u; kk < 8u; ++kk) {
            vec4 b[4];
            for (uint j = 0u; j < 4u; ++j) b[j] = sw[(tx + 16u * j) * STRIDE + kk];
            for (uint i = 0u; i < TM; ++i) {
                vec4 a = sxm[(ty + 16u * i) * STRIDE + kk];
                acc[i] += vec4(dot(a, b[0]), dot(a, b[1]), dot(a, b[2]), dot(a, b[3]));
            }
        }
        barrier();
    }
    for (uint i = 0u; i < TM; ++i) {
        uint tok = m0 + ty + 16u * i;
        for (uint j = 0u; j < 4u; ++j) {
            uint row = n0 + tx + 16u * j;
            if (tok < pc.m && row < pc.n) y[tok * pc.n + row] = acc[i][j];
        }
    }
}
