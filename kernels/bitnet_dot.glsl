// The 4x8-bit dot products of the BitNet shaders (bitnet_common.glsl; bitnet_mma_kp.glsl's sum_k x), on their own so that
// a kernel can take them without bitnet_common.glsl's shared reduction array.
#ifndef BITNET_DOT_GLSL
#define BITNET_DOT_GLSL
// dot_su(x, w): sum over the 4 bytes of int8(x_b) * uint8(w_b); dot_ss: both signed.
// BITNET_DOT: the device's packed dot product (SPV_KHR_integer_dot_product: OpSUDot/OpSDot with
// PackedVectorFormat4x8Bit). glslang 12 lacks GL_EXT_integer_dot_product, so the instructions are
// declared through GL_EXT_spirv_intrinsics (capabilities DotProductInput4x8BitPacked = 6018, DotProduct = 6019).
#ifdef BITNET_DOT
#extension GL_EXT_spirv_intrinsics : require
spirv_instruction(extensions = ["SPV_KHR_integer_dot_product"], capabilities = [6018, 6019], id = 4452)
int bitnet_sudot(int a, uint b, spirv_literal int fmt);
spirv_instruction(extensions = ["SPV_KHR_integer_dot_product"], capabilities = [6018, 6019], id = 4450)
int bitnet_sdot(int a, int b, spirv_literal int fmt);
int dot_su(uint x, uint w) { return bitnet_sudot(int(x), w, 0); }
int dot_ss(uint x, uint w) { return bitnet_sdot(int(x), int(w), 0); }
#else
// Plain integer path: byte extraction and multiply-add.
int dot_su(uint x, uint w) {
    int xi = int(x);
    return bitfieldExtract(xi, 0, 8) * int(bitfieldExtract(w, 0, 8)) + bitfieldExtract(xi, 8, 8) * int(bitfieldExtract(w, 8, 8)) +
           bitfieldExtract(xi, 16, 8) * int(bitfieldExtract(w, 16, 8)) + bitfieldExtract(xi, 24, 8) * int(w >> 24);
}
int dot_ss(uint x, uint w) {
    int xi = int(x), wi = int(w);
    return bitfieldExtract(xi, 0, 8) * bitfieldExtract(wi, 0, 8) + bitfieldExtract(xi, 8, 8) * bitfieldExtract(wi, 8, 8) +
           bitfieldExtract(xi, 16, 8) * bitfieldExtract(wi, 16, 8) + bitfieldExtract(xi, 24, 8) * bitfieldExtract(wi, 24, 8);
}
#endif
#endif
