#!/usr/bin/env python3
"""The acceptance tables of issues 15 and 16 from a GPU run's results.csv files and peers.py's CSV, so that a
closing note quotes what was measured and nothing else: a figure that is not in the data prints as NA (with the
reason), every ratio is computed here from the two medians, every verdict from the issue's stated target.

Usage: python3 tests/gpu/tables.py [--peers PEERS.csv] [--power P16/results.csv] RESULTS.csv...
Input: the rows of `sh tests/gpu/run.sh accept15` / `accept16` and `occupancy` (OUT/res/a15, a16, occ512 and occ513's
results.csv; default variants, so each shape/mode has one row
per kernel; where several rows match, the fastest PASS is used and the table says which). Only PASS rows count:
a FAIL or SKIP prints as its status.
"""
import csv, os, re, sys

SIX = ["13824x2560", "2560x6912", "20480x3200", "6144x4096", "28672x4096", "4096x14336"]


def params(s):
    return dict(kv.split("=", 1) for kv in s.split() if "=" in kv)


def load(paths):
    rows = []
    for p in paths:
        with open(p, newline="") as f:
            for r in csv.DictReader(f):
                r["_p"] = params(r.get("params", ""))
                rows.append(r)
    return rows


def pick(table, kernel, **want):
    """The fastest PASS row of kernel whose params contain want (value None: the key must be absent);
    (row, why-not) where row is None when nothing passed."""
    cand = []
    for r in table:
        if r["kernel"] != kernel:
            continue
        p = r["_p"]
        if all((k not in p) if v is None else p.get(k) == str(v) for k, v in want.items()):
            cand.append(r)
    ok = [r for r in cand if r["status"] == "PASS" and r["time_median_s"] not in ("", "NA")]
    if ok:
        return min(ok, key=lambda r: float(r["time_median_s"])), ""
    if cand:
        return None, cand[0]["status"]
    return None, "not run"


def us(r, why="NA"):
    return "%.2f" % (float(r["time_median_s"]) * 1e6) if r else why


def t(r):
    return float(r["time_median_s"]) if r else None


def frac(r, col="bw_frac_copy"):
    v = r.get(col, "NA") if r else "NA"
    return "NA" if v in ("", "NA") else "%.0f%%" % (100 * float(v))


def ratio(a, b, fmt="%.2f", target=None, most=False):
    """a / b in fmt, or NA. Against a target (>= target, or <= it with most), a ratio that misses it but rounds to it
    gets more digits (up to 4) so that it reads as what its verdict says: 1.998 beside "missed" against 2, not 2.00."""
    if not a or not b:
        return "NA"
    q, s, f = a / b, fmt % (a / b), fmt
    if target is not None and (q > target if most else q < target):
        for d in (3, 4):
            if s != f % target:
                break
            f = "%%.%df" % d
            s = f % q
    return s


def verdict(ok):
    return "NA" if ok is None else ("met" if ok else "**missed**")


def peers_rows(path):
    """peers.py's rows by (op, shape, dtype), and the CSV's columns; ({}, []) without a file."""
    if not path:
        return {}, []
    with open(path, newline="") as f:
        rd = csv.DictReader(f)
        return {(r["op"], r["shape"], r["dtype"]): r for r in rd}, rd.fieldnames or []


def peers_load(path):
    return {k: float(r["median_s"]) for k, r in peers_rows(path)[0].items()}


def peers_kernels(path):
    """peers.py's kernels column by (op, shape, dtype): what one call of the peer ran (peers.py kernels_of). None where the
    CSV has no such column (peers from before it)."""
    rows, cols = peers_rows(path)
    return {k: r["kernels"] for k, r in rows.items()} if "kernels" in cols else None


def shared_cap(paths):
    """The device's maxComputeSharedMemorySize from the run.txt beside a results.csv (harness/run.c): (bytes, "") or
    (None, why)."""
    for p in paths:
        v, _ = run_txt(p, "max_compute_shared_bytes")
        if v and v.split()[0].isdigit():
            return int(v.split()[0]), ""
    return None, "NA (no run.txt with max_compute_shared_bytes beside the results)"


def peer_kernels(rows, pk, cap, why):
    """What the peer ran in the cells the issues compare against, beside the most shared memory a vkbench workgroup may
    hold on the same device: the pipelines cuBLAS stages through shared memory (on an H200, session 40: 128x32 tiles 10
    steps deep for dense m=32, 221508 B a CTA) are on-chip budgets that one Vulkan workgroup here cannot hold."""
    print("### What the peers ran (peers.py's kernels column, from CUPTI: kernel [grid, block, registers, shared memory a "
          "block] x launches a call), against this device's Vulkan cap of %s a workgroup\n"
          % ("%d B (%.0f KiB)" % (cap, cap / 1024) if cap else why))
    if pk is None:
        print("NA (no peers, or a peers.csv without the kernels column)\n")
        return
    print("| peer row | kernels | most shared memory a block | x the Vulkan cap | vkbench's default there (pipeline statistics) |")
    print("|---|---|---:|---:|---|")
    cases = [(("matmul", "%dx%dx%d" % (n, n, n), dt), "matmul", dict(n=n, dtype=dt)) for n, dt in ((512, "f16"), (4096, "f16"),
             (8192, "f16"), (4096, "f32"))]
    cases += [(("linear_f16", "%s m=32" % sh, "f16"), "dense_f16", dict(shape=sh, m=32, mode="rotate", algo=None)) for sh in SIX]
    for key, kernel, want in cases:
        k = pk.get(key)
        sm = [int(v) for v in re.findall(r"(\d+) B shared\]", k or "")]
        most = max(sm) if sm else None
        print("| %s %s %s | %s | %s | %s | %s |" % (key[0], key[1], key[2], k if k is not None else "NA (no peers row)",
              "%d B" % most if most is not None else "NA", "%.1f" % (most / cap) if most is not None and cap else "NA",
              own_stats(rows, kernel, want)))
    print()


def occupancy(rows):
    """How much shared memory the workgroups resident on an SM share (`sh tests/gpu/run.sh occupancy`, session 41,
    tests/gpu/sweep_s41d.txt): the same mma_kp code with its shared array at S and S + 16 bytes, on 128 rows an SM (two
    workgroups an SM where two fit) and on 64 (one). Where S + 16 takes a second wave at two an SM and S does not, and
    neither at one an SM, the SM holds 2 S in all, however many registers are free."""
    want = dict(algo="mma_kp", bind="desc", m=64, xs=1, sk=1, sgs=4, ah=2, gs=1)
    got = {}
    for r in rows:
        p = r["_p"]
        if r["kernel"] != "bitnet_linear" or r["status"] != "PASS" or any(p.get(k) != str(v) for k, v in want.items()):
            continue
        sm, n = re.search(r"Shared_Memory_Size=(\d+)", r.get("pipeline_stats") or ""), p.get("shape", "").split("x")[0]
        if sm and n.isdigit():
            got[(int(n), int(sm.group(1)))] = t(r)
    ns, ss = sorted({n for n, _ in got}), sorted({b for _, b in got})
    if len(got) != 4 or len(ns) != 2 or len(ss) != 2:
        print("Shared memory an SM's workgroups share: NA (`run.sh occupancy`'s four PASS rows, two sizes on two shapes, "
              "not all here: %d)\n" % len(got))
        return
    (one, two), (b, b2) = ns, ss
    r2, r1 = got[(two, b2)] / got[(two, b)], got[(one, b2)] / got[(one, b)]
    step = r2 > 1.4 and r1 < 1.1
    print("Shared memory an SM's workgroups share (`run.sh occupancy`: the same mma_kp code with %d and %d B of shared "
          "memory a workgroup): on %d rows (two workgroups an SM where two fit) %.2f and %.2f us (%.2fx), on %d rows (one an "
          "SM) %.2f and %.2f us (%.2fx). %s\n"
          % (b, b2, two, got[(two, b)] * 1e6, got[(two, b2)] * 1e6, r2, one, got[(one, b)] * 1e6, got[(one, b2)] * 1e6, r1,
             "So two workgroups of %d B fit an SM and two of %d B do not: the workgroups resident on an SM share %d B in all."
             % (b, b2, 2 * b) if step else "No second wave at %d B alone: the SM's share is not shown by these rows." % b2))


def own_stats(rows, kernel, want):
    """The registers and shared memory the driver gave vkbench's default row of a case (its pipeline_stats column:
    VK_KHR_pipeline_executable_properties), shader by shader; the matmul default is the auto row without bind=."""
    r, why = (matmul_default(rows, want), "not run") if kernel == "matmul" else pick(rows, kernel, **want)
    if not r:
        return "NA (%s)" % why
    st = r.get("pipeline_stats", "")
    out = []
    for part in st.split(";"):
        name, _, kv = part.strip().partition(":")
        reg, shm = re.search(r"Register_Count=(\d+)", kv), re.search(r"Shared_Memory_Size=(\d+)", kv)
        if reg or shm:
            out.append("%s: %s regs, %s B shared" % (name.strip(), reg.group(1) if reg else "NA", shm.group(1) if shm else "NA"))
    return "; ".join(out) if out else "NA (%s)" % (st or "no pipeline_stats")


def matmul_default(rows, want):
    """matmul's default row of a case: the fastest PASS auto row (variant auto:CHOICE) whose params contain want, without
    bind= (a named binding is not the default); None if there is none."""
    auto = [r for r in rows if r["kernel"] == "matmul" and r["variant"].startswith("auto") and "bind" not in r["_p"]
            and all(r["_p"].get(k) == str(v) for k, v in want.items()) and r["status"] == "PASS"]
    return min(auto, key=t) if auto else None


def read_floor(rows, sh, mode):
    """readbw's row over a shape's packed ternary weights (2 bits each, K padded to 64): one dispatch's read floor."""
    n, k = (int(v) for v in sh.split("x"))
    return pick(rows, "readbw", n=n * ((k + 63) // 64 * 64) // 16, mode=mode, items=None, unroll=None)


def byte_bound(r, nv):
    """The least time any one dispatch reading row r's bytes can take: the per-call floor (noop, a dispatch and its barrier)
    plus the bytes at the run's read ceiling (read_Bps: readbw over 256 MiB), as if it streamed at that rate from its first
    instruction. (seconds, the share of copy_Bps at it), or (None, why)."""
    try:
        b, rd, cp = float(r["bytes"]), float(r["read_Bps"]), float(r["copy_Bps"])
    except (TypeError, KeyError, ValueError):
        return None, "NA (no bytes, read_Bps or copy_Bps)"
    if not nv:
        return None, "NA (no noop row)"
    bound = t(nv) + b / rd
    return bound, b / cp / bound


def packed_reach(rows, mode):
    """Whether a batch-1 target lies within one dispatch's reach at all, whatever the kernel: readbw over the shape's
    weights packed at 2 bits (accept15's floor) and at 1.6 bits a weight (5 a byte, 1% above log2 3 = 1.585: no packing
    of ternary weights is much smaller), in the same mode. A kernel that reads those bytes takes at least readbw's time
    (session 39, tests/gpu/sweep_s39c.txt), and so reaches at most readbw's % of copy; needed = dense / target x."""
    print("Within one dispatch's reach, mode=%s (readbw over the weights at 2 and at 1.6 bits a weight; a target is out of "
          "reach where the needed time is under the read, or, for the 70%%-of-copy cells, where the read itself stays under "
          "70%% of copy):\n" % mode)
    print("| shape | needed us | readbw 2 bits us (% copy) | readbw 1.6 bits us (% copy) | within reach at 2 bits | at 1.6 bits |")
    print("|---|---:|---:|---:|---|---|")
    for sh in SIX:
        n, k = (int(v) for v in sh.split("x"))
        b16 = -(-(n * k) // 80) * 16  # 5 weights a byte, in whole uvec4: ceil(N K / 80) of 16 bytes
        d, _ = pick(rows, "dense_f16", shape=sh, m=1, mode=mode, algo=None)
        big = sh in ("28672x4096", "4096x14336")
        need = t(d) / (6 if big else 4) if d else None
        cells, reach = [], []
        for r, why in (read_floor(rows, sh, mode), pick(rows, "readbw", n=b16 // 4, mode=mode, items=None, unroll=None)):
            cells.append("%s (%s)" % (us(r), frac(r)) if r else why)
            cf = frac(r) if r else "NA"
            if not r or need is None:
                reach.append("NA")
            elif need < t(r):
                reach.append("no: needed under the read")
            elif big and cf == "NA":
                reach.append("NA (no % of copy)")
            elif big and float(r["bw_frac_copy"]) < 0.70:
                reach.append("no: the read reaches %s of copy" % cf)
            else:
                reach.append("yes")
        print("| %s | %s | %s | %s | %s | %s |" % (sh, "%.2f" % (need * 1e6) if need else "NA", cells[0], cells[1], reach[0], reach[1]))
    print()


def issue15(rows, peers):
    print("## Issue 15\n")
    for mode in ("rotate", "cold"):
        nv, _ = pick(rows, "noop")
        print("### Batch-1 GEMV, mode=%s (BitLinear default vs dense_f16 default; floor = readbw of the same bytes, 4 loads an invocation in flight; "
              "bound = noop + BitLinear's bytes at the read ceiling, the least any one dispatch can take, and the %% of copy and x it would give)\n" % mode)
        print("| shape | BitLinear us | % copy | dense us | x | needed us (dense / target x; the speed part) | readbw floor us | x at the floor | bound us (% copy, x) | target | verdict |")
        print("|---|---:|---:|---:|---:|---:|---:|---:|---:|---|---|")
        for sh in SIX:
            b, wb = pick(rows, "bitnet_linear", shape=sh, m=1, mode=mode, algo=None, rows=None, gpt=None, split=None, lanes=None, wg=None)
            d, wd = pick(rows, "dense_f16", shape=sh, m=1, mode=mode, algo=None)
            fl, wf = read_floor(rows, sh, mode)
            x = t(d) / t(b) if b and d else None
            big = sh in ("28672x4096", "4096x14336")
            cf = float(b["bw_frac_copy"]) if b and b.get("bw_frac_copy") not in (None, "", "NA") else None
            ok = None if x is None else (x >= 6 and cf is not None and cf >= 0.70) if big else x >= 4
            need = "%.2f" % (t(d) * 1e6 / (6 if big else 4)) if d else "NA"
            bd, bc = byte_bound(b, nv) if b else (None, "NA")
            bnd = "%.2f (%.0f%%, %s)" % (bd * 1e6, 100 * bc, ratio(t(d), bd)) if bd else bc
            print("| %s | %s | %s | %s | %s | %s | %s | %s | %s | %s | %s |" % (sh, us(b, wb), frac(b), us(d, wd), ratio(t(d), t(b), target=6 if big else 4),
                  need, us(fl, wf), ratio(t(d), t(fl)), bnd, ">= 6x, >= 70% copy" if big else ">= 4x", verdict(ok)))
        print()
        packed_reach(rows, mode)
    for mode in ("rotate", "cold"):
        cold = mode == "cold" and any(k[0] == "linear_f16_cold" for k in peers)
        print("### Batch 8 and 32, mode=%s (defaults; cuBLAS = peers.py %s; needed = dense / target x, "
              "beside the readbw floor of BitLinear's weight bytes: a needed time under it is out of one dispatch's reach)\n"
              % (mode, "linear_f16_cold, each call after a 512 MiB read (CUDA graphs with and without the calls)" if cold
                 else "linear_f16, CUDA graph, rotating W"))
        print("| shape | m | BitLinear us | dense us | cuBLAS us | dense / cuBLAS (<= 1.25) | BitLinear x (>= 3 at 8, >= 2 at 32) | needed us | readbw floor us |")
        print("|---|---:|---:|---:|---:|---:|---:|---:|---:|")
        for sh in SIX:
            fl, wf = read_floor(rows, sh, mode)
            for m in (8, 32):
                tx = 3 if m == 8 else 2  # the BitLinear target: x dense_f16's time
                b, wb = pick(rows, "bitnet_linear", shape=sh, m=m, mode=mode, algo=None, rows=None, mt=None)
                d, wd = pick(rows, "dense_f16", shape=sh, m=m, mode=mode, algo=None)
                cb = peers.get(("linear_f16_cold" if cold else "linear_f16", "%s m=%d" % (sh, m), "f16"))
                dr = t(d) / cb if d and cb else None
                x = t(d) / t(b) if b and d else None
                need = t(d) / tx if d else None
                under = need is not None and fl is not None and need < t(fl)
                print("| %s | %d | %s | %s | %s | %s %s | %s %s | %s%s | %s |" % (sh, m, us(b, wb), us(d, wd), "%.2f" % (cb * 1e6) if cb else "NA (no peers)",
                      ratio(t(d), cb, target=1.25, most=True), "" if dr is None else verdict(dr <= 1.25), ratio(t(d), t(b), target=tx),
                      "" if x is None else verdict(x >= tx), "NA" if need is None else "%.2f" % (need * 1e6),
                      " (under the floor)" if under else "", us(fl, wf)))
        print()
    print("### The layer (bitnet_layer: default = one fused dispatch; fuse=0 = two) vs its parts, m=1\n")
    print("| shape | mode | layer | layer us | aquant rmsnorm us | linear us | layer / parts (<= 1.15) | dense fp16 us |")
    print("|---|---|---|---:|---:|---:|---:|---:|")
    for sh, mode, fuse in ((s, m, f) for s in ("13824x2560", "2560x6912") for m in ("rotate", "cold") for f in (None, 0)):
        k = sh.split("x")[1]
        l, wl = pick(rows, "bitnet_layer", shape=sh, m=1, mode=mode, rows=None, gpt=None, split=None, wg=None, pre=None, fuse=fuse)
        a, wa = pick(rows, "bitnet_aquant", k=k, m=1, mode=mode, variant="rmsnorm")
        b, wb = pick(rows, "bitnet_linear", shape=sh, m=1, mode=mode, algo=None, rows=None, gpt=None, split=None, lanes=None, wg=None)
        d, wd = pick(rows, "dense_f16", shape=sh, m=1, mode=mode, algo=None)
        parts = t(a) + t(b) if a and b else None
        q = t(l) / parts if l and parts else None
        print("| %s | %s | %s | %s | %s | %s | %s %s | %s |" % (sh, mode, "default" if fuse is None else "fuse=0", us(l, wl), us(a, wa), us(b, wb),
              "NA" if q is None else "%.3f" % q, "" if q is None else verdict(q <= 1.15), us(d, wd)))
    print()


def issue16(rows, peers):
    print("## Issue 16\n")
    print("| case | vkbench (default) | fastest row of the case | peer | default / peer | target | verdict |")
    print("|---|---:|---:|---:|---:|---|---|")

    def line(name, kernel, want, peer, target, better_is_rate=False, rate=None):
        d, wd = pick(rows, kernel, **dict(want, variant=None) if kernel == "matmul" else want)
        if kernel == "matmul":  # the auto row: variant column reads auto:CHOICE; bind= named is not the default
            d = matmul_default(rows, want) or d
        allv = [r for r in rows if r["kernel"] == kernel and r["status"] == "PASS"
                and all(r["_p"].get(k) == str(v) for k, v in want.items())]
        best = min(allv, key=t) if allv else None
        p = peers.get(peer)
        val = lambda r: "NA" if not r else ("%.1f us" % (t(r) * 1e6) if t(r) < 1e-3 else "%.2f ms" % (t(r) * 1e3)) + (
            " = %.0f TFLOP/s" % (rate / t(r) / 1e12) if rate else "")
        q = t(d) / p if d and p else None
        # a rate target (tf) needs no peer; a ratio target does
        ok = None if d is None or (q is None and getattr(target, "needs_peer", True)) else target(d, q)
        print("| %s | %s%s | %s%s | %s | %s | %s | %s |" % (name, val(d), " (%s)" % d["variant"] if d else " (%s)" % wd,
              val(best), " (%s)" % best["variant"] if best else "", ("%.1f us" % (p * 1e6) if p < 1e-3 else "%.2f ms" % (p * 1e3)) if p else "NA (no peers)",
              "NA" if q is None else "%.2f" % q, target.__doc__, verdict(ok)))

    def le(x):
        f = lambda r, q: q <= x
        f.__doc__ = "<= %gx peer" % x
        return f

    def tf(x):
        f = lambda r, q: 2 * float(r["_p"]["n"]) ** 3 / t(r) / 1e12 >= x
        f.__doc__ = ">= %d TFLOP/s" % x
        f.needs_peer = False
        return f

    def ge(x):
        f = lambda r, q: 1 / q >= x
        f.__doc__ = ">= %gx peer speed" % x
        return f

    line("fp16 matmul 512", "matmul", dict(n=512, dtype="f16"), ("matmul", "512x512x512", "f16"), le(1.2), rate=2 * 512 ** 3)
    # The issue's fp16 target: >= 300 TFLOP/s on an H200, or >= 250 on an H100 (the rows' device column says which).
    h100 = any("H100" in r.get("device", "") for r in rows)
    for n in (4096, 8192):
        line("fp16 matmul %d" % n, "matmul", dict(n=n, dtype="f16"), ("matmul", "%dx%dx%d" % (n, n, n), "f16"), tf(250 if h100 else 300),
             rate=2 * n ** 3)
    line("fp32 matmul 4096", "matmul", dict(n=4096, dtype="f32"), ("matmul", "4096x4096x4096", "f32"), ge(0.85), rate=2 * 4096 ** 3)
    for n in (1024, 4096):
        line("Cholesky %d" % n, "cholesky", dict(n=n), ("cholesky", "%d" % n, "f32"), le(3))
    for n in (1024, 4096):
        line("QR %d (Q formed)" % n, "qr", dict(n=n), ("qr", "%dx%d" % (n, n), "f32"), le(3))
    line("SVD 1024", "svd", dict(n=1024), ("svd", "1024x1024", "f32"), le(2))
    print()
    floors(rows, peers)
    l2_floor(rows, peers.get(("matmul", "512x512x512", "f16")))


def floors(rows, peers):
    """What the per-call floors of the two APIs leave of the 512 target: vkbench's noop (one dispatch and its barrier)
    against peers.py's null (a one-element kernel in a CUDA graph), both measured on the run's machine."""
    nv, why = pick(rows, "noop")
    cn, mm = peers.get(("null", "1", "f32")), peers.get(("matmul", "512x512x512", "f16"))
    if not nv or not cn or not mm or mm <= cn:
        print("Per-call floors: NA (%s)\n" % ("no noop row: " + why if not nv else "no null or 512 row in the peers, or the 512 "
                                               "row at or below the null kernel's"))
        return
    inside = mm - cn  # cuBLAS's 512 kernel above its floor
    print("Per-call floors: vkbench noop %.2f us (a dispatch and its barrier), CUDA graph null kernel %.2f us. cuBLAS's fp16 "
          "512 is %.2f us, %.2f above its floor; the same kernel time on vkbench's floor would read %.2f us = %.2fx. "
          "The 1.2x target leaves %.2f us above the noop, %.0f%% of cuBLAS's time above its own floor.\n"
          % (t(nv) * 1e6, cn * 1e6, mm * 1e6, inside * 1e6, (t(nv) + inside) * 1e6, (t(nv) + inside) / mm,
             (1.2 * mm - t(nv)) * 1e6, 100 * (1.2 * mm - t(nv)) / inside))


def l2_floor(rows, mm):
    """512's L2 floor (session 39, tests/gpu/sweep_s39a.txt): an SM whose share of C is an r x s block reads (r + s) K
    fp16 of A and B from L2, so P SMs with M N / P outputs each read at least 4 K sqrt(M N P) bytes; with P >= 128 (every
    SM of an H100 or H200 busy, K not split) that is 11.86 MB at 512, and 32x64 tiles read 12.58 MB (12 MiB). readbw over
    those 12 MiB, hot (all in L2), measures what a dispatch that only reads them takes. Splitting K reads less but adds
    a fold: 64x64 tiles split 2 took 9.15 us in sweep_s39a."""
    M = N = K = 512
    tiles_b = 2 * M * N * K * (1 / 32 + 1 / 64)  # what 32x64 tiles read
    least_b = 4 * K * (M * N * 128) ** 0.5
    r, why = pick(rows, "readbw", n=int(tiles_b) // 4, mode="hot", items=None, unroll=None)
    if not r:
        print("L2 floor at 512: NA (readbw n=%d mode=hot: %s)\n" % (int(tiles_b) // 4, why))
        return
    tgt = ("The 1.2x target, %.2f us, is %.2f us %s that read." % (1.2 * mm * 1e6, abs(t(r) - 1.2 * mm) * 1e6,
                                                                   "under" if 1.2 * mm < t(r) else "above")
           if mm else "No cuBLAS 512 row: no target.")
    print("L2 floor at 512: a dispatch that only reads %.2f MB from L2 (readbw, hot) takes %.2f us. An fp16 512 GEMM spread "
          "over 128 or more SMs, K not split, reads at least %.2f MB of A and B from L2 (32x64 tiles: "
          "%.2f). %s\n" % (tiles_b / 1e6, t(r) * 1e6, least_b / 1e6, tiles_b / 1e6, tgt))


def run_txt(path, key):
    """A value from the run.txt beside a results.csv (harness/run.c's record of the run): (text, "") or (None, why)."""
    try:
        with open(os.path.join(os.path.dirname(path) or ".", "run.txt")) as f:
            for line in f:
                if line.startswith(key + ":"):
                    return line.split(":", 1)[1].strip(), ""
    except OSError:
        pass
    return None, "no run.txt with %s beside %s" % (key, path)


def power(path, pp):
    """Issue 16 under the board's power limit (session 43, tests/gpu/sweep_s43b.txt): the fp16 GEMMs of `run.sh power16`
    (telemetry on) at 4096 and 8192, each row's energy a call (NVML's counter over >= 1 s of calls), mean power and
    clock-event reasons, and the power that a call of that energy draws at the issue's 300 TFLOP/s: E x 300e12 / (2 n^3)
    (a faster call only saves its static share, P_static x the time saved). Where that is over the board's limit
    (run.txt's nvml_power_limit_W), the tiling cannot reach 300 TFLOP/s at the energy it spends; cuBLAS's energy a call
    (peers.py energy_J) beside it. "Busy" = mean power x time / energy a call: the share of the energy window the calls
    filled at their timed speed (under ~0.95, idle gaps or slower calls in the window add to the energy a call)."""
    print("### Power: energy a call against the board's limit (`run.sh power16`, telemetry on)\n")
    if not path:
        print("NA (no --power results: `sh tests/gpu/run.sh power16`)\n")
        return
    lim, why = run_txt(path, "nvml_power_limit_W")
    pe = peers_rows(pp)[0]
    num = lambda v: v not in (None, "", "NA") and not v.startswith("NA")
    print("Board power limit: %s\n" % ("%s W (NVML)" % lim if lim else "NA (%s)" % why))
    print("| n | row | time | TFLOP/s | J a call | mean W | busy | clock reasons | W a call draws at 300 TFLOP/s | cuBLAS J a call (mean W, busy) |")
    print("|---:|---|---:|---:|---:|---:|---:|---|---:|---|")
    rows = load([path])
    for n in (4096, 8192):
        mine = [r for r in rows if r["kernel"] == "matmul" and r["_p"].get("n") == str(n) and r["_p"].get("dtype") == "f16"
                and r["status"] == "PASS" and num(r.get("energy_per_call_J"))]
        mine.sort(key=lambda r: (not r["variant"].startswith("auto"), t(r)))
        c = pe.get(("matmul", "%dx%dx%d" % (n, n, n), "f16"), {})
        cub = "%.3g J (%.0f W, busy %.2f)" % (float(c["energy_J"]), float(c["power_W"]), float(c["power_W"]) *
                                               float(c["median_s"]) / float(c["energy_J"])) if num(c.get("energy_J")) else \
            (c.get("energy_J") or "NA (no peers row with energy_J)")
        if not mine:
            print("| %d | NA (no PASS row with energy_per_call_J) | | | | | | | | %s |" % (n, cub))
        for r in mine:
            e, fl = float(r["energy_per_call_J"]), 2 * n ** 3
            w300 = e * 300e12 / fl
            over = " (%.2fx the limit)" % (w300 / float(lim)) if lim else ""
            pm = float(r["power_mean_W"]) if num(r.get("power_mean_W")) else None
            print("| %d | %s | %.1f us | %.0f | %.3g | %s | %s | %s | %.0f W%s | %s |" % (
                n, r["variant"], t(r) * 1e6, fl / t(r) / 1e12, e, "%.0f" % pm if pm else "NA",
                "%.2f" % (pm * t(r) / e) if pm else "NA", r.get("clock_reasons") or "NA", w300, over, cub))
    print()


def clocks(rows):
    """One line on the clock check of the timed rows (harness/timing.c): how many ran at their working clock, were
    re-timed after a low first pass, or stayed low (the gate does not judge those)."""
    timed = [r for r in rows if r.get("status") in ("PASS", "TIMED")]
    cc = [r.get("clock_check", "") for r in timed]
    if not any(cc):
        print("Clock check: NA (no clock_check column: runs from before the shader-clock probe)")
        return
    ok = sum(c.startswith("ok:") for c in cc)
    low = sum(c.startswith("low:") for c in cc)
    again = sum("re-timed" in c for c in cc)
    print("Clock check: %d of %d timed rows at their working clock, %d re-timed after a low first pass, %d still low%s"
          % (ok, len(cc), again, low, " (not judged: %d rows NA)" % (len(cc) - ok - low) if len(cc) - ok - low else ""))


def main():
    a = sys.argv[1:]
    peers, pp, pw = {}, None, None
    if "--peers" in a:
        i = a.index("--peers"); pp = a[i + 1]; peers = peers_load(pp); del a[i:i + 2]
    if "--power" in a:  # run.sh power16's results.csv: kept apart, so that its rows never stand in the tables above
        i = a.index("--power"); pw = a[i + 1]; del a[i:i + 2]
    if not a:
        sys.exit("usage: tables.py [--peers PEERS.csv] [--power P16/results.csv] RESULTS.csv...")
    rows = load(a)
    issue15(rows, peers)
    issue16(rows, peers)
    power(pw, pp)
    peer_kernels(rows, peers_kernels(pp), *shared_cap(a))
    occupancy(rows)
    clocks(rows)


if __name__ == "__main__":
    main()
