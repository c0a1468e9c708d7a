#!/usr/bin/env python3
"""Prints the CUDA entries of one unit's manifest.json, one line per
variant with its keys in a fixed order, so that a lit test can FileCheck
them (the manifest's own key order is the JSON writer's, sorted). Checks
what a reader of the manifest relies on and exits 1 with the problem:
every CUDA variant has "target": "cuda", a file that exists and defines
its host symbol, device symbol (and prepare symbols when listed).

  cuda-manifest.py UNIT_DIR
"""

import json
import os
import sys


def main():
    d = sys.argv[1]
    with open(os.path.join(d, "manifest.json")) as f:
        m = json.load(f)
    problems = []
    targets = sorted({v.get("target", "cpu") for v in m["variants"]})
    print("targets: " + ",".join(targets))
    for v in m["variants"]:
        if v.get("target") != "cuda":
            continue
        if "skipped" in v:
            print("variant %s skipped: %s" % (v["name"], v["skipped"]))
            continue
        path = os.path.join(d, v["file"])
        text = open(path).read() if os.path.exists(path) else ""
        if not text:
            problems.append("%s: no file %s" % (v["name"], v["file"]))
        syms = ["symbol", "device_symbol", "prepare", "device_prepare", "timer"]
        for k in syms:
            if k in v and ("void %s(" % v[k]) not in text and ("int %s(" % v[k]) not in text:
                problems.append("%s: %s '%s' not defined in %s" % (v["name"], k, v[k], v["file"]))
        extra = ",".join(a["name"] + ("(prepared)" if a.get("prepared") else "")
                         for a in v.get("extra_args", []))
        print("variant %s file=%s map=%s %s extra=%s" % (
            v["name"], v["file"], v["map"],
            " ".join("%s=%s" % (k, v[k]) for k in syms if k in v), extra or "-"))
    print("cuda_build: %s" % ("yes" if "cuda_build" in m else "no"))
    for p in problems:
        print("problem: " + p)
    return 1 if problems else 0


if __name__ == "__main__":
    sys.exit(main())
