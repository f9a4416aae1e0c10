#!/bin/sh
# The GPU batch behind the closing notes' figures (run on an NVIDIA H100/H200 with NVIDIA's Vulkan
# driver, from the repo root, with build/gpu/vkbench built here and OUT set to a results folder).
# Each block fits one 10-minute device command; run them back to back.
#   sh tests/gpu/run.sh calibrate|bitnet|decomp|default|overhead|matmul|gate|peers
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
overhead)   # telemetry on/off, twice, paired medians
    for i in 1 2; do for m in on off; do
        "$V" run -e "copy n=2^24,2^28" -e "add n=2^26" -e "sum n=2^26" --seed 7 --dir "$R/ovh_$m$i" --min-time 0.3 \
            --timeout 3 $( [ $m = off ] && echo --no-telemetry ) > /dev/null 2>&1; done; done
    for i in 1 2; do paste "$("$V" csv "$R/ovh_on$i/results.csv" kernel params time_median_s > "$R/on$i"; echo "$R/on$i")" \
        "$("$V" csv "$R/ovh_off$i/results.csv" time_median_s > "$R/off$i"; echo "$R/off$i")"; done ;;
matmul) "$V" run --no-telemetry --dir "$R/matmul" --seed 2 -e "set min_time=0.3 timeout=5 min_samples=5 max_noise=0.02" \
    -e "peak_fma n=2^22 iters=256" -e "peak_coopmat n=2^16 iters=128" -e "matmul n=4096,8192 variant=tiled dtype=f32" \
    -e "matmul n=4096,8192 variant=coopmat,coopmat_f,coopmat_f64,coopmat_f256,coopmat_g,coopmat_g64 dtype=f16" ;;
gate) VKB=$V SUITE=suites/gate.suite K=20 ROUNDS=5 SLOW=add=0.05,relu=0.05 MIN_US=50 \
    RUN_ARGS="--no-telemetry --min-time 0.15 --timeout 1.5" sh harness/gate.sh selftest "$R/gate" ;;
peers) python3 tests/gpu/peers.py "$OUT/peers.csv" ;;
*) sed -n '2,6p' "$0"; exit 3 ;;
esac
