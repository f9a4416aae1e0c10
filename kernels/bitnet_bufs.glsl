// BitLinear's buffers, as every BitLinear kernel binds them: 0 packed W (uvec4), 1 gamma' (float), 2 xq (uvec4 of int8),
// 3 s (float), 4 y (float), 5 part (int, split-K sums; coherent: bitnet_mma_sg.glsl FOLD reads other workgroups). The
// kernels reach them as VB_W, VB_GAM, VB_X, VB_SC, VB_Y and VB_PART: by descriptor, or by address in a twin (VKB_BDA,
// kernels/bda.glsl). BITNET_OWN_X: the kernel brings its own x and s and binds 5 itself (bitnet_layer_fused.glsl).
#ifndef BITNET_BUFS_GLSL
#define BITNET_BUFS_GLSL
#ifdef VKB_BDA
#include "bda.glsl"
VKB_REF(BitW, readonly, uvec4, 16);
VKB_REF(BitF, readonly, float, 4);
VKB_REF(BitY, writeonly, float, 4);
#define VB_W BitW(VKB_ADDR(0u)).v
#define VB_GAM BitF(VKB_ADDR(1u)).v
#define VB_Y BitY(VKB_ADDR(4u)).v
#ifndef BITNET_OWN_X
VKB_REF(BitP, coherent, int, 4);
#define VB_PART BitP(VKB_ADDR(5u)).v
VKB_REF(BitX, readonly, uvec4, 16);
#define VB_X BitX(VKB_ADDR(2u)).v
#define VB_SC BitF(VKB_ADDR(3u)).v
#endif
#else
layout(binding = 0) readonly buffer Wb { uvec4 w[]; };
layout(binding = 1) readonly buffer Gb { float gam[]; };
layout(binding = 4) writeonly buffer Yb { float y[]; };
#define VB_W w
#define VB_GAM gam
#define VB_Y y
#ifndef BITNET_OWN_X
layout(binding = 5) coherent buffer Pb { int part[]; };
#define VB_PART part
layout(binding = 2) readonly buffer Xb { uvec4 x[]; };
layout(binding = 3) readonly buffer Sb { float sc[]; };
#define VB_X x
#define VB_SC sc
#endif
#endif
#endif
