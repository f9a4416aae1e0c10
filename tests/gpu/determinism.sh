#!/bin/sh
# Run-to-run determinism of a kernel's outputs across processes (session 19: BitLinear mma_kp rows' max_abs_err
# differed between default-suite runs on an H200 while every within-run recheck read identical). Runs the cases
# of E (a -e line) R times, each in a fresh process with VKB_DUMP, and compares each buffer's dumps with the
# first run's, byte for byte: for a buffer that differs, the count of differing words and (read as fp32) the
# largest difference in ULPs. Usage: OUT=dir sh tests/gpu/determinism.sh 'LINE' [R]
V=${VKB:-build/gpu/vkbench}; OUT=${OUT:-/tmp/vkbench-det}; E=$1; R=${2:-3}
i=0; while [ $i -lt "$R" ]; do i=$((i + 1)); rm -rf "$OUT/d$i" "$OUT/r$i"; mkdir -p "$OUT/d$i"
    VKB_DUMP="$OUT/d$i" "$V" run --no-telemetry --no-cpu-baseline --no-calibrate --seed 7 --min-time 0.01 --timeout 0.2 \
        --dir "$OUT/r$i" -e "$E" > "$OUT/r$i.log" 2>&1 || { echo "run $i: vkbench exit $? ($OUT/r$i.log)"; tail -n 3 "$OUT/r$i.log"; }
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
        if len(a) != len(b): print(f"{f} run {i}: DIFFERS in size ({len(a)} / {len(b)} bytes)"); continue
        w = 4 if len(a) % 4 == 0 else 2 if len(a) % 2 == 0 else 1   # 32-bit words where the size allows
        d = [k for k in range(0, len(a), w) if a[k:k + w] != b[k:k + w]]
        msg = f"{f} run {i}: {len(d)} of {len(a) // w} {8 * w}-bit words differ, first at byte offsets {d[:4]}"
        if w == 4:   # as fp32, the largest distance in ULPs (meaningful for f32 buffers)
            x = struct.unpack(f"{len(a) // 4}I", a); y = struct.unpack(f"{len(b) // 4}I", b)
            msg += f", max {max(abs(ordered(x[k // 4]) - ordered(y[k // 4])) for k in d)} fp32 ulp"
        print(msg)
PY
