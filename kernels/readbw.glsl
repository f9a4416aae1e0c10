// readbw (readbw.comp; its twin readbw_bda, bind=bda: its buffers by address, kernels/bda.glsl): read-only bandwidth.
// Every invocation sums uvec4s of a (grid-strided, so each pass over the array is coalesced), the workgroup reduces in
// shared memory and writes one uint: the writes are 4 bytes per workgroup, well under 1% of the bytes read. Integer sums
// wrap mod 2^32, so the reference reproduces them exactly and the compiler cannot drop a single load. U (unroll=) loads
// of an invocation are issued before any is summed: uvec4 k goes to invocation k mod total whatever U is.
#include "common.glsl"
#ifdef VKB_BDA
#include "bda.glsl"
VKB_REF(A4, readonly, uvec4, 16);
VKB_REF(A1, readonly, uint, 4);
VKB_REF(S, writeonly, uint, 4);
#define RB_A4(i) A4(VKB_ADDR(0u)).v[i]
#define RB_A1(i) A1(VKB_ADDR(0u)).v[i]
#define RB_S(i) S(VKB_ADDR(1u)).v[i]
#else
layout(binding = 0) readonly buffer A4 { uvec4 a4[]; };
layout(binding = 0) readonly buffer A1 { uint a1[]; };
layout(binding = 1) writeonly buffer S { uint s[]; };
#define RB_A4(i) a4[i]
#define RB_A1(i) a1[i]
#define RB_S(i) s[i]
#endif
layout(constant_id = 1) const uint U = 1u;
shared uint red[gl_WorkGroupSize.x];
void main() {
    uint lid = gl_LocalInvocationID.x, wg = gl_WorkGroupSize.x;
    uint total = gl_NumWorkGroups.x * gl_NumWorkGroups.y * wg, nvec = pc.n / 4u;
    uint acc = 0u;
    // The host keeps U <= items, so k0 + (U - 1) total < 2 nvec + U wg fits 32 bits; at U = 1 this is the plain
    // grid-strided loop (the first load's bound is the loop's own).
    for (uint k0 = vkb_global_id(); k0 < nvec; k0 += U * total) {
        uvec4 v[U];
        for (uint u = 0u; u < U; ++u) v[u] = k0 + u * total < nvec ? RB_A4(k0 + u * total) : uvec4(0u);
        for (uint u = 0u; u < U; ++u) acc += v[u].x + v[u].y + v[u].z + v[u].w;
    }
    if (vkb_global_id() == 0u)
        for (uint j = 4u * nvec; j < pc.n; ++j) acc += RB_A1(j);
    red[lid] = acc;
    barrier();
    for (uint h = wg / 2u; h > 0u; h /= 2u) {
        if (lid < h) red[lid] += red[lid + h];
        barrier();
    }
    if (lid == 0u) RB_S(vkb_group_id()) = red[0];
}
