// The matrix operations of the BitLinear MMA kernels (bitnet_mma.glsl, bitnet_mma_sg.glsl) and their output step.
// The includer declares shared uvec4 sm[] and shared int sxs[] (sum_k x per token of the tile), buffers gam (1),
// sc (3), y (4) and part (5) as bitnet_mma.glsl, and spec constants LM, LN, LK; VKB_COOP_EMU selects the emulation.
// With VKB_COOP_EMU the macros are plain loops over shared memory with GL_NV_cooperative_matrix's semantics, so
// lavapipe validates a kernel's decode, tiling, correction and split-K at every element; else they are
// GL_NV_cooperative_matrix (sint8 x sint8 -> sint32, subgroup scope).
#ifndef BITNET_MMA_OPS_GLSL
#define BITNET_MMA_OPS_GLSL
#ifdef VKB_COOP_EMU
// GL_NV_cooperative_matrix's semantics with plain loops (element and stride in uvec4 = 16 int8 or 4 int32;
// colMajor: element (r, c) at elem + c stride). A fragment is a handle into sm; invocation l of a subgroup owns
// accumulator elements l, l + subgroup size, ...; the MMA and the store use the same ownership.
struct FragEmu { uint elem, stride; bool col; };
struct AccEmu { int x[32]; };  // element lane + i subgroup size in x[i]: <= 256 / 8 (the host keeps the subgroup >= 8)
#define FRAG_A FragEmu
#define FRAG_B FragEmu
#define ACC AccEmu
AccEmu emu_zero() {
    AccEmu a;
    for (uint i = 0u; i < 32u; ++i) a.x[i] = 0;
    return a;
}
int emu_b(FragEmu f, uint r, uint c) {  // int8 element (r, c)
    uint e = f.col ? (f.elem + c * f.stride) * 16u + r : (f.elem + r * f.stride) * 16u + c;
    return bitfieldExtract(int(sm[e / 16u][(e % 16u) / 4u]), 8 * int(e % 4u), 8);
}
// c + a b, exact in int32. The K loop is unrolled: lavapipe 22.3 breaks out of a loop past ~65k iterations per
// invocation (gallivm's loop limiter), which a rolled 32-deep loop reached at ~70 MMAs and left outputs unwritten.
AccEmu emu_mma(FragEmu a, FragEmu b, AccEmu c) {
    for (uint i = 0u, e = gl_SubgroupInvocationID; e < LM * LN; ++i, e += gl_SubgroupSize) {
        int s = c.x[i];
        [[unroll]] for (uint k = 0u; k < LK; ++k) s += emu_b(a, e / LN, k) * emu_b(b, k, e % LN);
        c.x[i] = s;
    }
    return c;
}
void emu_store_col(AccEmu a, uint elem, uint stride) {
    for (uint i = 0u, e = gl_SubgroupInvocationID; e < LM * LN; ++i, e += gl_SubgroupSize) {
        uint o = (elem + (e % LN) * stride) * 4u + e / LN;
        sm[o / 4u][o % 4u] = uint(a.x[i]);
    }
}
#define ACC_ZERO emu_zero()
#define LOAD_ROW(f, elem, stride) f = FragEmu(elem, stride, false)
#define LOAD_COL(f, elem, stride) f = FragEmu(elem, stride, true)
#define MMA(a, b, c) emu_mma(a, b, c)
#define STORE_COL(acc, elem, stride) emu_store_col(acc, elem, stride)
#else
#define FRAG_A icoopmatNV<8, gl_ScopeSubgroup, LM, LK>
#define FRAG_B icoopmatNV<8, gl_ScopeSubgroup, LK, LN>
#define ACC icoopmatNV<32, gl_ScopeSubgroup, LM, LN>
#define ACC_ZERO ACC(0)
#define LOAD_ROW(f, elem, stride) coopMatLoadNV(f, sm, elem, stride, false)
#define LOAD_COL(f, elem, stride) coopMatLoadNV(f, sm, elem, stride, true)
#define MMA(a, b, c) coopMatMulAddNV(a, b, c)
#define STORE_COL(acc, elem, stride) coopMatStoreNV(acc, sm, elem, stride, true)
#endif

// Output of accumulator A (rows R0 .. R0 + LM - 1, tokens T0 + LN J ..): staged column-major at YS (LM LN / 4 uvec4
// of sm that this subgroup owns), a = acc - sum_k x; one K slice (pc.p2 == 1): y = (float(a) gamma') / s, rounded
// once per operation; else the exact int32 part[SLICE][token][row], summed by bitnet_mma_sum.comp.
// MMA_PART(slice index, output index, a): where a slice's partial sum goes; a kernel may define its own first.
#ifndef MMA_PART
#define MMA_PART(PI, OI, A) VB_PART[PI] = (A)
#endif
#define MMA_OUT(A, YS, R0, T0, J, SLICE) {                                                            \
        STORE_COL(A, YS, LM / 4u);                                                                    \
        subgroupBarrier();                                                                            \
        for (uint e = gl_SubgroupInvocationID; e < LM * LN; e += gl_SubgroupSize) {                   \
            uint tl = LN * (J) + e / LM, tok = (T0) + tl, row = (R0) + e % LM;                        \
            int a = int(sm[(YS) + e / 4u][e % 4u]) - sxs[tl];                                         \
            if (tok < pc.m && row < pc.n) {                                                           \
                if (pc.p2 == 1u) {                                                                    \
                    precise float p = float(a) * VB_GAM[0];                                              \
                    precise float o = p / VB_SC[tok];                                                    \
                    VB_Y[tok * pc.n + row] = o;                                                          \
                } else {                                                                              \
                    MMA_PART(((SLICE) * pc.m + tok) * pc.n + row, tok * pc.n + row, a);               \
                }                                                                                     \
            }                                                                                         \
        }                                                                                             \
        subgroupBarrier();                                                                            \
    }
#endif
