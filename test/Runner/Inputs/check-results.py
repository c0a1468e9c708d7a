"""Checks a roofline-run --json file: the documented keys, the expected
status of each variant, and that the derived numbers follow from the
measured median (docs/roofline-run.md).

check-results.py FILE NAME=STATUS ...
"""
import json
import math
import statistics
import sys

doc = json.load(open(sys.argv[1]))
want = dict(a.split("=", 1) for a in sys.argv[2:])
errors = []
for key in ("version", "tool", "machine", "seed", "timing", "runs", "failed"):
    if key not in doc:
        errors.append("top-level key %r missing" % key)
assert doc["version"] == 1 and doc["tool"] == "roofline-run"
seen = {}


def check_rounds(run):
    """Timed in rounds: each time is the median of the rounds' medians,
    each speedup the median (and range) of the ratios within a round."""
    rounds = doc["timing"].get("rounds", 1)
    timed = {v["name"]: v for v in run["variants"]
             if v["status"] == "ok" and v.get("time")}
    for v in timed.values():
        r = v["time"].get("rounds_s")
        if r is None or len(r) != rounds:
            errors.append("%s: rounds_s %r, want %d rounds" % (v["name"], r, rounds))
            return
        if not math.isclose(v["time"]["median_s"], statistics.median(r), rel_tol=1e-9):
            errors.append("%s: median_s is not the rounds' median" % v["name"])
    for key, base in (("speedup_vs_reference", "naive"), ("speedup_vs_baseline", "openblas")):
        b = timed.get(base)
        for v in timed.values():
            if b is None or (key == "speedup_vs_baseline" and v["name"].startswith("cu")):
                continue
            ratios = [x / y for x, y in zip(b["time"]["rounds_s"], v["time"]["rounds_s"])]
            if not math.isclose(v[key], statistics.median(ratios), rel_tol=1e-9):
                errors.append("%s: %s %r is not the median of the per-round ratios %r"
                              % (v["name"], key, v[key], ratios))
            if v[key + "_range"] is None or not all(
                    math.isclose(a, c, rel_tol=1e-9)
                    for a, c in zip(v[key + "_range"], (min(ratios), max(ratios)))):
                errors.append("%s: %s_range %r, want [%r, %r]"
                              % (v["name"], key, v[key + "_range"], min(ratios), max(ratios)))


for run in doc["runs"]:
    check_rounds(run)
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
        t, p = v["time"], v.get("predicted")
        if not (t["min_s"] <= t["q1_s"] <= t["median_s"] <= t["q3_s"] <= t["max_s"]):
            errors.append("%s: times out of order: %r" % (v["name"], t))
        if t["reps"] < doc["timing"]["reps"]:
            errors.append("%s: %d reps < --reps" % (v["name"], t["reps"]))
        if v["check"]["bad"] != 0 or v["check"]["checked"] == 0:
            errors.append("%s: ok with a bad check %r" % (v["name"], v["check"]))
        # No exact prediction (the manifest's why_not): no derived numbers.
        if p is None:
            if v["gflops"] is not None or v["gbps"] is not None:
                errors.append("%s: a speed without a prediction" % v["name"])
            continue
        def close(a, b):
            return math.isclose(a, b, rel_tol=1e-9)
        if not close(v["gflops"], p["flops"] / t["median_s"] / 1e9):
            errors.append("%s: gflops != flops / median" % v["name"])
        if not close(v["gbps"], p["bytes_compulsory"] / t["median_s"] / 1e9):
            errors.append("%s: gbps != bytes / median" % v["name"])
        if not close(v["percent_of_bound"], 100 * v["bound_s"] / t["median_s"]):
            errors.append("%s: percent != bound / median" % v["name"])
for name, status in want.items():
    if seen.get(name) != status:
        errors.append("%s: status %r, want %r" % (name, seen.get(name), status))
if doc["failed"] != any(s not in ("ok", "skipped") for s in seen.values()):
    errors.append("top-level 'failed' disagrees with the statuses")
if errors:
    sys.exit("\n".join(errors))
print("results ok: " + ", ".join("%s=%s" % kv for kv in sorted(seen.items())))
