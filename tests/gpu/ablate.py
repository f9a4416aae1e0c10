#!/usr/bin/env python3
"""Ablated copies of a kernel's shader, for `sh tests/gpu/run.sh ablate SET` (session 14's ablations, sweep_s14e.txt and
sweep_s14i.txt): each variant removes one part (the MulAdd, the barriers, the global loads, the K loop) by an exact text
replacement in the kernel's .glsl (or an include it names), asserted to apply, and is compiled next to the build's SPIR-V
as ABL_VARIANT.spv.
The timings come from `vkbench run --established` (a PASS run of the same commit, same cases), since an ablated
shader computes wrong results: they say where the time goes, never that a kernel is correct.

Usage: python3 tests/gpu/ablate.py SET SPV_DIR [--list]  ->  prints "STUB MODULE..." (the stub to replace, the modules);
python3 tests/gpu/ablate.py --check: every set's replacements still apply (tests/run.sh, no compiler needed);
--list only names them (a GPU host without glslang: make them where you build, SPV_DIR = build/gpu/spv, and carry it).
"""
import os, subprocess, sys, tempfile

# The per-subgroup BitLinear MMA kernels' W loads (kernels/bitnet_mma_rows.glsl) replaced by register values
W_ROWS_NOLOAD = [("P[q] = r_ < RS && r0 + r_ < pc.n && g_ < cend ? VB_W[w_at(r0 + r_, g_)] : uvec4(0u);",
                  "P[q] = uvec4(r_ * 0x01010101u + g_);", "bitnet_mma_rows.glsl")]

# kernels/matmul_coopmat_wg.glsl's staged loop: no MulAdd but the first step's (harness/spvkhr.c reads each matrix type's
# Use from a MulAdd), no barrier before it, A's and B's loads replaced by register values, no K loop
WG_A = ("ra[u][i] = WG_A8[(row0 + x / (BK / 8u)) * kq + kr / 8u + x % (BK / 8u)];", "ra[u][i] = uvec4(x + kr);")
WG_B = ("rb[u][i] = WG_B8[WG_B_AT(x, kr)];", "rb[u][i] = uvec4(x ^ kr);")
WG_CUTS = {
    "nomma": [("        WG_STEP(base);                                                                                       \\\n",
               "        if ((s) == 0u) WG_STEP(base);                                                                        \\\n")],
    "nobar": [("        barrier();                                                                                           \\\n"
               "        if ((s) + AHEAD < ns)", "        if ((s) + AHEAD < ns)")],
    "noload": [WG_A, WG_B],
    "noloop": [("ns = pc.k / SPLIT / BK,", "ns = 0u * pc.k,")],
}
# session 43, forms of the same loop that still compute the product (so run.sh ablate times them on the PASS run's
# checks, and a session script can also run them validated): the staged tiles unpadded (rows of exactly BK / 8 and
# BN / 8 uvec4: the strides a Hopper warpgroup MMA's operands would take from shared memory), and each step's MulAdd
# split into BK / 16 MulAdds 16 deep (fewer fragments live at once)
WG_NOPAD = [("const uint ASTR = BK / 8u + 1u, ASZ", "const uint ASTR = BK / 8u, ASZ"),
            ("const uint BSTR = BN / 8u + 1u, BSZ = BK * BSTR;", "const uint BSTR = BN / 8u, BSZ = BK * BSTR;")]
WG_K16 = [("#define WG_STEP(base) do { fcoopmatNV<16, gl_ScopeWorkgroup, BM, BK> ta; fcoopmatNV<16, gl_ScopeWorkgroup, BK, BN> tb; \\\n"
           "    coopMatLoadNV(ta, sm, base, ASTR, false); coopMatLoadNV(tb, sm, base + ASZ, BSTR, WG_B_COLMAJOR); \\\n"
           "    acc = coopMatMulAddNV(ta, tb, acc); } while (false)",
           "#define WG_STEP(base) do { [[unroll]] for (uint h_ = 0u; h_ < BK / 16u; h_++) { \\\n"
           "    fcoopmatNV<16, gl_ScopeWorkgroup, BM, 16> ta; fcoopmatNV<16, gl_ScopeWorkgroup, 16, BN> tb; \\\n"
           "    coopMatLoadNV(ta, sm, base + 2u * h_, ASTR, false); coopMatLoadNV(tb, sm, base + ASZ + 16u * h_ * BSTR, BSTR, false); \\\n"
           "    acc = coopMatMulAddNV(ta, tb, acc); } } while (false)")]
WG_FORMS = {"nopad": WG_NOPAD, "k16": WG_K16, "nopad_k16": WG_NOPAD + WG_K16}

# kernels/dense_coopmat_g.glsl's K loop: x or W fragments from one place, no K loop
DG_CUTS = {
    "xfixed": [("LOAD_XS(fb[b], c + 8u * b);", "LOAD_XS(fb[b], 8u * b);")],
    "wfixed": [("LOAD_W(fa[b][u][i], WF(i, c + 8u * b + 2u * u), wstr);", "LOAD_W(fa[b][u][i], WF(i, 8u * b + 2u * u), wstr);")],
    "noloop": [("    uint c = c0;\n", "    uint c = cend;\n")],
}
# ... and (session 27, lay=frag) x's or W's fragment loads gone (constant fragments), or x's from shared memory (the
# staged tiles' cost without their staging; the address follows c, so that no load leaves the loop: session 27's first
# xsm, at fixed addresses, timed as xnone did)
XS_LOOP = "[[unroll]] for (uint u = 0u; u < UK; ++u) [[unroll]] for (uint j = 0u; j < MT; ++j) %s"
DG_CUTS_F = dict(DG_CUTS, **{
    "xnone": [("LOAD_XS(fb[b], c + 8u * b);", XS_LOOP % "fb[b][u][j] = FRAGB(float16_t(u + j));")],
    "xsm": [("LOAD_XS(fb[b], c + 8u * b);", XS_LOOP % "coopMatLoadNV(fb[b][u][j], sm, (c + 8u * b + 2u * u) % 32u + j * 32u, 2u, true);")],
    "wnone": [("LOAD_W(fa[b][u][i], WF(i, c + 8u * b + 2u * u), wstr);", "fa[b][u][i] = FRAG(float16_t(2u * u + i));")],
    # session 31: neither (the MMAs and the loop alone: what the chains of dependent MMAs cost at this occupancy)
    "wxnone": [("LOAD_XS(fb[b], c + 8u * b);", XS_LOOP % "fb[b][u][j] = FRAGB(float16_t(u + j));"),
               ("LOAD_W(fa[b][u][i], WF(i, c + 8u * b + 2u * u), wstr);", "fa[b][u][i] = FRAG(float16_t(2u * u + i));")],
})

# kernels/bitnet_mma_kp.glsl (BitLinear's K-parts kernel)
KP_CUTS = {
    "noload": W_ROWS_NOLOAD,
    "noxload": [("Q[q] = e_ < XQ && t_ < pc.m && g_ < cend ? VB_X[(t_ * pc.p0 + g_) * 4u + e_ % 4u] : uvec4(0u);",
                 "Q[q] = uvec4(e_ * 0x01010101u + g_);")],
    "nodecode": [("sm[slab + r_ * WSW + 4u * (H) + u] = bitnet_codes(P[q][u]);", "sm[slab + r_ * WSW + 4u * (H) + u] = uvec4(P[q][u]);")],
    "noones": [("                if (XSUM == 0u) asx[j] = MMA(ones, fb[j], asx[j]);                                    \\\n", "")],
    "nobar": [("        subgroupBarrier();  /* the previous stage's fragment loads are done */                        \\\n", ""),
              ("            subgroupMemoryBarrierShared();                                                            \\\n"
               "            subgroupBarrier();                                                                        \\\n", "")],
    "noloop": [("for (uint st = 0u; st < ns;", "for (uint st = 0u; st < 0u;")],
    # session 33: x's or W's stores into the slab gone (so their loads go dead too: against noxload / noload, what
    # staging them costs; the fragment loads still read the slab)
    "noxstage": [("            if (e_ < XQ) sm[xa_ + (e_ / 4u) * WST + 4u * (H) + e_ % 4u] = Q[q];                      \\\n", "")],
    "nowstage": [("                [[unroll]] for (uint u = 0u; u < 4u; ++u) sm[slab + r_ * WSW + 4u * (H) + u] = bitnet_codes(P[q][u]); \\\n",
                  "                {}                                                                            \\\n")],
}

SETS = {
    # BitLinear mma_sg (kernels/bitnet_mma_sg.glsl) at m=8
    "mma_sg": ("bitnet_mma_sg", "bitnet_mma_sg.glsl", {
        "nomma": [("[[unroll]] for (uint j = 0u; j < MT; ++j) acc[i][j] = MMA(fa, fb[j], acc[i][j]);", "")],
        "nobar": [("        if (SB == 1u) subgroupBarrier();  /* the previous step's fragment loads are done */           \\\n", ""),
                  ("        subgroupMemoryBarrierShared();                                                                \\\n"
                   "        subgroupBarrier();                                                                            \\\n", "")],
        "noload": W_ROWS_NOLOAD,
        "noloop": [("    for (uint st = 0u; st < ns; st += 4u) {", "    for (uint st = 0u; st < 0u; st += 4u) {")],
    }),
    # dense_f16 coopmat_g (kernels/dense_coopmat_g.glsl, wn=2 with 8-token fragments: the K-parts default at m=8): x
    # fragments from one place (L1 hits: what re-reading x from L2 costs), W fragments from one place (what streaming W
    # costs), no K loop. Session 15's figures (sweep_s15h.txt's header) are of the 16-token stub, before ln=8.
    "dense_g": ("dense_coopmat_g_w2x1n8", "dense_coopmat_g.glsl", DG_CUTS),
    # the same cuts on its 16-token stub, the m=16 default (session 26: 25% slower than m=8 at the same W bytes)
    "dense_g16": ("dense_coopmat_g_w2x1", "dense_coopmat_g.glsl", DG_CUTS),
    # session 27: lay=frag's m=16 default (dense_g16f) and m=32 at mt=2 wn=2 sk=4 (dense_g32; 1.6x m=16's time)
    "dense_g16f": ("dense_coopmat_g_w2x1", "dense_coopmat_g.glsl", DG_CUTS_F),
    "dense_g32": ("dense_coopmat_g_w2x2", "dense_coopmat_g.glsl", DG_CUTS_F),
    # session 30: lay=fragx's m=16 default and m=32's (two token sets of one token fragment, K parts: the same stub)
    "dense_g16x": ("dense_coopmat_g_w2x1", "dense_coopmat_g.glsl", DG_CUTS_F),
    "dense_g32x": ("dense_coopmat_g_w2x1", "dense_coopmat_g.glsl", DG_CUTS_F),
    # session 33: the same cuts on 28672x4096's m=32 default (wn=4 ts=2 sk=2 sgs=4 xc=1: 64-row subgroups, the w4x1 stub)
    "dense_g32w4": ("dense_coopmat_g_w4x1", "dense_coopmat_g.glsl", DG_CUTS_F),
    # BitLinear mma_kp (kernels/bitnet_mma_kp.glsl, session 16): W or x from registers (what streaming them costs), no
    # decode, no sum_k x MMA, no subgroup barriers in a step, no K loop
    "mma_kp": ("bitnet_mma_kp", "bitnet_mma_kp.glsl", KP_CUTS),
    # session 34: the same on the shared x stage's m=32 defaults (xs=1), and its workgroup barrier a step made a subgroup
    # one (noxbar: what waiting for the other row tiles costs)
    "mma_kp_xs": ("bitnet_mma_kp", "bitnet_mma_kp.glsl", dict(KP_CUTS, noxbar=[(
        "            memoryBarrierShared();                                                                    \\\n"
        "            barrier();                                                                                \\\n",
        "            subgroupMemoryBarrierShared();                                                            \\\n"
        "            subgroupBarrier();                                                                        \\\n")])),
    # BitLinear gemv_sg (kernels/bitnet_gemv_sg.glsl, the m=1 default, session 25): x from registers (what its L1/L2
    # reads cost), no dot products (the W words still summed), W from registers (the fixed cost with x and the math)
    "gemv_sg": ("bitnet_gemv_sg_dot", "bitnet_gemv_sg.glsl", {
        "nox": [("uvec4 xa = sg_x(tok0, 0u, c, q);", "uvec4 xa = uvec4(c * 0x01010101u + q);")],
        "nomath": [("acc[r] += ivec4(dot_su(xa.x, wd & 0x03030303u), dot_su(xa.y, wd & 0x0C0C0C0Cu),\n"
                    "                                        dot_su(xa.z, wd & 0x30303030u), dot_su(xa.w, wd & 0xC0C0C0C0u));",
                    "acc[r] += ivec4(wd);")],
        "noload": [("wv[u * R + r] = VB_W[wrow[r] + c];", "wv[u * R + r] = uvec4(wrow[r] + c);")],
    }),
    # BitLinear hmma (kernels/bitnet_hmma.glsl, session 28) at m=8, wn=4 16x8x16 dec=1: W or x from registers (what
    # their loads cost), the decode and MMAs of all but each block's first step gone, no K loop (the fixed cost)
    "hmma": ("bitnet_hmma_w4x1n8", "bitnet_hmma.glsl", {
        "noload": [("WV[i_] = (B) < b1 ? VB_W[wb[i_] + (B) * 32u + lane] : uvec4(0u);", "WV[i_] = uvec4(wb[i_] + (B) * 32u + lane);")],
        "noxload": [("XV[j_][q_] = in_ && xr[j_][q_] != ~0u ? VB_X[xr[j_][q_] + 8u * (B)] : uvec4(0u);",
                     "XV[j_][q_] = uvec4(xr[j_][q_] + 8u * (B));")],
        "nomath": [("acc[i_][j_] = MMA(fa_, fb_[j_], acc[i_][j_]);", "if (s_ == 0u) acc[i_][j_] = MMA(fa_, fb_[j_], acc[i_][j_]);")],
        "noloop": [("for (uint b = b0; b < b1; b += AH) {", "for (uint b = b0; b < b0; b += AH) {")],
    }),
    # matmul coopmat_wgs_s (kernels/matmul_coopmat_wg.glsl, 256 invocations) at 512
    "wgs": ("matmul_coopmat_wg_s256", "matmul_coopmat_wg.glsl", WG_CUTS),
    # dense_f16 algo=wgs (the same loop with W^T as B, 128 invocations, 8 steps ahead, two buffers: the m = 32 default
    # before session 26's grid rules, which run.sh names): those cuts, and x (A) or W (B) alone from registers
    "dense_wgs": ("dense_wgs_s128a8", "matmul_coopmat_wg.glsl", dict(WG_CUTS, noxload=[WG_A], nowload=[WG_B])),
    # issue 16's evidence (session 29): auto's kernels at 4096 and 8192, coopmat_wgs_l (256 invocations, one step ahead:
    # the stub "wgs" names) and coopmat_wgs_xl (two steps ahead); noload is the on-chip part alone (stash, barriers,
    # MulAdd from shared memory), noload_nobar without the barrier after the stash as well
    "wgs_l": ("matmul_coopmat_wg_s256", "matmul_coopmat_wg.glsl", dict(WG_CUTS, noload_nobar=[WG_A, WG_B] + WG_CUTS["nobar"])),
    "wgs_xl": ("matmul_coopmat_wg_s256a2", "matmul_coopmat_wg.glsl", dict(WG_CUTS, noload_nobar=[WG_A, WG_B] + WG_CUTS["nobar"])),
    # session 43: coopmat_wgs_m (auto's kernel at 4096: 128 invocations, 2 steps ahead, one buffer, by address: the stub's
    # _bda twin, built with VKB_BDA) with the cuts, the on-chip part unpadded, and the forms above; wgs_m3 the same tile
    # 3 steps ahead (spills, sweep_s42a.txt) with the split MulAdd; wgs_xlf _xl (8192's) in the forms above
    "wgs_m": ("matmul_coopmat_wg_s128a2_bda", "matmul_coopmat_wg.glsl",
              dict(WG_CUTS, noload_nopad=[WG_A, WG_B] + WG_NOPAD, **WG_FORMS)),
    "wgs_m3": ("matmul_coopmat_wg_s128a3_bda", "matmul_coopmat_wg.glsl", {"k16": WG_K16, "nopad_k16": WG_NOPAD + WG_K16}),
    "wgs_xlf": ("matmul_coopmat_wg_s256a2", "matmul_coopmat_wg.glsl", WG_FORMS),
}


def edited(name, v, reps, glsl):
    """The kernel's .glsl (and the includes a replacement names) with variant v's replacements applied; exits naming
    the first one that no longer applies. The .glsl is always among them, so that its quoted includes resolve beside it,
    to the edited copies first."""
    files = {glsl: open(os.path.join("kernels", glsl)).read()}
    for rep in reps:
        old, new, f = rep if len(rep) == 3 else rep + (glsl,)
        s = files.get(f) or open(os.path.join("kernels", f)).read()
        if old not in s:
            sys.exit("ablate.py: %s %s: kernels/%s no longer holds %r" % (name, v, f, old[:60]))
        files[f] = s.replace(old, new)
    return files


def main():
    if sys.argv[1:] == ["--check"]:  # tests/run.sh: every set's replacements still apply to today's kernels
        for name, (stub, glsl, variants) in SETS.items():
            for v, reps in variants.items():
                edited(name, v, reps, glsl)
        print("ablate.py: %d sets, %d ablated copies, every replacement applies" % (len(SETS), sum(len(s[2]) for s in SETS.values())))
        return
    name, spv = sys.argv[1], sys.argv[2]
    stub, glsl, variants = SETS[name]
    if "--list" in sys.argv[3:]:
        print(stub, " ".join("ABL_%s_%s" % (name, v) for v in variants))
        return
    made = []
    for v, reps in variants.items():
        files = edited(name, v, reps, glsl)
        with tempfile.TemporaryDirectory() as d:
            for f, s in files.items():
                open(os.path.join(d, f), "w").write(s)  # beside a copy of the stub: quoted includes look there first
            # a stub NAME_bda is the Makefile's by-address twin: NAME.comp built with VKB_BDA
            src, bda = (stub[:-4], ["-DVKB_BDA"]) if stub.endswith("_bda") else (stub, [])
            open(os.path.join(d, src + ".comp"), "w").write(open(os.path.join("kernels", src + ".comp")).read())
            subprocess.run(["glslangValidator", "-V", "--target-env", "vulkan1.2", "-I" + d, "-Ikernels"] + bda +
                           [os.path.join(d, src + ".comp"), "-o", os.path.join(spv, "ABL_%s_%s.spv" % (name, v))],
                           check=True, stdout=subprocess.DEVNULL)
        made.append("ABL_%s_%s" % (name, v))
    print(stub, " ".join(made))


main()
