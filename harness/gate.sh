#!/bin/sh
# gate.sh — the regression gate around `vkbench compare`. Exit status as compare's: 0 no regression,
# 1 performance regression, 2 correctness regression (or the candidate crashed), 3 usage or input error,
# 4 INCONCLUSIVE (the gate could not decide: not green; CMP_ARGS=--allow-inconclusive makes it 0).
#
#   gate.sh run BASELINE [OUT]                  run $SUITE $ROUNDS times with $VKB into OUT/candidate, compare
#                                               with BASELINE (a run directory or a directory of runs, never
#                                               OUT/candidate itself: the run deletes and rewrites that)
#   gate.sh interleave BASE_VKB CAND_VKB [OUT]  launch two builds alternately (A B A B ..., $ROUNDS per side, >= 4)
#                                               on one device, then compare the pooled launches (clusters)
#   gate.sh selftest [OUT]                      the gate measuring itself: K A/A and K injected-slowdown comparisons
#
# Environment (make passes its variables of the same names):
#   VKB      vkbench binary (default build/vkbench)       SUITE   suite file (default suites/gate.suite)
#   ROUNDS   launches per side (default 5)                RUN_ARGS extra `vkbench run` arguments
#   CMP_ARGS extra `vkbench compare` arguments            SEED    run seed, the same for every launch (default 1)
#   selftest: K comparisons of each kind (default 20); SLOW the injected slowdown (default: 5% on the suite's
#             >= 50 us kernels); MIN_US: injected cases count as detections only at baseline medians >= MIN_US
#             microseconds (default 50); FROM: first block to run (default 0, afresh): FROM > 0 adds blocks
#             FROM..K-1 to OUT's earlier ones, so a long self-test can be split over several commands.
# A launch does only what the gate needs: no ceilings calibration, no sensors, and, where this vkbench
# offers them, no CPU baselines and no reference or check: each side first runs one check launch (DIR.check,
# beside the side's runs, with minimal timing) that establishes the cases' correctness, and every timed launch
# after it is --established against it. The check launch's times are never compared: on an H200, checked
# launches (references and checks beside the timing) ran 1.1x-4x slower than the established ones and made
# every A/A comparison of the >= 50 us cases "too noisy".
set -u
VKB=${VKB:-build/vkbench}
SUITE=${SUITE:-suites/gate.suite}
ROUNDS=${ROUNDS:-5}
RUN_ARGS=${RUN_ARGS:-}
CMP_ARGS=${CMP_ARGS:-}
SEED=${SEED:-1}
K=${K:-20}
SLOW=${SLOW:-add=0.05,relu=0.05,bitnet_linear=0.05,matmul=0.05}
MIN_US=${MIN_US:-50}
FROM=${FROM:-0}
LAUNCH_LOG=

usage() { sed -n '2,23p' "$0" | sed 's/^# \{0,1\}//' >&2; exit 3; }
now() { date +%s.%N; }

# cheap BIN: the run options that cut a gate launch to what the gate needs, as far as BIN knows them.
cheap() {
    h=$("$1" run --help 2>&1)
    a="--no-calibrate --no-telemetry"
    case $h in *--no-cpu-baseline*) a="$a --no-cpu-baseline" ;; esac
    case $h in *--established*) a="$a --established" ;; esac
    echo "$a"
}

# launch BIN CHEAP DIR FIRST [ARGS...]: one `vkbench run` of the suite into DIR; CHEAP is `cheap BIN`'s
# output, FIRST the side's check launch (empty for that launch itself). Returns 0 when the run completed
# (case FAILs are the compare's business), 2 when it crashed, 3 when it refused its input. Appends
# "SIDE SECONDS" to $LAUNCH_LOG when set (SIDE: DIR's parent's name; a check launch's own name, SIDE.check).
launch() {   # (sh has no locals: its variables are l_*)
    l_bin=$1; l_opts=$2; l_dir=$3; l_first=$4; shift 4
    case $l_opts in
    *--established*) l_opts=${l_opts%--established}; [ -n "$l_first" ] && l_opts="$l_opts --established $l_first" ;;
    esac
    mkdir -p "$(dirname "$l_dir")"
    l_t0=$(now)
    # shellcheck disable=SC2086
    "$l_bin" run "$SUITE" --dir "$l_dir" --seed "$SEED" $l_opts $RUN_ARGS "$@" > "$l_dir.log" 2>&1
    l_rc=$?
    case $l_dir in *.check) l_side=$(basename "$l_dir") ;; *) l_side=$(basename "$(dirname "$l_dir")") ;; esac
    [ -n "$LAUNCH_LOG" ] && echo "$l_side $(now) $l_t0" | awk '{printf "%s %.3f\n", $1, $2 - $3}' >> "$LAUNCH_LOG"
    case $l_rc in
    0|1) return 0 ;;
    3) echo "gate: $l_bin refused its input (see $l_dir.log):" >&2; tail -n 3 "$l_dir.log" >&2; return 3 ;;
    *) echo "gate: $l_bin crashed or was killed (exit $l_rc; see $l_dir.log)" >&2; tail -n 5 "$l_dir.log" >&2; return 2 ;;
    esac
}

# check_launch BIN CHEAP SIDE_DIR [ARGS...]: with --established, one check launch into SIDE_DIR.check
# (references and checks, and just enough timing for a valid row), printing that directory for the side's
# timed launches; without it (an older vkbench) nothing, and every launch checks.
check_launch() {
    case $2 in *--established*) ;; *) return 0 ;; esac
    c_bin=$1; c_opts=$2; c_dir=$3.check; shift 3
    rm -rf "$c_dir"
    launch "$c_bin" "$c_opts" "$c_dir" "" --min-time 0 --min-samples 1 --timeout 0.01 "$@" || return $?
    echo "$c_dir"
}

compare() {  # compare BASE CAND OUT: exit status of vkbench compare
    # shellcheck disable=SC2086
    "$VKB" compare "$1" "$2" --out "$3" $CMP_ARGS
}

# med FILE [COLUMN]: the median of a column of numbers (default 1), NA when there are none.
med() {
    awk -v c="${2:-1}" '$c != "NA" { print $c }' "$1" | sort -g | awk '{ v[NR] = $1 }
        END { if (NR) printf "%.3f", (v[int((NR + 1) / 2)] + v[int(NR / 2) + 1]) / 2; else printf "NA" }'
}

cmd=${1:-}
[ -n "$cmd" ] && shift
case $cmd in
run)
    [ $# -ge 1 ] || usage
    out=${2:-build/gate}
    [ -e "$1" ] || { echo "gate: BASELINE $1: no such file or directory" >&2; exit 3; }
    # The run deletes OUT/candidate first: a baseline there (or holding it) would be destroyed, or the run
    # compared with itself (identical medians, exit 0).
    b=$(realpath -m -- "$1"); c=$(realpath -m -- "$out/candidate")
    case "$b/" in "$c"/*) echo "gate: BASELINE $1 is (or lies inside) $out/candidate, which this run deletes and rewrites: compare with a copy made before (cp -r $out/candidate build/gate-baseline)" >&2; exit 3 ;; esac
    case "$c/" in "$b"/*) echo "gate: BASELINE $1 holds $out/candidate, which this run deletes and rewrites: keep the baseline apart" >&2; exit 3 ;; esac
    rm -rf "$out/candidate" "$out/candidate.check"
    # ROUNDS launches: between-launch variance enters the candidate's CI (a baseline made the same way,
    # a directory of runs, brings its own; one launch per side decides nothing).
    opts=$(cheap "$VKB")
    first=$(check_launch "$VKB" "$opts" "$out/candidate") || exit $?
    r=1
    while [ "$r" -le "$ROUNDS" ]; do
        launch "$VKB" "$opts" "$out/candidate/run$r" "$first" || exit $?
        r=$((r + 1))
    done
    compare "$1" "$out/candidate" "$out"
    ;;
interleave)
    [ $# -ge 2 ] || usage
    # The launch is compare's unit of replication: 4 vs 4 launches is the fewest whose exact p can be < .05.
    [ "$ROUNDS" -ge 4 ] || { echo "gate: ROUNDS=$ROUNDS: at least 4 launches per side (compare tests launch medians; 3 vs 3 cannot reach p < .1)" >&2; exit 3; }
    a=$1; b=$2; out=${3:-build/gate-interleave}
    for bin in "$a" "$b"; do [ -x "$bin" ] || { echo "gate: $bin: not an executable" >&2; exit 3; }; done
    rm -rf "$out/A" "$out/B" "$out/A.check" "$out/B.check"
    opts_a=$(cheap "$a"); opts_b=$(cheap "$b")
    first_A=$(check_launch "$a" "$opts_a" "$out/A") || exit $?
    first_B=$(check_launch "$b" "$opts_b" "$out/B") || exit $?
    r=1
    while [ "$r" -le "$ROUNDS" ]; do
        # A B, then B A: neither build always runs first after the other.
        if [ $((r % 2)) = 1 ]; then first=A; else first=B; fi
        for side in $first $( [ $first = A ] && echo B || echo A ); do
            bin=$a; opts=$opts_a; f=$first_A; [ "$side" = B ] && bin=$b && opts=$opts_b && f=$first_B
            launch "$bin" "$opts" "$out/$side/run$r" "$f" || exit $?
        done
        r=$((r + 1))
    done
    compare "$out/A" "$out/B" "$out"
    ;;
selftest)
    out=${1:-build/gate-selftest}
    if [ "$FROM" -lt 0 ] || [ "$FROM" -ge "$K" ]; then echo "gate: FROM=$FROM: want 0 <= FROM < K=$K" >&2; exit 3; fi
    if [ "$FROM" = 0 ]; then
        rm -rf "$out"
        mkdir -p "$out/aa" "$out/inj" "$out/logs"
        : > "$out/block_seconds"; : > "$out/compare_seconds"; : > "$out/launch_seconds"; : > "$out/check_seconds"
    fi
    [ -d "$out/runs" ] || [ "$FROM" = 0 ] || { echo "gate: FROM=$FROM but $out holds no earlier blocks" >&2; exit 3; }
    LAUNCH_LOG=$out/launch_seconds
    opts=$(cheap "$VKB")
    # K blocks; block i launches the plain build twice (A_i, B_i) and the slowed one (S_i), ROUNDS times
    # each, interleaved, each round in the next of the six orders, so over six rounds every side comes
    # first, second and third twice and follows each other side equally often (a launch right after
    # the slowed one may run warmer or cooler). A/A comparison i = A_i vs B_i; injected i = A_i vs S_i.
    # 3 x ROUNDS x K launches, after two check launches for all blocks: every plain launch is the same build
    # and seed (runs/plain.check), every slowed one too (runs/slowed.check). One check launch a side and
    # block (3K of them, ~4 s each on an H200) would not let K=20 fit in one 10-minute device command.
    if [ "$FROM" = 0 ] || [ ! -d "$out/runs/plain.check" ] || [ ! -d "$out/runs/slowed.check" ]; then
        t0=$(now)
        check_launch "$VKB" "$opts" "$out/runs/plain" > /dev/null || exit $?
        check_launch "$VKB" "$opts" "$out/runs/slowed" --slowdown "$SLOW" > /dev/null || exit $?
        echo "$(now) $t0" | awk '{printf "%.3f\n", $1 - $2}' >> "$out/check_seconds"
    fi
    first_A=; first_S=
    case $opts in *--established*) first_A=$out/runs/plain.check; first_S=$out/runs/slowed.check ;; esac
    first_B=$first_A
    i=$FROM
    while [ "$i" -lt "$K" ]; do
        t0=$(now)
        r=1
        while [ "$r" -le "$ROUNDS" ]; do
            case $(((r - 1 + 3 * i) % 6)) in
            0) order="A B S" ;; 1) order="S B A" ;; 2) order="B S A" ;; 3) order="A S B" ;; 4) order="S A B" ;; *) order="B A S" ;;
            esac
            for side in $order; do
                eval "first=\$first_$side"
                if [ "$side" = S ]; then launch "$VKB" "$opts" "$out/runs/S$i/run$r" "$first" --slowdown "$SLOW" || exit $?
                else launch "$VKB" "$opts" "$out/runs/$side$i/run$r" "$first" || exit $?; fi
            done
            r=$((r + 1))
        done
        echo "$(now) $t0" | awk '{printf "%.3f\n", $1 - $2}' >> "$out/block_seconds"
        echo "gate selftest: block $((i + 1)) of $K done" >&2
        i=$((i + 1))
    done
    # The comparisons, on the host's cores (each one single-threaded; ~2-3 s of bootstrap each): its own wall
    # time per comparison in compare_seconds.
    i=$FROM; par=$(nproc 2>/dev/null || echo 2); [ "$par" -gt 8 ] && par=8
    while [ "$i" -lt "$K" ]; do
        for kind in aa inj; do
            (
                t0=$(now)
                cand=$out/runs/B$i; [ $kind = inj ] && cand=$out/runs/S$i
                compare "$out/runs/A$i" "$cand" "$out/$kind/$i" > "$out/logs/$kind$i.log" 2>&1
                rc=$?
                echo "$(now) $t0" | awk '{printf "%.3f\n", $1 - $2}' >> "$out/compare_seconds"
                # 4 (inconclusive) is a verdict the self-test counts, not a failure of the self-test.
                case $rc in 0|1|4) ;; *) echo "gate: $kind compare $i: exit $rc" >&2; tail -n 5 "$out/logs/$kind$i.log" >&2 ;; esac
            ) &
        done
        i=$((i + 1))
        [ $(((i - FROM) * 2 % par)) -lt 2 ] && wait
    done
    wait
    min_s=$(awk -v u="$MIN_US" 'BEGIN { printf "%.9g", u * 1e-6 }')
    "$VKB" gate-summary -s "$SLOW" -m "$min_s" "$out/aa" "$out/inj" > "$out/summary.md" || exit 3
    # Where a launch's wall time goes, per case (wall_s, when this vkbench fills it), over every launch.
    for f in "$out"/runs/*/run*/results.csv; do "$VKB" csv "$f" kernel params mode wall_s 2>/dev/null; done |
        awk -F '\t' '{ k = $1 " " $2 " " $3; if ($4 != "NA" && $4 != "") { n[k]++; v[k, n[k]] = $4 } else if (!(k in n)) n[k] = 0 }
            END { for (k in n) { if (!n[k]) { print k "\tNA"; continue }
                  m = n[k]; for (a = 1; a <= m; a++) s[a] = v[k, a]
                  for (a = 2; a <= m; a++) { x = s[a]; for (b = a - 1; b >= 1 && s[b] > x; b--) s[b + 1] = s[b]; s[b + 1] = x }
                  printf "%s\t%.3f\n", k, (s[int((m + 1) / 2)] + s[int(m / 2) + 1]) / 2 } }' | sort > "$out/case_wall_seconds"
    nl=$(grep -vc 'check ' "$out/launch_seconds"); nc=$(grep -c 'check ' "$out/launch_seconds")
    {
        echo
        echo "selftest: K=$K ROUNDS=$ROUNDS SLOW=$SLOW suite=$SUITE vkbench=$VKB"
        case $opts in
        *--established*) echo "launch options: ${opts%--established}(+ --established CHECK: a check launch of the same build and seed, not timed, not compared)" ;;
        *) echo "launch options: $opts(this vkbench offers no --established: every launch checks)" ;;
        esac
        echo "launches: $nl (+ $nc check launches); launch_seconds_median: plain $(awk '$1 !~ /^S/ && $1 !~ /check/' "$out/launch_seconds" > "$out/.p"; med "$out/.p" 2),"\
             "slowed $(awk '$1 ~ /^S/ && $1 !~ /check/' "$out/launch_seconds" > "$out/.s"; med "$out/.s" 2),"\
             "check $(awk '$1 ~ /check/' "$out/launch_seconds" > "$out/.c"; med "$out/.c" 2);"\
             "launch_seconds_max: $(awk 'BEGIN { m = 0 } $2 > m { m = $2 } END { printf "%.3f", m }' "$out/launch_seconds")"
        echo "device_seconds_total: $(cat "$out/block_seconds" "$out/check_seconds" | awk '{ s += $1 } END { printf "%.1f", s }') (all blocks and the check launches: every launch, Vulkan start included)"
        echo "median_seconds_per_comparison: $(awk -v a="$(med "$out/block_seconds")" -v b="$(med "$out/compare_seconds")" \
            'BEGIN { printf "%.2f", a * 2 / 3 + b }') (one comparison: its $((2 * ROUNDS)) launches, two thirds of a block, plus one compare)"
        echo "compare_seconds_median: $(med "$out/compare_seconds")"
        echo "per-case wall seconds in a launch (median; NA: this vkbench does not fill wall_s):"
        sed 's/^/  /' "$out/case_wall_seconds"
    } >> "$out/summary.md"
    rm -f "$out/.p" "$out/.s" "$out/.c"
    cat "$out/summary.md"
    ;;
*) usage ;;
esac
