// BitLinear on fp16 matrix units, W decoded in registers (algo=hmma): y[m][n] = (acc * gamma') / s[m], acc = sum_k
// w[n][k] xq[m][k]. Why a fourth MMA kernel: the int8 kernels (bitnet_mma*.glsl) must stage each decoded W group
// through shared memory, because NVIDIA's compiler writes an int8 fragment's components one instruction or more each
// (session 17); their step through shared memory is most of their time at m = 8 (sweep_s16c.txt). An fp16 fragment's
// components come in 32-bit pairs, which dense_f16's lay=frag fills from registers at full speed. And fp16 is exact
// here: every weight (-1, 0, 1) and every code of x (-128 .. 127) is an fp16 integer, every product too, and every
// partial sum is an integer below 127 K < 2^24, which fp32 holds exactly, so the fp32 accumulator is acc itself.
// Decode without conversions: the fp16 whose bits are 0x6400 | u is 1024 + u (u < 1024), so a 2-bit code c (w + 1)
// ORed under 0x6400 and 1025 subtracted gives w, and an int8 code x, its sign bit flipped, under 0x6400 less 1152
// gives x: a shift, an AND/OR and one packed fp16 subtraction per pair of weights.
// DEC = 1 takes a pair of weights in ONE instruction: the code c at bits q .. q + 1 of a half, masked in place, is the
// fp16 c 2^(q - 24) while q <= 10 (a subnormal; at q = 10 the bits 2^-14 and 2^-13 are exponents, the same values), so
// step s's pair is word & (0x00030003 << e), e = 2 s below s = 6 and, for s = 6, 7, 2 s - 12 in the word shifted by
// 12 once a block. x of that step is scaled by 2^-e in its packed fp16 multiply-add (exact), so every product is c x
// 2^-24, and each step adds a block of 2^(e - 24) times x (the codes' offset, sum_k x, by MMA); at the end acc =
// (sum c x - sum x) 2^24. Every value stays a multiple of 2^-24 below 1 in magnitude: exact in fp32, if the matrix
// units keep fp16 subnormals, which the exact check of every output tests on each device.
// K order. One K block is 128 columns, eight 16-deep MMA steps s. Fragment position p (A's column, B's row) of step s
// holds column 16 (p % 8) + 2 s + p / 8 of the block, a bijection, the same for A and B, so the products are W's and
// x's. With the 16x16 fp16 order of NVIDIA's driver (A's and B's component i of invocation l = 4 g + t at row g + 8
// (i / 4), column 2 t + (i & 1) + 8 ((i >> 1) & 1): reference/bitnet_linear.c frag_slot, checked by `coopmat_layout
// type=f16`), invocation (g, t) needs, over a block:
// - from W, rows g and g + 8 of the 16-row panel at columns 32 t .. 32 t + 31: 16 bytes, its own uvec4 of the
//   block's 512 bytes (lay=hfrag, reference/bitnet_linear.c hfrag_word): word j pairs components 2j, 2j+1, and
//   step s's pair is bits 2s and 16 + 2s of it;
// - from x, columns 16 g .. 16 g + 15 of tokens 2 t, 2 t + 1, 2 t + 8, 2 t + 9 of the 16-token fragment: one uvec4 of
//   each token's row (xq as it is, row stride Kp), step s using its bytes 2 s (rows g) and 2 s + 1 (rows g + 8).
// Tiling as dense_coopmat_g.glsl's K parts: a workgroup of SGS = SR x SK subgroups; subgroup sg takes the WN panels
// of row tile sr = sg % SR and K part ks = sg / SR (pc.p2 blocks), for MT 16-token fragments (grid y); at the end
// each subgroup stages its WN x MT fp32 tiles (64 LN bytes each) in shared memory, one workgroup barrier, and every
// invocation sums an output's SK parts in part order (exact: integers below 2^24) and writes y. No barrier in the K
// loop, nothing staged but the output. A subgroup's W loads run 2 blocks ahead of its MMAs (AH = 1, the default: one
// copy of the block's code, the register sets moved along; AH = 2 or 4: as many copies and blocks ahead), its x loads
// one. AH = 1's half-size binary took 7-15% less time cold on an H200 (tests/gpu/sweep_s28e.txt).
// LN = 8 (stubs ..n8, m <= 8): 16x8x16 MMAs, half the matrix work of 16 tokens; B's 4 components of invocation (g, t)
// at (row g + 8 (i / 2), column 2 t + (i & 1)), the order `coopmat_layout type=f16 frag=16x8x16 use=b` checks (the
// 16x16 one's rows and columns, halved; it PASSed on an H200, sweep_s28c.txt).
// Buffers: 0 W (lay=hfrag: 16-row panels x K blocks x 32 uvec4; padding weights 0), 1 gamma', 2 xq (int8 M x Kp), 3 s,
// 4 y. Push: n, m, p0 = Kp / 16 (uvec4 of an x row), p1 = K blocks a row, p2 = blocks a K part. Grid (ceil(N / (16
// WN SR)), ceil(M / (LN MT))). Spec: 0 workgroup size (32 SGS), 1 SGS, 2 SK, 3 TK (16, or 8 where m <= 8: the
// fragment's tokens 8 .. 15 are zeros, not loaded), 4 DEC, 5 AH. WN and MT are compiled in by the stubs bitnet_hmma_wIxJ.comp.
// VKB_COOP_EMU (bitnet_hmma_emu_wIxJ.comp): the matrix operations emulated with the same semantics, each fragment a
// handle that reads its elements from W and x through the order above, so lavapipe validates the layout, the K order
// and the tiling at every element; the device's own order is what `coopmat_layout type=f16` checks.
#extension GL_EXT_control_flow_attributes : enable
#extension GL_EXT_shader_explicit_arithmetic_types_float16 : require
#extension GL_KHR_shader_subgroup_basic : require
#include "common.glsl"
layout(constant_id = 1) const uint SGS = 4u;
layout(constant_id = 2) const uint SK = 1u;
layout(constant_id = 3) const uint TK = 16u;
layout(constant_id = 4) const uint DEC = 0u;  // W's decode: 0 the 1024 offset, 1 subnormal codes (below)
layout(constant_id = 5) const uint AH = 1u;   // W's register sets: 2 or 4 (that many blocks ahead), 1 (2 ahead, one copy)
#ifndef HM_LN
#define HM_LN 16u
#endif
const uint WN = HM_WN, MT = HM_MT, LN = HM_LN, SR = SGS / SK, TILE = 4u * LN;  // TILE: uvec4 of a staged 16 x LN tile

#include "bitnet_bufs.glsl"
shared uvec4 sm[SGS * WN * MT * TILE];  // each subgroup's WN x MT fp32 16 x LN tiles, column-major

#ifdef VKB_COOP_EMU
// A: the block at uvec4 wb (its 32 uvec4), step s. B: tokens t0 .. t0 + 15, K block b, step s.
struct FragA { uint wb, s; bool ones; };
struct FragB { uint t0, b, s; };
float hm_scale(uint s) { return DEC == 1u ? exp2(float(s < 6u ? 2u * s : 2u * s - 12u)) : 1.0; }  // 2^e
struct AccEmu { float v[32]; };  // element e = lane + q S (row e / LN, column e % LN) in v[q]: S >= 8
#ifndef HM_SLOT
#define HM_SLOT(r, p) uvec2(4u * ((r) % 8u) + ((p) % 8u) / 2u, 4u * ((r) / 8u) + 2u * ((p) / 8u) + ((p) & 1u))
#endif
float emu_a(FragA f, uint r, uint p) {  // weight (r, p): invocation l, component i of the device's order
    if (f.ones) return hm_scale(f.s) * exp2(-24.0);
    uvec2 li = HM_SLOT(r, p);
    uint word = VB_W[f.wb + li.x][li.y / 2u], c = (word >> (2u * f.s + 16u * (li.y & 1u))) & 3u;
    return DEC == 1u ? float(c) * hm_scale(f.s) * exp2(-24.0) : float(int(c) - 1);
}
float emu_b(FragB f, uint p, uint n) {  // x (token t0 + n, column 16 (p % 8) + 2 s + p / 8 of block b)
    uint tok = f.t0 + n, col = 128u * f.b + 16u * (p % 8u) + 2u * f.s + p / 8u;
    if (tok >= pc.m || col >= 16u * pc.p0 || (TK == 8u && n >= 8u) || n >= LN) return 0.0;
    uint e = tok * 16u * pc.p0 + col;
    return float(bitfieldExtract(int(VB_X[e / 16u][(e % 16u) / 4u]), 8 * int(e % 4u), 8)) / hm_scale(f.s);
}
AccEmu emu_zero() {
    AccEmu a;
    for (uint q = 0u; q < 32u; ++q) a.v[q] = 0.0;
    return a;
}
AccEmu emu_mma(FragA a, FragB b, AccEmu c) {  // exact: integer products and sums below 2^24
    for (uint q = 0u; q < 16u * LN / gl_SubgroupSize; ++q) {
        uint e = gl_SubgroupInvocationID + q * gl_SubgroupSize;
        float s = c.v[q];
        [[unroll]] for (uint p = 0u; p < 16u; ++p) s += emu_a(a, e / LN, p) * emu_b(b, p, e % LN);
        c.v[q] = s;
    }
    return c;
}
void emu_store_col(AccEmu a, uint elem) {  // into sm at uvec4 elem, element (r, c) at float 16 c + r
    for (uint q = 0u; q < 16u * LN / gl_SubgroupSize; ++q) {
        uint e = gl_SubgroupInvocationID + q * gl_SubgroupSize, o = elem * 4u + (e % LN) * 16u + e / LN;
        sm[o / 4u][o % 4u] = floatBitsToUint(a.v[q]);
    }
}
AccEmu emu_fin(AccEmu a, AccEmu b) {  // DEC = 1: (a - b) 2^24
    for (uint q = 0u; q < 32u; ++q) a.v[q] = (a.v[q] - b.v[q]) * 16777216.0;
    return a;
}
#define ACC AccEmu
#define ACC_ZERO emu_zero()
#define ACC_FIN(a, b) emu_fin(a, b)
#define ONES(f, s) f = FragA(0u, s, true)
#define BUILD_A(f, wv, wbase, s) f = FragA(wbase, s, false)
#define BUILD_B(f, xv, t0, b, s) f = FragB(t0, b, s)
#define MMA(a, b, c) emu_mma(a, b, c)
#define STORE_COL(a, elem) emu_store_col(a, elem)
#else
#define FragA fcoopmatNV<16, gl_ScopeSubgroup, 16, 16>
#define FragB fcoopmatNV<16, gl_ScopeSubgroup, 16, LN>
#define ACC fcoopmatNV<32, gl_ScopeSubgroup, 16, LN>
#define ACC_ZERO ACC(0.0)
#define ACC_FIN(a, b) (((a) - (b)) * 16777216.0)
// DEC = 1: step s's block of 2^(e - 24), the codes' offset times x by MMA.
#define ONES(f, s) f = FragA(float16_t((s) < 6u ? exp2(float(2u * (s)) - 24.0) : exp2(float(2u * (s)) - 36.0)))
// Step s's weights of this invocation's uvec4 wv: component 2 j + h is bit 2 s + 16 h of word j, as 1024 + c - 1025.
// DEC = 1: the pair masked in place (words shifted by 12 for s = 6, 7: wv holds both, below), c 2^(e - 24).
#define BUILD_A(f, wv, wbase, s) [[unroll]] for (uint j_ = 0u; j_ < 4u; ++j_) {                            \
        const f16vec2 h_ = DEC == 1u                                                                       \
            ? unpackFloat2x16((s) < 6u ? wv[j_] & (0x00030003u << (2u * (s))) : (wv[j_] >> 12u) & (0x00030003u << (2u * (s) - 12u))) \
            : unpackFloat2x16(((wv[j_] >> (2u * (s))) & 0x00030003u) | 0x64006400u) - f16vec2(1025.0);    \
        f[2u * j_] = h_.x;                                                                                 \
        f[2u * j_ + 1u] = h_.y;                                                                            \
    }
// Two tokens' byte at bit sh of words a, b as an fp16 pair: 0x64 over the byte with its sign flipped is 1152 + x.
// DEC = 1 scales them by 2^-e (s, the step) in the same multiply-add: exact.
f16vec2 xpair(uint a, uint b, uint sh, uint s) {
    uint v = ((a >> sh) & 0xFFu) | (((b >> sh) & 0xFFu) << 16u);
    const float16_t k = DEC == 1u ? float16_t(s < 6u ? exp2(-2.0 * float(s)) : exp2(12.0 - 2.0 * float(s))) : float16_t(1.0);
    return fma(unpackFloat2x16(v ^ 0x64806480u), f16vec2(k), f16vec2(-1152.0 * k));
}
// Step s's x: tokens (2t, 2t+1) then (2t+8, 2t+9), rows g (byte 2s of each token's uvec4) then g + 8 (byte 2s + 1).
// LN = 8 (16x8 B, 4 components: HM_B8 below): tokens (2t, 2t+1) of rows g, then of rows g + 8.
#define BUILD_B(f, xv, t0, b, s) {                                                                        \
        const uint wd_ = (s) >> 1u, sh_ = 16u * ((s) & 1u);                                               \
        if (LN == 8u)                                                                                     \
            [[unroll]] for (uint h_ = 0u; h_ < 2u; ++h_) {                                                \
                const f16vec2 lo_ = xpair(xv[0][wd_], xv[1][wd_], sh_ + 8u * h_, (s));                    \
                f[2u * h_] = lo_.x;                                                                       \
                f[2u * h_ + 1u] = lo_.y;                                                                  \
            }                                                                                             \
        else                                                                                              \
        [[unroll]] for (uint h_ = 0u; h_ < 2u; ++h_) {                                                    \
            const f16vec2 lo_ = xpair(xv[0][wd_], xv[1][wd_], sh_ + 8u * h_, (s));                             \
            f[4u * h_] = lo_.x;                                                                           \
            f[4u * h_ + 1u] = lo_.y;                                                                      \
            const f16vec2 hi_ = TK == 16u ? xpair(xv[2][wd_], xv[3][wd_], sh_ + 8u * h_, (s)) : f16vec2(0.0);  \
            f[4u * h_ + 2u] = hi_.x;                                                                      \
            f[4u * h_ + 3u] = hi_.y;                                                                      \
        }                                                                                                 \
    }
#define MMA(a, b, c) coopMatMulAddNV(a, b, c)
#define STORE_COL(a, elem) coopMatStoreNV(a, sm, elem, 4u, true)
#endif

// Block B's uvec4 of W for each panel into WV, and of x for each token into XV (zeros past the part, M or Kp).
#define LOADW(WV, B) [[unroll]] for (uint i_ = 0u; i_ < WN; ++i_) WV[i_] = (B) < b1 ? VB_W[wb[i_] + (B) * 32u + lane] : uvec4(0u);
#define LOADX(XV, B) {                                                                                    \
        const bool in_ = (B) < b1 && 128u * (B) + 16u * g < 16u * pc.p0;  /* Kp % 128 == 64: half a block */ \
        [[unroll]] for (uint j_ = 0u; j_ < MT; ++j_)                                                      \
            [[unroll]] for (uint q_ = 0u; q_ < 4u; ++q_)                                                  \
                XV[j_][q_] = in_ && xr[j_][q_] != ~0u ? VB_X[xr[j_][q_] + 8u * (B)] : uvec4(0u);             \
    }
// Block B's eight 16-deep steps on WV and XV.
#define BLOCK(WV, XV, B) [[unroll]] for (uint s_ = 0u; s_ < 8u; ++s_) {                                   \
        FragB fb_[MT];                                                                                    \
        [[unroll]] for (uint j_ = 0u; j_ < MT; ++j_) BUILD_B(fb_[j_], XV[j_], tb + LN * j_, (B), s_);    \
        if (DEC == 1u) {                                                                                  \
            FragA o_;                                                                                     \
            ONES(o_, s_);                                                                                 \
            [[unroll]] for (uint j_ = 0u; j_ < MT; ++j_) asx[j_] = MMA(o_, fb_[j_], asx[j_]);             \
        }                                                                                                 \
        [[unroll]] for (uint i_ = 0u; i_ < WN; ++i_) {                                                    \
            FragA fa_;                                                                                    \
            BUILD_A(fa_, WV[i_], wb[i_] + (B) * 32u, s_);                                                 \
            [[unroll]] for (uint j_ = 0u; j_ < MT; ++j_) acc[i_][j_] = MMA(fa_, fb_[j_], acc[i_][j_]);    \
        }                                                                                                 \
    }

void main() {
    uint sg = gl_SubgroupID, lane = gl_SubgroupInvocationID, ks = sg / SR, sr = sg % SR;
    uint g = lane / 4u, t = lane % 4u, nb = pc.p1, b0 = min(nb, ks * pc.p2), b1 = min(nb, b0 + pc.p2);
    uint npan = (pc.n + 15u) / 16u, pan0 = (gl_WorkGroupID.x * SR + sr) * WN, tb = gl_WorkGroupID.y * LN * MT;
    uint wb[WN];  // panel i's block 0, this invocation's uvec4 (a panel past N reads the last one; never stored)
    [[unroll]] for (uint i = 0u; i < WN; ++i) wb[i] = min(pan0 + i, npan - 1u) * nb * 32u;
    uint xr[MT][4];  // token 2t, 2t+1, 2t+8, 2t+9 of fragment j: its row's first uvec4 plus g, or ~0u past M
    [[unroll]] for (uint j = 0u; j < MT; ++j)
        [[unroll]] for (uint q = 0u; q < 4u; ++q) {
            uint tok = tb + LN * j + 2u * t + (q & 1u) + 8u * (q >> 1u);
            xr[j][q] = tok < pc.m && (q < 2u || (TK == 16u && LN == 16u)) ? tok * pc.p0 + g : ~0u;
        }
    ACC acc[WN][MT], asx[MT];  // asx: DEC = 1's sum_k x 2^-24 per token
    [[unroll]] for (uint j = 0u; j < MT; ++j) {
        asx[j] = ACC_ZERO;
        [[unroll]] for (uint i = 0u; i < WN; ++i) acc[i][j] = ACC_ZERO;
    }
    // Register sets of W: two at AH = 1 (blocks b, b + 1, moved along), else AH (each loaded AH blocks ahead); two of x.
    uvec4 w0[WN], w1[WN], w2[WN], w3[WN], xa[MT][4], xb[MT][4];
    LOADW(w0, b0) LOADW(w1, b0 + 1u) LOADX(xa, b0)
    if (AH == 4u) {
        LOADW(w2, b0 + 2u) LOADW(w3, b0 + 3u)
    }
    if (AH == 1u)  // one copy of the block's code (half the binary to fetch cold), the sets moved along instead
        for (uint b = b0; b < b1; ++b) {
            LOADX(xb, b + 1u)
            BLOCK(w0, xa, b)
            w0 = w1;
            xa = xb;
            LOADW(w1, b + 2u)
        }
    else
    for (uint b = b0; b < b1; b += AH) {
        LOADX(xb, b + 1u)
        BLOCK(w0, xa, b)
        LOADW(w0, b + AH)
        if (b + 1u < b1) {
            LOADX(xa, b + 2u)
            BLOCK(w1, xb, b + 1u)
            LOADW(w1, b + AH + 1u)
        }
        if (AH == 4u && b + 2u < b1) {
            LOADX(xb, b + 3u)
            BLOCK(w2, xa, b + 2u)
            LOADW(w2, b + 6u)
            if (b + 3u < b1) {
                LOADX(xa, b + 4u)
                BLOCK(w3, xb, b + 3u)
                LOADW(w3, b + 7u)
            }
        }
    }
    [[unroll]] for (uint i = 0u; i < WN; ++i)
        [[unroll]] for (uint j = 0u; j < MT; ++j) {
            if (DEC == 1u) acc[i][j] = ACC_FIN(acc[i][j], asx[j]);
            STORE_COL(acc[i][j], ((sg * WN + i) * MT + j) * TILE);
        }
    barrier();
    // Output e: tile (row subgroup r, panel i, token fragment j), element el (column-major: token el / 16, row el % 16).
    for (uint e = gl_LocalInvocationIndex; e < SR * WN * MT * 16u * LN; e += gl_WorkGroupSize.x) {
        uint el = e % (16u * LN), tt = e / (16u * LN), j = tt % MT, i = (tt / MT) % WN, r = tt / (MT * WN);
        float a = 0.0;
        for (uint q = 0u; q < SK; ++q) a += uintBitsToFloat(sm[(((q * SR + r) * WN + i) * MT + j) * TILE + el / 4u][el % 4u]);
        uint tok = tb + LN * j + el / 16u, row = ((gl_WorkGroupID.x * SR + r) * WN + i) * 16u + el % 16u;
        if (tok < pc.m && row < pc.n) {
            precise float p = a * VB_GAM[0];
            precise float o = p / VB_SC[tok];
            VB_Y[tok * pc.n + row] = o;
        }
    }
}
