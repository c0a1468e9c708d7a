#!/usr/bin/env python3
"""Differential test of roofline-lint's counts against brute-force enumeration.

Generates random affine loop nests (depth 1-5: triangular, strided, offset,
min/max bounds, up and down loops, imperfect bodies, several statements and
arrays of float/double/int8_t/int32_t, multi-dimensional C arrays and
linearized pointers), writes them as C++ (one function per nest, many per
file), runs roofline-lint --format=json on them and compares every count it
reports with a Python interpretation of the same nest, which executes the
loops literally (C semantics, truncating division) and counts per the
docs/design.md rules:

  * iterations: executions of the bodies of loops that hold no loop;
  * MAC = a multiply feeding an add (2 FLOPs); other floating + - * / 1 FLOP;
    integer MACs are OPs of their precision (int8 x int8 -> i8), other
    integer arithmetic on data is INTOPs;
  * loads/stores (no-reuse): every executed reference moves its element,
    except a reference whose subscripts do not use the IV of the loop that
    directly encloses its statement: it moves once per entry of that loop
    that runs at least one iteration (a compiler loads it in the loop's
    preheader, behind the trip-count test);
  * compulsory: per array, distinct elements whose first access is a read
    (within a statement execution reads come first) plus distinct elements
    written, times the element size (distinct addresses: linearized pointer
    subscripts are compared as the address, not as a delinearized tuple).

Each batch is checked three ways: sizes as constexpr globals (values), sizes
as function arguments left symbolic (formulas, evaluated here at the sizes),
and the same with --param (values through the parameter path). A nest the
tool reports as unanalyzable is a refusal (counted, not a failure); a count
that is present but differs is a mismatch (a failure).

With --nn-fraction F (default 0.5) that share of the nests is written in the
idioms of hand-written neural-network code instead (row pointers, index
locals, derived and struct-field sizes, affine/loop-invariant/data-dependent
conditions, constant subexpressions, scratch arrays, calls, range-for):
differential_nn.py generates, interprets and compares those; see
docs/fuzzing.md. --nn-fraction 0 reproduces the affine nests exactly.
"""

import argparse
import ast
import json
import math
import os
import random
import re
import subprocess
import sys
import tempfile
import time
from collections import Counter
from fractions import Fraction

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)
import differential_nn as nn  # noqa: E402  (NN idioms: row pointers, conditions, ...)
ROOT = os.path.dirname(HERE)
PARAMS = ["N", "M", "K"]
TYPES = {"f32": ("float", 4), "f64": ("double", 8), "i8": ("int8_t", 1),
         "i32": ("int32_t", 4)}
IVS = ["i", "j", "k", "l", "m"]
MAX_POINTS = 4000  # statement executions per nest the oracle accepts


# --- Affine expressions: {var: coef, "": const} -----------------------------

def aff(*pairs, c=0):
    d = {"": c}
    for v, k in pairs:
        if k:
            d[v] = d.get(v, 0) + k
    return d


def aff_text(d):
    out = []
    for v in sorted(k for k in d if k):
        k = d[v]
        if k == 0:
            continue
        mag = abs(k)
        term = v if mag == 1 else "%d*%s" % (mag, v)
        if not out:
            out.append(("-" if k < 0 else "") + term)
        else:
            out.append((" - " if k < 0 else " + ") + term)
    c = d.get("", 0)
    if c or not out:
        if not out:
            out.append(str(c))
        else:
            out.append((" - " if c < 0 else " + ") + str(abs(c)))
    return "".join(out)


def aff_py(d):
    parts = [str(d.get("", 0))]
    for v in sorted(k for k in d if k):
        if d[v]:
            parts.append("%d*%s" % (d[v], v))
    return "(" + " + ".join(parts) + ")"


def aff_uses(d, v):
    return d.get(v, 0) != 0


# Bound terms: ("aff", d) | ("div", d, q) C truncating | ("min"|"max", d1, d2)

def term_text(t):
    if t[0] == "aff":
        return aff_text(t[1])
    if t[0] == "div":
        return "(%s) / %d" % (aff_text(t[1]), t[2])
    a, b = aff_text(t[1]), aff_text(t[2])
    if t[0] == "min":
        return "(%s < %s ? %s : %s)" % (a, b, a, b)
    return "(%s > %s ? %s : %s)" % (a, b, a, b)


def term_py(t):
    if t[0] == "aff":
        return aff_py(t[1])
    if t[0] == "div":
        return "cdiv(%s, %d)" % (aff_py(t[1]), t[2])
    return "%s(%s, %s)" % (t[0], aff_py(t[1]), aff_py(t[2]))


NEG_DIV = [False]


def cdiv(a, b):
    """C's '/': truncates toward zero (floor differs for a negative a)."""
    if a < 0 and a % b:
        NEG_DIV[0] = True
    q = abs(a) // abs(b)
    return q if (a >= 0) == (b > 0) else -q


# --- The generator ----------------------------------------------------------

class Array:
    def __init__(self, name, ty, dims, storage, strides=None):
        self.name, self.ty, self.dims, self.storage = name, ty, dims, storage
        self.strides = strides  # ptr, dims > 1: stride names/ints per dim
        self.offsets = [0] * dims
        self.extents = [1] * dims


class Access:
    def __init__(self, arr, subs, read, write):
        self.arr, self.subs, self.read, self.write = arr, subs, read, write


class Stmt:
    def __init__(self, level, where, text_fn, accesses, ops):
        # where: "pre" / "post" (beside the inner loop) or "in" (innermost)
        self.level, self.where = level, where
        self.text_fn = text_fn  # (ref texts) -> C statement
        self.accesses = accesses  # in source order, each has a ref text
        self.ops = ops  # Counter: ("mac", ty) ("flop", ty) ("intop", None)
        # An affine `if` around the statement alone (gen_guard): C text and
        # Python text of the condition; the else branch's statement follows
        # its then statement in the nest's list, with else_of set.
        self.guard_c = self.guard_py = None
        self.else_stmt = self.else_of = None


class Nest:
    pass


def gen_loop(rng, lvl, outer, feats):
    """One loop; outer: IVs of the enclosing loops."""
    iv = IVS[lvl]
    P = rng.choice(PARAMS)
    o = rng.choice(outer) if outer else None
    up = rng.random() < 0.75
    step = rng.choice([1, 1, 1, 2, 3])
    if up:
        starts = [("aff", aff(c=0))] * 3 + [("aff", aff(c=rng.choice([1, 2])))]
        if o:
            starts += [("aff", aff((o, 1))), ("aff", aff((o, 1), c=1)),
                       ("max", aff(c=0), aff((o, 1), c=-rng.choice([1, 2])))]
        start = rng.choice(starts)
        op = rng.choice(["<", "<="])
        bounds = [("aff", aff((P, 1)))] * 3 + [
            ("aff", aff((P, 1), c=rng.choice([-1, 1, 2]))),
            ("div", aff((P, 1), c=rng.choice([0, 0, -1, 1])), rng.choice([2, 3])),
            ("aff", aff((P, 2)))]
        if o:
            bounds += [("aff", aff((o, 1))), ("aff", aff((o, 1), c=1)),
                       ("aff", aff((o, 1), c=1)),
                       ("aff", aff((P, 1), (o, -1))),
                       ("min", aff((P, 1)), aff((o, 1), c=rng.choice([1, 2, 3])))]
        bound = rng.choice(bounds)
    else:
        starts = [("aff", aff((P, 1), c=-1)), ("aff", aff((P, 1)))]
        if o:
            starts += [("aff", aff((o, 1))), ("aff", aff((o, 1), c=-1)),
                       ("min", aff((P, 1), c=-1), aff((o, 1), c=rng.choice([1, 2])))]
        start = rng.choice(starts)
        op = rng.choice([">", ">="])
        bounds = [("aff", aff(c=0))] * 2 + [("aff", aff(c=rng.choice([-1, 1, 2])))]
        if o:
            bounds += [("aff", aff((o, 1))), ("aff", aff((o, 1), c=-1)),
                       ("max", aff(c=0), aff((o, 1), c=-rng.choice([1, 2])))]
        bound = rng.choice(bounds)
        step = -step
    loop = {"iv": iv, "start": start, "op": op, "bound": bound, "step": step,
            "post": rng.randrange(2)}
    feats["loop-up" if up else "loop-down"] += 1
    feats["cond" + op] += 1
    if abs(step) > 1:
        feats["strided"] += 1
    for t in (start, bound):
        if t[0] in ("min", "max"):
            feats["minmax-bound"] += 1
        if t[0] == "div":
            feats["div-bound"] += 1
        ds = [t[1]] + ([t[2]] if t[0] in ("min", "max") else [])
        if any(aff_uses(d, x) for d in ds for x in outer):
            feats["triangular"] += 1
        if t is start and t[0] == "aff" and t[1].get("", 0) and not any(
                k for k in t[1] if k):
            feats["offset-start"] += 1
    return loop


def loop_text(L):
    iv, s = L["iv"], L["step"]
    if s == 1:
        inc = rng_inc_up[L["post"]] % iv
    elif s == -1:
        inc = rng_inc_dn[L["post"]] % iv
    elif s > 0:
        inc = "%s += %d" % (iv, s)
    else:
        inc = "%s -= %d" % (iv, -s)
    return "for (int %s = %s; %s %s %s; %s)" % (
        iv, term_text(L["start"]), iv, L["op"], term_text(L["bound"]), inc)


rng_inc_up = ["++%s", "%s++"]
rng_inc_dn = ["--%s", "%s--"]


def gen_subscript(rng, ivs):
    r = rng.random()
    c = rng.choice([0, 0, 0, 1, -1, 2])
    if not ivs or r < 0.08:
        return aff(c=rng.choice([0, 1, 2]))
    v = rng.choice(ivs)
    if r < 0.65:
        return aff((v, 1), c=c)
    if r < 0.75:
        return aff((v, 2), c=c)
    if r < 0.82:
        return aff((v, -1), c=c)
    w = rng.choice(ivs)
    return aff((v, 1), (w, 1), c=c)


def new_array(rng, nest, ty, ivs_count):
    name = "A%d" % len(nest.arrays)
    dims = rng.choice([1, 1, 2, 2, 3]) if ivs_count > 1 else rng.choice([1, 1, 2])
    storage = "global" if rng.random() < 0.5 else "ptr"
    strides = None
    if storage == "ptr" and dims > 1:
        # Row strides: a size parameter or a literal; checked in bounds below.
        strides = [rng.choice(PARAMS + [8, 16]) for _ in range(dims - 1)]
    a = Array(name, ty, dims, storage, strides)
    nest.arrays.append(a)
    return a


def pick_array(rng, nest, ty, ivs_count):
    cands = [a for a in nest.arrays if a.ty == ty]
    if cands and (rng.random() < 0.5 or len(nest.arrays) >= 5):
        return rng.choice(cands)
    if len(nest.arrays) >= 5:
        return None
    return new_array(rng, nest, ty, ivs_count)


LIT = {"f32": ("2.0f", "1.0f"), "f64": ("2.0", "1.0")}


def gen_stmt(rng, nest, level, where, feats):
    ivs = IVS[:level + 1]
    ty = rng.choice(["f32", "f32", "f64", "i8", "i32"])
    if ty in ("f32", "f64"):
        form = rng.choice(["+=*", "=*+", "=+", "=*c", "-=", "=/-", "=", "*="])
    elif ty == "i32":
        form = rng.choice(["+=*", "=+", "=*c", "-=", "="])
    else:
        form = rng.choice(["+=*8", "=+", "="])
    # slots: (type, read, write) in source order (reads of the RHS and the LHS)
    ops = Counter()
    fl = ty in ("f32", "f64")
    if form == "+=*":
        slots = [(ty, True, True), (ty, True, False), (ty, True, False)]
        fmt = "{0} += {1} * {2};"
        ops[("mac", ty)] = 1
    elif form == "+=*8":
        slots = [("i32", True, True), ("i8", True, False), ("i8", True, False)]
        fmt = "{0} += {1} * {2};"
        ops[("mac", "i8")] = 1
    elif form == "=*+":
        slots = [(ty, False, True), (ty, True, False), (ty, True, False),
                 (ty, True, False)]
        fmt = "{0} = {1} * {2} + {3};"
        ops[("mac", ty)] = 1
    elif form == "=+":
        slots = [(ty, False, True), (ty, True, False), (ty, True, False)]
        fmt = "{0} = {1} + {2};"
        ops[("flop", ty) if fl else ("intop", None)] = 1
    elif form == "=*c":
        slots = [(ty, False, True), (ty, True, False)]
        fmt = "{0} = {1} * %s;" % (LIT[ty][0] if fl else "3")
        ops[("flop", ty) if fl else ("intop", None)] = 1
    elif form == "-=":
        slots = [(ty, True, True), (ty, True, False)]
        fmt = "{0} -= {1};"
        ops[("flop", ty) if fl else ("intop", None)] = 1
    elif form == "=/-":
        slots = [(ty, False, True), (ty, True, False), (ty, True, False)]
        fmt = "{0} = {1} / {2} - %s;" % LIT[ty][1]
        ops[("flop", ty)] = 2
    elif form == "*=":
        slots = [(ty, True, True), (ty, True, False)]
        fmt = "{0} *= {1};"
        ops[("flop", ty)] = 1
    else:
        slots = [(ty, False, True), (ty, True, False)]
        fmt = "{0} = {1};"
    feats["stmt" + form] += 1
    feats["type-" + ty] += 1
    accesses = []
    before = len(nest.arrays)
    for sty, rd, wr in slots:
        a = pick_array(rng, nest, sty, len(ivs))
        if a is None:
            del nest.arrays[before:]  # an unused array is no array of the nest
            return None
        subs = [gen_subscript(rng, ivs) for _ in range(a.dims)]
        accesses.append(Access(a, subs, rd, wr))
    return Stmt(level, where, fmt, accesses, ops)


def gen_nest(rng, idx, feats):
    n = Nest()
    n.name = "nest%d" % idx
    depth = rng.choice([1, 2, 2, 3, 3, 3, 4, 4, 5])
    n.loops = []
    for lvl in range(depth):
        n.loops.append(gen_loop(rng, lvl, IVS[:lvl], feats))
    n.arrays = []
    n.stmts = []
    for _ in range(rng.choice([1, 1, 2, 2, 3])):
        s = gen_stmt(rng, n, depth - 1, "in", feats)
        if s:
            n.stmts.append(s)
    if depth > 1 and rng.random() < 0.3:
        lvl = rng.randrange(depth - 1)
        where = rng.choice(["pre", "post"])
        s = gen_stmt(rng, n, lvl, where, feats)
        if s:
            n.stmts.append(s)
            feats["imperfect"] += 1
    feats["depth%d" % depth] += 1
    n.guarded = False
    gen_guard(n, feats)
    return n


def gen_constraint(g, ivs, allow_eq):
    """(C text, Python text) of one comparison of a loop variable."""
    a = aff((g.choice(ivs), 1))
    others = [x for x in ivs if not aff_uses(a, x)]
    kind = g.choice(["iv", "iv", "param", "const"])
    if kind == "iv" and others:
        b = aff((g.choice(others), 1), c=g.choice([-1, 0, 0, 1]))
    elif kind == "const":
        b = aff(c=g.choice([0, 1, 2, 3]))
    else:
        b = aff((g.choice(PARAMS), 1), c=g.choice([-2, -1, 0]))
    op = g.choice(["<", "<=", ">", ">="] + (["=="] if allow_eq else []))
    return ("%s %s %s" % (aff_text(a), op, aff_text(b)),
            "%s %s %s" % (aff_py(a), op, aff_py(b)))


def gen_guard(n, feats):
    """An affine `if` (sometimes with else) around one statement that is
    not its loop's whole body, so the tool lowers it as a guard loop
    (docs/user-guide.md, "Conditions"). Its own generator keeps the nests
    without guards as they were."""
    g = random.Random("guard-" + n.name)
    if g.random() >= 0.3:
        return
    depth = len(n.loops)
    cands = [s for s in n.stmts
             if s.level < depth - 1 or
             sum(1 for t in n.stmts if t.level == s.level) > 1]
    if not cands:
        return
    s = g.choice(cands)
    ivs = IVS[:s.level + 1]
    parts = [gen_constraint(g, ivs, True)]
    if g.random() < 0.3:
        parts.append(gen_constraint(g, ivs, True))
    s.guard_c = " && ".join(c for c, _ in parts)
    s.guard_py = " and ".join("(%s)" % p for _, p in parts)
    feats["guard-partial"] += 1
    if len(parts) > 1:
        feats["guard-and"] += 1
    if "==" in s.guard_c:
        feats["guard-eq"] += 1
    if any(x in s.guard_c for x in IVS[:s.level]):
        feats["guard-outer-iv"] += 1
    if len(parts) == 1 and "==" not in s.guard_c and g.random() < 0.35:
        e = gen_stmt(g, n, s.level, s.where, Counter())
        if e:
            e.else_of = s
            e.guard_py = "not (%s)" % s.guard_py
            s.else_stmt = e
            n.stmts.insert(n.stmts.index(s) + 1, e)
            feats["guard-else"] += 1
    n.guarded = True


def cname(n, a):
    """The array's name in the C++ source (globals carry the nest's name)."""
    return a.name if a.storage == "ptr" else n.name + "_" + a.name


def ref_py(acc):
    """Python expression of the address of an access (tuple or linear)."""
    a = acc.arr
    subs = [dict(s) for s in acc.subs]
    for d, off in enumerate(a.offsets):
        subs[d][""] = subs[d].get("", 0) + off
    if a.storage == "global" or a.dims == 1:
        return "(" + ", ".join(aff_py(s) for s in subs) + ",)"
    # linear: ((s0 * st0) + s1) * st1 + s2 ...
    e = aff_py(subs[0])
    for d in range(1, a.dims):
        e = "(%s * %s + %s)" % (e, a.strides[d - 1], aff_py(subs[d]))
    return "(" + e + ",)"


def ref_text(acc):
    a = acc.arr
    subs = [dict(s) for s in acc.subs]
    for d, off in enumerate(a.offsets):
        subs[d][""] = subs[d].get("", 0) + off
    if a.storage == "global" or a.dims == 1:
        return a.name + "".join("[%s]" % aff_text(s) for s in subs)
    e = aff_text(subs[0])
    for d in range(1, a.dims):
        st = a.strides[d - 1]
        inner = e if e.isidentifier() or e.isdigit() else "(%s)" % e
        e = "%s * %s + %s" % (inner, st, aff_text(subs[d]))
    return "%s[%s]" % (a.name, e)


def oracle_source(n, probe):
    """Python function executing the nest. probe: record subscript ranges."""
    L = []
    depth = len(n.loops)
    L.append("def run(N, M, K):")
    L.append("  tot = [0] * %d; ent = [0] * %d" % (depth, depth))
    L.append("  fp = [dict() for _ in range(%d)]; wr = [set() for _ in range(%d)]"
             % (len(n.arrays), len(n.arrays)))
    L.append("  rng = [[[None, None] for _ in range(%d)] for _ in range(%d)]"
             % (3, len(n.arrays)))
    L.append("  lin = []")
    L.append("  execs = 0; neg = [False]; empty = [False]")
    L.append("  sx = [0] * %d" % len(n.stmts))

    def stmt_lines(s, ind):
        pre = []
        if s.guard_py:
            pre = [ind + "if %s:" % s.guard_py]
            ind += "  "
        out = pre + [ind + "execs += 1", ind + "sx[%d] += 1" % n.stmts.index(s)]
        for acc in s.accesses:
            ai = n.arrays.index(acc.arr)
            if probe:
                for d, sub in enumerate(acc.subs):
                    out.append(ind + "v = %s" % aff_py(sub))
                    out.append(ind + "r = rng[%d][%d]" % (ai, d))
                    out.append(ind + "if r[0] is None or v < r[0]: r[0] = v")
                    out.append(ind + "if r[1] is None or v > r[1]: r[1] = v")
                if acc.arr.storage == "ptr" and acc.arr.dims > 1:
                    for d in range(1, acc.arr.dims):
                        out.append(ind + "lin.append((%s, %s))" % (
                            aff_py(acc.subs[d]), acc.arr.strides[d - 1]))
        for acc in s.accesses:
            if acc.read:
                out.append(ind + "fp[%d].setdefault(%s, 0)" % (
                    n.arrays.index(acc.arr), ref_py(acc)))
        for acc in s.accesses:
            if acc.write:
                ai = n.arrays.index(acc.arr)
                out.append(ind + "a = %s; fp[%d].setdefault(a, 1); wr[%d].add(a)"
                           % (ref_py(acc), ai, ai))
        return out

    def emit(lvl, ind):
        lp = n.loops[lvl]
        iv = lp["iv"]
        L.append(ind + "%s = %s" % (iv, term_py(lp["start"])))
        # Entries that run an iteration: a reference invariant in the loop
        # moves once per such entry (docs/design.md, "no-reuse").
        L.append(ind + "if %s %s %s: ent[%d] += 1" % (
            iv, lp["op"], term_py(lp["bound"]), lvl))
        # A negative trip count (last before first by more than a step)
        # breaks the formulas' stated precondition: flag it.
        L.append(ind + "t = trip_count(%s, %r, %s, %d)" % (
            iv, lp["op"], term_py(lp["bound"]), lp["step"]))
        L.append(ind + "if t < 0: neg[0] = True")
        L.append(ind + "if t <= 0: empty[0] = True")
        L.append(ind + "while %s %s %s:" % (iv, lp["op"], term_py(lp["bound"])))
        ind2 = ind + "  "
        L.append(ind2 + "tot[%d] += 1" % lvl)
        L.append(ind2 + "if execs > %d: raise OverflowError" % MAX_POINTS)
        for s in n.stmts:
            if s.level == lvl and s.where in ("pre", "in"):
                L.extend(stmt_lines(s, ind2))
        if lvl + 1 < depth:
            emit(lvl + 1, ind2)
        for s in n.stmts:
            if s.level == lvl and s.where == "post":
                L.extend(stmt_lines(s, ind2))
        L.append(ind2 + "%s += %d" % (iv, lp["step"]))

    emit(0, "  ")
    L.append("  return tot, ent, fp, wr, rng, lin, (neg[0], empty[0]), sx")
    return "\n".join(L)


def run_oracle(n, sizes, probe):
    src = oracle_source(n, probe)
    g = {"cdiv": cdiv, "min": min, "max": max, "trip_count": nn.trip_count}
    exec(compile(src, "<oracle %s>" % n.name, "exec"), g)
    return g["run"](sizes["N"], sizes["M"], sizes["K"])


def expected_counts(n, sizes):
    NEG_DIV[0] = False
    # sx: executions of each statement (a guarded one where it holds)
    tot, ent, fp, wr, _, _, neg, sx = run_oracle(n, sizes, False)
    depth = len(n.loops)
    e = Counter({k: 0 for k in SCALARS})
    e["iterations"] = tot[depth - 1]
    macs, flops = Counter(), Counter()
    arr = {cname(n, a): Counter(loads=0, stores=0) for a in n.arrays}
    for si, s in enumerate(n.stmts):
        guarded = s.guard_py is not None
        ex = sx[si] if guarded else tot[s.level]
        for (kind, ty), k in s.ops.items():
            if kind == "mac":
                macs[ty] += k * ex
                flops[ty] += 2 * k * ex
            elif kind == "flop":
                flops[ty] += k * ex
            else:
                e["intops"] += k * ex
        iv = n.loops[s.level]["iv"]
        for acc in s.accesses:
            hoisted = not any(aff_uses(d, iv) for d in acc.subs)
            # A guarded statement sits in a loop of its own (the guard loop,
            # whose variable no subscript uses): each execution moves.
            moves = ent[s.level] if hoisted and not guarded else ex
            if acc.read:
                arr[cname(n, acc.arr)]["loads"] += moves
            if acc.write:
                arr[cname(n, acc.arr)]["stores"] += moves
    e["macs"] = sum(macs.values())
    e["flops"] = sum(flops.values())
    nr = comp = 0
    for ai, a in enumerate(n.arrays):
        sz = TYPES[a.ty][1]
        c = arr[cname(n, a)]
        c["elements_read"] = sum(1 for v in fp[ai].values() if v == 0)
        c["elements_written"] = len(wr[ai])
        c["element_bytes"] = sz
        e["loads"] += c["loads"]
        e["stores"] += c["stores"]
        nr += (c["loads"] + c["stores"]) * sz
        comp += (c["elements_read"] + c["elements_written"]) * sz
    e["bytes_no_reuse"] = nr
    e["bytes_compulsory"] = comp
    return {"scalars": dict(e), "macs_by_type": {k: v for k, v in macs.items() if v},
            "flops_by_type": {k: v for k, v in flops.items() if v},
            "arrays": {k: dict(v) for k, v in arr.items()},
            "loops": list(tot), "negative_trip": neg[0], "empty_entry": neg[1],
            "negative_division": NEG_DIV[0]}


def finalize(n, sizes):
    """Offsets and extents of global arrays from the subscript ranges at the
    sizes; linearized subscripts must stay inside their rows (else the
    address is not the tuple: rejected). False if the nest is unusable."""
    try:
        tot, ent, fp, wr, rng, lin, _, _ = run_oracle(n, sizes, True)
    except OverflowError:
        return False
    if tot[-1] == 0 and random.Random(n.name).random() < 0.8:
        return False  # keep a few empty nests (all counts 0), not most
    for sub, st in lin:
        stv = sizes[st] if isinstance(st, str) else st
        if not 0 <= sub < stv:
            return False
    for ai, a in enumerate(n.arrays):
        for d in range(a.dims):
            lo, hi = rng[ai][d]
            if lo is None:
                lo = hi = 0
            if a.storage == "global":
                a.offsets[d] = -lo if lo < 0 else 0
                a.extents[d] = hi + a.offsets[d] + 1
    return True


def nest_cpp(n, mode):
    """mode 'const': sizes are constexpr globals; 'sym': int arguments."""
    args = []
    decls = []
    for a in n.arrays:
        cty = TYPES[a.ty][0]
        if a.storage == "global":
            decls.append("%s %s_%s%s;" % (cty, n.name, a.name,
                                            "".join("[%d]" % x for x in a.extents)))
        else:
            args.append("%s *%s" % (cty, a.name))
    if mode == "sym":
        args += ["int N", "int M", "int K"]
    body = []
    depth = len(n.loops)

    def refs(s):
        if s.else_of:
            return None  # written with its then statement
        text = plain(s)
        if s.guard_c:
            text = "if (%s) { %s }" % (s.guard_c, text)
            if s.else_stmt:
                text += " else { %s }" % plain(s.else_stmt)
        return text

    def plain(s):
        out = []
        for acc in s.accesses:
            t = ref_text(acc)
            if acc.arr.storage == "global":
                t = n.name + "_" + t
            out.append(t)
        return s.text_fn.format(*out)

    def emit(lvl, ind):
        body.append(ind + loop_text(n.loops[lvl]) + " {")
        for s in n.stmts:
            if s.level == lvl and s.where in ("pre", "in") and not s.else_of:
                body.append(ind + "  " + refs(s))
        if lvl + 1 < depth:
            emit(lvl + 1, ind + "  ")
        for s in n.stmts:
            if s.level == lvl and s.where == "post" and not s.else_of:
                body.append(ind + "  " + refs(s))
        body.append(ind + "}")

    emit(0, "  ")
    text = "\n".join(decls) + "\n" if decls else ""
    text += "void %s(%s) {\n%s\n}\n" % (n.name, ", ".join(args), "\n".join(body))
    return text


def file_cpp(nests, mode, sizes):
    head = "#include <cstdint>\n"
    if mode == "const":
        head += "".join("constexpr int %s = %d;\n" % (p, sizes[p]) for p in PARAMS)
    return head + "\n".join(nest_cpp(n, mode) for n in nests)


# --- Formulas ---------------------------------------------------------------

class _Eval(ast.NodeVisitor):
    def __init__(self, env):
        self.env = env

    def visit_Expression(self, node):
        return self.visit(node.body)

    def visit_Constant(self, node):
        return Fraction(node.value)

    def visit_Name(self, node):
        return Fraction(self.env[node.id])

    def visit_UnaryOp(self, node):
        v = self.visit(node.operand)
        if isinstance(node.op, ast.USub):
            return -v
        return v

    def visit_BinOp(self, node):
        a, b = self.visit(node.left), self.visit(node.right)
        op = node.op
        if isinstance(op, ast.Add):
            return a + b
        if isinstance(op, ast.Sub):
            return a - b
        if isinstance(op, ast.Mult):
            return a * b
        if isinstance(op, ast.Div):
            return a / b
        if isinstance(op, ast.Pow):
            return a ** int(b)
        raise ValueError("operator")

    def visit_Call(self, node):
        f = node.func.id
        args = [self.visit(x) for x in node.args]
        if f == "floor":
            return Fraction(math.floor(args[0]))
        if f == "ceil":
            return Fraction(math.ceil(args[0]))
        if f == "min":
            return min(args)
        if f == "max":
            return max(args)
        raise ValueError("function " + f)

    def generic_visit(self, node):
        raise ValueError("unsupported " + type(node).__name__)


def eval_formula(text, env):
    tree = ast.parse(text.replace("^", "**"), mode="eval")
    return _Eval(env).visit(tree)


class _CEval(_Eval):
    """C's integer arithmetic: '/' truncates toward zero (a case's
    condition is source text, `(M / 3) > 1`, not a formula)."""

    def visit_BinOp(self, node):
        if isinstance(node.op, ast.Div):
            a, b = self.visit(node.left), self.visit(node.right)
            return Fraction(math.trunc(a / b))
        return super().visit_BinOp(node)


def eval_c(text, env):
    return _CEval(env).visit(ast.parse(text, mode="eval"))


nn.EVAL = eval_formula
nn.EVAL_C = eval_c


# --- Comparison -------------------------------------------------------------

SCALARS = ["iterations", "macs", "flops", "loads", "stores", "intops"]
BYTES = [("bytes_no_reuse", "no_reuse"), ("bytes_compulsory", "compulsory")]
SYMBOLIC = ["iterations", "macs", "flops", "loads", "stores", "bytes_no_reuse",
            "bytes_compulsory"]


def compare_values(nj, exp, tag, problems, nulls):
    c = nj.get("counts", {})
    for k in SCALARS:
        got = c.get(k)
        if got is None:
            nulls[tag + ":" + k] += 1
        elif got != exp["scalars"][k]:
            problems.append("%s counts.%s = %s, brute force %s" % (
                tag, k, got, exp["scalars"][k]))
    for jk, key in (("macs_by_type", "macs_by_type"), ("flops_by_type", "flops_by_type")):
        raw = c.get(jk) or {}
        got = {t: v for t, v in raw.items() if v}
        if any(v is None for v in raw.values()):
            nulls[tag + ":" + jk] += 1
        elif got != exp[key]:
            problems.append("%s counts.%s = %s, brute force %s" % (
                tag, jk, got, exp[key]))
    for ek, jk in BYTES:
        got = (nj.get("bytes") or {}).get(jk)
        if got is None:
            nulls[tag + ":bytes." + jk] += 1
        elif got != exp["scalars"][ek]:
            problems.append("%s bytes.%s = %s, brute force %s" % (
                tag, jk, got, exp["scalars"][ek]))
    seen = set()
    for a in nj.get("arrays", []):
        name = a["name"]
        seen.add(name)
        ea = exp["arrays"].get(name)
        if ea is None:
            problems.append("%s array %s is not in the nest" % (tag, name))
            continue
        for k in ("element_bytes", "loads", "stores", "elements_read",
                  "elements_written"):
            if a.get(k) is None:
                nulls[tag + ":arrays." + k] += 1
            elif a[k] != ea[k]:
                problems.append("%s arrays[%s].%s = %s, brute force %s" % (
                    tag, name, k, a[k], ea[k]))
    for name in exp["arrays"]:
        if name not in seen:
            problems.append("%s array %s missing" % (tag, name))
    # Guard loops (iv "__ifN", docs/user-guide.md "Conditions") are no
    # source loops: their totals are checked through the guarded work.
    loops = [lj for lj in nj.get("loops", [])
             if not str(lj.get("iv", "")).startswith("__if")]
    if len(loops) != len(exp["loops"]):
        problems.append("%s %d loops, expected %d" % (tag, len(loops), len(exp["loops"])))
    else:
        for lj, want in zip(loops, exp["loops"]):
            if lj.get("total") is None:
                nulls[tag + ":loops.total"] += 1
            elif lj["total"] != want:
                problems.append("%s loops[%s].total = %s, brute force %s" % (
                    tag, lj.get("iv"), lj["total"], want))


def compare_formulas(nj, exp, sizes, problems, nulls, formulas):
    sym = nj.get("symbolic") or {}
    want = dict(exp["scalars"])
    if exp["negative_trip"]:
        # Documented: "formulas valid while every trip count is >= 0".
        if any(sym.get(k) for k in SYMBOLIC):
            nulls["sym:skipped (a trip count < 0 at the sizes)"] += 1
        return
    if (exp["negative_division"] and
            any("rounds toward zero" in x for x in nj.get("notes", []))):
        # Noted: "formulas take '/' in a bound as floor(); C's '/' rounds
        # toward zero, so they hold while E >= 0"; here E < 0.
        nulls["sym:skipped (a '/' bound's dividend < 0 at the sizes, noted)"] += 1
        return
    for k in SYMBOLIC:
        f = sym.get(k)
        if f is None:
            nulls["sym:" + k] += 1
            continue
        if k in NO_REUSE_KEYS and failed_no_reuse_assumption(nj, sizes):
            # Noted: "the no-reuse formulas assume loop k runs an iteration
            # on every entry: E >= 0" (or that an outer loop has values where
            # it runs); here E < 0.
            nulls["sym:%s skipped (a loop the no-reuse formula assumes "
                  "runs, does not; noted)" % k] += 1
            continue
        if (k == "bytes_compulsory" and exp["empty_entry"] and
                any("runs at least once" in x for x in nj.get("notes", []))):
            # Documented: "footprint formulas assume every loop that does not
            # index an array runs at least once"; one did not.
            nulls["sym:bytes_compulsory skipped (a loop ran 0 times, noted)"] += 1
            continue
        formulas[0] += 1
        try:
            v = eval_formula(f, sizes)
        except (ValueError, KeyError, SyntaxError, ZeroDivisionError) as e:
            problems.append("sym formula %s = '%s' does not evaluate: %s" % (k, f, e))
            continue
        if v != want[k]:
            problems.append("sym %s = '%s' = %s at %s, brute force %s" % (
                k, f, v, sizes_text(sizes), want[k]))


NO_REUSE_KEYS = ("loads", "stores", "bytes_no_reuse")
NO_REUSE_RE = re.compile(r"^the no-reuse formulas assume [^:]*: (.*) >= 0$")


def failed_no_reuse_assumption(nj, sizes):
    """Whether a noted condition of the no-reuse formulas fails at sizes."""
    for note in nj.get("notes", []):
        m = NO_REUSE_RE.match(note)
        if m and eval_formula(m.group(1), sizes) < 0:
            return True
    return False


def sizes_text(sizes):
    return ",".join("%s=%d" % (p, sizes[p]) for p in PARAMS)


def run_tool(tool, path, extra):
    cmd = [tool, "--format=json", "--no-source"] + extra + [path]
    p = subprocess.run(cmd, capture_output=True, text=True)
    try:
        return json.loads(p.stdout), cmd
    except json.JSONDecodeError:
        raise RuntimeError("%s: exit %d, no JSON: %s" % (" ".join(cmd), p.returncode,
                                                         p.stderr[-2000:]))


def index_by_function(report):
    nests, skipped = {}, {}
    for nj in report.get("nests", []):
        nests.setdefault(nj["function"], []).append(nj)
    for s in report.get("skipped", []):
        skipped.setdefault(s["function"], []).append(s.get("reason", ""))
    return nests, skipped


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--count", type=int, default=200)
    ap.add_argument("--seed", type=int, default=0)
    ap.add_argument("--batch", type=int, default=100, help="nests per C++ file")
    ap.add_argument("--tool", default=os.path.join(ROOT, "build", "bin", "roofline-lint"))
    ap.add_argument("--out", help="write the summary and every problem here")
    ap.add_argument("--keep-failures", metavar="DIR",
                    help="write each mismatching nest as a standalone .cpp")
    ap.add_argument("--self-test-inject-error", action="store_true",
                    help=argparse.SUPPRESS)  # perturbs the oracle: must fail
    ap.add_argument("--nn-fraction", type=float, default=0.5,
                    help="share of the nests written in NN idioms (differential_nn.py); "
                    "0 gives exactly the affine nests of earlier versions")
    ap.add_argument("--nn-forms", metavar="LIST",
                    help="comma-separated NN forms to draw (the others off): " + ",".join(nn.FORMS))
    ap.add_argument("--nn-force", metavar="LIST",
                    help="comma-separated NN forms switched on in every NN nest")
    ap.add_argument("--nn-batch", type=int, default=50, help="NN nests per C++ file")
    ap.add_argument("--nn-max-size", type=int, default=5,
                    help="sizes of NN batches are drawn from 2..this (sometimes 0..this+1)")
    ap.add_argument("--nn-scoped-sizes", type=float, default=0.25, metavar="P",
                    help="share of NN batches whose --param run sizes every nest with "
                    "--param FUNCTION:N=... (and wrong global sizes)")
    ap.add_argument("--nn-range", choices=["ops", "totals"], default="ops",
                    help="components of a data-dependent branch's min..max work: every "
                    "operation kind per precision (ops) or MACs and FLOPs per precision "
                    "(totals)")
    ap.add_argument("--show", type=int, default=30,
                    help="mismatching NN nests printed in full")
    args = ap.parse_args()
    nn.RANGE[0] = args.nn_range
    nn_count = int(round(args.count * args.nn_fraction))
    classic_count = args.count - nn_count

    t0 = time.time()
    rng = random.Random(args.seed)
    feats = Counter()
    nulls = Counter()
    refused = []
    failures = []  # (nest, sizes, [problems])
    formulas = [0]
    guards_exact = [0]  # nests with a partial guard, counted and matching
    done = 0
    tmp = tempfile.mkdtemp(prefix="differential-")
    idx = 0
    batchno = 0
    while done < classic_count:
        k = min(args.batch, classic_count - done)
        # Sizes per batch; small so that every nest enumerates quickly.
        sizes = {p: rng.choice([0, 1, 2, 3, 4, 5, 6, 7, 8, 9]) for p in PARAMS}
        if rng.random() < 0.8:
            sizes = {p: rng.randint(3, 9) for p in PARAMS}
        nests = []
        while len(nests) < k:
            f = Counter()
            n = gen_nest(rng, idx, f)
            idx += 1
            if not n.stmts or not finalize(n, sizes):
                continue
            feats.update(f)
            nests.append(n)
        exps = {n.name: expected_counts(n, sizes) for n in nests}
        if args.self_test_inject_error:
            for i, n in enumerate(nests):
                if i % 7 == 3:
                    exps[n.name]["scalars"]["iterations"] += 1
        cpath = os.path.join(tmp, "batch%d-const.cpp" % batchno)
        spath = os.path.join(tmp, "batch%d-sym.cpp" % batchno)
        with open(cpath, "w") as fh:
            fh.write(file_cpp(nests, "const", sizes))
        with open(spath, "w") as fh:
            fh.write(file_cpp(nests, "sym", sizes))
        pargs = ["--param=%s=%d" % (p, sizes[p]) for p in PARAMS]
        runs = [("const", run_tool(args.tool, cpath, [])[0]),
                ("param", run_tool(args.tool, spath, pargs)[0]),
                ("sym", run_tool(args.tool, spath, [])[0])]
        idxs = {tag: index_by_function(r) for tag, r in runs}
        for n in nests:
            problems = []
            exp = exps[n.name]
            refusal = None
            for tag, _ in runs:
                nmap, smap = idxs[tag]
                got = nmap.get(n.name, [])
                if n.name in smap:
                    if tag == "sym":  # no formula at all: not a refusal
                        nulls["sym:no formula for the nest"] += 1
                    else:
                        refusal = "%s: %s" % (tag, "; ".join(smap[n.name]))
                    continue
                if len(got) != 1:
                    problems.append("%s: %d nests reported, expected 1" % (tag, len(got)))
                    continue
                if tag == "sym":
                    compare_formulas(got[0], exp, sizes, problems, nulls, formulas)
                else:
                    compare_values(got[0], exp, tag, problems, nulls)
            if refusal:
                refused.append((n, sizes, refusal))
            elif n.guarded and not problems:
                guards_exact[0] += 1
            if problems:
                if exp["negative_division"]:
                    # Labelled, still a failure: C truncates, floor does not.
                    problems.insert(0, "note: a bound divides a negative value "
                                    "(C's '/' truncates toward zero)")
                failures.append((n, sizes, problems))
        done += k
        batchno += 1

    nnres = nn.run(args, nn_count, tmp, index_by_function,
                   inject=args.self_test_inject_error) if nn_count else None
    elapsed = time.time() - t0
    lines = []
    lines.append("differential.py " + " ".join(sys.argv[1:]))
    nn_fail = len(nnres.failures) if nnres else 0
    nn_ref = len(nnres.refused) if nnres else 0
    nn_form = nnres.formulas[0] if nnres else 0
    lines.append("nests: %d   mismatching: %d   refused: %d   formulas checked: %d   time: %.1f s"
                 % (done + nn_count, len(failures) + nn_fail, len(refused) + nn_ref,
                    formulas[0] + nn_form, elapsed))
    if nnres:
        lines.append("(affine nests: %d, mismatching %d, refused %d; NN-idiom nests: %d, "
                     "mismatching %d, refused %d)" % (done, len(failures), len(refused),
                                                      nn_count, nn_fail, nn_ref))
    negdiv = sum(1 for _, _, p in failures if p[0].startswith("note: a bound divides"))
    if negdiv:
        lines.append("  of the mismatching, %d have a bound that divides a negative value "
                     "(C truncates toward zero)" % negdiv)
    if feats["guard-partial"]:
        lines.append("partial affine guards: %d nests, %d counted and matching"
                     % (feats["guard-partial"], guards_exact[0]))
    if done:
        lines.append("coverage (nests or loops/statements with the feature):")
    for key in sorted(feats):
        lines.append("  %-16s %d" % (key, feats[key]))
    if nulls:
        lines.append("counts left null by the tool (no exact value/formula), by run:count:")
        for key in sorted(nulls):
            lines.append("  %-32s %d" % (key, nulls[key]))
    if refused:
        lines.append("refused nests (reported unanalyzable):")
        reasons = Counter(r for _, _, r in refused)
        for r, c in reasons.most_common():
            lines.append("  %4d  %s" % (c, r))
        for n, sizes, r in refused[:20]:
            lines.append("  REFUSED %s at %s: %s" % (n.name, sizes_text(sizes), r))
            lines.append("\n".join("      " + x for x in
                                   nest_cpp(n, "sym").splitlines()))
    for n, sizes, probs in failures:
        lines.append("MISMATCH %s at %s:" % (n.name, sizes_text(sizes)))
        for p in probs[:20]:
            lines.append("    " + p)
        lines.append("    nest:\n" + "\n".join("      " + x for x in
                                                nest_cpp(n, "sym").splitlines()))
    if nnres:
        lines.append("")
        lines += nn.summary(nnres, elapsed, args.show)
    text = "\n".join(lines) + "\n"
    sys.stdout.write(text)
    if args.out:
        os.makedirs(os.path.dirname(os.path.abspath(args.out)), exist_ok=True)
        with open(args.out, "w") as fh:
            fh.write(text)
    if args.keep_failures and failures:
        os.makedirs(args.keep_failures, exist_ok=True)
        for n, sizes, probs in failures:
            with open(os.path.join(args.keep_failures, n.name + ".cpp"), "w") as fh:
                fh.write("// differential.py mismatch at %s:\n" % sizes_text(sizes))
                for p in probs:
                    fh.write("//   %s\n" % p)
                fh.write("// roofline-lint --format=json %s\n" % (
                    " ".join("--param %s=%d" % (p, sizes[p]) for p in PARAMS)))
                fh.write(file_cpp([n], "sym", sizes))
    if args.keep_failures and nnres and nnres.failures:
        os.makedirs(args.keep_failures, exist_ok=True)
        for n, sizes, probs in nnres.failures:
            with open(os.path.join(args.keep_failures, n.name + ".cpp"), "w") as fh:
                fh.write("// differential.py mismatch at %s:\n" % sizes_text(sizes))
                for p in probs:
                    fh.write("//   %s\n" % p)
                fh.write("// roofline-lint --format=json %s\n" % (
                    " ".join("--param %s=%d" % (p, sizes[p]) for p in PARAMS)))
                fh.write(nn.file_cpp([n], "sym", sizes))
    return 1 if failures or nn_fail else 0


if __name__ == "__main__":
    sys.exit(main())
