// Buffers by address (VK_KHR_buffer_device_address, core in Vulkan 1.3): the harness pushes buffer i's payload address
// at pc.addr[2i], pc.addr[2i + 1] (kernels/abi.h) beside the descriptor set that binds it at binding i, so a kernel may
// reach a buffer either way. make builds a stub marked "// twin: bda" a second time with VKB_BDA defined, as
// NAME_bda.spv, whose code takes the addresses (bind=bda). Why: on an H200 a gemv's fixed cost fell by 0.3-0.7 us a
// dispatch by address (tests/gpu/sweep_s37a.txt).
// VKB_REF(Name, qualifiers, T, alignment) declares a reference type to an array v of T; VKB_ADDR(i) is buffer i's
// address, so Name(VKB_ADDR(i)).v stands where a binding's array would.
#ifndef VKB_BDA_GLSL
#define VKB_BDA_GLSL
#extension GL_EXT_buffer_reference : require
#extension GL_EXT_buffer_reference_uvec2 : require
#include "common.glsl"
#define VKB_ADDR(i) uvec2(pc.addr[2u * (i)], pc.addr[2u * (i) + 1u])
#define VKB_REF(Name, qual, T, al) layout(buffer_reference, std430, buffer_reference_align = al) qual buffer Name { T v[]; }
#endif
