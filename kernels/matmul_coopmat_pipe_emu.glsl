// The cooperative-matrix operations of matmul_coopmat_pipe.glsl, emulated with the semantics of
// GL_NV_cooperative_matrix (row-major; element and stride in units of the array's element type), spread
// over the subgroup as on matrix units: invocation l holds elements l, l + S, l + 2S, ... (S = subgroup
// size) of each 16x16 fp32 accumulator, and an fp16 fragment is a reference (element, stride) into sm that
// the multiply reads. The reference is sound because every fragment is consumed in the same k-step it is
// loaded, before the next stash or barrier changes sm. matmul_coopmat_emu.glsl holds whole matrices in
// every invocation (16 KiB of accumulators for a 4x4 grid), which lavapipe 22.3 stops computing correctly
// beyond ~17 k-steps; here a 4x4 grid takes 16 x 256 / S floats per invocation (2 KiB at S = 8), so
// K = 256 and more validate. Subgroup size 4 .. 64 (the host checks). Its speed means nothing.
#include "matmul_emu_spread.glsl"

float emu_h(uint elem, uint stride, uint r, uint c) {  // fp16 element (r, c) of the matrix at elem in sm
    vec2 h = vec2(unpackFloat2x16(sm[elem + r * stride + c / 8u][(c % 8u) / 2u]));
    return (c & 1u) == 0u ? h.x : h.y;
}

AccEmu emu_mma(FragRef a, FragRef b, AccEmu c) {  // c + a*b, fp32 fma in ascending k as the old emulation
    for (uint i = 0u, e = gl_SubgroupInvocationID; e < 256u; ++i, e += gl_SubgroupSize) {
        uint r = e / 16u, j = e % 16u;
        float s = c.x[i];
        for (uint k = 0u; k < 16u; ++k) s = fma(emu_h(a.elem, a.stride, r, k), emu_h(b.elem, b.stride, k, j), s);
        c.x[i] = s;
    }
    return c;
}

void emu_store_sm(AccEmu f, uint elem, uint stride) {  // fp32 matrix into the uvec4 array sm
    for (uint i = 0u, e = gl_SubgroupInvocationID; e < 256u; ++i, e += gl_SubgroupSize)
        sm[elem + (e / 16u) * stride + (e % 16u) / 4u][e % 4u] = floatBitsToUint(f.x[i]);
}

#define LOAD_SM(f, elem_, stride_) f = FragRef(elem_, stride_)
#define MMA(a, b, c) emu_mma(a, b, c)
#define STORE_SM(acc, elem, stride) emu_store_sm(acc, elem, stride)
