#!/usr/bin/env python3
"""check-interleave.py MERGED OUT ERR [--min-bytes=N] [--order=A:B ...]

Checks a log that captured stdout and stderr through one pipe (`2>&1`)
against the two streams captured apart: MERGED must be an interleaving of
the whole lines of OUT and of ERR, each stream in its own order (no line
spliced into another), at least N bytes long. --order=A:B: the last merged
line containing A comes before the first containing B (a file's clang error
after the report of the files before it). Exit 0 when so, 1 when not.
"""
import sys


def fail(msg):
    print("check-interleave: " + msg)
    sys.exit(1)


def lines(path):
    with open(path, "rb") as f:
        data = f.read()
    if data and not data.endswith(b"\n"):
        fail(f"{path} does not end with a newline")
    return data, data.split(b"\n")[:-1]


def main():
    args = [a for a in sys.argv[1:] if not a.startswith("--")]
    opts = [a for a in sys.argv[1:] if a.startswith("--")]
    merged_data, merged = lines(args[0])
    _, out = lines(args[1])
    _, err = lines(args[2])
    for o in opts:
        if o.startswith("--min-bytes=") and len(merged_data) < int(o.split("=")[1]):
            fail(f"only {len(merged_data)} bytes, wanted {o.split('=')[1]}")
    i = j = 0
    for n, line in enumerate(merged, 1):
        if i < len(out) and line == out[i]:
            i += 1
        elif j < len(err) and line == err[j]:
            j += 1
        else:
            want = [s for s in (out[i] if i < len(out) else None,
                                err[j] if j < len(err) else None) if s is not None]
            fail(f"line {n} is no whole line of either stream: {line[:120]!r} "
                 f"(expected one of {[w[:120] for w in want]!r})")
    if i != len(out) or j != len(err):
        fail(f"lines missing: {len(out) - i} of stdout, {len(err) - j} of stderr")
    for o in opts:
        if o.startswith("--order="):
            a, b = o[len("--order="):].encode().split(b":", 1)
            last_a = max((n for n, l in enumerate(merged) if a in l), default=None)
            first_b = min((n for n, l in enumerate(merged) if b in l), default=None)
            if last_a is None or first_b is None or last_a >= first_b:
                fail(f"'{a.decode()}' (last at {last_a}) is not before "
                     f"'{b.decode()}' (first at {first_b})")
    print(f"check-interleave: ok: {len(merged_data)} bytes, {len(out)} stdout "
          f"and {len(err)} stderr lines")


main()
