// bitnet_layout.glsl — the packed ternary layout "T2", shared by C (reference/, via -Ikernels) and GLSL.
// Preprocessor lines and comments only, so both languages can include it.
//
// Codes: c = w + 1 in {0, 1, 2} for a ternary weight w in {-1, 0, +1}; 3 never occurs.
// Rows: the N x K matrix is stored row-major; each row is padded to Kp = BITNET_PAD(K) weights with
//   code 1 (w = 0), so a row is Kp/4 bytes, a multiple of 16: every row starts uvec4-aligned.
// Group: 64 weights = one 16-byte uvec4 = 4 little-endian uint32 words. Word q (0..3) of group g holds
//   weights k = 64g + 16q + 4j + b (j, b in 0..3) at bits 8b + 2j: byte b, bit pair j.
//   So (word >> 2j) & 0x03030303 holds, one per byte, the codes of the four CONSECUTIVE weights
//   16q + 4j + 0..3 -- the same four positions as one uint of packed int8 activations -- and
//   word & (0x03030303 << 2j) holds them times 4^j (<= 128: still an unsigned byte), which is what the
//   GEMV feeds to a signed x unsigned 4x8 dot product without any shift.
// int8 tensors (unpacked ternary weights, quantized activations) use the same row stride Kp (bytes),
//   padding zero, so GEMV/GEMM loads never need a bounds check along K.
// The scale is one fp32 per tensor in its own buffer: gamma' = max(mean|W|, 1e-5) (released code's eps).
#ifndef BITNET_LAYOUT_GLSL
#define BITNET_LAYOUT_GLSL
#define BITNET_GROUP 64      /* weights per group (one uvec4) */
#define BITNET_WORD 16       /* weights per uint32 word */
#define BITNET_SHIFT(k) (8 * ((k) % 4) + 2 * (((k) % 16) / 4))  /* bit position of weight k (of a row) inside its word */
#define BITNET_PAD(k) (((k) + 63u) / 64u * 64u)
#define BITNET_EPS 1e-5      /* gamma' = max(gamma, eps); activations: s = 127 / max(absmax, eps) */
#endif
