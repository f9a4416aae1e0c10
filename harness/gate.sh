#!/bin/sh
# gate.sh — the regression gate around `vkbench compare`. Exit status as compare's: 0 no regression,
# 1 performance regression, 2 correctness regression (or the candidate crashed), 3 usage or input error.
#
#   gate.sh run BASELINE [OUT]                  run $SUITE $ROUNDS times with $VKB into OUT/candidate, compare
#                                               with BASELINE (a run directory or a directory of runs)
#   gate.sh interleave BASE_VKB CAND_VKB [OUT]  launch two builds alternately (A B A B ..., $ROUNDS per side, >= 4)
#                                               on one device, then compare the pooled launches (clusters)
#   gate.sh selftest [OUT]                      the gate measuring itself: K A/A and K injected-slowdown comparisons
#
# Environment (make passes its variables of the same names):
#   VKB      vkbench binary (default build/vkbench)       SUITE   suite file (default suites/gate.suite)
#   ROUNDS   launches per side (default 5)                RUN_ARGS extra `vkbench run` arguments
#   CMP_ARGS extra `vkbench compare` arguments            SEED    run seed, the same for every launch (default 1)
#   selftest: K comparisons of each kind (default 20); SLOW the injected slowdown (default add=0.05,relu=0.05);
#             MIN_US: injected cases count as detections only at baseline medians >= MIN_US microseconds (default 50)
set -u
VKB=${VKB:-build/vkbench}
SUITE=${SUITE:-suites/gate.suite}
ROUNDS=${ROUNDS:-5}
RUN_ARGS=${RUN_ARGS:-}
CMP_ARGS=${CMP_ARGS:-}
SEED=${SEED:-1}
K=${K:-20}
SLOW=${SLOW:-add=0.05,relu=0.05}
MIN_US=${MIN_US:-50}

usage() { sed -n '2,19p' "$0" | sed 's/^# \{0,1\}//' >&2; exit 3; }
now() { date +%s.%N; }

# launch BIN DIR [ARGS...]: one `vkbench run` of the suite into DIR. Returns 0 when the run completed
# (case FAILs are the compare's business), 2 when it crashed, 3 when it refused its input.
launch() {
    bin=$1; dir=$2; shift 2
    mkdir -p "$(dirname "$dir")"
    # shellcheck disable=SC2086
    "$bin" run "$SUITE" --dir "$dir" --seed "$SEED" --no-calibrate $RUN_ARGS "$@" > "$dir.log" 2>&1
    rc=$?
    case $rc in
    0|1) return 0 ;;
    3) echo "gate: $bin refused its input (see $dir.log):" >&2; tail -n 3 "$dir.log" >&2; return 3 ;;
    *) echo "gate: $bin crashed or was killed (exit $rc; see $dir.log)" >&2; tail -n 5 "$dir.log" >&2; return 2 ;;
    esac
}

compare() {  # compare BASE CAND OUT: exit status of vkbench compare
    # shellcheck disable=SC2086
    "$VKB" compare "$1" "$2" --out "$3" $CMP_ARGS
}

cmd=${1:-}
[ -n "$cmd" ] && shift
case $cmd in
run)
    [ $# -ge 1 ] || usage
    out=${2:-build/gate}
    rm -rf "$out/candidate"
    # ROUNDS launches: between-launch variance enters the candidate's CI (a baseline made the same way,
    # a directory of runs, brings its own; one launch per side understates the noise).
    r=1
    while [ "$r" -le "$ROUNDS" ]; do launch "$VKB" "$out/candidate/run$r" || exit $?; r=$((r + 1)); done
    compare "$1" "$out/candidate" "$out"
    ;;
interleave)
    [ $# -ge 2 ] || usage
    # The launch is compare's unit of replication: 4 vs 4 launches is the fewest whose exact p can be < .05.
    [ "$ROUNDS" -ge 4 ] || { echo "gate: ROUNDS=$ROUNDS: at least 4 launches per side (compare tests launch medians; 3 vs 3 cannot reach p < .1)" >&2; exit 3; }
    a=$1; b=$2; out=${3:-build/gate-interleave}
    for bin in "$a" "$b"; do [ -x "$bin" ] || { echo "gate: $bin: not an executable" >&2; exit 3; }; done
    rm -rf "$out/A" "$out/B"
    r=1
    while [ "$r" -le "$ROUNDS" ]; do
        # A B, then B A: neither build always runs first after the other.
        if [ $((r % 2)) = 1 ]; then first=A; else first=B; fi
        for side in $first $( [ $first = A ] && echo B || echo A ); do
            bin=$a; [ $side = B ] && bin=$b
            launch "$bin" "$out/$side/run$r" || exit $?
        done
        r=$((r + 1))
    done
    compare "$out/A" "$out/B" "$out"
    ;;
selftest)
    out=${1:-build/gate-selftest}
    rm -rf "$out"
    mkdir -p "$out/aa" "$out/inj" "$out/logs"
    # K blocks; block i launches the plain build twice (A_i, B_i) and the slowed one (S_i), ROUNDS times
    # each, interleaved, each round in the next of the six orders, so over six rounds every side comes
    # first, second and third twice and follows each other side equally often (a launch right after
    # the slowed one may run warmer or cooler). A/A comparison i = A_i vs B_i; injected i = A_i vs S_i.
    # 3 x ROUNDS x K launches.
    : > "$out/block_seconds"
    i=0
    while [ "$i" -lt "$K" ]; do
        t0=$(now)
        r=1
        while [ "$r" -le "$ROUNDS" ]; do
            case $(((r - 1 + 3 * i) % 6)) in
            0) order="A B S" ;; 1) order="S B A" ;; 2) order="B S A" ;; 3) order="A S B" ;; 4) order="S A B" ;; *) order="B A S" ;;
            esac
            for side in $order; do
                if [ "$side" = S ]; then launch "$VKB" "$out/runs/S$i/run$r" --slowdown "$SLOW" || exit $?
                else launch "$VKB" "$out/runs/$side$i/run$r" || exit $?; fi
            done
            r=$((r + 1))
        done
        echo "$(now) $t0" | awk '{printf "%.3f\n", $1 - $2}' >> "$out/block_seconds"
        echo "gate selftest: block $((i + 1)) of $K done" >&2
        i=$((i + 1))
    done
    i=0
    while [ "$i" -lt "$K" ]; do
        t0=$(now)
        for kind in aa inj; do
            cand=$out/runs/B$i; [ $kind = inj ] && cand=$out/runs/S$i
            compare "$out/runs/A$i" "$cand" "$out/$kind/$i" > "$out/logs/$kind$i.log" 2>&1
            rc=$?
            [ "$rc" = 0 ] || [ "$rc" = 1 ] || { echo "gate: $kind compare $i: exit $rc" >&2; tail -n 5 "$out/logs/$kind$i.log" >&2; }
        done
        echo "$(now) $t0" | awk '{printf "%.3f\n", ($1 - $2) / 2}' >> "$out/compare_seconds"
        i=$((i + 1))
    done
    min_s=$(awk -v u="$MIN_US" 'BEGIN { printf "%.9g", u * 1e-6 }')
    "$VKB" gate-summary -s "$SLOW" -m "$min_s" "$out/aa" "$out/inj" > "$out/summary.md" || exit 3
    med() { sort -n "$1" | awk '{ v[NR] = $1 } END { if (NR) printf "%.2f", (v[int((NR + 1) / 2)] + v[int(NR / 2) + 1]) / 2; else printf "NA" }'; }
    {
        echo "selftest: K=$K ROUNDS=$ROUNDS SLOW=$SLOW suite=$SUITE vkbench=$VKB"
        echo "median_seconds_per_comparison: $(awk -v a="$(med "$out/block_seconds")" -v b="$(med "$out/compare_seconds")" \
            'BEGIN { printf "%.2f", a * 2 / 3 + b }') (one comparison: its $((2 * ROUNDS)) launches, two thirds of a block, plus one compare)"
    } >> "$out/summary.md"
    cat "$out/summary.md"
    ;;
*) usage ;;
esac
