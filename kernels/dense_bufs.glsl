// dense_f16's buffers, as its kernels bind them: 0 W (uvec4 of fp16), 1 x (uvec4 of fp16; XC a coherent view of it,
// dense_coopmat_g.glsl), 2 y (float; Y4 as vec4), 3 part (float, split-K sums; PART4 as vec4). The kernels reach them as
// VB_W, VB_X, VB_XC, VB_Y, VB_Y4, VB_PART and VB_PART4: by descriptor, or by address in a twin (VKB_BDA,
// kernels/bda.glsl).
#ifndef DENSE_BUFS_GLSL
#define DENSE_BUFS_GLSL
#ifdef VKB_BDA
#include "bda.glsl"
VKB_REF(DenW, readonly, uvec4, 16);
VKB_REF(DenX, readonly, uvec4, 16);
VKB_REF(DenXc, coherent readonly, uvec4, 16);
VKB_REF(DenY, writeonly, float, 4);
VKB_REF(DenY4, writeonly, vec4, 16);
VKB_REF(DenP, coherent, float, 4);
VKB_REF(DenP4, coherent, vec4, 16);
#define VB_W DenW(VKB_ADDR(0u)).v
#define VB_X DenX(VKB_ADDR(1u)).v
#define VB_XC DenXc(VKB_ADDR(1u)).v
#define VB_Y DenY(VKB_ADDR(2u)).v
#define VB_Y4 DenY4(VKB_ADDR(2u)).v
#define VB_PART DenP(VKB_ADDR(3u)).v
#define VB_PART4 DenP4(VKB_ADDR(3u)).v
#else
layout(binding = 0) readonly buffer Wb { uvec4 w[]; };
layout(binding = 1) readonly buffer Xb { uvec4 x[]; };
layout(binding = 1) coherent readonly buffer Xc { uvec4 xc[]; };
layout(binding = 2) writeonly buffer Yb { float y[]; };
layout(binding = 2) writeonly buffer Yb4 { vec4 y4[]; };
layout(binding = 3) coherent buffer Pb { float part[]; };
layout(binding = 3) coherent buffer Pb4 { vec4 part4[]; };
#define VB_W w
#define VB_X x
#define VB_XC xc
#define VB_Y y
#define VB_Y4 y4
#define VB_PART part
#define VB_PART4 part4
#endif
#endif
