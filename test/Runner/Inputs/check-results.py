"""Checks a roofline-run --json file: the documented keys, the expected
status of each variant, and that the derived numbers follow from the
measured median (docs/roofline-run.md).

check-results.py FILE NAME=STATUS ...
"""
import json
import math
import sys

doc = json.load(open(sys.argv[1]))
want = dict(a.split("=", 1) for a in sys.argv[2:])
errors = []
for key in ("version", "tool", "machine", "seed", "timing", "runs", "failed"):
    if key not in doc:
        errors.append("top-level key %r missing" % key)
assert doc["version"] == 1 and doc["tool"] == "roofline-run"
seen = {}
for run in doc["runs"]:
    for key in ("unit", "kind", "sizes", "seed", "variants", "not_emitted", "failed"):
        if key not in run:
            errors.append("run key %r missing" % key)
    for v in run["variants"]:
        seen[v["name"]] = v["status"]
        for key in ("name", "baseline", "status", "threads", "bound_s", "gflops",
                    "gbps", "percent_of_bound", "speedup_vs_reference",
                    "speedup_vs_baseline"):
            if key not in v:
                errors.append("%s: key %r missing" % (v["name"], key))
        if v["status"] != "ok":
            if v.get("gflops") is not None:
                errors.append("%s is %s but has a speed" % (v["name"], v["status"]))
            if not v.get("reason"):
                errors.append("%s is %s without a reason" % (v["name"], v["status"]))
            continue
        t, p = v["time"], v["predicted"]
        if not (t["min_s"] <= t["q1_s"] <= t["median_s"] <= t["q3_s"] <= t["max_s"]):
            errors.append("%s: times out of order: %r" % (v["name"], t))
        if t["reps"] < doc["timing"]["reps"]:
            errors.append("%s: %d reps < --reps" % (v["name"], t["reps"]))
        def close(a, b):
            return math.isclose(a, b, rel_tol=1e-9)
        if not close(v["gflops"], p["flops"] / t["median_s"] / 1e9):
            errors.append("%s: gflops != flops / median" % v["name"])
        if not close(v["gbps"], p["bytes_compulsory"] / t["median_s"] / 1e9):
            errors.append("%s: gbps != bytes / median" % v["name"])
        if not close(v["percent_of_bound"], 100 * v["bound_s"] / t["median_s"]):
            errors.append("%s: percent != bound / median" % v["name"])
        if v["check"]["bad"] != 0 or v["check"]["checked"] == 0:
            errors.append("%s: ok with a bad check %r" % (v["name"], v["check"]))
for name, status in want.items():
    if seen.get(name) != status:
        errors.append("%s: status %r, want %r" % (name, seen.get(name), status))
if doc["failed"] != any(s not in ("ok", "skipped") for s in seen.values()):
    errors.append("top-level 'failed' disagrees with the statuses")
if errors:
    sys.exit("\n".join(errors))
print("results ok: " + ", ".join("%s=%s" % kv for kv in sorted(seen.items())))
