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
