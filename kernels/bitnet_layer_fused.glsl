// bitnet_layer fuse=1: the whole BitLinear layer in ONE dispatch. Every GEMV workgroup (bitnet_gemv_sg.glsl, SG_FUSED)
// first quantizes its tile's MT tokens itself -- RMSNorm statistics, absmax scale and the int8 codes, with
// bitnet_aquant.glsl's own rounding steps (aq_norm, aq_scale, aq_pack) -- into shared memory, then runs gemv_sg's
// ternary dot-product loop on them. The statistics are recomputed by every workgroup (K floats of x and g, from
// L1/L2); the xq/s round trip through memory and the second dispatch with its barrier are gone.
// Every workgroup runs the same instructions on the same data, so all derive the same r and s; workgroup x = 0 also
// writes xq, s and r for the check (which then judges every y from those: a workgroup that quantized differently
// fails there). Items: 16 consecutive codes = one uvec4 of xq; item e = 4 c + q is word quad q of group c.
// Invocation tid owns items tid + i wg (i < NE), x and g for them in registers (4 NE vec4 each), loaded together.
// Shared xs: token t's item (c, q) at (4 t + q) NC + c, so lanes reading consecutive groups read consecutive uvec4.
// Buffers as bitnet_layer's (0 W, 1 gamma', 2 xq, 3 s, 4 y, 5 x, 6 g, 7 r); push n, m, k, p0 = Kp/64, eps.
// Spec: 0 wg, 1..4 gemv_sg's R, MT, G, T; 5 NI = Kp/16 items per token; 6 NE = ceil(NI / wg); 7 PRE.
#define AQ_BIND_X 5
#define AQ_BIND_Q 2
#define AQ_BIND_S 3
#define AQ_BIND_G 6
#define AQ_BIND_R 7
#define AQ_LIB
#include "bitnet_aquant.glsl"
#define SG_FUSED
#include "bitnet_gemv_sg.glsl"
layout(constant_id = 5) const uint NI = 4u;
layout(constant_id = 6) const uint NE = 1u;
shared uvec4 xs[MT * NI];
shared float s_sh[MT];

void sg_prologue(uint tok0) {
    uint tid = gl_LocalInvocationID.x, WG = gl_WorkGroupSize.x, K = pc.k, NC = NI / 4u;
    for (uint t = 0u; t < MT; ++t) {
        uint tok = min(tok0 + t, pc.m - 1u);
        vec4 v[4u * NE], g[4u * NE];
        for (uint i = 0u; i < 4u * NE; ++i) {
            uint k0 = 16u * (tid + (i / 4u) * WG) + 4u * (i % 4u);
            v[i] = load4(tok * K, k0, false);
            g[i] = load4(0u, k0, true);
        }
        float ss = 0.0;
        for (uint i = 0u; i < 4u * NE; ++i) ss += dot(v[i], v[i]);
        float r = inversesqrt(wg_sum(ss) / float(K) + pc.eps);
        float mx = 0.0;
        for (uint i = 0u; i < 4u * NE; ++i) {
            v[i] = aq_norm(v[i], r, g[i]);
            mx = max(mx, max(max(abs(v[i].x), abs(v[i].y)), max(abs(v[i].z), abs(v[i].w))));
        }
        float s = aq_scale(wg_max(mx));
        bool wr = gl_WorkGroupID.x == 0u && tok0 + t < pc.m;  // one workgroup per tile writes the intermediates
        for (uint i = 0u; i < NE; ++i) {
            uint e = tid + i * WG;
            if (e >= NI) break;
            uvec4 code = uvec4(aq_pack(v[4u * i], s), aq_pack(v[4u * i + 1u], s), aq_pack(v[4u * i + 2u], s),
                               aq_pack(v[4u * i + 3u], s));
            xs[(4u * t + e % 4u) * NC + e / 4u] = code;
            if (wr)
                for (uint j = 0u; j < 4u; ++j) q[(tok * NI + e) * 4u + j] = code[j];
        }
        if (tid == 0u) {
            s_sh[t] = s;
            if (wr) s_out[tok] = s, r_out[tok] = r;
        }
    }
    barrier();
}
uvec4 sg_x(uint tok0, uint t, uint c, uint q) { return xs[(4u * t + q) * (NI / 4u) + c]; }
float sg_s(uint tok0, uint t) { return s_sh[t]; }
