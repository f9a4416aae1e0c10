#version 450
#extension GL_GOOGLE_include_directive : require
// bitnet_layer's first dispatch: the RMSNorm-fused activation quantizer (bitnet_aquant.glsl, NORM = 1), its
// buffers renumbered to share one descriptor set with the GEMV that follows it (bitnet_gemv_sg.glsl, which
// owns 0 W, 1 gamma', 2 xq, 3 s, 4 y): it writes xq into 2 and s into 3, where the GEMV reads them.
// Buffers: 5 x (fp32 M x K), 6 g (RMSNorm weight, K), 7 r (RMSNorm factor per token, for the check).
#define AQ_BIND_X 5
#define AQ_BIND_Q 2
#define AQ_BIND_S 3
#define AQ_BIND_G 6
#define AQ_BIND_R 7
#include "bitnet_aquant.glsl"
