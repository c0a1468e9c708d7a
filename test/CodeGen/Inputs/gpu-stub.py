#!/usr/bin/env python3
"""Writes stand-ins for what scripts/gpu-check.py runs on a GPU machine, so
that a test can drive its report and exit code without a device or a build:
WORK/gpu-bench and DIR/<unit>/cuda_driver, small Python programs that answer
as the real ones would.

  gpu-stub.py DIR WORK MODE
    nodevice  gpu-bench probe says "no CUDA device"
    norows    gpu-bench time prints no row (a crash that exits 0)
    slow      every variant at half its library's speed, gemv and the fused
              chain at a quarter of the DRAM roof (every target missed)
    fast      every variant as fast as its library, memory-bound ones at 95%
              of the roof (every target met)
    wrong     as fast, but one check of each unit fails
"""

import json
import os
import stat
import sys

BENCH = r'''#!/usr/bin/env python3
import json, sys
MODE, UNITS = %r, %r
ROOF = 4000.0
cmd = sys.argv[1]
if cmd == "probe":
    if MODE == "nodevice":
        print("no CUDA device: stub"); sys.exit(3)
    print(json.dumps({"device": "stub GPU", "sm": 90, "sms": 132, "l2_bytes": 50331648,
                      "memory_bytes": 1 << 37}))
    sys.exit(0)
if cmd == "roof":
    print(json.dumps({"roof": "cudaMemcpy-d2d", "bytes": 2 << 30, "median_s": (2 << 30) / ROOF / 1e9,
                      "min_s": 0, "max_s": 0, "gbytes_per_s": ROOF}))
    sys.exit(0)
unit = sys.argv[2]
sizes = dict(a.split("=") for a in sys.argv[3:] if not a.startswith("--"))
sizes = {k: int(v) for k, v in sizes.items()}
if MODE == "norows":
    sys.exit(0)
variants, base = UNITS[unit]
mem = "M" not in sizes or "N" not in sizes
for name, kind in [(v, "variant") for v in variants] + [(b, "baseline") for b in base]:
    lib = 1e-3
    t = lib if MODE != "slow" or kind == "baseline" else 2 * lib
    gbs = (0.95 if MODE != "slow" else 0.25) * ROOF
    print(json.dumps({"unit": unit, "variant": name, "kind": kind, "sizes": sizes,
                      "median_s": t, "min_s": t, "max_s": t, "reps": 2, "copies": 3,
                      "flops": 0 if mem else 2.0 * sizes["M"] * sizes["N"] * sizes["K"],
                      "bytes": gbs * 1e9 * t, "gflops": 0, "gbytes_per_s": gbs, "note": ""}))
'''

DRIVER = r'''#!/usr/bin/env python3
import json, sys
MODE, UNIT, VARIANTS = %r, %r, %r
for i, v in enumerate(VARIANTS):
    ok = not (MODE == "wrong" and i == 0)
    r = {"unit": UNIT, "variant": v, "ok": ok, "checked": 1, "bad": 0 if ok else 1}
    if not ok:
        r["first"] = "C[0] = 2, want 1"
    print(json.dumps(r))
'''


def executable(path, text):
    with open(path, "w") as f:
        f.write(text)
    os.chmod(path, os.stat(path).st_mode | stat.S_IXUSR)


def main():
    d, work, mode = sys.argv[1:4]
    os.makedirs(work, exist_ok=True)
    with open(os.path.join(d, "units.json")) as f:
        names = json.load(f)["units"]
    units = {}
    for n in names:
        with open(os.path.join(d, n, "manifest.json")) as f:
            m = json.load(f)
        cuda = [v["name"] for v in m["variants"] if v.get("target") == "cuda" and "file" in v]
        if not cuda:
            continue
        base = {"gemm": ["cublasSgemm", "cublasGemmEx-bf16", "cublasGemmEx-int8"],
                "gemv": ["cublasSgemv"]}.get(m["kind"], [])
        units[n] = (cuda, base)
        executable(os.path.join(d, n, "cuda_driver"),
                   DRIVER % (mode, n, ["cuda_" + v.replace("-", "_") for v in cuda]))
    executable(os.path.join(work, "gpu-bench"), BENCH % (mode, units))


if __name__ == "__main__":
    main()
