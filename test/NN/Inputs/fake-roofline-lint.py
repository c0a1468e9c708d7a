#!/usr/bin/env python3
"""A stand-in for roofline-lint in test/NN/compare-fails.test: prints the
JSON report given as --canned=FILE and ignores every other argument."""
import sys

for arg in sys.argv[1:]:
    if arg.startswith("--canned="):
        sys.stdout.write(open(arg[len("--canned="):]).read())
        sys.exit(0)
sys.exit("fake-roofline-lint: no --canned=FILE")
