// BitLinear GEMM for larger batches: y[m][n] = (float(acc) * gamma') / s[m], acc in int32 (exact).
// 256 invocations own a tile of BM tokens x 64 rows; invocation (tx, ty) = (tid % 16, tid / 16) computes
// rows tx + 16j (j < 4) x tokens ty + 16i (i < BM/16). K advances 128 weights (2 packed groups) per step:
// the packed weights are expanded once into signed int8 in shared memory (code c -> c - 1 per byte, without
// carries: ((c + 0x7F) ^ 0x80)), the int8 activations copied beside them, and each pair of uvec4 read back
// feeds 4 signed 4x8 dot products. Row stride 36 words: uvec4 reads of 8 consecutive rows hit distinct banks.
// Buffers and push as bitnet_gemv.glsl. Grid: (ceil(N/64), ceil(M/BM)).
#include "common.glsl"
#include "bitnet_common.glsl"
layout(constant_id = 1) const uint BM = 64u;
const uint TM = BM / 16u, STRIDE = 9u;  // STRIDE in uvec4 (36 words, 32 used)
layout(binding = 0) readonly buffer Wb { uint w[]; };
layout(binding = 1) readonly buffer Gb { float gam[]; };
layout(binding = 2) readonly buffer Xb { uvec4 x[]; };
layout(binding = 3) readonly buffer Sb { float sc[]; };
layout(binding = 4) writeonly buffer Yb { float y[]; };
shared uvec4 sw[64u * STRIDE];
shared uvec4 sxm[BM * STRIDE];

void main() {
    uint tid = gl_LocalInvocationID.x, tx = tid % 16u, ty = tid / 16u, nc = pc.p0;
    uint n0 = gl_WorkGroupID.x * 64u, m0 = gl_WorkGroupID.y * BM;
    int acc[TM][4];
    for (uint i = 0u; i < TM; ++i)
        for (uint j = 0u; j < 4u; ++j) acc[i][j] = 0;
    for (uint c = 0u; c < nc; c += 2u) {
        for (uint e = tid; e < 512u; e += 256u) {  // 64 rows x 8 packed words
            uint row = e / 8u, gq = e % 8u, g = c + gq / 4u;
            uint word = g < nc ? w[(min(n0 + row, pc.n - 1u) * nc + g) * 4u + gq % 4u] : 0x55555555u;  // code 1 = 0
            uvec4 sh = uvec4(0u, 2u, 4u, 6u);
            sw[row * STRIDE + gq] = (((uvec4(word) >> sh) & 0x03030303u) + 0x7F7F7F7Fu) ^ 0x80808080u;
        }
        for (uint e = tid; e < BM * 8u; e += 256u) {  // BM tokens x 8 uvec4
            uint tok = e / 8u, gq = e % 8u, g = c + gq / 4u;
            sxm[tok * STRIDE + gq] = g < nc ? x[(min(m0 + tok, pc.m - 1u) * nc + g) * 4u + gq % 4u] : uvec4(0u);
        }
        barrier();
        for (uint kk = 0u; kk < 8u; ++kk) {
            uvec4 b[4];
            for (uint j = 0u; j < 4u; ++j) b[j] = sw[(tx + 16u * j) * STRIDE + kk];
            for (uint i = 0u; i < TM; ++i) {
                uvec4 a = sxm[(ty + 16u * i) * STRIDE + kk];
                for (uint j = 0u; j < 4u; ++j)
                    acc[i][j] += dot_ss(a.x, b[j].x) + dot_ss(a.y, b[j].y) + dot_ss(a.z, b[j].z) + dot_ss(a.w, b[j].w);
            }
        }
        barrier();
    }
    float g = gam[0];
    for (uint i = 0u; i < TM; ++i) {
        uint tok = m0 + ty + 16u * i;
        if (tok >= pc.m) continue;
        float s = sc[tok];
        for (uint j = 0u; j < 4u; ++j) {
            uint row = n0 + tx + 16u * j;
            precise float p = float(acc[i][j]) * g;
            precise float o = p / s;
            if (row < pc.n) y[tok * pc.n + row] = o;
        }
    }
}
