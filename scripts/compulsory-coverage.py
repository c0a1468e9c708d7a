#!/usr/bin/env python3
"""Nests whose compulsory bytes are missing ('?') at concrete sizes.

Issue 21: no affine nest of the lit suites or of PolyBench at LARGE may print
'?' for compulsory bytes. Two sets:
  polybench  the PolyBench-style kernels of scripts/polybench_style.py (every
             kernel there) at PolyBench/C 4.2.1's LARGE sizes, one function
             each;
  lit        every C/C++ source under test/ analysed once as it is (no
             --param), counting only nests whose sizes all have values (a
             '?' because a size is symbolic is not a miss).
Prints each nest with '?' and its reason, the totals, and the tool's time.
Usage: scripts/compulsory-coverage.py [--tool build/bin/roofline-lint]
       [--set polybench,lit] [--out docs/results/compulsory-coverage.txt]
"""
import argparse, glob, json, os, subprocess, sys, tempfile, time

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from polybench_style import FUNCTIONS, EXTRA_FUNCTIONS  # noqa: E402

# PolyBench/C 4.2.1, LARGE_DATASET.
LARGE = {
    "mvt": dict(N=2000), "gemver": dict(N=2000),
    "2mm": dict(NI=800, NJ=900, NK=1100, NL=1200),
    "covariance": dict(M=1200, N=1400),
    "fdtd-2d": dict(TMAX=500, NX=1000, NY=1200),
    "syrk": dict(M=1000, N=1200), "trmm": dict(M=1000, N=1200),
    "seidel-2d": dict(TSTEPS=500, N=2000),
    "gemm": dict(NI=1000, NJ=1100, NK=1200),
    "atax": dict(M=1900, N=2100), "bicg": dict(M=1900, N=2100),
    "gesummv": dict(N=1300), "syr2k": dict(M=1000, N=1200),
    "lu": dict(N=2000), "jacobi-2d": dict(TSTEPS=500, N=1300),
    "heat-3d": dict(TSTEPS=500, N=120),
    "doitgen": dict(NQ=140, NR=150, NP=160),
    "3mm": dict(NI=800, NJ=900, NK=1000, NL=1100, NM=1200),
    "jacobi-1d": dict(TSTEPS=500, N=2000),
}

SYMBOLIC = ("have no value", "has no value", "without values", "no values")


def kernel_source(name, k, sizes):
    lines = ["#define %s %d" % kv for kv in sizes.items()]
    for a, dims in k["arrays"]:
        lines.append("double %s%s;" % (a, "".join("[%s]" % d for d in dims)))
    fn = name.replace("-", "_")
    lines.append("void kernel_%s(void) {\n%s%s\n}" %
                 (fn, k["scalars"], "".join(k["nests"])))
    return "\n".join(lines) + "\n"


def analyse(tool, path):
    t = time.perf_counter()
    r = subprocess.run([tool, "--format=json", path], capture_output=True,
                       text=True)
    dt = time.perf_counter() - t
    try:
        return json.loads(r.stdout), dt
    except json.JSONDecodeError:
        return None, dt


def misses(report, concrete_only):
    out, total = [], 0
    for n in report["nests"]:
        b = n.get("bytes", {})
        why = b.get("compulsory_why_not") or ""
        if concrete_only and b.get("compulsory") is None and \
                any(s in why for s in SYMBOLIC):
            continue
        total += 1
        if b.get("compulsory") is None:
            out.append((n["function"], n["line"], why))
    return out, total


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--tool", default="build/bin/roofline-lint")
    ap.add_argument("--set", default="polybench,lit")
    ap.add_argument("--out")
    args = ap.parse_args()
    sets = args.set.split(",")
    text = []
    emit = lambda s="": (print(s), text.append(s))
    root = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
    if "polybench" in sets:
        kernels = dict(FUNCTIONS, **EXTRA_FUNCTIONS)
        nests = bad = 0
        secs = 0.0
        with tempfile.TemporaryDirectory() as d:
            for name in sorted(kernels):
                sizes = LARGE[name]
                src = os.path.join(d, name.replace("-", "_") + ".c")
                open(src, "w").write(kernel_source(name, kernels[name], sizes))
                rep, dt = analyse(args.tool, src)
                secs += dt
                if rep is None:
                    emit(f"{name}: the tool gave no JSON")
                    continue
                m, t = misses(rep, False)
                nests += t
                bad += len(m)
                for fn, line, why in m:
                    emit(f"? {name} (LARGE) line {line}: {why}")
        emit(f"PolyBench-style kernels at LARGE: {len(kernels)} kernels, "
             f"{nests} nests, {bad} with '?' compulsory bytes "
             f"(tool time {secs:.1f} s in all)")
    if "lit" in sets:
        files = sorted(glob.glob(os.path.join(root, "test", "**", "*.c"),
                                 recursive=True) +
                       glob.glob(os.path.join(root, "test", "**", "*.cpp"),
                                 recursive=True))
        nests = bad = 0
        for f in files:
            if "/unit/" in f:
                continue
            rep, _ = analyse(args.tool, f)
            if rep is None:
                continue
            m, t = misses(rep, True)
            nests += t
            bad += len(m)
            for fn, line, why in m:
                emit(f"? {os.path.relpath(f, root)}:{line} ({fn}): {why}")
        emit(f"lit sources as they are: {nests} nests with concrete sizes, "
             f"{bad} with '?' compulsory bytes")
    if args.out:
        open(args.out, "w").write("\n".join(text) + "\n")


if __name__ == "__main__":
    main()
