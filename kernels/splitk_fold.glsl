// Split-K folded into the kernel (FOLD): the workgroups of one output tile each write their K slice's partial sums,
// then take a ticket; the one that draws the last sums the slices in slice order and writes y, the way a second
// pass would, with no second dispatch (its launch and the drain between the two were 4-6 us of a 15-28 us call on
// an H200, --profile, session 10). The ticket counter is the kernel's own state: it must be zero before the first
// call (the host uploads it zeroed, an input) and the last workgroup sets it back to zero for the next call. The
// harness's recheck after timing (harness/run.c case_recheck) is what validates that reset: a counter left
// non-zero makes a later call's tile never summed (its outputs still poisoned).
// Before including: FOLD_CNT_BINDING (the counter buffer's binding); the partial sums' buffer declared coherent.
#ifndef SPLITK_FOLD_GLSL
#define SPLITK_FOLD_GLSL
layout(binding = FOLD_CNT_BINDING) coherent buffer FoldCnt { uint fold_cnt[]; };
shared bool fold_last;

// Called by every invocation of the workgroup (uniform control flow) after its partial sums are written; true in
// the workgroup that completes tile `tile` of `slices`, whose partial sums it may then read (coherent).
bool fold_arrive(uint tile, uint slices) {
    memoryBarrierBuffer();  // this invocation's partial sums, before the ticket
    barrier();              // every invocation's
    if (gl_LocalInvocationIndex == 0u) {
        bool last = atomicAdd(fold_cnt[tile], 1u) == slices - 1u;
        if (last) fold_cnt[tile] = 0u;  // every slice has arrived: ready for the next call
        fold_last = last;
    }
    barrier();
    memoryBarrierBuffer();
    return fold_last;
}
#endif
