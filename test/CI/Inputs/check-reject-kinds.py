#!/usr/bin/env python3
"""Checks the refusal kinds of a roofline-lint tree against their docs
(docs/design.md, "Refusals"): every REJECT_KIND of
include/roofline/Frontend/RejectKinds.def has a row in docs/user-guide.md's
"Refusal kinds" table with its slug and category word for word, every row
of that table names a kind, and every kind is used by name (RejectKind::X)
somewhere in lib/ or tools/. --print writes the table the .def implies:
paste it into the user guide after changing the .def."""
import argparse
import os
import re
import sys

KIND = re.compile(r'^REJECT_KIND\((\w+),\s*"([a-z0-9-]+)",\s*"([^"]*)"\)',
                  re.M)
ROW = re.compile(r'^\| `([^`]*)` \| (.*) \|$')
HEADING = "### Refusal kinds"


def table(kinds):
    lines = ["| kind (JSON `reason_kind`) | refusals of this kind |",
             "|---|---|"]
    lines += ["| `%s` | %s |" % (slug, cat) for _, slug, cat in kinds]
    return "\n".join(lines)


def doc_rows(text):
    """(line number, slug, category) of each row of the table under
    HEADING, up to the next heading."""
    rows, inside = [], False
    for n, line in enumerate(text.split("\n"), 1):
        if line.startswith("#"):
            inside = line.strip() == HEADING
            continue
        m = ROW.match(line) if inside else None
        if m:
            rows.append((n, m.group(1), m.group(2)))
    return rows


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--root", required=True)
    ap.add_argument("--print", action="store_true")
    args = ap.parse_args()
    root = args.root
    with open(os.path.join(root, "include/roofline/Frontend/RejectKinds.def")) as f:
        kinds = KIND.findall(f.read())
    if args.print:
        print(table(kinds))
        return 0
    errors = []
    doc = "docs/user-guide.md"
    with open(os.path.join(root, doc)) as f:
        rows = doc_rows(f.read())
    documented = {slug: (n, cat) for n, slug, cat in rows}
    slugs = set()
    for enum, slug, cat in kinds:
        if slug in slugs:
            errors.append("kind %s: slug '%s' used twice" % (enum, slug))
        slugs.add(slug)
        if slug not in documented:
            errors.append("kind %s: no row for '%s' in %s (%s)"
                          % (enum, slug, doc, HEADING))
        elif documented[slug][1] != cat:
            errors.append("%s:%d: the row of '%s' says '%s'; RejectKinds.def "
                          "says '%s'" % (doc, documented[slug][0], slug,
                                         documented[slug][1], cat))
    for n, slug, _ in rows:
        if slug not in slugs:
            errors.append("%s:%d: row '%s' names no kind of RejectKinds.def"
                          % (doc, n, slug))
    used = set()
    for top in ("lib", "tools"):
        for dirpath, _, names in os.walk(os.path.join(root, top)):
            for name in names:
                if name.endswith((".cpp", ".h")):
                    with open(os.path.join(dirpath, name)) as f:
                        used.update(re.findall(r"RejectKind::(\w+)", f.read()))
    for enum, slug, _ in kinds:
        if enum not in used:
            errors.append("kind %s ('%s') is used nowhere in lib/ or tools/"
                          % (enum, slug))
    for e in errors:
        print("error: " + e)
    print("reject kinds: %d kinds, %d doc rows, %d errors"
          % (len(kinds), len(rows), len(errors)))
    return 1 if errors else 0


if __name__ == "__main__":
    sys.exit(main())
