#!/usr/bin/env python3
"""compare-cache.py EXPECTED JSON TOLERANCE: each line of EXPECTED is
'function level bytes' (the misses x line size an LRU simulation counted);
the tool's predicted fetch_bytes of that level, summed over the function's
nests, must be within TOLERANCE (relative) of it."""
import json, sys

tol = float(sys.argv[3])
report = json.load(open(sys.argv[2]))
got = {}
for n in report["nests"]:
    for lv in n["cache"]["levels"]:
        k = (n["function"], lv["name"])
        got[k] = got.get(k, 0) + lv["fetch_bytes"]
bad = 0
for line in open(sys.argv[1]):
    fn, level, want = line.split()
    want = int(want)
    have = got.get((fn, level))
    err = None if have is None else (have - want) / want
    ok = err is not None and abs(err) <= tol
    bad += not ok
    print(f"{'ok' if ok else 'MISS'}: {fn} {level}: simulated {want}, "
          f"model {have and round(have)} ({err:+.1%})" if err is not None
          else f"MISS: {fn} {level}: no prediction")
sys.exit(1 if bad else 0)
