// The cooperative-matrix operations of matmul_coopmat_s.glsl, emulated with the semantics of
// GL_NV_cooperative_matrix (row-major; element and stride in units of the array's element type: uvec4 = 8
// halfs for A and B, float for C and the shared slices). Accumulators are spread over the subgroup
// (matmul_emu_spread.glsl); a fragment is a reference into A or B in global memory that the multiply reads
// (read-only buffers, so a reference is as good as a loaded copy). Every operation touches only the
// invocation's own accumulator elements. Its speed means nothing.
#include "matmul_emu_spread.glsl"

float emu_a(FragRef f, uint r, uint c) {  // fp16 element (r, c) of the A fragment
    vec2 h = vec2(unpackFloat2x16(a8[f.elem + r * f.stride + c / 8u][(c % 8u) / 2u]));
    return (c & 1u) == 0u ? h.x : h.y;
}
float emu_b(FragRef f, uint r, uint c) {  // fp16 element (r, c) of the B fragment
    vec2 h = vec2(unpackFloat2x16(b8[f.elem + r * f.stride + c / 8u][(c % 8u) / 2u]));
    return (c & 1u) == 0u ? h.x : h.y;
}

EMU_MMA(emu_a, emu_b)

void emu_store_red(AccEmu f, uint elem, uint stride) {
    for (uint i = 0u, e = gl_SubgroupInvocationID; e < 256u; ++i, e += gl_SubgroupSize)
        red[elem + (e / 16u) * stride + e % 16u] = f.x[i];
}

AccEmu emu_load_red(uint elem, uint stride) {
    AccEmu f = emu_zero();
    for (uint i = 0u, e = gl_SubgroupInvocationID; e < 256u; ++i, e += gl_SubgroupSize)
        f.x[i] = red[elem + (e / 16u) * stride + e % 16u];
    return f;
}

#define LOAD_GA(f, elem_, stride_) f = FragRef(elem_, stride_)
#define LOAD_GB(f, elem_, stride_) f = FragRef(elem_, stride_)
#define MMA(a, b, c) emu_mma(a, b, c)
#define ACC_ADD(a, b) emu_add(a, b)
#ifndef STORE_RED  // tests/kernels/matmul_coopmat_s_emu_w2x2_dropslice.comp breaks it on purpose
#define STORE_RED(acc, elem, stride) emu_store_red(acc, elem, stride)
#endif
#define LOAD_RED(acc, elem, stride) acc = emu_load_red(elem, stride)
