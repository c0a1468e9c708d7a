#!/usr/bin/env python3
"""A/B of the f32 blocked gemm driver's loop order and cache blocks.

Builds scripts/bench-gemm-blocks-ab.cpp three times: against REV's
kernels/runtime/roofline_gemm.h ("base", default HEAD), against the working
tree's ("new"), and on OpenBLAS (OPENBLAS_CORETYPE and OPENBLAS_L2_SIZE
unset for its process only, one thread; the core it picked is printed).
Then, for each shape, times every side once per round, the order rotating,
each side a fresh process (median of its calls), and prints each side's
median per-round ratio to OpenBLAS with the min..max over rounds: on a
shared machine compare the ratios, not the rates.

  scripts/bench-gemm-blocks-ab.py [--rev REV] [--rounds 7]
      [--shapes 2048x2048x2048,...] [--sides base:120:1024:512,new:120:512:512]
"""
import argparse
import os
import statistics
import subprocess
import sys
import tempfile

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))


def build(work, name, include, extra):
    out = os.path.join(work, name)
    subprocess.run(["c++", "-std=c++17", "-O3", "-march=native", "-fopenmp",
                    "-I" + include, "-I" + os.path.join(ROOT, "kernels", "runtime"),
                    os.path.join(ROOT, "scripts", "bench-gemm-blocks-ab.cpp"), "-o", out]
                   + extra, check=True)
    return out


def blas_env():
    env = dict(os.environ, OPENBLAS_NUM_THREADS="1", OMP_NUM_THREADS="1")
    env.pop("OPENBLAS_CORETYPE", None)
    env.pop("OPENBLAS_L2_SIZE", None)
    return env


def rate(binary, shape, blocks, reps, env=None):
    r = subprocess.run([binary] + shape + blocks + [str(reps)], capture_output=True,
                       text=True, env=env or dict(os.environ, OMP_NUM_THREADS="1"))
    if r.returncode != 0:
        sys.exit("%s %s: %s" % (binary, " ".join(shape), r.stderr.strip()))
    return float(r.stdout.split()[-1]), r.stderr.strip()


def main():
    ap = argparse.ArgumentParser(description=__doc__,
                                 formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--rev", default="HEAD")
    ap.add_argument("--rounds", type=int, default=7)
    ap.add_argument("--reps", type=int, default=5)
    ap.add_argument("--shapes", default="1024x1024x1024,2048x2048x2048,256x2304x768,1000x1000x1000")
    ap.add_argument("--sides", default="base:120:1024:512,new:120:512:512")
    args = ap.parse_args()
    work = tempfile.mkdtemp(prefix="rl-blocks-ab-")
    os.makedirs(os.path.join(work, "base"))
    with open(os.path.join(work, "base", "roofline_gemm.h"), "w") as f:
        f.write(subprocess.run(["git", "-C", ROOT, "show",
                                args.rev + ":kernels/runtime/roofline_gemm.h"],
                               capture_output=True, text=True, check=True).stdout)
    bins = {"base": build(work, "base.x", os.path.join(work, "base"), []),
            "new": build(work, "new.x", os.path.join(ROOT, "kernels", "runtime"), []),
            "blas": build(work, "blas.x", os.path.join(ROOT, "kernels", "runtime"),
                          ["-DUSE_BLAS", "-lopenblas"])}
    sides = [s.split(":") for s in args.sides.split(",")] + [["blas"]]
    print("gemm blocks A/B: base = %s's roofline_gemm.h, new = the working tree's; %d rounds, "
          "%d calls a side a round" % (args.rev, args.rounds, args.reps))
    for shape in args.shapes.split(","):
        dims = shape.split("x")
        ratios = {":".join(s): [] for s in sides}
        for r in range(args.rounds):
            order = sides[r % len(sides):] + sides[:r % len(sides)]
            got = {}
            for s in order:
                env = blas_env() if s[0] == "blas" else None
                got[":".join(s)], note = rate(bins[s[0]], dims, s[1:], args.reps, env)
                if s[0] == "blas" and r == 0:
                    print("  %s (%s)" % (shape, note))
            for k, v in got.items():
                ratios[k].append(v / got["blas"])
        for k, v in ratios.items():
            if k != "blas":
                print("  %-16s %-20s / OpenBLAS %.3f [%.3f .. %.3f]" %
                      (shape, k, statistics.median(v), min(v), max(v)))
        sys.stdout.flush()


if __name__ == "__main__":
    main()
