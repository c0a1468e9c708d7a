#!/usr/bin/env python3
"""One call on a GPU machine: build every CUDA variant, check each against
the CPU float64 reference, time them against cuBLAS (docs/cuda.md).

  scripts/gpu-check.sh [--build build] [--out /tmp/rl-gpu-check]
      [--arch sm_90] [--n 4096] [--reps 20] [--json FILE] [--reuse DIR]

Steps:
  1. roofline-lint --emit --target=cuda on test/CodeGen/Inputs/cuda-variants.cpp;
  2. scripts/cuda-build.py: every cuda_<variant>.cu with nvcc for the
     device's arch (--arch, else nvidia-smi's compute capability, else
     sm_90), each unit's check driver, and scripts/gpu-bench.cu linked with
     all variants and cuBLAS;
  3. if no CUDA device answers: says "no CUDA device" and exits 3;
  4. `cuda_driver check` per unit over shapes that are and are not tile
     multiples: random non-zero inputs, outputs poisoned, every element
     within the manifest's tolerance of the float64 reference;
  5. `gpu-bench time` at N (default 4096): warm-up, --reps cudaEvent-timed
     runs, medians; cublasSgemm (TF32 off), cublasGemmEx int8/bf16,
     cublasSgemv and a device-to-device copy as baselines;
  6. prints the table last and writes the JSON (default OUT/gpu-check.json).
Exit code: 0 all checks passed, 1 a check failed or a build failed, 3 no
CUDA device (everything was still built).
"""

import argparse
import json
import os
import re
import shutil
import subprocess
import sys
import time

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
SOURCE = os.path.join(ROOT, "test", "CodeGen", "Inputs", "cuda-variants.cpp")

# Shapes for the checks: 1, primes, non-multiples of every tile (8, 16, 32,
# 64, 128) and one large one.
GEMM_SHAPES = [(1, 1, 1), (33, 17, 9), (129, 130, 67), (200, 260, 36), (257, 131, 513),
               (1024, 1024, 1024)]
GEMV_SHAPES = [(1, 1), (33, 100), (1000, 4099), (4096, 4096)]
ELEM_SIZES = [1, 1000, 1 << 20]
ELEM = {"f32": "f32", "i8": "i8", "i32": "i32", "bf16": "bf16", "f64": "f64"}


def sh(cmd, **kw):
    return subprocess.run(cmd, capture_output=True, text=True, **kw)


def say(msg):
    print("gpu-check: " + msg, flush=True)


def device_arch():
    smi = shutil.which("nvidia-smi")
    if not smi:
        return None
    p = sh([smi, "--query-gpu=compute_cap", "--format=csv,noheader"])
    m = re.match(r"\s*(\d+)\.(\d+)", p.stdout or "")
    return "sm_%s%s" % m.groups() if p.returncode == 0 and m else None


def load_units(emit):
    with open(os.path.join(emit, "units.json")) as f:
        names = json.load(f)["units"]
    out = []
    for n in names:
        with open(os.path.join(emit, n, "manifest.json")) as f:
            m = json.load(f)
        cuda = [v for v in m["variants"] if v.get("target") == "cuda" and "file" in v]
        if cuda:
            out.append((n, m, cuda))
    return out


def shape_fn(name, sizes, shape):
    body = "".join("const int64_t %s = rl_s[%d]; (void)%s; " % (s["name"], i, s["name"])
                   for i, s in enumerate(sizes))
    return ("static std::vector<int64_t> %s(const int64_t *rl_s) { %s(void)rl_s; return {%s}; }\n"
            % (name, body, ", ".join("int64_t(%s)" % e for e in shape)))


def baseline_of(m):
    """cuBLAS applies to the standard row-major layouts only."""
    a = m["args"]
    sh_ = [x["shape"] for x in a]
    if m["kind"] == "gemm" and len(a) == 3 and sh_[0] == ["M", "N"] and sh_[1] == ["M", "K"] \
            and sh_[2] == ["K", "N"]:
        return "sgemm"
    if m["kind"] == "gemv" and len(a) == 3 and sh_[1] == ["M", "K"] and sh_[2] == ["K"]:
        return "sgemv"
    return ""


def bench_table(units):
    """gpu-bench-table.h: every unit's args, variants and device entries."""
    decl, fns, body = [], [], []
    for n, m, cuda in units:
        def arg(a, idx, tag, compulsory):
            f = "shape_%s_%s_%d" % (n, tag, idx)
            fns.append(shape_fn(f, m["sizes"], a["shape"]))
            return '{"%s", bench::%s, %s, %s, %s}' % (
                a["name"], ELEM.get(a["elem"], "f32"), f,
                "true" if a.get("scalar") else "false", "true" if compulsory else "false")
        args = [arg(a, i, "u", a["intent"] != "temp") for i, a in enumerate(m["args"])]
        vs = []
        for v in cuda:
            decl.append('extern "C" void %s(void *const *, const int64_t *);' % v["device_symbol"])
            prep = "nullptr"
            if v.get("device_prepare"):
                decl.append('extern "C" void %s(void *const *, const int64_t *);' % v["device_prepare"])
                prep = v["device_prepare"]
            ex = [arg(a, i, v["name"].replace("-", "_") + "x", False)
                  for i, a in enumerate(v.get("extra_args", []))]
            vs.append('{"%s", %s, %s, {%s}}' % (v["name"], v["device_symbol"], prep, ", ".join(ex)))
        sizes = ", ".join('"%s"' % s["name"] for s in m["sizes"])
        defaults = ", ".join(str(s["value"] or 64) for s in m["sizes"])
        body.append('    {"%s", "%s", {%s}, {%s}, {%s}, {%s}}' % (
            n, baseline_of(m), sizes, defaults, ", ".join(args), ", ".join(vs)))
    return ("// Generated by scripts/gpu-check.py from the units' manifests.\n"
            + "\n".join(sorted(set(decl))) + "\n\nnamespace bench {\n" + "".join(fns)
            + "inline const std::vector<unit> &units() {\n  static const std::vector<unit> U = {\n"
            + ",\n".join(body) + "};\n  return U;\n}\n} // namespace bench\n")


def check_shapes(m):
    names = [s["name"] for s in m["sizes"]]
    if m["kind"] in ("gemm",) or set(names) == {"M", "N", "K"}:
        return [dict(zip(["M", "N", "K"], s)) for s in GEMM_SHAPES]
    if m["kind"] == "gemv" or set(names) == {"M", "K"}:
        return [dict(zip(["M", "K"], s)) for s in GEMV_SHAPES]
    if len(names) == 1:
        return [{names[0]: n} for n in ELEM_SIZES]
    return [{x: 64 for x in names}]


def timing_sizes(m, n):
    names = [s["name"] for s in m["sizes"]]
    if len(names) == 1:
        return {names[0]: n * n}
    return {x: n for x in names}


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--build", default=os.path.join(ROOT, "build"))
    ap.add_argument("--tool", help="roofline-lint (default BUILD/bin/roofline-lint)")
    ap.add_argument("--out", default="/tmp/rl-gpu-check")
    ap.add_argument("--arch")
    ap.add_argument("--n", type=int, default=4096)
    ap.add_argument("--reps", type=int, default=20)
    ap.add_argument("--json")
    ap.add_argument("--jobs", type=int, default=os.cpu_count() or 2)
    ap.add_argument("--reuse", help="an emitted DIR already built by cuda-build.py for --arch")
    a = ap.parse_args()
    t0 = time.time()
    nvcc = shutil.which("nvcc") or ("/usr/local/cuda/bin/nvcc"
                                    if os.path.exists("/usr/local/cuda/bin/nvcc") else None)
    if not nvcc:
        say("nvcc not found (CUDA is expected at /usr/local/cuda): nothing built")
        return 77
    arch = a.arch or device_arch() or "sm_90"
    os.makedirs(a.out, exist_ok=True)
    emit = a.reuse or os.path.join(a.out, "emit")
    if not a.reuse:
        tool = a.tool or os.path.join(a.build, "bin", "roofline-lint")
        shutil.rmtree(emit, ignore_errors=True)
        p = sh([tool, "--emit=" + emit, "--target=cuda", SOURCE, "--", "-std=c++17"])
        if p.returncode:
            say("emit failed:\n" + p.stdout + p.stderr)
            return 1
        p = sh([sys.executable, os.path.join(ROOT, "scripts", "cuda-build.py"), "--dir", emit,
                "--arch", arch, "--jobs", str(a.jobs), "--link"])
        sys.stdout.write(p.stdout.splitlines()[-1] + "\n" if p.stdout else "")
        if p.returncode:
            say("building the variants failed:\n" + p.stdout + p.stderr)
            return 1
    units = load_units(emit)
    nvar = sum(len(c) for _, _, c in units)
    with open(os.path.join(a.out, "gpu-bench-table.h"), "w") as f:
        f.write(bench_table(units))
    objs = [os.path.join(emit, n, "%s.%s.o" % (v["file"][:-3], arch)) for n, _, c in units for v in c]
    missing = [o for o in objs if not os.path.exists(o)]
    if missing:
        say("objects missing (built for another arch?): " + ", ".join(missing[:3]))
        return 1
    bench = os.path.join(a.out, "gpu-bench")
    p = sh([nvcc, "-std=c++17", "-O3", "-arch=" + arch, "-I", os.path.join(emit, "runtime"),
            "-I", a.out, os.path.join(ROOT, "scripts", "gpu-bench.cu"), "-o", bench] + objs
           + ["-lcublas", "-lcudart"])
    if p.returncode:
        say("building gpu-bench failed:\n" + p.stdout + p.stderr)
        return 1
    ndrv = sum(os.path.exists(os.path.join(emit, n, "cuda_driver")) for n, _, _ in units)
    say("built %d CUDA variants of %d units for %s, %d check drivers and gpu-bench in %.0f s"
        % (nvar, len(units), arch, ndrv, time.time() - t0))
    probe = sh([bench, "probe"])
    if probe.returncode:
        say("no CUDA device (%s): nothing was checked or timed"
            % (probe.stdout.strip() or probe.stderr.strip()).replace("no CUDA device: ", ""))
        return 3
    device = json.loads(probe.stdout)
    say("device: %s (sm_%s)" % (device["device"], device["sm"]))

    checks, failed = [], 0
    for n, m, _ in units:
        drv = os.path.join(emit, n, "cuda_driver")
        for s in check_shapes(m):
            p = sh([drv, "check", "--seed=%d" % (len(checks) + 1)]
                   + ["%s=%d" % kv for kv in s.items()], timeout=1800)
            lines = [json.loads(l) for l in p.stdout.splitlines() if l.startswith("{")]
            if p.returncode and not lines:
                lines = [{"unit": n, "variant": "?", "ok": False, "error": p.stderr.strip()[-300:]}]
            for l in lines:
                l["shape"] = s
                checks.append(l)
                failed += not l.get("ok")
    say("checks: %d, failed: %d" % (len(checks), failed))

    timings = []
    for n, m, _ in units:
        sizes = timing_sizes(m, a.n)
        p = sh([bench, "time", n, "--reps=%d" % a.reps] + ["%s=%d" % kv for kv in sizes.items()],
               timeout=1800)
        for l in p.stdout.splitlines():
            if l.startswith("{"):
                r = json.loads(l)
                r["sizes"] = sizes
                timings.append(r)
        if p.returncode:
            say("gpu-bench %s: %s" % (n, p.stderr.strip()[-300:]))

    def t(unit_kind, name):
        for r in timings:
            if r["unit"].startswith(unit_kind) and r["variant"] == name and r["median_s"] > 0:
                return r
        return None

    targets = []
    def target(what, got, want):
        targets.append({"target": what, "ratio": got, "want": want,
                        "met": got is not None and got >= want})
    bt, cb = t("gemm_L", "blocktiled"), t("gemm_L", "cublasSgemm")
    target("blocktiled fp32 / cublasSgemm (N=%d)" % a.n,
           cb["median_s"] / bt["median_s"] if bt and cb else None, 0.65)
    for unit, var in [("gemv_L", "vectorized"), ("chain3_L44_x3", "fused")]:
        v, c = t(unit, var), t(unit, "cudaMemcpy-d2d")
        target("%s %s GB/s / copy GB/s" % (unit.rstrip("_L"), var),
               v["gbytes_per_s"] / c["gbytes_per_s"] if v and c else None, 0.80)
    i8, f32 = t("gemv_L", "int8"), t("gemv_L", "vectorized")
    target("gemv int8 speed-up over fp32 vectorized",
           f32["median_s"] / i8["median_s"] if i8 and f32 else None, 2.5)

    result = {"version": 1, "device": device, "arch": arch, "n": a.n, "reps": a.reps,
              "checks": checks, "timings": timings, "targets": targets,
              "checks_failed": failed}
    out_json = a.json or os.path.join(a.out, "gpu-check.json")
    with open(out_json, "w") as f:
        json.dump(result, f, indent=1)
    print("\n%-18s %-20s %12s %10s %10s" % ("unit", "variant", "median ms", "GFLOP/s", "GB/s"))
    for r in timings:
        print("%-18s %-20s %12.4f %10.1f %10.1f" % (r["unit"][:18], r["variant"],
                                                   r["median_s"] * 1e3, r["gflops"],
                                                   r["gbytes_per_s"]))
    for x in targets:
        print("target: %-45s %s (want >= %.2f): %s" % (
            x["target"], "%.3f" % x["ratio"] if x["ratio"] is not None else "n/a", x["want"],
            "met" if x["met"] else "NOT met"))
    print("checks: %d run, %d failed; JSON: %s" % (len(checks), failed, out_json))
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
