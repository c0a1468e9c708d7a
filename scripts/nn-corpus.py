#!/usr/bin/env python3
"""nn-corpus.py: run every test/NN lit test's oracle comparison against one
roofline-lint binary and print all of their per-nest lines and a total
(docs/testing-nn-corpus.md). For following the issue-18 work as it lands:

  python3 scripts/nn-corpus.py --tool /path/to/roofline-lint [--out FILE]

Each test's first `RUN:` line that runs nn-oracle.py with --tool is run as
lit would (%python, %S, %s, %t substituted; the FileCheck pipe dropped).
Exit status 1 when any nest fails.
"""
import argparse
import glob
import os
import re
import shlex
import subprocess
import sys
import tempfile

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))


def command(test, tool, work):
    for line in open(test):
        m = re.match(r"\s*(?://|#)?\s*RUN:\s*(.*)", line)
        if not m or "nn-oracle.py" not in m.group(1) or "--tool roofline-lint" not in m.group(1):
            continue
        if "--self-test-inject-error" in m.group(1):
            continue
        run = m.group(1).split("|")[0]
        run = run.replace("%python", sys.executable)
        run = run.replace("%S", os.path.dirname(test)).replace("%s", test)
        run = run.replace("%t", work)
        args = shlex.split(run)
        return [tool if a == "roofline-lint" else a for a in args]
    return None


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--tool", default=os.path.join(ROOT, "build/bin/roofline-lint"))
    ap.add_argument("--out", help="also write the report to FILE")
    args = ap.parse_args()
    tool = os.path.abspath(args.tool)
    report, failing, totals = [], 0, {}
    with tempfile.TemporaryDirectory() as tmp:
        for test in sorted(glob.glob(os.path.join(ROOT, "test/NN/*.test"))):
            cmd = command(test, tool, os.path.join(tmp, os.path.basename(test)))
            if not cmd:
                continue
            r = subprocess.run(cmd, capture_output=True, text=True)
            name = os.path.relpath(test, ROOT)
            report.append("== %s (exit %d)" % (name, r.returncode))
            body = [l for l in r.stdout.splitlines() if not l.startswith("tool: ")]
            report.extend(body)
            if r.returncode and not body:
                report.append(r.stderr.strip()[:2000])
            failing += r.returncode != 0
            for l in body:
                kind = l.split(":")[0]
                if kind in ("ok", "MISMATCH", "REFUSED", "COUNTED", "REASON",
                            "MISSING", "NOT-CALLED", "NO-EXPECTATION", "UNUSED",
                            "UNKNOWN"):
                    totals[kind] = totals.get(kind, 0) + 1
    report.append("== total: %s; tests failing: %d" % (
        ", ".join("%s %d" % kv for kv in sorted(totals.items())), failing))
    text = "\n".join(report) + "\n"
    sys.stdout.write(text)
    if args.out:
        open(args.out, "w").write(text)
    sys.exit(1 if failing else 0)


if __name__ == "__main__":
    main()
