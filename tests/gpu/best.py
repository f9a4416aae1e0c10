#!/usr/bin/env python3
"""What a sweep says, per problem: the fastest PASS configuration next to the default's row, so that defaults are
set from the data (sh tests/gpu/run.sh sweep NAME writes OUT/res/sw_NAME.tsv).

Usage: python3 tests/gpu/best.py SW.tsv...   (columns: kernel variant params mode status time_median_s ...)
A problem is the kernel with its size axes (shape, n, m, k, dtype, type) and mode; every other axis, and the variant
when it is not the kernel's default, is configuration. Rows that did not PASS are counted, never ranked.
"""
import sys
from collections import defaultdict

SIZE = ("shape", "n", "m", "k", "dtype", "type", "mode")


def main():
    if len(sys.argv) < 2:
        sys.exit("usage: best.py SW.tsv...")
    groups = defaultdict(list)
    for path in sys.argv[1:]:
        for line in open(path):
            f = line.rstrip("\n").split("\t")
            if len(f) < 6:
                continue
            kernel, variant, params, mode, status, t = f[:6]
            kv = dict(p.split("=", 1) for p in params.split() if "=" in p)
            kv["mode"] = mode
            prob = (kernel,) + tuple("%s=%s" % (k, kv[k]) for k in SIZE if k in kv)
            conf = " ".join("%s=%s" % (k, v) for k, v in kv.items() if k not in SIZE)
            groups[prob].append((status, float(t) if t not in ("", "NA") else None, conf, variant))
    for prob in sorted(groups):
        rows = groups[prob]
        ok = [r for r in rows if r[0] == "PASS" and r[1] is not None]
        bad = len(rows) - len(ok)
        dflt = [r for r in ok if r[2] == ""]
        line = " ".join(prob)
        if not ok:
            print("%-60s no PASS row (%d rows: %s)" % (line, len(rows), ", ".join(sorted({r[0] for r in rows}))))
            continue
        best = min(ok, key=lambda r: r[1])
        d = min(dflt, key=lambda r: r[1]) if dflt else None
        print("%-60s best %9.2f us  [%s] %s%s%s" % (
            line, best[1] * 1e6, best[3], best[2] or "(default)",
            "  | default %.2f us [%s], best/default %.3f" % (d[1] * 1e6, d[3], best[1] / d[1]) if d else "  | no default row",
            "  | %d not PASS" % bad if bad else ""))


if __name__ == "__main__":
    main()
