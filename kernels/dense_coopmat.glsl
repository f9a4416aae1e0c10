// Dense fp16-weight baseline for BitLinear at batch >= 8, on matrix units (GL_NV_cooperative_matrix,
// 16x16x16 fp16 x fp16 -> fp32 at subgroup scope). A skinny GEMM bound by streaming W once, so W is the A
// operand and the tokens the B side: y^T (N x M) = W (N x K) . x^T (K x M). W row-major N x K is read as
// row-major A fragments, x row-major M x K is x^T column-major: B fragments are column-major loads.
// A workgroup owns BN rows of W x 16 MT tokens (MT <= 4 token tiles: batch <= 64 in one pass over W) and
// one K slice (split-K: grid y). SGS subgroups split the rows: each owns WN = BN / SGS / 16 row fragments
// x MT token fragments of accumulators. Per BK step the workgroup stages BN x BK halves of W and
// 16 MT x BK of x (zeros past N, M and the slice) in double-buffered shared memory (8 halves of row
// padding), with the next step's 16-byte loads issued before the math (register prefetch): BN BK 2 bytes
// of W in flight per workgroup. One barrier per step.
// Output: each 16x16 accumulator goes through the subgroup's slice of shared memory (column-major, so the
// invocations then write 16 consecutive rows of one token: 64-byte runs) with bounds checks. With one
// slice (pc.p2 == 1) straight into y; else into part[slice][M][N], summed in slice order by
// dense_splitk.comp. The sum over k is then split into p2 partial sums added at the end: K - 1 additions
// in all, a different order of the same sum (the tolerance covers any order).
// Buffers: 0 W (fp16, N x Kp8, Kp8 = K rounded up to 8, zero padding), 1 x (fp16, M x Kp8), 2 y (fp32
// M x N), 3 part (fp32, p2 x M x N; one element when p2 == 1). Push: n = N, m = M, p0 = Kp8 / 8 (uvec4 per
// row), p1 = uvec4 per K slice (a multiple of BK / 8), p2 = slices. Grid (ceil(N/BN), p2, ceil(M/(16 MT))).
// Spec: 0 workgroup size = subgroup size x SGS, 1 BN, 2 BK, 3 SGS, 4 MT. The host checks that BN % (16 SGS)
// == 0, BK % 16 == 0, that the W tile splits evenly over the workgroup and that the output staging fits.
// The matrix operations are macros: dense_coopmat.comp maps them to GL_NV_cooperative_matrix,
// dense_coopmat_emu.comp to plain loops over shared memory with the same semantics, so that lavapipe (no
// matrix units) validates this file's indexing, tiling and split-K at every element.
#extension GL_EXT_control_flow_attributes : enable
#extension GL_EXT_shader_16bit_storage : require
#extension GL_EXT_shader_explicit_arithmetic_types_float16 : require
#extension GL_KHR_shader_subgroup_basic : require
#include "common.glsl"
layout(constant_id = 1) const uint BN = 128u;
layout(constant_id = 2) const uint BK = 64u;
layout(constant_id = 3) const uint SGS = 4u;
layout(constant_id = 4) const uint MT = 2u;

layout(binding = 0) readonly buffer Wb { uvec4 w[]; };
layout(binding = 1) readonly buffer Xb { uvec4 x[]; };
layout(binding = 2) writeonly buffer Yb { float y[]; };
layout(binding = 3) writeonly buffer Pb { float part[]; };

const uint WG = gl_WorkGroupSize.x;
const uint WN = BN / SGS / 16u;                 // row fragments per subgroup
const uint CK = BK / 8u, STR = CK + 1u;         // uvec4 per tile row; padded row stride
const uint WSZ = BN * STR, XSZ = 16u * MT * STR, BUF = WSZ + XSZ;
const uint NW = BN * CK / WG, NXT = 16u * MT * CK, NX = (NXT + WG - 1u) / WG;
shared uvec4 sm[2u * BUF];                      // [buffer]{W tile, x tile}; reused to stage the output

uvec4 rw[NW], rx[NX];

#ifdef VKB_COOP_EMU
// The four matrix operations emulated with GL_NV_cooperative_matrix's semantics (element and stride in
// uvec4, i.e. 8 halves or 4 floats; colMajor: element (r, c) at elem + c stride). A fragment is a handle
// into sm; the MMA reads its operands there. Invocation l of a subgroup owns accumulator elements
// l, l + subgroup size, ...: the MMA and the store use the same ownership, so no invocation reads another's.
struct FragEmu { uint elem, stride; bool col; };
struct AccEmu { float x[256]; };
#define FRAG FragEmu
#define ACC AccEmu
AccEmu emu_zero() {
    AccEmu a;
    for (uint i = 0u; i < 256u; ++i) a.x[i] = 0.0;
    return a;
}
float emu_h(FragEmu f, uint r, uint c) {  // fp16 element (r, c), in halves from the start of sm
    uint e = f.col ? (f.elem + c * f.stride) * 8u + r : (f.elem + r * f.stride) * 8u + c;
    return unpackHalf2x16(sm[e / 8u][(e % 8u) / 2u])[e % 2u];
}
AccEmu emu_mma(FragEmu a, FragEmu b, AccEmu c) {  // c + a b, products exact, fp32 fma accumulation
    for (uint e = gl_SubgroupInvocationID; e < 256u; e += gl_SubgroupSize) {
        float s = c.x[e];
        for (uint k = 0u; k < 16u; ++k) s = fma(emu_h(a, e / 16u, k), emu_h(b, k, e % 16u), s);
        c.x[e] = s;
    }
    return c;
}
void emu_store_sm(AccEmu a, uint elem, uint stride, bool col) {  // fp32 matrix into sm
    for (uint e = gl_SubgroupInvocationID; e < 256u; e += gl_SubgroupSize) {
        uint r = e / 16u, c = e % 16u, o = col ? (elem + c * stride) * 4u + r : (elem + r * stride) * 4u + c;
        sm[o / 4u][o % 4u] = floatBitsToUint(a.x[e]);
    }
}
#define ACC_ZERO emu_zero()
#define LOAD_ROW(f, elem, stride) f = FragEmu(elem, stride, false)
#define LOAD_COL(f, elem, stride) f = FragEmu(elem, stride, true)
#define MMA(a, b, c) emu_mma(a, b, c)
#define STORE_COL(acc, elem, stride) emu_store_sm(acc, elem, stride, true)
#else
#define FRAG fcoopmatNV<16, gl_ScopeSubgroup, 16, 16>
#define ACC fcoopmatNV<32, gl_ScopeSubgroup, 16, 16>
#define ACC_ZERO ACC(0.0)
#define LOAD_ROW(f, elem, stride) coopMatLoadNV(f, sm, elem, stride, false)
#define LOAD_COL(f, elem, stride) coopMatLoadNV(f, sm, elem, stride, true)
#define MMA(a, b, c) coopMatMulAddNV(a, b, c)
#define STORE_COL(acc, elem, stride) coopMatStoreNV(acc, sm, elem, stride, true)
#endif

// The BK-wide step at uvec4 column c0 (< cend, the slice's end) into registers: zeros past N, M, cend.
void fetch(uint n0, uint t0, uint c0, uint cend) {
    uint t = gl_LocalInvocationID.x;
    [[unroll]] for (uint s = 0u; s < NW; ++s) {
        uint v = t + s * WG, row = n0 + v / CK, c = c0 + v % CK;
        rw[s] = row < pc.n && c < cend ? w[row * pc.p0 + c] : uvec4(0u);
    }
    [[unroll]] for (uint s = 0u; s < NX; ++s) {
        uint v = t + s * WG, tok = t0 + v / CK, c = c0 + v % CK;
        rx[s] = v < NXT && tok < pc.m && c < cend ? x[tok * pc.p0 + c] : uvec4(0u);
    }
}

void stash(uint base) {
    uint t = gl_LocalInvocationID.x;
    [[unroll]] for (uint s = 0u; s < NW; ++s) {
        uint v = t + s * WG;
        sm[base + (v / CK) * STR + v % CK] = rw[s];
    }
    [[unroll]] for (uint s = 0u; s < NX; ++s) {
        uint v = t + s * WG;
        if (v < NXT) sm[base + WSZ + (v / CK) * STR + v % CK] = rx[s];
    }
}

void main() {
    uint sg = gl_SubgroupID, n0 = gl_WorkGroupID.x * BN, t0 = gl_WorkGroupID.z * 16u * MT;
    uint c0 = gl_WorkGroupID.y * pc.p1, cend = min(pc.p0, c0 + pc.p1), ns = (cend - c0 + CK - 1u) / CK;
    ACC acc[WN][MT];
    [[unroll]] for (uint i = 0u; i < WN; ++i)
        [[unroll]] for (uint j = 0u; j < MT; ++j) acc[i][j] = ACC_ZERO;
    fetch(n0, t0, c0, cend);
    stash(0u);
    barrier();
    for (uint st = 0u; st < ns; ++st) {
        uint base = (st & 1u) * BUF;
        if (st + 1u < ns) fetch(n0, t0, c0 + (st + 1u) * CK, cend);
        [[unroll]] for (uint kk = 0u; kk < BK / 16u; ++kk) {
            FRAG fb[MT], fa;
            [[unroll]] for (uint j = 0u; j < MT; ++j) LOAD_COL(fb[j], base + WSZ + 16u * j * STR + 2u * kk, STR);
            [[unroll]] for (uint i = 0u; i < WN; ++i) {
                LOAD_ROW(fa, base + (sg * WN + i) * 16u * STR + 2u * kk, STR);
                [[unroll]] for (uint j = 0u; j < MT; ++j) acc[i][j] = MMA(fa, fb[j], acc[i][j]);
            }
        }
        if (st + 1u < ns) stash(((st & 1u) ^ 1u) * BUF);
        barrier();
    }
    // Each subgroup stages one 16 x 16 fp32 tile (64 uvec4) in its own slice of sm, free after the last
    // barrier, column-major: element (row r, token c) at 16 c + r.
    uint ys = sg * 64u, slice = gl_WorkGroupID.y;
    [[unroll]] for (uint i = 0u; i < WN; ++i)
        [[unroll]] for (uint j = 0u; j < MT; ++j) {
            STORE_COL(acc[i][j], ys, 4u);
            subgroupBarrier();
            for (uint e = gl_SubgroupInvocationID; e < 256u; e += gl_SubgroupSize) {
                uint tok = t0 + 16u * j + e / 16u, row = n0 + (sg * WN + i) * 16u + e % 16u;
                float v = uintBitsToFloat(sm[ys + e / 4u][e % 4u]);
                if (tok < pc.m && row < pc.n) {
                    if (pc.p2 == 1u) y[tok * pc.n + row] = v;
                    else part[(slice * pc.m + tok) * pc.n + row] = v;
                }
            }
            subgroupBarrier();
        }
}
