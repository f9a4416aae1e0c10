#!/bin/sh
# Run-to-run determinism of a kernel's outputs across processes (session 19: BitLinear mma_kp rows' max_abs_err
# differed between default-suite runs on an H200 while every within-run recheck read identical). Runs the cases
# of E (a -e line) R times, each in a fresh process with VKB_DUMP, and compares each buffer's dumps with the
# first run's: inputs must be byte-identical; for f32 outputs, the count of differing elements and the largest
# difference in ULPs. Usage: OUT=dir sh tests/gpu/determinism.sh 'LINE' [R]
V=${VKB:-build/gpu/vkbench}; OUT=${OUT:-/tmp/vkbench-det}; E=$1; R=${2:-3}
i=0; while [ $i -lt "$R" ]; do i=$((i + 1)); mkdir -p "$OUT/d$i"
    VKB_DUMP="$OUT/d$i" "$V" run --no-telemetry --no-cpu-baseline --no-calibrate --seed 7 --min-time 0.01 --timeout 0.2 \
        --dir "$OUT/r$i" -e "$E" > "$OUT/r$i.log" 2>&1
    "$V" csv "$OUT/r$i/results.csv" case_id params status max_abs_err nmse note | cut -c1-160; done
python3 - "$OUT" "$R" <<'PY'
import sys, os, struct
out, R = sys.argv[1], int(sys.argv[2])
def ordered(b):
    return b if b < 0x80000000 else -(b & 0x7fffffff)
for f in sorted(os.listdir(f"{out}/d1")):
    a = open(f"{out}/d1/{f}", "rb").read()
    for i in range(2, R + 1):
        b = open(f"{out}/d{i}/{f}", "rb").read()
        if a == b: print(f"{f} run {i}: identical"); continue
        if not f.endswith("_y.bin") or len(a) != len(b): print(f"{f} run {i}: DIFFERS ({len(a)} / {len(b)} bytes)"); continue
        n = len(a) // 4; x = struct.unpack(f"{n}I", a); y = struct.unpack(f"{n}I", b)
        d = [(k, abs(ordered(p) - ordered(q))) for k, (p, q) in enumerate(zip(x, y)) if p != q]
        print(f"{f} run {i}: {len(d)} of {n} elements differ, max {max(e for _, e in d)} ulp, first {d[:4]}")
PY
