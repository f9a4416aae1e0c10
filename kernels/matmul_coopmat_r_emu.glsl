// The cooperative-matrix operations of matmul_coopmat_r.glsl, emulated with the semantics of GL_NV_cooperative_matrix
// (row-major; element and stride in units of the array's element type: uvec4 = 8 halfs or 4 floats in sm, float in C).
// Accumulators are spread over the subgroup (matmul_emu_spread.glsl); a fragment is a reference into sm that the
// multiply reads, which holds while the kernel's barriers keep sm unchanged between the load and the MMA (they do:
// a step's fragments are used before the barrier that precedes the next stash). Its speed means nothing.
#include "matmul_emu_spread.glsl"

float emu_h(FragRef f, uint r, uint c) {  // fp16 element (r, c) of a fragment in sm
    vec2 h = vec2(unpackFloat2x16(sm[f.elem + r * f.stride + c / 8u][(c % 8u) / 2u]));
    return (c & 1u) == 0u ? h.x : h.y;
}

EMU_MMA(emu_h, emu_h)

// fp32 blocks in sm (uvec4 of 4 floats; element and stride in uvec4, as coopMatStoreNV into a uvec4 array)
void emu_store_red(AccEmu f, uint elem, uint stride) {
    for (uint i = 0u, e = gl_SubgroupInvocationID; e < 256u; ++i, e += gl_SubgroupSize)
        sm[elem + (e / 16u) * stride + (e % 16u) / 4u][e % 4u] = floatBitsToUint(f.x[i]);
}

AccEmu emu_load_red(uint elem, uint stride) {
    AccEmu f = emu_zero();
    for (uint i = 0u, e = gl_SubgroupInvocationID; e < 256u; ++i, e += gl_SubgroupSize)
        f.x[i] = uintBitsToFloat(sm[elem + (e / 16u) * stride + (e % 16u) / 4u][e % 4u]);
    return f;
}

#define LOAD_SM(f, elem_, stride_) f = FragRef(elem_, stride_)
#define MMA(a, b, c) emu_mma(a, b, c)
#define ACC_ADD(a, b) emu_add(a, b)
#define STORE_RED(acc, elem, stride) emu_store_red(acc, elem, stride)
#define LOAD_RED(acc, elem, stride) acc = emu_load_red(elem, stride)
