#!/usr/bin/env python3
"""Performance of the generated CPU variants (issue 6), as ratios measured in
one run on this machine; writes docs/results/cpu-variants.txt.

  1. fp32 gemm, single thread: the generated `tiled` variant (BLIS packing +
     AVX-512 micro-kernel) against OpenBLAS cblas_sgemm with
     OPENBLAS_NUM_THREADS=1, at N=1024 and 2048 (target >= 85%);
  2. tiled vs naive (and interchanged) at N=1024;
  3. the fused 8-step activation chain (kernels/activation8.cpp, 64M
     floats) against the unfused nests, vs the byte-ratio prediction of the
     manifests (target: measured speedup >= 0.8x the predicted one);
  4. int8 gemv vs fp32 gemv at N=16384, both single thread (target >= 3x);
  5. every measured variant's GFLOP/s against its own roofline bound on
     `host` (the manifest's predicted.bound: compulsory bytes, the probe's
     all-cores peaks and bandwidths); a variant above it means the model or
     the timing is wrong;
  6. a direct convolution (N=1, C=K=64, H=W=58, 3x3: test/CodeGen/Inputs/
     variants.cpp conv2d), single thread: the implicit-gemm `tiled` variant
     (gathered input panels, the gemm micro-kernels) vs `naive`.
     `--only=conv` runs this part alone and writes
     docs/results/cpu-variants-conv.txt.

Rounds interleave the variant and its baseline, so that load changes hit
both; each round is a `driver time` median over several repetitions, and
the file gives the median over rounds with the min-max spread.

  scripts/bench-cpu-variants.py [--build build] [--out /tmp/rl-bench-cpu]
      [--rounds 5] [--results docs/results/cpu-variants.txt]
"""

import argparse
import json
import os
import platform
import shutil
import statistics
import subprocess
import sys
import time

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
FLAGS = ["-std=c++17", "-O3", "-march=native", "-fopenmp"]

SGEMM_BENCH = r"""
// cblas_sgemm timed like the harness's `time`: warm-up, then repetitions;
// prints the median, min and max seconds as JSON.
#include <cblas.h>
#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <random>
#include <vector>
extern "C" int openblas_get_num_threads(void);
extern "C" char *openblas_get_corename(void);
int main(int argc, char **argv) {
  const int N = std::atoi(argv[1]), Reps = std::atoi(argv[2]);
  std::vector<float> A(size_t(N) * N), B(size_t(N) * N), C(size_t(N) * N);
  std::mt19937 G(1);
  std::uniform_real_distribution<float> U(0.1f, 1.0f);
  for (auto &X : A) X = U(G);
  for (auto &X : B) X = U(G);
  auto Run = [&] {
    cblas_sgemm(CblasRowMajor, CblasNoTrans, CblasNoTrans, N, N, N, 1.0f,
                A.data(), N, B.data(), N, 0.0f, C.data(), N);
  };
  Run();
  std::vector<double> T;
  for (int R = 0; R < Reps; ++R) {
    auto T0 = std::chrono::steady_clock::now();
    Run();
    T.push_back(std::chrono::duration<double>(std::chrono::steady_clock::now() - T0).count());
  }
  std::sort(T.begin(), T.end());
  double Med = T.size() % 2 ? T[T.size() / 2] : 0.5 * (T[T.size() / 2 - 1] + T[T.size() / 2]);
  std::printf("{\"median_s\": %.9g, \"min_s\": %.9g, \"max_s\": %.9g, \"threads\": %d, "
              "\"core\": \"%s\", \"check\": %.6g}\n",
              Med, T.front(), T.back(), openblas_get_num_threads(),
              openblas_get_corename(), double(C[size_t(N) * N / 2]));
  return 0;
}
"""


def sh(cmd, env=None, cwd=None):
    r = subprocess.run(cmd, capture_output=True, text=True, env=env, cwd=cwd)
    if r.returncode != 0:
        sys.exit("failed: %s\n%s%s" % (" ".join(cmd), r.stdout, r.stderr))
    return r.stdout


def emit(tool, out, machine, source, params, nests, variants):
    cmd = [tool, "--emit=" + out, "--machine=" + machine,
           "--variants=" + ",".join(variants)]
    cmd += ["--param=%s=%d" % kv for kv in params.items()]
    cmd += ["--nest=" + n for n in nests]
    sh(cmd + [os.path.join(ROOT, source)])


def build_unit(d, runtime):
    objs = []
    for f in sorted(os.listdir(d)):
        if f.endswith(".cpp"):
            o = os.path.join(d, f[:-4] + ".o")
            sh(["g++"] + FLAGS + ["-I" + runtime, "-c", os.path.join(d, f), "-o", o])
            objs.append(o)
    drv = os.path.join(d, "driver")
    sh(["g++", "-fopenmp", "-o", drv] + objs)
    return drv


def manifest(d):
    return json.load(open(os.path.join(d, "manifest.json")))


def variant(m, name):
    for v in m["variants"]:
        if v["name"] == name and "skipped" not in v:
            return v
    sys.exit("%s: no variant %s" % (m["unit"], name))


def time_variant(drv, name, sizes, reps, min_time, threads=1):
    env = dict(os.environ, OMP_NUM_THREADS=str(threads))
    cmd = [drv, "time", name, "--reps=%d" % reps, "--min-time=%g" % min_time]
    cmd += ["%s=%d" % kv for kv in sizes.items()]
    line = [l for l in sh(cmd, env=env).splitlines() if l.startswith("{")][0]
    return json.loads(line)["median_s"]


def summary(xs):
    return statistics.median(xs), min(xs), max(xs)


def fmt(xs, unit="", digits=3):
    m, lo, hi = summary(xs)
    f = "%%.%dg" % digits
    return (f + "%s [" + f + " .. " + f + "]") % (m, unit, lo, hi)


CONV_SIZES = {"N": 1, "C": 64, "K": 64, "H": 58, "W": 58, "R": 3, "S": 3}


def conv_part(tool, out_dir, machine, rounds, log):
    """Section 6: the tiled (implicit gemm) conv against the naive nest;
    returns its rows for the bound table."""
    out = os.path.join(out_dir, "conv")
    emit(tool, out, machine, "test/CodeGen/Inputs/variants.cpp", CONV_SIZES,
         ["conv2d"], ["naive", "tiled"])
    u = json.load(open(os.path.join(out, "units.json")))["units"][0]
    d = os.path.join(out, u)
    drv, m = build_unit(d, os.path.join(out, "runtime")), manifest(d)
    naive, tiled, sp = [], [], []
    for _ in range(rounds):
        a = time_variant(drv, "naive", CONV_SIZES, 3, 0)
        b = time_variant(drv, "tiled", CONV_SIZES, 20, 0.3)
        naive.append(a), tiled.append(b), sp.append(a / b)
    flops = variant(m, "tiled")["predicted"]["flops"]
    log("6. conv2d N=1 C=K=64 H=W=58 3x3 (%.0f MFLOP), single thread: implicit gemm vs naive"
        % (flops / 1e6))
    log("  naive %s s (%s GFLOP/s), tiled %s s (%s GFLOP/s); speedup tiled/naive %s x" %
        (fmt(naive), fmt([flops / t / 1e9 for t in naive]), fmt(tiled),
         fmt([flops / t / 1e9 for t in tiled]), fmt(sp)))
    log("")
    return [("conv2d 64x58x58 3x3", variant(m, "naive"), naive, flops),
            ("conv2d 64x58x58 3x3", variant(m, "tiled"), tiled, flops)]


def load():
    return "%.2f %.2f %.2f" % os.getloadavg()


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--build", default=os.path.join(ROOT, "build"))
    ap.add_argument("--out", default="/tmp/rl-bench-cpu")
    ap.add_argument("--rounds", type=int, default=5)
    ap.add_argument("--machine", default="",
                    help="machine of the bounds (default: host if saved, else "
                         "a quick probe written under --out)")
    ap.add_argument("--results", default="")
    ap.add_argument("--only", default="", choices=["", "conv"],
                    help="run one part alone (conv: section 6)")
    args = ap.parse_args()
    if not args.results:
        args.results = os.path.join(ROOT, "docs", "results", "cpu-variants%s.txt" %
                                    ("-" + args.only if args.only else ""))
    tool = os.path.join(args.build, "bin", "roofline-lint")
    probe = os.path.join(args.build, "bin", "roofline-probe")
    shutil.rmtree(args.out, ignore_errors=True)
    os.makedirs(args.out)
    t_start = time.time()
    load_start = load()
    lines = []
    log = lambda s="": (lines.append(s), print(s, flush=True))

    # The machine of the bounds.
    machine = args.machine
    host_file = os.path.join(os.environ.get("XDG_CONFIG_HOME") or
                             os.path.expanduser("~/.config"), "roofline", "host.yaml")
    if not machine:
        if os.path.exists(host_file):
            machine = "host"
        else:
            machine = os.path.join(args.out, "host.yaml")
            sh([probe, "--no-progress", "-o", machine])
    machine_desc = machine if machine == "host" else "host (roofline-probe, %s)" % machine

    if args.only == "conv":
        log("CPU variants: conv performance (scripts/bench-cpu-variants.py --only=conv, "
            "%d rounds)" % args.rounds)
        cpu = [l.split(":", 1)[1].strip() for l in open("/proc/cpuinfo")
               if l.startswith("model name")][:1] or ["unknown"]
        log("date: %s; machine: %s, %d CPUs; g++ %s" %
            (time.strftime("%Y-%m-%d %H:%M UTC", time.gmtime()), cpu[0],
             os.cpu_count(), " ".join(FLAGS)))
        log("load average (1, 5, 15 min) at start %s (2 shared cores: noisy)" % load_start)
        conv_part(tool, args.out, machine, args.rounds, log)
        log("load average at end %s; took %.0f s" % (load(), time.time() - t_start))
        with open(args.results, "w") as f:
            f.write("\n".join(lines) + "\n")
        return 0

    rt = os.path.join(args.out, "runtime")
    units = {}

    def unit(tag, source, params, nests, variants):
        out = os.path.join(args.out, tag)
        emit(tool, out, machine, source, params, nests, variants)
        res = {}
        for u in json.load(open(os.path.join(out, "units.json")))["units"]:
            d = os.path.join(out, u)
            res[u] = (d, manifest(d))
        return out, res

    # Emit and build everything first.
    gemm = {}
    for n in (1024, 2048):
        out, us = unit("gemm%d" % n, "test/CodeGen/Inputs/variants.cpp",
                       {"M": n, "N": n, "K": n}, ["gemm"],
                       ["naive", "interchanged", "tiled", "parallel"])
        d, m = us["gemm_L10"]
        gemm[n] = (build_unit(d, os.path.join(out, "runtime")), m)
    out, us = unit("act8", "kernels/activation8.cpp", {}, ["activation8"],
                   ["naive", "fused"])
    act_unit = [u for u in us if u.endswith("_x8")][0]
    d, act_m = us[act_unit]
    act_drv = build_unit(d, os.path.join(out, "runtime"))
    G = 16384
    out, us = unit("gemv", "test/CodeGen/Inputs/variants.cpp", {"M": G, "K": G},
                   ["gemv"], ["naive", "tiled", "int8", "bf16"])
    d, gemv_m = us["gemv_L52"]
    gemv_drv = build_unit(d, os.path.join(out, "runtime"))
    sgemm_src = os.path.join(args.out, "sgemm.cpp")
    open(sgemm_src, "w").write(SGEMM_BENCH)
    sgemm = os.path.join(args.out, "sgemm")
    sh(["g++", "-O2", "-o", sgemm, sgemm_src, "-lopenblas"])
    blas_env = dict(os.environ, OPENBLAS_NUM_THREADS="1", OMP_NUM_THREADS="1")

    measured = []  # (what, variant manifest, sizes, seconds list, threads)

    # 1. gemm vs OpenBLAS.
    gemm_rows = []
    for n, (drv, m) in gemm.items():
        sizes = {"M": n, "N": n, "K": n}
        reps = 10 if n == 1024 else 4
        ours, blas, ratio = [], [], []
        info = {}
        for _ in range(args.rounds):
            t = time_variant(drv, "tiled", sizes, reps, 0.3)
            info = json.loads(sh([sgemm, str(n), str(reps)], env=blas_env))
            ours.append(t)
            blas.append(info["median_s"])
            ratio.append(info["median_s"] / t)
        flops = 2.0 * n ** 3
        gemm_rows.append((n, ours, blas, ratio, info))
        measured.append(("gemm N=%d" % n, variant(m, "tiled"), ours, flops))

    # 2. tiled vs naive and interchanged at 1024 (naive is slow: 3 rounds).
    drv, m = gemm[1024]
    sizes = {"M": 1024, "N": 1024, "K": 1024}
    naive, inter, tiled, par, sp_naive, sp_inter = [], [], [], [], [], []
    for _ in range(min(3, args.rounds)):
        tn = time_variant(drv, "naive", sizes, 1, 0)
        ti = time_variant(drv, "interchanged", sizes, 3, 0)
        tt = time_variant(drv, "tiled", sizes, 10, 0.3)
        tp = time_variant(drv, "parallel", sizes, 10, 0.3,
                          threads=os.cpu_count())
        naive.append(tn), inter.append(ti), tiled.append(tt), par.append(tp)
        sp_naive.append(tn / tt)
        sp_inter.append(ti / tt)
    fl = 2.0 * 1024 ** 3
    measured.append(("gemm N=1024", variant(m, "naive"), naive, fl))
    measured.append(("gemm N=1024", variant(m, "interchanged"), inter, fl))
    measured.append(("gemm N=1024 (%d threads)" % os.cpu_count(),
                     variant(m, "parallel"), par, fl))

    # 3. Fused activation chain vs the byte-ratio prediction.
    unf, fus, sp = [], [], []
    for _ in range(args.rounds):
        a = time_variant(act_drv, "naive", {}, 3, 0)
        b = time_variant(act_drv, "fused", {}, 5, 0.3)
        unf.append(a), fus.append(b), sp.append(a / b)
    bn = variant(act_m, "naive")["predicted"]
    bf = variant(act_m, "fused")["predicted"]
    pred = bn["bytes"]["compulsory"] / bf["bytes"]["compulsory"]
    measured.append(("activation8 64M", variant(act_m, "naive"), unf, bn["flops"]))
    measured.append(("activation8 64M", variant(act_m, "fused"), fus, bf["flops"]))

    # 4. int8 vs fp32 gemv.
    gs = {"M": G, "K": G}
    f32, i8, b16, sp8 = [], [], [], []
    for _ in range(args.rounds):
        a = time_variant(gemv_drv, "tiled", gs, 5, 0.3)
        b = time_variant(gemv_drv, "int8", gs, 10, 0.3)
        c = time_variant(gemv_drv, "bf16", gs, 5, 0.3)
        f32.append(a), i8.append(b), b16.append(c), sp8.append(a / b)
    gfl = 2.0 * G * G
    measured.append(("gemv N=16384", variant(gemv_m, "tiled"), f32, gfl))
    measured.append(("gemv N=16384", variant(gemv_m, "int8"), i8, gfl))
    measured.append(("gemv N=16384", variant(gemv_m, "bf16"), b16, gfl))

    # The report.
    cpu = "unknown"
    for l in open("/proc/cpuinfo"):
        if l.startswith("model name"):
            cpu = l.split(":", 1)[1].strip()
            break
    gxx = sh(["g++", "--version"]).splitlines()[0]
    ok = lambda c: "MET" if c else "MISSED"
    log("CPU variants: performance (scripts/bench-cpu-variants.py, %d rounds)" % args.rounds)
    log("date: %s; machine: %s, %d CPUs, %s" % (time.strftime("%Y-%m-%d %H:%M UTC", time.gmtime()),
                                                cpu, os.cpu_count(), platform.machine()))
    log("compiler: %s %s; OpenBLAS %s core, %d thread(s)" %
        (gxx, " ".join(FLAGS), gemm_rows[0][4].get("core"), gemm_rows[0][4].get("threads")))
    log("load average (1, 5, 15 min) at start %s, at end %s: this machine is shared with" %
        (load_start, load()))
    log("other engineers' builds (2 cores), so absolute numbers are noisy; each ratio is")
    log("taken within one round (variant and baseline back to back) and the spread is")
    log("the min..max over rounds. Times: median of a round's repetitions.")
    log("")
    log("1. fp32 gemm, single thread: generated tiled vs OpenBLAS cblas_sgemm (target >= 85%)")
    for n, ours, blas, ratio, _ in gemm_rows:
        f = 2.0 * n ** 3
        log("  N=%d: tiled %s GFLOP/s, OpenBLAS %s GFLOP/s, ratio %s  %s" %
            (n, fmt([f / t / 1e9 for t in ours]), fmt([f / t / 1e9 for t in blas]),
             fmt([100 * r for r in ratio], "%"), ok(statistics.median(ratio) >= 0.85)))
    log("")
    log("2. gemm N=1024: tiled vs naive (ijk as written) and interchanged (ikj)")
    log("  naive %s s, interchanged %s s, tiled %s s" % (fmt(naive), fmt(inter), fmt(tiled)))
    log("  speedup tiled/naive %s x, tiled/interchanged %s x; parallel (%d threads) %s GFLOP/s" %
        (fmt(sp_naive), fmt(sp_inter), os.cpu_count(), fmt([fl / t / 1e9 for t in par])))
    log("")
    log("3. activation8 (8 elementwise steps, 64M floats), single thread: fused vs unfused")
    log("  predicted speedup = compulsory bytes unfused / fused = %.0f / %.0f MB = %.2fx" %
        (bn["bytes"]["compulsory"] / 1e6, bf["bytes"]["compulsory"] / 1e6, pred))
    log("  unfused %s s, fused %s s, measured speedup %s x = %.2f of the prediction "
        "(target >= 0.8)  %s" % (fmt(unf), fmt(fus), fmt(sp), statistics.median(sp) / pred,
                                 ok(statistics.median(sp) / pred >= 0.8)))
    log("")
    log("4. gemv N=16384 (A: 1 GiB f32), single thread: int8 (VNNI) vs fp32 (target >= 3x)")
    log("  fp32 %s s, int8 %s s, bf16 %s s; int8 speedup %s x  %s" %
        (fmt(f32), fmt(i8), fmt(b16), fmt(sp8), ok(statistics.median(sp8) >= 3)))
    log("  (int8 excludes its prepare step, which quantizes the weights once)")
    log("")
    measured += conv_part(tool, args.out, machine, args.rounds, log)
    log("5. measured vs each variant's own roofline bound on %s (compulsory model;" % machine_desc)
    log("   the bound uses the probe's all-cores peaks and bandwidths)")
    log("  %-26s %-13s %12s %12s %8s %s" % ("nest", "variant", "GFLOP/s", "bound", "of bound", ""))
    above = 0
    for what, v, ts, flops in measured:
        p = v["predicted"]
        bound = p.get("bound", {}).get("attainable_flops_per_s")
        g = flops / statistics.median(ts) / 1e9
        if bound:
            frac = g / (bound / 1e9)
            above += frac > 1
            log("  %-26s %-13s %12.2f %12.2f %7.1f%% %s" % (what, v["name"], g, bound / 1e9,
                                                           100 * frac, "ABOVE" if frac > 1 else "below"))
        else:
            log("  %-26s %-13s %12.2f %12s" % (what, v["name"], g, "n/a"))
    nobound = sum(1 for _, v, _, _ in measured if "bound" not in v["predicted"])
    log("  %s" % ("no variant with a bound is above it" if not above else
                  "%d variant(s) above the bound: the model or the timing is wrong" % above))
    if nobound:
        log("  %d variant(s) have no bound (n/a): their IR' counts are not exact at these "
            "sizes (predicted.why_not), so the check does not cover them" % nobound)
    log("")
    log("took %.0f s" % (time.time() - t_start))
    if args.results:
        with open(args.results, "w") as f:
            f.write("\n".join(lines) + "\n")
    return 0


if __name__ == "__main__":
    sys.exit(main())
