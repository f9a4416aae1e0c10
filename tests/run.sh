#!/bin/sh
# vkbench's test runner (`make test`, called by .ci/run). Each check below asserts a real property;
# the last line is "N passed, N failed". Needs the packages harness/deps.sh installs and a Vulkan
# device (lavapipe when there is no GPU).
set -u
cd "$(dirname "$0")/.."
B=${BUILD:-build}
VKB=$B/vkbench
T=$(mktemp -d /tmp/vkbench-test.XXXXXX)
trap 'rm -rf "$T"' EXIT
pass=0; fail=0

ok()   { pass=$((pass + 1)); echo "ok   - $1"; }
bad()  { fail=$((fail + 1)); echo "FAIL - $1"; [ -n "${2:-}" ] && sed 's/^/       /' "$2" | tail -n 15; }
# expect NAME CMD...: the command must succeed
expect() { name=$1; shift; if "$@" > "$T/out" 2>&1; then ok "$name"; else bad "$name" "$T/out"; fi; }
# expect_exit CODE NAME CMD...: the command must exit with CODE
expect_exit() { code=$1; name=$2; shift 2; "$@" > "$T/out" 2>&1; got=$?
    if [ "$got" = "$code" ]; then ok "$name"; else echo "exit $got, wanted $code" >> "$T/out"; bad "$name" "$T/out"; fi; }
# grep_out NAME PATTERN: the last command's output must match PATTERN
grep_out() { if grep -Eq -- "$2" "$T/out"; then ok "$1"; else echo "no match for: $2" >> "$T/out"; bad "$1" "$T/out"; fi; }
csv_col() { "$VKB" csv "$@"; }  # csv_col FILE COLUMN...: read back through vkbench's own CSV reader
run() { "$VKB" run --out "$T/res" "$@"; }
lastdir() { ls -td "$T"/res/*/ | head -n 1; }

echo "== unit tests"
make --no-print-directory -s "$B/test_unit" && "$B/test_unit" > "$T/unit" 2>&1
unit_rc=$?
tail -n 1 "$T/unit"
up=$(tail -n 1 "$T/unit" | sed -n 's/^\([0-9]*\) passed, \([0-9]*\) failed$/\1/p')
uf=$(tail -n 1 "$T/unit" | sed -n 's/^\([0-9]*\) passed, \([0-9]*\) failed$/\2/p')
if [ "$unit_rc" = 0 ] && [ -n "$up" ]; then pass=$((pass + up)); fail=$((fail + uf)); else bad "unit tests" "$T/unit"; fi

echo "== unit tests under AddressSanitizer + UndefinedBehaviorSanitizer"
if make --no-print-directory -s SANITIZE=address,undefined build/san/test_unit > "$T/san" 2>&1 && build/san/test_unit >> "$T/san" 2>&1; then
    ok "unit tests clean under ASan/UBSan ($(tail -n 1 "$T/san"))"
else bad "unit tests under ASan/UBSan" "$T/san"; fi

echo "== smoke suite on the default device with the validation layer"
expect "smoke suite runs, every case PASS or SKIP" run suites/smoke.suite --validate --seed 1
d=$(lastdir)
cp "$T/out" "$T/smoke.log"
grep_out "zero validation-layer messages" '^validation messages: 0$'
n_rows=$(csv_col "$d/results.csv" status | wc -l)
n_bad=$(csv_col "$d/results.csv" status | grep -cv -E '^(PASS|SKIP)$')
if [ "$n_rows" -gt 100 ] && [ "$n_bad" = 0 ]; then ok "smoke results.csv: $n_rows rows, none FAIL/ERROR"; else bad "smoke rows ($n_rows rows, $n_bad not PASS/SKIP)" "$T/smoke.log"; fi
if csv_col "$d/results.csv" status | grep -q PASS && ! csv_col "$d/results.csv" status threshold metric | grep -q "$(printf '^PASS\t')NA"; then
    ok "every PASS row records its threshold"; else bad "PASS rows without a threshold" "$d/results.csv"; fi
skips=$(csv_col "$d/results.csv" status reason | grep -c "$(printf '^SKIP\t$')")
if [ "$skips" = 0 ]; then ok "every SKIP row has a reason"; else bad "$skips SKIP rows without a reason"; fi
if [ "$(wc -l < "$d/samples.csv")" -gt "$n_rows" ] && grep -q '^seed: 1$' "$d/run.txt" && grep -q '^finished: complete' "$d/run.txt"; then
    ok "samples.csv holds raw samples; run.txt records seed and completion"; else bad "samples.csv / run.txt" "$d/run.txt"; fi

echo "== optimized CPU baselines and the speedup report (on the smoke run)"
nfast=$(csv_col "$d/results.csv" cpu_fast_status | grep -c '^PASS$')
nfastbad=$(csv_col "$d/results.csv" cpu_fast_status | grep -c '^FAIL$')
if [ "$nfast" -gt 50 ] && [ "$nfastbad" = 0 ]; then ok "optimized CPU baselines: $nfast validated PASS, none FAIL"
else bad "optimized CPU baselines ($nfast PASS, $nfastbad FAIL)" "$d/results.csv"; fi
nona=$(csv_col "$d/results.csv" status cpu_fast_status cpu_fast_why | grep -c "$(printf '^PASS\tNA\t$')")
if [ "$nona" = 0 ]; then ok "every NA baseline on a PASS row says why"; else bad "$nona NA baselines without a reason"; fi
expect "report: writes report.md, report.html, report-numbers.csv" "$VKB" report "$d"
# speedup, roofline, timing, bandwidth: SVG and PNG each (power too, only where a sensor measured something)
nplots=0; badplots=""
for p in "$d"/plots/*.svg "$d"/plots/*.png; do
    [ -s "$p" ] && [ "$(wc -c < "$p")" -gt 1000 ] && nplots=$((nplots + 1)) || badplots="$badplots $p"
done
if [ -s "$d/report.md" ] && [ -s "$d/report.html" ] && [ "$nplots" -ge 8 ] && [ -z "$badplots" ] &&
   [ "$(grep -c '<svg' "$d/report.html")" -ge 4 ]; then ok "report: $nplots plots rendered non-empty, SVGs inlined in report.html"
else bad "report plots ($nplots rendered; empty:$badplots)" "$d/plots/gnuplot.log"; fi
expect "report --verify: every number in report.md comes from the run's CSVs" "$VKB" report --verify "$d"
grep_out "report --verify: zero problems" ': 0 problems$'
# Independent recomputation of the cell and ratio entries through `vkbench csv` and awk.
cols=$(awk -F, '!/^#/ && ($2 == "cell" || $2 == "ratio") { print $5; if ($6 != "") print $6 }' "$d/report-numbers.csv" | sort -u)
# shellcheck disable=SC2086
csv_col "$d/results.csv" case_id $cols > "$T/cols.tsv"
printf '%s\n' $cols > "$T/colnames"
nchk=$(awk -F'\t' -v names="$T/colnames" -v nums="$d/report-numbers.csv" '
    BEGIN { while ((getline n < names) > 0) idx[n] = ++k }
    { for (i = 2; i <= NF; i++) v[$1, i - 1] = $i }
    END {
        FS = ","; checked = 0; wrong = 0
        while ((getline line < nums) > 0) {
            if (line ~ /^#/ || line ~ /^id,/) continue
            split(line, f, ",")
            if (f[2] != "cell" && f[2] != "ratio") continue
            a = v[f[4], idx[f[5]]]; b = f[2] == "ratio" ? v[f[4], idx[f[6]]] : 1
            if (a == "NA" || b == "NA" || b == 0) want = "NA"
            else want = sprintf("%." f[8] "g", (f[2] == "ratio" ? a / b : a) * f[7])
            checked++
            # csv prints 10 digits: allow one unit in the last printed place
            if (want != f[9] && !(want != "NA" && f[9] != "NA" && (want - f[9]) ^ 2 <= (f[9] * 10 ^ (1 - f[8])) ^ 2)) {
                wrong++; print "mismatch: " line " want " want > "/dev/stderr" }
        }
        print (wrong ? -wrong : checked)
    }' "$T/cols.tsv")
if [ "$nchk" -gt 100 ]; then ok "report: $nchk cell/ratio numbers recomputed independently (vkbench csv + awk)"
else bad "report: independent recomputation ($nchk)"; fi
if grep -Eq '^[0-9]+ cases: [0-9]+ PASS, [0-9]+ FAIL, [0-9]+ SKIP, [0-9]+ ERROR\.' "$d/report.md"; then ok "report: status counts"; else bad "report: status counts" "$d/report.md"; fi
if grep -q '^| [0-9]* | device lacks VK_NV_cooperative_matrix' "$d/report.md"; then ok "report: SKIP reasons grouped with counts"; else bad "report: SKIP groups" "$d/report.md"; fi
if grep -q ' † |' "$d/report.md" && grep -q '^† below the timer floor' "$d/report.md"; then ok "report: below-floor rows flagged"; else bad "report: floor flag" "$d/report.md"; fi
if grep -Eq 'Timing distributions \(raw samples\), run A: [0-9]+ of [0-9]+ PASS cases' "$d/report.md"; then ok "report: the timing caption says what is shown"; else bad "report: timing caption" "$d/report.md"; fi
csv_col "$d/results.csv" status n_checked n_bad below_floor samples cpu_fast_threads > "$T/na.tsv"
if grep -q "^SKIP" "$T/na.tsv" && ! awk -F'\t' '$1 == "SKIP" && ($2 != "NA" || $3 != "NA" || $4 != "NA" || $5 != "NA" || $6 != "NA")' "$T/na.tsv" | grep -q .; then
    ok "SKIP rows: counts never measured are NA, never 0"; else bad "SKIP rows with counts" "$T/na.tsv"; fi
rm -rf "$T/tamper" && cp -r "$d" "$T/tamper"
txt=$(awk -F, '$2 == "ratio" && $9 != "NA" { print $9; exit }' "$T/tamper/report-numbers.csv")
awk -v t="$txt" '!done && (i = index($0, t)) { $0 = substr($0, 1, i - 1) "9999" substr($0, i + length(t)); done = 1 } 1' \
    "$d/report.md" > "$T/tamper/report.md"
expect_exit 1 "report --verify: a number edited in report.md is caught" "$VKB" report --verify "$T/tamper"
cp "$d/report.md" "$T/tamper/report.md"
awk -F, 'BEGIN { OFS = "," } NR > 1 { $3 = $3 * 3 } 1' "$d/samples.csv" > "$T/tamper/samples.csv"
expect_exit 1 "report --verify: samples changed after the report are caught" "$VKB" report --verify "$T/tamper"
rm -rf "$T/noplot" && mkdir -p "$T/noplot" && cp "$d"/results.csv "$d"/samples.csv "$d"/run.txt "$T/noplot/"
expect "report --no-plots (a host without gnuplot): the report from the CSVs alone" "$VKB" report --no-plots "$T/noplot"
if grep -q 'not rendered here' "$T/noplot/report.md" && [ -s "$T/noplot/plots/speedup-a.dat" ] &&
   ! ls "$T/noplot"/plots/*.svg > /dev/null 2>&1; then ok "report --no-plots: data files written, plots marked not rendered"
else bad "report --no-plots" "$T/noplot/report.md"; fi
expect "report on the copied-back run renders the plots afterwards" "$VKB" report "$T/noplot"
if [ -s "$T/noplot/plots/speedup-a.svg" ] && ! grep -q 'not rendered here' "$T/noplot/report.md"; then ok "plots rendered on rerun"
else bad "plots on rerun" "$T/noplot/report.md"; fi

echo "== deliberately broken kernels are reported FAIL"
expect_exit 1 "one corrupted element: exit 1" run -e "add n=1000,4097" --shader binary=add_corrupt --min-time 0.01
grep_out "one corrupted element: FAIL with its index" 'FAIL +add .*1 bad of 1000|i=500 got='
expect_exit 1 "last element never written: exit 1" run -e "add n=1000,4097" --shader binary=add_skiplast --min-time 0.01
grep_out "last element never written: reported unwritten" 'never written.*|i=4096 got=nan'
expect_exit 1 "one element past the end: exit 1" run -e "add n=1000,4097" --shader binary=add_oob --min-time 0.01
grep_out "one element past the end: caught by the guard" "out-of-bounds write into buffer 'c' at element 1000 "
grep_out "write past the end caught at a non-multiple-of-4 size too" "out-of-bounds write into buffer 'c' at element 4097 "

run -e "copy n=2^22" --min-time 0.01 --no-calibrate > /dev/null 2>&1
if csv_col "$(lastdir)/results.csv" ref_time_s bytes | awk -F'\t' '$1 != "NA" && $1 >= $2 / 100e9 { ok = 1 } END { exit !ok }'; then
    ok "copy: the naive reference really copies (its time is no faster than 100 GB/s)"; else bad "copy reference time" "$(lastdir)/results.csv"; fi

echo "== bad input"
printf 'add n=1000\nadd n=1..\n' > "$T/bad.suite"
expect_exit 3 "malformed suite line: exit 3" "$VKB" run "$T/bad.suite"
grep_out "malformed suite line: names file:line" "bad.suite:2:"
printf '# ok\nnosuchkernel n=1\n' > "$T/bad2.suite"
expect_exit 3 "unknown kernel: exit 3" "$VKB" run "$T/bad2.suite"
grep_out "unknown kernel: names file:line and kernel" "bad2.suite:2: unknown kernel 'nosuchkernel'"
expect_exit 3 "unknown axis: exit 3" "$VKB" run -e "add n=10 colour=red"
grep_out "unknown axis: says which axes exist" "no axis 'colour' \(accepted: n,dtype"
expect_exit 3 "impossible sizes: refused before anything runs: exit 3" run -e "add n=10" -e "add n=0" -e "sum n=-5,2^40" -e "add n=1.5 dtype=f64" --min-time 0.01
grep_out "zero size: names -e line and value" '-e#2:1: add n=0: n=0: expected an integer'
grep_out "size beyond 2^32: names it" '-e#3:1: sum n=2\^40: n=2\^40: expected an integer'
if ! grep -q '^PASS' "$T/out"; then ok "impossible sizes: no case ran"; else bad "a case ran before the bad line was reported" "$T/out"; fi
expect_exit 3 "a --filter that selects nothing: exit 3" run -e "add n=10" --filter zzz
grep_out "a --filter that selects nothing: says so" "no case matches --filter 'zzz'"
expect_exit 0 "size beyond the device: SKIP, run goes on" run -e "add n=4000000000" -e "add n=10" --min-time 0.01
grep_out "size beyond the device: SKIP with the reason" 'SKIP +add +n=4000000000 .*(maxStorageBufferRange|device memory)'
expect_exit 1 "missing SPIR-V: ERROR row" run -e "add n=10" --spv-dir "$T/nowhere" --min-time 0.01
grep_out "missing SPIR-V: message names the file" "missing SPIR-V $T/nowhere/binary.spv"
expect_exit 3 "unwritable results directory: exit 3" "$VKB" run -e "add n=10" --out /proc/vkbench-nope
grep_out "unwritable results directory: says which" "cannot create results directory /proc/vkbench-nope"
expect_exit 3 "no Vulkan device: exit 3" env VK_ICD_FILENAMES="$T/none.json" VK_DRIVER_FILES="$T/none.json" "$VKB" run -e "add n=10"
grep_out "no Vulkan device: says how to install lavapipe" "mesa-vulkan-drivers"
expect_exit 3 "unknown device: exit 3" "$VKB" run -e "add n=10" --device nosuchgpu
grep_out "unknown device: message" "no device name contains it"

echo "== telemetry and utilization (issue 6)"
# The smoke run above measured the ceilings into $T/res/.calibration; its rows use them.
grep_smoke() { grep -Eq "$2" "$d/run.txt" && ok "$1" || bad "$1 (no match for: $2)" "$d/run.txt"; }
grep_smoke "run.txt: copy/read/write ceilings and per-dispatch overhead measured" '^ceiling_read_Bps: [0-9]'
grep_smoke "run.txt: topology (CPU model, cores, caches, NUMA, MemTotal) and pinning" '^mem_total_bytes: [0-9]+'
grep_smoke "run.txt: every sensor is named, found or NA with a reason" '^cpu_energy: (powercap:|not_present|no_permission|error)'
# Every timed row: utilization against each bandwidth ceiling (bytes > 0) and the FMA peak (flops > 0, when
# it was calibrated), NA only with util_why; the power/thermal columns numeric, or NA with telemetry_why.
csv_col "$d/results.csv" status device_type bytes flops bw_frac_copy bw_frac_read bw_frac_write flop_frac_fma \
    fma_flop_per_s flop_frac_coopmat util_why power_mean_W power_max_W gpu_temp_max_C energy_per_call_J \
    sm_clock_mean_MHz throttled telemetry_why ref_energy_J cpu_sensor_why > "$T/tel.tsv"
awk -F'\t' '$1 == "PASS" && (($3 > 0 && ($5 == "NA" || $6 == "NA" || $7 == "NA")) ||
    ($4 > 0 && $9 != "NA" && $8 == "NA") || ($10 == "NA" && $4 > 0 && $11 == "")) { print "row " NR ": " $0; n++ }
    END { exit n > 0 }' "$T/tel.tsv" > "$T/out" && ok "every PASS row: bandwidth and FLOP utilization against the calibrated ceilings (NA only with util_why)" \
    || bad "rows without utilization" "$T/out"
awk -F'\t' '$1 == "PASS" && ((($12 == "NA" || $14 == "NA" || $15 == "NA" || $16 == "NA") && $18 == "") ||
    ($19 == "NA" && $20 == "")) { print "row " NR ": " $0; n++ } $1 == "PASS" && $2 == "cpu" &&
    ($12 != "NA" || $13 != "NA" || $14 != "NA" || $15 != "NA" || $16 != "NA" || $17 != "NA") { print "CPU device with GPU sensors: " $0; n++ }
    END { exit n > 0 }' "$T/tel.tsv" > "$T/out" && ok "every PASS row: power/thermal/energy measured or NA with a reason (all NA on a CPU device)" \
    || bad "sensor columns NA without a reason" "$T/out"
expect "calibrate: measures, prints and caches the ceilings" "$VKB" calibrate --out "$T/cal"
grep_out "calibrate: fp16 matrix-unit peak measured or NA with the reason" '^ceiling_coopmat_flop_per_s: ([0-9]|NA \(.+\))'
if ls "$T"/cal/.calibration/*.txt > /dev/null 2>&1 && grep -q '^ceiling_dispatch_s: [0-9]' "$T/out"; then ok "calibrate: cache file written, dispatch overhead measured"; else bad "calibration cache" "$T/out"; fi
run -e "add n=2^16" --min-time 0.02 --no-telemetry > "$T/out" 2>&1
if grep -q '^calibration: cache ' "$(lastdir)/run.txt" && csv_col "$(lastdir)/results.csv" telemetry_why | grep -q 'telemetry off (--no-telemetry)'; then
    ok "a second run reads the cached ceilings; --no-telemetry says so in every row"; else bad "cache reuse / --no-telemetry" "$(lastdir)/run.txt"; fi
run -e "add n=2^16" --min-time 0.02 --no-calibrate > "$T/out" 2>&1
if csv_col "$(lastdir)/results.csv" bw_frac_read util_why | grep -q "^NA$(printf '\t')copy_Bps: calibration skipped (--no-calibrate); read_Bps: calibration skipped"; then
    ok "--no-calibrate: utilization NA with the reason, never 0"; else bad "--no-calibrate row" "$(lastdir)/results.csv"; fi

echo "== seeds, modes, interruption"
run -e "sum n=100000" --seed 42 --min-time 0.01 > /dev/null 2>&1; e1=$(csv_col "$(lastdir)/results.csv" max_abs_err)
run -e "sum n=100000" --seed 42 --min-time 0.01 > /dev/null 2>&1; e2=$(csv_col "$(lastdir)/results.csv" max_abs_err)
run -e "sum n=100000" --seed 43 --min-time 0.01 > /dev/null 2>&1; e3=$(csv_col "$(lastdir)/results.csv" max_abs_err)
if [ -n "$e1" ] && [ "$e1" = "$e2" ] && [ "$e1" != "$e3" ]; then ok "--seed reproduces inputs; another seed changes them"; else bad "seed reproducibility ($e1 / $e2 / $e3)"; fi
expect "cold mode runs" run -e "add n=100000" --mode cold --min-time 0.01
if [ "$(csv_col "$(lastdir)/results.csv" mode)" = cold ]; then ok "cold mode recorded in the row"; else bad "cold mode not in the row"; fi
"$VKB" run --out "$T/res" -e "rowsum rows=1..20 cols=100000..100019" --min-time 0.3 --timeout 0.5 --no-calibrate > "$T/int.log" 2>&1 &
pid=$!; sleep 8; kill -INT $pid; wait $pid
d=$(lastdir); rows=$(($(wc -l < "$d/results.csv") - 1))
if [ "$rows" -ge 1 ] && [ "$rows" -lt 400 ] && grep -q 'finished: interrupted' "$d/run.txt" && [ "$(csv_col "$d/results.csv" status | sort -u)" = PASS ]; then
    ok "Ctrl-C keeps every finished row ($rows rows) and says interrupted"; else bad "interrupted run ($rows rows)" "$T/int.log"; fi

echo "== regression gate: vkbench compare, export, harness/gate.sh selftest (issue 7)"
run -e "add n=2^18" -e "sum n=2^16" --seed 3 --min-time 0.05 --no-calibrate > /dev/null 2>&1; g1=$(lastdir)
expect_exit 0 "compare: a run against itself: exit 0" "$VKB" compare "$g1" "$g1" --out "$T/cmp0"
grep_out "compare: one launch a side is flagged (drift invisible)" 'a side holds one launch per case'
if ! grep -Eq '^\| (SLOWER|FASTER) ' "$T/out" && [ -s "$T/cmp0/verdicts.csv" ]; then ok "compare: a run against itself is never SLOWER/FASTER"; else bad "self-compare verdicts" "$T/out"; fi
if ! command -v gnuplot > /dev/null || { [ -s "$T/cmp0/ratios.png" ] && grep -q '<svg' "$T/cmp0/ratios.svg"; }; then
    ok "compare draws the ratio plot (PNG and SVG) with gnuplot"; else bad "compare plot missing" "$T/out"; fi
run -e "add n=2^18" -e "sum n=2^16" --seed 3 --min-time 0.05 --no-calibrate --shader binary=add_corrupt > /dev/null 2>&1
expect_exit 2 "compare: PASS -> FAIL is a correctness regression: exit 2" "$VKB" compare "$g1" "$(lastdir)" --out "$T/cmp1" --no-plot
grep_out "correctness regression named in the table" '\| REGRESSION \| baseline|REGRESSION'
mkdir -p "$T/other" "$T/trunc"; cp "$g1/samples.csv" "$T/other/"; cp "$g1/samples.csv" "$T/trunc/"
sed 's/llvmpipe/otherdevice/g' "$g1/results.csv" > "$T/other/results.csv"
expect_exit 3 "compare: device mismatch refuses timings: exit 3" "$VKB" compare "$g1" "$T/other" --out "$T/cmp2" --no-plot
grep_out "device mismatch names both devices" "device mismatch: baseline '[^']+' .* vs candidate 'otherdevice"
head -c -20 "$g1/results.csv" > "$T/trunc/results.csv"
expect_exit 3 "compare: truncated baseline: exit 3" "$VKB" compare "$T/trunc" "$g1" --out "$T/cmp3" --no-plot
grep_out "truncated baseline: reported with file and line" "trunc/results.csv:[0-9]+: expected"
expect_exit 3 "compare: usage error: exit 3" "$VKB" compare onlyone
expect_exit 3 "run --slowdown with a bad spec: exit 3" "$VKB" run -e "add n=10" --slowdown add
"$VKB" export --format gbench "$g1" > "$T/gb.json" 2> "$T/out"
if grep -q '"benchmarks": \[' "$T/gb.json" && grep -q '"aggregate_name": "median"' "$T/gb.json" && grep -q '"run_type": "iteration"' "$T/gb.json"; then
    ok "export: Google Benchmark JSON with repetitions and aggregates"; else bad "gbench export" "$T/gb.json"; fi
if command -v python3 > /dev/null; then
    if python3 -c 'import json, sys; d = json.load(open(sys.argv[1])); b = d["benchmarks"]; assert d["context"]["date"] and b
assert all(k in x for x in b for k in ("name", "run_name", "iterations", "real_time", "cpu_time", "time_unit"))
assert {x.get("aggregate_name") for x in b} >= {"mean", "median", "stddev"}' "$T/gb.json" > "$T/out" 2>&1; then
        ok "export: the JSON parses (python3) and every entry has the Google Benchmark fields"; else bad "gbench JSON check" "$T/out"; fi
else echo "skip - gbench JSON parse check (no python3)"; fi
# The small self-test: 2 A/A and 2 injected comparisons, 3 launches per side. A 3x slowdown: on a loaded
# 2-core lavapipe the A/A minimum detectable effect (80% power) was measured at 50-100%, and a 2x one was
# missed in 2 of 2 comparisons once; the GPU run injects 5%.
VKB=$VKB SUITE=tests/gate_selftest.suite K=2 ROUNDS=5 SLOW=add=2.0 MIN_US=0 sh harness/gate.sh selftest "$T/selftest" > "$T/out" 2>&1
grep_out "gate selftest: no false SLOWER in the A/A comparisons" '^aa_false_slower: 0$'
grep_out "gate selftest: the injected 3x slowdown is caught" '^inj_detected: [1-9][0-9]*/[0-9]'
if "$VKB" csv "$T/selftest/runs/S0/run1/results.csv" kernel note | grep -Eq "^add$(printf '\t')slowdown pc.slow=[0-9]+: [0-9.]+x achieved"; then
    ok "gate selftest: the achieved slowdown factor is recorded in the row's note"; else bad "slowdown note missing"; fi

echo "== what a newcomer meets: make, results/, list, report from anywhere, plots (issue 11)"
# make on a host missing a package (dpkg-query and id faked on PATH): the exact apt-get line, nothing compiled.
mkdir -p "$T/fakebin"
printf '#!/bin/sh\nfor a; do p=$a; done\n[ "$p" = libgsl-dev ] && exit 1\nexec dpkg-query "$@"\n' > "$T/fakebin/dpkg-query"
sed -i "s|exec dpkg-query|exec $(command -v dpkg-query)|" "$T/fakebin/dpkg-query"
printf '#!/bin/sh\necho 1000\n' > "$T/fakebin/id"
chmod +x "$T/fakebin/dpkg-query" "$T/fakebin/id"
expect_exit 2 "make with a package missing (not root): stops" env PATH="$T/fakebin:$PATH" make --no-print-directory BUILD="$T/fresh"
if grep -q '^  apt-get install -y libgsl-dev$' "$T/out" && ! grep -q '^  CC ' "$T/out"; then
    ok "make with a package missing: prints the exact apt-get line before compiling anything"; else bad "make deps line" "$T/out"; fi
if git ls-files --error-unmatch results/README.md > /dev/null 2>&1 && grep -q 'results.csv' results/README.md; then
    ok "results/README.md is in the repository and says what a run writes"; else bad "results/README.md missing"; fi
"$VKB" list > "$T/out" 2>&1
nk=$(grep -c '^[a-z_0-9]* *axes:' "$T/out"); nv=$(grep -c 'modes: hot, cold, rotate$' "$T/out")
if [ "$nk" -gt 20 ] && [ "$nk" = "$nv" ] && grep -q 'variants: dot, int;' "$T/out" && grep -q 'variants: tiled, naive,' "$T/out" &&
   grep -q 'coopmat_f256_emu' "$T/out"; then ok "list: every kernel ($nk) with its variants and modes"; else bad "list variants ($nk kernels, $nv variant lines)" "$T/out"; fi
# The smoke run's report, written from another directory: the templates are found from the executable.
sd=$(dirname "$(grep -l 'suites/smoke.suite' "$T"/res/*/run.txt | head -n 1)")
rm -rf "$T/away" && mkdir -p "$T/away" && cp "$sd"/results.csv "$sd"/samples.csv "$sd"/run.txt "$T/away/"
vkb_abs=$(cd "$(dirname "$VKB")" && pwd)/vkbench
(cd /tmp && "$vkb_abs" report "$T/away") > "$T/out" 2>&1
nplots=0
for p in "$T"/away/plots/*.svg "$T"/away/plots/*.png; do [ -s "$p" ] && [ "$(wc -c < "$p")" -gt 1000 ] && nplots=$((nplots + 1)); done
if [ "$nplots" -ge 8 ] && ! grep -q 'WARNING' "$T/out" && ! grep -q 'not rendered' "$T/away/report.md"; then
    ok "report run from /tmp renders the plots ($nplots SVG/PNG), no warning"; else bad "report from /tmp ($nplots plots)" "$T/out"; fi
expect "report --verify after the plot changes: every number accounted for" "$VKB" report --verify "$T/away"
mkdir -p "$T/bin" && cp "$VKB" "$T/bin/vkbench"
"$T/bin/vkbench" report "$T/away" > "$T/out" 2>&1
if grep -q 'WARNING: [0-9]* plots not rendered: the gnuplot templates were not found in' "$T/out" &&
   grep -q 'not rendered here (the gnuplot templates were not found' "$T/away/report.md"; then
    ok "report without templates: a WARNING on stderr naming where it looked, and the report says so"; else bad "missing templates are silent" "$T/out"; fi
"$VKB" report "$T/away" > /dev/null 2>&1
if csv_col "$T/away/results.csv" power_mean_W gpu_temp_max_C cpu_temp_max_C | grep -qv "^NA$(printf '\t')NA$(printf '\t')NA$"; then
    if [ -s "$T/away/plots/power-a.svg" ]; then ok "power plot drawn (sensors present)"; else bad "power plot missing though measured"; fi
elif grep -q '^Power and temperature over the run, run A: not drawn: no power or temperature was measured in this run' "$T/away/report.md" &&
     ! ls "$T"/away/plots/power-a.* > /dev/null 2>&1; then ok "no sensor: the power plot is omitted with a sentence saying why"
else bad "power plot without a sensor" "$T/away/report.md"; fi
if ! grep -Eq '[0-9]e[+-][0-9]' "$T/away/report.md"; then ok "report tables: one notation per column (no 1.2e+03 beside 1200)"
else bad "exponent notation in report.md" "$T/away/report.md"; fi
# The roofline's groups and marks: the data file holds one block per family, then the compute-bound rows with
# the roof each is held to; synthetic rows on the matrix units must be held to coopmat_flop_per_s, others to FMA.
if command -v python3 > /dev/null; then
    rm -rf "$T/mu" && mkdir -p "$T/mu" && cp "$T/away/samples.csv" "$T/away/run.txt" "$T/mu/"
    python3 - "$T/away/results.csv" "$T/mu/results.csv" <<'EOF'
import csv, sys
rows = list(csv.reader(open(sys.argv[1]))); ix = {n: i for i, n in enumerate(rows[0])}
done = set()
for r in rows[1:]:
    r[ix['coopmat_flop_per_s']] = '%.6g' % (float(r[ix['fma_flop_per_s']]) * 4) if r[ix['fma_flop_per_s']] != 'NA' else '1e12'
    if r[ix['status']] == 'PASS' and r[ix['kernel']] == 'matmul' and r[ix['dtype']] == 'f16' and len(done) < 2 and r[ix['params']] not in done:
        done.add(r[ix['params']])   # compute-bound on the matrix units: intensity 1e4 FLOP/B, 10% of the roof
        r[ix['variant']] = 'coopmat' if len(done) == 1 else 'coopmat_f_emu'
        r[ix['bytes']] = '1000'; r[ix['flops']] = '1e7'
        r[ix['flop_per_s']] = '%.6g' % (float(r[ix['coopmat_flop_per_s']]) * 0.1)
csv.writer(open(sys.argv[2], 'w'), lineterminator='\n').writerows(rows)
EOF
    "$VKB" report "$T/mu" > "$T/out" 2>&1
    mu=$(grep -c '| matrix units |' "$T/mu/report.md"); emu=$(grep -E '^\| matmul \|' "$T/mu/report.md" | grep -c '| FMA |')
    if [ "$mu" = 1 ] && [ "$emu" -ge 1 ] && grep -q '^| matmul | .* | 10 |$' "$T/mu/report.md" && [ -s "$T/mu/plots/roofline-a.svg" ] &&
       grep -q 'matmul on matrix units' "$T/mu/plots/roofline-a.dat" && "$VKB" report --verify "$T/mu" > "$T/out" 2>&1; then
        ok "roofline: coopmat matmul held to the matrix-unit roof (10% of it), its _emu twin to FMA; plot and verify clean"
    else bad "roofline roofs ($mu on matrix units, $emu matmul on FMA)" "$T/mu/report.md"; fi
else echo "skip - roofline matrix-unit marking (no python3)"; fi

echo
echo "$pass passed, $fail failed"
[ "$fail" = 0 ]
