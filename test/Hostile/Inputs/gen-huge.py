"""Writes a C++ file of about MB megabytes: mostly comment lines, then
20,000 small functions with one loop nest each.

usage: gen-huge.py OUT MB
"""
import sys

out, megabytes = sys.argv[1], int(sys.argv[2])
body = ("void f%d(float *A, float *B) "
        "{ for (int i = 0; i < 1024; ++i) A[i] = B[i] * 2.0f; }\n")
functions = "".join(body % k for k in range(20000))
comment = "// " + "x" * 76 + "\n"
lines = max(0, (megabytes * 1024 * 1024 - len(functions)) // len(comment))
with open(out, "w") as f:
    for _ in range(lines):
        f.write(comment)
    f.write(functions)
