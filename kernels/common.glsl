// Shared by every shader: the ABI (push constants), the workgroup-size spec constant,
// and helpers for flat indexing over 2-D dispatch grids (maxComputeWorkGroupCount.x may be 65535).
#ifndef VKB_COMMON_GLSL
#define VKB_COMMON_GLSL
#extension GL_GOOGLE_include_directive : require
#include "abi.h"

// The default before specialization is VKB_WG_DEFAULT (1 unless the shader defines it): a shader whose compilation
// depends on the size (workgroup-scope matrices) gives a real one.
#ifndef VKB_WG_DEFAULT
#define VKB_WG_DEFAULT 1
#endif
layout(local_size_x = VKB_WG_DEFAULT, local_size_x_id = 0, local_size_y = 1, local_size_z = 1) in;

// Flat workgroup index for a grid split as (x, y) by vkb_grid_1d on the host.
uint vkb_group_id() { return gl_WorkGroupID.y * gl_NumWorkGroups.x + gl_WorkGroupID.x; }
uint vkb_global_id() { return vkb_group_id() * gl_WorkGroupSize.x + gl_LocalInvocationID.x; }

// An invocation's 8 components of a 16x16 fp16 NV cooperative matrix f, in order, from the uvec4 v that holds them as
// 4 fp16 pairs: a fragment in fragment order (dense_coopmat_g.glsl's lay=frag, peak_coopmat_smem.glsl's src=frag) is
// one 16-byte load an invocation. Needs GL_EXT_shader_explicit_arithmetic_types_float16.
// The order itself (NVIDIA's 580 driver; reference/bitnet_linear.c frag_slot, checked by `coopmat_layout type=f16`):
// component i of invocation l = 4 g + t holds row g + 8 (i / 4), column 2 t + (i & 1) + 8 ((i >> 1) & 1); element (r, c)
// is component VKB_FRAG_COMP(r, c) of invocation VKB_FRAG_LANE(r, c).
#define VKB_FRAG_ROW(l, i) ((l) / 4u + 8u * ((i) / 4u))
#define VKB_FRAG_COL(l, i) (2u * ((l) % 4u) + ((i) & 1u) + 8u * (((i) >> 1u) & 1u))
#define VKB_FRAG_LANE(r, c) (4u * ((r) % 8u) + ((c) % 8u) / 2u)
#define VKB_FRAG_COMP(r, c) (4u * ((r) / 8u) + 2u * ((c) / 8u) + ((c) & 1u))
#define VKB_FRAG_FILL(f, v) [[unroll]] for (uint q_ = 0u; q_ < 4u; ++q_) {                               \
        const f16vec2 h_ = unpackFloat2x16((v)[q_]);                                                       \
        f[2u * q_] = h_.x;                                                                                 \
        f[2u * q_ + 1u] = h_.y;                                                                            \
    }

// Gate self-test knob (harness/slowdown.c): make a kernel slower by a calibrated amount. pc.slow packs
//   bits 0..22: the level L;  bit 23: the kind, 0 = ALU, 1 = memory;  bits 24..31: a mask the host leaves 0.
// ALU: vkb_slow() runs L dependent FMAs. It suits a compute-bound kernel; on a memory-bound one the extra
// ALU work hides under memory latency (on an H200 the factor stalled at 1.00-1.01x).
// Memory: VKB_SLOW_READ makes element i (of n) of the kernel's first buffer read floor(L / 1024) more
// elements, plus one when i % 1024 < L % 1024: L / 1024 extra passes over that buffer, in proportion to
// the target. Each pass reads at its own offset, >= 1/8 of the buffer away from i (golden-ratio steps
// from n / 2), so the extra bytes come from DRAM rather than from lines the kernel has just touched;
// consecutive invocations read consecutive elements, so the reads coalesce.
// No compiler may prove the work dead: lavapipe's NIR/LLVM folded the former `y - y + x` to x, and a test
// on y's bit pattern that only a NaN could pass is foldable by a compiler that knows its FMA returns a
// canonical NaN. So the work reaches the result through the mask from the push constants: x ^ (w & 0)
// is x, bit for bit, and the check still compares exact outputs.
// The knob exists only in the pipelines the harness builds for an injected slowdown (VKB_GATE = 1; harness/vk.c
// vkb_gpu_gate); everywhere else VKB_GATE = 0 compiles all of it out, so a timed kernel is the kernel itself: on an
// H200 the dead knob tripled bitnet_gemv_sg's binary (33 KB against 11) and cost 28672x4096 2 us of 12.8 (session 29,
// tests/gpu/sweep_s29c.txt). The slowdown is calibrated against the plain pipeline (harness/slowdown.c).
// VKB_KNOB_ALWAYS (defined before this file): the knob stays in every pipeline of that shader, where it was measured to
// make the kernel faster, not slower (the driver schedules the opaque value differently): matmul_coopmat.glsl.
#ifdef VKB_KNOB_ALWAYS
const uint VKB_GATE = 1u;
#else
layout(constant_id = VKB_GATE_SPEC) const uint VKB_GATE = 0u;
#endif
bool vkb_gate_mem() { return VKB_GATE != 0u && (pc.slow & 0x800000u) != 0u; }  // the memory kind is injected
uint vkb_slow_mask() { return VKB_GATE != 0u ? pc.slow >> 24 : 0u; }
uint vkb_slow_reads(uint i) {
    uint level = pc.slow & 0x7FFFFFu;
    if (!vkb_gate_mem()) return 0u;
    return (level >> 10) + ((i & 1023u) < (level & 1023u) ? 1u : 0u);
}
uint vkb_slow_at(uint i, uint pass, uint n) {
    return (i + uint(float(n) * fract(0.5 + 0.6180339887 * float(pass)))) % n;
}
uint vkb_bits(vec4 v) { return floatBitsToUint(v.x) ^ floatBitsToUint(v.y) ^ floatBitsToUint(v.z) ^ floatBitsToUint(v.w); }
uint vkb_bits(uvec4 v) { return v.x ^ v.y ^ v.z ^ v.w; }
uint vkb_bits(float v) { return floatBitsToUint(v); }
uint vkb_bits(uint v) { return v; }
// acc (a uint, from 0u) ^= each extra element that element i of buf (n elements) reads; fold acc in with vkb_slow.
#define VKB_SLOW_READ(acc, buf, i, n) \
    for (uint vkb_p_ = 0u, vkb_e_ = vkb_slow_reads(i); vkb_p_ < vkb_e_; ++vkb_p_) acc ^= vkb_bits(buf[vkb_slow_at(i, vkb_p_, n)])
// x with the injected work folded in (x itself, bit for bit): the ALU loop, and extra (VKB_SLOW_READ's acc).
uint vkb_slow_alu(float x) {
    float y = x;
    uint count = VKB_GATE == 0u || (pc.slow & 0x800000u) != 0u ? 0u : pc.slow & 0x7FFFFFu;
    for (uint i = 0u; i < count; ++i) y = y * 0.9999999f + 1e-30f;
    return floatBitsToUint(y);
}
float vkb_slow(float x, uint extra) {
    return uintBitsToFloat(floatBitsToUint(x) ^ ((vkb_slow_alu(x) ^ extra) & vkb_slow_mask()));
}
uint vkb_slow(uint x, uint extra) { return x ^ ((vkb_slow_alu(float(x)) ^ extra) & vkb_slow_mask()); }
#endif
