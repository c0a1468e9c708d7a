#!/usr/bin/env python3
"""check-layering.py: the include graph of lib/ and include/ against the
layers of docs/design.md ("Layers").

Each library under lib/ (with its headers under include/roofline/) is a
layer; a file of layer L including "roofline/M/..." is an edge L -> M.
Every edge must be in ALLOWED (the one-way flow Frontend -> IR -> Analysis
-> Roofline -> Report and Transform -> CodeGen -> Runner, over Support,
Machine and Config), or in EXCEPTIONS with the files that make it and the
reason it is still there. Prints the graph; exits 1 on an edge outside both,
on an exception whose files changed, or on a cycle.

  check-layering.py [--root DIR]
"""
import argparse
import os
import re
import sys

# Layer -> the layers it may include. Tools (tools/) may include any layer.
ALLOWED = {
    "Support": set(),
    "IR": {"Support"},
    "Machine": {"IR", "Support"},
    "Config": {"Machine", "Support"},
    "Frontend": {"IR", "Config", "Support"},
    # The cache model reads the machine's cache levels.
    "Analysis": {"IR", "Machine", "Support"},
    "Transform": {"Analysis", "IR", "Support"},
    "Roofline": {"Analysis", "IR", "Machine", "Transform", "Support"},
    "Report": {"Roofline", "Analysis", "Transform", "IR", "Machine", "Config",
               "Frontend", "Support"},
    "CodeGen": {"Transform", "Analysis", "IR", "Roofline", "Machine",
                "Support"},
    # roofline-run draws its measurements on the lint's roofline plot.
    "Runner": {"CodeGen", "Transform", "Analysis", "IR", "Roofline", "Report",
               "Machine", "Config", "Support"},
}

# Edges against the flow that are known debt: (from, to) -> (files, why).
# None today: the program walk's Frontend -> Analysis edge went when its
# caller began counting the nests (FrontendOptions::CountNest) and the
# polynomials moved to the IR.
EXCEPTIONS = {}

INCLUDE = re.compile(r'^\s*#\s*include\s+"roofline/([A-Za-z]+)/')


def layer_files(root):
    for base in ("lib", os.path.join("include", "roofline")):
        top = os.path.join(root, base)
        for layer in sorted(os.listdir(top)):
            d = os.path.join(top, layer)
            if not os.path.isdir(d):
                continue
            for dirpath, _, names in os.walk(d):
                for n in sorted(names):
                    if n.endswith((".h", ".cpp", ".def", ".inc")):
                        yield layer, os.path.join(dirpath, n)


def edges(root):
    found = {}
    for layer, path in layer_files(root):
        with open(path, encoding="utf-8", errors="replace") as f:
            for line in f:
                m = INCLUDE.match(line)
                if m and m.group(1) != layer:
                    rel = os.path.relpath(path, root)
                    found.setdefault((layer, m.group(1)), set()).add(rel)
    return found


def cycle(found):
    graph = {}
    for a, b in found:
        graph.setdefault(a, set()).add(b)
    state = {}

    def visit(n, stack):
        state[n] = 1
        for m in sorted(graph.get(n, ())):
            if state.get(m) == 1:
                return stack + [n, m]
            if not state.get(m):
                c = visit(m, stack + [n])
                if c:
                    return c
        state[n] = 2
        return None

    for n in sorted(graph):
        if not state.get(n):
            c = visit(n, [])
            if c:
                return c
    return None


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--root", default=os.path.join(os.path.dirname(__file__), ".."))
    args = ap.parse_args()
    found = edges(args.root)
    bad = 0
    for (a, b), files in sorted(found.items()):
        if a not in ALLOWED:
            print(f"error: layer '{a}' is not in the table of layers")
            bad += 1
        elif b in ALLOWED[a]:
            print(f"{a} -> {b}")
        elif (a, b) in EXCEPTIONS:
            known, why = EXCEPTIONS[(a, b)]
            print(f"{a} -> {b}  (known debt: {why})")
            for f in sorted(files - known):
                print(f"error: {f} adds to the known debt {a} -> {b}")
                bad += 1
        else:
            for f in sorted(files):
                print(f"error: {f} includes roofline/{b}/: {a} may not "
                      f"depend on {b}")
                bad += 1
    for (a, b), (known, _) in sorted(EXCEPTIONS.items()):
        if (a, b) not in found:
            print(f"error: exception {a} -> {b} is gone: remove it from "
                  "EXCEPTIONS")
            bad += 1
    c = cycle(found)
    if c:
        print("error: include cycle: " + " -> ".join(c))
        bad += 1
    print(f"layering: {len(found)} edges, {bad} errors")
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main())
