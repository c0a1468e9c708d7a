#!/usr/bin/env python3
"""compare-oracle.py EXPECTED JSON: each line of EXPECTED is 'function MACS';
the tool's JSON must have exactly one nest per function with that many MACs
(each oracle statement does one MAC) and no skipped nests."""
import json, sys

expected = {}
for line in open(sys.argv[1]):
    name, count = line.split()
    expected[name] = int(count)
report = json.load(open(sys.argv[2]))
if report["skipped"]:
    sys.exit("unexpected skipped nests: %s" % report["skipped"])
got = {n["function"]: n["counts"]["macs"] for n in report["nests"]}
bad = 0
for name, want in expected.items():
    have = got.get(name)
    status = "ok" if have == want else "MISMATCH"
    bad += have != want
    print(f"{status}: {name}: oracle {want}, tool {have}")
if set(got) != set(expected):
    sys.exit(f"nests differ: tool {sorted(got)}, oracle {sorted(expected)}")
sys.exit(1 if bad else 0)
