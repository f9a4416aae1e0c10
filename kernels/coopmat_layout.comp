#version 450
// Which matrix element each invocation holds in each component of an NV cooperative matrix (kernel coopmat_layout,
// reference/peak.c): the opaque layout a kernel needs to fill fragments from registers. One subgroup loads a
// matrix whose elements are their row numbers and one whose elements are their column numbers, through
// coopMatLoadNV as the kernels load them (A row-major, B column-major, accumulators row-major); each invocation
// stores, for each component i < length(), row << 8 | column at o[1 + 64 l + i]; o[0] = length().
// Buffers: 0 int8 (two M x K A or K x N B matrices), 1 int32 (two M x N accumulators), 2 out, 3 fp16 (two A or B
// matrices for TYPE 1). Spec: 0 workgroup size (one subgroup), 1 M, 2 N, 3 K, 4 USE (0 A, 1 B, 2 accumulator), 5 TYPE
// (0 int8 / int32, 1 fp16 A or B: what dense_f16's lay=frag relies on).
#extension GL_EXT_shader_8bit_storage : require
#extension GL_EXT_shader_explicit_arithmetic_types_int8 : require
#extension GL_EXT_shader_16bit_storage : require
#extension GL_EXT_shader_explicit_arithmetic_types_float16 : require
#extension GL_KHR_memory_scope_semantics : require
#extension GL_KHR_shader_subgroup_basic : require
#extension GL_NV_cooperative_matrix : require
#extension GL_NV_integer_cooperative_matrix : require
layout(local_size_x_id = 0) in;
layout(constant_id = 1) const uint M = 16u;
layout(constant_id = 2) const uint N = 8u;
layout(constant_id = 3) const uint K = 32u;
layout(constant_id = 4) const uint USE = 0u;
layout(constant_id = 5) const uint TYPE = 0u;
layout(binding = 0) readonly buffer I8 { int8_t v8[]; };
layout(binding = 1) readonly buffer I32 { int v32[]; };
layout(binding = 2) writeonly buffer Out { uint o[]; };
layout(binding = 3) readonly buffer F16 { float16_t v16[]; };

// Matrices r and c (T: BITS-bit integers or floats, R x C) from buffer B at elements 0 and OFF (stride S, COL: column-major), then
// every component's row << 8 | column.
#define PROBE(BITS, R, C, B, OFF, S, COL) PROBE_T(icoopmatNV, BITS, R, C, B, OFF, S, COL)
#define PROBE_T(T, BITS, R, C, B, OFF, S, COL) {                                                        \
        T<BITS, gl_ScopeSubgroup, R, C> r, c;                                                           \
        coopMatLoadNV(r, B, 0u, S, COL);                                                                \
        coopMatLoadNV(c, B, OFF, S, COL);                                                               \
        for (int i = 0; i < r.length() && i < 64; ++i) o[1u + 64u * l + uint(i)] = uint(int(r[i])) << 8 | uint(int(c[i])); \
        if (l == 0u) o[0] = uint(r.length());                                                           \
    }

void main() {
    uint l = gl_SubgroupInvocationID;
    if (TYPE == 1u) {
        if (USE == 0u) PROBE_T(fcoopmatNV, 16, M, K, v16, M * K, K, false)
        else PROBE_T(fcoopmatNV, 16, K, N, v16, K * N, K, true)
    } else if (USE == 0u) PROBE(8, M, K, v8, M * K, K, false)
    else if (USE == 1u) PROBE(8, K, N, v8, K * N, K, true)
    else PROBE(32, M, N, v32, M * N, N, false)
}
