#!/usr/bin/env python3
"""nn-oracle.py: roofline-lint's numbers on a kernel file against an
instrumented brute-force run of the same kernels (docs/testing-nn-corpus.md).

  nn-oracle.py --tool roofline-lint --kernel K.c --driver K.oracle.cpp \\
               --expect K.test --work DIR [--compile-arg=-std=c++20]

1. The oracle: DRIVER (which #includes KERNEL) is compiled as C++ with
   scripts/nn-oracle/oracle.h included first, so `float` is a counting type,
   and with -fsanitize-coverage=trace-loads,trace-stores, so every load and
   store reaches scripts/nn-oracle/runtime.cpp. Running it records, per kernel
   call, the executed FLOPs (+ - * / and compares on floats, math calls, fma
   as 2, nothing for literal-only subexpressions or a sign flip) and every
   access to the arrays the driver registered, each at its line in the called
   kernel (a helper called inside a nest counts at its call).
   Without --tool, --dump prints these measurements and nothing is compared.
2. The nests: the outermost loops of every function of KERNEL, by a small
   scanner of the source (a loop inside another loop of the same function is
   part of that nest). Each nest's measurement is the FLOPs at its lines, and
   per array the distinct elements whose first access in the nest is a read,
   plus the distinct elements written: compulsory bytes = (read-first +
   written) x element size, summed over the arrays.
3. roofline-lint --format=json on KERNEL, with the sizes the driver declared
   (ORACLE_PARAM) as --param, and its nests and refusals matched to the
   scanner's by line.
4. Every nest must carry an expectation in EXPECT, one line each:
     EXPECT: FUNCTION[#ORDINAL] [[CASE]] exact|range|refused [REASON-REGEX]
   ORDINAL is the nest's place among its function's nests (default 1); CASE
   restricts a line to the tool's report for one case of a loop-invariant
   condition ("bias == NULL"). exact: counts.flops and bytes.compulsory equal
   the oracle's, with no flops_min below flops and no bytes.compulsory_min;
   range: a FLOP range (flops_min < flops) or a bytes range (a row gather's
   bytes.compulsory_min < bytes.compulsory) or both, the measured FLOPs and
   bytes each within its range or equal where it has none; refused: the nest
   is under "skipped" with a reason matching REASON-REGEX, never counted.
   A nest the tool reports per case is compared with the oracle calls of
   that case (ORACLE_CASE); one without a case with every call. A case the
   tool refuses alone (under "skipped" as "fn [case]") needs a refused line.

5. --audit ROWS.json instead of --expect (scripts/heldout-audit, for code
   that is not ours): no expectations; every nest and case is classified as
   exact, range-ok, WRONG, refused, not-run, indirect, inactive, missing or
   unknown (audit()), printed one a line and written to ROWS.json.

Prints one line per nest (ok / MISMATCH / REFUSED / COUNTED / ...) and
  nests: N   exact: E   range: R   refused: F   failing: X
and exits 1 when X > 0. --self-test-inject-error perturbs the oracle's FLOPs
of every third compared nest and its bytes of the one after, to show the
comparison fails on wrong numbers.
"""
import argparse
import bisect
import json
import os
import re
import subprocess
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
RUNTIME_DIR = os.path.join(HERE, "nn-oracle")


# ---------------------------------------------------------------- the scanner
def tokenize(text):
    """(token, line, column) for C/C++ source: comments and preprocessor
    lines dropped, string and character literals as one 'STR' token."""
    toks = []
    i, line, col = 0, 1, 1
    n = len(text)
    at_line_start = True

    def advance(k):
        nonlocal i, line, col
        for _ in range(k):
            if text[i] == "\n":
                line += 1
                col = 1
            else:
                col += 1
            i += 1

    while i < n:
        c = text[i]
        if c == "\n":
            advance(1)
            at_line_start = True
            continue
        if c in " \t\r\f\v":
            advance(1)
            continue
        if at_line_start and c == "#":
            # a preprocessor line, with its continuations
            while i < n and text[i] != "\n":
                if text[i] == "\\" and i + 1 < n and text[i + 1] == "\n":
                    advance(2)
                elif text.startswith("/*", i):
                    end = text.find("*/", i + 2)
                    advance((end + 2 if end >= 0 else n) - i)
                else:
                    advance(1)
            continue
        at_line_start = False
        if text.startswith("//", i):
            while i < n and text[i] != "\n":
                advance(1)
            continue
        if text.startswith("/*", i):
            end = text.find("*/", i + 2)
            advance((end + 2 if end >= 0 else n) - i)
            continue
        start_line, start_col = line, col
        if c in "\"'":
            j = i + 1
            while j < n and text[j] != c:
                j += 2 if text[j] == "\\" else 1
            advance(j + 1 - i)
            toks.append(("STR", start_line, start_col))
            continue
        m = re.compile(r"[A-Za-z_]\w*|\d[\w.]*|::|->|\S").match(text, i)
        advance(m.end() - i)
        toks.append((m.group(0), start_line, start_col))
    return toks


CLOSE = {"(": ")", "[": "]", "{": "}"}


def matching(toks, i):
    """Index of the bracket closing the one at i."""
    depth = 0
    for j in range(i, len(toks)):
        t = toks[j][0]
        if t in CLOSE:
            depth += 1
        elif t in (")", "]", "}"):
            depth -= 1
            if depth == 0:
                return j
    raise ValueError("unbalanced bracket at line %d" % toks[i][1])


class Scanner:
    """The outermost loop nests of every function body in a file."""

    def __init__(self, text):
        self.toks = tokenize(text)
        self.nests = []  # dicts: function, line, column, end_line

    def scan(self):
        self.declarations(0, len(self.toks))
        return self.nests

    def declarations(self, i, end):
        toks = self.toks
        while i < end:
            t = toks[i][0]
            if t != "{":
                i += 1
                continue
            close = matching(toks, i)
            prev = toks[i - 1][0] if i else ""
            name = self.function_name(i)
            if name:
                self.block(i, name, in_loop=False)
            elif prev not in ("=", ",", "(", "return"):
                self.declarations(i + 1, close)  # struct, namespace, extern "C"
            i = close + 1

    def function_name(self, brace):
        """The function whose body opens at `brace`, or None."""
        toks = self.toks
        j = brace - 1
        while j >= 0 and toks[j][0] in ("const", "noexcept", "override",
                                        "final", "volatile", "&"):
            j -= 1
        if j < 0 or toks[j][0] != ")":
            return None
        depth = 0
        while j >= 0:  # back to the matching "("
            if toks[j][0] == ")":
                depth += 1
            elif toks[j][0] == "(":
                depth -= 1
                if depth == 0:
                    break
            j -= 1
        j -= 1
        if j < 0 or not re.match(r"[A-Za-z_]", toks[j][0]):
            return None
        name = toks[j][0]
        while j >= 2 and toks[j - 1][0] == "::":
            name = toks[j - 2][0] + "::" + name
            j -= 2
        if name in ("if", "for", "while", "switch", "catch"):
            return None
        return name

    def block(self, i, function, in_loop):
        close = matching(self.toks, i)
        j = i + 1
        while j < close:
            j = self.statement(j, function, in_loop)
        return close + 1

    def statement(self, j, function, in_loop):
        """Index after the statement at j, recording outermost loops."""
        toks = self.toks
        t = toks[j][0]
        if t == "{":
            return self.block(j, function, in_loop)
        if t in ("for", "while"):
            body = self.statement(matching(toks, j + 1) + 1, function, True)
            if not in_loop:
                self.nests.append({"function": function, "line": toks[j][1],
                                   "column": toks[j][2],
                                   "end_line": toks[body - 1][1]})
            return body
        if t == "do":
            body = self.statement(j + 1, function, True)
            end = matching(toks, body + 1) + 2  # while ( ... ) ;
            if not in_loop:
                self.nests.append({"function": function, "line": toks[j][1],
                                   "column": toks[j][2],
                                   "end_line": toks[end - 1][1]})
            return end
        if t in ("case", "default"):  # a label, then the statement
            while toks[j][0] != ":":
                j += 1
            return j + 1
        if re.match(r"[A-Za-z_]\w*$", t) and toks[j + 1][0] == ":":
            return j + 2  # a goto label
        if t in ("if", "switch"):
            k = j + 1
            if toks[k][0] == "constexpr":
                k += 1
            after = self.statement(matching(toks, k) + 1, function, in_loop)
            if t == "if" and after < len(toks) and toks[after][0] == "else":
                after = self.statement(after + 1, function, in_loop)
            return after
        while toks[j][0] != ";":  # an expression or declaration statement
            j = matching(toks, j) + 1 if toks[j][0] in CLOSE else j + 1
        return j + 1


# ----------------------------------------------------------------- the oracle
def run(cmd, **kw):
    r = subprocess.run(cmd, capture_output=True, text=True, **kw)
    if r.returncode != 0:
        sys.exit("nn-oracle: %s failed (exit %d):\n%s\n%s" % (
            " ".join(cmd), r.returncode,
            "\n".join(r.stdout.splitlines()[-5:]), r.stderr[:4000]))
    return r.stdout


def build_and_run_oracle(args):
    os.makedirs(args.work, exist_ok=True)
    flags = ["-std=c++20", "-O0", "-g", "-fno-omit-frame-pointer"]
    runtime_o = os.path.join(args.work, "runtime.o")
    run([args.cxx] + flags + ["-c", os.path.join(RUNTIME_DIR, "runtime.cpp"),
                              "-o", runtime_o])
    exe = os.path.join(args.work, "oracle")
    run([args.cxx] + flags + [
        "-w", "-fsanitize-coverage=func,trace-loads,trace-stores",
        "-include", os.path.join(RUNTIME_DIR, "oracle.h"),
        "-I", os.path.dirname(os.path.abspath(args.kernel))] +
        ["-I" + d for d in getattr(args, "include_dir", [])] + [
        args.driver, runtime_o, "-ldl", "-o", exe])
    env = dict(os.environ)
    env.pop("ORACLE_STACK_ARRAYS", None)
    if getattr(args, "stack_arrays", False):
        # The arrays on the kernel's frames, for runtime.cpp to print the
        # accesses to (SR/SW records) and stack_accesses() to map them.
        dirs = [os.path.realpath(d) for d in
                [os.path.dirname(os.path.abspath(args.kernel))] +
                getattr(args, "include_dir", [])]
        args.frames = stack_frames(read_dies(exe, args.dwarfdump), dirs,
                                   {os.path.realpath(args.driver)})
        table = os.path.join(args.work, "stack-arrays.txt")
        with open(table, "w") as f:
            for low, high, _, locals_ in args.frames:
                for _, base, size, count, _ in locals_:
                    f.write("%x %x %d %d\n" % (low, high, base, base + size * count))
        env["ORACLE_STACK_ARRAYS"] = table
    return exe, run([exe], timeout=600, env=env)


def symbolize(symbolizer, exe, pcs, kernel):
    """pc -> its line in KERNEL (of the call instruction before each return
    pc), or None for a pc elsewhere (the runtime, oracle.h, libstdc++)."""
    pcs = sorted(pcs)
    if not pcs:
        return {}
    out = run([symbolizer, "--obj=" + exe, "--output-style=JSON", "--no-inlines"],
              input="".join("0x%x\n" % (pc - 1) for pc in pcs))
    lines = {}
    want = os.path.realpath(kernel)
    records = [json.loads(l) for l in out.splitlines() if l.strip()]
    if len(records) != len(pcs):
        sys.exit("nn-oracle: %s answered %d of %d addresses" % (
            symbolizer, len(records), len(pcs)))
    for pc, rec in zip(pcs, records):
        frames = rec.get("Symbol") or []
        f = frames[0] if frames else {}
        in_kernel = f.get("FileName") and os.path.realpath(f["FileName"]) == want
        lines[pc] = f["Line"] if in_kernel and f.get("Line") else None
    return lines


def parse_chain(text):
    return tuple(int(pc, 16) for pc in text.split(","))


def parse_oracle(text):
    params, arrays, calls = {}, {}, {}
    for rec in text.splitlines():
        kind, _, rest = rec.partition(" ")
        if kind == "param":
            name, value = rest.rsplit(" ", 1)
            params[name] = int(value)
        elif kind == "array":
            ident, elem, count, name = rest.split(" ", 3)
            # "NAME@8": a double array the driver counts as float (the
            # held-out audit's `#define double float`); its bytes are 8 each.
            m = re.match(r"(.*)@(\d+)$", name)
            if m:
                name, elem = m.group(1), m.group(2)
            arrays[int(ident)] = {"name": name, "element_bytes": int(elem)}
        elif kind == "call":
            ident, text_ = rest.split(" ", 1)
            function, case = text_.rsplit("|", 1)
            calls[int(ident)] = {"text": function,
                                 "function": function.split("(")[0].strip(),
                                 "case": None if case == "-" else case,
                                 "accesses": [], "flops": []}
        elif kind in ("R", "W"):
            call, array, index, chain = rest.split()
            calls[int(call)]["accesses"].append(
                (kind, int(array), int(index), parse_chain(chain)))
        elif kind in ("SR", "SW"):  # a stack access: stack_accesses() maps it
            call, depth, pc, off, ipc, ioff, nbytes, chain = rest.split()
            calls[int(call)]["accesses"].append(
                ("S" + kind[1], (int(depth), int(pc, 16), int(off),
                                 int(ipc, 16), int(ioff), int(nbytes)),
                 None, parse_chain(chain)))
        elif kind == "F":
            call, chain, count = rest.split()
            calls[int(call)]["flops"].append((parse_chain(chain), int(count)))
    return params, arrays, calls


def stack_scratch(owner, depth, nest):
    """Whether a local array is scratch for a nest (stack_accesses()): it
    lives in a function called inside the nest, or is declared inside the
    nest itself (`float acc[8]` in the loop body), as the tool's
    Array::Scratch (docs/design.md): not memory traffic."""
    owner_depth, decl_line = owner
    if owner_depth != depth:
        return owner_depth > depth
    return nest["line"] <= decl_line <= nest["end_line"]


# ------------------------------------------------ arrays on the kernel's stack
DIE_RE = re.compile(r"^0x([0-9a-f]+):( +)(DW_TAG_\w+|NULL)")
ATTR_RE = re.compile(r"^\s+(DW_AT_\w+)\s+\((.*)\)\s*$")


def read_dies(exe, dwarfdump):
    """The debug information entries of EXE: {offset: DIE}, each a dict with
    tag, attrs (text) and children (offsets)."""
    out = run([dwarfdump, "--debug-info", exe])
    dies, stack = {}, []  # stack: (indent, offset) of the open parents
    die = None
    for line in out.splitlines():
        m = DIE_RE.match(line)
        if m:
            indent = len(m.group(2))
            while stack and stack[-1][0] >= indent:
                stack.pop()
            if m.group(3) == "NULL":
                die = None
                continue
            off = int(m.group(1), 16)
            die = dies[off] = {"tag": m.group(3), "attrs": {}, "children": []}
            if stack:
                dies[stack[-1][1]]["children"].append(off)
            stack.append((indent, off))
            continue
        m = ATTR_RE.match(line)
        if m and die is not None:
            die["attrs"][m.group(1)] = m.group(2)
    return dies


def die_ref(die, attr="DW_AT_type"):
    v = die["attrs"].get(attr)
    return int(v.split()[0], 16) if v else None


def die_int(die, attr):
    v = die["attrs"].get(attr)
    return int(v.split()[0], 0) if v else None


def die_text(die, attr):
    v = die["attrs"].get(attr, "")
    return v[1:-1] if v.startswith('"') else v or None


def element_arrays(dies, ty, name, base):
    """(name, byte offset, element bytes, element count) of every array of
    scalars (numbers, pointers, Counted) a variable of type TY holds: the
    variable itself, or the array members of a struct (`gradient.W_grad`,
    as the tool names them). Arrays of structs are left out."""
    die = dies.get(ty)
    while die and die["tag"] in ("DW_TAG_typedef", "DW_TAG_const_type",
                                 "DW_TAG_volatile_type"):
        die = dies.get(die_ref(die))
    if not die:
        return []
    if die["tag"] == "DW_TAG_array_type":
        count = 1
        for c in die["children"]:
            sub = dies[c]
            n = die_int(sub, "DW_AT_count")
            if n is None and die_int(sub, "DW_AT_upper_bound") is not None:
                n = die_int(sub, "DW_AT_upper_bound") + 1
            if n is None:
                return []  # a flexible or variable-length array
            count *= n
        elem = dies.get(die_ref(die))
        while elem and elem["tag"] in ("DW_TAG_typedef", "DW_TAG_const_type",
                                       "DW_TAG_volatile_type"):
            elem = dies.get(die_ref(elem))
        scalar = elem and (elem["tag"] in ("DW_TAG_base_type", "DW_TAG_pointer_type",
                                           "DW_TAG_enumeration_type") or
                           die_text(elem, "DW_AT_name") == "Counted")
        if not scalar:
            return []
        size = die_int(elem, "DW_AT_byte_size") or 8  # a pointer: no byte size
        return [(name, base, size, count)]
    if die["tag"] in ("DW_TAG_structure_type", "DW_TAG_class_type") and \
            die_text(die, "DW_AT_name") != "Counted":
        out = []
        for c in die["children"]:
            m = dies[c]
            if m["tag"] == "DW_TAG_member" and "DW_AT_data_member_location" in m["attrs"]:
                out += element_arrays(dies, die_ref(m), "%s.%s" % (
                    name, die_text(m, "DW_AT_name")),
                    base + die_int(m, "DW_AT_data_member_location"))
        return out
    return []


def stack_frames(dies, dirs, exclude):
    """The functions declared in the kernel's directories (DIRS), each with
    its pc range and the arrays on its frame: (low, high, name, [(array
    name, frame offset, element bytes, count, declaration line)])."""
    funcs = []
    for die in dies.values():
        if die["tag"] != "DW_TAG_subprogram" or "DW_AT_low_pc" not in die["attrs"]:
            continue
        path = die_text(die, "DW_AT_decl_file")
        if not path:
            continue
        path = os.path.realpath(path)
        if path in exclude or not any(path.startswith(d + os.sep) for d in dirs):
            continue
        arrays, todo = [], list(die["children"])
        while todo:  # variables of nested blocks too
            v = dies[todo.pop()]
            if v["tag"] == "DW_TAG_lexical_block":
                todo += v["children"]
                continue
            loc = re.match(r"DW_OP_fbreg ([+-]?\d+)$", v["attrs"].get("DW_AT_location", ""))
            if v["tag"] not in ("DW_TAG_variable", "DW_TAG_formal_parameter") or not loc:
                continue
            line = die_int(v, "DW_AT_decl_line") or 0
            arrays += [a + (line,) for a in element_arrays(
                dies, die_ref(v), die_text(v, "DW_AT_name"), int(loc.group(1)))]
        if arrays:
            funcs.append((die_int(die, "DW_AT_low_pc"), die_int(die, "DW_AT_high_pc"),
                          die_text(die, "DW_AT_name"), arrays))
    return funcs


def stack_accesses(args, exe, arrays, calls):
    """Maps the run's stack accesses (runtime.cpp's SR/SW records, with
    --stack-arrays) onto the arrays the debug information declares on the
    frames of the kernel's functions; every other stack access (a scalar, a
    temporary, a frame of the driver or of oracle.h) is dropped. A mapped
    access carries (depth of its frame, declaration line) for measure()."""
    if not getattr(args, "stack_arrays", False):
        return
    frames = args.frames

    def lookup(pc, off):
        for low, high, func, locals_ in frames:
            if low <= pc - 1 < high:
                for name, base, size, count, line in locals_:
                    if base <= off < base + size * count:
                        return func, name, base, size, line
        return None

    ids = {}
    for call in calls.values():
        kept = []
        for a in call["accesses"]:
            if a[0][0] != "S":
                kept.append(a)
                continue
            depth, pc, off, ipc, ioff, nbytes = a[1]
            hit, owner = lookup(pc, off), depth
            if not hit and ipc:
                hit, owner = lookup(ipc, ioff), depth + 1
                off = ioff
            if not hit:
                continue
            func, name, base, size, line = hit
            if nbytes != size or (off - base) % size:
                sys.exit("nn-oracle: an access of %d bytes at offset %d of the "
                         "stack array '%s' of %s, whose elements are %d bytes"
                         % (nbytes, off - base, name, func, size))
            key = ids.setdefault((func, name), "stack:%s:%s" % (func, name))
            arrays[key] = {"name": name, "element_bytes": size}
            kept.append((a[0][1], key, (off - base) // size, a[3], (owner, line)))
        call["accesses"] = kept


def measure(nests, arrays, calls, line_of):
    """Per nest, one measurement per driver call that executed it. An event
    belongs to the nest of the outermost frame of its chain whose line lies
    in a nest; events in no nest (code between nests) count nowhere."""
    starts = [n["line"] for n in nests]

    def nest_at(line):
        k = bisect.bisect_right(starts, line) - 1
        if k >= 0 and nests[k]["line"] <= line <= nests[k]["end_line"]:
            return k
        return None

    def nest_and_depth(chain):
        for depth, pc in enumerate(chain):
            line = line_of.get(pc)
            if line is not None and nest_at(line) is not None:
                return nest_at(line), depth
        return None, None

    # A nest whose events come from a frame below the called function's
    # (a helper called outside any nest, or the function calling itself)
    # may have run several times in the call: "reached" says so.
    reached = {}

    def nest_of(chain, cid):
        k, depth = nest_and_depth(chain)
        if k is not None and depth > 0:
            reached[(cid, k)] = True
        return k

    result = {k: [] for k in range(len(nests))}
    for cid, call in sorted(calls.items()):
        flops, first, written = {}, {}, {}
        for chain, count in call["flops"]:
            k = nest_of(chain, cid)
            if k is not None:
                flops[k] = flops.get(k, 0) + count
        for access in call["accesses"]:
            kind, array, index, chain = access[:4]
            k, depth = nest_and_depth(chain)
            if k is None:
                continue
            if depth > 0:
                reached[(cid, k)] = True
            if len(access) > 4 and stack_scratch(access[4], depth, nests[k]):
                continue
            first.setdefault((k, array, index), kind)
            if kind == "W":
                written[(k, array, index)] = True
        ran = set(flops) | {k for k, _, _ in first}
        touched = set(ran)
        # A call of one case that runs a nest of its function without a
        # FLOP or an access measures zero there (`if (skip) return;` first
        # in the nest: nothing runs in that case).
        if call["case"]:
            touched |= {k for k, n in enumerate(nests)
                        if n["function"] == call["function"]}
        for k in sorted(touched):
            per_array = {}
            for (kk, array, index), kind in first.items():
                if kk != k:
                    continue
                a = per_array.setdefault(arrays[array]["name"], {
                    "element_bytes": arrays[array]["element_bytes"],
                    "elements_read": 0, "elements_written": 0})
                a["elements_read"] += kind == "R"
                a["elements_written"] += (k, array, index) in written
            result[k].append({
                "call": call["text"], "case": call["case"],
                "reached": reached.get((cid, k), False), "ran": k in ran,
                "flops": flops.get(k, 0), "arrays": per_array,
                "bytes": sum((a["elements_read"] + a["elements_written"]) *
                             a["element_bytes"] for a in per_array.values())})
    return result


# -------------------------------------------------------------- the tool side
def run_tool(args, params):
    cmd = [args.tool, "--format=json", "--quiet"]
    cmd += ["--param=%s=%d" % kv for kv in sorted(params.items())]
    # A header's nests are reported through a file that includes it
    # (--tool-input, with --header-filter among the --tool-args).
    cmd += args.tool_arg + [getattr(args, "tool_input", None) or args.kernel]
    compile_args = args.compile_arg + ["-I" + d for d in getattr(args, "include_dir", [])]
    if compile_args:
        cmd += ["--"] + compile_args
    r = subprocess.run(cmd, capture_output=True, text=True)
    try:
        return json.loads(r.stdout), cmd
    except json.JSONDecodeError:
        sys.exit("nn-oracle: %s gave no JSON (exit %d):\n%s" %
                 (" ".join(cmd), r.returncode, r.stderr[:3000]))


EXPECT_RE = re.compile(r"EXPECT:\s+(?P<key>[\w:~]+(?:#\d+)?)"
                       r"(?:\s+\[(?P<case>[^\]]*)\])?\s+"
                       r"(?P<kind>exact|range|refused)\b\s*(?P<detail>.*?)\s*$")


def read_expectations(path):
    expect = {}
    for n, line in enumerate(open(path), 1):
        if "EXPECT:" not in line:
            continue
        m = EXPECT_RE.search(line)
        if not m:
            sys.exit("nn-oracle: %s:%d: cannot read the expectation" % (path, n))
        key = m.group("key") if "#" in m.group("key") else m.group("key") + "#1"
        expect[(key, m.group("case"))] = {"kind": m.group("kind"),
                                          "detail": m.group("detail"),
                                          "used": False, "where": "%s:%d" % (path, n)}
    return expect


def fmt_arrays(tool_nest, measured):
    tool = {a["name"]: a for a in tool_nest.get("arrays", [])}
    names = sorted(set(tool) | set(measured["arrays"]))
    out = []
    for name in names:
        t, m = tool.get(name), measured["arrays"].get(name)
        ts = ("read %s written %s" % (json.dumps(t["elements_read"]),
                                      json.dumps(t["elements_written"]))
              if t else "absent")
        ms = ("read %d written %d" % (m["elements_read"], m["elements_written"])
              if m else "absent")
        flag = "" if (t and m and t["elements_read"] == m["elements_read"] and
                      t["elements_written"] == m["elements_written"]) else "   <--"
        out.append("    %-10s tool: %-28s oracle: %s%s" % (name, ts, ms, flag))
    return out


def skipped_case(s):
    """The case of a skipped nest, from its name "fn [case]"; None."""
    m = re.match(r".* \[(.*)\]$", s.get("function", ""))
    return s.get("case") or (m.group(1) if m else None)


def compare(args, nests, measured, report, expect):
    by_line = {}
    for n in report.get("nests", []):
        by_line.setdefault(n["line"], {"nests": [], "skipped": []})["nests"].append(n)
    for s in report.get("skipped", []):
        by_line.setdefault(s["line"], {"nests": [], "skipped": []})["skipped"].append(s)
    kernel = os.path.realpath(args.kernel)
    ordinal, stats, lines = {}, {"exact": 0, "range": 0, "refused": 0}, []
    failing = 0
    inject_count = 0
    known_lines = {n["line"] for n in nests}

    def fail(msg):
        nonlocal failing
        failing += 1
        lines.append(msg)

    for line in sorted(by_line):
        if line not in known_lines:
            fail("UNKNOWN: the tool reports a nest at line %d, which is no "
                 "outermost loop of the scanner" % line)
    for k, nest in enumerate(nests):
        ordinal[nest["function"]] = ordinal.get(nest["function"], 0) + 1
        key = "%s#%d" % (nest["function"], ordinal[nest["function"]])
        where = "%s (line %d)" % (key, nest["line"])
        tool = by_line.get(nest["line"], {"nests": [], "skipped": []})
        # A case refused alone (a function pointer's target whose body
        # cannot be counted) is a skipped entry named "fn [case]".
        refused_cases = [c for c in map(skipped_case, tool["skipped"]) if c]
        cases = [n.get("case") for n in tool["nests"]] + refused_cases or [None]
        if len(set(cases)) != len(cases):
            fail("DUPLICATE: %s: the tool reports the nest %d times for cases %s" % (
                where, len(cases), json.dumps(cases)))
            cases = sorted(set(cases), key=lambda c: c or "")
        if any(cases):
            for m in measured[k]:
                if m["case"] not in cases:
                    fail("CASE: %s: the oracle ran the case %s (%s), which the tool "
                         "does not report; it reports %s" % (
                             where, json.dumps(m["case"]), m["call"], json.dumps(cases)))
        for case in cases:
            e = expect.get((key, case)) or expect.get((key, None))
            label = where + (" [%s]" % case if case else "")
            if not e:
                fail("NO-EXPECTATION: %s: add an EXPECT line" % label)
                continue
            e["used"] = True
            if case in refused_cases:
                reason = [s for s in tool["skipped"] if skipped_case(s) == case][0]["reason"]
                if e["kind"] != "refused":
                    fail("REFUSED: %s: expected %s, refused: %s" % (label, e["kind"], reason))
                elif not re.search(e["detail"], reason):
                    fail("REASON: %s: refused for '%s', expected /%s/" % (
                        label, reason, e["detail"]))
                else:
                    stats["refused"] += 1
                    lines.append("ok: %s: refused: %s" % (label, reason))
                continue
            if e["kind"] == "refused":
                if tool["nests"]:
                    fail("COUNTED: %s: expected refused (%s), the tool counted it: "
                         "flops %s, bytes.compulsory %s" % (
                             label, e["detail"],
                             tool["nests"][0]["counts"].get("flops"),
                             tool["nests"][0]["bytes"].get("compulsory")))
                    for t in tool["nests"]:
                        for m in measured[k]:
                            lines.extend(fmt_arrays(t, m))
                elif not tool["skipped"]:
                    fail("MISSING: %s: the tool reports nothing at this line" % label)
                elif not any(re.search(e["detail"], s["reason"]) for s in tool["skipped"]):
                    fail("REASON: %s: refused for '%s', expected /%s/" % (
                        label, tool["skipped"][0]["reason"], e["detail"]))
                else:
                    stats["refused"] += 1
                    lines.append("ok: %s: refused: %s" % (label, tool["skipped"][0]["reason"]))
                continue
            uncased = [s for s in tool["skipped"] if not skipped_case(s)]
            if tool["nests"] and uncased and case == cases[0]:
                fail("REFUSED: %s: expected %s, partly refused: %s" % (
                    where, e["kind"], "; ".join(s["reason"] for s in uncased)))
            if not tool["nests"]:
                if tool["skipped"]:
                    fail("REFUSED: %s: expected %s, refused: %s" % (
                        label, e["kind"], tool["skipped"][0]["reason"]))
                else:
                    fail("MISSING: %s: the tool reports nothing at this line" % label)
                continue
            t = [n for n in tool["nests"] if n.get("case") == case][0]
            ms = [m for m in measured[k] if case is None or m["case"] == case]
            if not ms:
                fail("NOT-CALLED: %s: the driver runs no call of this nest%s" % (
                    label, " for this case (ORACLE_CASE)" if case else ""))
                continue
            nest_ok = True
            for m in ms:
                m = dict(m)
                if args.self_test_inject_error:
                    inject_count += 1
                    if inject_count % 3 == 1:
                        m["flops"] += 1
                    elif inject_count % 3 == 2:
                        m["bytes"] += 4
                # Integer arithmetic on data (an int8 matmul's MACs) is
                # work the tool counts by type; the oracle measures floating
                # work only, so both ends are compared on that.
                flops, fmin = tool_floating(t)
                nbytes, bmin = tool_bytes(t)
                problems = []
                if e["kind"] == "exact":
                    if flops != m["flops"]:
                        problems.append("counts.flops = %s, oracle %d" % (json.dumps(flops), m["flops"]))
                    if fmin is not None and fmin != flops:
                        problems.append("a range [%s, %s] where exact was expected"
                                        % (fmin, flops))
                    if bmin is not None:
                        problems.append("a bytes range [%s, %s] where exact was "
                                        "expected" % (bmin, nbytes))
                    if nbytes != m["bytes"]:
                        problems.append("bytes.compulsory = %s, oracle %d" % (json.dumps(nbytes), m["bytes"]))
                else:
                    if not is_range(fmin, flops) and not is_range(bmin, nbytes):
                        problems.append("no range (flops %s, flops_min %s, "
                                        "bytes %s, bytes_min %s)" % tuple(
                                            json.dumps(x) for x in
                                            (flops, fmin, nbytes, bmin)))
                    for what, lo, hi, run in (("FLOPs", fmin, flops, m["flops"]),
                                              ("bytes", bmin, nbytes, m["bytes"])):
                        why = outside(what, lo, hi, run)
                        if why:
                            problems.append(why)
                call = " (%s)" % m["call"] if len(ms) > 1 else ""
                if problems:
                    nest_ok = False
                    fail("MISMATCH: %s%s: %s" % (label, call, "; ".join(problems)))
                    lines.extend(fmt_arrays(t, m))
                else:
                    lines.append("ok: %s%s: flops %s, bytes %s" % (
                        label, call, shown_in(m["flops"], fmin, flops),
                        shown_in(m["bytes"], bmin, nbytes)))
            if nest_ok:
                stats[e["kind"]] += 1
    for (key, case), e in sorted(expect.items(), key=lambda kv: kv[1]["where"]):
        if not e["used"]:
            fail("UNUSED: %s: no nest %s%s in %s" % (
                e["where"], key, " [%s]" % case if case else "", kernel))
    return lines, stats, failing


# ------------------------------------------------------------ the audit mode
def conditional_lines(text):
    """Lines inside an #if/#ifdef/#ifndef block: a nest there that the tool
    does not report may be compiled out (the scanner ignores #if)."""
    inside, depth = set(), 0
    for n, line in enumerate(text.splitlines(), 1):
        d = line.strip()
        if re.match(r"#\s*if", d):
            depth += 1
        elif re.match(r"#\s*endif", d):
            depth = max(depth - 1, 0)
        elif depth:
            inside.add(n)
    return inside


def tool_floating(t):
    """The tool's (flops, flops_min) less its integer data ops: the oracle
    measures floating work only."""
    c = t.get("counts", {})
    flops, fmin = c.get("flops"), c.get("flops_min")
    int_ops = sum(v for ty, v in c.get("flops_by_type", {}).items()
                  if ty[:1] in ("i", "u"))
    if flops is not None:
        flops -= int_ops
    if fmin is not None:
        fmin -= int_ops
    return flops, fmin


def tool_bytes(t):
    """The tool's (bytes, bytes_min): compulsory bytes and, where rows that a
    loaded index picks make them a range, its lower end."""
    b = t.get("bytes", {})
    return b.get("compulsory"), b.get("compulsory_min")


def is_range(lo, hi):
    return lo is not None and hi is not None and lo < hi


def outside(what, lo, hi, run):
    """Why the run's count is not the tool's: not equal (lo None: exact) or
    outside [lo, hi]; None when it is."""
    if lo is None:
        return None if hi == run else "%s %s, run %d" % (what, json.dumps(hi), run)
    if hi is None or not lo <= run <= hi:
        return "run's %s %d outside [%s, %s]" % (what, run, lo, hi)
    return None


def shown_in(run, lo, hi):
    return "%d in [%s, %s]" % (run, lo, hi) if is_range(lo, hi) else "%d" % run


def classify(t, ms):
    """exact / range-ok / WRONG for a counted nest against the measurements
    of the calls that ran it; the detail names the first difference."""
    flops, fmin = tool_floating(t)
    nbytes, bmin = tool_bytes(t)
    ranged = is_range(fmin, flops) or is_range(bmin, nbytes)
    for m in ms:
        flops_ranged = is_range(fmin, flops)
        for what, lo, hi, run in (("bytes.compulsory", bmin, nbytes, m["bytes"]),
                                  ("FLOPs" if flops_ranged else "flops",
                                   fmin if flops_ranged else None, flops, m["flops"])):
            why = outside(what, lo, hi, run)
            if why:
                return "WRONG", "%s (%s)" % (why, m["call"])
    shown = ", ".join(sorted({"%d/%d" % (m["flops"], m["bytes"]) for m in ms}))
    ranges = "".join(" %sin [%s, %s]" % (w, lo, hi) for w, lo, hi in
                     (("", fmin, flops), ("bytes ", bmin, nbytes))
                     if is_range(lo, hi))
    return ("range-ok" if ranged else "exact"), "FLOPs/bytes %s%s" % (
        shown, ranges)


def audit(nests, measured, report, text):
    """One row per nest and case of the tool's report, with no expectation:
    exact, range-ok, WRONG (a number the tool claims differs from the run),
    refused, not-run (counted, but no driver call ran it, or none of its
    case), indirect (run only inside a call of another function, which may
    run it several times: not comparable), inactive (no report, in an #if
    block), missing (no report, not in an #if block), unknown (a report at
    a line the scanner has no nest at). docs/testing-nn-corpus.md."""
    by_line = {}
    for n in report.get("nests", []):
        by_line.setdefault(n["line"], {"nests": [], "skipped": []})["nests"].append(n)
    for s in report.get("skipped", []):
        by_line.setdefault(s["line"], {"nests": [], "skipped": []})["skipped"].append(s)
    rows, ordinal = [], {}
    cond = conditional_lines(text)
    known = {n["line"] for n in nests}
    for line in sorted(set(by_line) - known):
        rows.append({"key": "?", "line": line, "case": None, "class": "unknown",
                     "detail": "the tool reports a nest the scanner does not see"})
    for k, nest in enumerate(nests):
        ordinal[nest["function"]] = ordinal.get(nest["function"], 0) + 1
        key = "%s#%d" % (nest["function"], ordinal[nest["function"]])
        tool = by_line.get(nest["line"], {"nests": [], "skipped": []})
        direct = [m for m in measured[k] if not m["reached"]]
        flops_run = max([m["flops"] for m in measured[k]] or [0])

        def row(case, cls, detail):
            rows.append({"key": key, "line": nest["line"], "case": case,
                         "class": cls, "detail": detail, "run_flops": flops_run})

        if not tool["nests"] and not tool["skipped"]:
            if nest["line"] in cond:
                row(None, "inactive", "no report; in an #if block")
            else:
                row(None, "missing", "the tool reports nothing at this line")
            continue
        for s in tool["skipped"]:
            row(skipped_case(s), "refused", s["reason"])
        for t in tool["nests"]:
            case = t.get("case")
            # Only calls that ran the nest are compared: a call of one case
            # measures zero at every nest of its function it did not run
            # (measure()), and the audit cannot tell a branch around the
            # nest (not run) from an early exit first in its body (run,
            # zero work), which EXPECT lines decide in test/NN.
            ms = [m for m in direct
                  if m["ran"] and (case is None or m["case"] == case)]
            ran = [m for m in measured[k]
                   if m["ran"] and (case is None or m["case"] == case)]
            if ms:
                row(case, *classify(t, ms))
            elif ran:
                row(case, "indirect", "run only inside %s" % "; ".join(
                    sorted({m["call"].split("(")[0] for m in ran})))
            else:
                flops, _ = tool_floating(t)
                called = any(m["case"] == case for m in direct) if case else False
                row(case, "not-run", "tool: flops %s bytes %s; %s" % (
                    json.dumps(flops), json.dumps(t.get("bytes", {}).get("compulsory")),
                    "the calls of this case ran nothing here" if called else
                    "no driver call" + (" of this case" if case else "")))
    return rows


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--tool", help="without it, only --dump the oracle's measurements")
    ap.add_argument("--kernel", required=True)
    ap.add_argument("--driver", required=True)
    ap.add_argument("--expect")
    ap.add_argument("--work", required=True)
    ap.add_argument("--cxx", default="clang++-19")
    ap.add_argument("--symbolizer", default="llvm-symbolizer-19")
    ap.add_argument("--compile-arg", action="append", default=[],
                    help="after -- on the tool's command line (e.g. -std=c++20)")
    ap.add_argument("--tool-arg", action="append", default=[])
    ap.add_argument("--tool-input", metavar="FILE",
                    help="the file the tool runs on, when the kernel is a header "
                         "(a translation unit that includes it; pass "
                         "--tool-arg=--header-filter=... too)")
    ap.add_argument("--include-dir", action="append", default=[],
                    help="a header directory of the kernel: -I for the driver's "
                         "build and for the tool (after --)")
    ap.add_argument("--dwarfdump", default="llvm-dwarfdump-19")
    ap.add_argument("--stack-arrays", action="store_true",
                    help="measure the arrays on the stack of the kernel's own "
                         "functions too (from the debug information): local "
                         "arrays declared outside the nest, and struct "
                         "members of locals (scripts/heldout-audit)")
    ap.add_argument("--self-test-inject-error", action="store_true")
    ap.add_argument("--audit", metavar="ROWS.json",
                    help="no EXPECT file: classify every nest and case and write "
                         "the rows as JSON (scripts/heldout-audit)")
    ap.add_argument("--dump", action="store_true",
                    help="print the oracle's measurement of every nest")
    args = ap.parse_args()

    nests = Scanner(open(args.kernel).read()).scan()
    exe, out = build_and_run_oracle(args)
    params, arrays, calls = parse_oracle(out)
    stack_accesses(args, exe, arrays, calls)
    pcs = {pc for c in calls.values() for chain, _ in c["flops"] for pc in chain}
    pcs |= {pc for c in calls.values() for a in c["accesses"] for pc in a[3]}
    line_of = symbolize(args.symbolizer, exe, pcs, args.kernel)
    measured = measure(nests, arrays, calls, line_of)
    if args.dump:
        for k, n in enumerate(nests):
            for m in measured[k]:
                arrays = " ".join("%s:%d+%d" % (name, a["elements_read"], a["elements_written"])
                                  for name, a in sorted(m["arrays"].items()))
                print("oracle: %s line %d%s: flops %d bytes %d (%s)" % (
                    n["function"], n["line"], " [%s]" % m["case"] if m["case"] else "",
                    m["flops"], m["bytes"], arrays))
    if not args.tool:
        return
    if not args.expect and not args.audit:
        sys.exit("nn-oracle: --tool needs --expect or --audit")
    report, cmd = run_tool(args, params)
    print("tool: " + " ".join(os.path.basename(c) if c == args.tool else c for c in cmd[1:]))
    if args.audit:
        if args.self_test_inject_error:  # every measurement one FLOP more
            for ms in measured.values():
                for m in ms:
                    m["flops"] += 1
        rows = audit(nests, measured, report, open(args.kernel).read())
        with open(args.audit, "w") as f:
            json.dump({"command": cmd, "rows": rows}, f, indent=1)
        for r in rows:
            print("%-9s %s (line %d)%s: %s" % (
                r["class"], r["key"], r["line"],
                " [%s]" % r["case"] if r["case"] else "", r["detail"]))
        return
    lines, stats, failing = compare(args, nests, measured, report,
                                    read_expectations(args.expect))
    print("\n".join(lines))
    print("nests: %d   exact: %d   range: %d   refused: %d   failing: %d" % (
        len(nests), stats["exact"], stats["range"], stats["refused"], failing))
    sys.exit(1 if failing else 0)


if __name__ == "__main__":
    main()
