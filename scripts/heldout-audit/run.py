#!/usr/bin/env python3
"""run.py: the held-out audit of issue 18 (README.md in this directory).

  run.py --src DIR --tool BINARY --out DIR [--corpus NAME ...] [--jobs N]
         [--self-test-inject-error]

For each corpus of corpora.txt: checks the fetched files against
sources.txt, runs scripts/nn-oracle.py --audit (the instrumented run of our
driver, then roofline-lint --format=json on the published file with the
driver's sizes), and classifies every nest and case: exact, range-ok, WRONG,
refused, not-run, indirect, inactive (and missing / unknown, which should
not occur). The compute kernels are those listed in CORPUS/kernels.txt.
Prints the table, one line per corpus and a "distinct" total (variants left
out), then the WRONG rows and the refused compute kernels with their
reasons; OUT/CORPUS.json holds every row, OUT/CORPUS.log nn-oracle's output,
OUT/table.txt the table. Exits 1 on a WRONG, missing or unknown row, or a
kernels.txt line that names no nest.
"""
import argparse
import json
import os
import re
import subprocess
import sys
from concurrent.futures import ThreadPoolExecutor

HERE = os.path.dirname(os.path.abspath(__file__))
ORACLE = os.path.join(HERE, "..", "nn-oracle.py")
CLASSES = ["exact", "range-ok", "WRONG", "refused", "not-run", "indirect",
           "inactive", "missing", "unknown"]
# Rows that can be checked: a compute kernel counts in the ratio's
# denominator unless no driver ran it or it is compiled out.
UNCHECKED = ("not-run", "inactive")


def lines_of(path):
    """Lines without comments: '#' at the start or after a blank (a '#'
    inside a word is a nest's ordinal, FUNCTION#2)."""
    for line in open(path):
        line = re.sub(r"(^|\s)#.*", "", line).strip()
        if line:
            yield line


def check_sources(src):
    bad = []
    for line in lines_of(os.path.join(HERE, "sources.txt")):
        repo, commit, path, blob = line.split()
        f = os.path.join(src, repo.replace("/", "+"), path)
        if not os.path.exists(f):
            bad.append("%s: missing (fetch.py --src %s)" % (f, src))
            continue
        got = subprocess.run(["git", "hash-object", f], capture_output=True,
                             text=True).stdout.strip()
        if got != blob:
            bad.append("%s: blob %s, sources.txt says %s (%s@%s)" % (
                f, got, blob, repo, commit[:12]))
    if bad:
        sys.exit("run.py: the corpus differs from sources.txt:\n  " + "\n  ".join(bad))


def read_kernels(path):
    """FUNCTION#ORDINAL or FUNCTION#ORDINAL [CASE], one a line."""
    out = []
    for line in lines_of(path):
        m = re.match(r"(\S+?)(?:\s+\[(.*)\])?$", line)
        key = m.group(1) if "#" in m.group(1) else m.group(1) + "#1"
        out.append((key, m.group(2)))
    return out


def audit(corpus, args):
    name, kernel, driver_dir = corpus[:3]
    work = os.path.join(args.out, name)
    cmd = [sys.executable, ORACLE, "--tool", args.tool,
           "--kernel", os.path.join(args.src, kernel),
           "--driver", os.path.join(HERE, driver_dir, "driver.cpp"),
           "--work", work, "--audit", os.path.join(args.out, name + ".json"),
           "--stack-arrays"]
    for opt in corpus[3:]:
        if opt.startswith("include="):  # a header directory of the published code
            cmd += ["--include-dir", os.path.join(args.src, opt[len("include="):])]
        if opt.startswith("tu="):  # the kernel is a header: the tool runs on our file including it
            cmd += ["--tool-input", os.path.join(HERE, driver_dir, opt[len("tu="):]),
                    "--include-dir", os.path.dirname(os.path.join(args.src, kernel)),
                    "--tool-arg=--header-filter=" + re.escape(os.path.basename(kernel)) + "$"]
    if args.self_test_inject_error:
        cmd.append("--self-test-inject-error")
    r = subprocess.run(cmd, capture_output=True, text=True)
    with open(os.path.join(args.out, name + ".log"), "w") as f:
        f.write(" ".join(cmd) + "\n" + r.stdout + r.stderr)
    if r.returncode != 0:
        return name, None, "nn-oracle.py failed (%s.log):\n%s" % (name, r.stderr[-3000:])
    rows = json.load(open(os.path.join(args.out, name + ".json")))["rows"]
    return name, rows, None


def mark_compute(name, driver_dir, rows, problems, notes):
    kernels = read_kernels(os.path.join(HERE, driver_dir, "kernels.txt"))
    keys = {r["key"] for r in rows}
    for key, case in kernels:
        if key not in keys:
            problems.append("%s/kernels.txt: %s names no nest" % (driver_dir, key))
    for r in rows:
        r["compute"] = any(k == r["key"] and (c is None or c == r["case"])
                           for k, c in kernels)
        if r["compute"] and r["class"] == "inactive":
            problems.append("%s/kernels.txt: %s (line %d) is compiled out" % (
                driver_dir, r["key"], r["line"]))
        if not r["compute"] and r.get("run_flops", 0) > 0:
            notes.append("%s: %s (line %d) is no listed compute kernel but ran %d FLOPs"
                         % (name, r["key"], r["line"], r["run_flops"]))


def table_line(label, rows):
    n = {c: sum(r["class"] == c for r in rows) for c in CLASSES}
    comp = [r for r in rows if r["compute"] and r["class"] not in UNCHECKED]
    exact = sum(r["class"] == "exact" for r in comp)
    by = {}
    for r in comp:
        by[r["class"]] = by.get(r["class"], 0) + 1
    ratio = "%d/%d" % (exact, len(comp))
    if label == "distinct" and comp:
        ratio += " = %d%%" % (100 * exact // len(comp))
    extra = "".join("  %s %d" % (c, n[c]) for c in ("missing", "unknown") if n[c])
    return "%-10s %6d %6d %6d %9d %7d %8d %8d %9d%s | %s %s" % (
        label, len(rows), n["exact"], n["range-ok"], n["WRONG"], n["refused"],
        n["not-run"], n["indirect"], n["inactive"], extra, ratio,
        json.dumps(dict(sorted(by.items()))))


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--src", required=True, help="the fetched corpus (fetch.py)")
    ap.add_argument("--tool", required=True, help="the roofline-lint binary")
    ap.add_argument("--out", required=True)
    ap.add_argument("--corpus", action="append", help="only these (default: all)")
    ap.add_argument("--jobs", type=int, default=2)
    ap.add_argument("--self-test-inject-error", action="store_true",
                    help="the oracle's FLOPs one more everywhere: every counted row "
                         "must turn WRONG (or stay range-ok inside its range)")
    args = ap.parse_args()
    args.tool = os.path.abspath(args.tool)
    os.makedirs(args.out, exist_ok=True)
    check_sources(args.src)
    corpora = [l.split() for l in lines_of(os.path.join(HERE, "corpora.txt"))]
    if args.corpus:
        corpora = [c for c in corpora if c[0] in args.corpus]
    with ThreadPoolExecutor(args.jobs) as pool:
        results = list(pool.map(lambda c: audit(c, args), corpora))
    problems, notes, out, distinct = [], [], [], []
    out.append("corpus      rows  exact  range     WRONG refused  not-run indirect  "
               "inactive | compute kernels: exact/all")
    for corpus, (name, rows, error) in zip(corpora, results):
        if error:
            problems.append("%s: %s" % (name, error))
            continue
        mark_compute(name, corpus[2], rows, problems, notes)
        for r in rows:
            r["corpus"] = name
        out.append(table_line(name, rows))
        if "variant" not in corpus[3:]:
            distinct += rows
    out.append(table_line("distinct", distinct))
    allrows = [r for _, rows, _ in results if rows for r in rows]
    wrong = [r for r in allrows if r["class"] in ("WRONG", "missing", "unknown")]
    out.append("")
    out.append("WRONG / missing / unknown rows: %d" % len(wrong))
    for r in wrong:
        out.append("  %s %s (line %d)%s: %s: %s" % (
            r["corpus"], r["key"], r["line"], " [%s]" % r["case"] if r["case"] else "",
            r["class"], r["detail"]))
    out.append("Compute kernels not exact:")
    for r in allrows:
        if r["compute"] and r["class"] != "exact":
            out.append("  %s %s (line %d)%s: %s: %s" % (
                r["corpus"], r["key"], r["line"], " [%s]" % r["case"] if r["case"] else "",
                r["class"], r["detail"]))
    if notes:
        out.append("Notes (review kernels.txt):")
        out += ["  " + n for n in notes]
    text = "\n".join(out)
    print(text)
    with open(os.path.join(args.out, "table.txt"), "w") as f:
        f.write(text + "\n")
    for p in problems:
        print("run.py: " + p, file=sys.stderr)
    sys.exit(1 if wrong or problems else 0)


if __name__ == "__main__":
    main()
