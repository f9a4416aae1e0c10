// IEEE special values kept: by default Vulkan lets a compiler assume no NaN, infinity or signed zero
// (appendix "Precision and Operation of SPIR-V Instructions"); the SignedZeroInfNanPreserve execution mode
// makes add, sub, mul, conversions, loads, stores and selects carry them as IEEE 754 says. Included by
// the kernels whose contract is IEEE propagation (reference/elementwise.c, fill=special); the host SKIPs
// them on a device without shaderSignedZeroInfNanPreserveFloat32 (and Float16 for fp16 storage).
#ifndef VKB_IEEE_GLSL
#define VKB_IEEE_GLSL
#extension GL_EXT_spirv_intrinsics : require
spirv_execution_mode(capabilities = [4466], 4461, 32);  // SignedZeroInfNanPreserve, 32-bit
#ifdef VKB_F16
spirv_execution_mode(capabilities = [4466], 4461, 16);
#endif
#endif
