#!/usr/bin/env python3
"""compare-moves.py EXPECTED JSON: each line of EXPECTED is
'function array loads stores' as an instrumented run counted them; the
tool's JSON must have one nest per function whose arrays[] loads and stores
equal them and whose bytes.no_reuse is their sum times the element size.

compare-moves.py --dump JSON prints, per nest, its no-reuse bytes, its
no-reuse formula (or 'none') and its notes, one per line, for FileCheck."""
import json
import sys

if sys.argv[1] == "--dump":
    report = json.load(open(sys.argv[2]))
    for n in report["nests"]:
        f = n["function"]
        sym = (n.get("symbolic") or {}).get("bytes_no_reuse")
        print("%s: no_reuse %s" % (f, n["bytes"].get("no_reuse")))
        print("%s: formula %s" % (f, sym if sym is not None else "none"))
        for note in n.get("notes", []):
            print("%s: note: %s" % (f, note))
    sys.exit(0)

expected = {}
for line in open(sys.argv[1]):
    fn, arr, loads, stores = line.split()
    expected.setdefault(fn, {})[arr] = (int(loads), int(stores))
report = json.load(open(sys.argv[2]))
nests = {}
for n in report["nests"]:
    if n["function"] in nests:
        sys.exit("two nests in %s" % n["function"])
    nests[n["function"]] = n
if set(nests) != set(expected):
    sys.exit("nests differ: tool %s, oracle %s" % (sorted(nests), sorted(expected)))
bad = 0
for fn, arrays in sorted(expected.items()):
    n = nests[fn]
    got = {a["name"]: a for a in n["arrays"]}
    total = 0
    for arr, (loads, stores) in sorted(arrays.items()):
        a = got.get(arr)
        have = (a["loads"], a["stores"]) if a else None
        ok = have == (loads, stores)
        bad += not ok
        print("%s: %s %s: oracle loads %d stores %d, tool %s" % (
            "ok" if ok else "MISMATCH", fn, arr, loads, stores, have))
        if a:
            total += (loads + stores) * a["element_bytes"]
    have = n["bytes"].get("no_reuse")
    bad += have != total
    print("%s: %s no-reuse bytes: oracle %d, tool %s" % (
        "ok" if have == total else "MISMATCH", fn, total, have))
sys.exit(1 if bad else 0)
