#!/usr/bin/env python3
"""Runs the emitted CUDA kernels on the CPU and checks them (docs/cuda.md,
"Running the kernels without a GPU").

Every cuda_<variant>.cu an `roofline-lint --emit --target=cuda` wrote under
DIR is compiled as C++ with g++ -DRL_CUDA_SHIM (runtime/roofline_cuda_shim.h:
threads as fibers, __syncthreads and warp collectives as barriers, cp.async,
ldmatrix and mma.sync emulated from their PTX fragment layouts), linked with
the unit's check driver (cuda_driver.cpp, reference.cpp) and run with
`check` at sizes that are and are not multiples of every tile, against the
float64 reference within the manifest's tolerance. Variants whose launcher
picks a kernel per architecture (warptiled, bf16, int8-mma) are checked as
the code of sm_75, sm_86 and sm_90 would run (RL_SHIM_CC), and wgmma also
as sm_90a code (RL_SHIM_SM90A=1: its TMA loads, mbarriers and wgmma
emulated); the others once.

A variant that fails a check, does not compile, or is missing from the
driver's output fails the run (exit 1).

  scripts/cuda-shim-check.py --dir DIR [--jobs 2] [--cc 75,86,90,90a] [--quick]
      [--unit NAME ...] [--results FILE]
"""

import argparse
import concurrent.futures
import json
import os
import shutil
import subprocess
import sys
import time

# Sizes for the checks: 1, primes, non-multiples of the tiles (8, 16, 32, 64,
# 128), at least 3 K steps of every kernel (a missing barrier between steps
# shows only then), and shapes where each data path is taken: the 16-byte
# chunk paths need N and K multiples of 4 (f32), 8 (bf16) or 16 (int8).
GEMM_SHAPES = [(1, 1, 1), (7, 5, 3), (33, 17, 9), (129, 136, 200), (130, 129, 256)]
GEMM_QUICK = [(33, 17, 9), (129, 136, 200)]
GEMV_SHAPES = [(1, 1), (33, 100), (257, 1000), (64, 4096)]
ELEM_SIZES = [1, 1000, 4099]
# Variants whose launcher chooses a kernel by the code's architecture.
PER_ARCH = {"warptiled", "bf16", "int8-mma", "wgmma"}
# Variants with an sm_90a path (cc "90a").
SM90A = {"wgmma"}


def sh(cmd, env=None, timeout=1800):
    """cmd's result; bytes that are not UTF-8 (a kernel printing what it read
    out of bounds) and a timeout are reported, not raised: the report must
    never come out empty."""
    try:
        return subprocess.run(cmd, capture_output=True, text=True, errors="replace",
                              env=env, timeout=timeout)
    except subprocess.TimeoutExpired:
        return subprocess.CompletedProcess(cmd, -1, "", "timed out after %d s" % timeout)


def shapes(m, quick):
    names = [s["name"] for s in m["sizes"]]
    fixed = {s["name"]: s["value"] for s in m["sizes"] if s.get("fixed")}
    if set(names) == {"M", "N", "K"}:
        out = [dict(zip("MNK", s)) for s in (GEMM_QUICK if quick else GEMM_SHAPES)]
    elif set(names) == {"M", "K"}:
        out = [dict(zip("MK", s)) for s in (GEMV_SHAPES[1:3] if quick else GEMV_SHAPES)]
    elif len(names) == 1 and all(len(a["shape"]) <= 1 for a in m["args"]):
        # One size, vectors only: an elementwise chain (a size of a 3-D
        # stencil stays small).
        out = [{names[0]: n} for n in (ELEM_SIZES[1:] if quick else ELEM_SIZES)]
    else:
        out = [{x: 37 for x in names}]
    # Fixed sizes (constants of the source) keep their value.
    return [dict(s, **fixed) for s in out]


def compile_unit(cxx, d, rt, cus, jobs):
    """Objects of one unit's variants under the shim, its driver linked."""
    def one(src, out, shim):
        cmd = [cxx, "-std=c++17", "-O1", "-I", rt, "-c", src, "-o", out]
        if shim:
            cmd[1:1] = ["-DRL_CUDA_SHIM", "-x", "c++"]
        p = sh(cmd)
        return out, p.returncode == 0, p.stderr
    work = [(os.path.join(d, cu), os.path.join(d, cu[:-3] + ".shim.o"), True) for cu in cus]
    work += [(os.path.join(d, s + ".cpp"), os.path.join(d, s + ".shim-host.o"), False)
             for s in ("reference", "cuda_driver")]
    with concurrent.futures.ThreadPoolExecutor(max_workers=max(1, jobs)) as ex:
        res = list(ex.map(lambda w: one(*w), work))
    bad = [(o, e) for o, ok, e in res if not ok]
    if bad:
        return None, bad
    exe = os.path.join(d, "cuda_driver_shim")
    p = sh([cxx, "-o", exe] + [o for o, _, _ in res])
    if p.returncode:
        return None, [(exe, p.stderr)]
    return exe, []


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--dir", required=True)
    ap.add_argument("--jobs", type=int, default=2)
    ap.add_argument("--cc", default="75,86,90,90a")
    ap.add_argument("--quick", action="store_true", help="two shapes per unit kind")
    ap.add_argument("--unit", action="append", help="only these units")
    ap.add_argument("--results", help="also write the report here")
    a = ap.parse_args()
    cxx = shutil.which("g++") or shutil.which("c++")
    if not cxx:
        print("SKIPPED: no g++")
        return 77
    ccs = [c for c in a.cc.split(",") if c]
    base_cc = "86" if "86" in ccs else ccs[0]
    rt = os.path.join(a.dir, "runtime")
    with open(os.path.join(a.dir, "units.json")) as f:
        units = json.load(f)["units"]
    t0 = time.time()
    lines, failed, checks, variants = [], 0, 0, 0
    for u in units:
        if a.unit and u not in a.unit:
            continue
        d = os.path.join(a.dir, u)
        with open(os.path.join(d, "manifest.json")) as f:
            m = json.load(f)
        cuda = [v for v in m["variants"] if v.get("target") == "cuda" and "file" in v]
        if not cuda:
            continue
        variants += len(cuda)
        exe, errors = compile_unit(cxx, d, rt, [v["file"] for v in cuda], a.jobs)
        if not exe:
            failed += 1
            for o, e in errors:
                lines.append("%s: %s FAILED to compile under the shim\n%s" % (u, o, e[-2000:]))
            continue
        for seed, s in enumerate(shapes(m, a.quick), 1):
            for cc in ccs:
                if cc == "90a":
                    names = [v["name"] for v in cuda if v["name"] in SM90A]
                else:
                    names = [v["name"] for v in cuda if cc == base_cc or v["name"] in PER_ARCH]
                if not names:
                    continue
                want = {"cuda_" + n.replace("-", "_"): n for n in names}
                env = dict(os.environ, RL_SHIM_CC=cc.rstrip("a"),
                           RL_SHIM_SM90A="1" if cc.endswith("a") else "0")
                p = sh([exe, "check", "--seed=%d" % seed, "--only=" + ",".join(want)]
                       + ["%s=%d" % kv for kv in sorted(s.items())], env=env)
                got = {}
                for l in p.stdout.splitlines():
                    try:
                        r = json.loads(l) if l.startswith("{") else {}
                    except ValueError:
                        r = {}  # a broken line: its variant has no result
                    if r.get("variant") in want:
                        got[r["variant"]] = r
                shape = " ".join("%s=%d" % kv for kv in sorted(s.items()))
                for dn, n in sorted(want.items()):
                    checks += 1
                    r = got.get(dn)
                    if r and r.get("ok"):
                        lines.append("%-22s %-11s sm_%s %-22s ok    max_ratio=%s"
                                     % (u, n, cc, shape, r.get("max_ratio")))
                        continue
                    failed += 1
                    why = (r.get("first") or r.get("error", "")) if r else \
                        ("no result (exit %d): %s" % (p.returncode, p.stderr.strip()[-400:]))
                    lines.append("%-22s %-11s sm_%s %-22s FAILED %s" % (u, n, cc, shape, why))
    head = ["# CUDA variants run on the CPU under roofline_cuda_shim.h (scripts/cuda-shim-check.py)",
            "# %d variants, %d checks (unit, variant, architecture the launcher chose for, "
            "sizes) in %.0f s" % (variants, checks, time.time() - t0)]
    text = "\n".join(head + lines) + "\nsummary: %d checks, %d failed\n" % (checks, failed)
    sys.stdout.write(text)
    if a.results:
        with open(a.results, "w") as f:
            f.write(text)
    return 1 if failed or checks == 0 else 0


if __name__ == "__main__":
    sys.exit(main())
