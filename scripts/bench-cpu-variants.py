#!/usr/bin/env python3
"""Performance of the generated CPU kernels against native-core OpenBLAS
(issue 20), as ratios measured in one run on this machine; writes
docs/results/cpu-variants.txt.

Every unit is emitted with `roofline-lint --emit` at its sizes and built and
checked by `roofline-run` (each variant and both library baselines against
the double-precision reference, at the benchmark sizes); its drivers are
then timed in interleaved rounds, the order of the two sides alternating
from round to round, so that load changes hit both. A round's time is the
median of a `driver time` (several repetitions); the file gives the median
over rounds with the min..max spread, the load average (uptime) at the start
and end of each section, and whether each target is met.

Targets (single thread unless said):
  gemm    fp32 `tiled` vs OpenBLAS cblas_sgemm on its native core (the
          process runs without OPENBLAS_CORETYPE / OPENBLAS_L2_SIZE; the core
          openblas_get_corename() gives is printed) at N=1024, 2048 and the NN
          layer shapes 256x2304x768, 256x768x3072, 777x333x1024, 1000^3:
          >= 1.0; BLIS beside it (its sub-configuration printed); 64^3 (the
          small path, nothing packed): >= 0.8; `parallel` at N=2048 on all
          cores vs `tiled` on one: >= 1.8x (on 2 cores); int8 (AMX or VNNI) and
          bf16 (AMX or vdpbf16ps) GOP/s vs fp32 `tiled` at N=1024: >= 3x and
          >= 1.7x (scripts/bench-amx.sh: AMX vs the paths it replaces).
  epilogue  matmul + bias + GELU (tanh) fused (the epilogue on C in
          registers) vs the unfused pair (`tiled` gemm, then the elementwise
          nest as written); the NN form out = bias + in * w^T (`linear`:
          weights transposed) vs the plain gemm.
  legacy  the issue-6 sections: the fused activation chain vs its byte-ratio
          prediction, int8 vs fp32 gemv at N=16384, conv2d implicit gemm vs
          naive.
  conv    int8 and bf16 convolutions vs fp32 tiled (implicit gemm) in the
          same rounds: conv2d C=K=64 H=W=58 3x3, and with zero padding 1.

  scripts/bench-cpu-variants.py [--build build] [--out /tmp/rl-bench-cpu]
      [--rounds 5] [--only gemm|epilogue|legacy|conv] [--results FILE]
      [--shapes N=1024,64,...] [--machine host.yaml]
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
VARIANTS_CPP = "test/CodeGen/Inputs/variants.cpp"
CPUS = os.cpu_count() or 1


def sh(cmd, env=None, cwd=None, ok=(0,)):
    r = subprocess.run(cmd, capture_output=True, text=True, env=env, cwd=cwd)
    if r.returncode not in ok:
        sys.exit("failed: %s\n%s%s" % (" ".join(cmd), r.stdout[-3000:], r.stderr[-3000:]))
    return r.stdout


def uptime():
    return sh(["uptime"]).strip()


def summary(xs):
    return statistics.median(xs), min(xs), max(xs)


def fmt(xs, unit="", digits=3):
    m, lo, hi = summary(xs)
    f = "%%.%dg" % digits
    return (f + "%s [" + f + " .. " + f + "]") % (m, unit, lo, hi)


def verdict(value, bar):
    return "MET" if value >= bar else "MISSED"


class Bench:
    def __init__(self, args, log):
        self.args, self.log = args, log
        self.tool = os.path.join(args.build, "bin", "roofline-lint")
        self.run = os.path.join(args.build, "bin", "roofline-run")
        self.probe = os.path.join(args.build, "bin", "roofline-probe")
        self.machine = None
        self.core_f32 = 0  # the probed 1-core f32 peak, FLOP/s
        self.cores = {}  # library -> kernel it reported

    def host_machine(self):
        """A full probe of this machine (1-core and all-core peaks): the
        roof of each row's % roof."""
        if self.machine:
            return self.machine
        if self.args.machine:
            self.machine = self.args.machine
        else:
            self.machine = os.path.join(self.args.out, "host.yaml")
            sh([self.probe, "--no-progress", "-o", self.machine] +
               (["--quick"] if self.args.smoke else []))
        peaks = {}
        section = None
        for line in open(self.machine):
            if not line.startswith(" "):
                section = line.split(":")[0]
            elif section in ("peaks", "core_peaks") and ":" in line:
                k, v = line.strip().split(":", 1)
                peaks[(section, k)] = float(v)
        self.core_f32 = peaks.get(("core_peaks", "f32"), 0)
        self.log("machine: roofline-probe (%s%s): f32 peak %.0f GFLOP/s on 1 core, %.0f on %d; "
                 "i8 %.0f GOP/s on 1 core" %
                 (self.machine, ", --machine" if self.args.machine else "",
                  self.core_f32 / 1e9, peaks.get(("peaks", "f32"), 0) / 1e9, CPUS,
                  peaks.get(("core_peaks", "i8"), 0) / 1e9))
        return self.machine

    def unit(self, tag, nest, sizes, variants, source=VARIANTS_CPP):
        """Emits, builds and checks one source nest's units at \\p sizes;
        returns {unit: (dir, roofline-run JSON run)}."""
        out = os.path.join(self.args.out, tag)
        shutil.rmtree(out, ignore_errors=True)
        cmd = [self.tool, "--emit=" + out, "--nest=" + nest, "--variants=" + ",".join(variants)]
        cmd += ["--param=%s=%d" % kv for kv in sizes.items()]
        sh(cmd + [os.path.join(ROOT, source)])
        js = os.path.join(out, "run.json")
        sh([self.run, "--machine=" + self.host_machine(), "--reps=3", "--min-time=0.05",
            "--rounds=1", "--timeout=600", "--target=cpu", "--json=" + js, out], ok=(0, 1))
        doc = json.load(open(js))
        res = {}
        for r in doc["runs"]:
            res[r["unit"]] = (os.path.join(out, r["unit"]), r)
            for v in r["variants"]:
                if v["status"] != "ok":
                    sys.exit("%s %s: %s (%s)" % (r["unit"], v["name"], v["status"],
                                                 v.get("reason", "")))
                if v.get("library"):
                    self.cores[v["name"]] = v["library"]
        return res

    def time(self, unit_dir, name, sizes, reps, min_time, threads=1):
        """One `driver time` median: ours from the unit's driver, a library
        from its own driver, each in its environment."""
        rr = os.path.join(unit_dir, "roofline-run")
        env = dict(os.environ, OMP_NUM_THREADS=str(threads))
        drv = os.path.join(rr, "driver")
        if name == "openblas":
            drv = os.path.join(rr, "driver-openblas")
            env.pop("OPENBLAS_CORETYPE", None)
            env.pop("OPENBLAS_L2_SIZE", None)
            env.update(OPENBLAS_NUM_THREADS="1", OMP_NUM_THREADS="1")
        elif name == "blis":
            drv = os.path.join(rr, "driver-blis")
            env.pop("BLIS_ARCH_TYPE", None)
            env.update(BLIS_NUM_THREADS="1", OMP_NUM_THREADS="1",
                       RL_BLIS_ARCH=self.cores.get("blis", ""))
        known = {x["name"] for x in json.load(open(os.path.join(unit_dir, "manifest.json")))["sizes"]}
        cmd = [drv, "time", name, "--reps=%d" % reps, "--min-time=%g" % min_time,
               "--buffers=1"] + ["%s=%d" % kv for kv in sizes.items() if kv[0] in known]
        line = [l for l in sh(cmd, env=env).splitlines() if l.startswith("{")][0]
        return json.loads(line)["median_s"]

    def has(self, unit_dir, name):
        """Whether roofline-run built the driver of library \\p name."""
        return os.path.exists(os.path.join(unit_dir, "roofline-run", "driver-" + name))

    def pairs(self, unit_dir, sizes, sides, reps, min_time):
        """Interleaved rounds over \\p sides [(name, threads)]: each round
        times every side once, the order rotating from round to round. A
        library that is not installed (no driver) is left out."""
        sides = [s for s in sides if s[0] not in ("openblas", "blis") or
                 self.has(unit_dir, s[0])]
        times = {s: [] for s in sides}
        for r in range(self.args.rounds):
            order = sides[r % len(sides):] + sides[:r % len(sides)]
            if r % 2:
                order = order[::-1]
            for s in order:
                times[s].append(self.time(unit_dir, s[0], sizes, reps, min_time, s[1]))
        return times


def gemm_section(b, log):
    log("1. fp32 gemm C = A B (row-major), single thread: generated `tiled` vs OpenBLAS on")
    log("   its native core (target >= 1.0) and BLIS; GFLOP/s = 2MNK / median time")
    shapes = [("N=1024", 1024, 1024, 1024), ("N=2048", 2048, 2048, 2048),
              ("256x2304x768", 256, 2304, 768), ("256x768x3072", 256, 768, 3072),
              ("777x333x1024", 777, 333, 1024), ("1000^3", 1000, 1000, 1000)]
    if b.args.smoke:  # the script's own test: the same steps at small sizes
        shapes = [("N=1024", 96, 80, 72), ("N=2048", 100, 64, 50)]
    if b.args.shapes:
        shapes = [s for s in shapes if s[0] in b.args.shapes.split(",")]
    for tag, m, n, k in shapes:
        sizes = {"M": m, "N": n, "K": k}
        variants = ["tiled"]
        if tag == "N=1024":
            variants += ["int8", "bf16"]
        if tag == "N=2048":
            variants += ["parallel"]
        res = b.unit("gemm-" + tag.replace("^", "_"), "gemm", sizes, variants)
        d, run = res["gemm_L10"]
        fl = 2.0 * m * n * k
        reps = max(3, min(20, int(3e9 / fl)))
        t = b.pairs(d, sizes, [("tiled", 1), ("openblas", 1), ("blis", 1)], reps, 0.2)
        ours, ob, bl = t[("tiled", 1)], t[("openblas", 1)], t.get(("blis", 1), [float("nan")])
        ratio = [o / x for x, o in zip(ours, ob)]
        ratio_b = [o / x for x, o in zip(bl, ob)]
        # The median rate against the probed 1-core f32 peak (roofline-run's
        # own percent is from its short check run, not these rounds).
        pct = 100 * fl / statistics.median(ours) / b.core_f32 if b.core_f32 else 0
        log("  %-13s tiled %s GFLOP/s (%.0f%% of the 1-core f32 peak), OpenBLAS %s, BLIS %s" %
            (tag, fmt([fl / x / 1e9 for x in ours]), pct,
             fmt([fl / x / 1e9 for x in ob]), fmt([fl / x / 1e9 for x in bl])))
        log("  %-13s tiled / OpenBLAS %s  %s;  BLIS / OpenBLAS %s" %
            ("", fmt(ratio), verdict(statistics.median(ratio), 1.0), fmt(ratio_b)))
        # Logged as soon as measured, so that a run cut short keeps them.
        if tag == "N=1024":
            quantized(log, fl, b.pairs(d, sizes, [("tiled", 1), ("int8", 1), ("bf16", 1)],
                                       reps, 0.2))
        if tag == "N=2048":
            parallel(log, fl, b.pairs(d, sizes, [("tiled", 1), ("parallel", CPUS)],
                                      max(2, reps), 0.3))
    log("")
    if b.args.shapes and "64" not in b.args.shapes.split(","):
        return
    # The small path.
    sizes = {"M": 64, "N": 64, "K": 64}
    res = b.unit("gemm-64", "gemm", sizes, ["tiled"])
    d, _ = res["gemm_L10"]
    t = b.pairs(d, sizes, [("tiled", 1), ("openblas", 1), ("blis", 1)], 2000, 0.2)
    ours, ob = t[("tiled", 1)], t[("openblas", 1)]
    ratio = [o / x for x, o in zip(ours, ob)]
    fl = 2.0 * 64 ** 3
    log("2. small gemm 64^3 (the small path: nothing packed, C in registers), single thread,")
    log("   operands in cache (one buffer set, as OpenBLAS): target >= 0.8 of OpenBLAS")
    log("  tiled %s GFLOP/s, OpenBLAS %s, BLIS %s; tiled / OpenBLAS %s  %s" %
        (fmt([fl / x / 1e9 for x in ours]), fmt([fl / x / 1e9 for x in ob]),
         fmt([fl / x / 1e9 for x in t.get(("blis", 1), [float("nan")])]), fmt(ratio),
         verdict(statistics.median(ratio), 0.8)))
    log("")


def parallel(log, fl, p):
    sp = [a / c for a, c in zip(p[("tiled", 1)], p[("parallel", CPUS)])]
    log("3. parallel (columns of C per thread, %d threads) vs tiled (1 thread), N=2048 (target >= 1.8x):" % CPUS)
    log("  tiled %s GFLOP/s, parallel %s GFLOP/s, speedup %s x  %s" %
        (fmt([fl / x / 1e9 for x in p[("tiled", 1)]]),
         fmt([fl / x / 1e9 for x in p[("parallel", CPUS)]]), fmt(sp),
         verdict(statistics.median(sp), 1.8)))


def has_amx():
    """Whether the variants' rl::pick takes path amx here: the CPU flags
    rl::amx_usable asks for (Linux grants the tile state on request)."""
    try:
        with open("/proc/cpuinfo") as f:
            flags = next((l.split(":", 1)[1].split() for l in f if l.startswith("flags")), [])
    except OSError:
        return False
    return all(x in flags for x in ("amx_tile", "amx_int8", "amx_bf16", "avx512_vnni",
                                    "avx512_bf16"))


def quantized(log, fl, q):
    amx = has_amx()
    r8 = [a / c for a, c in zip(q[("tiled", 1)], q[("int8", 1)])]
    rb = [a / c for a, c in zip(q[("tiled", 1)], q[("bf16", 1)])]
    log("4. quantized gemm N=1024, single thread, vs fp32 tiled (GOP/s = 2MNK / time; the")
    log("   weights A quantized once by the prepare entry, B quantized in the timed kernel):")
    log("  fp32 tiled %s GFLOP/s" % fmt([fl / x / 1e9 for x in q[("tiled", 1)]]))
    log("  int8 (%s) %s GOP/s, %s x fp32  %s (target >= 3x)" %
        ("AMX tdpbsud" if amx else "vpdpbusd", fmt([fl / x / 1e9 for x in q[("int8", 1)]]),
         fmt(r8),
         verdict(statistics.median(r8), 3.0)))
    log("  bf16 (%s) %s GFLOP/s, %s x fp32  %s (target >= 1.7x)" %
        ("AMX tdpbf16ps" if amx else "vdpbf16ps", fmt([fl / x / 1e9 for x in q[("bf16", 1)]]),
         fmt(rb),
         verdict(statistics.median(rb), 1.7)))


def epilogue_section(b, log):
    log("5. epilogues on C in registers, single thread (no target; the point is the pass")
    log("   over C the fusion saves and GELU's tanh done in vectors)")
    shapes = [("256x2304x768", 256, 2304, 768), ("N=1024", 1024, 1024, 1024)]
    if b.args.smoke:
        shapes = [("40x70x30", 40, 70, 30)]
    for tag, m, n, k in shapes:
        sizes = {"M": m, "N": n, "K": k}
        res = b.unit("gelu-" + tag, "dense_gelu", sizes, ["tiled", "naive", "fused"])
        gd, _ = res["dense_gelu_L213"]
        ed, _ = res["dense_gelu_L220"]
        fd, _ = res["dense_gelu_L213_x2"]
        fl = 2.0 * m * n * k
        fused, pair = [], []
        for r in range(b.args.rounds):
            seq = [("fused", fd), ("tiled", gd), ("naive", ed)]
            if r % 2:
                seq = seq[::-1]
            t = {}
            for name, d in seq:
                t[name] = b.time(d, name, sizes, max(3, int(2e9 / fl)), 0.2)
            fused.append(t["fused"])
            pair.append(t["tiled"] + t["naive"])
        sp = [p / f for p, f in zip(pair, fused)]
        log("  matmul+bias+GELU %-13s fused %s s, unfused pair (tiled gemm + epilogue nest) "
            "%s s: %s x" % (tag, fmt(fused), fmt(pair), fmt(sp)))
    sizes = {"M": 256, "N": 2304, "K": 768} if not b.args.smoke else {"M": 20, "N": 30, "K": 40}
    res = b.unit("linear", "linear", sizes, ["tiled"])
    ld, _ = res["linear_L200"]
    res = b.unit("gemm-nnshape", "gemm", sizes, ["tiled"])
    gd, _ = res["gemm_L10"]
    fl = 2.0 * sizes["M"] * sizes["N"] * sizes["K"]
    lin, gem = [], []
    for r in range(b.args.rounds):
        seq = [(ld, lin), (gd, gem)] if r % 2 == 0 else [(gd, gem), (ld, lin)]
        for d, into in seq:
            into.append(b.time(d, "tiled", sizes, 10, 0.2))
    log("  NN form out = bias + in w^T (linear, weights transposed) %dx%dx%d: %s GFLOP/s; "
        "the plain gemm %s GFLOP/s; ratio %s" %
        (sizes["M"], sizes["N"], sizes["K"], fmt([fl / x / 1e9 for x in lin]), fmt([fl / x / 1e9 for x in gem]),
         fmt([g / l for l, g in zip(lin, gem)])))
    log("")


def legacy_section(b, log):
    log("6. issue-6 sections (single thread)")
    res = b.unit("act8", "activation8", {}, ["naive", "fused"], source="kernels/activation8.cpp")
    unit = [u for u in res if u.endswith("_x8")][0]
    d, run = res[unit]
    man = json.load(open(os.path.join(d, "manifest.json")))
    pred = {v["name"]: v["predicted"] for v in man["variants"] if "predicted" in v}
    ratio = pred["naive"]["bytes"]["compulsory"] / pred["fused"]["bytes"]["compulsory"]
    t = b.pairs(d, {}, [("naive", 1), ("fused", 1)], 3, 0.2)
    sp = [a / c for a, c in zip(t[("naive", 1)], t[("fused", 1)])]
    log("  activation8 (64M floats): fused vs unfused %s x; predicted (bytes) %.2fx; %.2f of it "
        "(target >= 0.8)  %s" % (fmt(sp), ratio, statistics.median(sp) / ratio,
                                 verdict(statistics.median(sp) / ratio, 0.8)))
    G = 16384
    res = b.unit("gemv", "gemv", {"M": G, "K": G}, ["tiled", "int8", "bf16"])
    d, _ = res["gemv_L52"]
    t = b.pairs(d, {"M": G, "K": G}, [("tiled", 1), ("int8", 1), ("bf16", 1)], 5, 0.3)
    sp = [a / c for a, c in zip(t[("tiled", 1)], t[("int8", 1)])]
    log("  gemv N=16384: int8 vs fp32 %s x (target >= 3x)  %s; bf16 vs fp32 %s x" %
        (fmt(sp), verdict(statistics.median(sp), 3),
         fmt([a / c for a, c in zip(t[("tiled", 1)], t[("bf16", 1)])])))
    cs = {"N": 1, "C": 64, "K": 64, "H": 58, "W": 58, "R": 3, "S": 3}
    res = b.unit("conv", "conv2d", cs, ["naive", "tiled"])
    d, _ = res["conv2d_L153"]
    t = b.pairs(d, cs, [("naive", 1), ("tiled", 1)], 3, 0.2)
    fl = 2.0 * 64 * 64 * 56 * 56 * 9
    log("  conv2d C=K=64 H=W=58 3x3: tiled (implicit gemm) %s GFLOP/s, naive %s; %s x" %
        (fmt([fl / x / 1e9 for x in t[("tiled", 1)]]), fmt([fl / x / 1e9 for x in t[("naive", 1)]]),
         fmt([a / c for a, c in zip(t[("naive", 1)], t[("tiled", 1)])])))
    log("")


def conv_section(b, log):
    log("7. convolutions, single thread: int8 and bf16 (issue 20: the quantized gemm's")
    log("   micro-kernels on an im2col copy) vs fp32 tiled (implicit gemm), in the same rounds")
    fl = 2.0 * 64 * 64 * 56 * 56 * 9
    for tag, nest, sizes, unit, source, what in (
            ("convq", "conv2d", {"N": 1, "C": 64, "K": 64, "H": 58, "W": 58, "R": 3, "S": 3},
             "conv2d_L153", VARIANTS_CPP, "conv2d N=1 C=K=64 H=W=58 3x3, no padding"),
            ("convpad", "conv_pad1", {"N": 1, "C": 64, "K": 64, "H": 56, "W": 56},
             "conv_pad1_L29", "test/Runner/Inputs/conv-quant.cpp",
             "conv_pad1 N=1 C=K=64 H=W=56 3x3, zero padding 1")):
        res = b.unit(tag, nest, sizes, ["tiled", "int8", "bf16"], source=source)
        d, _ = res[unit]
        t = b.pairs(d, sizes, [("tiled", 1), ("int8", 1), ("bf16", 1)], 3, 0.2)
        log("  %s (%.0f MFLOP): tiled %s GFLOP/s, int8 %s GOP/s, bf16 %s GFLOP/s" %
            (what, fl / 1e6, fmt([fl / x / 1e9 for x in t[("tiled", 1)]]),
             fmt([fl / x / 1e9 for x in t[("int8", 1)]]),
             fmt([fl / x / 1e9 for x in t[("bf16", 1)]])))
        log("    int8 / tiled %s x; bf16 / tiled %s x" %
            (fmt([a / c for a, c in zip(t[("tiled", 1)], t[("int8", 1)])]),
             fmt([a / c for a, c in zip(t[("tiled", 1)], t[("bf16", 1)])])))
    log("")


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--build", default=os.path.join(ROOT, "build"))
    ap.add_argument("--out", default="/tmp/rl-bench-cpu")
    ap.add_argument("--rounds", type=int, default=5)
    ap.add_argument("--only", default="", choices=["", "gemm", "epilogue", "legacy", "conv"])
    ap.add_argument("--results", default="")
    ap.add_argument("--shapes", default="",
                    help="gemm section: only these shapes (N=1024,N=2048,256x2304x768,"
                         "256x768x3072,777x333x1024,1000^3,64)")
    ap.add_argument("--machine", default="", help="a host machine file to reuse (no probe)")
    ap.add_argument("--smoke", action="store_true",
                    help="small sizes, one round: checks the script, measures nothing")
    args = ap.parse_args()
    if args.smoke:
        args.rounds = 1
        args.results = args.results or os.path.join(args.out + "-smoke.txt")
    if not args.results:
        args.results = os.path.join(ROOT, "docs", "results", "cpu-variants%s.txt" %
                                    ("-" + args.only if args.only else ""))
    shutil.rmtree(args.out, ignore_errors=True)
    os.makedirs(args.out)
    lines = []

    def log(s=""):
        # The file is rewritten on every line, so a run cut short keeps what it measured.
        lines.append(s)
        print(s, flush=True)
        with open(args.results, "w") as f:
            f.write("\n".join(lines) + "\n")

    t0 = time.time()
    cpu = "unknown"
    for l in open("/proc/cpuinfo"):
        if l.startswith("model name"):
            cpu = l.split(":", 1)[1].strip()
            break
    gxx = sh(["g++", "--version"]).splitlines()[0]
    log("CPU variants: performance (scripts/bench-cpu-variants.py%s, %d rounds)" %
        (" --only=" + args.only if args.only else "", args.rounds))
    log("date: %s; machine: %s, %d CPUs, %s; %s -O3 -march=native" %
        (time.strftime("%Y-%m-%d %H:%M UTC", time.gmtime()), cpu, CPUS, platform.machine(), gxx))
    log("load at start: %s" % uptime())
    log("This machine's 2 cores are shared with other agents' builds: each ratio is taken")
    log("within a round (the sides back to back, their order alternating), the spread is the")
    log("min..max over rounds, a round's time the median of its repetitions.")
    b = Bench(args, log)
    b.host_machine()
    log("")
    sections = {"gemm": gemm_section, "epilogue": epilogue_section, "legacy": legacy_section,
                "conv": conv_section}
    for name in (["gemm", "epilogue", "legacy", "conv"] if not args.only else [args.only]):
        log("[%s] load at start: %s" % (name, uptime()))
        sections[name](b, log)
        log("[%s] load at end: %s" % (name, uptime()))
        log("")
    if b.cores:
        log("library kernels (as each reported in its check): %s" %
            ", ".join("%s %s" % kv for kv in sorted(b.cores.items())))
    log("every variant and baseline above was checked against the double-precision")
    log("reference at its benchmark sizes by roofline-run (a failure stops the script).")
    log("load at end: %s; took %.0f s" % (uptime(), time.time() - t0))
    return 0


if __name__ == "__main__":
    sys.exit(main())
