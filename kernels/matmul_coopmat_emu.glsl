// The five cooperative-matrix operations of matmul_coopmat.glsl, emulated with the semantics of
// GL_NV_cooperative_matrix (row-major; element and stride in units of the array's element type): every
// invocation of a subgroup holds the whole 16x16 matrix, the subgroup's elected invocation stores it.
// For validating the kernel's tiling on devices without matrix units; its speed means nothing.
struct FragEmu { float x[256]; };
#define FRAG FragEmu
#define ACC FragEmu

FragEmu emu_zero() {
    FragEmu f;
    for (uint i = 0u; i < 256u; ++i) f.x[i] = 0.0;
    return f;
}

// fp16 matrix from a uvec4 array (8 halfs each): shared sm, or A and B in global memory
#define EMU_LOAD(NAME, ARR)                                                                     \
    void NAME(out FragEmu f, uint elem, uint stride) {                                          \
        for (uint r = 0u; r < 16u; ++r)                                                         \
            for (uint c = 0u; c < 16u; c += 2u) {                                               \
                vec2 h = vec2(unpackFloat2x16(ARR[elem + r * stride + c / 8u][(c % 8u) / 2u])); \
                f.x[16u * r + c] = h.x;                                                         \
                f.x[16u * r + c + 1u] = h.y;                                                    \
            }                                                                                   \
    }
EMU_LOAD(emu_load, sm)
EMU_LOAD(emu_load_a, a8)
EMU_LOAD(emu_load_b, b8)

FragEmu emu_mma(FragEmu a, FragEmu b, FragEmu c) {  // c + a*b, fp32 accumulation
    for (uint r = 0u; r < 16u; ++r)
        for (uint j = 0u; j < 16u; ++j)
            for (uint k = 0u; k < 16u; ++k) c.x[16u * r + j] = fma(a.x[16u * r + k], b.x[16u * k + j], c.x[16u * r + j]);
    return c;
}

void emu_store_c(FragEmu f, uint elem, uint stride) {
    if (subgroupElect())
        for (uint i = 0u; i < 256u; ++i) c1[elem + (i / 16u) * stride + i % 16u] = f.x[i];
}

void emu_store_sm(FragEmu f, uint elem, uint stride) {  // fp32 matrix into the uvec4 array sm
    if (subgroupElect())
        for (uint i = 0u; i < 256u; ++i) sm[elem + (i / 16u) * stride + (i % 16u) / 4u][i % 4u] = floatBitsToUint(f.x[i]);
}

#define ACC_ZERO emu_zero()
#define LOAD_SM(f, elem, stride) emu_load(f, elem, stride)
#define LOAD_GA(f, elem, stride) emu_load_a(f, elem, stride)
#define LOAD_GB(f, elem, stride) emu_load_b(f, elem, stride)
#define MMA(a, b, c) emu_mma(a, b, c)
#define STORE_C(acc, elem, stride) emu_store_c(acc, elem, stride)
#define STORE_SM(acc, elem, stride) emu_store_sm(acc, elem, stride)
