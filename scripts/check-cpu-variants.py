#!/usr/bin/env python3
"""Differential test of the CPU backend (issue 6): every emitted variant
against the reference in double precision.

Emits the nests of test/CodeGen/Inputs/variants.cpp and the seed kernels
with `roofline-lint --emit`, compiles every file with g++ (-Wall -Wextra
-Werror: the emitted code must be warning-free) and checks it with clang++
(-fsyntax-only, same warnings), links each unit's driver, then runs
`driver check` over a sweep of shapes per unit: size 1, primes, values that
are not multiples of any tile size (MR 14 and 6, NR 32 and 16, MC 336, KC
256, gemv 4 rows, generic tiles 32) and large ones. Micro-kernel variants
are also run with RL_ISA=avx512 (AVX-512 without VNNI or BF16), avx2 and
portable, so every instruction-set path is checked on this machine.

Inputs are random and non-zero (the seed is printed), outputs poisoned with
NaN; a variant passes a shape when every output element is within
atol + (rtol + rtol_per_term * terms) * magnitude of the reference.

  scripts/check-cpu-variants.py [--build build] [--out /tmp/rl-check]
      [--shapes 50] [--quick] [--results docs/results/cpu-variants-check.txt]
"""

import argparse
import collections
import concurrent.futures
import itertools
import json
import os
import random
import shutil
import subprocess
import sys
import time

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))

SOURCES = [
    "test/CodeGen/Inputs/variants.cpp",
    "kernels/gemm_512.cpp",
    "kernels/gemm_1024.cpp",
    "kernels/gemv.cpp",
    "kernels/fusion.cpp",
]

# Sizes that hit edges: 1, primes, and non-multiples of every tile size.
EDGE = [1, 2, 3, 5, 7, 11, 13, 15, 17, 19, 23, 29, 31, 33, 37, 41, 47, 53,
        61, 63, 65, 67, 97, 101, 127, 129, 131, 193, 199, 251, 257, 263, 337,
        339, 509, 521]


def sh(cmd, **kw):
    return subprocess.run(cmd, capture_output=True, text=True, **kw)


def formula_value(text, sizes):
    """Evaluates a manifest formula ("N^2*K + 3") at the sizes."""
    expr = text.replace("^", "**")
    return eval(expr, {"__builtins__": {}}, dict(sizes))


def elements(sizes, manifest):
    total = 0
    for a in manifest["args"]:
        n = 1
        for e in a["shape"]:
            n *= max(formula_value(e, sizes), 0)
        total += n
    return total


def work(sizes, manifest=None):
    """Iterations (from the manifest's formula) plus elements touched."""
    elems = 0
    if manifest is not None:
        for a in manifest["args"]:
            n = 1
            for e in a["shape"]:
                n *= max(formula_value(e, sizes), 0)
            elems += n
        if manifest.get("iterations"):
            return formula_value(manifest["iterations"], sizes) + elems
    w = 1
    for v in sizes.values():
        w *= max(v, 1)
    return w + elems


def shapes_for(manifest, count, rng, quick):
    """At least `count` shapes over the unit's free sizes."""
    sizes = manifest["sizes"]
    free = [s["name"] for s in sizes if not s["fixed"]]
    fixed = {s["name"]: s["value"] for s in sizes if s["fixed"]}
    if not free:
        return [dict(fixed)]
    budget = 6e7 if not quick else 4e6
    out, seen = [], set()

    def add(vals):
        d = dict(fixed)
        d.update(vals)
        key = tuple(sorted(d.items()))
        if key in seen or work(d, manifest) > budget:
            return False
        seen.add(key)
        out.append(d)
        return True

    n = len(free)
    # The diagonal, then every size's own sweep with the others small, then
    # random mixes; large shapes last.
    for v in EDGE:
        add({f: v for f in free})
    for f in free:
        for v in EDGE:
            add({g: (v if g == f else 7) for g in free})
    tries = 0
    while len(out) < count and tries < 5000:
        tries += 1
        add({f: rng.choice(EDGE) for f in free})
    # Nests with one or two free sizes run out of edge combinations: odd
    # sizes (non-multiples of every even tile) fill them up to `count`.
    tries = 0
    while len(out) < count and tries < 20000:
        tries += 1
        add({f: rng.choice(EDGE) if rng.random() < 0.3 else rng.randrange(3, 4096) | 1
             for f in free})
    # The two largest shapes (all free sizes equal) within the budget.
    added = 0
    for v in [1 << 20, 100003, 16411, 4099, 2053, 1031, 769, 521, 389, 257, 129]:
        d = dict(fixed)
        d.update({f: v for f in free})
        if added < 2 and work(d, manifest) <= (3e8 if not quick else 2e7) \
                and elements(d, manifest) <= 1e7 \
                and tuple(sorted(d.items())) not in seen:
            seen.add(tuple(sorted(d.items())))
            out.append(d)
            added += 1
    if quick:
        small = [s for s in out if work(s, manifest) <= budget][:6]
        return small
    return out


def compile_unit(unit_dir, cxx, clang, flags):
    """Compiles every .cpp of the unit; returns (objects, problems)."""
    problems, objs = [], []
    for f in sorted(os.listdir(unit_dir)):
        if not f.endswith(".cpp"):
            continue
        src = os.path.join(unit_dir, f)
        obj = src[:-4] + ".o"
        r = sh([cxx] + flags + ["-Wall", "-Wextra", "-Werror", "-c", src, "-o", obj],
               cwd=unit_dir)
        if r.returncode != 0:
            problems.append("%s: g++: %s" % (f, (r.stderr or r.stdout)[:2000]))
            continue
        objs.append(obj)
        if clang:
            # clang 19's -march=native on an AVX10 Xeon (Granite Rapids)
            # warns that the CPU's own features combine badly: about the
            # host, not about the emitted code.
            r = sh([clang] + flags + ["-Wall", "-Wextra", "-Werror",
                                      "-Wno-invalid-feature-combination",
                                      "-fsyntax-only", src],
                   cwd=unit_dir)
            if r.returncode != 0:
                problems.append("%s: clang++: %s" % (f, (r.stderr or r.stdout)[:2000]))
    return objs, problems


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--build", default=os.path.join(ROOT, "build"))
    ap.add_argument("--out", default="/tmp/roofline-check-cpu")
    ap.add_argument("--shapes", type=int, default=50)
    ap.add_argument("--quick", action="store_true",
                    help="a few small shapes per unit (the ctest subset)")
    ap.add_argument("--units", default="", help="only units whose name contains one of these (comma list)")
    ap.add_argument("--sources", default="", help="comma list of sources instead of the default set")
    ap.add_argument("--cxx", default="g++")
    ap.add_argument("--clang", default="clang++-19")
    ap.add_argument("--opt", default="-O3")
    ap.add_argument("--jobs", type=int, default=2)
    ap.add_argument("--seed", type=int, default=20240601)
    ap.add_argument("--results", default="")
    args = ap.parse_args()

    tool = os.path.join(args.build, "bin", "roofline-lint")
    if not os.path.exists(tool):
        sys.exit("no %s: build first" % tool)
    clang = shutil.which(args.clang) if args.clang else None
    shutil.rmtree(args.out, ignore_errors=True)
    sources = args.sources.split(",") if args.sources else SOURCES
    r = sh([tool, "--emit=" + args.out] + [os.path.join(ROOT, s) for s in sources])
    if r.returncode != 0:
        sys.exit("emit failed:\n" + r.stdout + r.stderr)
    emit_log = r.stdout
    units = json.load(open(os.path.join(args.out, "units.json")))["units"]
    if args.units:
        keep = args.units.split(",")
        units = [u for u in units if any(k in u for k in keep)]
    flags = ["-std=c++17", args.opt, "-march=native", "-fopenmp",
             "-I" + os.path.join(args.out, "runtime")]
    rng = random.Random(args.seed)
    t0 = time.time()

    # Build all units (in parallel).
    built = {}
    problems = []

    def build(u):
        d = os.path.join(args.out, u)
        objs, probs = compile_unit(d, args.cxx, clang, flags)
        driver = os.path.join(d, "driver")
        if any(o.endswith("driver.o") for o in objs) and any(o.endswith("reference.o") for o in objs):
            rl = sh([args.cxx, "-fopenmp", "-o", driver] + objs)
            if rl.returncode != 0:
                probs.append("link: " + rl.stderr[:2000])
                driver = None
        else:
            driver = None
        return u, driver, probs

    with concurrent.futures.ThreadPoolExecutor(max_workers=args.jobs) as ex:
        for u, driver, probs in ex.map(build, units):
            built[u] = driver
            problems += ["%s/%s" % (u, p) for p in probs]

    # Check.
    # shapes, failures, shapes per unit
    per_kind = collections.defaultdict(lambda: [0, 0, collections.Counter()])
    failures = []
    env = dict(os.environ, OMP_NUM_THREADS="2")
    runs = []
    for u in units:
        m = json.load(open(os.path.join(args.out, u, "manifest.json")))
        if not built.get(u):
            continue
        micro = [v["name"] for v in m["variants"]
                 if "skipped" not in v and v["path"].startswith("micro-kernel")]
        shapes = shapes_for(m, args.shapes, rng, args.quick)
        for i, s in enumerate(shapes):
            runs.append((u, m, s, "", None))
            # Every instruction-set path of the micro-kernels, on a subset.
            if micro and (i % 3 == 0 or args.quick):
                for isa in ("avx512", "avx2", "portable"):
                    runs.append((u, m, s, isa, micro))

    def run(job):
        u, m, s, isa, only = job
        cmd = [built[u], "check", "--seed=%d" % (rng.randrange(1 << 30))]
        if only:
            cmd.append("--only=" + ",".join(only))
        cmd += ["%s=%d" % kv for kv in s.items()]
        e = dict(env)
        if isa:
            e["RL_ISA"] = isa
        r = sh(cmd, env=e, timeout=600)
        lines = [json.loads(l) for l in r.stdout.splitlines() if l.startswith("{")]
        return job, lines, r

    with concurrent.futures.ThreadPoolExecutor(max_workers=1) as ex:
        for job, lines, r in ex.map(run, runs):
            u, m, s, isa, only = job
            if not lines:
                failures.append("%s %s%s: driver failed: %s" % (u, s, " RL_ISA=" + isa if isa else "", r.stderr[:500]))
            for l in lines:
                kind = l["variant"] + ("@" + isa if isa else "")
                per_kind[kind][0] += 1
                per_kind[kind][2][u] += 1
                if not l["ok"]:
                    per_kind[kind][1] += 1
                    failures.append("%s %s %s%s --seed=%s: %s" % (
                        u, l["variant"], s, " RL_ISA=" + isa if isa else "", l.get("seed", "?"),
                        l.get("first", l.get("error", ""))))

    lines = []
    lines.append("Differential check of the CPU variants (scripts/check-cpu-variants.py%s)" %
                 (" --quick" if args.quick else ""))
    lines.append("sources: " + ", ".join(sources))
    lines.append("compilers: %s %s (-Wall -Wextra -Werror), %s -fsyntax-only (same warnings)" %
                 (args.cxx, args.opt, clang or "no clang"))
    lines.append("units: %d emitted, %d built; seed %d; %.0f s" %
                 (len(units), sum(1 for u in units if built.get(u)), args.seed, time.time() - t0))
    lines.append("")
    lines.append("%-22s %8s %8s %6s %s" % ("variant[@isa]", "shapes", "failed", "units",
                                            "shapes per unit (min, sizes free)"))
    for k in sorted(per_kind):
        n, f, us = per_kind[k]
        free = [c for u, c in us.items() if c > 1]
        lines.append("%-22s %8d %8d %6d %s" % (k, n, f, len(us), min(free) if free else "-"))
    lines.append("")
    lines.append("build problems: %d" % len(problems))
    lines += ["  " + p.replace("\n", "\n    ") for p in problems[:40]]
    lines.append("check failures: %d" % len(failures))
    lines += ["  " + f for f in failures[:80]]
    text = "\n".join(lines) + "\n"
    sys.stdout.write(text)
    if args.results:
        with open(args.results, "w") as f:
            f.write(text)
            f.write("\nemit log:\n" + emit_log)
    return 1 if problems or failures else 0


if __name__ == "__main__":
    sys.exit(main())
