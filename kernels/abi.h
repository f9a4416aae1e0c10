/* The one host/shader ABI: included by C (harness/, reference/) and by GLSL (kernels/).
 * Push constants are 32 four-byte scalars, std430-packed on both sides, so the layout cannot drift: 16 the case's,
 * 16 the addresses of its buffers' payloads, for kernels that reach them by buffer reference (kernels/bda.glsl).
 * Buffers: the case's buffers are bound in declaration order at set 0, bindings 0..nbuf-1.
 * Specialization constant 0 is the workgroup size x (shaders declare local_size_x_id = 0);
 * ids 1..15 are kernel-specific; VKB_GATE_SPEC is the gate self-test's switch (kernels/common.glsl), which the
 * harness sets in every pipeline: 1 in those it builds for an injected slowdown, else 0. */
#ifndef VKB_ABI_H
#define VKB_ABI_H

#define VKB_PUSH_FIELDS \
    uint n; uint m; uint k; uint ld;      /* sizes and leading dimension */ \
    uint p0; uint p1; uint p2; uint p3;   /* kernel-specific integers (offsets, steps) */ \
    uint slow; uint q1; uint q2; uint q3; /* slow: injected extra work (gate selftest), 0 = none */ \
    float alpha; float beta; float eps; float f3; \
    uint addr[16];                        /* buffer i's payload address (VK_KHR_buffer_device_address) at words \
                                             2i (low), 2i + 1 (high): the harness fills them as it records */

#define VKB_PUSH_WORDS 32
#define VKB_GATE_SPEC 63
#define VKB_GUARD_BYTES 4096u
/* Poison written into outputs before every GPU run (vkb_poison_fill, harness/check.h): per type, a value no
 * kernel produces, so a check can tell "unwritten" from any result.
 *   f32, f16  a quiet NaN whose payload says "unwritten" (no input holds it)
 *   i8        -128: BitNet's int8 codes lie in [-127, 127] (kernels.md section 1); ternary int8 codes in [-1, 1]
 *   u32       0xFFFFFFFF: sixteen 2-bit fields of code 3, invalid in the packed ternary layout (codes 0..2);
 *             counters and info words stay far below it
 *   i32       0xA5A5A5A5 = -1515870811: beyond |acc| <= 127 K of an int8 x ternary dot product for K < 1.19e7
 *   u8        0xA5 (no u8 outputs) */
#define VKB_POISON_F32 0x7FC0DEADu
#define VKB_POISON_F16 0x7E5Bu
#define VKB_POISON_I8 0x80u
#define VKB_POISON_U8 0xA5u
#define VKB_POISON_I32 0xA5A5A5A5u
#define VKB_POISON_U32 0xFFFFFFFFu

#ifndef GL_core_profile
#include <stdint.h>
typedef uint32_t uint;
typedef struct vkb_push { VKB_PUSH_FIELDS } vkb_push;
_Static_assert(sizeof(vkb_push) == 4 * VKB_PUSH_WORDS, "push constants are 32 packed words");
_Static_assert(sizeof(vkb_push) <= 128, "Vulkan guarantees 128 bytes of push constants");
#else
layout(push_constant) uniform VkbPush { VKB_PUSH_FIELDS } pc;
#endif

#endif
