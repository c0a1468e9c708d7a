#!/usr/bin/env python3
"""Function lengths in C++ sources by brace counting (no parse).

Prints every function definition longer than --min lines (default 150,
issue 23: no function over ~150 lines in lib/ and tools/), longest first,
as LINES NAME FILE:LINE. With --check (test/CI/function-lengths.test),
exits 1 on one that is not in EXCEPTIONS below, on one that grew, and on
an exception that is no longer needed.

  scripts/function-lengths.py [--root DIR] [--check] [DIR...]
"""
import argparse, os, re, sys

def strip(text):
    """Comments, string/char literals and preprocessor lines blanked,
    newlines kept so line numbers stay."""
    out, i, n = [], 0, len(text)
    line_start = True
    while i < n:
        c = text[i]
        if line_start and c == '#':
            j = i
            while j < n and text[j] != '\n':
                if text[j] == '\\' and j + 1 < n and text[j+1] == '\n':
                    out.append('\n'); j += 2; continue
                j += 1
            i = j; continue
        if c == '/' and text.startswith('//', i):
            j = text.find('\n', i); j = n if j < 0 else j
            i = j; continue
        if c == '/' and text.startswith('/*', i):
            j = text.find('*/', i + 2); j = n if j < 0 else j + 2
            out.append('\n' * text.count('\n', i, j)); i = j; continue
        if c == 'R' and text.startswith('R"', i):
            m = re.match(r'R"([^(]*)\(', text[i:])
            if m:
                end = text.find(')' + m.group(1) + '"', i)
                end = n if end < 0 else end + len(m.group(1)) + 2
                out.append('""' + '\n' * text.count('\n', i, end)); i = end; continue
        if c in '"\'':
            j = i + 1
            while j < n and text[j] != c:
                j += 2 if text[j] == '\\' else 1
            out.append(c + c); i = j + 1; continue
        out.append(c)
        if c == '\n': line_start = True
        elif not c.isspace(): line_start = False
        i += 1
    return ''.join(out)

CONTAINER = re.compile(r'\b(namespace|class|struct|union|enum)\b|\bextern\s*""')

def functions(path):
    text = strip(open(path, errors='replace').read())
    stack = []  # (kind, name, start line)
    head_start = 0
    found = []
    for i, c in enumerate(text):
        if c in ';':
            if not stack or stack[-1][0] == 'container':
                head_start = i + 1
        elif c == '{':
            in_fn = any(k == 'fn' for k, _, _ in stack)
            if in_fn:
                stack.append(('block', None, 0)); continue
            head = text[head_start:i]
            kind = 'block'
            name = None
            tail = head[head.rfind(')') + 1:] if ')' in head else head
            if CONTAINER.search(tail):
                kind = 'container'
            elif '(' in head and not re.search(r'=\s*$', head.strip()) \
                    and not re.match(r'\s*(if|for|while|switch)\b', head):
                m = re.search(r'([~\w:<>=!+\-*/\[\]&|^%]+?)\s*\(', head)
                kind = 'fn'
                name = m.group(1) if m else '?'
                # line of the name
                start = text.count('\n', 0, head_start + (m.start(1) if m else 0)) + 1
                stack.append((kind, name, start)); continue
            elif CONTAINER.search(head):
                kind = 'container'
            stack.append((kind, name, 0))
            if kind == 'container':
                head_start = i + 1
        elif c == '}':
            if not stack: continue
            kind, name, start = stack.pop()
            if kind == 'fn':
                end = text.count('\n', 0, i) + 1
                found.append((end - start + 1, name, start))
            if not stack or stack[-1][0] == 'container':
                head_start = i + 1
    return found

# Functions over the limit that are known debt: (file, name) -> lines. Each
# may shrink, not grow; one that falls under the limit or is gone must leave
# the list (--check), so the list only shrinks.
EXCEPTIONS = {
}


def scan(root, dirs, limit):
    rows = []
    for d in dirs:
        for base, _, files in os.walk(os.path.join(root, d)):
            for f in sorted(files):
                if f.endswith(('.cpp', '.h', '.cc')):
                    p = os.path.join(base, f)
                    rel = os.path.relpath(p, root)
                    for length, name, line in functions(p):
                        if length > limit:
                            rows.append((length, rel, line, name))
    return sorted(rows, key=lambda r: (-r[0], r[1], r[2]))


def check(rows, limit):
    """Errors for the rows against EXCEPTIONS."""
    errors = []
    seen = set()
    for length, rel, line, name in rows:
        key = (rel, name)
        if key not in EXCEPTIONS:
            errors.append(f'error: {rel}:{line}: {name} is {length} lines '
                          f'(limit {limit}): split it along its sections')
        elif length > EXCEPTIONS[key]:
            errors.append(f'error: {rel}:{line}: {name} grew to {length} '
                          f'lines (known debt: {EXCEPTIONS[key]})')
        seen.add(key)
    for key in sorted(set(EXCEPTIONS) - seen):
        errors.append(f'error: {key[0]}: {key[1]} is no longer over '
                      f'{limit} lines: remove it from EXCEPTIONS')
    return errors


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument('dirs', nargs='*', default=['lib', 'tools'])
    ap.add_argument('--min', type=int, default=150)
    ap.add_argument('--root', default='.',
                    help='the tree; dirs and EXCEPTIONS are relative to it')
    ap.add_argument('--check', action='store_true',
                    help='exit 1 on a function over --min lines that is not '
                         'in EXCEPTIONS, one that grew, or a stale exception')
    a = ap.parse_args()
    rows = scan(a.root, a.dirs, a.min)
    for length, rel, line, name in rows:
        known = ' (known debt)' if (rel, name) in EXCEPTIONS else ''
        print(f'{length:5d}  {name}  {rel}:{line}{known}')
    if not a.check:
        return 0
    errors = check(rows, a.min)
    for e in errors:
        print(e)
    print(f'function lengths: {len(rows)} over {a.min} lines, '
          f'{len(errors)} errors')
    return 1 if errors else 0


if __name__ == '__main__':
    sys.exit(main())
