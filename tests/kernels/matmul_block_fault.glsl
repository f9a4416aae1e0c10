// Fault injection for tests/run.sh (not a kernel): included after a matmul shader body that was compiled
// with `#define main vkb_unbroken_main` and `#define writeonly coherent`. The real main runs unchanged;
// then the workgroup that wrote the 16x16 block of C at ((M/2) & ~15, (N/2) & ~15) -- away from the first
// and last rows and columns -- scales it by 1.05, as a wrong tile index or a stray scale factor would.
// Errors of 5% of values ~10: far beyond each element's bound (2 K u32 sum|a||b| ~ 1e-4 at K = 256), far
// below a Freivalds row allowance at large N (kernels.md §5). Needs the body's BM, BN and buffer c1.
#undef main
void main() {
    vkb_unbroken_main();
    memoryBarrierBuffer();  // C is coherent here: this workgroup's stores become visible to its reads
    barrier();
    uint r0 = (pc.m / 2u) & ~15u, c0 = (pc.n / 2u) & ~15u;  // BM, BN are multiples of 16: one workgroup's
    if (gl_WorkGroupID.x != c0 / BN || gl_WorkGroupID.y != r0 / BM) return;
    for (uint e = gl_LocalInvocationID.x; e < 256u; e += gl_WorkGroupSize.x) {
        uint r = r0 + e / 16u, c = c0 + e % 16u;
        if (r < pc.m && c < pc.n) c1[r * pc.n + c] *= 1.05;  // BUG (deliberate)
    }
}
