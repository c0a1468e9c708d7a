#!/usr/bin/env python3
"""program-oracle.py: roofline-lint's whole-pass roll-up (--entry, docs/
network-report.md) against an instrumented brute-force run of the pass.

  program-oracle.py --tool roofline-lint --kernel P.c --driver P.oracle.cpp \\
                    --entry forward --work DIR [--define=NAME=V] [--tool-arg=...]
  program-oracle.py ... --kernel model.c --kernel matmul.c --tool-db BUILD_DIR

A program in several files: --kernel once per file (the entry's first),
each instrumented and #included by the driver (a unity build; the headers
beside them are copied too), and --tool-db, the directory of the
compile_commands.json the tool is run with (-p), so that it follows the
calls across the files.

1. The oracle: a copy of KERNEL with an OracleScope at the top of every
   function body (same lines), and DRIVER (which #includes it and calls the
   entry once with ORACLE_CALL) are built and run as scripts/nn-oracle.py
   does: every FLOP and every access to a registered array is recorded, and
   every function entry and exit. An event belongs to the innermost function
   execution and to the outermost loop (nest) of that function holding its
   line. Each execution of a nest is measured from a cold start, as the pass
   report counts it: FLOPs, and compulsory bytes = (distinct elements whose
   first access in that execution reads + distinct elements written) x
   element size. Executions are summed per call chain ("forward > block >
   matmul"), function and nest line.
2. roofline-lint --format=json --entry=ENTRY with the driver's ORACLE_PARAM
   sizes as --param; its programs[0] is compared, number by number: every
   row (executions, flops, bytes; the rows of one nest's cases summed), every
   function's sums, and the pass totals. A row the oracle never saw passes
   only with no FLOPs and no bytes (a loop that ran no iteration leaves no
   event); its executions are then left out of its function's. The pass must be complete (nothing
   left out) and every nest the oracle ran must be a row.

3. With --check-formulas, the pass's formulas (programs[0].symbolic: the
   totals as polynomials in the sizes, docs/network-report.md "Symbolic
   totals") are evaluated at the driver's sizes, exactly (fractions, floor()
   for C's '/' on sizes) and compared with the oracle's sums: every formula
   row, every function's FLOPs and bytes, the pass's FLOPs and bytes. A
   formula that is null fails.

Prints one line per row, function and total (ok / MISMATCH) and
  rows: N   functions: F   failing: X
and exits 1 when X > 0. --self-test-inject-error adds one FLOP to the
oracle's first row and one byte to its last, to show the comparison fails;
--self-test-wrong-coefficient adds one to the first coefficient of every
formula, to show the formula check fails.
"""
import argparse
import importlib.util
import json
import math
import os
import re
import shutil
import subprocess
import sys
from fractions import Fraction

HERE = os.path.dirname(os.path.abspath(__file__))
_spec = importlib.util.spec_from_file_location(
    "nn_oracle", os.path.join(HERE, "nn-oracle.py"))
nn = importlib.util.module_from_spec(_spec)
_spec.loader.exec_module(nn)


def instrument(text):
    """KERNEL with `OracleScope oracle_scope_(__func__);` after the opening
    brace of every function body, on the same line."""
    sc = nn.Scanner(text)
    toks = sc.toks
    at = []  # (line, column) of each body's "{"
    depth_of = {}

    def walk(i, end):
        while i < end:
            if toks[i][0] != "{":
                i += 1
                continue
            close = nn.matching(toks, i)
            prev = toks[i - 1][0] if i else ""
            if sc.function_name(i):
                at.append((toks[i][1], toks[i][2]))
            elif prev not in ("=", ",", "(", "return"):
                walk(i + 1, close)
            i = close + 1

    walk(0, len(toks))
    lines = text.split("\n")
    for line, col in sorted(at, reverse=True):
        s = lines[line - 1]
        assert s[col - 1] == "{", (line, col, s)
        lines[line - 1] = s[:col] + " OracleScope oracle_scope_(__func__);" + s[col:]
    return "\n".join(lines)


def run_oracle(args):
    os.makedirs(args.work, exist_ok=True)
    kernels = []
    for source in args.kernel:
        kernel = os.path.join(args.work, os.path.basename(source))
        with open(kernel, "w") as f:
            f.write(instrument(open(source).read()))
        kernels.append(kernel)
        if len(args.kernel) > 1:  # the headers the files share
            here = os.path.dirname(os.path.abspath(source))
            for name in sorted(os.listdir(here)):
                if name.endswith(".h"):
                    shutil.copyfile(os.path.join(here, name),
                                    os.path.join(args.work, name))
    kernel = kernels[0]
    driver = os.path.join(args.work, os.path.basename(args.driver))
    shutil.copyfile(args.driver, driver)
    if args.define:  # another size for the same driver
        wrapper = os.path.join(args.work, "defined." + os.path.basename(driver))
        with open(wrapper, "w") as f:
            for d in args.define:
                name, _, value = d.partition("=")
                f.write("#define %s %s\n" % (name, value or "1"))
            f.write('#include "%s"\n' % os.path.basename(driver))
        driver = wrapper
    ns = argparse.Namespace(work=args.work, cxx=args.cxx, kernel=kernel,
                            driver=driver)
    exe, out = nn.build_and_run_oracle(ns)
    return kernels, exe, out


def measure(out, exe, kernels, symbolizer, nests):
    """{(path, function, nest line): [executions, flops, bytes]}, params."""
    params, arrays = {}, {}
    stack = []          # [(function, execution id)]
    events = {}         # execution id -> {"path", "function", "ev": [...]}
    next_id = 0
    for rec in out.splitlines():
        kind, _, rest = rec.partition(" ")
        if kind == "param":
            name, value = rest.rsplit(" ", 1)
            params[name] = int(value)
        elif kind == "array":
            ident, elem, count, name = rest.split(" ", 3)
            arrays[int(ident)] = int(elem)
        elif kind == "enter":
            fn = rest.split(" ", 1)[1]
            stack.append((fn, next_id))
            events[next_id] = {"path": " > ".join(f for f, _ in stack),
                               "function": fn, "ev": []}
            next_id += 1
        elif kind == "exit":
            stack.pop()
        elif kind in ("R", "W", "F"):
            if not stack:
                sys.exit("program-oracle: an event outside every function "
                         "(is the entry called with ORACLE_CALL?)")
            events[stack[-1][1]]["ev"].append((kind, rest.split()))
    pcs = set()
    for e in events.values():
        for kind, f in e["ev"]:
            pcs |= set(nn.parse_chain(f[3] if kind != "F" else f[1]))
    line_of = {}  # pc -> (which kernel, line)
    for k, kernel in enumerate(kernels):
        for pc, line in nn.symbolize(symbolizer, exe, pcs, kernel).items():
            if line is not None:
                line_of[pc] = (k, line)

    def nest_of(fn, chain):
        at = None
        for pc in nn.parse_chain(chain):  # outermost first: keep the last
            if line_of.get(pc) is not None:
                at = line_of[pc]
        for n in nests:
            if n["function"] == fn and at is not None and n["kernel"] == at[0] \
                    and n["line"] <= at[1] <= n["end_line"]:
                return n["line"]
        return None

    rows = {}
    for e in events.values():
        flops, first, written = {}, {}, set()
        for kind, f in e["ev"]:
            if kind == "F":
                k = nest_of(e["function"], f[1])
                if k is not None:
                    flops[k] = flops.get(k, 0) + int(f[2])
                continue
            k = nest_of(e["function"], f[3])
            if k is None:
                continue
            key = (k, int(f[1]), int(f[2]))
            first.setdefault(key, kind)
            if kind == "W":
                written.add(key)
        for k in set(flops) | {k for k, _, _ in first}:
            b = sum(arrays[a] * ((first[(kk, a, i)] == "R") + ((kk, a, i) in written))
                    for (kk, a, i) in first if kk == k)
            r = rows.setdefault((e["path"], e["function"], k), [0, 0, 0])
            r[0] += 1
            r[1] += flops.get(k, 0)
            r[2] += b
    return rows, params


def run_tool(args, params):
    cmd = [args.tool, "--format=json", "--quiet", "--entry=" + args.entry]
    cmd += ["--param=%s=%d" % kv for kv in sorted(params.items())]
    cmd += args.tool_arg
    if args.tool_db:  # the compile database's commands, and what -- adds
        cmd += ["-p", args.tool_db, args.kernel[0]]
        cmd += ["--"] + args.compile_arg if args.compile_arg else []
    else:
        cmd += [args.kernel[0], "--"] + args.compile_arg
    r = subprocess.run(cmd, capture_output=True, text=True)
    if r.returncode not in (0, 1):
        sys.exit("program-oracle: %s failed (%d): %s" % (" ".join(cmd),
                                                        r.returncode, r.stderr))
    progs = json.loads(r.stdout).get("programs", [])
    if len(progs) != 1:
        sys.exit("program-oracle: the tool reported %d programs" % len(progs))
    return progs[0]


def evaluate_formula(text, sizes):
    """The tool's polynomial text ("(N^2 + N)/2", "floor(dim/n_heads)")
    at integer sizes, exactly."""
    env = {k: Fraction(v) for k, v in sizes.items()}
    env["floor"] = math.floor
    return eval(text.replace("^", "**"), {"__builtins__": {}}, env)


def wrong_coefficient(text):
    """One coefficient of the formula off by one (the self-test)."""
    if text is None:
        return None
    m = re.search(r"(\d+)\*", text)
    if not m:
        return "2*(" + text + ")"
    return text[:m.start(1)] + str(int(m.group(1)) + 1) + text[m.end(1):]


def compare_formulas(tool, rows, per_fn, sizes, wrong, check):
    """The formulas at the driver's sizes against the oracle's sums."""
    sym = tool.get("symbolic") or {}

    def at(label, formula, why, want):
        if wrong:
            formula = wrong_coefficient(formula)
        if formula is None:
            check("formula " + label + " (none: %s)" % why, want, None)
            return
        try:
            got = evaluate_formula(formula, sizes)
        except Exception as e:  # a size the driver does not give
            check("formula %s = %s (%s)" % (label, formula, e), want, None)
            return
        check("formula %s = %s" % (label, formula), want,
              int(got) if got == int(got) else got)

    for r in sym.get("rows", []):
        key = (r["path"], r["function"], r["line"])
        want = rows.get(key, [0, 0, 0])
        label = "%s line %d (%s)" % (r["function"], r["line"], r["path"])
        at(label + " flops", r.get("flops"), r.get("flops_why_not"), want[1])
        at(label + " bytes", r.get("bytes"), r.get("bytes_why_not"), want[2])
    for f in tool["functions"]:
        want = per_fn.get(f["function"], [0, 0, 0])
        at("function %s flops" % f["function"], f.get("flops_formula"),
           f.get("flops_formula_why_not"), want[1])
        at("function %s bytes" % f["function"], f.get("bytes_formula"),
           f.get("bytes_formula_why_not"), want[2])
    t = tool["totals"]
    at("pass flops", t.get("flops_formula"), t.get("flops_formula_why_not"),
       sum(r[1] for r in rows.values()))
    at("pass bytes", t.get("bytes_formula"), t.get("bytes_formula_why_not"),
       sum(r[2] for r in rows.values()))


def compare(tool, rows, sizes=None, formulas=False, wrong=False):
    lines, failing = [], 0

    def check(label, want, got):
        nonlocal failing
        ok = want == got
        failing += not ok
        lines.append("%s %s: oracle %s tool %s" % (
            "ok" if ok else "MISMATCH", label, want, got))

    if not tool["totals"].get("complete") or tool.get("left_out"):
        failing += 1
        lines.append("MISMATCH the pass is incomplete: %s" % tool.get("left_out"))
    got = {}
    for n in tool["nests"]:
        if "flops" not in n:
            failing += 1
            lines.append("MISMATCH %s: no count: %s" % (n["function"], n.get("why_not")))
            continue
        fn = n["function"].split(" [")[0]  # its cases summed
        r = got.setdefault((n["path"], fn, n["line"]), [0, 0, 0])
        r[0] += n["executions"]
        r[1] += n["flops"]
        r[2] += n["bytes"]
    silent = {}  # function -> executions of nests that ran no iteration
    for key in sorted(set(rows) | set(got)):
        want = rows.get(key)
        g = got.get(key)
        label = "%s line %d (%s)" % (key[1], key[2], key[0])
        if want is None and g is not None and g[1] == 0 and g[2] == 0:
            # A loop with no iteration (i = 1; i < 1) leaves no event for
            # the oracle to see; the tool counts its executions, with
            # nothing in them.
            silent[key[1]] = silent.get(key[1], 0) + g[0]
            lines.append("ok %s: %d runs of no iteration (no event to see)" % (
                label, g[0]))
            continue
        if want is None or g is None:
            failing += 1
            lines.append("MISMATCH %s: %s" % (
                label, "not run by the oracle" if want is None else "no row in the tool"))
            continue
        check(label + " runs/flops/bytes", tuple(want), tuple(int(x) for x in g))
    per_fn = {}
    for (path, fn, line), r in rows.items():
        p = per_fn.setdefault(fn, [0, 0, 0])
        for i in range(3):
            p[i] += r[i]
    for f in tool["functions"]:
        want = per_fn.get(f["function"])
        check("function %s runs/flops/bytes" % f["function"],
              tuple(want) if want else None,
              (f["executions"] - silent.get(f["function"], 0),
               int(f["flops"]), int(f["bytes"])))
    if len(tool["functions"]) != len(per_fn):
        failing += 1
        lines.append("MISMATCH functions: oracle %s tool %s" % (
            sorted(per_fn), sorted(f["function"] for f in tool["functions"])))
    if formulas:
        compare_formulas(tool, rows, per_fn, sizes, wrong, check)
    t = tool["totals"]
    check("pass flops", sum(r[1] for r in rows.values()), int(t["flops"]))
    check("pass bytes", sum(r[2] for r in rows.values()), int(t["bytes"]))
    return lines, failing


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--tool", required=True)
    ap.add_argument("--kernel", required=True, action="append",
                    help="a source file of the program (repeat: the entry's first)")
    ap.add_argument("--tool-db", default="",
                    help="run the tool with -p DIR (a program in several files)")
    ap.add_argument("--driver", required=True)
    ap.add_argument("--entry", required=True)
    ap.add_argument("--work", required=True)
    ap.add_argument("--cxx", default="clang++-19")
    ap.add_argument("--symbolizer", default="llvm-symbolizer-19")
    ap.add_argument("--compile-arg", action="append", default=[])
    ap.add_argument("--tool-arg", action="append", default=[])
    ap.add_argument("--define", action="append", default=[],
                    help="NAME=VALUE #defined before the driver (its sizes)")
    ap.add_argument("--self-test-inject-error", action="store_true")
    ap.add_argument("--check-formulas", action="store_true",
                    help="also check the symbolic totals at these sizes")
    ap.add_argument("--self-test-wrong-coefficient", action="store_true")
    args = ap.parse_args()

    nests = []
    for k, source in enumerate(args.kernel):
        for n in nn.Scanner(open(source).read()).scan():
            n["kernel"] = k
            nests.append(n)
    kernels, exe, out = run_oracle(args)
    rows, params = measure(out, exe, kernels, args.symbolizer, nests)
    if args.self_test_inject_error and rows:
        keys = sorted(rows)
        rows[keys[0]][1] += 1
        rows[keys[-1]][2] += 1
    tool = run_tool(args, params)
    lines, failing = compare(
        tool, rows, params,
        args.check_formulas or args.self_test_wrong_coefficient,
        args.self_test_wrong_coefficient)
    print("\n".join(lines))
    print("rows: %d   functions: %d   failing: %d" % (
        len(rows), len(tool["functions"]), failing))
    sys.exit(1 if failing else 0)


if __name__ == "__main__":
    main()
