#!/usr/bin/env python3
"""Checks the check registry of a roofline-lint tree (docs/design.md, "How to
add a check"): every check in lib/Config/Checks.cpp's table has an id of
include/roofline/Config/Checks.h and its docs page, and no source file under
lib/ or tools/ names a check by a string literal (emission sites name it by
CheckId, so every emitted name is a registered one)."""
import argparse
import os
import re
import sys

ROW = re.compile(r'\{CheckId::(\w+),\s*"([a-z-]+)",\s*Severity::\w+,\s*"([^"]+)"')


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--root", required=True)
    root = ap.parse_args().root
    with open(os.path.join(root, "lib/Config/Checks.cpp")) as f:
        rows = ROW.findall(f.read())
    with open(os.path.join(root, "include/roofline/Config/Checks.h")) as f:
        enum = re.search(r"enum class CheckId \{([^}]*)\}", f.read())
    ids = re.findall(r"(\w+),", enum.group(1)) if enum else []
    errors = []
    if [r[0] for r in rows] != ids:
        errors.append("the table's ids %s differ from CheckId %s"
                      % ([r[0] for r in rows], ids))
    names = {r[1] for r in rows}
    for _, name, page in rows:
        if not os.path.isfile(os.path.join(root, page)):
            errors.append("check %s: no docs page %s" % (name, page))
    literal = re.compile(r'"(%s)"' % "|".join(map(re.escape, sorted(names))))
    for top in ("lib", "tools"):
        for d, _, files in os.walk(os.path.join(root, top)):
            for fn in sorted(files):
                if not fn.endswith((".cpp", ".h")) or fn == "Checks.cpp":
                    continue
                path = os.path.join(d, fn)
                with open(path, errors="replace") as f:
                    for no, line in enumerate(f, 1):
                        for m in literal.finditer(line):
                            errors.append("%s:%d: check %s named by a literal "
                                          "(use CheckId)"
                                          % (os.path.relpath(path, root), no,
                                             m.group(1)))
    for e in errors:
        print("error: " + e)
    print("check registry: %d checks, %d errors" % (len(rows), len(errors)))
    return 1 if errors else 0


if __name__ == "__main__":
    sys.exit(main())
