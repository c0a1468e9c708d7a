#!/usr/bin/env python3
"""roofline-probe against theory and against STREAM, in one run.

1. Runs roofline-probe several times (--json) and takes, per figure, the
   median of the run medians and the spread over the runs.
2. Compares each peak with the theoretical clock x lanes x FMA units x 2:
   the clock the OS reports (sysfs cpufreq's maximum, else /proc/cpuinfo's
   "cpu MHz"; said so when neither is known) and, beside it, the clock the
   probe measured with a chain of dependent adds (what the core really ran
   at: the OS figure is often the base or the TSC clock, not the boost).
   The bar is 10%.
3. Compiles a STREAM triad written in C (gcc -O3 -fopenmp), runs it between
   the probe runs on arrays of the same size as the probe's DRAM triad
   (each at least 4x the last-level cache), and compares its bandwidth with
   the probe's DRAM triad. The bar is 10%.

Usage: scripts/bench-probe.py [--probe build/bin/roofline-probe] [--runs 3]
       [--fma-units N] [--out docs/results/probe.txt]
"""
import argparse, datetime, json, os, statistics, subprocess, sys, tempfile, time

STREAM_C = r"""
/* STREAM triad (McCalpin's kernel a[j] = b[j] + s*c[j]), OpenMP, counted
   as STREAM counts it: 24 bytes per element, no write-allocate. */
#include <omp.h>
#include <stdio.h>
#include <stdlib.h>

int main(int argc, char **argv) {
  size_t n = strtoull(argv[1], 0, 10);
  int times = atoi(argv[2]);
  double *a = malloc(n * sizeof(double)), *b = malloc(n * sizeof(double)),
         *c = malloc(n * sizeof(double));
  const double s = 3.0;
  if (!a || !b || !c) return 1;
#pragma omp parallel for schedule(static)
  for (size_t j = 0; j < n; ++j) { a[j] = 0; b[j] = 1.0; c[j] = 2.0; }
  for (int k = 0; k < times; ++k) {
    double t = omp_get_wtime();
#pragma omp parallel for schedule(static)
    for (size_t j = 0; j < n; ++j) a[j] = b[j] + s * c[j];
    t = omp_get_wtime() - t;
    if (k > 0) printf("%.9f\n", t); /* STREAM drops the first pass */
  }
  for (size_t j = 0; j < n; j += n / 16 + 1)
    if (a[j] != 7.0) { fprintf(stderr, "wrong result at %zu\n", j); return 2; }
  fprintf(stderr, "threads %d\n", omp_get_max_threads());
  return 0;
}
"""


def read(path):
    try:
        with open(path) as f:
            return f.read().strip()
    except OSError:
        return ""


def cpuinfo():
    info = {}
    for line in read("/proc/cpuinfo").splitlines():
        if not line.strip():
            break
        k, _, v = line.partition(":")
        info[k.strip()] = v.strip()
    return info


def os_clock():
    khz = read("/sys/devices/system/cpu/cpu0/cpufreq/cpuinfo_max_freq")
    if khz.isdigit():
        return int(khz) * 1e3, "sysfs cpufreq cpuinfo_max_freq"
    mhz = cpuinfo().get("cpu MHz")
    if mhz:
        return float(mhz) * 1e6, "/proc/cpuinfo 'cpu MHz'"
    return None, "unknown (no cpufreq, no 'cpu MHz')"


def fma_units(vendor, family, model, isa_bits, override):
    """Vector FMA throughput per core per cycle, as (units, bits, why)."""
    if override:
        return override, isa_bits, "--fma-units"
    if vendor == "AuthenticAMD":
        if family == 0x1A:
            # Zen 5: desktop and server cores (Turin models 0x00-0x1F,
            # Granite Ridge 0x40-0x4F) have four 512-bit FP pipes, two of
            # them FMA; mobile Strix (0x20-0x2F) runs 512-bit ops at half rate.
            if 0x20 <= model <= 0x2F:
                return 1, 512, "AMD Zen 5 mobile: 512-bit ops at half rate"
            return 2, 512, "AMD Zen 5 (family 0x1A): 2 x 512-bit FMA pipes"
        if family == 0x19:
            # Zen 3 and Zen 4: 2 x 256-bit FMA; Zen 4 splits 512-bit ops.
            return (1, 512, "AMD Zen 4: 2 x 256-bit FMA = 1 x 512-bit per cycle") \
                if isa_bits == 512 else (2, 256, "AMD Zen 3/4: 2 x 256-bit FMA")
        if family == 0x17:
            return 2, 128, "AMD Zen 1/2: 2 x 128-bit (Zen 2: 2 x 256-bit) FMA; assumed 128"
    if vendor == "GenuineIntel":
        if isa_bits == 512:
            return 2, 512, "Intel AVX-512 server core: 2 x 512-bit FMA (some SKUs have 1)"
        if isa_bits == 256:
            return 2, 256, "Intel Haswell and later: 2 x 256-bit FMA"
    return 2, isa_bits, "assumed: 2 FMA units of the detected width"


def run_probe(probe, path):
    r = subprocess.run([probe, "--no-progress", "--json=" + path],
                       stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    if r.returncode != 0:
        sys.exit(f"roofline-probe failed ({r.returncode}):\n{r.stderr}")
    with open(path) as f:
        return json.load(f), r.stdout


def stream(binary, n, times, threads):
    env = dict(os.environ, OMP_NUM_THREADS=str(threads), OMP_PROC_BIND="true")
    r = subprocess.run([binary, str(n), str(times)], stdout=subprocess.PIPE,
                       stderr=subprocess.PIPE, text=True, env=env)
    if r.returncode != 0:
        sys.exit(f"STREAM failed ({r.returncode}): {r.stderr}")
    return [24.0 * n / float(t) for t in r.stdout.split()]


def med_spread(xs):
    m = statistics.median(xs)
    return m, (max(xs) - min(xs)) / m if m else 0.0


def g(v, unit):
    for s, p in ((1e12, "T"), (1e9, "G"), (1e6, "M")):
        if v >= s:
            return f"{v / s:.1f} {p}{unit}"
    return f"{v:.1f} {unit}"


def main():
    root = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--probe", default=os.path.join(root, "build/bin/roofline-probe"))
    ap.add_argument("--runs", type=int, default=3)
    ap.add_argument("--stream-times", type=int, default=21)
    ap.add_argument("--fma-units", type=int, default=0)
    ap.add_argument("--out", default=None)
    ap.add_argument("--wait-quiet", type=float, default=300,
                    help="wait up to this many seconds for the 1-minute load "
                         "average to drop below 0.5 before measuring")
    a = ap.parse_args()
    waited = 0.0
    while os.getloadavg()[0] >= 0.5 and waited < a.wait_quiet:
        if waited == 0:
            print(f"bench-probe: load {os.getloadavg()[0]:.2f}, waiting up to "
                  f"{a.wait_quiet:.0f} s for a quiet machine", file=sys.stderr)
        time.sleep(10)
        waited += 10

    info = cpuinfo()
    vendor = info.get("vendor_id", "?")
    family = int(info.get("cpu family", "-1"))
    model = int(info.get("model", "-1"))
    clock, clock_src = os_clock()
    load_before = os.getloadavg()

    out = []
    with tempfile.TemporaryDirectory() as d:
        src, exe = os.path.join(d, "stream.c"), os.path.join(d, "stream")
        with open(src, "w") as f:
            f.write(STREAM_C)
        cc = ["gcc", "-O3", "-fopenmp", src, "-o", exe]
        r = subprocess.run(cc, stderr=subprocess.PIPE, text=True)
        if r.returncode != 0:
            sys.exit("cannot compile STREAM: " + r.stderr)

        runs, tables, streams = [], [], []
        for i in range(a.runs):
            print(f"bench-probe: probe run {i + 1}/{a.runs}", file=sys.stderr)
            data, table = run_probe(a.probe, os.path.join(d, f"p{i}.json"))
            runs.append(data)
            tables.append(table)
            # STREAM on the probe's DRAM triad size, right after the probe.
            dram = next(x for x in data["results"]
                        if x["key"] == "DRAM" and x["kernel"] == "triad")
            # The probe's single-thread DRAM triad arrays are each 4x the LLC,
            # the size its all-threads run splits among the threads.
            n = int(dram["bytes_per_thread"] / 24)
            print(f"bench-probe: STREAM triad run {i + 1}/{a.runs}", file=sys.stderr)
            streams.append(stream(exe, n, a.stream_times, data["cpus"]))
        load_after = os.getloadavg()

    first = runs[0]
    threads = first["cpus"]
    mclk, mclk_spread = med_spread([r["measured_clock_hz"] for r in runs])

    def pick(r, key, kernel):
        return next(x for x in r["results"] if x["key"] == key and x["kernel"] == kernel)

    def figure(key, kernel, which):
        return med_spread([pick(r, key, kernel)[which]["median"] for r in runs])

    def best(key, kernel, which):
        return max(pick(r, key, kernel)[which]["max"] for r in runs)

    out.append(f"roofline-probe benchmark (scripts/bench-probe.py), "
               f"{datetime.date.today().isoformat()}")
    out.append(f"host: {first['cpu']} ({vendor}, family {family:#x} model {model:#x}), "
               f"{threads} CPUs; {' '.join(first['features'])}")
    out.append(f"load average (1 min) before {load_before[0]:.2f}, after {load_after[0]:.2f}"
               f" (waited {waited:.0f} s for < 0.5); this machine is shared with other "
               f"builds: medians and spreads, with the best sample beside them")
    out.append(f"runs: {a.runs} probe runs x {first['samples_per_figure']} samples per figure, "
               f"{statistics.median(r['elapsed_s'] for r in runs):.1f} s per run (median); "
               f"STREAM triad {a.runs} runs x {a.stream_times - 1} timed passes")
    out.append("figures: median over runs of each run's median; spread = (max - min) / median over runs")
    out.append("")
    out.append(f"clock, OS: {clock / 1e9:.3f} GHz from {clock_src}" if clock
               else f"clock, OS: {clock_src}: no theoretical peak at the OS clock")
    out.append(f"clock, measured by the probe (dependent integer adds, 1/cycle): "
               f"{mclk / 1e9:.3f} GHz (spread {100 * mclk_spread:.1f}%)")

    lines = []
    isa_bits = 512 if "avx512f" in first["features"] else (256 if "avx2" in first["features"] else 128)
    units, bits, why = fma_units(vendor, family, model, isa_bits, a.fma_units)
    out.append(f"FMA units: {units} x {bits}-bit per core ({why})")
    out.append("")
    out.append("peak  kernel        cores  median (spread)        best sample      "
               "theory @OS clock  ratio   theory @measured  ratio   median within 10%")
    verdicts = []
    for x in first["results"]:
        if x["kernel"] != "fma":
            continue
        key = x["key"]
        # Per core per cycle: FMA lanes x 2 FLOPs; int8 VNNI: 4 MACs x 2 OPs
        # per 32-bit lane; int8 without VNNI: 3 instructions per 4 MACs/lane.
        lanes = bits // {"f64": 64, "f32": 32, "i8": 32}[key]
        per_cycle = units * lanes * 2
        if key == "i8":
            per_cycle = units * lanes * 4 * 2
            if "VNNI" not in x["isa"]:
                per_cycle /= 3
        unit = "OP/s" if key == "i8" else "FLOP/s"
        for which, cores in (("one", 1), ("all", x["all_threads"])):
            if which == "all" and cores == 1:
                continue
            m, sp = figure(key, "fma", which)
            t_os = per_cycle * cores * clock if clock else None
            t_me = per_cycle * cores * mclk
            r_os = m / t_os if t_os else None
            r_me = m / t_me
            ok_os = r_os is not None and abs(r_os - 1) <= 0.10
            ok_me = abs(r_me - 1) <= 0.10
            verdicts.append((key, cores, ok_os, ok_me))
            out.append(
                f"{key:<5} {x['isa']:<13} {cores:>5}  {g(m, unit):>14} ({100 * sp:4.1f}%)  "
                f"{g(best(key, 'fma', which), unit):>14}  "
                f"{(g(t_os, unit) if t_os else 'n/a'):>16}  {(f'{r_os:5.2f}' if r_os else '  n/a')}  "
                f"{g(t_me, unit):>16}  {r_me:5.2f}   "
                f"{'OS clock: ' + ('yes' if ok_os else 'no')}; measured clock: {'yes' if ok_me else 'no'}")
    out.append("")

    # Bandwidths: the probe's table, medians over runs.
    out.append("bandwidth (probe, median over runs)")
    seen = set()
    for x in first["results"]:
        if x["kernel"] == "fma" or (x["key"], x["kernel"]) in seen:
            continue
        seen.add((x["key"], x["kernel"]))
        m1, s1 = figure(x["key"], x["kernel"], "one")
        ma, sa = figure(x["key"], x["kernel"], "all")
        out.append(f"{x['key']:<5} {x['kernel']:<6} {x['detail']:<16} 1 core {g(m1, 'B/s'):>11} "
                   f"({100 * s1:4.1f}%, best {g(best(x['key'], x['kernel'], 'one'), 'B/s')})   "
                   f"{x['all_threads']} cores {g(ma, 'B/s'):>11} ({100 * sa:4.1f}%, best "
                   f"{g(best(x['key'], x['kernel'], 'all'), 'B/s')})")
    out.append("")

    probe_triad, probe_sp = figure("DRAM", "triad", "all")
    all_stream = [v for s in streams for v in s]
    st_med = statistics.median(all_stream)
    st_best = max(all_stream)
    st_runs = [statistics.median(s) for s in streams]
    st_sp = (max(st_runs) - min(st_runs)) / statistics.median(st_runs)
    ratio = probe_triad / st_med
    dram = next(x for x in first["results"] if x["key"] == "DRAM" and x["kernel"] == "triad")
    out.append(f"DRAM: probe triad, {dram['all_threads']} threads, arrays of "
               f"{g(dram['bytes_per_thread'] / 3, 'B')} split among them: "
               f"median {g(probe_triad, 'B/s')} (spread {100 * probe_sp:.1f}%), "
               f"best {g(best('DRAM', 'triad', 'all'), 'B/s')}")
    out.append(f"DRAM: STREAM triad (gcc -O3 -fopenmp, {threads} threads, same array size): "
               f"median {g(st_med, 'B/s')} (spread of run medians {100 * st_sp:.1f}%), "
               f"best {g(st_best, 'B/s')}")
    ratio_best = best("DRAM", "triad", "all") / st_best
    out.append(f"DRAM: probe / STREAM (medians) = {ratio:.3f}: "
               f"{'within' if abs(ratio - 1) <= 0.10 else 'NOT within'} 10%")
    out.append(f"DRAM: probe / STREAM (best samples, STREAM's own convention) = {ratio_best:.3f}: "
               f"{'within' if abs(ratio_best - 1) <= 0.10 else 'NOT within'} 10%")
    out.append("")
    n_os = sum(v[2] for v in verdicts)
    n_me = sum(v[3] for v in verdicts)
    out.append(f"summary: peaks within 10% of theory: {n_me}/{len(verdicts)} at the measured clock, "
               f"{n_os}/{len(verdicts)} at the OS clock; DRAM vs STREAM "
               f"{'within' if abs(ratio - 1) <= 0.10 else 'outside'} 10% (medians), "
               f"{'within' if abs(ratio_best - 1) <= 0.10 else 'outside'} 10% (best samples)")
    out.append("")
    out.append("last probe run's own table:")
    out.append(tables[-1].rstrip())

    text = "\n".join(out) + "\n"
    sys.stdout.write(text)
    if a.out:
        with open(a.out, "w") as f:
            f.write(text)


if __name__ == "__main__":
    main()
