#!/usr/bin/env python3
"""Run-to-run agreement of two runs of the same suite (session 21): per row PASS in both, |log(median B / median A)|
in percent; its median, p90, p95, max and the rows over 2% and 5%, the eight largest with both stop reasons, and
each run's rows stopped by the timeout, restarted at a speed-up, re-timed for a slow clock, and read under 0.9x
the reference clock. Usage: python3 tests/gpu/spread.py RUN_A RUN_B (run directories holding results.csv)."""
import csv, math, sys

def load(d):
    return {(r['kernel'], r['params']): r for r in csv.DictReader(open(d + '/results.csv'))}

def counts(rows):
    def ref(r):   # "ok: 1980 of 2008 MHz" -> 2008
        f = r['clock_check'].split(' of ')
        return float(f[1].split()[0]) if len(f) > 1 else math.nan
    low = sum(1 for r in rows if r['clock_MHz'] not in ('', 'NA') and float(r['clock_MHz']) < 0.9 * ref(r))
    return ('timeouts %d, speed-ups %d, re-timed %d, clock < 0.9x %d' % (
        sum(r['stop_reason'].startswith('timeout') for r in rows), sum('speed-up' in r['stop_reason'] for r in rows),
        sum('re-timed' in r['clock_check'] for r in rows), low))

a, b = load(sys.argv[1]), load(sys.argv[2])
ds = sorted((abs(math.log(float(b[k]['time_median_s']) / float(a[k]['time_median_s']))) * 100, k,
             a[k]['stop_reason'].split(';')[0], b[k]['stop_reason'].split(';')[0])
            for k in a if k in b and a[k]['status'] == 'PASS' == b[k]['status'])
n = len(ds)
q = lambda p: ds[min(n - 1, int(p * n))][0]
print('rows %d, |log ratio| %%: median %.2f p90 %.2f p95 %.2f max %.2f; over 2%%: %d, over 5%%: %d'
      % (n, q(.5), q(.9), q(.95), ds[-1][0], sum(d[0] > 2 for d in ds), sum(d[0] > 5 for d in ds)))
for d in ds[-8:]:
    print('  %6.2f%%  %s %s  (%s | %s)' % (d[0], d[1][0], d[1][1], d[2], d[3]))
print('A: ' + counts(a.values()))
print('B: ' + counts(b.values()))
