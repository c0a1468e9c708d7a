#!/usr/bin/env python3
"""Validate roofline-lint's cache model against valgrind's cachegrind.

For each classic kernel (the seed's gemm in ijk and ikj order, gemv and its
transpose, 2-D and 3-D stencils, triad) at a size whose data fits the last-
level cache and one beyond it, this script

  1. writes the kernel as a small C program (line-aligned global arrays, a
     flush of twice the LL size before the kernel so it starts cold),
  2. asks roofline-lint (--machine, --format=json) for the cache model's
     predicted fetches of the last-level cache and of L1,
  3. runs it under `valgrind --tool=cachegrind` with --D1 and --LL set from
     the machine file's L1 and last-level cache, and reads the kernel
     function's D1 and LL misses (reads + writes) times the line size,

and prints the table (also written to --out). cachegrind simulates only two
data levels (D1 and LL, write-allocate, LRU, no write-backs), so the
comparison is of fetches: predicted fetch bytes, which include write-
allocates and exclude write-backs, against misses x line size. The
associativity is the machine file's `ways` (the model uses the same);
--d1-assoc / --ll-assoc override it for a file without one.

Usage: scripts/cachegrind-compare.py [--tool build/bin/roofline-lint]
           [--machine epyc-7763] [--out docs/results/cachegrind.txt]
           [--only gemm,triad] [--keep DIR]
"""

import argparse
import hashlib
import json
import os
import re
import shutil
import subprocess
import sys
import tempfile
import time

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from polybench_style import (CASES as FUNCTION_CASES, EXTRA_CASES,  # noqa: E402
                            EXTRA_FUNCTIONS, FUNCTIONS)

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
BAR = 0.15  # the accuracy bar: within 15% of cachegrind

# name, description, C body of kernel(), array declarations, sizes
# (macro -> value) per case. Arrays are globals aligned to 64 bytes.
KERNELS = {
    "gemm-ijk": dict(
        desc="C[i][j] += A[i][k]*B[k][j], k innermost (the seed's tri-loop)",
        arrays="float A[N][K], B[K][M], C[N][M];",
        body="""
  for (int i = 0; i < N; ++i)
    for (int j = 0; j < M; ++j)
      for (int k = 0; k < K; ++k)
        C[i][j] += A[i][k] * B[k][j];""",
    ),
    "gemm-ikj": dict(
        desc="the same loops in ikj order: B and C walked along rows",
        arrays="float A[N][K], B[K][M], C[N][M];",
        body="""
  for (int i = 0; i < N; ++i)
    for (int k = 0; k < K; ++k)
      for (int j = 0; j < M; ++j)
        C[i][j] += A[i][k] * B[k][j];""",
    ),
    "gemv": dict(
        desc="y[i] += A[i][j]*x[j], A walked along rows",
        arrays="float A[N][N], x[N], y[N];",
        body="""
  for (int i = 0; i < N; ++i)
    for (int j = 0; j < N; ++j)
      y[i] += A[i][j] * x[j];""",
    ),
    "gemv-t": dict(
        desc="y[j] += A[i][j]*x[i] with i innermost: A walked down columns",
        arrays="float A[N][N], x[N], y[N];",
        body="""
  for (int j = 0; j < N; ++j)
    for (int i = 0; i < N; ++i)
      y[j] += A[i][j] * x[i];""",
    ),
    "stencil-2d": dict(
        desc="5-point Jacobi sweep, out = f(in)",
        arrays="float in[N][N], out[N][N];",
        body="""
  for (int i = 1; i < N - 1; ++i)
    for (int j = 1; j < N - 1; ++j)
      out[i][j] = 0.25f * (in[i - 1][j] + in[i + 1][j] + in[i][j - 1] +
                           in[i][j + 1]);""",
    ),
    "stencil-3d": dict(
        desc="7-point Jacobi sweep",
        arrays="float in[N][N][N], out[N][N][N];",
        body="""
  for (int i = 1; i < N - 1; ++i)
    for (int j = 1; j < N - 1; ++j)
      for (int k = 1; k < N - 1; ++k)
        out[i][j][k] = 0.125f * (in[i - 1][j][k] + in[i + 1][j][k] +
                                 in[i][j - 1][k] + in[i][j + 1][k] +
                                 in[i][j][k - 1] + in[i][j][k + 1] +
                                 2.0f * in[i][j][k]);""",
    ),
    "triad": dict(
        desc="a[i] = b[i] + s*c[i] (STREAM)",
        arrays="float a[N], b[N], c[N];",
        body="""
  for (int i = 0; i < N; ++i)
    a[i] = b[i] + 3.0f * c[i];""",
    ),
}

# (kernel, sizes, label): one size inside the 32 MiB LL, one beyond it.
CASES = [
    ("gemm-ijk", dict(N=200, K=200, M=200), "inside"),
    ("gemm-ijk", dict(N=4, K=3072, M=3072), "beyond"),
    ("gemm-ikj", dict(N=200, K=200, M=200), "inside"),
    ("gemm-ikj", dict(N=4, K=3072, M=3072), "beyond"),
    ("gemv", dict(N=1024), "inside"),
    ("gemv", dict(N=4096), "beyond"),
    ("gemv-t", dict(N=1024), "inside"),
    ("gemv-t", dict(N=4096), "beyond"),
    # The same beyond the LL without a power-of-two row: N = 4096 maps a
    # column onto 1/256 of the LL's sets (conflict misses, not modelled).
    ("gemv-t", dict(N=4000), "beyond"),
    ("stencil-2d", dict(N=1024), "inside"),
    ("stencil-2d", dict(N=4096), "beyond"),
    ("stencil-3d", dict(N=100), "inside"),
    ("stencil-3d", dict(N=256), "beyond"),
    ("triad", dict(N=1 << 20), "inside"),
    ("triad", dict(N=1 << 23), "beyond"),
]

PROGRAM = """\
/* Generated by scripts/cachegrind-compare.py: {name}, {sizes}. */
#include <stdio.h>
{defines}
#define FLUSH_BYTES {flush}

__attribute__((aligned(64))) {arrays}
__attribute__((aligned(64))) static char Flush[FLUSH_BYTES];

__attribute__((noinline)) void kernel(void) {{{body}
}}

/* Streams twice the LL through the caches so the kernel starts cold. */
__attribute__((noinline)) void flush(void) {{
  for (long p = 0; p < FLUSH_BYTES; p += 64)
    Flush[p] += 1;
}}

__attribute__((noinline)) void init(void) {{
  float *p;
{inits}
}}

int main(void) {{
  init();
  flush();
  kernel();
  printf("%g\\n", (double){probe});
  return 0;
}}
"""


def machine_geometry(name):
    """The machine file's L1 and last-level cache: (name, size, line, ways)."""
    path = os.path.join(ROOT, "machines", name + ".yaml")
    if not os.path.exists(path):
        path = name
    text = open(path).read()
    line = int(re.search(r"^line_bytes:\s*(\d+)", text, re.M).group(1))
    levels = []
    for m in re.finditer(r"-\s*\{([^}]*)\}", text):
        fields = dict(
            (k.strip(), v.strip())
            for k, v in (kv.split(":", 1) for kv in m.group(1).split(",")))
        if "size" in fields:
            levels.append((fields["name"], int(float(fields["size"])),
                           int(fields.get("line_bytes", line)),
                           int(fields["ways"]) if "ways" in fields else None))
    if not levels:
        sys.exit("machine %s has no cache sizes" % name)
    # Machine files list main memory first, then caches towards the core.
    return levels[0], levels[-1], os.path.basename(path), levels


def arrays_of(decl):
    """[(name, dims)] of "float A[N][K], B[K][M];"."""
    out = []
    for part in decl.rstrip(";").replace("float", "").split(","):
        part = part.strip()
        name = part.split("[")[0]
        dims = re.findall(r"\[(\w+)\]", part)
        out.append((name, dims))
    return out


def program(name, sizes, flush_bytes):
    k = KERNELS[name]
    arrs = arrays_of(k["arrays"])
    inits = []
    for a, dims in arrs:
        count = "*".join("(long)%s" % d for d in dims)
        inits.append("  p = (float *)%s;\n  for (long q = 0; q < %s; ++q)\n"
                     "    p[q] = (float)(q %% 7) * 0.5f;" % (a, count))
    first = arrs[0][0]
    probe = first + "".join("[1]" for _ in arrs[0][1])
    return PROGRAM.format(
        name=name, sizes=sizes,
        defines="\n".join("#define %s %d" % kv for kv in sizes.items()),
        flush=flush_bytes, arrays=k["arrays"], body=k["body"],
        inits="\n".join(inits), probe=probe)


def predict(tool, src, machine, extra=()):
    """Per function: {level name: fetch bytes summed over its nests}."""
    out = subprocess.run(
        [tool, "--machine=" + machine, "--format=json", "--no-source"] +
        list(extra) + [src], capture_output=True, text=True)
    if out.returncode not in (0, 1):
        raise RuntimeError("roofline-lint failed: " + out.stderr)
    doc = json.loads(out.stdout)
    per_fn = {}
    for n in doc["nests"]:
        cache = n.get("cache", {})
        levels = cache.get("levels", [])
        if not levels:
            raise RuntimeError("no cache numbers for %s:%d: %s" %
                               (n["function"], n["line"],
                                cache.get("why_not", "?")))
        f = per_fn.setdefault(n["function"], {})
        for l in levels:
            f[l["name"]] = f.get(l["name"], 0) + l["fetch_bytes"]
    for s in doc.get("skipped", []):
        # The program's own set-up (init, flush) is not compared.
        if s.get("function") in ("init", "flush"):
            continue
        raise RuntimeError("nest not analyzed at line %d: %s" %
                           (s["line"], s["reason"]))
    return per_fn


def cachegrind(exe, d1, ll, assoc_d1, assoc_ll, workdir, memo=None):
    """Per function: cachegrind's event totals ({"kernel": {"D1mr": ...}})."""
    geometry = ["--I1=32768,8,64",
                "--D1=%d,%d,%d" % (d1[1], assoc_d1, d1[2]),
                "--LL=%d,%d,%d" % (ll[1], assoc_ll, ll[2])]
    key = None
    if memo is not None:
        h = hashlib.sha256(open(exe + ".c", "rb").read())
        h.update(" ".join(geometry).encode())
        key = h.hexdigest()
        if key in memo["runs"]:
            return memo["runs"][key]
    outfile = os.path.join(workdir, "cachegrind.out")
    cmd = ["valgrind", "--tool=cachegrind", "--cache-sim=yes",
           "--cachegrind-out-file=" + outfile] + geometry + [exe]
    run = subprocess.run(cmd, capture_output=True, text=True)
    if run.returncode != 0:
        raise RuntimeError("cachegrind failed: " + run.stderr[-2000:])
    events, per_fn, fn = None, {}, None
    for line in open(outfile):
        line = line.strip()
        if line.startswith("events:"):
            events = line.split()[1:]
        elif line.startswith("fn="):
            fn = line[3:]
        elif fn and line and line[0].isdigit():
            vals = [int(v) for v in line.split()[1:]]
            t = per_fn.setdefault(fn, {})
            for e, v in zip(events, vals):
                t[e] = t.get(e, 0) + v
    if key is not None:
        memo["runs"][key] = per_fn
        memo["dirty"] = True
    return per_fn


def fetched(totals, line):
    """(LL, D1) misses x line size of one function's cachegrind totals."""
    return ((totals.get("DLmr", 0) + totals.get("DLmw", 0)) * line,
            (totals.get("D1mr", 0) + totals.get("D1mw", 0)) * line)


def mb(b):
    return "%.2f" % (b / 1e6)


def err(p, c):
    return (p - c) / c if c else float("inf")


FN_PROGRAM = """\
/* Generated by scripts/cachegrind-compare.py: {name}, {sizes}. */
#include <stdio.h>
{defines}
#define FLUSH_BYTES {flush}

/* Page-aligned, in declaration order (-fno-toplevel-reorder), as the cache
   model places arrays (docs/cache-model.md). */
{arrays}
__attribute__((aligned(4096))) static char Flush[FLUSH_BYTES];

/* The whole kernel as it runs: its nests in program order. */
__attribute__((noinline)) void kernel(void) {{
{scalars}{body}
}}
{nest_fns}
/* Streams twice the LL through the caches so what follows starts cold. */
__attribute__((noinline)) void flush(void) {{
  for (long p = 0; p < FLUSH_BYTES; p += 64)
    Flush[p] += 1;
}}

__attribute__((noinline)) void init(void) {{
  double *p;
{inits}
}}

int main(void) {{
  init();
  flush();
  kernel();
{nest_calls}
  printf("%g\\n", {probe});
  return 0;
}}
"""


def fn_program(k, name, sizes, flush_bytes):
    """A PolyBench-style kernel: kernel() runs its nests in order, nest_<n>()
    each nest alone; main flushes the caches before each."""
    arrays, inits = [], []
    for a, dims in k["arrays"]:
        arrays.append("__attribute__((aligned(4096))) double %s%s;" %
                      (a, "".join("[%s]" % d for d in dims)))
        count = "*".join("(long)%s" % d for d in dims)
        inits.append("  p = (double *)%s;\n  for (long q = 0; q < %s; ++q)\n"
                     "    p[q] = (double)(q %% 7) * 0.5 + 1.0;" % (a, count))
    nest_fns, calls = [], []
    for i, body in enumerate(k["nests"]):
        nest_fns.append("__attribute__((noinline)) void nest_%d(void) {\n%s%s\n}\n"
                        % (i + 1, k["scalars"], body))
        calls.append("  flush();\n  nest_%d();" % (i + 1))
    first, dims = k["arrays"][0]
    probe = first + "".join("[1]" for _ in dims)
    return FN_PROGRAM.format(
        name=name, sizes=sizes,
        defines="\n".join("#define %s %d" % kv for kv in sizes.items()),
        flush=flush_bytes, arrays="\n".join(arrays), scalars=k["scalars"],
        body="".join(k["nests"]), nest_fns="\n".join(nest_fns),
        inits="\n".join(inits), nest_calls="\n".join(calls), probe=probe)


def data_bytes(k, sizes):
    return sum(8 * eval("*".join(str(sizes.get(d, d)) for d in dims) or "1")
               for _, dims in k["arrays"])


def load_memo(path):
    if path and os.path.exists(path):
        with open(path) as f:
            return dict(runs=json.load(f), dirty=False)
    return dict(runs={}, dirty=False)


def save_memo(path, memo):
    if path and memo["dirty"]:
        os.makedirs(os.path.dirname(os.path.abspath(path)), exist_ok=True)
        with open(path, "w") as f:
            json.dump(memo["runs"], f, sort_keys=True)


def row_text(r):
    e_ll = err(r["p_ll"], r["cg_ll"])
    e_d1 = err(r["p_d1"], r["cg_d1"])
    return ("%-11s %-26s %-6s %9s | %10s %10s %+7.1f%% %4s | %10s %10s "
            "%+7.1f%% %4s" %
            (r["kernel"], r["size"], r["where"], mb(r["foot"]), mb(r["p_ll"]),
             mb(r["cg_ll"]), 100 * e_ll, "ok" if abs(e_ll) <= BAR else "MISS",
             mb(r["p_d1"]), mb(r["cg_d1"]), 100 * e_d1,
             "ok" if abs(e_d1) <= BAR else "MISS"))


def table(title, rows):
    head = ("%-11s %-26s %-6s %9s | %10s %10s %8s %4s | %10s %10s %8s %4s" %
            ("kernel", "size" if title != "nests" else "size / nest", "fits",
             "data MB", "LL pred MB", "LL cg MB", "LL err", "bar",
             "D1 pred MB", "D1 cg MB", "D1 err", "bar"))
    ll = sum(abs(err(r["p_ll"], r["cg_ll"])) <= BAR for r in rows)
    d1 = sum(abs(err(r["p_d1"], r["cg_d1"])) <= BAR for r in rows)
    return [head] + [row_text(r) for r in rows] + [
        "", "%d of %d within %d%% at the last level, %d of %d at L1." %
        (ll, len(rows), round(100 * BAR), d1, len(rows))]


def run_functions(args, cases, kernels, ll, d1, work, memo):
    """Whole functions as they run, and each nest alone from cold."""
    whole, alone = [], []
    for name, sizes, label in cases:
        k = kernels[name]
        tag = name + "-" + "x".join(str(v) for v in sizes.values())
        src = os.path.join(work, tag + ".c")
        exe = os.path.join(work, tag)
        with open(src, "w") as f:
            f.write(fn_program(k, name, sizes, 2 * ll[1]))
        subprocess.run([args.cc, "-O1", "-fno-toplevel-reorder", "-o", exe,
                        src], check=True)
        t0 = time.time()
        try:
            pred = predict(args.tool, src, args.machine, args.tool_arg)
            cg = cachegrind(exe, d1, ll, args.d1_assoc, args.ll_assoc, work,
                            memo)
        except RuntimeError as e:
            print("%-11s %-16s error: %s" % (name, tag, e), file=sys.stderr)
            continue
        size = " ".join("%s=%d" % kv for kv in sizes.items())
        foot = data_bytes(k, sizes)

        def row(fn, label_):
            c_ll, c_d1 = fetched(cg.get(fn, {}), ll[2])
            p = pred.get(fn, {})
            return dict(kernel=name, size=label_, where=label, foot=foot,
                        p_ll=p.get(ll[0], 0), cg_ll=c_ll,
                        p_d1=p.get(d1[0], 0), cg_d1=c_d1)
        whole.append(row("kernel", size))
        print(row_text(whole[-1]), " (%.0f s)" % (time.time() - t0),
              flush=True)
        if len(k["nests"]) > 1:
            for i in range(len(k["nests"])):
                alone.append(row("nest_%d" % (i + 1),
                                 "%s #%d" % (size, i + 1)))
                print("   " + row_text(alone[-1]), flush=True)
        save_memo(args.memo, memo)
    return whole, alone


def run_nests(args, ll, d1, work, memo):
    """The classic single-nest kernels (the table the model was built on)."""
    rows = []
    only = set(filter(None, args.only.split(",")))
    for name, sizes, label in CASES:
        if only and name not in only:
            continue
        tag = name + "-" + "x".join(str(v) for v in sizes.values())
        src = os.path.join(work, tag + ".c")
        exe = os.path.join(work, tag)
        with open(src, "w") as f:
            f.write(program(name, sizes, 2 * ll[1]))
        subprocess.run([args.cc, "-O1", "-o", exe, src], check=True)
        try:
            pred = predict(args.tool, src, args.machine, args.tool_arg)
            cg = cachegrind(exe, d1, ll, args.d1_assoc, args.ll_assoc, work,
                            memo)
        except RuntimeError as e:
            print("%-11s %-16s error: %s" % (name, tag, e), file=sys.stderr)
            continue
        c_ll, c_d1 = fetched(cg.get("kernel", {}), ll[2])
        foot = sum(
            4 * eval("*".join(str(sizes.get(d, d)) for d in dims) or "1")
            for _, dims in arrays_of(KERNELS[name]["arrays"]))
        p = pred.get("kernel", {})
        rows.append(dict(kernel=name, size=" ".join(
            "%s=%d" % kv for kv in sizes.items()), where=label, foot=foot,
            p_ll=p.get(ll[0], 0), cg_ll=c_ll, p_d1=p.get(d1[0], 0),
            cg_d1=c_d1))
        print(row_text(rows[-1]), flush=True)
        save_memo(args.memo, memo)
    return rows


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--tool", default=os.environ.get(
        "ROOFLINE_LINT", os.path.join(ROOT, "build", "bin", "roofline-lint")))
    ap.add_argument("--machine", default="epyc-7763")
    ap.add_argument("--d1-assoc", type=int, default=None)
    ap.add_argument("--ll-assoc", type=int, default=None)
    ap.add_argument("--ll-level", default="",
                    help="compare this cache level as cachegrind's LL "
                    "(default: the machine's last level; L2 checks the "
                    "middle level)")
    ap.add_argument("--cc", default=os.environ.get("CC", "cc"))
    ap.add_argument("--set", default="nests,functions",
                    help="tables to run: nests (single-nest kernels), "
                    "functions (PolyBench-style whole functions), extra "
                    "(more PolyBench-style functions)")
    ap.add_argument("--out", default=os.path.join(ROOT, "docs", "results",
                                                  "cachegrind.txt"))
    ap.add_argument("--only", default="", help="comma-separated kernels")
    ap.add_argument("--keep", default="", help="keep the programs here")
    ap.add_argument("--memo", default=os.path.join(
        ROOT, "build", "cachegrind-memo.json"),
        help="cachegrind results by program and geometry, reused across "
        "runs (they do not depend on the model); '' to disable")
    ap.add_argument("--tool-arg", action="append", default=[],
                    help="extra roofline-lint argument (repeatable)")
    args = ap.parse_args()
    if not shutil.which("valgrind"):
        sys.exit("valgrind not found (apt-get install valgrind)")
    if not os.path.exists(args.tool):
        sys.exit("roofline-lint not found at %s (--tool)" % args.tool)
    ll, d1, mfile, levels = machine_geometry(args.machine)
    if args.ll_level:
        match = [l for l in levels if l[0] == args.ll_level]
        if not match:
            sys.exit("machine %s has no cache level %s" % (mfile,
                                                           args.ll_level))
        ll = match[0]
    args.d1_assoc = args.d1_assoc or d1[3]
    args.ll_assoc = args.ll_assoc or ll[3]
    if not args.d1_assoc or not args.ll_assoc:
        sys.exit("machine %s gives no 'ways' for %s or %s: pass --d1-assoc "
                 "and --ll-assoc" % (mfile, d1[0], ll[0]))
    sets = set(args.set.split(","))
    only = set(filter(None, args.only.split(",")))
    work = args.keep or tempfile.mkdtemp(prefix="cachegrind-")
    os.makedirs(work, exist_ok=True)
    memo = load_memo(args.memo)

    hdr = [
        "Cache model vs cachegrind: predicted fetches vs misses x line size",
        "",
        "Command: scripts/cachegrind-compare.py %s" % " ".join(sys.argv[1:]),
        "Geometry from machines/%s: D1 = %s %d KiB (%d-way, %d B lines), "
        "LL = %s %d KiB (%d-way, %d B lines);" %
        (mfile, d1[0], d1[1] // 1024, args.d1_assoc, d1[2], ll[0],
         ll[1] // 1024, args.ll_assoc, ll[2]),
        "associativity from the machine file's 'ways' (the model uses the "
        "same). cachegrind %s, programs built with `%s -O1`," %
        (subprocess.run(["valgrind", "--version"], capture_output=True,
                        text=True).stdout.strip(), args.cc),
        "the kernel's own counts only (the caches are flushed before it). "
        "Predicted = roofline-lint",
        "--machine=%s --format=json%s: cache.levels[].fetch_bytes (read "
        "misses and" % (args.machine, "".join(" " + a for a in args.tool_arg)),
        "write-allocates; write-backs are not compared: cachegrind does not "
        "simulate them), summed over a function's nests.",
        "Bar: within %d%%." % round(100 * BAR),
    ]
    text = hdr
    if "nests" in sets:
        rows = run_nests(args, ll, d1, work, memo)
        text += ["", "Single-nest kernels (kernel() is the nest):", ""]
        text += table("nests", rows)
    fn_cases = []
    kernels = dict(FUNCTIONS)
    kernels.update(EXTRA_FUNCTIONS)
    if "functions" in sets:
        fn_cases += FUNCTION_CASES
    if "extra" in sets:
        fn_cases += EXTRA_CASES
    fn_cases = [c for c in fn_cases if not only or c[0] in only]
    if fn_cases:
        whole, alone = run_functions(args, fn_cases, kernels, ll, d1, work,
                                     memo)
        text += ["", "PolyBench-style whole functions as they run (kernel(): "
                 "every nest in program order, after one flush):", ""]
        text += table("functions", whole)
        if alone:
            text += ["", "Their nests alone, each from cold (nest_<n>(), a "
                     "flush before each):", ""]
            text += table("nests", alone)
    save_memo(args.memo, memo)
    text = "\n".join(text) + "\n"
    print()
    print(text)
    if args.out and not only:
        os.makedirs(os.path.dirname(args.out), exist_ok=True)
        with open(args.out, "w") as f:
            f.write(text)
        print("written to", args.out)


if __name__ == "__main__":
    main()
