// Emulated 16x16 fp32 accumulators spread over the subgroup as on matrix units, shared by
// matmul_coopmat_pipe_emu.glsl and matmul_coopmat_s_emu.glsl: invocation l holds elements l, l + S, l + 2S, ...
// (S = subgroup size, 4 .. 64: the hosts check) of each accumulator, and an fp16 fragment is a reference
// (element, stride) that the including file's emu_mma reads. Needs the output buffer c1 (fp32).
const uint EMU_MAXPER = 64u;  // elements per invocation at the smallest subgroup size (4)
struct FragRef { uint elem, stride; };
struct AccEmu { float x[EMU_MAXPER]; };
#define FRAG FragRef
#define ACC AccEmu

AccEmu emu_zero() {
    AccEmu f;
    for (uint i = 0u; i < EMU_MAXPER; ++i) f.x[i] = 0.0;
    return f;
}

void emu_store_c(AccEmu f, uint elem, uint stride) {
    for (uint i = 0u, e = gl_SubgroupInvocationID; e < 256u; ++i, e += gl_SubgroupSize)
        c1[elem + (e / 16u) * stride + e % 16u] = f.x[i];
}

AccEmu emu_add(AccEmu a, AccEmu b) {
    for (uint i = 0u, e = gl_SubgroupInvocationID; e < 256u; ++i, e += gl_SubgroupSize) a.x[i] += b.x[i];
    return a;
}

// EMU_MMA(A_AT, B_AT) defines emu_mma, c + a*b with exact products and fp32 fma in ascending k, reading the fragments
// through the including file's element accessors A_AT(f, r, c) and B_AT(f, r, c) (declared before the macro is used).
#define EMU_MMA(A_AT, B_AT)                                                                        \
    AccEmu emu_mma(FragRef a, FragRef b, AccEmu c) {                                               \
        for (uint i = 0u, e = gl_SubgroupInvocationID; e < 256u; ++i, e += gl_SubgroupSize) {      \
            uint r = e / 16u, j = e % 16u;                                                         \
            float s = c.x[i];                                                                      \
            for (uint k = 0u; k < 16u; ++k) s = fma(A_AT(a, r, k), B_AT(b, k, j), s);              \
            c.x[i] = s;                                                                            \
        }                                                                                          \
        return c;                                                                                  \
    }

#define ACC_ZERO emu_zero()
#define STORE_C(acc, elem, stride) emu_store_c(acc, elem, stride)
