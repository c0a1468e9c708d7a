#!/usr/bin/env python3
"""compare-outputs.py: byte-identity of two roofline-lint builds.

Runs a reference binary (e.g. main's build) and a candidate (this tree's)
over every .c/.cpp under the given directories (default test/ and kernels/).
Each file is run once per binary with --output=text:...,json:...,sarif:...
(the three reports of one run), and the files under --emit-dirs once more
with --emit. Compares the exit status, stdout, stderr, each report and
each emitted file byte for byte; prints one line per difference and a
summary; exits 1 when anything differs. Both binaries write to the same
paths, one after the other, so paths in the output match; those are under a
temporary folder of this run's own (with --ref-cache, under the cache, a
job at a time), so that two runs at once, from two checkouts, do not
overwrite each other's files. A refactoring
that must not change output (issue 23) is checked with:

  scripts/compare-outputs.py --ref /work/main/build/bin/roofline-lint \\
      --new build/bin/roofline-lint [-j 2] [--ref-cache DIR] [DIR...]

--ref-cache keeps the reference's results, so that it runs once for
several candidates (or fills ahead with --only-ref). --machine-args runs the
reports once more per set of arguments: the cache model runs for JSON only
on a GPU machine (the default) and for the verdict on a CPU one, so

  --machine-args= --machine-args=--machine=xeon-8380 \
      --machine-args='--machine=epyc-7763 --cache-state=warm'

covers both paths. --drop-json-key KEY compares the candidate's JSON report
with every "KEY": "<string>" member taken out, for a change that adds that
key on purpose and must leave every other byte as it was (the number taken
out is printed, so a key that never appears shows).
"""
import argparse
import concurrent.futures as cf
import contextlib
import fcntl
import hashlib
import json
import os
import pickle
import re
import shutil
import subprocess
import sys
import tempfile

FORMATS = (("text", "report.txt"), ("json", "report.json"),
           ("sarif", "report.sarif"))


def inputs(root, dirs):
    for d in dirs:
        for dirpath, _, names in os.walk(os.path.join(root, d)):
            for n in sorted(names):
                if n.endswith((".c", ".cpp")):
                    yield os.path.relpath(os.path.join(dirpath, n), root)


def read_tree(top):
    """{relative path: bytes} of every file under \\p top."""
    out = {}
    for dirpath, _, names in os.walk(top):
        for n in names:
            p = os.path.join(dirpath, n)
            with open(p, "rb") as f:
                out[os.path.relpath(p, top)] = f.read()
    return out


def run_once(binary, path, kind, args, work, extra=""):
    """What one run shows: status, stdout, stderr and {name: bytes} of the
    files it wrote under \\p work (emptied first)."""
    shutil.rmtree(work, ignore_errors=True)
    os.makedirs(work)
    if kind == "reports":
        outs = ",".join(f"{f}:{os.path.join(work, n)}" for f, n in FORMATS)
        cmd = [binary, *extra.split(), f"--output={outs}", path, "--"]
    else:
        cmd = [binary, f"--emit={os.path.join(work, 'emit')}", "--quiet",
               path, "--"]
    try:
        p = subprocess.run(cmd, cwd=args.root, capture_output=True,
                           timeout=args.timeout)
        status, out, err = p.returncode, p.stdout, p.stderr
    except subprocess.TimeoutExpired:
        status, out, err = "timeout", b"", b""
    return status, out, err, read_tree(work)


def cached_run(binary, path, kind, args, work, extra=""):
    if not args.ref_cache:
        return run_once(binary, path, kind, args, work, extra)
    # The work folder is in the key: the reports name it.
    key = hashlib.sha256(
        repr((binary, path, kind, extra, work)).encode()).hexdigest()
    p = os.path.join(args.ref_cache, key)
    if os.path.exists(p):
        with open(p, "rb") as f:
            return pickle.load(f)
    r = run_once(binary, path, kind, args, work, extra)
    with open(p + ".tmp", "wb") as f:
        pickle.dump(r, f)
    os.replace(p + ".tmp", p)
    return r


def drop_json_key(data, key):
    """\p data (a pretty-printed JSON report) without its "key": "string"
    members, byte for byte as if they had never been written; and how many
    there were."""
    k = re.escape(json.dumps(key))
    value = r'"(?:[^"\\]|\\.)*"'
    # A member followed by another keeps that one's comma; the last member
    # of an object takes the comma of the one before it.
    data, n1 = re.subn((r'\n[ ]*' + k + r': ' + value + r',(?=\n)').encode(),
                       b"", data)
    data, n2 = re.subn((r',\n[ ]*' + k + r': ' + value + r'(?=\n)').encode(),
                       b"", data)
    return data, n1 + n2


@contextlib.contextmanager
def work_dir(job, args):
    """The folder one job's runs write in: one path for both binaries and
    for a cached reference run (the reports name it), and no other
    compare-outputs run's. Under this run's own temporary folder; with
    --ref-cache, under the cache (so that a cached run's paths match
    later ones), held with a lock against another run sharing the cache."""
    name = hashlib.sha256(repr(job).encode()).hexdigest()[:16]
    if not args.ref_cache:
        work = os.path.join(args.work_root, name)
        try:
            yield work
        finally:
            shutil.rmtree(work, ignore_errors=True)
        return
    work = os.path.join(args.ref_cache, "work", name)
    os.makedirs(os.path.dirname(work), exist_ok=True)
    with open(work + ".lock", "w") as lock:
        fcntl.flock(lock, fcntl.LOCK_EX)
        try:
            yield work
        finally:
            shutil.rmtree(work, ignore_errors=True)


def compare(job, args):
    path, kind, extra = job
    with work_dir(job, args) as work:
        ra = cached_run(args.ref, path, kind, args, work, extra)
        if args.only_ref:
            return job, [], ra[0] == "timeout", 0
        rb = run_once(args.new, path, kind, args, work, extra)
    diffs = [n for n, x, y in zip(("status", "stdout", "stderr"), ra, rb)
             if x != y]
    fa, fb = ra[3], dict(rb[3])
    dropped = 0
    for key in args.drop_json_key or []:
        if "report.json" in fb:
            fb["report.json"], n = drop_json_key(fb["report.json"], key)
            dropped += n
    diffs += sorted(n for n in set(fa) | set(fb) if fa.get(n) != fb.get(n))
    return job, diffs, ra[0] == "timeout", dropped


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--ref", required=True, help="reference roofline-lint")
    ap.add_argument("--new", required=True, help="candidate roofline-lint")
    ap.add_argument("--root", default=os.path.join(os.path.dirname(
        os.path.abspath(__file__)), ".."))
    ap.add_argument("--emit-dirs", action="append", default=None,
                    help="directory whose files also run with --emit "
                         "(repeatable; default kernels)")
    ap.add_argument("-j", type=int, default=2)
    ap.add_argument("--timeout", type=float, default=300)
    ap.add_argument("--ref-cache", help="folder that keeps the reference's "
                    "results for later calls")
    ap.add_argument("--only-ref", action="store_true",
                    help="only fill --ref-cache")
    ap.add_argument("--machine-args", action="append", default=None,
                    help="extra arguments of the report runs, one set per "
                    "use (default: none, the default machine)")
    ap.add_argument("--drop-json-key", action="append", default=None,
                    help="take this string member out of the candidate's "
                    "JSON report before comparing (repeatable)")
    ap.add_argument("dirs", nargs="*", default=["test", "kernels"])
    args = ap.parse_args()
    args.root = os.path.abspath(args.root)
    args.ref = os.path.abspath(args.ref)
    args.new = os.path.abspath(args.new)
    emit_dirs = args.emit_dirs if args.emit_dirs is not None else ["kernels"]
    if args.ref_cache:
        os.makedirs(args.ref_cache, exist_ok=True)
    files = list(inputs(args.root, args.dirs))
    machine_sets = args.machine_args if args.machine_args else [""]
    jobs = [(f, "reports", m) for m in machine_sets for f in files]
    jobs += [(f, "emit", "") for f in files if any(
        f.startswith(d.rstrip("/") + "/") for d in emit_dirs)]
    same = differ = timeouts = dropped = 0
    with tempfile.TemporaryDirectory(prefix="compare-outputs-") as root, \
            cf.ThreadPoolExecutor(args.j) as ex:
        args.work_root = root
        for (path, kind, extra), diffs, timed_out, n in ex.map(
                lambda j: compare(j, args), jobs):
            dropped += n
            if diffs:
                differ += 1
                print(f"DIFF {path} [{kind}{' ' + extra if extra else ''}]: "
                      f"{', '.join(diffs[:6])}",
                      flush=True)
            else:
                same += 1
                timeouts += timed_out
    n_reports = sum(1 for _, k, _ in jobs if k == "reports")
    print(f"compare-outputs: {len(files)} files; {len(jobs)} runs per "
          f"binary ({n_reports} with text, JSON and SARIF, "
          f"{len(jobs) - n_reports} with --emit): {same} identical "
          f"({timeouts} of them timed out in both), {differ} differ"
          + (f"; {dropped} JSON members {', '.join(args.drop_json_key)} "
             "taken out of the candidate's reports"
             if args.drop_json_key else ""))
    return 1 if differ else 0


if __name__ == "__main__":
    sys.exit(main())
