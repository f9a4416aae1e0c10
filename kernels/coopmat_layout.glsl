// Which matrix element each invocation holds in each component of an NV cooperative matrix (kernel coopmat_layout,
// reference/peak.c): the opaque layout a kernel needs to fill fragments from registers. One subgroup loads a
// matrix whose elements are their row numbers and one whose elements are their column numbers, through
// coopMatLoadNV as the kernels load them (A row-major, B column-major, accumulators row-major); each invocation
// stores, for each component i < length(), row << 8 | column at o[1 + 64 l + i]; o[0] = length().
// Buffers: 0 int8 (two M x K A or K x N B matrices), 1 int32 (two M x N accumulators), 2 out; VKB_LAYOUT_F16 (stub
// coopmat_layout_f16.comp: fp16 A or B, what dense_f16's lay=frag relies on) 3 fp16 (two A or B matrices) instead of 0
// and 1, so that each module asks only for its own types. Spec: 0 workgroup size (one subgroup), 1 M, 2 N, 3 K, 4 USE
// (0 A, 1 B, 2 accumulator; fp16: A or B).
#ifdef VKB_LAYOUT_F16
#extension GL_EXT_shader_16bit_storage : require
#extension GL_EXT_shader_explicit_arithmetic_types_float16 : require
#else
#extension GL_EXT_shader_8bit_storage : require
#extension GL_EXT_shader_explicit_arithmetic_types_int8 : require
#endif
#extension GL_KHR_memory_scope_semantics : require
#extension GL_KHR_shader_subgroup_basic : require
#extension GL_NV_cooperative_matrix : require
#ifndef VKB_LAYOUT_F16
#extension GL_NV_integer_cooperative_matrix : require
#endif
layout(local_size_x_id = 0) in;
layout(constant_id = 1) const uint M = 16u;
layout(constant_id = 2) const uint N = 8u;
layout(constant_id = 3) const uint K = 32u;
layout(constant_id = 4) const uint USE = 0u;
layout(binding = 2) writeonly buffer Out { uint o[]; };
#ifdef VKB_LAYOUT_F16
layout(binding = 3) readonly buffer F16 { float16_t v16[]; };
#else
layout(binding = 0) readonly buffer I8 { int8_t v8[]; };
layout(binding = 1) readonly buffer I32 { int v32[]; };
#endif

// Matrices r and c (T: BITS-bit integers or floats, R x C) from buffer B at elements 0 and OFF (stride S, COL:
// column-major), then every component's row << 8 | column.
#define PROBE(T, BITS, R, C, B, OFF, S, COL) {                                                          \
        T<BITS, gl_ScopeSubgroup, R, C> r, c;                                                           \
        coopMatLoadNV(r, B, 0u, S, COL);                                                                \
        coopMatLoadNV(c, B, OFF, S, COL);                                                               \
        for (int i = 0; i < r.length() && i < 64; ++i) o[1u + 64u * l + uint(i)] = uint(int(r[i])) << 8 | uint(int(c[i])); \
        if (l == 0u) o[0] = uint(r.length());                                                           \
    }

void main() {
    uint l = gl_SubgroupInvocationID;
#ifdef VKB_LAYOUT_F16
    if (USE == 0u) PROBE(fcoopmatNV, 16, M, K, v16, M * K, K, false)
    else PROBE(fcoopmatNV, 16, K, N, v16, K * N, K, true)
#else
    if (USE == 0u) PROBE(icoopmatNV, 8, M, K, v8, M * K, K, false)
    else if (USE == 1u) PROBE(icoopmatNV, 8, K, N, v8, K * N, K, true)
    else PROBE(icoopmatNV, 32, M, N, v32, M * N, N, false)
#endif
}
