#!/usr/bin/env python3
"""expect-exit.py CODE CMD...: run CMD, pass its output through, and fail
unless it exits with exactly CODE (lit's `not` accepts any failure)."""
import subprocess, sys

want = int(sys.argv[1])
r = subprocess.run(sys.argv[2:])
if r.returncode != want:
    sys.stderr.write(f"expect-exit: wanted exit {want}, got {r.returncode}\n")
    sys.exit(1)
