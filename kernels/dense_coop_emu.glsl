// The fp16 matrix operations of the dense_f16 matrix-unit kernels emulated with GL_NV_cooperative_matrix's
// semantics (dense_coopmat_g.glsl, dense_stream.glsl under VKB_COOP_EMU), so lavapipe validates their tilings.
// A fragment is a handle (element and stride in uvec4 = 8 halves; row-major: element (r, c) at elem + r stride,
// column-major: elem + c stride); the includer defines emu_h, which reads fp16 element (r, c) of a handle from
// wherever its fragments live. Accumulators are 16 x EMU_LN (16 unless the includer defines 8: 16x8x16 MMAs with B
// 16 x 8). Invocation l of a subgroup of size S owns accumulator elements e = l + q S, row e / EMU_LN, column
// e % EMU_LN (q < 16 EMU_LN / S <= 32: the hosts require S >= 8), for the MMA and the store alike, so no invocation
// reads another's.
// lavapipe 22.3 breaks out of any loop past ~65k trips per invocation (gallivm's loop limiter): the 16-deep dot
// product is unrolled, so an MMA counts 16 EMU_LN / S trips.
#ifndef EMU_LN
#define EMU_LN 16u
#endif
struct FragEmu { uint elem, stride; bool col; };
struct AccEmu { float v[32]; };
float emu_h(FragEmu f, uint r, uint c);
AccEmu emu_zero() {
    AccEmu a;
    for (uint i = 0u; i < 32u; ++i) a.v[i] = 0.0;
    return a;
}
AccEmu emu_mma(FragEmu a, FragEmu b, AccEmu c) {  // c + a b, products exact, fp32 fma accumulation
    for (uint q = 0u; q < 16u * EMU_LN / gl_SubgroupSize; ++q) {
        uint e = gl_SubgroupInvocationID + q * gl_SubgroupSize;
        float s = c.v[q];
        [[unroll]] for (uint k = 0u; k < 16u; ++k) s = fma(emu_h(a, e / EMU_LN, k), emu_h(b, k, e % EMU_LN), s);
        c.v[q] = s;
    }
    return c;
}
void emu_store_col(AccEmu a, uint elem) {  // fp32 matrix into sm, column-major, stride 4 uvec4
    for (uint q = 0u; q < 16u * EMU_LN / gl_SubgroupSize; ++q) {
        uint e = gl_SubgroupInvocationID + q * gl_SubgroupSize, o = (elem + (e % EMU_LN) * 4u) * 4u + e / EMU_LN;
        sm[o / 4u][o % 4u] = floatBitsToUint(a.v[q]);
    }
}
#define FRAG FragEmu
#define FRAGB FragEmu
#define ACC AccEmu
#define ACC_ZERO emu_zero()
#define MMA(a, b, c) emu_mma(a, b, c)
#define STORE_COL(acc, elem) emu_store_col(acc, elem)
