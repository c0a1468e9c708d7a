#!/usr/bin/env python3
"""jq.py FILE EXPR...: print each Python expression EXPR evaluated with `d`
bound to the JSON document in FILE (a tiny jq for lit tests)."""
import json
import sys

with open(sys.argv[1]) as f:
    d = json.load(f)
for expr in sys.argv[2:]:
    print(eval(expr, {"d": d}))
