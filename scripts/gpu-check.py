#!/usr/bin/env python3
"""The CUDA backend on a GPU machine, in one command (docs/cuda.md):
build every CUDA variant, check each against the CPU float64 reference,
time each beside cuBLAS, print one table and write a results file.

roofline-lint needs LLVM; a GPU machine may have only the CUDA toolkit, g++
and python3. So the work is in two steps, and the emitted directory is what
travels between them:

  scripts/gpu-check.py emit DIR          here: roofline-lint --emit=DIR
                                         --target=cuda on the benchmark nests
                                         (test/CodeGen/Inputs/cuda-variants.cpp)
  scripts/gpu-check.py run DIR [opts]    there: nvcc, checks, timings, table
  scripts/gpu-check.py all [opts]        both, into OUT/emit

run options:
  --arch sm_XX     default: the device's (nvidia-smi), 9.0 as sm_90a
  --quick          fewer check shapes, gemm timed at N = 4096 only, 10 runs
  --reps R         timed runs per variant and size (default 20)
  --units a,b      only these units
  --nvcc PATH      default: nvcc on PATH, else /usr/local/cuda/bin/nvcc
  --out WORK       work directory (default DIR/gpu-check)
  --results FILE   the text report (default WORK/gpu-check.txt); the JSON
                   beside it (.json)
  --reuse          do not build: reuse gpu-bench and the check drivers of an
                   earlier run with the same WORK (timings again, say)
  --shim           build with g++ under runtime/roofline_cuda_shim.h instead
                   of nvcc and run on the CPU, at small sizes: the script's
                   own test where no GPU is (table, exit code, buffer
                   rotation; the targets are not judged)

Steps of run: (1) build: nvcc per variant for the arch (resource usage into
the manifests, spills reported), each unit's check driver, gpu-bench with
cuBLAS; (2) no CUDA device: exit 3 after building; (3) the DRAM roof (a
device-to-device copy of 1 GiB); (4) `cuda_driver check` per unit at sizes
that are and are not tile multiples, and large ones; (5) gpu-bench at gemm
N = 1024, 2048, 4096, gemv M = K = 4096 and 16384, elementwise n = 2^24:
every variant, cublasSgemm (TF32 off), cublasGemmEx bf16 and int8 (TN),
cublasSgemv, each on rotated copies of its buffers (gpu-bench.cu); (6) the
table, the targets, the report.

Exit: 0 every build, check and timing done and every target met; 1 a build,
a check or a timing failed, or a row of the table is missing; 3 no CUDA
device (everything built); 4 all done and correct, a target not met; 77 no
nvcc (nothing built or run).
"""

import argparse
import importlib.util
import json
import os
import re
import shutil
import subprocess
import sys
import time

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
SOURCE = os.path.join(ROOT, "test", "CodeGen", "Inputs", "cuda-variants.cpp")
ELEM = {"f32": "f32", "i8": "i8", "i32": "i32", "bf16": "bf16", "f64": "f64"}

# Checks: 1, primes, non-multiples of every tile and chunk width, >= 3 K
# steps of every kernel, then large sizes.
# (The float64 reference and its magnitude forms are plain loops on the
# CPU: 1024^3 is the largest gemm that keeps the run within minutes.)
GEMM_CHECKS = [(1, 1, 1), (33, 17, 9), (129, 136, 200), (257, 131, 513), (130, 129, 256),
               (1024, 1024, 1024)]
GEMV_CHECKS = [(1, 1), (33, 100), (1000, 4099), (257, 1000), (4096, 4096), (16384, 16384)]
ELEM_CHECKS = [1, 1000, 4099, 1 << 20]
QUICK = {"gemm": 4, "gemv": 4, "elem": 3}  # how many check shapes --quick keeps
SHIM_CHECKS = {"gemm": [(33, 17, 9), (129, 136, 200)], "gemv": [(33, 100), (257, 1000)],
               "elem": [1000]}
# Timing sizes: gemm against cuBLAS at the N; gemv large enough that
# the launches do not hide the DRAM time.
GEMM_N, GEMV_N, ELEM_N = [1024, 2048, 4096], [4096, 16384], [1 << 24]
SHIM_N = {"gemm": [48, 64], "gemv": [256], "elem": [4096]}
# Targets: (unit, variant, baseline or "roof", size, want).
TARGETS = [
    ("gemm_L", "warptiled", "cublasSgemm", 4096, 0.85),
    ("gemm_L", "bf16", "cublasGemmEx-bf16", 4096, 0.70),
    ("gemm_L", "wgmma", "cublasGemmEx-bf16", 4096, 0.70),
    ("gemm_L", "int8-mma", "cublasGemmEx-int8", 4096, 0.60),
    ("gemm_L", "blocktiled", "cublasSgemm", 4096, 0.65),
    ("gemv_L", "int8", "roof", 16384, 0.80),
    ("gemv_L", "bf16", "roof", 16384, 0.80),
    ("gemv_L", "vectorized", "roof", 16384, 0.80),
    ("chain3_L44_x3", "fused", "roof", 1 << 24, 0.80),
]


def sh(cmd, timeout=3600, **kw):
    return subprocess.run(cmd, capture_output=True, text=True, timeout=timeout, **kw)


def say(msg):
    print("gpu-check: " + msg, flush=True)


def script(name):
    spec = importlib.util.spec_from_file_location(name.replace("-", "_"),
                                                  os.path.join(ROOT, "scripts", name + ".py"))
    mod = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(mod)
    return mod


def device_arch():
    smi = shutil.which("nvidia-smi")
    if not smi:
        return None
    p = sh([smi, "--query-gpu=compute_cap", "--format=csv,noheader"])
    m = re.match(r"\s*(\d+)\.(\d+)", p.stdout or "")
    if p.returncode or not m:
        return None
    arch = "sm_%s%s" % m.groups()
    return arch + "a" if arch == "sm_90" else arch  # wgmma-class code on Hopper


def kind_of(m):
    names = {s["name"] for s in m["sizes"]}
    if {"M", "N", "K"} <= names:
        return "gemm"
    if names == {"M", "K"}:
        return "gemv"
    if len(names) == 1 and all(len(a["shape"]) <= 1 for a in m["args"]):
        return "elem"
    return "other"


def load_units(emit, only=None):
    with open(os.path.join(emit, "units.json")) as f:
        names = json.load(f)["units"]
    out = []
    for n in names:
        if only and n not in only:
            continue
        with open(os.path.join(emit, n, "manifest.json")) as f:
            m = json.load(f)
        cuda = [v for v in m["variants"] if v.get("target") == "cuda" and "file" in v]
        if cuda:
            out.append((n, m, cuda))
    return out


def baseline_of(m):
    """cuBLAS applies to the standard row-major layouts only."""
    a = m["args"]
    s = [x["shape"] for x in a]
    if m["kind"] == "gemm" and len(a) == 3 and s[0] == ["M", "N"] and s[1] == ["M", "K"] \
            and s[2] == ["K", "N"] and a[0]["intent"] == "out":
        return "sgemm"
    if m["kind"] == "gemv" and len(a) == 3 and s[1] == ["M", "K"] and s[2] == ["K"] \
            and a[0]["intent"] == "out":
        return "sgemv"
    return ""


def counted(m):
    """(flops per iteration, C expression of the iterations) of the counted
    nest: the contraction (2 flops a multiply-add), else none."""
    kind = kind_of(m)
    if kind == "gemm":
        return 2.0, "M * N * K"
    if kind == "gemv":
        return 2.0, "M * K"
    return 0.0, "0"


def shape_fn(name, sizes, shape):
    body = "".join("const int64_t %s = rl_s[%d]; (void)%s; " % (s["name"], i, s["name"])
                   for i, s in enumerate(sizes))
    return ("static std::vector<int64_t> %s(const int64_t *rl_s) { %s(void)rl_s; return {%s}; }\n"
            % (name, body, ", ".join("int64_t(%s)" % e for e in shape)))


def bench_table(units):
    """gpu-bench-table.h: every unit's args, variants and device entries;
    every field of bench::unit, bench::variant and bench::arg given (their
    constructors take them all)."""
    decl, fns, body = [], [], []
    for n, m, cuda in units:
        index = {a["name"]: i for i, a in enumerate(m["args"])}

        def arg(a, idx, tag, compulsory, replaces=-1):
            f = "shape_%s_%s_%d" % (n, tag, idx)
            fns.append(shape_fn(f, m["sizes"], a["shape"]))
            return 'bench::arg("%s", bench::%s, %s, %s, %s, %d)' % (
                a["name"], ELEM.get(a["elem"], "f32"), f,
                "true" if a.get("scalar") else "false", "true" if compulsory else "false",
                replaces)
        args = [arg(a, i, "u", a["intent"] != "temp") for i, a in enumerate(m["args"])]
        vs = []
        for v in cuda:
            decl.append('extern "C" void %s(void *const *, const int64_t *);' % v["device_symbol"])
            prep = "nullptr"
            if v.get("device_prepare"):
                decl.append('extern "C" void %s(void *const *, const int64_t *);'
                            % v["device_prepare"])
                prep = v["device_prepare"]
            ex = [arg(a, i, v["name"].replace("-", "_") + "x", False,
                      index.get(a.get("from"), -1) if a.get("prepared") else -1)
                  for i, a in enumerate(v.get("extra_args", []))]
            vs.append('bench::variant("%s", %s, %s, {%s})' % (v["name"], v["device_symbol"], prep,
                                                               ", ".join(ex)))
        flops, iters = counted(m)
        body_s = "".join("const double %s = double(rl_s[%d]); (void)%s; " % (s["name"], i, s["name"])
                         for i, s in enumerate(m["sizes"]))
        fns.append("static double iters_%s(const int64_t *rl_s) { %s(void)rl_s; return %s; }\n"
                   % (n, body_s, iters))
        sizes = ", ".join('"%s"' % s["name"] for s in m["sizes"])
        defaults = ", ".join(str(s["value"] or 64) for s in m["sizes"])
        body.append('    bench::unit("%s", "%s", {%s}, {%s}, {%s}, {%s}, %s, iters_%s)' % (
            n, baseline_of(m), sizes, defaults, ", ".join(args), ", ".join(vs), repr(flops), n))
    return ("// Generated by scripts/gpu-check.py from the units' manifests.\n"
            + "\n".join(sorted(set(decl))) + "\n\nnamespace bench {\n" + "".join(fns)
            + "inline const std::vector<unit> &units() {\n  static const std::vector<unit> U = {\n"
            + ",\n".join(body) + "};\n  return U;\n}\n} // namespace bench\n")


def check_shapes(m, quick, shim):
    kind = kind_of(m)
    fixed = {s["name"]: s["value"] for s in m["sizes"] if s.get("fixed")}
    names = [s["name"] for s in m["sizes"]]
    if shim:
        table = SHIM_CHECKS
    else:
        table = {"gemm": GEMM_CHECKS, "gemv": GEMV_CHECKS, "elem": ELEM_CHECKS}
    if kind == "gemm":
        sh_ = table["gemm"][:QUICK["gemm"]] if quick and not shim else table["gemm"]
        out = [dict(zip("MNK", s)) for s in sh_]
    elif kind == "gemv":
        sh_ = table["gemv"][:QUICK["gemv"]] if quick and not shim else table["gemv"]
        out = [dict(zip("MK", s)) for s in sh_]
    elif kind == "elem":
        sh_ = table["elem"][:QUICK["elem"]] if quick and not shim else table["elem"]
        out = [{names[0]: n} for n in sh_]
    else:
        out = [{x: 37 for x in names}]
    return [dict(s, **fixed) for s in out]


def timing_sizes(m, quick, shim):
    kind = kind_of(m)
    if kind == "gemm":
        ns = SHIM_N["gemm"] if shim else ([4096] if quick else GEMM_N)
        return [{"M": n, "N": n, "K": n} for n in ns]
    if kind == "gemv":
        ns = SHIM_N["gemv"] if shim else GEMV_N
        return [{"M": n, "K": n} for n in ns]
    if kind == "elem":
        ns = SHIM_N["elem"] if shim else ELEM_N
        return [{m["sizes"][0]["name"]: n} for n in ns]
    return []


def build_nvcc(nvcc, emit, units, arch, work, jobs, log):
    """cuda-build.py per file (resource usage recorded), drivers linked;
    gpu-bench with every object and cuBLAS."""
    cmd = [sys.executable, os.path.join(ROOT, "scripts", "cuda-build.py"), "--dir", emit,
           "--arch", arch, "--jobs", str(jobs), "--link", "--record", "--nvcc", nvcc]
    for n, _, _ in units:
        cmd += ["--unit", n]
    p = sh(cmd)
    log.append(p.stdout + p.stderr)
    if p.returncode:
        return None, "building the variants failed (exit %d); see the report" % p.returncode
    objs = [os.path.join(emit, n, "%s.%s.o" % (v["file"][:-3], arch))
            for n, _, c in units for v in c]
    bench = os.path.join(work, "gpu-bench")
    p = sh([nvcc, "-std=c++17", "-O3", "-arch=" + arch, "-I", os.path.join(emit, "runtime"),
            "-I", work, os.path.join(ROOT, "scripts", "gpu-bench.cu"), "-o", bench] + objs
           + ["-lcublas", "-lcudart"])
    log.append(p.stdout + p.stderr)
    if p.returncode:
        return None, "building gpu-bench failed:\n" + p.stderr[-3000:]
    drivers = {n: os.path.join(emit, n, "cuda_driver") for n, _, _ in units}
    return (bench, drivers), None


def build_shim(emit, units, work, jobs, log):
    """The same under roofline_cuda_shim.h, with g++."""
    cxx = shutil.which("g++") or shutil.which("c++")
    shim = script("cuda-shim-check")
    rt = os.path.join(emit, "runtime")
    drivers, objs = {}, []
    for n, _, cuda in units:
        d = os.path.join(emit, n)
        exe, errors = shim.compile_unit(cxx, d, rt, [v["file"] for v in cuda], jobs)
        if not exe:
            log.append("\n".join("%s: %s" % e for e in errors))
            return None, "%s did not build under the shim" % n
        drivers[n] = exe
        objs += [os.path.join(d, v["file"][:-3] + ".shim.o") for v in cuda]
    bench = os.path.join(work, "gpu-bench-shim")
    p = sh([cxx, "-std=c++17", "-O1", "-DRL_CUDA_SHIM", "-I", rt, "-I", work, "-x", "c++",
            os.path.join(ROOT, "scripts", "gpu-bench.cu"), "-x", "none", "-o", bench] + objs)
    log.append(p.stdout + p.stderr)
    if p.returncode:
        return None, "building gpu-bench under the shim failed:\n" + p.stderr[-3000:]
    return (bench, drivers), None


def json_lines(text):
    out = []
    for l in text.splitlines():
        if l.startswith("{"):
            try:
                out.append(json.loads(l))
            except ValueError:
                pass
    return out


def run_checks(units, drivers, quick, shim, failures):
    checks = []
    for n, m, cuda in units:
        want = {"cuda_" + v["name"].replace("-", "_") for v in cuda}
        for seed, s in enumerate(check_shapes(m, quick, shim), 1):
            args = [drivers[n], "check", "--seed=%d" % seed] + \
                   ["%s=%d" % kv for kv in sorted(s.items())]
            try:
                p = sh(args, timeout=1800)
                got = [r for r in json_lines(p.stdout) if r.get("variant") in want]
            except subprocess.TimeoutExpired:
                p, got = None, []
            seen = {r["variant"] for r in got}
            for r in got:
                r["shape"] = s
                checks.append(r)
                if not r.get("ok"):
                    failures.append("check %s %s %s: %s" % (
                        n, r["variant"], s, r.get("first") or r.get("error", "")))
            for v in sorted(want - seen):
                checks.append({"unit": n, "variant": v, "shape": s, "ok": False,
                               "error": "no result"})
                failures.append("check %s %s %s: no result (%s)" % (
                    n, v, s, "timed out" if p is None else
                    "exit %d: %s" % (p.returncode, p.stderr.strip()[-300:])))
    return checks


def run_timings(bench, units, reps, quick, shim, failures):
    rows = []
    for n, m, cuda in units:
        base = baseline_of(m)
        expected = [v["name"] for v in cuda] + {
            "sgemm": ["cublasSgemm", "cublasGemmEx-bf16", "cublasGemmEx-int8"],
            "sgemv": ["cublasSgemv"], "": []}[base]
        for s in timing_sizes(m, quick, shim):
            try:
                p = sh([bench, "time", n, "--reps=%d" % reps]
                       + ["%s=%d" % kv for kv in sorted(s.items())], timeout=1800)
                got = [r for r in json_lines(p.stdout) if r.get("unit") == n]
                err = p.stderr.strip()[-300:] if p.returncode else ""
            except subprocess.TimeoutExpired:
                got, err = [], "timed out"
            rows += got
            names = {r["variant"] for r in got if r.get("median_s", 0) > 0}
            for v in expected:
                if v not in names:
                    failures.append("timing %s %s %s: missing%s" % (n, v, s,
                                                                    " (%s)" % err if err else ""))
            if err and all(v in names for v in expected):
                failures.append("timing %s %s: gpu-bench: %s" % (n, s, err))
    return rows


def size_key(r):
    s = r["sizes"]
    return s.get("N") or s.get("M") or next(iter(s.values()))


def judge(rows, roof):
    out = []
    for unit, var, base, size, want in TARGETS:
        def find(v):
            for r in rows:
                if r["unit"].startswith(unit) and r["variant"] == v and size_key(r) == size \
                        and r["median_s"] > 0:
                    return r
            return None
        got = find(var)
        if base == "roof":
            ratio = got["gbytes_per_s"] / roof if got and roof else None
            what = "%s %s GB/s / DRAM roof (%s)" % (unit.rstrip("_L"), var, size)
        else:
            b = find(base)
            ratio = b["median_s"] / got["median_s"] if got and b else None
            what = "%s %s / %s (N=%d)" % (unit.rstrip("_L"), var, base, size)
        out.append({"target": what, "ratio": ratio, "want": want,
                    "met": ratio is not None and ratio >= want})
    return out


def table(rows, roof):
    lib = {}
    for r in rows:
        if r["kind"] == "baseline":
            lib[(r["unit"], size_key(r), r["variant"])] = r["median_s"]
    ref = {"bf16": "cublasGemmEx-bf16", "wgmma": "cublasGemmEx-bf16",
           "int8": "cublasGemmEx-int8", "int8-mma": "cublasGemmEx-int8"}
    out = ["%-18s %-18s %-14s %10s %23s %10s %9s %8s %6s" % (
        "unit", "variant", "sizes", "median ms", "[min .. max] ms", "GFLOP/s", "GB/s",
        "vs lib", "copies")]
    for r in rows:
        s = "x".join(str(v) for v in r["sizes"].values())
        base = ref.get(r["variant"], "cublasSgemm")
        b = lib.get((r["unit"], size_key(r), base)) or lib.get((r["unit"], size_key(r), "cublasSgemv"))
        vs = "%.3f" % (b / r["median_s"]) if b and r["kind"] == "variant" and r["median_s"] > 0 \
            else ("%.3f*" % (r["gbytes_per_s"] / roof) if roof and r["flops"] == 0 else "-")
        out.append("%-18s %-18s %-14s %10.4f %23s %10s %9.1f %8s %6d" % (
            r["unit"][:18], r["variant"], s, r["median_s"] * 1e3,
            "[%.4f .. %.4f]" % (r["min_s"] * 1e3, r["max_s"] * 1e3),
            "%.1f" % r["gflops"] if r["flops"] > 0 else "-", r["gbytes_per_s"], vs, r["copies"]))
    out.append("vs lib: the library's time / the variant's (cublasSgemm for f32, GemmEx for "
               "bf16/int8, Sgemv for gemv); * = GB/s / the DRAM roof")
    return out


def run(a, emit):
    t0 = time.time()
    work = a.out or os.path.join(emit, "gpu-check")
    os.makedirs(work, exist_ok=True)
    only = set(a.units.split(",")) if a.units else None
    units = load_units(emit, only)
    if not units:
        say("no CUDA variants under %s" % emit)
        return 1
    if not a.reuse:
        with open(os.path.join(work, "gpu-bench-table.h"), "w") as f:
            f.write(bench_table(units))
    log, failures = [], []
    nvar = sum(len(c) for _, _, c in units)
    if a.reuse:
        arch = a.arch or ("shim" if a.shim else device_arch() or "sm_90")
        bench = os.path.join(work, "gpu-bench-shim" if a.shim else "gpu-bench")
        drivers = {n: os.path.join(emit, n, "cuda_driver_shim" if a.shim else "cuda_driver")
                   for n, _, _ in units}
        missing = [x for x in [bench] + list(drivers.values()) if not os.path.exists(x)]
        built, err = ((bench, drivers), None) if not missing else \
            (None, "--reuse: not built: " + ", ".join(missing[:3]))
    elif a.shim:
        arch = "shim"
        built, err = build_shim(emit, units, work, a.jobs, log)
    else:
        nvcc = a.nvcc or shutil.which("nvcc") or "/usr/local/cuda/bin/nvcc"
        if not (os.path.isfile(nvcc) and os.access(nvcc, os.X_OK)):
            say("nvcc not found (%s; CUDA is expected at /usr/local/cuda): nothing built"
                % nvcc)
            return 77
        arch = a.arch or device_arch() or "sm_90"
        built, err = build_nvcc(nvcc, emit, units, arch, work, a.jobs, log)
    if not a.reuse:
        with open(os.path.join(work, "build.log"), "w") as f:
            f.write("\n".join(log))
    if not built:
        say(err)
        return 1
    bench, drivers = built
    say("built %d CUDA variants of %d units for %s, %d check drivers and gpu-bench in %.0f s"
        % (nvar, len(units), arch, len(drivers), time.time() - t0))
    spills = [l.strip() for l in "\n".join(log).splitlines() if l.rstrip().endswith("SPILLS")]
    if a.reuse and os.path.exists(os.path.join(work, "build.log")):
        with open(os.path.join(work, "build.log")) as f:
            spills = [l.strip() for l in f if l.rstrip().endswith("SPILLS")]
    probe = sh([bench, "probe"])
    if probe.returncode:
        say("no CUDA device (%s): nothing was checked or timed"
            % (probe.stdout.strip() or probe.stderr.strip()).replace("no CUDA device: ", ""))
        return 3
    device = json.loads(probe.stdout)
    say("device: %s (sm_%s, %d SMs, L2 %.0f MB)" % (device["device"], device["sm"],
                                                    device["sms"], device["l2_bytes"] / 1e6))
    rp = sh([bench, "roof", "--mib=%d" % (8 if a.shim else 1024), "--reps=%d" % a.reps])
    roofs = json_lines(rp.stdout)
    roof = roofs[0]["gbytes_per_s"] if roofs else None
    if not roof:
        failures.append("the DRAM roof was not measured: " + rp.stderr.strip()[-300:])
    checks = run_checks(units, drivers, a.quick, a.shim, failures)
    nfail = sum(not c.get("ok") for c in checks)
    say("checks: %d, failed: %d" % (len(checks), nfail))
    rows = run_timings(bench, units, a.reps, a.quick, a.shim, failures)
    targets = [] if a.shim else judge(rows, roof)
    lines = ["# scripts/gpu-check.py run%s: %s, code for %s" % (" --shim" if a.shim else "",
                                                              device["device"], arch),
             "# DRAM roof (cudaMemcpy device to device, read + written bytes): %s GB/s"
             % ("%.1f" % roof if roof else "n/a"),
             "# %d variants of %d units; %d checks, %d failed; %d timings; %.0f s"
             % (nvar, len(units), len(checks), nfail, len(rows), time.time() - t0), ""]
    lines += table(rows, roof) + [""]
    for x in targets:
        lines.append("target: %-55s %s (want >= %.2f): %s" % (
            x["target"], "%.3f" % x["ratio"] if x["ratio"] is not None else "n/a", x["want"],
            "met" if x["met"] else "NOT met"))
    if a.shim:
        lines.append("targets: not judged under the shim (CPU times)")
    lines += ["spills: " + s for s in spills]
    lines += ["FAILED: " + f for f in failures]
    lines.append("checks: %d run, %d failed; timings: %d rows; failures: %d"
                 % (len(checks), nfail, len(rows), len(failures)))
    text = "\n".join(lines) + "\n"
    sys.stdout.write("\n" + text)
    results = a.results or os.path.join(work, "gpu-check.txt")
    with open(results, "w") as f:
        f.write(text)
    with open(os.path.splitext(results)[0] + ".json", "w") as f:
        json.dump({"version": 2, "device": device, "arch": arch, "roof_gbytes_per_s": roof,
                   "checks": checks, "timings": rows, "targets": targets,
                   "failures": failures, "spills": spills}, f, indent=1)
    if failures:
        return 1
    if any(not x["met"] for x in targets):
        return 4
    return 0


def emit_units(a, emit):
    tool = a.tool or os.path.join(a.build, "bin", "roofline-lint")
    if not os.path.exists(tool):
        say("roofline-lint not found at %s (build it, or pass --tool)" % tool)
        return 1
    shutil.rmtree(emit, ignore_errors=True)
    p = sh([tool, "--emit=" + emit, "--target=cuda", a.source, "--", "-std=c++17"])
    if p.returncode:
        say("emit failed:\n" + p.stdout + p.stderr)
        return 1
    say("emitted %s into %s" % (os.path.relpath(a.source, ROOT), emit))
    return 0


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0],
                                 formatter_class=argparse.RawDescriptionHelpFormatter,
                                 epilog=__doc__[__doc__.index("  scripts/"):])
    ap.add_argument("cmd", choices=["emit", "run", "all"])
    ap.add_argument("dir", nargs="?", help="the emitted directory (emit, run)")
    ap.add_argument("--build", default=os.path.join(ROOT, "build"))
    ap.add_argument("--tool", help="roofline-lint (default BUILD/bin/roofline-lint)")
    ap.add_argument("--source", default=SOURCE)
    ap.add_argument("--out")
    ap.add_argument("--arch")
    ap.add_argument("--quick", action="store_true")
    ap.add_argument("--reps", type=int, default=20)
    ap.add_argument("--units")
    ap.add_argument("--results")
    ap.add_argument("--shim", action="store_true")
    ap.add_argument("--nvcc", help="default: nvcc on PATH, else /usr/local/cuda/bin/nvcc")
    ap.add_argument("--reuse", action="store_true",
                    help="skip the build: gpu-bench and the drivers of an earlier run in WORK")
    ap.add_argument("--jobs", type=int, default=os.cpu_count() or 2)
    a = ap.parse_args()
    if a.quick:
        a.reps = min(a.reps, 10)
    if a.cmd in ("emit", "run") and not a.dir:
        ap.error("%s needs the emitted directory" % a.cmd)
    emit = a.dir or os.path.join(a.out or "/tmp/rl-gpu-check", "emit")
    if a.cmd in ("emit", "all"):
        rc = emit_units(a, emit)
        if rc or a.cmd == "emit":
            return rc
    return run(a, emit)


if __name__ == "__main__":
    sys.exit(main())
