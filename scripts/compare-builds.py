#!/usr/bin/env python3
"""Byte-identity check of two roofline-lint builds over the repository's sources.

Runs both builds on every .c/.cpp/.cc/.cu under test/ and kernels/ (and the
scripts/bench-speed.py file): JSON on the default machine and on a CPU
machine, text on a CPU machine, SARIF on another in warm caches (RUNS), and
compares stdout, stderr and the exit status byte for byte. A refactoring that must
not change output (issue 23) shows 0 differing runs.
Usage: scripts/compare-builds.py --old OLD_TOOL --new NEW_TOOL [-j 2]
"""
import argparse, concurrent.futures, importlib.util, os, subprocess, sys, tempfile

# (machine arguments, format arguments): JSON where the cache model runs for
# JSON only and where it is the verdict's, text and SARIF on CPU machines.
RUNS = [
    ([], ["--format=json"]),  # rtx-a6000: the cache model for JSON only
    (["--machine=xeon-8380"], ["--format=json"]),  # a CPU: the verdict's model
    (["--machine=xeon-8380"], ["--verbosity=full"]),
    (["--machine=epyc-7763", "--cache-state=warm"], ["--format=sarif"]),
]


def sources(root, extra):
    out = []
    for top in ("test", "kernels"):
        for d, _, files in os.walk(os.path.join(root, top)):
            out += [os.path.join(d, f) for f in files
                    if f.endswith((".c", ".cpp", ".cc", ".cu"))]
    return sorted(out) + extra


def run(tool, args, src, cwd):
    # The paths in reports are the ones given: both builds get the same.
    r = subprocess.run([tool, "--quiet"] + args + [src], cwd=cwd,
                       stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                       timeout=600)
    return r.returncode, r.stdout, r.stderr.replace(tool.encode(), b"TOOL")


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--old", required=True)
    ap.add_argument("--new", required=True)
    ap.add_argument("-j", type=int, default=2)
    a = ap.parse_args()
    root = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
    tmp = tempfile.mkdtemp()
    spec = importlib.util.spec_from_file_location(
        "bench", os.path.join(root, "scripts/bench-speed.py"))
    bench = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(bench)
    bench_src = os.path.join(tmp, "bench.cpp")
    bench.generate(bench_src)
    jobs = [(src, cfg + fmt) for src in sources(root, [bench_src])
            for cfg, fmt in RUNS]

    def one(job):
        src, args = job
        old = run(os.path.abspath(a.old), args, src, root)
        new = run(os.path.abspath(a.new), args, src, root)
        return job, old == new, len(old[1])

    same = differ = 0
    nbytes = 0
    with concurrent.futures.ThreadPoolExecutor(a.j) as ex:
        for (src, args), ok, n in ex.map(one, jobs):
            nbytes += n
            if ok:
                same += 1
            else:
                differ += 1
                print(f"DIFFERS: {' '.join(args)} {os.path.relpath(src, root)}")
    print(f"{len(jobs)} runs ({len(jobs) // len(RUNS)} sources x {len(RUNS)} "
          f"machine/format choices, {nbytes:,} bytes of output): {same} identical, "
          f"{differ} differ")
    return 1 if differ else 0


if __name__ == "__main__":
    sys.exit(main())
