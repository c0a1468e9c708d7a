#!/usr/bin/env python3
"""bench-scale.py: roofline-lint on a generated project of many files.

Generates a project of --files C++ sources (each includes <cmath> and holds
a gemm, a stencil, a reduction and a template instantiation, so a
translation unit costs what a real one does), then measures
  * wall time with -j 1 and -j 2 on all files: the speedup must be >= 1.7x
    on 2 cores;
  * max RSS (of the roofline-lint process, via wait4) for 100 and for all
    files: memory must stay flat in the number of files (ASTs are not kept;
    a file's result is small).
Writes the numbers to --out (default docs/results/scale.txt).

  python3 scripts/bench-scale.py --tool build/bin/roofline-lint
"""
import argparse
import os
import platform
import resource
import shutil
import subprocess
import sys
import tempfile
import time

SOURCE = """\
// Generated file {i} of the bench-scale project.
#include <cmath>

constexpr int N{i} = {n};
float A{i}[N{i}][N{i}], B{i}[N{i}][N{i}], C{i}[N{i}][N{i}];
float vecx_{i}[N{i} * N{i}], vecy_{i}[N{i} * N{i}];

void gemm_{i}() {{
  for (int i = 0; i < N{i}; ++i)
    for (int j = 0; j < N{i}; ++j) {{
      C{i}[i][j] = 0;
      for (int k = 0; k < N{i}; ++k)
        C{i}[i][j] += A{i}[i][k] * B{i}[k][j];
    }}
}}

void stencil_{i}() {{
  for (int i = 1; i < N{i} - 1; ++i)
    for (int j = 1; j < N{i} - 1; ++j)
      B{i}[i][j] = 0.25f * (A{i}[i - 1][j] + A{i}[i + 1][j] + A{i}[i][j - 1] + A{i}[i][j + 1]);
}}

float norm_{i}() {{
  float s = 0;
  for (int i = 0; i < N{i} * N{i}; ++i)
    s += vecx_{i}[i] * vecx_{i}[i];
  return std::sqrt(s);
}}

template <int M> void scale_{i}(float *p) {{
  for (int i = 0; i < M; ++i)
    p[i] = std::exp(p[i]);
}}
void use_{i}() {{ scale_{i}<{m}>(vecy_{i}); }}
"""


def generate(root, count):
    os.makedirs(root, exist_ok=True)
    for i in range(count):
        sub = os.path.join(root, f"mod{i // 50:02d}")
        os.makedirs(sub, exist_ok=True)
        with open(os.path.join(sub, f"k{i:03d}.cpp"), "w") as f:
            f.write(SOURCE.format(i=i, n=64 + (i % 7) * 32, m=256 + i))


def run(cmd):
    """Wall seconds, max RSS (KiB) and CPU seconds of one run of cmd."""
    start = time.perf_counter()
    p = subprocess.Popen(cmd, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)
    _, status, usage = os.wait4(p.pid, 0)
    wall = time.perf_counter() - start
    err = p.stderr.read().decode()
    p.stderr.close()
    code = os.waitstatus_to_exitcode(status)
    if code not in (0, 1):
        sys.exit(f"bench-scale: {' '.join(cmd[:4])} ... exited {code}:\n{err}")
    return wall, usage.ru_maxrss, usage.ru_utime + usage.ru_stime


def best(cmd, repeat):
    """The fastest run's wall and CPU seconds, and the largest max RSS."""
    runs = [run(cmd) for _ in range(repeat)]
    fastest = min(runs, key=lambda r: r[0])
    return fastest[0], max(r for _, r, _ in runs), fastest[2]


def main():
    ap = argparse.ArgumentParser(description=__doc__,
                                 formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--tool", default="build/bin/roofline-lint")
    ap.add_argument("--files", type=int, default=500)
    ap.add_argument("--small", type=int, default=100)
    ap.add_argument("--repeat", type=int, default=2)
    ap.add_argument("--out", default="docs/results/scale.txt")
    ap.add_argument("--taskset", default="",
                    help="CPU list to pin the runs to (e.g. 0,1: two cores)")
    ap.add_argument("--autogroup-nice", type=int, default=None,
                    help="on a machine shared with other sessions (Linux "
                         "autogroup scheduling shares CPU per session, not "
                         "per thread), give this benchmark's session this "
                         "nice value (negative needs root), so -j 2 can get "
                         "both cores")
    args = ap.parse_args()
    if args.autogroup_nice is not None:
        try:
            os.setsid()  # a session (and autogroup) of its own
        except OSError:
            pass  # already a session or group leader
        with open("/proc/self/autogroup", "w") as f:
            f.write(str(args.autogroup_nice))

    tool = os.path.abspath(args.tool)
    work = tempfile.mkdtemp(prefix="roofline-scale-")
    try:
        big = os.path.join(work, "big")
        small = os.path.join(work, "small")
        generate(big, args.files)
        generate(small, args.small)
        pin = ["taskset", "-c", args.taskset] if args.taskset else []
        base = pin + [tool, "--no-source", "--quiet"]

        # Warm the file cache once.
        run(base + ["-j", "2", small])
        t1, r1, c1 = best(base + ["-j", "1", big], args.repeat)
        t2, r2, c2 = best(base + ["-j", "2", big], args.repeat)
        _, rs1, _ = best(base + ["-j", "1", small], args.repeat)
        _, rs2, _ = best(base + ["-j", "2", small], args.repeat)
        _, rj, _ = best(base + ["-j", "2", "--format=json", big], 1)
        _, rjs, _ = best(base + ["-j", "2", "--format=json", small], 1)
        speedup = t1 / t2
        flat = r2 / rs2

        cpus = len(os.sched_getaffinity(0)) if hasattr(os, "sched_getaffinity") else os.cpu_count()
        model = ""
        try:
            with open("/proc/cpuinfo") as f:
                for line in f:
                    if line.startswith("model name"):
                        model = line.split(":", 1)[1].strip()
                        break
        except OSError:
            pass
        lines = [
            "roofline-lint at scale (scripts/bench-scale.py)",
            f"machine: {platform.machine()}, {cpus} CPUs available ({model})"
            + (f", runs pinned to CPUs {args.taskset}" if args.taskset else ""),
            "load: " + ", ".join(f"{x:.2f}" for x in os.getloadavg())
            + " (1, 5, 15 min averages at the end)"
            + (f"; this session's autogroup nice {args.autogroup_nice} (the cores are "
               "shared with other sessions)" if args.autogroup_nice is not None else ""),
            f"project: {args.files} generated C++ files (4 nests and a template each, "
            f"#include <cmath>); best of {args.repeat} runs",
            "",
            f"wall, {args.files} files:  -j 1 {t1:7.2f} s   -j 2 {t2:7.2f} s   "
            f"speedup {speedup:.2f}x  (bar >= 1.70x: {'PASS' if speedup >= 1.7 else 'FAIL'})",
            f"per file:          -j 1 {1000 * t1 / args.files:7.1f} ms  -j 2 {1000 * t2 / args.files:7.1f} ms",
            f"CPU (user+sys):    -j 1 {c1:7.2f} s   -j 2 {c2:7.2f} s   "
            f"(-j 2 kept {c2 / t2:.2f} cores busy; threading overhead {100 * (c2 / c1 - 1):+.0f}% CPU)",
            "",
            "max RSS (text report):",
            f"  -j 1: {args.small} files {rs1 / 1024:7.1f} MiB   {args.files} files {r1 / 1024:7.1f} MiB",
            f"  -j 2: {args.small} files {rs2 / 1024:7.1f} MiB   {args.files} files {r2 / 1024:7.1f} MiB"
            f"   ratio {flat:.2f}  (flat: <= 1.25: {'PASS' if flat <= 1.25 else 'FAIL'})",
            "max RSS (--format=json: nests spooled to a temporary file as they come):",
            f"  -j 2: {args.small} files {rjs / 1024:7.1f} MiB   {args.files} files {rj / 1024:7.1f} MiB"
            f"   ratio {rj / rjs:.2f}",
        ]
        text = "\n".join(lines) + "\n"
        sys.stdout.write(text)
        if args.out:
            os.makedirs(os.path.dirname(os.path.abspath(args.out)), exist_ok=True)
            with open(args.out, "w") as f:
                f.write(text)
        return 0 if speedup >= 1.7 and flat <= 1.25 else 1
    finally:
        shutil.rmtree(work, ignore_errors=True)


sys.exit(main())
