#!/usr/bin/env python3
"""Validates the manifests of an --emit directory against the contract of
docs/codegen.md: every unit listed in units.json has a manifest.json with
the required keys and types; every emitted variant's file exists and
defines its symbol (and prepare symbol); every key used anywhere in a
manifest is documented in docs/codegen.md (as `key`). Prints one line per
unit ("unit: N variants, M skipped") and exits 1 with the problems.

  check-manifest.py EMIT_DIR DOC.md [DOC.md ...]
"""

import json
import os
import re
import sys

TOP = {"version": int, "unit": str, "kind": str, "function": str, "file": str,
       "lines": list, "iterations": (str, type(None)), "abi": str,
       "sizes": list, "args": list, "build": dict, "reference": dict,
       "driver": str, "variants": list}
OPTIONAL_TOP = {"machine": str, "contraction": dict}
SIZE = {"name": str, "value": (int, type(None)), "fixed": bool}
ARG = {"name": str, "type": str, "elem": str, "shape": list, "intent": str}
OPTIONAL_ARG = {"scalar": bool, "prepared": bool}
BUILD = {"cxx": str, "flags": list, "ldflags": list, "makefile": str}
REFERENCE = {"file": str, "symbol": str, "magnitude": (str, type(None)),
             "floating_args": str, "tolerance_rule": str}
VARIANT = {"name": str, "file": str, "symbol": str, "schedule": str,
           "path": str, "threads": str, "extra_args": list,
           "skip_compare": list, "legality": list, "tolerance": dict,
           "predicted": dict}
OPTIONAL_VARIANT = {"prepare": str, "target": str}
TOLERANCE = {"rtol": (int, float), "rtol_per_term": (int, float),
             "atol": (int, float), "why": str}
PREDICTED = {"flops": (int, float), "macs": (int, float),
             "flops_by_type": dict, "bytes": dict, "intensity": dict,
             "nests": int}
OPTIONAL_PREDICTED = {"bound": dict, "prepare": dict}
BOUND = {"machine": str, "model": str, "time_s": (int, float),
         "attainable_flops_per_s": (int, float)}
INTENTS = {"in", "out", "inout", "temp"}

problems = []
used_keys = set()


def check(obj, required, optional, where):
    if not isinstance(obj, dict):
        problems.append("%s: not an object" % where)
        return
    for k, t in required.items():
        if k not in obj:
            problems.append("%s: missing '%s'" % (where, k))
        elif not isinstance(obj[k], t) or (t is int and isinstance(obj[k], bool)):
            problems.append("%s: '%s' has type %s" % (where, k, type(obj[k]).__name__))
    # Keys beyond these may be added (the format grows); the documentation
    # check below still requires each to be described.
    for k in obj:
        used_keys.add(k)


def check_arg(a, where):
    check(a, ARG, OPTIONAL_ARG, where)
    if a.get("intent") not in INTENTS:
        problems.append("%s: intent %r" % (where, a.get("intent")))


def check_predicted(p, where):
    if "why_not" in p:
        check(p, {"why_not": str}, {}, where)
        return
    check(p, PREDICTED, OPTIONAL_PREDICTED, where)
    # With a basis (the source nest's counts) only compulsory carries over.
    models = {"compulsory": (int, float)}
    if "basis" in p:
        check(p, {"basis": str, "why_not_own": str}, {}, where)
    else:
        models["no_reuse"] = (int, float)
    for k in ("bytes", "intensity"):
        check(p.get(k, {}), models, {}, where + "." + k)
    if "bound" in p:
        check(p["bound"], BOUND, {}, where + ".bound")
    if "prepare" in p:
        check_predicted(p["prepare"], where + ".prepare")


def defines(path, symbol):
    try:
        text = open(path).read()
    except OSError:
        return False
    return re.search(r"RL_EXPORT void %s\(" % re.escape(symbol), text) is not None


def main():
    emit, docs = sys.argv[1], sys.argv[2:]
    units = json.load(open(os.path.join(emit, "units.json")))
    check(units, {"version": int, "runtime": str, "units": list}, {}, "units.json")
    for u in units["units"]:
        d = os.path.join(emit, u)
        m = json.load(open(os.path.join(d, "manifest.json")))
        check(m, TOP, OPTIONAL_TOP, u)
        if m.get("unit") != u:
            problems.append("%s: unit is %r" % (u, m.get("unit")))
        for i, s in enumerate(m.get("sizes", [])):
            check(s, SIZE, {}, "%s.sizes[%d]" % (u, i))
        for i, a in enumerate(m.get("args", [])):
            check_arg(a, "%s.args[%d]" % (u, i))
        check(m.get("build", {}), BUILD, {}, u + ".build")
        check(m.get("reference", {}), REFERENCE, {}, u + ".reference")
        ref = m.get("reference", {})
        if not defines(os.path.join(d, ref.get("file", "")), ref.get("symbol", "")):
            problems.append("%s: reference symbol not defined" % u)
        if ref.get("magnitude") and not defines(os.path.join(d, ref["file"]), ref["magnitude"]):
            problems.append("%s: magnitude symbol not defined" % u)
        for f in (m.get("driver", ""), m.get("build", {}).get("makefile", "")):
            if not os.path.exists(os.path.join(d, f)):
                problems.append("%s: no file %s" % (u, f))
        emitted = skipped = 0
        for v in m.get("variants", []):
            w = "%s.%s" % (u, v.get("name"))
            if "skipped" in v:
                check(v, {"name": str, "skipped": str}, {"target": str}, w)
                skipped += 1
                continue
            emitted += 1
            check(v, VARIANT, OPTIONAL_VARIANT, w)
            path = os.path.join(d, v.get("file", ""))
            if not defines(path, v.get("symbol", "")):
                problems.append("%s: %s does not define %s" % (w, v.get("file"), v.get("symbol")))
            if "prepare" in v and not defines(path, v["prepare"]):
                problems.append("%s: prepare symbol not defined" % w)
            for i, a in enumerate(v.get("extra_args", [])):
                check_arg(a, "%s.extra_args[%d]" % (w, i))
            check(v.get("tolerance", {}), TOLERANCE, {}, w + ".tolerance")
            check_predicted(v.get("predicted", {}), w + ".predicted")
        print("%s: %d variants, %d skipped" % (u, emitted, skipped))
    documented = set()
    for doc in docs:
        documented |= set(re.findall(r"`([a-z_0-9]+)`", open(doc).read()))
    for k in sorted(used_keys - documented):
        problems.append("key '%s' is not documented in %s" %
                        (k, ", ".join(os.path.basename(d) for d in docs)))
    for p in problems:
        print("problem: " + p)
    print("%d problems" % len(problems))
    return 1 if problems else 0


if __name__ == "__main__":
    sys.exit(main())
