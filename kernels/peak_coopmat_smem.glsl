// Matrix-unit probe with every fragment reloaded from shared memory (issue 16's evidence: is the NV
// cooperative-matrix GEMM capped by MMA issue, or by moving fragments from shared memory into registers?).
// peak_coopmat.glsl keeps A and B in registers for the whole loop: the MMA rate alone. Here, as in a GEMM's
// k-step, every half-round loads GM fragments of A and GN fragments of B from shared memory and runs the
// GM x GN MMAs that use them, so the probe reads (GM + GN) fragments per GM GN MMAs, exactly a GEMM
// subgroup tile's ratio (4x4: a 64x64 subgroup tile, 8 loads per 16 MMAs). No global traffic, no barrier in
// the loop: the rate is the ceiling of "shared -> fragments -> MMA" for that tile, what a GEMM that hides all
// of its global loads would reach.
// Shared layout as matmul_coopmat_pipe.glsl's tiles (uvec4 units, rows padded by one uvec4): A as GM lM-row
// blocks of lK halves (row stride lK/8 + 1), B0 and B1 as lK rows of GN lN-column blocks (stride GN lN/8 + 1).
// Two copies, read alternately through an index the compiler cannot fold ((it * pc.p2) & 1, p2 = 1), so the
// loads cannot be hoisted out of the loop. The same sums as peak_coopmat.glsl, so the same exact check.
// fp16 x fp16 -> fp32 only; lK and lN multiples of 8 (16-byte rows). Included by peak_coopmat_smem.comp and
// peak_coopmat_emu_smem.comp (PEAK_EMULATED: the arithmetic in plain code, reading the same shared copies).
// PEAK_FRAG (src=frag, stubs peak_coopmat_smemf.comp and peak_coopmat_emu_smemf.comp; 16x16x16, 32 invocations): the
// shared tiles hold each 512-byte fragment in the order its invocations hold it (NVIDIA's 16x16 fp16 order, A's and
// B's alike: common.glsl's VKB_FRAG_ROW / VKB_FRAG_LANE, which `coopmat_layout type=f16` checks), and every fragment is ONE 16-byte
// shared load an invocation, its components written from registers, in place of coopMatLoadNV: whether the driver's
// loads from shared memory, not the shared bytes, are what caps the GEMMs (session 29).
#extension GL_GOOGLE_include_directive : require
#extension GL_EXT_shader_16bit_storage : require
#extension GL_EXT_shader_explicit_arithmetic_types_float16 : require
#include "peak_coopmat_spec.glsl"
const uint SA = (lK * 2u + 15u) / 16u * 8u, SB = (lN * 2u + 15u) / 16u * 8u;  // global row strides (halves)
const uint SC = lN;                                                          // the host pads nothing in C
const uint B_BASE = GM * lM * SA;
#ifdef PEAK_FRAG
const uint ASTR = 0u, BSTR = 0u, ASZ = GM * 32u, BSZ = GN * 32u, COPY = ASZ + 2u * BSZ;  // 32 uvec4 a fragment
#else
const uint ASTR = lK / 8u + 1u, BSTR = GN * lN / 8u + 1u;                    // shared row strides (uvec4)
const uint ASZ = GM * lM * ASTR, BSZ = lK * BSTR, COPY = ASZ + 2u * BSZ;
#endif

layout(binding = 0) readonly buffer AB { uvec4 ab4[]; };
layout(binding = 0) readonly buffer AB1 { float16_t ab[]; };
layout(binding = 1) readonly buffer C0 { float c0[]; };
layout(binding = 2) writeonly buffer Y { float y[]; };
shared uvec4 sm[2u * COPY];

#ifdef PEAK_FRAG
// Both copies: fragment f (A's GM, then B0's and B1's GN each), invocation l's uvec4, from the global layout.
void fill_shared() {
    for (uint e = gl_LocalInvocationID.x; e < 2u * COPY; e += gl_WorkGroupSize.x) {
        uint f = (e % COPY) / 32u, l = e % 32u;
        uvec4 v;
        [[unroll]] for (uint q = 0u; q < 4u; ++q) {
            float16_t h[2];
            [[unroll]] for (uint b = 0u; b < 2u; ++b) {
                uint i = 2u * q + b, r = VKB_FRAG_ROW(l, i), c = VKB_FRAG_COL(l, i);
                h[b] = f < GM ? ab[(f * lM + r) * SA + c] : ab[B_BASE + (f - GM) * lK * SB + r * SB + c];
            }
            v[q] = packFloat2x16(f16vec2(h[0], h[1]));
        }
        sm[e] = v;
    }
    barrier();
}
#else
// Both copies of A, B0, B1 from the global layout (rows of SA / SB halves) into the shared tiles.
void fill_shared() {
    uint rowa = lK / 8u, rowb = lN / 8u;
    for (uint e = gl_LocalInvocationID.x; e < 2u * GM * lM * rowa; e += gl_WorkGroupSize.x) {
        uint cp = e / (GM * lM * rowa), r = (e / rowa) % (GM * lM), q = e % rowa;
        sm[cp * COPY + r * ASTR + q] = ab4[(r * SA) / 8u + q];
    }
    for (uint e = gl_LocalInvocationID.x; e < 2u * 2u * GN * lK * rowb; e += gl_WorkGroupSize.x) {
        uint cp = e / (2u * GN * lK * rowb), h = (e / (GN * lK * rowb)) % 2u, j = (e / (lK * rowb)) % GN;
        uint k = (e / rowb) % lK, q = e % rowb;
        sm[cp * COPY + ASZ + h * BSZ + k * BSTR + j * rowb + q] = ab4[(B_BASE + (h * GN + j) * lK * SB + k * SB) / 8u + q];
    }
    barrier();
}
#endif

#ifndef PEAK_EMULATED
#extension GL_KHR_memory_scope_semantics : require
#extension GL_NV_cooperative_matrix : require
void main() {
    fill_shared();
    uint sg = vkb_group_id() * gl_NumSubgroups + gl_SubgroupID;
    if (sg >= pc.n) return;  // uniform in the subgroup
    fcoopmatNV<16, gl_ScopeSubgroup, lM, lK> a[GM];
    fcoopmatNV<16, gl_ScopeSubgroup, lK, lN> b[GN];
    fcoopmatNV<32, gl_ScopeSubgroup, lM, lN> acc[GM][GN];
    [[unroll]] for (uint i = 0u; i < GM; ++i)
        [[unroll]] for (uint j = 0u; j < GN; ++j) coopMatLoadNV(acc[i][j], c0, (i * GN + j) * lM * SC, SC, false);
    for (uint it = 0u; it < pc.m; ++it) {
        uint base = ((it * pc.p2) & 1u) * COPY;
        [[unroll]] for (uint h = 0u; h < 2u; ++h) {
#ifdef PEAK_FRAG
#define PEAK_LOADF(f, at) {                                                                                  \
        const uvec4 v_ = sm[(at) + gl_SubgroupInvocationID];                                               \
        VKB_FRAG_FILL(f, v_)                                                                               \
    }
            [[unroll]] for (uint i = 0u; i < GM; ++i) PEAK_LOADF(a[i], base + i * 32u)
            [[unroll]] for (uint j = 0u; j < GN; ++j) PEAK_LOADF(b[j], base + ASZ + h * BSZ + j * 32u)
#else
            [[unroll]] for (uint i = 0u; i < GM; ++i) coopMatLoadNV(a[i], sm, base + i * lM * ASTR, ASTR, false);
            [[unroll]] for (uint j = 0u; j < GN; ++j)
                coopMatLoadNV(b[j], sm, base + ASZ + h * BSZ + j * (lN / 8u), BSTR, false);
#endif
            [[unroll]] for (uint i = 0u; i < GM; ++i)
                [[unroll]] for (uint j = 0u; j < GN; ++j) acc[i][j] = coopMatMulAddNV(a[i], b[j], acc[i][j]);
        }
    }
    if (sg < pc.p1)
        [[unroll]] for (uint i = 0u; i < GM; ++i)
            [[unroll]] for (uint j = 0u; j < GN; ++j)
                coopMatStoreNV(acc[i][j], y, ((sg * GM + i) * GN + j) * lM * SC, SC, false);
}
#else
// Half e of a uvec4 element of the shared tiles.
float smh(uint u, uint e) {
    uvec4 v = sm[u];
    uint w = v[e / 2u];
    return unpackHalf2x16(w)[e % 2u];
}
void main() {
    fill_shared();
    uint sg = vkb_group_id() * gl_NumSubgroups + gl_SubgroupID;
    if (sg >= pc.n) return;
    for (uint e = gl_SubgroupInvocationID; e < GM * GN * lM * lN; e += gl_SubgroupSize) {
        uint c = e % lN, r = (e / lN) % lM, j = (e / (lN * lM)) % GN, i = e / (lN * lM * GN);
        uint o = (i * GN + j) * lM * SC + r * SC + c;
        float acc = c0[o];
        for (uint it = 0u; it < pc.m; ++it) {
            uint base = ((it * pc.p2) & 1u) * COPY;
            for (uint h = 0u; h < 2u; ++h) {
                float s = 0.0;
                for (uint k = 0u; k < lK; ++k) {
#ifdef PEAK_FRAG
                    uint ca = (i * 32u + VKB_FRAG_LANE(r, k)) * 8u + VKB_FRAG_COMP(r, k);
                    uint cb = (j * 32u + VKB_FRAG_LANE(k, c)) * 8u + VKB_FRAG_COMP(k, c);
#else
                    uint ca = (i * lM + r) * ASTR * 8u + k, cb = k * BSTR * 8u + j * lN + c;  // half offsets
#endif
                    s += smh(base + ca / 8u, ca % 8u) * smh(base + ASZ + h * BSZ + cb / 8u, cb % 8u);
                }
                acc += s;
            }
        }
        if (sg < pc.p1) y[sg * GM * GN * lM * SC + o] = acc;
    }
}
#endif
