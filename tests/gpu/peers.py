#!/usr/bin/env python3
"""Peer figures measured on the same machine as a vkbench GPU run, through PyTorch (cuBLAS,
cuSOLVER, CUDA copies): the numbers vkbench's closing notes compare against.

Usage: python3 tests/gpu/peers.py OUT.csv [--quick]
Each row: op, shape, dtype, median_s, min_s, samples, rate, unit, method, calls_per_sample, iqm_s (cold rows),
kernels (what one call ran: kernels_of, profiled after the row's timing, never during it), energy_J and power_W (the
fp16 GEMMs at 4096 and 8192 and fp32 at 4096: a call's energy and the mean power from NVML's energy counter, reps.py's
energy_per_call, after the timing; NA with the reason elsewhere or without NVML). Timing: 5 warm-up calls; then each
sample times R back-to-back calls between one pair of CUDA events and divides by R, R chosen so that a sample
lasts >= 200 us: one call per event pair would time the ~10-20 us launch path, not the kernel (fp16 512^3 and
1024^3 both read ~19 us that way). Where the call can be captured, the R calls are one CUDA graph (method
"graph"), otherwise a plain loop of R launches (method "loop", cuSOLVER's host syncs forbid capture).
R grows until a sample really lasts that long (calls_per_sample records it). Median of N samples (N from a
~0.3 s budget, at least 5). Ops ending in _cold are vkbench's mode=cold instead: each call after a 512 MiB read
that empties the L2 of its data (timed_cold: graphs with and without the calls, the difference per call).
"""
import csv, os, sys, time
import torch

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from reps import sized, energy_per_call  # noqa: E402

torch.backends.cuda.matmul.allow_tf32 = False  # fp32 GEMM must really be fp32
torch.backends.cudnn.allow_tf32 = False
dev = torch.device("cuda")


def capture(fn, reps):
    """reps calls of fn as one CUDA graph (one warm-up call on a side stream first, as capture needs), replayed once."""
    side = torch.cuda.Stream()
    side.wait_stream(torch.cuda.current_stream())
    with torch.cuda.stream(side):
        fn()
    torch.cuda.current_stream().wait_stream(side)
    g = torch.cuda.CUDAGraph()
    with torch.cuda.graph(g):
        for _ in range(reps):
            fn()
    g.replay(); torch.cuda.synchronize()
    return g


def timed(fn, budget=0.3, warm=5, graph=True):
    for _ in range(warm):
        fn()
    torch.cuda.synchronize()
    s, e = torch.cuda.Event(enable_timing=True), torch.cuda.Event(enable_timing=True)
    s.record(); fn(); e.record(); torch.cuda.synchronize()
    one = max(s.elapsed_time(e) / 1e3, 1e-6)

    def build(reps):
        if graph:
            try:
                return capture(fn, reps).replay, "graph"
            except Exception:
                torch.cuda.synchronize()

        def run():
            for _ in range(reps):
                fn()
        return run, "loop"

    # R: reps.py's sized (one call between events times the launch path, ~10-20 us, so R grows from that guess until
    # a sample of R calls really lasts >= 200 us; a 4 us fp16 512^3 call once took R = 10, 50 us samples).
    def clock(run):
        s.record(); run(); e.record(); torch.cuda.synchronize()
        return s.elapsed_time(e) / 1e3

    run, method, reps = sized(build, clock, one)
    per = clock(run)
    n = int(min(200, max(5, budget / per)))
    ts = []
    for _ in range(n):
        s.record(); run(); e.record(); torch.cuda.synchronize()
        ts.append(s.elapsed_time(e) / 1e3 / reps)
    ts.sort()
    return ts[len(ts) // 2], ts[0], len(ts), method, reps


def timed_cold(fn, flush, reps=40, n=15):
    """One call in vkbench's mode=cold: the L2 emptied of the call's data before it by reading `flush` (512 MiB, clean
    lines, as harness/vk.c's flush). Two CUDA graphs, A = reps x (flush, call) and B = reps x (flush), timed in
    alternation; a sample is (A - B) / reps: the call after a flush, with the same per-call path as timed()'s graphs.
    (A call alone between a pair of events after the flush costs the events' own ~3 us: null_cold read 4.4 us that
    way against 1.1 in a graph, H200, session 34.) Median of n samples; iqm_s, the interquartile mean, beside it."""
    ga = capture(lambda: (flush.sum(), fn()), reps)
    gb = capture(lambda: flush.sum(), reps)
    s, e = torch.cuda.Event(enable_timing=True), torch.cuda.Event(enable_timing=True)

    def one(g):
        s.record(); g.replay(); e.record(); torch.cuda.synchronize()
        return s.elapsed_time(e) / 1e3

    ts = sorted((one(ga) - one(gb)) / reps for _ in range(n))
    mid = ts[n // 4:n - n // 4]
    return ts[n // 2], ts[0], n, "cold-graph-diff", reps, sum(mid) / len(mid)


def nvml_energy():
    """(read, "") with read() the energy counter of torch's device in mJ (NVML nvmlDeviceGetTotalEnergyConsumption,
    the device matched by its UUID, never by index), or (None, why)."""
    import ctypes
    try:
        lib = ctypes.CDLL("libnvidia-ml.so.1")
        if lib.nvmlInit_v2() != 0:
            return None, "NA (nvmlInit_v2 failed)"
        uuid = "GPU-%s" % torch.cuda.get_device_properties(0).uuid
        h, v = ctypes.c_void_p(), ctypes.c_ulonglong()
        if lib.nvmlDeviceGetHandleByUUID(uuid.encode(), ctypes.byref(h)) != 0:
            return None, "NA (NVML has no device %s)" % uuid

        def read():
            if lib.nvmlDeviceGetTotalEnergyConsumption(h, ctypes.byref(v)) != 0:
                raise OSError("nvmlDeviceGetTotalEnergyConsumption failed")
            return v.value
        read()
        return read, ""
    except (OSError, AttributeError) as e:
        return None, "NA (NVML: %s)" % e


def energy(fn, per, read):
    """fn's energy a call and the mean power (reps.py's energy_per_call) over graphs of ~5 ms of calls replayed back to
    back, two in flight: a step waits for the older one only, so that the GPU has work queued while the counter is read
    (synchronising before each read filled 52% and 44% of the window at fp16 4096 and 8192 on an H200, two in flight 83%
    and 60%, session 43: tables.py prints that share as "busy"). A step counts the calls that have finished.
    per = fn's median time. ("J", "W") as strings, NA with the reason where it cannot be measured."""
    if read is None:
        return None
    reps = max(1, int(5e-3 / per))
    g, fly = capture(fn, reps), []

    def step():
        g.replay()
        fly.append(torch.cuda.Event()); fly[-1].record()
        if len(fly) < 3:
            return 0
        fly.pop(0).synchronize()
        return reps
    try:
        r, why = energy_per_call(step, read, time.monotonic)
    except OSError as e:
        return "NA (%s)" % e, "NA (%s)" % e
    return ("%.6g" % r[0], "%.6g" % r[1]) if r else (why, why)


def kernels_of(fn, calls=3):
    """What one call of fn runs on the GPU, from torch.profiler (CUPTI) over `calls` calls after the timing: each
    distinct kernel (or device copy / fill), by its total time, as NAME [grid GX x GY x GZ, block B, R regs, S B shared]
    x launches a call (a copy or fill: NAME x launches), where
    S is the static + dynamic shared memory a block of it holds (tables.py sets it beside Vulkan's cap). The name is
    cut at its argument list; the three kernels that take the most time, then how many others. 'NA (why)' where the
    profiler gives no kernel."""
    import json, os, tempfile
    try:
        from torch.profiler import profile, ProfilerActivity
        fn(); torch.cuda.synchronize()
        with profile(activities=[ProfilerActivity.CUDA]) as prof:
            for _ in range(calls):
                fn()
            torch.cuda.synchronize()
        fd, path = tempfile.mkstemp(suffix=".json"); os.close(fd)
        try:
            prof.export_chrome_trace(path)
            with open(path) as f:
                ev = [e for e in json.load(f).get("traceEvents", []) if e.get("cat") in ("kernel", "gpu_memcpy", "gpu_memset")]
        finally:
            os.unlink(path)
    except Exception as e:  # no CUPTI, a profiler that cannot start: the figure stays, its kernels are NA
        return "NA (profiler: %s)" % str(e).splitlines()[0][:120] if str(e) else "NA (profiler: %s)" % type(e).__name__
    if not ev:
        return "NA (the profiler recorded no kernel)"
    agg = {}
    for e in ev:
        a = e.get("args", {})
        g, b = a.get("grid", ["?"]), a.get("block", ["?"])
        key = (str(e.get("name", "?")).split("(")[0].strip(), "x".join(map(str, g)), "x".join(map(str, b)), a.get("registers per thread", "?"),
               a.get("shared memory", "?"))
        n, d = agg.get(key, (0, 0.0))
        agg[key] = (n + 1, d + float(e.get("dur", 0)))
    top = sorted(agg.items(), key=lambda kv: -kv[1][1])
    # a copy or a fill that is no kernel (cudaMemcpyAsync D2D: "Memcpy DtoD ...") has no grid: its name only
    out = [("%s [grid %s, block %s, %s regs, %s B shared] x %g" % (k[0], k[1], k[2], k[3], k[4], n / calls)) if k[1] != "?" else
           "%s x %g" % (k[0], n / calls) for k, (n, _) in top[:3]]
    if len(top) > 3:
        out.append("+%d other kernels" % (len(top) - 3))
    return "; ".join(out)


def main():
    out = sys.argv[1]
    quick = "--quick" in sys.argv
    rows = []

    read, nvml_why = nvml_energy()

    def add(op, shape, dtype, t, rate, unit, fn=None, joules=False):
        """One row; fn (the call that was timed) names its kernels. Cold rows run the rotate row's kernels: NA there.
        joules: also its energy a call and mean power (issue 16's GEMMs, where the board's power limit is the question)."""
        ej = energy(fn, t[0], read) if joules else None
        ej = ej or ("NA (not measured for this row)" if not joules else nvml_why,) * 2
        rows.append(dict(op=op, shape=shape, dtype=dtype, median_s="%.6g" % t[0], min_s="%.6g" % t[1],
                         samples=t[2], rate="%.6g" % rate, unit=unit, method=t[3], calls_per_sample=t[4],
                         iqm_s="%.6g" % t[5] if len(t) > 5 else "NA (not a cold row)",
                         kernels=kernels_of(fn) if fn else "NA (%s)" % ("the row without _cold names them" if
                                                                        op.endswith("_cold") else "not profiled"),
                         energy_J=ej[0], power_W=ej[1]))
        print("%-10s %-18s %-5s %10.4g s  %10.4g %-10s %s" % (op, shape, dtype, t[0], rate, unit, t[3]), flush=True)

    n = 2 ** 28
    a = torch.randn(n, device=dev); b = torch.empty_like(a)
    f = lambda: b.copy_(a); t = timed(f); add("copy", "2^28", "f32", t, 8 * n / t[0] / 1e9, "GB/s(R+W)", f)
    del a, b
    # The per-call floor: a one-element kernel, R calls in one CUDA graph; tables.py sets it beside vkbench's noop
    # (one dispatch and the barrier that serialises it) to show how much of a small case's ratio is the API's.
    z = torch.zeros(1, device=dev)
    f = lambda: z.add_(1); t = timed(f); add("null", "1", "f32", t, 1 / t[0], "calls/s", f)
    # mode=cold's peers (ops with _cold): each call after a 512 MiB read (timed_cold); null_cold is that method's floor
    flush = torch.empty(128 << 20, device=dev)
    flush.fill_(1.0)
    t = timed_cold(lambda: z.add_(1), flush); add("null_cold", "1", "f32", t, 1 / t[0], "calls/s")
    for dt, name in ((torch.float32, "f32"), (torch.float16, "f16")):
        for s in ((512, 1024, 2048, 4096, 8192) if not quick else (4096,)):
            A = torch.randn(s, s, device=dev, dtype=dt); B = torch.randn(s, s, device=dev, dtype=dt)
            f = lambda: A @ B; t = timed(f)
            add("matmul", "%dx%dx%d" % (s, s, s), name, t, 2 * s ** 3 / t[0] / 1e12, "TFLOP/s", f,
                joules=s == 4096 or (s == 8192 and name == "f16"))
    for (N, K) in ((3840, 2560), (2560, 2560), (13824, 2560), (2560, 6912), (20480, 3200), (6144, 4096),
                   (4096, 4096), (28672, 4096), (4096, 14336)):
        # Rotating copies of W, >= 512 MiB in all (10x the L2), as vkbench's mode=rotate: a GEMV timed on one
        # copy back to back would read W from the L2 where it fits (6144x4096 fp16 is 50 MB).
        W = torch.randn(N, K, device=dev, dtype=torch.float16)
        Ws = [W] + [W.clone() for _ in range(max(0, -(-(512 << 20) // (2 * N * K)) - 1))]
        x = torch.randn(K, device=dev, dtype=torch.float16)
        nxt = iter(range(1 << 62))
        f = lambda: torch.mv(Ws[next(nxt) % len(Ws)], x); t = timed(f)
        add("gemv_f16", "%dx%d" % (N, K), "f16", t, (2 * N * K + 2 * K + 2 * N) / t[0] / 1e9, "GB/s", f)
        t = timed_cold(lambda: torch.mv(W, x), flush)
        add("gemv_f16_cold", "%dx%d" % (N, K), "f16", t, (2 * N * K + 2 * K + 2 * N) / t[0] / 1e9, "GB/s")
        # dense_f16's batched rows: y = x W^T with m tokens (vkbench's dense_f16 shape=NxK m=M mode=rotate; its y
        # is fp32, torch's fp16)
        for m in (8, 32):
            X = torch.randn(m, K, device=dev, dtype=torch.float16)
            f = lambda: torch.nn.functional.linear(X, Ws[next(nxt) % len(Ws)]); t = timed(f)
            add("linear_f16", "%dx%d m=%d" % (N, K, m), "f16", t, 2 * m * N * K / t[0] / 1e12, "TFLOP/s", f)
            t = timed_cold(lambda: torch.nn.functional.linear(X, W), flush)
            add("linear_f16_cold", "%dx%d m=%d" % (N, K, m), "f16", t, 2 * m * N * K / t[0] / 1e12, "TFLOP/s")
        del W, Ws
    for s in ((256, 1024, 2048, 4096) if not quick else (4096,)):
        M = torch.randn(s, s, device=dev, dtype=torch.float64)
        spd = (M @ M.T / s + torch.eye(s, device=dev, dtype=torch.float64)).float()
        f = lambda: torch.linalg.cholesky(spd)
        t = timed(f, graph=False); add("cholesky", "%d" % s, "f32", t, s ** 3 / 3 / t[0] / 1e9, "GFLOP/s", f)
        A = torch.randn(s, s, device=dev)
        f = lambda: torch.linalg.qr(A)
        t = timed(f, graph=False); add("qr", "%dx%d" % (s, s), "f32", t, (4 / 3) * s ** 3 / t[0] / 1e9, "GFLOP/s", f)
    for (m, k) in ((4096, 256), (8192, 512)):
        A = torch.randn(m, k, device=dev)
        f = lambda: torch.linalg.qr(A)
        t = timed(f, graph=False); add("qr", "%dx%d" % (m, k), "f32", t, (2 * m * k * k - 2 * k ** 3 / 3) / t[0] / 1e9, "GFLOP/s", f)
    for (m, k) in (((64, 64), (256, 256), (512, 512), (1024, 1024), (4096, 256), (2048, 512)) if not quick else ((1024, 1024),)):
        A = torch.randn(m, k, device=dev)
        f = lambda: torch.linalg.svd(A, full_matrices=False)
        t = timed(f, budget=1.0, warm=2, graph=False)
        add("svd", "%dx%d" % (m, k), "f32", t, 0, "-", f)
    with open(out, "w", newline="") as f:
        w = csv.DictWriter(f, fieldnames=list(rows[0].keys()))
        w.writeheader(); w.writerows(rows)
    print("device:", torch.cuda.get_device_name(0), "torch", torch.__version__, "cuda", torch.version.cuda)


if __name__ == "__main__":
    main()
