#!/bin/sh
# Run each libFuzzer target for FUZZ_SECONDS (default 60) from its seed corpus: tests/fuzz/corpus/NAME (committed
# seeds and every regression input: a crash once found stays there), plus the repository's suites for the suite
# parser and CORPUS_EXTRA/NAME when given (e.g. a fresh run's CSVs). New inputs go to WORK/NAME (default
# build/fuzz/work), crashes to WORK/crash-NAME-*. Prints one line per target with its executions and time, and
# exits 1 if any target crashed, leaked or broke a promise (its input is named). FUZZ_RUNS=N runs N inputs a
# target from seed FUZZ_SEED (default 1) instead of a time: the same inputs on a loaded host as on an idle one
# (make test's way, so its verdict never hinges on how many inputs the host's load allowed).
#   sh tests/fuzz/run.sh build/fuzz/fuzz_suite build/fuzz/fuzz_results ...
set -u
cd "$(dirname "$0")/../.."
S=${FUZZ_SECONDS:-60}
WORK=${FUZZ_WORK:-build/fuzz/work}
rc=0
for bin in "$@"; do
    t=${bin##*/fuzz_}
    mkdir -p "$WORK/$t"
    seeds="tests/fuzz/corpus/$t"
    [ "$t" = suite ] && seeds="$seeds suites"
    [ -n "${CORPUS_EXTRA:-}" ] && [ -d "$CORPUS_EXTRA/$t" ] && seeds="$seeds $CORPUS_EXTRA/$t"
    dict=""
    [ -f "tests/fuzz/$t.dict" ] && dict="-dict=tests/fuzz/$t.dict"
    log="$WORK/$t.log"
    bound="-max_total_time=$S"
    [ -n "${FUZZ_RUNS:-}" ] && bound="-runs=$FUZZ_RUNS -seed=${FUZZ_SEED:-1}"
    # shellcheck disable=SC2086
    "$bin" $bound -timeout=10 -rss_limit_mb=2048 -print_final_stats=1 $dict \
        -artifact_prefix="$WORK/crash-$t-" "$WORK/$t" $seeds > "$log" 2>&1
    code=$?
    runs=$(sed -n 's/^stat::number_of_executed_units: *//p' "$log" | tail -n 1)
    secs=$(sed -n 's/^Done [0-9]* runs in \([0-9]*\) second.*/\1/p' "$log" | tail -n 1)
    crash=$(sed -n 's/.*Test unit written to \(.*\)$/\1/p' "$log" | tail -n 1)
    if [ "$code" = 0 ] && [ -z "$crash" ]; then
        echo "fuzz $t: ${runs:-?} executions in ${secs:-?} s, 0 crashes (corpus $(ls "$WORK/$t" | wc -l) inputs)"
    else
        rc=1
        echo "fuzz $t: CRASH after ${runs:-?} executions (exit $code): input ${crash:-?}; log $log"
        grep -E 'ERROR: |SUMMARY: |runtime error|round trip' "$log" | head -n 5 | sed 's/^/    /'
    fi
done
exit $rc
