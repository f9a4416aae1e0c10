#!/bin/sh
# The GPU batch behind the closing notes' figures (run on an NVIDIA H100/H200 with NVIDIA's Vulkan
# driver, from the repo root, with build/gpu/vkbench built here and OUT set to a results folder).
# Each block fits one 10-minute device command; run them back to back.
#   sh tests/gpu/run.sh calibrate|clock|bitnet|decomp|default|validate PART|suitewall VKB...|bench|gatelaunch|gatespread|sweep NAME|bitnet15|concurrency|overhead|matmul|gate|peers|issue12|accept15|accept16|occupancy|power16|ablate SET
set -u
V=${VKB:-build/gpu/vkbench}; OUT=${OUT:-/tmp/vkbench-gpu}; R=$OUT/res
mkdir -p "$R"
SH=13824x2560,2560x6912,20480x3200,6144x4096,28672x4096,4096x14336   # issue 3: shapes with N*K >= 2560*6912
case ${1:-} in
calibrate) "$V" calibrate --out "$R" ;;   # ceilings; compare ceiling_copy_Bps with peers.py's CUDA copy
bitnet) "$V" run --no-telemetry --dir "$R/bitnet" --seed 3 --min-time 0.05 --timeout 2 \
    -e "bitnet_linear shape=$SH m=1 variant=dot,int mode=rotate,cold" -e "dense_f16 shape=$SH m=1 mode=rotate,cold" \
    -e "bitnet_wquant shape=28672x4096,4096x14336,16384x16384 variant=packed,packed_given mode=cold" \
    -e "bitnet_aquant shape=4096x4096,16384x4096 variant=plain,rmsnorm mode=cold" ;;
decomp) "$V" run --no-telemetry --dir "$R/decomp" --seed 3 -e "set min_time=0.2 timeout=8 min_samples=3 max_noise=0.05" \
    -e "cholesky n=256,1024,4096 cond=1e3" -e "cholesky n=1000 spd=0" -e "qr n=256,1024,4096" -e "qr m=4096 n=256" \
    -e "svd n=256,1024" ;;
default) "$V" run suites/default.suite --dir "$R/default" --seed 7 --min-time 0.2 --timeout 3 ;;
validate)   # session 18: the checks made stricter (bitwise copy/transpose/relu/add, per-type poison, specials that
            # now reach div and copy, gelu's finite bound) against a real driver: PART spec (the IEEE specials and
            # subnormals through every elementwise kernel in f32 and f16, ~1 min), smoke (~7 min on an H200) or
            # default (the default suite); one part per 10-minute command; non-PASS rows listed
    shift; part=${1:-spec}; E="--no-telemetry --min-time 0.02 --timeout 1 --seed 11"
    case $part in
    spec) "$V" run --dir "$R/spec" $E -e "add n=4097,2^20 dtype=f32,f16 fill=normal,large,special,subnormal" \
        -e "sub n=4097,2^20 dtype=f32,f16 fill=special,subnormal" -e "mul n=4097,2^20 dtype=f32,f16 fill=special,subnormal" \
        -e "div n=4097,2^20 dtype=f32,f16 fill=normal,special" -e "relu n=4097,2^20 dtype=f32,f16 fill=uniform,large,special,subnormal" \
        -e "gelu n=4097,2^20 dtype=f32,f16 fill=uniform,large,special,subnormal" \
        -e "silu n=4097,2^20 dtype=f32,f16 fill=uniform,large,special,subnormal" \
        -e "sigmoid n=4097,2^20 dtype=f32,f16 fill=uniform,large,special,subnormal" -e "copy n=4097,2^20 fill=normal,special" \
        -e "transpose rows=64,1000 cols=96,1024 dtype=f32,f16 fill=special" -e "rmsnorm rows=7,64 cols=1024,4096" > "$R/spec.log" 2>&1 ;;
    smoke) "$V" run suites/smoke.suite --dir "$R/smoke" --seed 1 --min-time 0.01 --timeout 0.5 --no-telemetry --no-cpu-baseline > "$R/smoke.log" 2>&1 ;;
    default) s=$(date +%s); "$V" run suites/default.suite --dir "$R/default" --seed 7 --min-time 0.05 --no-telemetry > "$R/default.log" 2>&1
        echo "default suite: $(( $(date +%s) - s )) s wall" ;;
    *) echo "validate: PART spec, smoke or default" >&2; exit 2 ;;
    esac
    echo "== $part: $("$V" csv "$R/$part/results.csv" status | sort | uniq -c | tr -s ' \n' ' ')"
    "$V" csv "$R/$part/results.csv" kernel params status reason | grep -v "$(printf '\t')\(PASS\|SKIP\)$(printf '\t')" | cut -c1-300 | head -n 20 ;;
suitewall)   # the harness's own cost: the default suite's wall time and where the main thread spent it (VKB_TRACE phases
             # over 1 s, run.txt's sums), for each vkbench binary given, back to back on one machine; then the rows whose
             # verdict, n_checked or max_abs_err differ between the first two. Session 19: build/gpu_old/vkbench (HEAD
             # before the parallel comparators, built from a worktree) against build/gpu/vkbench
    # Session 20: an argument NAME=VALUE:BINARY runs BINARY with NAME=VALUE in its environment (VKB_PRECOMPILE=0:...),
    # and COLD=1 gives every run an empty NVIDIA shader disk cache of its own (the first run on a fresh machine).
    shift; [ $# -gt 0 ] || set -- "$V"; i=0
    for a in "$@"; do i=$((i + 1)); s=$(date +%s%N); b=${a#*:}; e=; [ "$b" = "$a" ] || e=${a%%:*}
        mkdir -p "$R/sc$i"; [ "${COLD:-0}" = 1 ] && e="$e __GL_SHADER_DISK_CACHE_PATH=$R/sc$i"
        env $e VKB_TRACE=1 "$b" run suites/default.suite --dir "$R/sw$i" --seed 7 --min-time 0.05 --no-telemetry > "$R/sw$i.log" 2> "$R/sw$i.trace"
        t=$(date +%s%N); echo "== $a wall_ms $(( (t - s) / 1000000 )) $(tail -n 1 "$R/sw$i.log")"; grep '^precompile' "$R/sw$i/run.txt"
        awk '$1 == "trace" { s[$3] += $5 } END { for (k in s) if (s[k] > 1) printf "  %-14s %7.2f\n", k, s[k] }' "$R/sw$i.trace" | sort -k2 -g -r
        grep -E '^sum_(check|timing|cpu_fast|cpu_wait|ref_wait)_s|^overhead_(median|p90)' "$R/sw$i/run.txt"; done
    [ $i -ge 2 ] && "$V" csv "$R/sw1/results.csv" kernel params status check_s n_checked max_abs_err > "$R/a.tsv" &&
        "$V" csv "$R/sw2/results.csv" status check_s n_checked max_abs_err > "$R/b.tsv" && paste "$R/a.tsv" "$R/b.tsv" |
        awk -F'\t' '$3 != $7 || $5 != $9 || $6 != $10 { d++; print "DIFF", $0 } { o += $4; n += $8 }
            END { printf "rows differing in status/n_checked/max_abs: %d; sum check_s %.2f / %.2f\n", d, o, n }' | tail -n 12
    # Session 21: how far the first two runs' medians lie apart, and their timeouts, speed-ups, re-timed rows
    [ $i -ge 2 ] && LD_LIBRARY_PATH= python3 tests/gpu/spread.py "$R/sw1" "$R/sw2" ;;
bench)   # issue 11: the whole default suite as `make bench` runs it (telemetry on), wall time; the report is
         # rendered on the dev host (no gnuplot here): vkbench report --no-plots here, plots there
    s=$(date +%s%N); "$V" run suites/default.suite --dir "$R/bench" --seed 7 > "$R/bench.log" 2>&1; echo "rc=$?" >> "$R/bench.log"
    "$V" report --no-plots "$R/bench" >> "$R/bench.log" 2>&1; e=$(date +%s%N)
    echo "bench_wall_ms $(( (e - s) / 1000000 ))" | tee -a "$R/bench.log"; tail -n 3 "$R/bench.log"; sed -n '/^finished/,$p' "$R/bench/run.txt" ;;
gatelaunch)   # issue 13: the wall time of one gate launch, first (checked) and second (--established)
    for i in 1 2; do s=$(date +%s%N); "$V" run suites/gate.suite --dir "$R/gl$i" --seed 1 --no-calibrate --no-telemetry \
        --no-cpu-baseline $( [ $i = 2 ] && echo --established "$R/gl1" ) > "$R/gl$i.log" 2>&1; e=$(date +%s%N)
        echo "gate launch $i: $(( (e - s) / 1000000 )) ms"; tail -n 8 "$R/gl$i.log"; done ;;
gatespread)   # issue 13: launch-to-launch spread of the gate's >= 50 us cases, hot vs rotate: 12 established
              # launches each, interleaved; the sd of the log launch medians per case and mode
    G="--no-calibrate --no-telemetry --no-cpu-baseline --seed 1"
    for m in hot rotate; do
        printf 'set min_time=0.05 timeout=0.5 min_samples=20 max_noise=0.005 mode=%s\nadd n=2^25\nrelu n=2^25\nmatmul n=2048 variant=coopmat_f256 dtype=f16\n' $m > "$R/$m.suite"
        "$V" run "$R/$m.suite" --dir "$R/$m.check" $G --min-time 0 --min-samples 1 --timeout 0.01 > "$R/$m.check.log" 2>&1
    done
    for i in 1 2 3 4 5 6 7 8 9 10 11 12; do for m in hot rotate; do
        "$V" run "$R/$m.suite" --dir "$R/$m$i" $G --established "$R/$m.check" > /dev/null 2>&1; done; done
    for m in hot rotate; do for k in add relu matmul; do
        echo "$m $k $(for i in 1 2 3 4 5 6 7 8 9 10 11 12; do "$V" csv "$R/$m$i/results.csv" kernel time_median_s |
            awk -F'\t' -v k=$k '$1 == k { printf "%.2f ", $2 * 1e6 }'; done)"; done; done | tee "$R/spread.txt"
    awk '{ n = 0; s = 0; ss = 0; for (i = 3; i <= NF; i++) { x = log($i); s += x; ss += x * x; n++ }
           m = s / n; printf "%s %s sd_log %.4f%%\n", $1, $2, 100 * sqrt((ss - n * m * m) / (n - 1)) }' "$R/spread.txt" ;;
ablate)  # session 14: where a kernel's time goes, SET mma_sg (BitLinear m=8), wgs (fp16 matmul at 512), dense_g (dense_f16's
         # K-parts coopmat_g at m=8, session 15), mma_kp (BitLinear's K-parts kernel at m=8 and 32, session 16; mma_kp_xs
         # its shared x stage's m=32 defaults, session 34), gemv_sg (BitLinear's m=1 default, session 25), dense_wgs
         # (dense_f16's m=32 default before session 26's grid rules) or
         # dense_g16 (dense_g's cuts on coopmat_g's m=16 default, session 26), dense_g16f and dense_g32 (lay=frag at m=16 and
         # at m=32 mt=2, with x's or W's loads gone or x from shared memory, session 27; dense_g16x and dense_g32x the same
         # cuts on lay=fragx's m=16 and m=32 defaults, session 30), hmma (BitLinear on fp16 units at
         # m=8, session 28), wgs_l and wgs_xl (the fp16 GEMM's auto kernels at 4096 and 8192, session 29), wgs_m, wgs_m3
         # and wgs_xlf (session 43: coopmat_wgs_m's cuts, and _m and _xl unpadded or with 16-deep MulAdds):
         # a PASS run of the cases, then each ablated copy (tests/gpu/ablate.py) timed with --established on it (status
         # TIMED)
    shift; set=${1:-mma_sg}; spv=$(dirname "$V")/spv
    case $set in mma_sg) E="bitnet_linear shape=13824x2560,28672x4096,4096x14336 m=8 mode=rotate" ;;
        wgs) E="matmul m=512 n=512 k=64,512 dtype=f16 variant=coopmat_wgs_s" ;;
        dense_g) E="dense_f16 shape=13824x2560,2560x6912,6144x4096,4096x14336 m=8 mode=rotate lay=panel" ;;
        mma_kp) E="bitnet_linear shape=13824x2560,28672x4096,4096x14336 m=8,32 mode=rotate algo=mma_kp wn=2 sk=4" ;;
        mma_kp_xs) E="bitnet_linear shape=13824x2560,20480x3200,28672x4096 m=32 mode=rotate" ;;  # session 34: the xs defaults
        gemv_sg) E="bitnet_linear shape=$SH m=1 mode=rotate" ;;
        dense_wgs) E="dense_f16 shape=$SH m=32 mode=rotate algo=wgs bufs=2 ahead=8" ;;
        dense_g16) E="dense_f16 shape=$SH m=16 mode=rotate lay=panel" ;;  # dense_g, dense_g16: the layout their figures had
        dense_g16f) E="dense_f16 shape=$SH m=16 mode=rotate algo=coopmat_g lay=frag" ;;
        dense_g32) E="dense_f16 shape=$SH m=32 mode=rotate algo=coopmat_g lay=frag mt=2 wn=2 sk=4 sgs=4" ;;
        dense_g16x) E="dense_f16 shape=$SH m=16 mode=rotate algo=coopmat_g" ;;   # lay=fragx, session 30
        dense_g32x) E="dense_f16 shape=$SH m=32 mode=rotate algo=coopmat_g" ;;
        dense_g32w4) E="dense_f16 shape=28672x4096 m=32 mode=rotate algo=coopmat_g" ;;  # session 33: its wn=4 default
        hmma) E="bitnet_linear shape=$SH m=8 mode=rotate algo=hmma dec=1 wn=4 sk=4" ;;
        wgs_l) E="matmul n=4096,8192 dtype=f16 variant=coopmat_wgs_l" ;;
        wgs_xl) E="matmul n=4096,8192 dtype=f16 variant=coopmat_wgs_xl" ;;
        wgs_m) E="matmul n=4096,8192 dtype=f16 variant=coopmat_wgs_m" ;;  # session 43: auto's kernel at 4096
        wgs_m3) E="matmul n=4096,8192 dtype=f16 variant=coopmat_wgs_m ahead=3" ;;
        wgs_xlf) E="matmul n=8192 dtype=f16 variant=coopmat_wgs_xl" ;;
        *) echo "ablate: SET mma_sg, wgs, wgs_l, wgs_xl, wgs_m, wgs_m3, wgs_xlf, dense_g, dense_g16, dense_g16f, dense_g32, dense_g16x, dense_g32x, dense_g32w4, mma_kp, mma_kp_xs, gemv_sg, dense_wgs or hmma" >&2; exit 2 ;; esac
    set -- $(python3 tests/gpu/ablate.py "$set" "$spv" $(command -v glslangValidator > /dev/null || echo --list)) || exit 1
    stub=$1; shift; for v in "$@"; do [ -f "$spv/$v.spv" ] || { echo "ablate: no $spv/$v.spv (tests/gpu/ablate.py $set $spv)" >&2; exit 1; }; done
    # wgs_m with telemetry (session 43): what each part of the GEMM draws, against the board's power limit
    tel=--no-telemetry; cols="params status time_median_s"
    [ "$set" = wgs_m ] && tel= && cols="$cols energy_per_call_J power_mean_W clock_reasons"
    "$V" run $tel --no-cpu-baseline --no-calibrate --seed 3 --min-time 0.05 --timeout 1 --dir "$R/abl_$set" -e "$E" > "$R/abl_$set.log" 2>&1
    echo "== $set"; "$V" csv "$R/abl_$set/results.csv" $cols
    for v in "$@"; do "$V" run $tel --no-cpu-baseline --no-calibrate --seed 3 --min-time 0.05 --timeout 1 \
        --dir "$R/abl_${set}_$v" --shader "$stub=$v" --established "$R/abl_$set" -e "$E" > "$R/abl_${set}_$v.log" 2>&1
        echo "== $v"; "$V" csv "$R/abl_${set}_$v/results.csv" $cols; done ;;
sweep)   # the sweep line of each tests/gpu/sweep_NAME.txt into $R/sw_NAME, as a TSV (sh tests/gpu/run.sh sweep NAME...;
         # its last column is the per-dispatch profile where the sweep line passes --profile);
         # each sweep gets at most SWEEP_S seconds (default 200), so one slow file cannot eat the others' command
    shift; [ $# -gt 0 ] || { echo "usage: run.sh sweep NAME..." >&2; exit 2; }
    for n in "$@"; do [ -f "tests/gpu/sweep_$n.txt" ] || { echo "sweep $n: no tests/gpu/sweep_$n.txt" >&2; continue; }
        (export V R=$R/sw_$n; mkdir -p "$R"
        timeout "${SWEEP_S:-200}" sh -c "$(grep '^\$V' "tests/gpu/sweep_$n.txt" | head -n 1)" > "$R.log" 2>&1
        echo "sweep $n: rc=$? $(tail -n 1 "$R.log")"
        "$V" csv "$(find "$R" -name results.csv | head -n 1)" kernel variant params mode status time_median_s bw_frac_copy \
            flop_per_s note profile > "$R.tsv"); done ;;
bitnet15)   # issue 15: default BitLinear GEMV vs dense fp16 at batch 1 on the six shapes, rotate and cold, and the
            # per-dispatch overhead (noop)
    "$V" run --no-telemetry --no-cpu-baseline --dir "$R/bn" --seed 3 --min-time 0.05 --timeout 1 -e "bitnet_linear shape=$SH m=1 \
        variant=dot mode=rotate,cold" -e "dense_f16 shape=$SH m=1 mode=rotate,cold" -e "noop" > "$R/bn.log" 2>&1
    "$V" csv "$R/bn/results.csv" kernel params status time_median_s bw_frac_copy ;;
concurrency)   # issue 11: do prefetch workers (references, baselines) move the GPU medians? A: --jobs 0, B: --jobs 4,
               # A2: --jobs 0 again (the noise floor); the long QR/SVD references keep the workers busy meanwhile
    for t in A:0 B:4 A2:0; do "$V" run --seed 11 --dir "$R/conc_${t%%:*}" --jobs "${t##*:}" --min-time 0.5 --timeout 1.5 \
        -e "copy n=2^24,2^28" -e "add n=2^26" -e "sum n=2^26" -e "softmax rows=8192 cols=4096" \
        -e "matmul n=4096 variant=coopmat_f256 dtype=f16" -e "matmul n=4096 variant=tiled dtype=f32" \
        -e "bitnet_linear shape=28672x4096 m=1 variant=dot mode=rotate" -e "dense_f16 shape=28672x4096 m=1 mode=rotate" \
        -e "rmsnorm rows=8192 cols=4096" -e "gelu n=2^26" -e "qr n=4096" -e "svd n=1024" > "$R/conc_${t%%:*}.log" 2>&1; done
    for t in A B A2; do "$V" csv "$R/conc_$t/results.csv" kernel params time_median_s time_ci_lo_s time_ci_hi_s cpu_fast_time_s > "$R/conc_$t.tsv"; done
    paste "$R/conc_A.tsv" "$R/conc_B.tsv" "$R/conc_A2.tsv" | awk -F'\t' '{printf "%-14s %-40s A %.4g B %.4g A2 %.4g  B/A-1 %+.2f%%  A2/A-1 %+.2f%%  cpuB/cpuA-1 %+.1f%%\n", $1, $2, $3, $9, $15, 100*($9/$3-1), 100*($15/$3-1), 100*($12/$6-1)}' ;;
overhead)   # telemetry on/off, twice, paired medians
    for i in 1 2; do for m in on off; do
        "$V" run -e "copy n=2^24,2^28" -e "add n=2^26" -e "sum n=2^26" --seed 7 --dir "$R/ovh_$m$i" --min-time 0.3 \
            --timeout 3 $( [ $m = off ] && echo --no-telemetry ) > /dev/null 2>&1; done; done
    for i in 1 2; do paste "$("$V" csv "$R/ovh_on$i/results.csv" kernel params time_median_s > "$R/on$i"; echo "$R/on$i")" \
        "$("$V" csv "$R/ovh_off$i/results.csv" time_median_s > "$R/off$i"; echo "$R/off$i")"; done ;;
matmul) "$V" run --no-telemetry --dir "$R/matmul" --seed 2 -e "set min_time=0.3 timeout=5 min_samples=5 max_noise=0.02" \
    -e "peak_fma n=2^22 iters=256" -e "peak_coopmat n=2^16 iters=128" -e "matmul n=4096,8192 variant=tiled dtype=f32" \
    -e "matmul n=4096,8192 variant=coopmat,coopmat_f,coopmat_f64,coopmat_f256,coopmat_g,coopmat_g64 dtype=f16" ;;
gate)   # issue 13: what `make gate-selftest K=20 ROUNDS=5` runs (the suite's own min_time and timeout)
    VKB=$V SUITE=suites/gate.suite K=20 ROUNDS=5 MIN_US=50 sh harness/gate.sh selftest "$R/gate" ;;
peers) python3 tests/gpu/peers.py "$OUT/peers.csv" ;;
clock)   # the clock check against NVML: telemetry on, so each row has the shader-clock probe's clock_MHz beside NVML's
         # SM clock; --jobs 0 runs each CPU reference inline (cholesky 4096's GSL takes seconds with the GPU idle),
         # the situation in which an H200 once timed a whole fp16 GEMM case at ~400 MHz
    "$V" run --no-cpu-baseline --jobs 0 --dir "$R/clock" --seed 3 --min-time 0.1 --timeout 1 -e "matmul n=4096 dtype=f16" \
        -e "copy n=2^26" -e "add n=2^20" -e "bitnet_linear shape=28672x4096 m=1 mode=rotate" -e "softmax rows=8192 cols=4096" \
        -e "cholesky n=4096" -e "matmul n=4096 dtype=f16 variant=coopmat_p32s1" -e "qr n=1024" -e "matmul n=8192 dtype=f16" \
        > "$R/clock.log" 2>&1; tail -n 3 "$R/clock.log"; grep '^clock' "$R/clock/run.txt"
    "$V" csv "$R/clock/results.csv" kernel params status time_median_s clock_MHz sm_clock_mean_MHz sm_clock_min_MHz clock_check ;;
accept15)   # issue 15's acceptance data, defaults only, in one calibrated run (% of copy), rotate and cold: BitLinear and
            # dense_f16 at m=1, 8, 32; readbw of each shape's packed weight bytes (the floor of one read-only dispatch), and
            # of the same weights at 1.6 bits (5 a byte: tables.py's "within one dispatch's reach");
            # the fused layer and its parts; noop. Then the peers (cuBLAS linear_f16 at m=8, 32). Tables (after accept16):
            # python3 tests/gpu/tables.py --peers OUT/peers.csv OUT/res/a15/results.csv OUT/res/a16/results.csv \
            #   OUT/res/occ512/results.csv OUT/res/occ513/results.csv
    "$V" run --no-telemetry --no-cpu-baseline --dir "$R/a15" --seed 3 --min-time 0.05 --timeout 1 \
        -e "bitnet_linear shape=$SH m=1,8,32 variant=dot mode=rotate,cold" -e "dense_f16 shape=$SH m=1,8,32 mode=rotate,cold" \
        -e "readbw n=2211840,1105920,4096000,1572864,7340032,3670016 mode=rotate,cold" -e "noop bind=desc,bda" \
        -e "readbw n=1769472,884736,3276800,1258292,5872028,2936016 mode=rotate,cold" \
        -e "bitnet_layer shape=13824x2560,2560x6912 m=1 variant=dot mode=rotate,cold" \
        -e "bitnet_layer shape=13824x2560,2560x6912 m=1 variant=dot fuse=0 mode=rotate,cold" \
        -e "bitnet_aquant m=1 k=2560,6912 variant=rmsnorm mode=rotate,cold" > "$R/a15.log" 2>&1; tail -n 3 "$R/a15.log"
    LD_LIBRARY_PATH= python3 tests/gpu/peers.py "$OUT/peers.csv" > "$R/peers.log" 2>&1; tail -n 1 "$R/peers.log" ;;
accept16)   # issue 16's acceptance data: the default (auto) matmul at fp16 512, 4096, 8192 and fp32 4096, with the named
            # variants the auto rule chooses between; Cholesky and QR at 1024 and 4096; SVD 1024 (their defaults); noop (the per-call floor tables.py sets beside the CUDA graph null kernel of peers.py);
            # readbw over the 12 MiB that 512's 32x64 tiles read from L2 (tables.py's L2 floor at 512)
    "$V" run --no-telemetry --no-cpu-baseline --dir "$R/a16" --seed 3 -e "set min_time=0.2 timeout=8 min_samples=3 max_noise=0.05" \
        -e "matmul n=512,4096,8192 dtype=f16" -e "matmul n=512,4096,8192 dtype=f16 bind=desc" -e "matmul n=4096 dtype=f32" \
        -e "matmul n=512 variant=coopmat_64,coopmat_r dtype=f16" \
        -e "matmul n=4096,8192 variant=coopmat_f256,coopmat_p32s1,coopmat_wgs_m,coopmat_wgs_l,coopmat_wgs_xl dtype=f16" -e "matmul n=4096 variant=tiled dtype=f32" \
        -e "cholesky n=1024,4096" -e "qr n=1024,4096" -e "svd n=1024" -e "noop" -e "readbw n=3145728 mode=hot" \
        > "$R/a16.log" 2>&1; tail -n 3 "$R/a16.log"; sh "$0" occupancy; sh "$0" power16 ;;
power16)    # session 43: the fp16 GEMMs at 4096 and 8192 (auto, and the tilings auto chooses between) with telemetry on: a
            # call's energy, the mean power and the clock-event reasons (NVML) against the board's limit (run.txt);
            # tables.py --power OUT/res/p16/results.csv sets the power a call at the issue's 300 TFLOP/s would draw
    "$V" run --no-cpu-baseline --dir "$R/p16" --seed 3 -e "set min_time=0.2 timeout=8 min_samples=3" \
        -e "matmul n=4096,8192 dtype=f16" -e "matmul n=4096,8192 variant=coopmat_wgs_m,coopmat_wgs_l,coopmat_wgs_xl dtype=f16" \
        > "$R/p16.log" 2>&1; tail -n 1 "$R/p16.log" ;;
occupancy)  # how much shared memory an SM's resident workgroups share (tests/gpu/sweep_s41d.txt): algo=mma_kp (m=64 xs sk=1
            # sgs=4 ah=2, 16384 B a workgroup) built with 512 and 513 uvec4 more (tests/kernels/bitnet_mma_kp_pad*.comp:
            # 24576 and 24592 B), the same code. 128 rows an SM (SMS, default 132) make two workgroups an SM, 64 one. Where
            # 24592 B takes a second wave at two an SM (~1.7x 24576's time) but not at one, the SM holds 2 x 24576 = 48 KiB
            # in all, however many registers are free.
    sms=${SMS:-132}; B="bitnet_linear algo=mma_kp bind=desc m=64 xs=1 wn=2 sk=1 sgs=4 ah=2 gs=1 mode=rotate"
    for p in 512 513; do "$V" run --no-telemetry --no-cpu-baseline --dir "$R/occ$p" --seed 3 --min-time 0.05 --timeout 1 \
            --shader bitnet_mma_kp=bitnet_mma_kp_pad$p -e "$B shape=$((128 * sms))x3200,$((64 * sms))x3200" > "$R/occ$p.log" 2>&1
        e=$?; [ $e = 0 ] || { echo "pad $p: vkbench exited $e (3: no row loaded bitnet_mma_kp, e.g. every one SKIPped without int8 matrix units): $(tail -n 1 "$R/occ$p.log")"; continue; }
        "$V" csv "$R/occ$p/results.csv" params status time_median_s pipeline_stats |
            awk -F'\t' -v p=$p '{ sub(/.*shape=/, "", $1); sub(/ .*/, "", $1); match($4, /Shared_Memory_Size=[0-9]+/)
                print "pad " p ": " $1 " " $2 " " ($3 == "NA" ? "NA" : sprintf("%.2f us", $3 * 1e6)) " " substr($4, RSTART, RLENGTH) }'; done ;;
issue12)   # the matrix-unit probe and theoretical ceilings; the broken coopmat_f256 block at 4096 and 8192 (must FAIL);
           # cuBLAS fp16 on the same machine (torch runs with LD_LIBRARY_PATH emptied)
    timeout -s INT 200 "$V" calibrate --out "$R/cal" > "$R/calibrate.txt" 2>&1
    grep -E '^(ceiling_|theoretical|coopmat_probe|copy_refresh)' "$R/calibrate.txt" | sort | uniq -c | sort -rn | head -n 40
    "$V" run --no-telemetry --no-cpu-baseline --dir "$R/broken" --seed 5 --min-time 0.05 --timeout 0.5 \
        -e "matmul n=4096,8192 variant=coopmat_f256 dtype=f16" --shader matmul_coopmat_w4x4=matmul_coopmat_w4x4_block \
        > "$R/broken.log" 2>&1; tail -n 6 "$R/broken.log"
    LD_LIBRARY_PATH= timeout 120 python3 tests/gpu/peers.py "$R/peers.csv" --quick > "$R/peers.log" 2>&1
    grep -iE 'matmul|gemm' "$R/peers.csv" | head -n 12 ;;
*) sed -n '2,6p' "$0"; exit 3 ;;
esac
