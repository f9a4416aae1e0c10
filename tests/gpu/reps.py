"""How many back-to-back calls one timed sample of peers.py holds (timed()'s R), apart from torch so that `make test`
checks it on a machine without a GPU."""


def sized(build, clock, one, floor=2e-4, cap=5000, tries=5):
    """(run, method, reps): R grows until one run of R calls lasts >= floor seconds (or R reaches cap), starting from
    the guess floor / one (one: a single call timed between events, which mostly times the launch path).
    build(R) -> (run, method) makes a runner of exactly R calls; clock(run) -> seconds one run of it took. The runner
    returned is always the one built for the R returned: timed() divides each sample by R. (Before session 42 the last
    try raised R without rebuilding, so where three tries fell short the samples timed the old, shorter graph and were
    divided by the new R: on an H200, fp16 512^3 read 1.32 us a call at R = 47 from samples of 62 us, where a settled
    loop's samples last 200 us; 3.84 at R = 51 once fixed, tests/gpu/sweep_s42a.txt and s42b.)"""
    reps = max(1, min(1000, int(floor / one + 0.999)))
    run, method = build(reps)
    for _ in range(tries):
        per = max(clock(run), 1e-9)
        if per >= floor or reps >= cap:
            break
        reps = min(cap, int(reps * 1.1 * floor / per + 0.999))
        run, method = build(reps)
    return run, method, reps


def energy_per_call(step, read, now, min_s=1.0, max_s=3.0, min_updates=10):
    """((J a call, mean W, counter updates, window s), "") or (None, why): the energy of one call by the rule
    harness/telemetry.c follows (shared/notes/telemetry.md §5). step() runs a chunk of back-to-back calls to its end and
    returns how many; read() is the GPU's energy counter in mJ (NVML's, updated every ~20-100 ms); now() seconds. Chunks
    run for >= min_s and until the counter has updated min_updates times (at most max_s); the mean power is taken
    between the first and the last update seen (both inside the window, so no idle time before it counts), and a call's
    energy is that power x the window / the calls. Fewer updates than min_updates: None, never a guess."""
    t0, e, calls, updates, first, last = now(), read(), 0, 0, None, None
    while True:
        calls += step()
        t, v = now(), read()
        if v != e:
            updates, e, last = updates + 1, v, (t, v)
            first = first or last
        w = t - t0
        if (w >= min_s and updates >= min_updates) or w >= max_s:
            break
    if updates < min_updates or last[0] <= first[0]:
        return None, "NA (the energy counter updated %d times in %.1f s, fewer than %d)" % (updates, w, min_updates)
    p = (last[1] - first[1]) / 1e3 / (last[0] - first[0])
    return (p * w / calls, p, updates, w), ""
