#!/usr/bin/env python3
"""compare-compulsory.py EXPECTED JSON: each line of EXPECTED is 'function
BYTES' (the compulsory bytes a brute-force run counted: every element whose
first access is a read, plus every element written, times its size); the
tool's JSON must have one nest per function with those compulsory bytes and
no skipped nests."""
import json, sys

expected = {}
for line in open(sys.argv[1]):
    name, count = line.split()
    expected[name] = int(count)
report = json.load(open(sys.argv[2]))
if report["skipped"]:
    sys.exit("unexpected skipped nests: %s" % report["skipped"])
got = {n["function"]: n["bytes"]["compulsory"] for n in report["nests"]}
why = {n["function"]: n["bytes"].get("compulsory_why_not") for n in report["nests"]}
bad = 0
for name, want in expected.items():
    have = got.get(name)
    status = "ok" if have == want else "MISMATCH"
    bad += have != want
    extra = f" ({why[name]})" if have is None and name in why else ""
    print(f"{status}: {name}: brute force {want}, tool {have}{extra}")
if set(got) != set(expected):
    sys.exit(f"nests differ: tool {sorted(got)}, oracle {sorted(expected)}")
sys.exit(1 if bad else 0)
