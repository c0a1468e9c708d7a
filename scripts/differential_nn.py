"""NN-style nests for differential.py: the idioms hand-written neural-network
code is written in (issue 18; what is counted: docs/user-guide.md, how this
script reads it: docs/fuzzing.md), generated at random, written as C++ and
executed by a literal interpreter.

The generator builds a small AST per nest (loops, int locals, pointers,
scalars, conditions, calls), renders it as C++ (sizes as constexpr globals, or
as arguments / struct fields) and runs it in Python with C semantics:

  * pointers are (array, element offset) pairs; `p + e`, `&p[e]`, `G[i]` of a
    2-D C array and `p += e` are computed as C computes them, and every access
    is recorded at its address (elements compared as addresses, never as
    subscript tuples: overlapping rows are the same elements);
  * int arithmetic truncates like C's '/'; a value loaded from memory is
    unknown (D): a pointer offset that depends on one is a gather, and the nest
    has no exact count (the tool must refuse it or leave the bytes null);
  * a condition on data cannot be decided: both branches run on scratch copies
    of the counters, the work is the componentwise minimum and maximum over the
    branches per execution, and the footprint change of each branch is
    compared: if it differs the bytes depend on data (no exact count);
  * loop-invariant conditions (a flag argument, a null check) take the values
    of the case being counted; affine conditions are evaluated.

Counting rules (docs/user-guide.md): a multiply that
is an operand of + or - (left operand first) fuses with it into a MAC (2
FLOPs), likewise `+=`/`-=` of a multiply; other floating + - * / and floating
comparisons and math calls are 1 FLOP; integer arithmetic on loaded data is
INTOPs (an int multiply feeding an add is an i32 MAC); index and address
arithmetic is free; a subtree whose leaves are all literals, constexpr globals
or macros of them (and sizes, in the constexpr build) is folded and free;
scalars and local arrays inside the nest move no bytes. No-reuse loads and
stores: each executed reference, except one whose address does not depend on
the loop directly around it (found by a dataflow pass over the AST), which
moves once per entry of that loop on which it executes (none when the loop
runs no iteration or its guard holds on none).
"""

import random
import re
from collections import Counter
import zlib

FT_C = {"f32": "float", "f64": "double", "i32": "int32_t"}
EB = {"f32": 4, "f64": 8, "i32": 4}
BASE_SIZES = ["N", "M", "K"]
FIELD = {"N": "rows", "M": "cols", "K": "depth"}
MAX_STEPS = 2500  # statement executions per nest and case
EVAL = None  # differential.eval_formula (set by differential.py)
EVAL_C = None  # differential.eval_c: C source text ('/' truncates)

# Feature switches (--nn-forms): name -> probability per nest.
FORMS = {
    "rowptr": 0.55,     # T *p = A + off / &A[off] / G[i], chains, before the nest
    "pinc": 0.08,       # p += stride inductions
    "counter": 0.08,    # int k = 0 before the nest; w[k] with k++ / k += E steps
    "padguard": 0.08,   # cnn.c's padding test 0 <= S*o - P + d < H, stride S a size
    "intlocal": 0.3,    # int bt = b*T + t; A[bt*C + i]
    "idxcall": 0.05,    # A[at(b, i, C)] through a small int function
    "prodsize": 0.25,   # i < N*M, strides N*M
    "derived": 0.25,    # int H = N / 2; int C3 = 3*N; before the nest
    "rowsplus": 0.12,   # rows of N+1 written inline: j*(N + 1) + k (genann)
    "constlocal": 0.15, # int K = 3; / const int / constexpr int / unsigned
                        # long long: folded; or written again after its
                        # declaration (K = 4;), which must not fold
    "struct": 0.2,      # cfg.rows, p->cols as sizes
    "split": 0.15,      # qkv-style views: q = A + C, rows of 3*C
    "g2": 0.12,         # 2-D C arrays, G[i][j] and G[i] row pointers
    "affine": 0.25,     # if (cond) body / if (cond) continue; / if-else
    "inv": 0.18,        # if (flag) / if (bias != NULL) / bias ? : ternary
    "data": 0.3,        # running max, clamp, ?: with arithmetic, online softmax
    "constfold": 0.3,   # literal subtrees, math on literals, macros; look-alikes
    "scratch": 0.1,     # float tmp[4] inside the nest
    "call": 0.15,       # calls to small functions defined in the file
    "rangefor": 0.1,    # range-for over C arrays, std::array, std::vector
    "intdata": 0.08,    # int32_t data: INTOPs and i32 MACs
    "overlap": 0.03,    # x[t*S + k] with k < K: rows overlap when K > S (rule 9)
    "refuse": 0.05,     # forms that may be refused: partial affine if,
                        # data branches with a data-dependent footprint
    "gather": 0.03,     # w = W + ix*C with ix loaded: a gather, must refuse
    "group": 0.06,      # grouped loops (a whole nest): x[i] * s[i / G],
                        # j += G over groups, int r = i < L ? 2 : 1 and
                        # p = v == 0 ? a : b (docs/user-guide.md)
    "fieldptr": 0.15,   # pointers before the nest held in struct fields:
                        # st->r0 = A0 + off; st->r0[i] (llama2.c's s->k)
    "memcall": 0.15,    # memset(row, 0, n * sizeof(T)) / memcpy(dst, src,
                        # n * sizeof(T)) of a row block inside the nest
    "runtime": 0.3,     # a derived size computed at run time by a call the
                        # tool cannot follow: int D = rt_value(N / 2); or
                        # int D; D = rt_value(...); its value by --param
    "ptrinc": 0.15,     # pointers the nest advances (genann's *w++): *p++,
                        # ++p; / p += 2; p--; / p[i] with p += E, *o++ = s,
                        # declared before the nest or in it
    "nestcounter": 0.15,  # int k = 0 / a row offset declared in a loop body
                          # of the nest (rnn.c's kx), k++ or k += E steps,
                          # maybe under an if on the outer loops only
    "condsel": 0.12,    # c ? a : b in a loop bound and a subscript (genann's
                        # k < (h == L-1 ? outputs : hidden)): c on an outer
                        # loop's variable (its first or last value, != 0, a
                        # comparison with a size) or a flag argument
    "rowblock": 0.05,   # a block of rows that starts off a row boundary
                        # (genann's layers at (I+1)*H): A + X + i*E + j
    "bodyassign": 0.1,  # a row pointer declared before the nest and
                        # assigned first in a loop body (llm.c's
                        # `float *residual;` ... `residual = ...;`):
                        # T *r; for (...) { r = A + i*N; ... r[j] ... }
    "sizecond": 0.1,    # a helper whose loops take a side of a condition on
                        # its size argument, called twice with different
                        # sizes (llm.c's matmul_forward: B*T % 8 != 0):
                        # two conditions, in the caller's sizes
    "bothread": 0.15,   # a data-dependent ?: whose arms read the same
                        # elements, first there (`c ? x[i] - 1 : x[i]`,
                        # mnist-neural-network-plain-c's softmax gradient)
    "clamp": 0.15,      # a size local set again under a condition on its
                        # value before the nest (darknet's `int sample =
                        # w2/w1; if (sample < 1) sample = 1;`)
    "paramadj": 0.1,    # a helper that adjusts its by-value index parameter
    "helperexit": 0.1,  # a void helper returning early on its index parameter
                        # first (darknet's im2col_get_pixel: `r -= p;`, `r =
                        # r - p;`, `++r;`) and returns 0 outside its row
                        # (a guarded return or a ?: on r)
    "reindex": 0.1,     # an int row offset set again in the loop body that
                        # declares it (darknet YOLO's `index = entry_index(
                        # ...)` twice): k += E; / k = k + E; / k = start +
                        # s*E; between loops that read w[k + j]
    "window": 0.04,     # a whole nest: a window clamped in int locals,
                        # int lo = std::max(0, o*S - P), hi = std::min(W, o*S
                        # - P + F), for (k = lo; k < hi; k++), as pooling and
                        # box filters are written (S a constant or a size)
    "modsplit": 0.04,   # a whole nest: one loop over X*G*G (or X*G) split by
                        # q % G, (q / G) % G and q / G / G into the kernel
                        # offsets and the channel (Caffe's and darknet's
                        # im2col), used as indices and as q itself
    "invswitch": 0.1,   # switch (mode) { case 0: ...; break; case 1: case
                        # 2: ...; break; [default: ...] } on an int
                        # argument (darknet's activate(x, a)): one case per
                        # label, the default (or no label) as value 3
    "guardlocal": 0.1,  # a condition on loop variables kept in an int local
                        # of the loop body and tested later (darknet's
                        # maxpool: `int valid = (r >= 0 && ...);` then
                        # `(valid != 0) ? x[..] : -BIG`, `if (ok)`, `ok == 0`)
    "pgather": 0.1,     # one element of each row picked by an index loaded
                        # from memory (a cross-entropy's probs_bt[ix]): read,
                        # written or updated where the index is loaded, or
                        # in a loop inside (refused); the run draws indices
    "rgather": 0.1,     # rows of a table picked by an int loaded from memory
                        # (llm.c's encoder: `int ix = inp[..]; const float *w
                        # = wte + ix*C;`): read, read twice, updated or
                        # written in a loop over the row, spelled W + x*E,
                        # W + E*x, &W[x*E] or W[x*E + i]; a bytes range
                        # checked at both ends (every pick the same row, every
                        # pick a new one); the row part moving with an outer
                        # loop is refused
    "shortcirc": 0.1,   # a data-dependent ?: whose condition is `a && b` or
                        # `a || b` on scalars (darknet's gradients: `x > 0
                        # && x < 1`, `x < 0 || x > 1`): b's compare and
                        # multiply a range
    "sgather": 0.3,     # a scratch array (float tmp[L] in the nest) read at an
                        # element an int loaded from memory picks: no bytes
                        # whichever it is (a cross-entropy's logf(e[label]))
    "hoistw": 0.15,     # a helper whose loop writes a row and returns a value
                        # the statement uses (a training loop's `loss +=
                        # step(...)`): y[..] = f(yrow, xrow, a, E), s = f(..)
    "jagged": 0.3,      # a 2-D C array's rows as pointers of their own:
                        # `float *G[R];` (each row its own allocation),
                        # indexed G[i][j], G[i] and &G[i][0] as before
    "reseat": 0.3,      # a row pointer declared before the nest at another
                        # array's start and set again before it (Mamba's `float
                        # *dt = s->x_db; ... dt = s->dt;`), sometimes set once
                        # more after the nest, or again in an inner block
                        # (refused: not a setting of a block around the nest)
    "lambda": 0.3,      # the nest's helpers (index helpers like at(r, c, n),
                        # value and loop helpers) written as lambdas at the
                        # top of the function, `auto f = [&](int r, ...) ->
                        # int { ... };`, as C++ kernels write them; half the
                        # index helpers through a local; with struct sizes,
                        # half the nests read them through getters
                        # (cfg.get_rows(), p->get_cols())
    "accessor": 0.3,    # half the pointer parameters passed as Buf<T> &A (a
                        # pointer inside) or OBuf<T> &A (a std::shared_ptr<T[]>),
                        # a class reached through its accessors, as C++
                        # matrix classes are: A[i] and A.at(i) (a reference
                        # to the element), A.ptr() and A.row(o) (a pointer;
                        # row() asserts and returns a local); the tool names
                        # the array A.p
    "assert": 0.12,     # assert(x[i] > c), assert(!std::isnan(x[i])), assert(a && b), assert(v < c) on
                        # a local, assert(i < N) somewhere in a loop body:
                        # the condition counts, the failing branch does not
    "exit": 0.12,       # `if (c) break;` ending a loop's body, or `if (c)
                        # return;` ending the outermost loop's (llama2.c's
                        # sample_mult, a search), c on an element or a scalar:
                        # a range from the loop's first iteration per entry to
                        # all of them, checked at both ends (Interp.exits)
}


# Forms added after the others (see Gen.side).
SIDE_FORMS = ("fieldptr", "memcall", "ptrinc", "constlocal", "rowsplus", "runtime")
# Added later still, on a stream of their own (see Gen.side2).
SIDE2_FORMS = ("nestcounter",)
# And on a third stream (see Gen.side3).
SIDE3_FORMS = ("condsel", "rowblock", "assert")
# And on a fourth (see Gen.side4).
SIDE4_FORMS = ("bodyassign",)
# And on a fifth (see Gen.side5).
SIDE5_FORMS = ("sizecond", "bothread")
# And on a sixth (see Gen.side6).
SIDE6_FORMS = ("clamp",)
# And on a seventh (see Gen.side7; main's sixth is "clamp"'s).
SIDE7_FORMS = ("paramadj", "modsplit")
# And on an eighth (see Gen.side8).
SIDE8_FORMS = ("invswitch",)
# A switch flag's values: its labels 0, 1, 2 and 3 for none of them.
SWITCH_VALUES = (0, 1, 2, 3)
# And on a ninth (see Gen.side9).
SIDE9_FORMS = ("helperexit",)
# And on a tenth (see Gen.side10).
SIDE10_FORMS = ("guardlocal",)
# On a stream named for it (see Gen.side_pg), so that forms numbered later
# on other branches do not share it.
SIDE_PG_FORMS = ("pgather",)
# On a stream named for it (see Gen.side_sc), so that forms numbered later
# on other branches do not share it.
SIDE_SC_FORMS = ("shortcirc",)
# On a stream named for it (see Gen.side_jg).
SIDE_JG_FORMS = ("jagged",)
# On a stream named for it (see Gen.side_hw).
SIDE_HW_FORMS = ("hoistw",)
# On a stream named for it (see Gen.side_sg).
SIDE_SG_FORMS = ("sgather",)
# Each group's stream: the Gen attribute and the tag its seed carries.
# And reseat on its own stream (see Gen.reseatify).
SIDE_RS_FORMS = ("reseat",)
# And lambda on its own stream (see Gen.lambdify).
SIDE_LM_FORMS = ("lambda",)
# And accessor (see Gen.wrap_bases).
SIDE_AC_FORMS = ("accessor",)
# And window (see Gen.window_nest).
SIDE_WN_FORMS = ("window",)
# reindex in a stream of its own, so the other streams' nests stay the same.
SIDE_RI_FORMS = ("reindex",)
# rgather too.
SIDE_RG_FORMS = ("rgather",)
# And exit.
SIDE_EX_FORMS = ("exit",)
SIDE_STREAMS = (("side", "", SIDE_FORMS), ("side2", "2/", SIDE2_FORMS),
                ("side3", "3/", SIDE3_FORMS), ("side4", "4/", SIDE4_FORMS),
                ("side5", "5/", SIDE5_FORMS), ("side6", "6/", SIDE6_FORMS),
                ("side7", "7/", SIDE7_FORMS), ("side8", "8/", SIDE8_FORMS),
                ("side9", "9/", SIDE9_FORMS), ("side10", "10/", SIDE10_FORMS),
                ("side_pg", "pg/", SIDE_PG_FORMS), ("side_sc", "sc/", SIDE_SC_FORMS),
                ("side_jg", "jg/", SIDE_JG_FORMS), ("side_hw", "hw/", SIDE_HW_FORMS),
                ("side_sg", "sg/", SIDE_SG_FORMS), ("side_rs", "rs/", SIDE_RS_FORMS),
                ("side_lm", "lm/", SIDE_LM_FORMS), ("side_ac", "ac/", SIDE_AC_FORMS),
                ("side_wn", "wn/", SIDE_WN_FORMS), ("side_ri", "ri/", SIDE_RI_FORMS),
                ("side_rg", "rg/", SIDE_RG_FORMS), ("side_ex", "ex/", SIDE_EX_FORMS))
SIDE_STREAM_FORMS = tuple(f for _, _, group in SIDE_STREAMS for f in group)


class MustRefuse(Exception):
    pass


class TooBig(Exception):
    pass


class LoopExit(Exception):
    """An early exit taken (Interp.exits == "first"): "break" ends the loop
    whose body the exit ends, "return" the whole nest."""

    def __init__(self, kind):
        super().__init__(kind)
        self.kind = kind


EXIT_KINDS = ("exit-break", "exit-return")


D = "D"  # an unknown (loaded) value


def cdiv(a, b):
    q = abs(a) // abs(b)
    return q if (a >= 0) == (b > 0) else -q


def trip_count(start, op, bound, step):
    """The trip count of `for (v = start; v op bound; v += step)` (step not
    0), negative where the last value is before the first by more than a
    step: the formulas' stated precondition is that none is. Shared with
    differential.py's oracle."""
    if step > 0:
        last = bound - 1 if op == "<" else bound
        return (last - start) // step + 1
    last = bound + 1 if op == ">" else bound
    return (start - last) // -step + 1


# --- Sizes -------------------------------------------------------------------

class Sz:
    """coef * product of size names (base sizes or derived locals)."""
    __slots__ = ("coef", "facs")

    def __init__(self, coef=1, facs=()):
        self.coef = coef
        self.facs = tuple(sorted(facs))

    def key(self):
        return (self.coef, self.facs)

    def __eq__(self, o):
        return isinstance(o, Sz) and self.key() == o.key()

    def __hash__(self):
        return hash(self.key())

    def times(self, o):
        return Sz(self.coef * o.coef, self.facs + o.facs)

    def is_one(self):
        return self.coef == 1 and not self.facs

    def value(self, env):
        v = self.coef
        for f in self.facs:
            v *= env[f]
        return v

    def ie(self):
        e = None
        if self.coef != 1 or not self.facs:
            e = ("n", self.coef)
        for f in self.facs:
            e = ("v", f) if e is None else ("*", e, ("v", f))
        return e


# --- Int (index) expressions: ("n", v) ("v", name) ("+", a, b) ("*", a, b)
#     ("/", a, q) ("%", a, q) ("-", a, b) ("icall", helper, [args]) -------------

def ie_add(a, b):
    if a is None:
        return b
    if b is None:
        return a
    return ("+", a, b)


def ie_mul(a, b):
    if a is None or b is None:
        return None
    if a == ("n", 1):
        return b
    if b == ("n", 1):
        return a
    return ("*", a, b)


def ie_text(e, sp, prec=0):
    t = e[0]
    if t == "n":
        s = str(e[1])
        return "(%s)" % s if e[1] < 0 and prec > 0 else s
    if t == "v":
        return sp(e[1])
    if t == "icall":
        return "%s(%s)" % (e[1].name, ", ".join(ie_text(a, sp) for a in e[2]))
    if t in ("+", "-"):
        s = "%s %s %s" % (ie_text(e[1], sp, 1), t, ie_text(e[2], sp, 2))
        return "(%s)" % s if prec > 1 else s
    if t == "*":
        s = "%s * %s" % (ie_text(e[1], sp, 2), ie_text(e[2], sp, 3))
        return "(%s)" % s if prec > 2 else s
    if t in ("/", "%"):
        q = sp(e[2]) if isinstance(e[2], str) else "%d" % e[2]
        s = "%s %s %s" % (ie_text(e[1], sp, 2), t, q)
        return "(%s)" % s if prec > 2 else s
    if t == "isel":  # ("isel", op, a, b, then, else): a op b ? then : else
        s = "%s %s %s ? %s : %s" % (ie_text(e[2], sp, 1), e[1], ie_text(e[3], sp, 1),
                                    ie_text(e[4], sp, 1), ie_text(e[5], sp, 1))
        return "(%s)" % s if prec > 0 else s
    if t in ("max", "min"):  # ("max", a, b[, spelling]): std::max(a, b)
        a, b = ie_text(e[1], sp), ie_text(e[2], sp)
        how = e[3] if len(e) > 3 else 0
        keep_first = ">" if t == "max" else "<"
        if how == 1:  # a > b ? a : b
            s = "%s %s %s ? %s : %s" % (a, keep_first, b, a, b)
        elif how == 2:  # b < a ? a : b (the other comparison)
            s = "%s %s %s ? %s : %s" % (b, "<" if t == "max" else ">", a, a, b)
        elif how == 3:  # what MAX(a, b) of a C macro expands to
            return "((%s) %s (%s) ? (%s) : (%s))" % (a, keep_first, b, a, b)
        else:
            return "std::%s(%s, %s)" % (t, a, b)
        return "(%s)" % s if prec > 0 else s
    raise ValueError(t)


# --- The AST -----------------------------------------------------------------
# Pointer expressions: ("base", name) ("add", pe, ie) ("addr", pe, ie)
#   ("row", gname, ie) ("addr2", gname, ie, ie)
# Data expressions: ("ld", pe, ie) ("ld2", gname, ie, ie) ("s", name)
#   ("lit", text) ("c", name) ("sz", Sz) ("b", op, a, b, ty) ("cmp", op, a, b, ty)
#   ("m", fname, [args], ty) ("fma", a, b, c, ty) ("sel", cond, a, b, ty)
#   ("u", helper, [args], ty)
# Conditions: ("icmp", op, ie, ie) ("and", c, c) ("flag", name, spelling)
#   ("gv", name, negated, spelling): a "dcond" local tested (guardlocal)
#   ("nn", name, spelling) or a data ("cmp", ...)
# Statements: ("for", Loop) ("rfor", RFor) ("dint", name, ie) ("dptr", name, ty, pe)
#   ("dcond", name, cond, parens): `int name = cond;` (guardlocal)
#   ("pinc", name, ie) ("ds", name, ty, de|None) ("darr", name, ty, n)
#   ("cinc", name, ie): an int counter advanced (k++ / ++k / k += E)
#   ("asg", lhs, op, de, ty) ("if", kind, cond, [then], [else]) ("cont",)
#   ("call", helper, [args]) ("mem", MemCall): memset / memcpy of a run
#   ("ifret", cond, [taken]): `if (cond) { taken; return; }` in a void helper

class Base:
    """A memory object: a pointer argument, a global C array, a vector..."""

    def __init__(self, cname, kind, ty):
        self.cname, self.kind, self.ty = cname, kind, ty
        self.rows = self.cols = self.length = None  # g2 / g1 / arr extents
        self.len_sz = None  # g2: Sz of each dim; vec: Sz of its length
        self.nullable = False
        self.written = False
        self.jagged = False  # g2: rows are pointers of their own (T *G[R])


class View:
    """address = offset + sum(idx_d * stride_d) into base."""

    def __init__(self, base, dims, strides, offset=None, rowmajor=True):
        self.base, self.dims, self.strides = base, dims, strides
        self.offset, self.rowmajor = offset, rowmajor


class Level:
    def __init__(self, loop, parent):
        self.loop, self.parent = loop, parent
        self.depth = 0 if parent is None else parent.depth + 1
        self.decls, self.stmts = [], []
        self.else_decls, self.else_stmts = [], None
        self.in_else = False
        self.guard = None  # ("whole"|"cont"|"else", cond)
        self.no_cont = False  # a p += at its end: no 'continue' here

    def decl_list(self):
        return self.else_decls if self.in_else else self.decls

    def stmt_list(self):
        return self.else_stmts if self.in_else else self.stmts


class Loop:
    def __init__(self, lid, iv, start, op, bound, step, rext):
        self.id, self.iv, self.start, self.op = lid, iv, start, op
        self.bound, self.step, self.rext = bound, step, rext
        self.level = None
        self.body = None
        self.leaf = True
        self.guard = None


class RFor:
    def __init__(self, rid, var, byref, base, ty):
        self.id, self.var, self.byref, self.base, self.ty = rid, var, byref, base, ty
        self.body = []
        self.leaf = True


class MemCall:
    """memset(dst, 0, count * sizeof(T)) or memcpy(dst, src, count *
    sizeof(T)): a loop of its own in the tool's IR (id in the loop ids)."""

    def __init__(self, mid, kind, dst, src, count, ty):
        self.id, self.kind, self.dst, self.src = mid, kind, dst, src
        self.count, self.ty = count, ty


class Helper:
    def __init__(self, name, ret, params, body, ret_expr):
        self.name, self.ret, self.params = name, ret, params  # params: (kind, name)
        self.body, self.ret_expr = body, ret_expr
        self.has_loop = False
        self.guarded_returns = False
        self.ret_text = None  # an int helper's return as written, where its
                              # body declares locals ret_expr stands for


# --- Rendering ---------------------------------------------------------------

PREC = {"+": 1, "-": 1, "*": 2, "/": 2}


class Render:
    def __init__(self, nest, mode):
        self.n, self.mode = nest, mode
        self.cptr = set()

    def sp(self, name):
        if name in self.n.inline:
            return "(%s)" % ie_text(self.n.inline[name], self.sp)
        if self.mode == "sym" and name in self.n.field_sizes:
            if self.n.getters:  # cfg.get_rows(): the tool names it cfg.rows
                return self.n.struct_prefix + "get_" + FIELD[name] + "()"
            return self.n.struct_prefix + FIELD[name]
        return name

    def ie(self, e, prec=0):
        return ie_text(e, self.sp, prec)

    def variant(self, text, count):
        """A choice among count spellings, fixed by the text it spells (a
        nest renders the same in every mode)."""
        return zlib.crc32(text.encode()) % count

    def pe(self, p):
        t = p[0]
        if t == "base" and p[1] in self.n.wrapped:
            return p[1] + ".ptr()"
        if t == "base":
            return "st->" + p[1] if p[1] in self.n.field_ptrs else p[1]
        if t == "add" and p[1][0] == "base" and p[1][1] in self.n.wrapped:
            off = self.ie(p[2])
            if self.variant(p[1][1] + off, 2):
                return "%s.row(%s)" % (p[1][1], off)
        if t == "add":
            return "%s + %s" % (self.pe(p[1]), self.ie(p[2], 1))
        if t == "addr":
            return "&%s[%s]" % (self.pe(p[1]), self.ie(p[2]))
        if t == "row":
            return "%s[%s]" % (p[1], self.ie(p[2]))
        if t == "addr2":
            return "&%s[%s][%s]" % (p[1], self.ie(p[2]), self.ie(p[3]))
        if t == "psel":
            return "%s %s %s ? %s : %s" % (self.ie(p[2], 1), p[1], self.ie(p[3], 1),
                                           self.pe(p[4]), self.pe(p[5]))
        if t == "pincx":
            return p[1] + "++"
        raise ValueError(t)

    def de(self, e, prec=0):
        t = e[0]
        if t == "ld":
            if e[1][0] == "pincx" and e[2] == ("n", 0):
                return "*%s++" % e[1][1]
            if e[1][0] == "base" and e[1][1] in self.n.wrapped:
                idx = self.ie(e[2])
                form = ("%s[%s]", "%s.at(%s)", "%s.ptr()[%s]")[self.variant(e[1][1] + idx, 3)]
                return form % (e[1][1], idx)
            if e[1][0] in ("add", "addr"):  # a pointer sum indexed: (A + o)[i]
                return "(%s)[%s]" % (self.pe(e[1]), self.ie(e[2]))
            return "%s[%s]" % (self.pe(e[1]), self.ie(e[2]))
        if t == "ld2":
            return "%s[%s][%s]" % (e[1], self.ie(e[2]), self.ie(e[3]))
        if t in ("s", "lit", "c"):
            return e[1]
        if t == "sz":
            s = self.ie(e[1].ie(), 3)
            return s
        if t == "b":
            p = PREC[e[1]]
            s = "%s %s %s" % (self.de(e[2], p), e[1], self.de(e[3], p + 1))
            return "(%s)" % s if prec > p else s
        if t == "cmp" and e[3] is None:
            # A classification: ("cmp", "!isnan", a, None, ty) is !std::isnan(a).
            neg = e[1].startswith("!")
            return "%sstd::%s(%s)" % ("!" if neg else "", e[1].lstrip("!"), self.de(e[2]))
        if t == "cmp":
            s = "%s %s %s" % (self.de(e[2], 1), e[1], self.de(e[3], 1))
            return "(%s)" % s if prec > 0 else s
        if t == "m":
            return "%s(%s)" % (e[1], ", ".join(self.de(a) for a in e[2]))
        if t == "fma":
            return "%s(%s, %s, %s)" % ("fmaf" if e[4] == "f32" else "fma",
                                       self.de(e[1]), self.de(e[2]), self.de(e[3]))
        if t == "sel":
            s = "%s ? %s : %s" % (self.cond(e[1], 1), self.de(e[2], 1), self.de(e[3], 1))
            return "(%s)" % s if prec > 0 else s
        if t == "u":
            return "%s(%s)" % (e[1].name, ", ".join(self.arg(a) for a in e[2]))
        raise ValueError(t)

    def arg(self, a):
        k, v = a
        if k == "ptr":
            return self.pe(v)
        if k == "int":
            return self.ie(v)
        return self.de(v)

    def cond(self, c, prec=0):
        t = c[0]
        if t == "icmp":
            s = "%s %s %s" % (self.ie(c[2]), c[1], self.ie(c[3]))
        elif t == "and":
            s = "%s && %s" % (self.cond(c[1], 1), self.cond(c[2], 1))
        elif t == "or":
            s = "%s || %s" % (self.cond(c[1], 1), self.cond(c[2], 1))
        elif t in ("dand", "dor"):
            s = "%s %s %s" % (self.de(c[1], 1), "&&" if t == "dand" else "||",
                              self.de(c[2], 1))
        elif t in ("flag", "nn", "gv"):
            s = c[2] if t != "gv" else c[3]
        elif t == "swv":
            s = " || ".join("%s == %d" % (c[1], v) for v in c[2])
        else:
            return self.de(c, prec)
        return "(%s)" % s if prec > 0 and t != "flag" and t != "nn" else s

    def lhs(self, e):
        return self.de(e)

    def stmts(self, sts, ind, out):
        for s in sts:
            self.stmt(s, ind, out)

    def stmt(self, s, ind, out):
        t = s[0]
        ft = FT_C
        if t == "for":
            L = s[1]
            if L.step == 1:
                inc = "++%s" % L.iv if L.id % 2 else "%s++" % L.iv
            elif L.step == -1:
                inc = "--%s" % L.iv
            elif isinstance(L.step, str):
                inc = "%s += %s" % (L.iv, self.sp(L.step))
            elif L.step > 0:
                inc = "%s += %d" % (L.iv, L.step)
            else:
                inc = "%s -= %d" % (L.iv, -L.step)
            out.append("%sfor (int %s = %s; %s %s %s; %s) {" % (
                ind, L.iv, self.ie(L.start), L.iv, L.op, self.ie(L.bound, 1), inc))
            self.stmts(L.body, ind + "  ", out)
            out.append(ind + "}")
        elif t == "rfor":
            R = s[1]
            out.append("%sfor (%s %s%s : %s) {" % (ind, ft[R.ty], "&" if R.byref else "",
                                                   R.var, R.base.cname))
            self.stmts(R.body, ind + "  ", out)
            out.append(ind + "}")
        elif t == "dint" and s[1] in self.n.runtime:
            # a size computed at run time through a function the tool cannot
            # follow (docs/user-guide.md, "Sizes"): one definition, before
            # the nest; its value reaches the tool by --param
            if self.n.runtime[s[1]] == "assign":
                out.append("%sint %s;" % (ind, s[1]))
                out.append("%s%s = rt_value(%s);" % (ind, s[1], self.ie(s[2])))
            else:
                out.append("%sint %s = rt_value(%s);" % (ind, s[1], self.ie(s[2])))
        elif t == "dint":
            out.append("%s%s %s = %s;" % (ind, self.n.spell.get(s[1], "int"), s[1], self.ie(s[2])))
        elif t == "dset":
            out.append("%s%s = %s;" % (ind, s[1], self.ie(s[2])))
        elif t == "dclamp":  # ("dclamp", name, op, rhs, value, braces)
            body = "%s = %s;" % (s[1], self.ie(s[4]))
            cond = "%sif (%s %s %s)" % (ind, s[1], s[2], self.ie(s[3]))
            out += ["%s { %s }" % (cond, body)] if s[5] else [cond, ind + "  " + body]
        elif t == "iadj":  # a helper's parameter adjusted (paramadj)
            if s[2] in ("++", "--"):
                out.append("%s%s%s;" % (ind, s[2], s[1]))
            elif s[2] == "=-":
                out.append("%s%s = %s - %s;" % (ind, s[1], s[1], self.ie(s[3], 1)))
            else:
                out.append("%s%s %s %s;" % (ind, s[1], s[2], self.ie(s[3])))
        elif t == "dintd":
            out.append("%sint %s = %s;" % (ind, s[1], self.de(s[2])))
        elif t == "dcond":
            c = self.cond(s[2])
            out.append("%sint %s = %s;" % (ind, s[1], "(%s)" % c if s[3] else c))
        elif t == "dptr":
            root = s[3]
            while root[0] in ("add", "addr"):
                root = root[1]
            const = root[0] == "base" and (root[1] in self.cptr or any(
                b.nullable and b.cname == root[1] for b in self.n.bases))
            if const:
                self.cptr.add(s[1])
            if s[1] in self.n.field_ptrs:
                if s[1] in self.n.field_twice and root[0] == "base":
                    out.append("%sst->%s = %s;" % (ind, s[1], self.pe(root)))
                out.append("%sst->%s = %s;" % (ind, s[1], self.pe(s[3])))
                return
            if s[1] in self.n.body_assigned:
                out.append("%s%s = %s;" % (ind, s[1], self.pe(s[3])))
                return
            if s[1] in self.n.reseated:
                # Declared at its array's start, set to its value after.
                out.append("%s%s%s *%s = %s;" % (ind, "const " if const else "", ft[s[2]],
                                                 s[1], self.pe(root)))
                block = self.n.reseated[s[1]] == "block"
                out.append("%s%s%s = %s;%s" % (ind, "{ " if block else "", s[1], self.pe(s[3]),
                                               " }" if block else ""))
                return
            out.append("%s%s%s *%s = %s;" % (ind, "const " if const else "", ft[s[2]], s[1],
                                             self.pe(s[3])))
        elif t == "pinc":
            out.append("%s%s += %s;" % (ind, s[1], self.ie(s[2])))
        elif t == "pstep":
            out.append("%s%s;" % (ind, s[3]))
        elif t == "cinc":
            if s[2] == ("n", 1):
                out.append("%s%s;" % (ind, ("++" + s[1]) if len(s) > 3 and s[3] else (s[1] + "++")))
            else:
                out.append("%s%s += %s;" % (ind, s[1], self.ie(s[2])))
        elif t == "ds":
            if s[3] is None:
                out.append("%s%s %s;" % (ind, ft[s[2]], s[1]))
            else:
                out.append("%s%s %s = %s;" % (ind, ft[s[2]], s[1], self.de(s[3])))
        elif t == "darr":
            out.append("%s%s %s[%d];" % (ind, ft[s[2]], s[1], s[3]))
        elif t == "asg":
            out.append("%s%s %s %s;" % (ind, self.lhs(s[1]), s[2], self.de(s[3])))
        elif t == "if":
            if s[1] in EXIT_KINDS:
                rec = self.n.exit_record
                if rec is not None:
                    out.append("%sif (%s) { %s = %s; %s; }" % (
                        ind, self.cond(s[2]), rec[0], rec[1], s[1][5:]))
                else:
                    out.append("%sif (%s) %s;" % (ind, self.cond(s[2]), s[1][5:]))
                return
            if s[1] == "assert":
                if NATIVE_ASSERTS[0]:
                    # The native check runs on random data, where the
                    # assertion may fail: each side evaluated, nothing
                    # checked, so the loads are the ones the counts assume.
                    c = s[2]
                    for part in ([c[1], c[2]] if c[0] == "and" else [c]):
                        out.append("%s(void)(%s);" % (ind, self.cond(part)))
                    return
                out.append("%sassert(%s);" % (ind, self.cond(s[2])))
                return
            if s[3] == [("cont",)]:
                out.append("%sif (%s) continue;" % (ind, self.cond(s[2])))
                return
            if len(s) > 5:  # a switch (Gen.i_inv_switch)
                arms, dflt, name = s[5]
                out.append("%sswitch (%s) {" % (ind, name))
                for vals, body in arms:
                    for v in vals:
                        out.append("%scase %d:" % (ind, v))
                    out.append(ind + "  {")
                    self.stmts(body, ind + "    ", out)
                    out.append(ind + "  }")
                    out.append(ind + "  break;")
                if dflt is not None:
                    out.append(ind + "default:")
                    out.append(ind + "  {")
                    self.stmts(dflt, ind + "    ", out)
                    out.append(ind + "  }")
                out.append(ind + "}")
                return
            out.append("%sif (%s) {" % (ind, self.cond(s[2])))
            self.stmts(s[3], ind + "  ", out)
            if s[4]:
                out.append(ind + "} else {")
                self.stmts(s[4], ind + "  ", out)
            out.append(ind + "}")
        elif t == "cont":
            out.append(ind + "continue;")
        elif t == "ifret":  # ("ifret", cond, [taken]): a void helper's exit
            if not s[2]:
                out.append("%sif (%s) return;" % (ind, self.cond(s[1])))
                return
            out.append("%sif (%s) {" % (ind, self.cond(s[1])))
            self.stmts(s[2], ind + "  ", out)
            out.append(ind + "  return;")
            out.append(ind + "}")
        elif t == "call":
            out.append("%s%s(%s);" % (ind, s[1].name, ", ".join(self.arg(a) for a in s[2])))
        elif t == "mem":
            M = s[1]
            n = "%s * sizeof(%s)" % (self.ie(M.count, 2), ft[M.ty])
            if M.kind == "set":
                out.append("%smemset(%s, 0, %s);" % (ind, self.pe(M.dst), n))
            else:
                out.append("%smemcpy(%s, %s, %s);" % (ind, self.pe(M.dst), self.pe(M.src), n))
        else:
            raise ValueError(t)

    def helper(self, h, lambda_=False):
        ps = []
        for kind, name, ty in h.params:
            if kind == "ptr":
                ps.append("%s *%s" % (FT_C[ty], name))
            elif kind == "cptr":
                ps.append("const %s *%s" % (FT_C[ty], name))
            elif kind == "int":
                ps.append("int %s" % name)
            else:
                ps.append("%s %s" % (FT_C[ty], name))
        ret = "void" if h.ret is None else ("int" if h.ret == "int" else FT_C[h.ret])
        if lambda_:
            out = ["auto %s = [&](%s) -> %s {" % (h.name, ", ".join(ps), ret)]
        else:
            out = ["static %s %s(%s) {" % (ret, h.name, ", ".join(ps))]
        self.stmts(h.body, "  ", out)
        r = h.ret_expr
        # c ? a : b as the guarded returns `if (c) return a; return b;`
        # (genann's sigmoid with its clamps); evaluated as the "sel" it is.
        while h.guarded_returns and r is not None and r[0] == "sel":
            out.append("  if (%s) return %s;" % (self.cond(r[1]), self.de(r[2])))
            r = r[3]
        if h.ret_text is not None:
            r = h.ret_text
        if r is not None:
            r = self.ie(r) if h.ret == "int" else self.de(r)
            out.append("  return %s;" % r)
        out.append("};" if lambda_ else "}")
        return "\n".join(out)


# --- The generator -----------------------------------------------------------

LITS = {"f32": ["2.0f", "0.5f", "3.0f", "0.044715f", "1.5f", "0.25f"],
        "f64": ["2.0", "0.5", "3.0", "0.044715", "1.5", "0.25"]}
CONSTS = {"f32": ["kAlpha", "kEps", "HALF", "GELU_C"],
          "f64": ["kAlpha64", "kEps64", "HALF64", "GELU_C64"]}
MATH1 = {"f32": ["expf", "tanhf", "sqrtf", "fabsf", "logf"],
         "f64": ["exp", "tanh", "sqrt", "fabs", "log"]}
MAX2 = {"f32": "fmaxf", "f64": "fmax"}
SUF = {"f32": "f", "f64": ""}
IVPOOL = ["b", "t", "h", "o", "c", "i", "j", "k", "l", "u", "w", "q", "z"]

FILE_HEADER = """#include <array>
#include <cassert>
#include <cmath>
#include <cstddef>
#include <cstdint>
#include <cstring>
#include <memory>
#include <vector>
struct Dims {
  int rows; int cols; int depth;
  int get_rows() const { return rows; }
  int get_cols() const { return cols; }
  int get_depth() const { return depth; }
};
template <class T> struct Buf {
  T *p;
  T &operator[](int i) const { return p[i]; }
  T &at(int i) const { return p[i]; }
  T *ptr() const { return p; }
  T *row(int o) const {
    assert(o >= 0);
    T *r = p + o;
    return r;
  }
};
template <class T> struct OBuf {
  std::shared_ptr<T[]> p;
  T &operator[](int i) const { return p[i]; }
  T &at(int i) const { assert(i >= 0); return p.get()[i]; }
  T *ptr() const { return p.get(); }
  T *row(int o) const { return p.get() + o; }
};
#define GELU_C sqrtf(2.0f / M_PI)
#define GELU_C64 sqrt(2.0 / M_PI)
#define HALF (1.0f / 2.0f)
#define HALF64 (1.0 / 2.0)
constexpr float kAlpha = 0.01f;
constexpr double kAlpha64 = 0.01;
constexpr float kEps = 1e-5f;
constexpr double kEps64 = 1e-5;
int rt_value(int v);
"""


class NNNest:
    """One generated nest: the AST, its features, what it needs from the run."""

    def __init__(self, name):
        self.name = name
        self.feats = Counter()
        # exit: `if (c) { rec = iv; break; }` records into this int local,
        # declared before the nest and never read in it: (name, iv)
        self.exit_record = None
        self.bases = []
        self.derived = []  # (name, ie, kind)
        self.runtime = {}  # derived name -> "init" / "assign" (form runtime)
        self.spell = {}  # dint name -> its declared type, where not int
        self.inline = {}  # derived size -> the sum written in its place
        self.field_sizes = set()
        self.struct_prefix = ""
        self.struct_param = None
        self.flags = []  # (name, kind 'int'|'ptr')
        self.helpers = []
        self.pre = None  # preamble Level
        self.root = None  # the outermost loop statement
        self.sites = None
        self.plain_loops = True
        self.loops_checkable = True
        self.size_in_data = False
        self.field_ptrs = set()   # pointers held in fields of *st (fieldptr)
        self.ptr_stepped = set()  # pointers the nest advances (ptrinc)
        self.field_twice = set()  # ... assigned twice (must not be counted)
        self.body_assigned = {}  # pointer -> type: declared before the
                                 # nest, assigned in a loop body (bodyassign)
        self.reseated = {}  # pointer -> "before" / "after" / "block" (reseat)
        self.lambda_helpers = False  # helpers as lambdas in the function (lambda)
        self.getters = False  # struct sizes read through Dims' getters (lambda)
        self.wrapped = {}  # pointer parameter -> Buf or OBuf, passed as Buf<T> & (accessor)

    # Rendering
    def cpp(self, mode):
        R = Render(self, mode)
        out = []
        for b in self.bases:
            if b.kind == "g2" and b.jagged:
                out.append("%s *%s[%d];" % (FT_C[b.ty], b.cname, b.rows))
            elif b.kind == "g2":
                out.append("%s %s[%d][%d];" % (FT_C[b.ty], b.cname, b.rows, b.cols))
            elif b.kind == "g1":
                out.append("%s %s[%d];" % (FT_C[b.ty], b.cname, b.length))
        if not self.lambda_helpers:
            for h in self.helpers:
                out.append(R.helper(h))
        args = []
        for b in self.bases:
            if b.kind == "ptr" and b.cname in self.wrapped:
                args.append("%s<%s> &%s" % (self.wrapped[b.cname], FT_C[b.ty], b.cname))
            elif b.kind == "ptr":
                args.append("%s%s *%s" % ("const " if b.nullable else "", FT_C[b.ty], b.cname))
            elif b.kind == "vec":
                args.append("std::vector<%s> &%s" % (FT_C[b.ty], b.cname))
            elif b.kind == "arr":
                args.append("std::array<%s, %d> &%s" % (FT_C[b.ty], b.length, b.cname))
        for name, kind in self.flags:
            if kind in ("int", "switch"):
                args.append("int %s" % name)
        if self.field_ptrs:
            args.append("%s_State *st" % self.name)
        if mode == "sym":
            if self.struct_param:
                args.append(self.struct_param)
            args += ["int N", "int M", "int K"]
        body = []
        if self.exit_record is not None:
            body.append("  int %s = -1;" % self.exit_record[0])
        R.stmts(self.pre.decls + self.pre.stmts, "  ", body)
        # bodyassign: declared before the nest (first in the function),
        # const as its assignment needs
        body[:0] = ["  %s%s *%s;" % ("const " if p in R.cptr else "", FT_C[t], p)
                    for p, t in sorted(self.body_assigned.items())]
        if self.lambda_helpers:
            # in the order the file would declare them: callees first
            body[:0] = ["  " + R.helper(h, lambda_=True).replace("\n", "\n  ")
                        for h in self.helpers]
        # reseat "after": set once more after the nest, to its array's start
        for x in self.pre.decls:
            if x[0] == "dptr" and self.reseated.get(x[1]) == "after":
                root = x[3]
                while root[0] in ("add", "addr"):
                    root = root[1]
                body.append("  %s = %s;" % (x[1], R.pe(root)))
        if self.field_ptrs:
            types = {s[1]: s[2] for s in self.pre.decls if s[0] == "dptr"}
            out.append("struct %s_State { %s };" % (self.name, " ".join(
                "%s%s *%s;" % ("const " if f in R.cptr else "", FT_C[types[f]], f)
                for f in sorted(self.field_ptrs))))
        out.append("void %s(%s) {\n%s\n}" % (self.name, ", ".join(args), "\n".join(body)))
        return "\n".join(out) + "\n"

    def size_env(self, sizes):
        env = dict(sizes)
        for name, e, _ in self.derived:
            env[name] = ie_eval(e, env)
        return env


def ie_eval(e, env):
    t = e[0]
    if t == "n":
        return e[1]
    if t == "v":
        return env[e[1]]
    if t == "isel":
        return ie_eval(e[4] if OPS[e[1]](ie_eval(e[2], env), ie_eval(e[3], env)) else e[5], env)
    a = ie_eval(e[1], env)
    if t == "/":
        q = env[e[2]] if isinstance(e[2], str) else e[2]
        return D if a is D else cdiv(a, q)
    if t == "%":
        q = env[e[2]] if isinstance(e[2], str) else e[2]
        return D if a is D else a - q * cdiv(a, q)
    b = ie_eval(e[2], env)
    if a is D or b is D:
        return D
    if t == "+":
        return a + b
    if t == "-":
        return a - b
    if t == "*":
        return a * b
    if t in ("max", "min"):
        return max(a, b) if t == "max" else min(a, b)
    raise ValueError(t)


class Gen:
    def __init__(self, rng, name, forms):
        self.rng = rng
        self.n = NNNest(name)
        self.on = {f: rng.random() < p for f, p in forms.items()
                   if f not in SIDE_STREAM_FORMS}
        # The later forms draw from a stream of their own (self.side,
        # self.side2, ... self.side_sg), seeded from the main one without
        # advancing it: with them the other nests of a seed stay what they
        # were.
        for attr, tag, group in SIDE_STREAMS:
            stream = random.Random("%s/%s%s" % (name, tag, rng.getstate()[1][-8:]))
            setattr(self, attr, stream)
            self.on.update({f: stream.random() < forms[f] for f in group if f in forms})
        self.ft = "f64" if rng.random() < 0.2 else "f32"
        self.cnt = Counter()
        self.ivs_used = set()
        self.views = []
        self.ptr_cache = {}
        self.loop_id = 0
        self.ext_pool = []

    # names
    def fresh(self, prefix):
        self.cnt[prefix] += 1
        return "%s%d" % (prefix, self.cnt[prefix] - 1)

    def fresh_iv(self):
        for v in IVPOOL:
            if v not in self.ivs_used:
                self.ivs_used.add(v)
                return v
        raise TooBig()

    def feat(self, f):
        self.n.feats[f] += 1

    def lit(self, ty=None):
        return ("lit", self.rng.choice(LITS[ty or self.ft]))

    # sizes
    def setup_sizes(self):
        rng, n = self.rng, self.n
        pool = [Sz(1, (s,)) for s in BASE_SIZES]
        if self.on["struct"]:
            style = rng.choice(["ref", "val", "ptr"])
            n.struct_param = {"ref": "const Dims &cfg", "val": "Dims cfg",
                              "ptr": "const Dims *p"}[style]
            n.struct_prefix = "p->" if style == "ptr" else "cfg."
            for s in BASE_SIZES:
                if rng.random() < 0.7:
                    n.field_sizes.add(s)
            if not n.field_sizes:
                n.field_sizes.add("N")
            self.feat("struct-" + style)
        if self.on["derived"]:
            for _ in range(rng.choice([1, 1, 2])):
                kind = rng.choice(["quot", "mul", "prod", "copy", "plus1"])
                name = self.fresh("D")
                a = rng.choice(BASE_SIZES)
                if kind == "quot":
                    e = ("/", ("v", a), rng.choice([2, 3]))
                elif kind == "mul":
                    e = ("*", ("n", rng.choice([2, 3])), ("v", a))
                elif kind == "prod":
                    e = ("*", ("v", a), ("v", rng.choice(BASE_SIZES)))
                elif kind == "plus1":
                    e = ("+", ("v", a), ("n", 1))
                else:
                    e = ("v", a)
                n.derived.append((name, e, kind))
                if self.on["runtime"] and self.side.random() < 0.5:
                    n.runtime[name] = self.side.choice(["init", "assign"])
                    self.feat("runtime-" + n.runtime[name])
                self.n.pre.decls.append(("dint", name, e))
                pool.append(Sz(1, (name,)))
                self.feat("derived-" + kind)
        if self.on.get("rowsplus"):
            # A size of N+1 (or M+2) written out wherever it is used: loop
            # bounds and the row strides j*(N + 1) of the views over it.
            name = self.fresh("R")
            e = ("+", ("v", self.side.choice(BASE_SIZES)), ("n", self.side.choice([1, 1, 2])))
            n.inline[name] = e
            n.derived.append((name, e, "rowsplus"))
            pool.append(Sz(1, (name,)))
            self.feat("rowsplus")
        if self.on.get("constlocal"):
            # A local fixed by its initializer is its value; one written
            # again is not (the tool must not fold K = 3 where K = 4 holds).
            name = self.fresh("K")
            v = self.side.choice([2, 3, 4])
            written = self.side.random() < 0.3
            spell = self.side.choice(["int", "const int", "constexpr int", "unsigned long long", "long"])
            if written:
                spell = self.side.choice(["int", "unsigned long long"])
            if spell != "int":
                n.spell[name] = spell
            self.n.pre.decls.append(("dint", name, ("n", v)))
            if written:
                v += 1
                self.n.pre.decls.append(("dset", name, ("n", v)))
            n.derived.append((name, ("n", v), "const-written" if written else "const"))
            pool.append(Sz(1, (name,)))
            self.feat("constlocal-written" if written else "constlocal-" + spell.replace(" ", "_"))
        if self.on.get("clamp"):
            self.clamp_local()
        self.ext_pool = pool

    def clamp_local(self):
        """A derived or constant local set again under a condition on its
        value before the nest, `if (D0 < 2) D0 = M;`: at the nest it is
        D0 < 2 ? M : N / 2 (docs/user-guide.md, "Sizes")."""
        n, r = self.n, self.side6
        cands = [i for i, (name, e, kind) in enumerate(n.derived)
                 if kind in ("quot", "mul", "prod", "copy", "plus1", "const")
                 and name not in n.runtime and "const" not in n.spell.get(name, "")]
        if not cands:
            return
        i = r.choice(cands)
        name, e, kind = n.derived[i]
        op = r.choice(["<", ">", "<=", ">="])
        rhs = ("n", r.choice([1, 2, 3, 4])) if r.random() < 0.6 else ("v", r.choice(BASE_SIZES))
        value = ("n", r.choice([1, 2, 3])) if r.random() < 0.6 else ("v", r.choice(BASE_SIZES))
        n.pre.decls.append(("dclamp", name, op, rhs, value, r.random() < 0.5))
        n.derived[i] = (name, ("isel", op, e, rhs, value, e), kind)
        self.feat("clamp-" + kind)

    def pick_ext(self, allow_prod=True):
        rng = self.rng
        if allow_prod and self.on["prodsize"] and rng.random() < 0.25:
            a, b = rng.choice(BASE_SIZES), rng.choice(BASE_SIZES)
            self.feat("prod-bound")
            return Sz(1, (a, b))
        return rng.choice(self.ext_pool)

    # loops
    def new_loop(self, level, ext, tri_of=None, plain=False):
        """A loop over [0, ext) (or 0..tri_of for a triangular one), as a
        statement of level; returns its Level."""
        rng = self.rng
        iv = self.fresh_iv()
        self.loop_id += 1
        e = ext.ie()
        r = rng.random()
        if tri_of is not None:
            if r < 0.5:
                L = Loop(self.loop_id, iv, ("n", 0), "<=", ("v", tri_of), 1, ext)
            else:
                L = Loop(self.loop_id, iv, ("n", 0), "<", ("+", ("v", tri_of), ("n", 1)), 1, ext)
            self.feat("triangular")
        elif plain or r < 0.82:
            L = Loop(self.loop_id, iv, ("n", 0), "<", e, 1, ext)
        elif r < 0.88:
            L = Loop(self.loop_id, iv, ("-", e, ("n", 1)), ">=", ("n", 0), -1, ext)
            self.feat("loop-down")
        elif r < 0.94:
            L = Loop(self.loop_id, iv, ("n", 0), "<", e, 2, ext)
            self.feat("loop-strided")
        else:
            L = Loop(self.loop_id, iv, ("n", 0), "<=", ("-", e, ("n", 1)), 1, ext)
            self.feat("loop-le")
        lv = Level(L, level)
        L.level = lv
        level.stmt_list().append(("for", L))
        return lv, iv

    def scope_ivs(self, level):
        out = []
        lv = level
        while lv is not None:
            if lv.loop is not None:
                out.append((lv.loop.iv, lv.loop.rext, lv))
            lv = lv.parent
        return list(reversed(out))

    # views and addressing
    def new_base(self, kind, ty):
        prefix = {"ptr": "A", "g2": "G", "vec": "V", "g1": "G", "arr": "R"}[kind]
        name = self.fresh(prefix)
        cname = name if kind in ("ptr", "vec", "arr") else "%s_%s" % (self.n.name, name)
        b = Base(cname, kind, ty)
        self.n.bases.append(b)
        return b

    def get_view(self, dims, ty=None, fresh=False):
        """A view with these extents (Sz list)."""
        rng = self.rng
        ty = ty or self.ft
        keys = [d.key() for d in dims]
        cands = [v for v in self.views if [d.key() for d in v.dims] == keys
                 and v.base.ty == ty and not v.base.nullable]
        if cands and not fresh and rng.random() < 0.45:
            return rng.choice(cands)
        if len(self.n.bases) >= 7:
            if cands:
                return rng.choice(cands)
            raise TooBig()
        if len(dims) == 2 and self.on["g2"] and rng.random() < 0.4:
            b = self.new_base("g2", ty)
            b.len_sz = dims
            v = View(b, dims, None)
            self.feat("g2")
            # The same elements through a table of row pointers: the
            # interpreter's addresses (one array, rows of cols) count the
            # same distinct elements, as the rows do not overlap.
            if self.on.get("jagged") and self.side_jg.random() < 0.5:
                b.jagged = True
                self.feat("jagged")
        elif self.on["split"] and len(dims) >= 1 and rng.random() < 0.5:
            # rows of P*E_last (or a derived 'mul' size): views at k*E_last
            P = rng.choice([2, 3])
            last = dims[-1]
            rowlen = Sz(P, last.facs) if last.coef == 1 else last.times(Sz(P))
            for name, e, kind in self.n.derived:
                if kind == "mul" and len(last.facs) == 1 and e == ("*", ("n", P), ("v", last.facs[0])) \
                        and last.coef == 1:
                    rowlen = Sz(1, (name,))
            b = self.new_base("ptr", ty)
            strides = self.row_strides(dims[:-1] + [rowlen])
            strides[-1] = Sz(1)
            part_views = []
            for k in range(P):
                off = None if k == 0 else last.times(Sz(k))
                vv = View(b, dims, strides, off, rowmajor=False)
                part_views.append(vv)
                self.views.append(vv)
            self.feat("split-view")
            return rng.choice(part_views)
        elif self.on.get("rowblock") and self.side3.random() < 0.5:
            # rows from an offset of a size that no row length divides:
            # the index is no rows (one dimension at the sizes given)
            b = self.new_base("ptr", ty)
            X = Sz(1, (self.side3.choice(BASE_SIZES),))
            v = View(b, dims, self.row_strides(dims), X, rowmajor=False)
            self.feat("rowblock")
        elif len(dims) >= 2 and self.on["overlap"] and rng.random() < 0.5:
            # rows of S but an inner extent of another size: overlapping windows
            b = self.new_base("ptr", ty)
            S = rng.choice([s for s in self.ext_pool if s != dims[-1]] or [Sz(2)])
            strides = self.row_strides(dims[:-1] + [S])
            v = View(b, dims, strides, None, rowmajor=False)
            self.n.overlap = (dims[-1], S)
            self.feat("overlap-window")
        elif rng.random() < 0.06 and not self.on["pinc"]:
            b = self.new_base("vec", ty)
            v = View(b, dims, self.row_strides(dims))
            self.feat("vector-index")
        else:
            b = self.new_base("ptr", ty)
            v = View(b, dims, self.row_strides(dims))
        self.views.append(v)
        return v

    @staticmethod
    def row_strides(dims):
        st = [None] * len(dims)
        acc = Sz(1)
        for d in range(len(dims) - 1, -1, -1):
            st[d] = acc
            acc = acc.times(dims[d])
        return st

    def ref(self, level, view, idx, write=False):
        """A data node (fresh) for view[idx...] used at level; may add int
        locals / pointer declarations to enclosing levels."""
        rng = self.rng
        b = view.base
        if write:
            b.written = True
        ivlv = {iv: lv for iv, _, lv in self.scope_ivs(level)}
        if b.kind == "g2":
            r = rng.random()
            if r < 0.5 or not self.on["rowptr"]:
                return ("ld2", b.cname, ("v", idx[0]), ("v", idx[1]))
            lv = self.decl_level(level, [ivlv[idx[0]]])
            key = (id(view), "g2row", idx[0], id(lv), lv.in_else)
            p = self.ptr_cache.get(key)
            if p is None:
                p = self.fresh("r")
                pe = ("row", b.cname, ("v", idx[0])) if r < 0.8 else \
                    ("addr2", b.cname, ("v", idx[0]), ("n", 0))
                lv.decl_list().append(("dptr", p, b.ty, pe))
                self.ptr_cache[key] = p
                self.feat("g2-rowptr")
            return ("ld", ("base", p), ("v", idx[1]))
        terms = [ie_mul(("v", x), st.ie()) if not st.is_one() else ("v", x)
                 for x, st in zip(idx, view.strides)]
        off = view.offset.ie() if view.offset is not None else None
        D_ = len(idx)
        forms = ["flat"]
        if view.rowmajor and off is None and D_ > 1:
            forms.append("horner")
        if self.on["intlocal"] and D_ > 1:
            forms += ["intlocal", "intlocal"]
        if self.on["idxcall"] and view.rowmajor and off is None and D_ == 2:
            forms.append("idxcall")
        if self.on["rowptr"] and b.kind == "ptr":
            forms += ["rowptr", "rowptr", "rowptr", "addrof", "chain", "pre"]
        if self.on.get("reseat") and b.kind == "ptr":
            forms += ["pre", "pre"]  # pointers before the nest, to set again
        form = rng.choice(forms)
        if form == "flat":
            e = off
            for t in terms:
                e = ie_add(e, t)
            return ("ld", ("base", b.cname), e)
        if form == "horner":
            e = ("v", idx[0])
            for d in range(1, D_):
                e = ("+", ("*", e, view.dims[d].ie()), ("v", idx[d]))
            self.feat("horner")
            return ("ld", ("base", b.cname), e)
        if form == "idxcall":
            h = self.index_helper()
            self.feat("index-call")
            return ("ld", ("base", b.cname),
                    ("icall", h, [("v", idx[0]), ("v", idx[1]), view.dims[1].ie()]))
        if form == "intlocal":
            s = rng.randrange(1, D_)
            lv = self.decl_level(level, [ivlv[x] for x in idx[:s]])
            if view.rowmajor and off is None and rng.random() < 0.6:
                e = ("v", idx[0])
                for d in range(1, s):
                    e = ("+", ("*", e, view.dims[d].ie()), ("v", idx[d]))
                rest = [ie_mul(("v", "@"), view.strides[s - 1].ie())
                        if not view.strides[s - 1].is_one() else ("v", "@")] + terms[s:]
            else:
                e = off
                for t in terms[:s]:
                    e = ie_add(e, t)
                rest = [("v", "@")] + terms[s:]
            key = (id(view), "int", tuple(idx[:s]), id(lv), lv.in_else, repr(e))
            x = self.ptr_cache.get(key)
            if x is None:
                x = self.fresh("x")
                lv.decl_list().append(("dint", x, e))
                self.ptr_cache[key] = x
                self.feat("int-local")
            out = None
            for t in rest:
                out = ie_add(out, subst(t, "@", x))
            return ("ld", ("base", b.cname), out)
        # pointer forms
        if form == "pre":
            # a pointer declared before the nest at the view's offset
            key = (id(view), "pre")
            p = self.ptr_cache.get(key)
            if p is None:
                p = self.fresh("r")
                pe = ("base", b.cname) if off is None else (
                    ("add", ("base", b.cname), off) if rng.random() < 0.7
                    else ("addr", ("base", b.cname), off))
                self.n.pre.decls.append(("dptr", p, b.ty, pe))
                self.ptr_cache[key] = p
                self.feat("ptr-before-nest")
            e = None
            for t in terms:
                e = ie_add(e, t)
            return ("ld", ("base", p), e)
        s = rng.randrange(0, D_) if D_ > 1 else 0
        if form == "chain" and s >= 1:
            cur = ("base", b.cname)
            p = None
            for d in range(s):
                lv = self.decl_level(level, [ivlv[idx[d]]], exact=d < s - 1)
                part = terms[d] if d else ie_add(off, terms[0])
                key = (id(view), "chain", tuple(idx[:d + 1]), id(lv), lv.in_else)
                q = self.ptr_cache.get(key)
                if q is None:
                    q = self.fresh("r")
                    lv.decl_list().append(("dptr", q, b.ty, ("add", cur, part)))
                    self.ptr_cache[key] = q
                cur = ("base", q)
                p = q
            self.feat("ptr-chain")
            e = None
            for t in terms[s:]:
                e = ie_add(e, t)
            return ("ld", ("base", p), e)
        lv = self.decl_level(level, [ivlv[x] for x in idx[:s]])
        prefix = off
        for t in terms[:s]:
            prefix = ie_add(prefix, t)
        key = (id(view), "rowptr", tuple(idx[:s]), id(lv), lv.in_else, form)
        p = self.ptr_cache.get(key)
        if p is None:
            p = self.fresh("r")
            if prefix is None:
                pe = ("base", b.cname)
            elif form == "addrof":
                pe = ("addr", ("base", b.cname), prefix)
                self.feat("ptr-addrof")
            else:
                pe = ("add", ("base", b.cname), prefix)
            lv.decl_list().append(("dptr", p, b.ty, pe))
            self.ptr_cache[key] = p
            self.feat("row-pointer" if lv.loop is not None else "ptr-before-nest")
        e = None
        for t in terms[s:]:
            e = ie_add(e, t)
        return ("ld", ("base", p), e if e is not None else ("n", 0))

    def decl_level(self, level, need, exact=False):
        """A level between the deepest of need (levels binding IVs) and
        level, where a declaration may go."""
        chain = []
        lv = level
        while lv is not None:
            chain.append(lv)
            lv = lv.parent
        chain.reverse()  # outermost first
        lo = max([chain.index(x) for x in need] + [0])
        if not need:
            lo = 1 if len(chain) > 1 else 0  # inside the nest by default
        opts = chain[lo:]
        if exact:
            return opts[0]
        # not into a level whose else part is being generated unless it is the current one
        return self.rng.choice(opts)

    def index_helper(self):
        for h in self.n.helpers:
            if h.ret == "int":
                return h
        h = Helper("%s_at" % self.n.name, "int", [("int", "r", None), ("int", "c", None),
                                                    ("int", "n", None)], [],
                   ("+", ("*", ("v", "r"), ("v", "n")), ("v", "c")))
        if self.on.get("lambda") and self.side_lm.random() < 0.5:
            # through a local first (darknet's entry_index): the text only,
            # the value is the same
            h.body = [("dint", "base", ("*", ("v", "r"), ("v", "n")))]
            h.ret_text = ("+", ("v", "base"), ("v", "c"))
            self.feat("index-call-local")
        self.n.helpers.append(h)
        return h

    # data expressions
    def const_sub(self):
        rng, ft = self.rng, self.ft
        r = rng.random()
        if r < 0.3:
            e = ("b", rng.choice(["*", "/", "+"]), self.lit(), self.lit(), ft)
        elif r < 0.5:
            e = ("m", rng.choice(MATH1[ft][:3]), [self.lit()], ft)
        elif r < 0.75:
            e = ("c", rng.choice(CONSTS[ft]))
        else:
            e = ("b", "*", ("c", rng.choice(CONSTS[ft])), self.lit(), ft)
        self.feat("const-fold")
        return e

    def rexpr(self, leaves, depth):
        """A random floating expression over leaves (callables returning
        fresh data nodes), at least one leaf used."""
        rng, ft = self.rng, self.ft
        if depth == 0 or rng.random() < 0.25:
            return rng.choice(leaves)()
        r = rng.random()
        if self.on.get("shortcirc") and self.side_sc.random() < 0.2:
            return self.shortcirc_sel(leaves, depth)
        if r < 0.45:
            op = rng.choice(["+", "-", "*", "*", "/"])
            a = self.rexpr(leaves, depth - 1)
            q = rng.random()
            if q < 0.4:
                b = self.rexpr(leaves, depth - 1)
            elif q < 0.6 and self.on["constfold"]:
                b = self.const_sub()
            else:
                b = self.lit()
            if rng.random() < 0.3:
                a, b = b, a
            return ("b", op, a, b, ft)
        if r < 0.6:
            return ("m", rng.choice(MATH1[ft]), [self.rexpr(leaves, depth - 1)], ft)
        if r < 0.68:
            return ("m", MAX2[ft], [self.rexpr(leaves, depth - 1), self.lit()], ft)
        if r < 0.78 and self.on["constfold"]:
            # look-alike: x * 2 * 3 (two multiplies), or a folded subtree
            a = self.rexpr(leaves, depth - 1)
            if rng.random() < 0.5:
                self.feat("const-lookalike")
                return ("b", "*", ("b", "*", a, self.lit(), ft), self.lit(), ft)
            return ("b", rng.choice(["*", "+"]), a, self.const_sub(), ft)
        if r < 0.84 and self.on["data"]:
            # ?: with arithmetic in an arm (data-dependent)
            a = self.rexpr(leaves, depth - 1)
            self.feat("data-select-arith")
            if self.on.get("bothread") and self.side5.random() < 0.5:
                # The arms read a's elements, which the condition (on
                # another leaf) does not: read whichever way it goes.
                self.feat("data-select-bothread")
                c = self.scalar_of(self.side5.choice(leaves)())
                return ("sel", ("cmp", ">", ("s", c), ("lit", "0.0" + SUF[ft]), ft),
                        a, ("b", "*", ("c", CONSTS[ft][0]), a, ft), ft)
            v = self.scalar_of(a)
            return ("sel", ("cmp", ">", ("s", v), ("lit", "0.0" + SUF[ft]), ft),
                    ("s", v), ("b", "*", ("c", CONSTS[ft][0]), ("s", v), ft), ft)
        if r < 0.9 and self.on["constfold"]:
            a = self.rexpr(leaves, depth - 1)
            sz = Sz(1, (rng.choice(BASE_SIZES),))
            self.n.size_in_data = True
            if rng.random() < 0.5:
                # 1/N: folded where N is a constexpr global, counted where it
                # is an argument (even with --param)
                self.feat("const-fold-size")
                return ("b", "*", a, ("b", "/", ("lit", "1.0" + SUF[ft]), ("sz", sz), ft), ft)
            self.feat("size-in-data")
            return ("b", rng.choice(["*", "/"]), a, ("sz", sz), ft)
        a = self.rexpr(leaves, depth - 1)
        b = self.rexpr(leaves, depth - 1)
        return ("b", rng.choice(["+", "-"]), ("b", "*", a, b, ft), self.lit(), ft)

    def shortcirc_sel(self, leaves, depth):
        """`(v > 0 && w * v < 1) ? v : C * w` (or `||`) on scalars bound
        before the statement (darknet's gradients): the second compare and
        its multiply run on some paths only, a range (shortcirc)."""
        ft = self.ft
        kind = self.side_sc.choice(["dand", "dor"])
        self.feat("data-shortcirc-" + kind)
        v = self.scalar_of(self.rexpr(leaves, depth - 1))
        w = self.scalar_of(self.side_sc.choice(leaves)())
        first = ("cmp", ">", ("s", v), ("lit", "0.0" + SUF[ft]), ft)
        second = ("cmp", "<", ("b", "*", ("s", w), ("s", v), ft),
                  ("lit", "1.0" + SUF[ft]), ft)
        return ("sel", (kind, first, second), ("s", v),
                ("b", "*", ("c", CONSTS[ft][0]), ("s", w), ft), ft)

    def scalar_of(self, e):
        """Bind e to a fresh scalar declared just before the statement being
        built (returned through self.pending)."""
        v = self.fresh("v")
        self.pending.append(("ds", v, self.ft, e))
        return v

    # building blocks
    def emit(self, level, st):
        level.stmt_list().extend(self.pending)
        self.pending = []
        level.stmt_list().append(st)

    def outer_idx(self, level, max_n=None):
        """A subset (in order) of the IVs in scope to index an output by."""
        ivs = self.scope_ivs(level)
        if not ivs:
            return []
        rng = self.rng
        k = rng.randint(1, len(ivs)) if max_n is None else min(max_n, len(ivs))
        sel = sorted(rng.sample(range(len(ivs)), k))
        return [ivs[i] for i in sel]

    def view_for(self, ivs, ty=None):
        return self.get_view([e for _, e, _ in ivs], ty)

    def rd(self, level, view, ivs):
        return lambda: self.ref(level, view, [iv for iv, _, _ in ivs])

    def maybe_guard(self, lv, inner_iv, outer_ivs, allow_else=False):
        """Affine condition on a loop body: whole body, continue, or else."""
        rng = self.rng
        if not self.on["affine"] or rng.random() < 0.4 or lv.no_cont:
            return None
        cond = self.affine_cond(inner_iv, outer_ivs, lv)
        r = rng.random()
        if r < 0.45:
            lv.guard = ("whole", cond)
            self.feat("affine-whole")
        elif r < 0.8:
            lv.guard = ("cont", cond)
            self.feat("affine-continue")
        elif allow_else:
            lv.guard = ("else", cond)
            lv.else_stmts = []
            self.feat("affine-else")
        else:
            lv.guard = ("whole", cond)
            self.feat("affine-whole")
        if cond[0] == "and":
            self.feat("affine-conj")
            if lv.guard[0] in ("cont", "else"):
                self.feat("affine-union")  # its negation is a union of ranges
        return lv.guard

    def affine_cond(self, iv, outer_ivs, lv=None):
        rng = self.rng

        def atom():
            r = rng.random()
            op = rng.choice(["<", "<=", ">", ">="])
            if outer_ivs and r < 0.45:
                o = rng.choice(outer_ivs)[0]
                rhs = ("v", o) if rng.random() < 0.6 else ("+", ("v", o), ("n", rng.choice([1, 2])))
                return ("icmp", op, ("v", iv), rhs)
            if r < 0.7:
                e = rng.choice(self.ext_pool).ie()
                if rng.random() < 0.5:
                    return ("icmp", op, ("*", ("n", 2), ("v", iv)), e)
                return ("icmp", op, ("v", iv), ("-", e, ("n", rng.choice([1, 2]))))
            if outer_ivs:
                o = rng.choice(outer_ivs)[0]
                return ("icmp", op, ("+", ("v", iv), ("v", o)), rng.choice(self.ext_pool).ie())
            return ("icmp", op, ("v", iv), ("n", rng.choice([1, 2, 3])))

        c = atom()
        if rng.random() < 0.25:
            c = ("and", c, atom())
        return c

    # idioms -----------------------------------------------------------------
    def idiom(self, level):
        rng = self.rng
        menu = [("dot", 4), ("elementwise", 4)]
        if self.on["data"]:
            menu += [("runmax", 2), ("clamp", 1), ("branch-same", 1), ("online", 1)]
        menu += [("softmax", 1), ("layernorm", 1)]
        if any(True for _ in self.scope_ivs(level)):
            menu += [("attention", 1)]
        if self.on["scratch"]:
            menu += [("scratch", 3)]
        if self.on["call"]:
            menu += [("call-dot", 2), ("call-axpy", 2), ("call-act", 2)]
        if self.on.get("sizecond"):
            menu += [("call-sizecond", 3)]
        if self.on.get("hoistw"):
            menu += [("call-hoistw", 3)]
        if self.on.get("paramadj"):
            menu += [("call-paramadj", 3)]
        if self.on.get("helperexit"):
            menu += [("call-exit", 3)]
        if self.on.get("guardlocal"):
            menu += [("guardlocal", 4)]
        if self.on["rangefor"]:
            menu += [("rangefor", 3)]
        if self.on["intdata"]:
            menu += [("intdata", 3)]
        if self.on["refuse"]:
            menu += [("partial", 2), ("data-refuse", 1)]
        if self.on["gather"]:
            menu += [("gather", 2)]
        if self.on.get("pgather"):
            menu += [("pgather", 4)]
        if self.on.get("rgather"):
            menu += [("rgather", 4)]
        if self.on["inv"]:
            menu += [("inv-flag", 2)]
        if self.on.get("invswitch"):
            menu += [("inv-switch", 3)]
        if self.on["padguard"]:
            menu += [("padguard", 3)]
        tot = sum(w for _, w in menu)
        x = rng.random() * tot
        for name, w in menu:
            x -= w
            if x < 0:
                break
        getattr(self, "i_" + name.replace("-", "_"))(level)
        self.feat("idiom-" + name)

    def inner(self, level, ext=None, tri_of=None, plain=False, allow_else=False, guard=True):
        ext = ext or self.pick_ext()
        outer = self.scope_ivs(level)
        lv, iv = self.new_loop(level, ext, tri_of=tri_of, plain=plain)
        if guard:
            self.maybe_guard(lv, iv, outer, allow_else)
        return lv, (iv, ext, lv)

    def i_dot(self, level):
        rng, ft = self.rng, self.ft
        outs = self.outer_idx(level)
        lv_o = level
        if rng.random() < 0.5:
            lv_o, o = self.inner(level, guard=False)
            outs = outs + [o]
        s = self.fresh("s")
        bias = None
        init = ("lit", "0.0" + SUF[ft])
        if self.on["inv"] and outs and rng.random() < 0.5:
            bias = self.nullable_base([outs[-1]])
            if rng.random() < 0.4:
                init = ("sel", ("nn", bias[0].cname, self.nn_spelling(bias[0].cname)),
                        self.ref(lv_o, bias[1], [outs[-1][0]]), ("lit", "0.0" + SUF[ft]), ft)
                self.feat("inv-select")
                bias = None
        lv_o.stmt_list().append(("ds", s, ft, init))
        lv_i, i = self.inner(lv_o)
        xv = self.view_for(outs[:-1] + [i] if outs and rng.random() < 0.7 else [i])
        wv = self.view_for(([outs[-1]] if outs and rng.random() < 0.6 else []) + [i])
        xi = [a for a, _, _ in (outs[:-1] + [i] if len(xv.dims) > 1 else [i])]
        wi = [a for a, _, _ in (([outs[-1]] if len(wv.dims) > 1 else []) + [i])]
        x = self.ref(lv_i, xv, xi)
        w = self.ref(lv_i, wv, wi)
        r = rng.random()
        if r < 0.5:
            st = ("asg", ("s", s), "+=", ("b", "*", x, w, ft), ft)
        elif r < 0.7:
            st = ("asg", ("s", s), "=", ("b", "+", ("s", s), ("b", "*", x, w, ft), ft), ft)
        elif r < 0.85:
            st = ("asg", ("s", s), "=", ("fma", x, w, ("s", s), ft), ft)
        else:
            k = self.const_sub() if self.on["constfold"] else self.lit()
            st = ("asg", ("s", s), "+=", ("b", "*", ("b", "*", x, w, ft), k, ft), ft)
        self.emit(lv_i, st)
        if bias is not None:
            self.inv_stmt(lv_o, bias, outs[-1], s)
        if outs:
            yv = self.view_for(outs)
            y = self.ref(lv_o, yv, [a for a, _, _ in outs], write=True)
            r = rng.random()
            if r < 0.6:
                self.emit(lv_o, ("asg", y, "=", ("s", s), ft))
            elif r < 0.8:
                self.emit(lv_o, ("asg", y, "=", ("b", "*", ("s", s), self.lit(), ft), ft))
            else:
                self.emit(lv_o, ("asg", y, "+=", ("s", s), ft))

    def nullable_base(self, ivs):
        known = set(id(b) for b in self.n.bases)
        v = self.get_view([e for _, e, _ in ivs], fresh=True)
        # get_view returns a view in use when the bases run out: renaming
        # its base would leave the references already made to the old name
        if v.base.kind != "ptr" or v.offset is not None or not v.rowmajor or \
                id(v.base) in known:
            raise TooBig()
        v.base.nullable = True
        v.base.cname = self.fresh("bias")  # a name no other argument has
        name = v.base.cname
        self.n.flags.append((name, "ptr"))
        self.feat("inv-null")
        return (v.base, v)

    def nn_spelling(self, name):
        return self.rng.choice(["%s != NULL" % name, "%s != nullptr" % name, name])

    def inv_stmt(self, level, bias, o, s):
        base, view = bias
        cond = ("nn", base.cname, self.nn_spelling(base.cname))
        ld = self.ref(level, view, [o[0]])
        level.stmt_list().append(("if", "inv", cond, [("asg", ("s", s), "+=", ld, self.ft)], []))

    def i_inv_flag(self, level):
        rng = self.rng
        name = rng.choice(["relu", "gate", "scale"])
        if (name, "int") not in self.n.flags:
            self.n.flags.append((name, "int"))
        form = rng.choice(["%s", "%s != 0", "!%s"])
        cond = ("flag", name, form % name, not form.startswith("!"))
        self.feat("inv-flag")
        # the conditional part: a whole inner loop or one statement in one
        if rng.random() < 0.5:
            fake = _Holder(level)
            self.i_elementwise(fake)
            holder = fake.decls + fake.stmts
        else:
            lv, i = self.inner(level)
            ivs = self.outer_idx(level) + [i]
            v = self.view_for(ivs)
            y = self.ref(lv, v, [a for a, _, _ in ivs], write=True)
            st = ("asg", y, "*=", self.lit(), self.ft)
            lv.stmt_list().append(("if", "inv", cond, [st], []))
            return
        level.stmt_list().append(("if", "inv", cond, holder, []))

    def i_inv_switch(self, level):
        """switch (mode) on an int argument in a loop body: case 0, cases 1
        and 2 stacked on one body, maybe a default; each arm a statement on
        y[.., i]. In the IR it is the if-chain of its paths on ("swv", name,
        values) conditions (s[5] says how to print it as a switch)."""
        rnd = self.side8
        name = rnd.choice(["mode", "kind"])
        if (name, "switch") not in self.n.flags:
            self.n.flags.append((name, "switch"))
        lv, i = self.inner(level)
        ivs = self.outer_idx(level) + [i]
        yv = self.view_for(ivs)
        xv = self.view_for(ivs)
        idx = [a for a, _, _ in ivs]

        def arm(kind):
            y = self.ref(lv, yv, idx, write=True)
            if kind == 0:
                return [("asg", y, "*=", self.lit(), self.ft)]
            if kind == 1:
                x = self.ref(lv, xv, idx)
                return [("asg", y, "+=", ("b", "*", x, self.lit()), self.ft)]
            return [("asg", y, "=", self.lit(), self.ft)]
        arms = [((0,), arm(rnd.randrange(3))), ((1, 2), arm(rnd.randrange(3)))]
        has_default = rnd.random() < 0.5
        dflt = arm(rnd.randrange(3)) if has_default else []
        labels = (0, 1, 2)
        chain = dflt
        for vals, body in reversed(arms):
            chain = [("if", "inv", ("swv", name, vals, labels), body, chain)]
        top = chain[0] + ((arms, dflt if has_default else None, name),)
        lv.stmt_list().append(top)
        self.feat("inv-switch" + ("-default" if has_default else ""))

    def i_elementwise(self, level):
        rng, ft = self.rng, self.ft
        lv, i = self.inner(level, allow_else=True)
        ivs = self.outer_idx(level) + [i]
        xv = self.view_for(ivs)
        yv = self.view_for(ivs)
        idx = [a for a, _, _ in ivs]
        leaves = [lambda: self.ref(lv, xv, idx)]
        if rng.random() < 0.4:
            zv = self.view_for([i])
            leaves.append(lambda: self.ref(lv, zv, [i[0]]))
        self.pending = []
        e = self.rexpr(leaves, rng.choice([1, 2, 3]))
        y = self.ref(lv, yv, idx, write=True)
        op = rng.choice(["=", "=", "=", "+=", "-=", "*="])
        self.emit(lv, ("asg", y, op, e, ft))
        if lv.guard and lv.guard[0] == "else":
            lv.in_else = True
            y2 = self.ref(lv, yv, idx, write=True)
            self.emit(lv, ("asg", y2, "=", ("b", "*", self.ref(lv, xv, idx), self.lit(), ft), ft))
            lv.in_else = False

    def i_runmax(self, level):
        rng, ft = self.rng, self.ft
        outs = self.outer_idx(level)
        m = self.fresh("m")
        level.stmt_list().append(("ds", m, ft, ("lit", "-1e30" + SUF[ft])))
        lv, i = self.inner(level)
        xv = self.view_for(outs + [i])
        idx = [a for a, _, _ in outs + [i]]
        r = rng.random()
        if r < 0.4:
            lv.stmt_list().append(("if", "data", ("cmp", ">", self.ref(lv, xv, idx), ("s", m), ft),
                                   [("asg", ("s", m), "=", self.ref(lv, xv, idx), ft)], []))
            self.feat("data-runmax")
        elif r < 0.7:
            v = self.fresh("v")
            lv.stmt_list().append(("ds", v, ft, self.ref(lv, xv, idx)))
            lv.stmt_list().append(("if", "data", ("cmp", ">", ("s", v), ("s", m), ft),
                                   [("asg", ("s", m), "=", ("s", v), ft)], []))
            self.feat("data-runmax")
        elif r < 0.85:
            v = self.fresh("v")
            lv.stmt_list().append(("ds", v, ft, self.ref(lv, xv, idx)))
            lv.stmt_list().append(("asg", ("s", m), "=", ("sel", ("cmp", ">", ("s", v), ("s", m), ft),
                                                         ("s", v), ("s", m), ft), ft))
            self.feat("data-select-plain")
        else:
            lv.stmt_list().append(("asg", ("s", m), "=", ("m", MAX2[ft], [("s", m), self.ref(lv, xv, idx)], ft), ft))
        if outs:
            yv = self.view_for(outs)
            level.stmt_list().append(("asg", self.ref(level, yv, [a for a, _, _ in outs], write=True), "=", ("s", m), ft))

    def i_clamp(self, level):
        ft = self.ft
        lv, i = self.inner(level)
        ivs = self.outer_idx(level) + [i]
        idx = [a for a, _, _ in ivs]
        xv, yv = self.view_for(ivs), self.view_for(ivs)
        v = self.fresh("v")
        lv.stmt_list().append(("ds", v, ft, self.ref(lv, xv, idx)))
        lv.stmt_list().append(("if", "data", ("cmp", "<", ("s", v), ("lit", "-1.0" + SUF[ft]), ft),
                               [("asg", ("s", v), "=", ("lit", "-1.0" + SUF[ft]), ft)], []))
        lv.stmt_list().append(("if", "data", ("cmp", ">", ("s", v), ("lit", "1.0" + SUF[ft]), ft),
                               [("asg", ("s", v), "=", ("lit", "1.0" + SUF[ft]), ft)], []))
        lv.stmt_list().append(("asg", self.ref(lv, yv, idx, write=True), "=", ("s", v), ft))
        self.feat("data-clamp")

    def i_branch_same(self, level):
        rng, ft = self.rng, self.ft
        lv, i = self.inner(level)
        ivs = self.outer_idx(level) + [i]
        idx = [a for a, _, _ in ivs]
        xv, yv = self.view_for(ivs), self.view_for(ivs)
        then = [("asg", self.ref(lv, yv, idx, write=True), "=",
                 ("b", "*", self.ref(lv, xv, idx), self.lit(), ft), ft)]
        els = [("asg", self.ref(lv, yv, idx, write=True), "=",
                rng.choice([("lit", "0.0" + SUF[ft]),
                            ("b", "+", self.ref(lv, xv, idx), ("b", "*", self.ref(lv, xv, idx), self.lit(), ft), ft)]), ft)]
        lv.stmt_list().append(("if", "data", ("cmp", ">", self.ref(lv, xv, idx), ("lit", "0.0" + SUF[ft]), ft),
                               then, els))
        self.feat("data-same-element")

    def i_online(self, level):
        ft = self.ft
        outs = self.outer_idx(level)
        m, s = self.fresh("m"), self.fresh("s")
        level.stmt_list().append(("ds", m, ft, ("lit", "-1e30" + SUF[ft])))
        level.stmt_list().append(("ds", s, ft, ("lit", "0.0" + SUF[ft])))
        lv, i = self.inner(level)
        xv = self.view_for(outs + [i])
        idx = [a for a, _, _ in outs + [i]]
        v = self.fresh("v")
        ex = MATH1[ft][0]
        lv.stmt_list().append(("ds", v, ft, self.ref(lv, xv, idx)))
        lv.stmt_list().append(("if", "data", ("cmp", ">", ("s", v), ("s", m), ft),
                               [("asg", ("s", s), "*=", ("m", ex, [("b", "-", ("s", m), ("s", v), ft)], ft), ft),
                                ("asg", ("s", m), "=", ("s", v), ft)], []))
        lv.stmt_list().append(("asg", ("s", s), "+=", ("m", ex, [("b", "-", ("s", v), ("s", m), ft)], ft), ft))
        if outs:
            yv = self.view_for(outs)
            level.stmt_list().append(("asg", self.ref(level, yv, [a for a, _, _ in outs], write=True), "=",
                                      ("b", "/", ("s", s), ("s", m), ft), ft))
        self.feat("data-online-softmax")

    def i_softmax(self, level):
        rng, ft = self.rng, self.ft
        outs = self.outer_idx(level)
        E = self.pick_ext()
        m, sm = self.fresh("m"), self.fresh("s")
        level.stmt_list().append(("ds", m, ft, ("lit", "-1e30" + SUF[ft])))
        lv1, i1 = self.inner(level, ext=E)
        xv = self.view_for(outs + [i1])
        yv = self.view_for(outs + [i1])
        idx = lambda i: [a for a, _, _ in outs] + [i[0]]
        lv1.stmt_list().append(("asg", ("s", m), "=", ("m", MAX2[ft], [("s", m), self.ref(lv1, xv, idx(i1))], ft), ft))
        level.stmt_list().append(("ds", sm, ft, ("lit", "0.0" + SUF[ft])))
        lv2, i2 = self.inner(level, ext=E)
        e = self.fresh("e")
        lv2.stmt_list().append(("ds", e, ft, ("m", MATH1[ft][0], [("b", "-", self.ref(lv2, xv, idx(i2)), ("s", m), ft)], ft)))
        lv2.stmt_list().append(("asg", self.ref(lv2, yv, idx(i2), write=True), "=", ("s", e), ft))
        lv2.stmt_list().append(("asg", ("s", sm), "+=", ("s", e), ft))
        inv = self.fresh("v")
        one = "1.0" + SUF[ft]
        if self.on["data"] and rng.random() < 0.5:
            de = ("sel", ("cmp", "==", ("s", sm), ("lit", "0.0" + SUF[ft]), ft), ("lit", "0.0" + SUF[ft]),
                  ("b", "/", ("lit", one), ("s", sm), ft), ft)
            self.feat("data-select-arith")
        else:
            de = ("b", "/", ("lit", one), ("s", sm), ft)
        level.stmt_list().append(("ds", inv, ft, de))
        lv3, i3 = self.inner(level, ext=E)
        if rng.random() < 0.5:
            lv3.stmt_list().append(("asg", self.ref(lv3, yv, idx(i3), write=True), "*=", ("s", inv), ft))
        else:
            lv3.stmt_list().append(("asg", self.ref(lv3, yv, idx(i3), write=True), "=",
                                    ("b", "*", self.ref(lv3, yv, idx(i3)), ("s", inv), ft), ft))

    def i_layernorm(self, level):
        rng, ft = self.rng, self.ft
        outs = self.outer_idx(level)
        E = rng.choice([Sz(1, (s,)) for s in BASE_SIZES])
        mean, var = self.fresh("m"), self.fresh("s")
        z = ("lit", "0.0" + SUF[ft])
        level.stmt_list().append(("ds", mean, ft, z))
        lv1, i1 = self.inner(level, ext=E, plain=True, guard=False)
        xv = self.view_for(outs + [i1])
        idx = lambda i: [a for a, _, _ in outs] + [i[0]]
        lv1.stmt_list().append(("asg", ("s", mean), "+=", self.ref(lv1, xv, idx(i1)), ft))
        level.stmt_list().append(("asg", ("s", mean), "=", ("b", "/", ("s", mean), ("sz", E), ft), ft))
        self.n.size_in_data = True
        level.stmt_list().append(("ds", var, ft, ("lit", "0.0" + SUF[ft])))
        lv2, i2 = self.inner(level, ext=E, plain=True, guard=False)
        d = self.fresh("v")
        lv2.stmt_list().append(("ds", d, ft, ("b", "-", self.ref(lv2, xv, idx(i2)), ("s", mean), ft)))
        lv2.stmt_list().append(("asg", ("s", var), "+=", ("b", "*", ("s", d), ("s", d), ft), ft))
        rs = self.fresh("v")
        eps = ("c", CONSTS[ft][1]) if rng.random() < 0.5 else ("lit", "1e-5" + SUF[ft])
        level.stmt_list().append(("ds", rs, ft, ("b", "/", ("lit", "1.0" + SUF[ft]),
                                                 ("m", MATH1[ft][2], [("b", "+", ("b", "/", ("s", var), ("sz", E), ft), eps, ft)], ft), ft)))
        lv3, i3 = self.inner(level, ext=E)
        yv = self.view_for(outs + [i3])
        wv = self.view_for([i3])
        bv = self.view_for([i3])
        nrm = ("b", "*", ("b", "-", self.ref(lv3, xv, idx(i3)), ("s", mean), ft), ("s", rs), ft)
        lv3.stmt_list().append(("asg", self.ref(lv3, yv, idx(i3), write=True), "=",
                                ("b", "+", ("b", "*", nrm, self.ref(lv3, wv, [i3[0]]), ft),
                                 self.ref(lv3, bv, [i3[0]]), ft), ft))

    def i_attention(self, level):
        rng, ft = self.rng, self.ft
        outs = self.scope_ivs(level)
        t = outs[-1]
        r = rng.random()
        if r < 0.4:
            lv_t, t2 = self.inner(level, ext=t[1], tri_of=t[0], guard=False)
        else:
            lv_t, t2 = self.inner(level, ext=t[1], plain=True, guard=False)
            cond = ("icmp", ">", ("v", t2[0]), ("v", t[0]))
            if r < 0.7:
                lv_t.guard = ("cont", cond)
                self.feat("affine-continue")
            else:
                lv_t.guard = ("whole", ("icmp", "<=", ("v", t2[0]), ("v", t[0])))
                self.feat("affine-whole")
            self.feat("causal-mask")
        s = self.fresh("s")
        lv_t.stmt_list().append(("ds", s, ft, ("lit", "0.0" + SUF[ft])))
        lv_i, i = self.inner(lv_t, guard=False)
        pre = outs[:-1]
        qv = self.view_for(pre + [t, i])
        kv = self.view_for(pre + [t2, i]) if rng.random() < 0.5 else qv
        q = self.ref(lv_i, qv, [a for a, _, _ in pre] + [t[0], i[0]])
        k = self.ref(lv_i, kv, [a for a, _, _ in pre] + [t2[0], i[0]])
        lv_i.stmt_list().append(("asg", ("s", s), "+=", ("b", "*", q, k, ft), ft))
        av = self.view_for(outs + [t2])
        sc = ("c", CONSTS[ft][2]) if rng.random() < 0.5 else ("b", "/", ("lit", "1.0" + SUF[ft]), self.const_sub(), ft)
        lv_t.stmt_list().append(("asg", self.ref(lv_t, av, [a for a, _, _ in outs] + [t2[0]], write=True),
                                 "=", ("b", "*", ("s", s), sc, ft), ft))

    def i_scratch(self, level):
        rng, ft = self.rng, self.ft
        L = rng.choice([2, 3, 4])
        tname = self.fresh("tmp")
        level.stmt_list().append(("darr", tname, ft, L))
        outs = self.outer_idx(level)
        lv1, k1 = self.inner(level, ext=Sz(L), plain=True, guard=False)
        xv = self.view_for(outs + [k1])
        lv1.stmt_list().append(("asg", ("ld", ("base", tname), ("v", k1[0])), "=",
                                ("b", "*", self.ref(lv1, xv, [a for a, _, _ in outs] + [k1[0]]), self.lit(), ft), ft))
        lv2, k2 = self.inner(level, ext=Sz(L), plain=True, guard=False)
        yv = self.view_for(outs + [k2])
        rev = ("-", ("n", L - 1), ("v", k2[0]))
        lv2.stmt_list().append(("asg", self.ref(lv2, yv, [a for a, _, _ in outs] + [k2[0]], write=True), "=",
                                ("b", "+", ("ld", ("base", tname), ("v", k2[0])),
                                 ("ld", ("base", tname), rev), ft), ft))
        self.n.scratch = True
        self.feat("scratch-array")
        # The element an int loaded from memory picks (L >= 3: the native
        # check's int data are 0..2).
        if self.on.get("sgather") and outs and L >= 3 and self.side_sg.random() < 0.6:
            oidx = [a for a, _, _ in outs]
            x = self.fresh("x")
            level.stmt_list().append(("dintd", x, self.ref(level, self.view_for(outs, "i32"), oidx),
                                      ("n", L)))
            level.stmt_list().append(("asg", self.ref(level, self.view_for(outs), oidx, write=True),
                                      "=", ("b", "*", self.lit(), ("ld", ("base", tname), ("v", x)), ft),
                                      ft))
            self.feat("scratch-gather")

    def helper_dot(self):
        ft = self.ft
        for h in self.n.helpers:
            if h.name.endswith("_dot"):
                return h
        h = Helper("%s_dot" % self.n.name, ft, [("cptr", "a", ft), ("cptr", "b", ft), ("int", "n", None)], [], ("s", "acc"))
        self.loop_id += 1
        L = Loop(self.loop_id, "kk", ("n", 0), "<", ("v", "n"), 1, None)
        L.body = [("asg", ("s", "acc"), "+=", ("b", "*", ("ld", ("base", "a"), ("v", "kk")),
                                                ("ld", ("base", "b"), ("v", "kk")), ft), ft)]
        h.body = [("ds", "acc", ft, ("lit", "0.0" + SUF[ft])), ("for", L)]
        h.has_loop = True
        self.n.helpers.append(h)
        return h

    def i_call_dot(self, level):
        ft = self.ft
        outs = self.outer_idx(level)
        E = self.pick_ext()
        h = self.helper_dot()
        # the arguments: rows of two views at the outer indices
        fake_i = ("@k", E, None)
        xv = self.view_for(outs + [fake_i])
        wv = self.view_for([fake_i]) if self.rng.random() < 0.5 else xv
        a = self.row_arg(level, xv, [x for x, _, _ in outs] if len(xv.dims) > 1 else [])
        b = self.row_arg(level, wv, [x for x, _, _ in outs] if len(wv.dims) > 1 else [])
        call = ("u", h, [("ptr", a), ("ptr", b), ("int", E.ie())], ft)
        if outs:
            yv = self.view_for(outs)
            self.emit(level, ("asg", self.ref(level, yv, [x for x, _, _ in outs], write=True),
                              self.rng.choice(["=", "+="]), call, ft))
        else:
            s = self.fresh("s")
            self.emit(level, ("ds", s, ft, call))
        self.feat("call-loop")

    def row_arg(self, level, view, prefix):
        """A pointer expression to view's row at the prefix indices (last dim
        left for the callee)."""
        b = view.base
        if b.kind == "g2":
            return ("row", b.cname, ("v", prefix[0]) if prefix else ("n", 0))
        e = view.offset.ie() if view.offset is not None else None
        for x, st in zip(prefix, view.strides):
            e = ie_add(e, ie_mul(("v", x), st.ie()) if not st.is_one() else ("v", x))
        if b.kind != "ptr":
            raise TooBig()
        if e is None:
            return ("base", b.cname)
        return ("add", ("base", b.cname), e) if self.rng.random() < 0.7 else ("addr", ("base", b.cname), e)

    def row_pair(self, level, outs, E):
        """A row y to write and a row x to read, E long, at the outer
        indices: the pointer arguments of a helper that writes one row from
        another. Returns y's view and both arguments."""
        fake = ("@k", E, None)
        yv = self.view_for(outs + [fake])
        yv.base.written = True
        xv = self.view_for(outs + [fake])
        prefix = [x for x, _, _ in outs]
        return yv, self.row_arg(level, yv, prefix), self.row_arg(level, xv, prefix)

    def i_call_axpy(self, level):
        ft = self.ft
        outs = self.outer_idx(level)
        E = self.pick_ext()
        name = "%s_axpy" % self.n.name
        h = next((x for x in self.n.helpers if x.name == name), None)
        if h is None:
            h = Helper(name, None, [("ptr", "y", ft), ("cptr", "x", ft), (ft, "a", ft), ("int", "n", None)], [], None)
            self.loop_id += 1
            L = Loop(self.loop_id, "kk", ("n", 0), "<", ("v", "n"), 1, None)
            L.body = [("asg", ("ld", ("base", "y"), ("v", "kk")), "+=",
                       ("b", "*", ("s", "a"), ("ld", ("base", "x"), ("v", "kk")), ft), ft)]
            h.body = [("for", L)]
            h.has_loop = True
            self.n.helpers.append(h)
        _, y, x = self.row_pair(level, outs, E)
        av = self.view_for(outs) if outs else None
        alpha = self.ref(level, av, [x for x, _, _ in outs]) if av else self.lit()
        level.stmt_list().append(("call", h, [("ptr", y), ("ptr", x), ("f", alpha), ("int", E.ie())]))
        self.feat("call-loop")

    def i_call_hoistw(self, level):
        """y[..] = f(yrow, xrow, a, E) or T s = f(...): f scales a row into
        y in its loop and returns the row's sum, so its loop writes memory
        and its value is the statement's (a training loop's `loss +=
        step(...)`). The tool runs the loop before the statement; where the
        statement would read the array f writes (`+=` into it), C leaves the
        order open and the tool must refuse: drawn now and then."""
        ft, rnd = self.ft, self.side_hw
        name = "%s_scalew" % self.n.name
        h = next((x for x in self.n.helpers if x.name == name), None)
        if h is None:
            h = Helper(name, ft, [("ptr", "y", ft), ("cptr", "x", ft), (ft, "a", ft), ("int", "n", None)],
                       [], ("s", "acc"))
            self.loop_id += 1
            L = Loop(self.loop_id, "kk", ("n", 0), "<", ("v", "n"), 1, None)
            L.body = [("asg", ("ld", ("base", "y"), ("v", "kk")), "=",
                       ("b", "*", ("s", "a"), ("ld", ("base", "x"), ("v", "kk")), ft), ft),
                      ("asg", ("s", "acc"), "+=", ("ld", ("base", "y"), ("v", "kk")), ft)]
            h.body = [("ds", "acc", ft, ("lit", "0.0" + SUF[ft])), ("for", L)]
            h.has_loop = True
            self.n.helpers.append(h)
        outs = self.outer_idx(level)
        E = self.pick_ext()
        yv, y, x = self.row_pair(level, outs, E)
        call = ("u", h, [("ptr", y), ("ptr", x), ("f", self.lit()), ("int", E.ie())], ft)
        if rnd.random() < 0.1:
            # The row's first element `+=` the row's sum: the read of it is
            # not ordered against f's stores: must be refused.
            self.emit(level, ("asg", ("ld", y, ("n", 0)), "+=", call, ft))
        elif outs and rnd.random() < 0.7:
            ov = self.view_for(outs)
            # Into the array f writes: `=` (the store waits for f), now and
            # then `+=` (that read is not ordered: must be refused).
            same = ov.base is yv.base
            op = rnd.choice(["=", "+="]) if not same or rnd.random() < 0.15 else "="
            self.emit(level, ("asg", self.ref(level, ov, [x for x, _, _ in outs], write=True), op, call, ft))
        else:
            self.emit(level, ("ds", self.fresh("s"), ft, call))
        self.feat("call-hoistw")

    def i_call_sizecond(self, level):
        """y += a*x when n > K, else y = a*x, in a helper called twice with
        extents of their own: each call's condition is the caller's on the
        size it passes (a condition keyed by the helper's text made both
        calls one case)."""
        ft = self.ft
        name = "%s_axpyc" % self.n.name
        h = next((x for x in self.n.helpers if x.name == name), None)
        if h is None:
            h = Helper(name, None, [("ptr", "y", ft), ("cptr", "x", ft), (ft, "a", ft), ("int", "n", None)], [], None)
            sides = []
            for op in ("+=", "="):
                self.loop_id += 1
                L = Loop(self.loop_id, "kk", ("n", 0), "<", ("v", "n"), 1, None)
                L.body = [("asg", ("ld", ("base", "y"), ("v", "kk")), op,
                           ("b", "*", ("s", "a"), ("ld", ("base", "x"), ("v", "kk")), ft), ft)]
                sides.append([("for", L)])
            K = self.side5.choice([1, 2, 3, 4])
            h.body = [("if", "szc", ("icmp", ">", ("v", "n"), ("n", K)), sides[0], sides[1])]
            h.has_loop = True
            self.n.helpers.append(h)
        outs = self.outer_idx(level)
        for _ in range(2):
            E = self.pick_ext()
            _, y, x = self.row_pair(level, outs, E)
            level.stmt_list().append(("call", h, [("ptr", y), ("ptr", x), ("f", self.lit()), ("int", E.ie())]))
        self.feat("call-sizecond")

    def i_call_paramadj(self, level):
        """y[.., i] = [c *] px(row, E, i + a, b) with px adjusting its index
        parameter first (darknet's im2col_get_pixel: `r -= p;`) and reading
        x[r] only inside [0, n): the parameter is the argument's index
        adjusted, and the read runs where the guard holds."""
        ft, rnd = self.ft, self.side7
        name = "%s_px" % self.n.name
        h = next((x for x in self.n.helpers if x.name == name), None)
        if h is None:
            adj = rnd.choice(["-=", "=-", "+=", "--", "++"])
            r = ("v", "r")
            cond = ("and", ("icmp", ">=", r, ("n", 0)), ("icmp", "<", r, ("v", "n")))
            ret = ("sel", cond, ("ld", ("base", "x"), r), ("lit", "0.0" + SUF[ft]), ft)
            body = [("iadj", "r", adj, None if adj in ("--", "++") else ("v", "p"))]
            if rnd.random() < 0.3:
                body.append(("iadj", "r", "+=", ("n", rnd.choice([1, 2]))))
            h = Helper(name, ft, [("cptr", "x", ft), ("int", "n", None), ("int", "r", None),
                                  ("int", "p", None)], body, ret)
            h.guarded_returns = rnd.random() < 0.6
            self.n.helpers.append(h)
        outs = self.outer_idx(level)
        E = self.pick_ext()
        lv, i = self.inner(level, ext=E, guard=False)
        xv = self.view_for(outs + [("@k", E, None)])
        x = self.row_arg(level, xv, [a for a, _, _ in outs])
        yv = self.view_for(outs + [i])
        arg = ("+", ("v", i[0]), ("n", rnd.choice([0, 1, 2])))
        call = ("u", h, [("ptr", x), ("int", E.ie()), ("int", arg), ("int", ("n", rnd.choice([0, 1, 2])))], ft)
        if rnd.random() < 0.5:
            call = ("b", "*", self.lit(), call, ft)
        lv.stmt_list().append(("asg", self.ref(lv, yv, [a for a, _, _ in outs] + [i[0]], write=True),
                               "=", call, ft))
        self.feat("call-paramadj")

    def i_call_exit(self, level):
        """px(yrow, xrow, E, i + a, b, v) with px returning early where its
        index parameter leaves [lo, n) (darknet's col2im_add_pixel: `if (row
        < 0 || row >= h) return;` before the store), perhaps after adjusting
        it and after work of its own: the rest runs where the guard fails."""
        ft, rnd = self.ft, self.side9
        name = "%s_put" % self.n.name
        h = next((x for x in self.n.helpers if x.name == name), None)
        if h is None:
            r, n = ("v", "r"), ("v", "n")
            below = ("icmp", "<", r, ("n", rnd.choice([0, 1])))
            above = rnd.choice([("icmp", ">=", r, n), ("icmp", ">", r, ("-", n, ("n", 1)))])
            # The store runs inside [0, n) only: the caller passes i + a
            # with a >= 0, so without the adjustment r < 0 cannot happen.
            adjust = rnd.random() < 0.5
            menu = [("or", below, above), ("or", above, below)]
            cond = rnd.choice(menu if adjust else menu + [above, above])
            store = ("asg", ("ld", ("base", "y"), r), rnd.choice(["+=", "="]),
                     ("b", "*", ("s", "v"), ("ld", ("base", "x"), r), ft), ft)
            taken = []
            if cond is above and rnd.random() < 0.5:
                # work before the return: the last element takes v alone
                taken = [("asg", ("ld", ("base", "y"), ("-", n, ("n", 1))), "+=", ("s", "v"), ft)]
            body = [("iadj", "r", "-=", ("v", "p"))] if adjust else []
            body += [("ifret", cond, taken), store]
            h = Helper(name, None, [("ptr", "y", ft), ("cptr", "x", ft), ("int", "n", None),
                                    ("int", "r", None), ("int", "p", None), (ft, "v", ft)],
                       body, None)
            self.n.helpers.append(h)
        outs = self.outer_idx(level)
        E = self.pick_ext()
        lv, i = self.inner(level, ext=E, guard=False)
        fake = ("@k", E, None)
        yv = self.view_for(outs + [fake])
        yv.base.written = True
        xv = self.view_for(outs + [fake])
        y = self.row_arg(level, yv, [a for a, _, _ in outs])
        x = self.row_arg(level, xv, [a for a, _, _ in outs])
        arg = ("+", ("v", i[0]), ("n", rnd.choice([0, 1, 2])))
        lv.stmt_list().append(("call", h, [("ptr", y), ("ptr", x), ("int", E.ie()), ("int", arg),
                                           ("int", ("n", rnd.choice([0, 1, 2]))), ("f", self.lit())]))
        self.feat("call-exit")

    def i_call_act(self, level):
        rng, ft = self.rng, self.ft
        name = "%s_act" % self.n.name
        h = next((x for x in self.n.helpers if x.name == name), None)
        if h is None:
            r = rng.random()
            xx = ("s", "x")
            if r < 0.35:
                ret = ("b", "+", ("b", "*", xx, ("s", "x"), ft), self.lit(), ft)  # MAC, x used twice
            elif r < 0.65:
                ret = ("sel", ("cmp", ">", ("s", "x"), ("lit", "0.0" + SUF[ft]), ft), ("s", "x"),
                       ("lit", "0.0" + SUF[ft]), ft)
            elif r < 0.85:
                ret = ("b", "+", ("m", MATH1[ft][1], [("b", "*", ("c", CONSTS[ft][3]), ("s", "x"), ft)], ft),
                       ("s", "x"), ft)
            else:  # a sigmoid with clamps at -4.5 and 4.5 (genann)
                one, f = "1.0" + SUF[ft], SUF[ft]
                sig = ("b", "/", ("lit", one), ("b", "+", ("lit", one),
                                                ("m", MATH1[ft][0], [("s", "x")], ft), ft), ft)
                ret = ("sel", ("cmp", "<", ("s", "x"), ("lit", "-4.5" + f), ft), ("lit", "0.0" + f),
                       ("sel", ("cmp", ">", ("s", "x"), ("lit", "4.5" + f), ft), ("lit", one), sig, ft), ft)
            h = Helper(name, ft, [(ft, "x", ft)], [], ret)
            if ret[0] == "sel" and rng.random() < 0.7:
                h.guarded_returns = True
                self.feat("call-guarded-returns")
            self.n.helpers.append(h)
        lv, i = self.inner(level)
        ivs = self.outer_idx(level) + [i]
        idx = [a for a, _, _ in ivs]
        xv, yv = self.view_for(ivs), self.view_for(ivs)
        arg = self.ref(lv, xv, idx)
        if rng.random() < 0.5:
            arg = ("b", "-", arg, self.lit(), ft)  # an argument with work: counted once
            self.feat("call-arg-work")
        lv.stmt_list().append(("asg", self.ref(lv, yv, idx, write=True), "=", ("u", h, [("f", arg)], ft), ft))
        self.feat("call-straight")

    def i_rangefor(self, level):
        rng, ft = self.rng, self.ft
        r = rng.random()
        L = rng.choice([3, 4, 5])
        if r < 0.55:
            b = self.new_base("g1", ft)
            b.length = L
            self.feat("rangefor-carray")
        elif r < 0.8:
            b = self.new_base("arr", ft)
            b.length = L
            self.feat("rangefor-stdarray")
        else:
            b = self.new_base("vec", ft)
            b.len_sz = Sz(1, ("N",))
            self.feat("rangefor-vector")
        byref = rng.random() < 0.5
        self.loop_id += 1
        R = RFor(self.loop_id, self.fresh("e"), byref, b, ft)
        outs = self.outer_idx(level)
        if byref:
            b.written = True
            if outs and rng.random() < 0.6:
                xv = self.view_for(outs)
                R.body = [("asg", ("s", R.var), "=", ("b", "+", ("b", "*", ("s", R.var), self.lit(), ft),
                                                      self.ref(level, xv, [x for x, _, _ in outs]), ft), ft)]
            else:
                R.body = [("asg", ("s", R.var), "*=", self.lit(), ft)]
            level.stmt_list().append(("rfor", R))
            self.feat("rangefor-byref")
        else:
            s = self.fresh("s")
            level.stmt_list().append(("ds", s, ft, ("lit", "0.0" + SUF[ft])))
            if outs:
                xv = self.view_for(outs)
                R.body = [("asg", ("s", s), "+=", ("b", "*", ("s", R.var),
                                                   self.ref(level, xv, [x for x, _, _ in outs]), ft), ft)]
            else:
                R.body = [("asg", ("s", s), "+=", ("s", R.var), ft)]
            level.stmt_list().append(("rfor", R))
            if outs:
                yv = self.view_for(outs)
                level.stmt_list().append(("asg", self.ref(level, yv, [x for x, _, _ in outs], write=True), "=", ("s", s), ft))
            self.feat("rangefor-byvalue")

    def i_intdata(self, level):
        rng = self.rng
        lv, i = self.inner(level)
        ivs = self.outer_idx(level) + [i]
        idx = [a for a, _, _ in ivs]
        xv, zv, yv = (self.view_for(ivs, "i32") for _ in range(3))
        x, z = self.ref(lv, xv, idx), self.ref(lv, zv, idx)
        r = rng.random()
        if r < 0.3:
            st = ("asg", self.ref(lv, yv, idx, write=True), "+=", ("b", "*", x, z, "i32"), "i32")
        elif r < 0.6:
            st = ("asg", self.ref(lv, yv, idx, write=True), "=", ("b", "+", ("b", "*", x, ("lit", "3"), "i32"), z, "i32"), "i32")
        elif r < 0.8:
            st = ("asg", self.ref(lv, yv, idx, write=True), "=", ("b", "-", x, z, "i32"), "i32")
        else:
            st = ("asg", self.ref(lv, yv, idx, write=True), "=", ("b", "*", x, ("b", "*", ("lit", "2"), ("lit", "3"), "i32"), "i32"), "i32")
        lv.stmt_list().append(st)
        self.feat("int-data")

    def i_padguard(self, level):
        """A convolution's padding test (cnn.c): for o { for d { if (0 <=
        S*o - P + d && S*o - P + d < H) s += x[S*o - P + d] * w[d]; } }
        with the stride S a size: a loop variable times a size, affine once
        S has a value (--param, or constexpr)."""
        rng, ft = self.rng, self.ft
        plain = [e for e in self.ext_pool if e.coef == 1 and len(e.facs) == 1]
        if not plain:
            raise TooBig()
        S, H = rng.choice(plain), rng.choice(plain)
        P = rng.choice([0, 1, 2])
        outs = self.outer_idx(level)
        lv_o, o = self.inner(level, plain=True, guard=False)
        lv_d, d = self.inner(lv_o, ext=self.pick_ext(allow_prod=False), plain=True, guard=False)
        y = ie_add(ie_mul(("v", o[0]), S.ie()), ("v", d[0]))
        if P:
            y = ("-", y, ("n", P))
        lv_d.guard = ("whole", ("and", ("icmp", "<=", ("n", 0), y), ("icmp", "<", y, H.ie())))
        lv_o.no_cont = lv_d.no_cont = True
        xb = self.new_base("ptr", ft)
        wv = self.view_for([d])
        ov = self.view_for(outs + [o])
        sname = self.fresh("s")
        lv_o.stmts.insert(0, ("ds", sname, ft, ("lit", "0.0" + SUF[ft])))
        lv_d.stmt_list().append(("asg", ("s", sname), "+=", ("b", "*", ("ld", ("base", xb.cname), y),
                                                             self.ref(lv_d, wv, [d[0]]), ft), ft))
        lv_o.stmt_list().append(("asg", self.ref(lv_o, ov, [a for a, _, _ in outs] + [o[0]], write=True),
                                 "=", ("s", sname), ft))
        self.feat("pad-guard")

    def i_partial(self, level):
        """An affine if around part of a body: may be refused, else exact."""
        ft = self.ft
        lv, i = self.inner(level, guard=False)
        ivs = self.outer_idx(level) + [i]
        idx = [a for a, _, _ in ivs]
        xv, yv, zv = self.view_for(ivs), self.view_for(ivs), self.view_for(ivs)
        lv.stmt_list().append(("asg", self.ref(lv, yv, idx, write=True), "=", ("b", "*", self.ref(lv, xv, idx), self.lit(), ft), ft))
        cond = self.affine_cond(i[0], self.scope_ivs(level))
        lv.stmt_list().append(("if", "aff-partial", cond,
                               [("asg", self.ref(lv, zv, idx, write=True), "+=", self.ref(lv, xv, idx), ft)], []))
        self.feat("affine-partial")

    def i_pgather(self, level):
        """One element of each row picked by an int loaded from memory
        (`int x = lab[..]; y[..] = r[x];`, a cross-entropy's probs_bt[ix]):
        read, written or updated in the body that loads the index (exact
        when each execution has its own row), or read in a loop inside it
        (refused). The run draws the indices (Interp, "dintd")."""
        ft, rnd = self.ft, self.side_pg
        outs = self.outer_idx(level)
        if not outs:
            raise TooBig()
        x = self.fresh("x")
        E = self.pick_ext(allow_prod=False)
        level.stmt_list().append(("dintd", x, self.ref(level, self.view_for(outs, "i32"),
                                                       [a for a, _, _ in outs]), E.ie()))
        pv = self.get_view([e for _, e, _ in outs] + [E], ft)
        oidx = [a for a, _, _ in outs]
        at, aidx, yv = level, oidx, self.view_for(outs)
        kind = rnd.random()
        if kind < 0.2:
            at, i = self.inner(level, guard=False)
            aidx = oidx + [i[0]]
            yv = self.view_for(outs + [i])
            self.feat("pgather-inner")
        g = self.ref(at, pv, oidx + [x], write=0.45 <= kind < 0.8)
        if 0.45 <= kind < 0.65:
            at.stmt_list().append(("asg", g, "=", self.lit(), ft))
        elif 0.65 <= kind < 0.8:
            at.stmt_list().append(("asg", g, "-=", self.lit(), ft))
        else:
            at.stmt_list().append(("asg", self.ref(at, yv, aidx, write=True), "=",
                                   ("b", "*", self.lit(), g, ft), ft))
        self.feat("pgather")

    def i_rgather(self, level):
        """Rows of a table picked by an int loaded from memory (llm.c's
        encoder: `int ix = inp[b*T + t]; const float *w = wte + ix*C;`, then
        w[i] in a loop over the row): read, read twice, updated (the
        backward's `dw[i] += d`) or written; spelled W + x*E, W + E*x,
        &W[x*E], or inline W[x*E + i]. The row part moving with an outer loop
        (`w[i + o]`) is refused. The tool's bytes are a range, checked at
        both ends (Interp.row_pick)."""
        ft, rnd = self.ft, self.side_rg
        outs = self.outer_idx(level)
        if not outs:
            raise TooBig()
        oidx = [a for a, _, _ in outs]
        x = self.fresh("x")
        level.stmt_list().append(("dintd", x, self.ref(level, self.view_for(outs, "i32"), oidx)))
        if rnd.random() < 0.2:
            return self.rgather_element(level, outs, x)
        E = self.pick_ext(allow_prod=False)
        b = self.new_base("ptr", ft)
        pick = ie_mul(("v", x), E.ie()) if rnd.random() < 0.7 else ie_mul(E.ie(), ("v", x))
        spell, moving = rnd.random(), rnd.random() < 0.1
        p = table = None
        if spell >= 0.25:  # a row pointer, declared before the loop over the row
            p = self.fresh("r")
            pe = ("add" if spell < 0.75 else "addr", ("base", b.cname), pick)
            level.stmt_list().append(("dptr", p, ft, pe))
        elif spell >= 0.15:  # a declared table T G[R][E], G[x][i]
            table = self.new_base("g2", ft)
            table.len_sz = [self.pick_ext(allow_prod=False), E]
            self.feat("rgather-table")
        else:
            self.feat("rgather-inline")
        lv, i = self.inner(level, ext=E, guard=False)
        within = ("v", i[0])
        if moving:
            within = ie_add(within, ("v", oidx[-1]))
            self.feat("rgather-moving")

        def row():
            if table is not None:
                return ("ld2", table.cname, ("v", x), within)
            if p is None:
                return ("ld", ("base", b.cname), ie_add(pick, within))
            return ("ld", ("base", p), within)
        yv = self.view_for(outs + [i])
        yidx = oidx + [i[0]]
        kind = rnd.random()
        if kind < 0.4:
            lv.stmt_list().append(("asg", self.ref(lv, yv, yidx, write=True), "=",
                                   ("b", "*", self.lit(), row(), ft), ft))
        elif kind < 0.55:
            lv.stmt_list().append(("asg", self.ref(lv, yv, yidx, write=True), "+=",
                                   ("b", "*", row(), row(), ft), ft))
            self.feat("rgather-twice")
        elif kind < 0.85:
            (table or b).written = True
            lv.stmt_list().append(("asg", row(), "+=", self.ref(lv, yv, yidx), ft))
            self.feat("rgather-update")
        else:
            (table or b).written = True
            lv.stmt_list().append(("asg", row(), "=", ("b", "*", self.lit(), self.ref(lv, yv, yidx), ft), ft))
            self.feat("rgather-write")
        self.feat("rgather")

    def rgather_element(self, level, outs, x):
        """One element picked by the loaded int x, in the body that loads
        it (darknet's maxpool backward: `int index = l.indexes[i];
        net.delta[index] += l.delta[i];`, a lookup `y[i] = t[j]`): a row
        of one element, moving every iteration of the pick loop."""
        ft, rnd = self.ft, self.side_rg
        b = self.new_base("ptr", ft)
        oidx = [a for a, _, _ in outs]
        g = ("ld", ("base", b.cname), ("v", x))
        yv = self.view_for(outs)
        if rnd.random() < 0.5:
            level.stmt_list().append(("asg", self.ref(level, yv, oidx, write=True), "=",
                                      ("b", "*", self.lit(), g, ft), ft))
        else:
            b.written = True
            level.stmt_list().append(("asg", g, "+=", self.ref(level, yv, oidx), ft))
            self.feat("rgather-scatter")
        self.feat("rgather-element")
        self.feat("rgather")

    def i_guardlocal(self, level):
        """A condition on loop variables kept in an int local of the loop
        body and tested later (darknet's maxpool: `int valid = (...);`,
        then `(valid != 0) ? x[..] : -BIG`): a ?: with its work where the
        test holds, an if on it, or a running max over the chosen values.
        The test is the local or its negation (`ok == 0`, `!ok`) where
        that is one range; exact either way."""
        ft, rnd = self.ft, self.side10
        kind = rnd.random()
        m = None
        if kind >= 0.7:
            m = self.fresh("m")
            level.stmt_list().append(("ds", m, ft, ("lit", "-1e30" + SUF[ft])))
        lv, i = self.inner(level, guard=False)
        outs = self.outer_idx(level)
        ivs = outs + [i]
        idx = [a for a, _, _ in ivs]
        xv, yv = self.view_for(ivs), self.view_for(ivs)
        cond = self.affine_cond(i[0], self.scope_ivs(level))
        g = self.fresh("ok")
        lv.stmt_list().append(("dcond", g, cond, rnd.random() < 0.5))
        neg = cond[0] != "and" and rnd.random() < 0.4
        spell = rnd.choice(["%s == 0", "!%s"] if neg else ["%s", "%s != 0", "%s == 1"]) % g
        test = ("gv", g, neg, spell)
        x = self.ref(lv, xv, idx)
        zero = ("lit", "0.0" + SUF[ft])
        if kind < 0.4:
            lv.stmt_list().append(("asg", self.ref(lv, yv, idx, write=True), "=",
                                   ("sel", test, ("b", "*", self.lit(), x, ft), zero, ft), ft))
            self.feat("affine-local-sel")
        elif kind < 0.7:
            if rnd.random() < 0.5:
                # Work before it: the if is part of the body (a guard loop).
                zv = self.view_for(ivs)
                lv.stmt_list().insert(0, ("asg", self.ref(lv, zv, idx, write=True), "=",
                                          ("b", "*", x, self.lit(), ft), ft))
                self.feat("affine-local-if-partial")
            else:
                # The whole body after the local: it narrows the loop, whose
                # iterations are those where the condition holds.
                lv.loop.guard_local = (cond, neg)
            lv.stmt_list().append(("if", "aff-partial", test,
                                   [("asg", self.ref(lv, yv, idx, write=True), "+=", x, ft)], []))
            self.feat("affine-local-if")
        else:
            v = self.fresh("v")
            lv.stmt_list().append(("ds", v, ft, ("sel", test, x, ("lit", "-1e30" + SUF[ft]), ft)))
            lv.stmt_list().append(("asg", ("s", m), "=", ("sel", ("cmp", ">", ("s", v), ("s", m), ft),
                                                         ("s", v), ("s", m), ft), ft))
            if outs:
                ov = self.view_for(outs)
                level.stmt_list().append(("asg", self.ref(level, ov, [a for a, _, _ in outs], write=True),
                                          "=", ("s", m), ft))
            self.feat("affine-local-max")
        if neg:
            self.feat("affine-local-neg")

    def i_data_refuse(self, level):
        """Data branches whose footprint depends on data: no exact bytes."""
        rng, ft = self.rng, self.ft
        lv, i = self.inner(level, guard=False)
        ivs = self.outer_idx(level) + [i]
        idx = [a for a, _, _ in ivs]
        xv, yv, zv = self.view_for(ivs), self.view_for(ivs), self.view_for(ivs)
        c = ("cmp", ">", self.ref(lv, xv, idx), ("lit", "0.0" + SUF[ft]), ft)
        if rng.random() < 0.5:
            lv.stmt_list().append(("if", "data", c, [("asg", self.ref(lv, yv, idx, write=True), "=", self.ref(lv, xv, idx), ft)],
                                   [("asg", self.ref(lv, zv, idx, write=True), "=", self.ref(lv, xv, idx), ft)]))
        else:
            s = self.fresh("s")
            lv.stmt_list().append(("ds", s, ft, ("lit", "0.0" + SUF[ft])))
            lv.stmt_list().append(("if", "data", c, [("asg", ("s", s), "+=", self.ref(lv, zv, idx), ft)], []))
            lv.stmt_list().append(("asg", self.ref(lv, yv, idx, write=True), "=", ("s", s), ft))
        self.feat("data-footprint")

    def i_gather(self, level):
        ft = self.ft
        outs = self.outer_idx(level)
        if not outs:
            raise TooBig()
        iv_ = self.view_for(outs, "i32")
        x = self.fresh("x")
        level.stmt_list().append(("dintd", x, self.ref(level, iv_, [a for a, _, _ in outs])))
        E = self.pick_ext(allow_prod=False)
        b = self.new_base("ptr", ft)
        p = self.fresh("r")
        level.stmt_list().append(("dptr", p, ft, ("add", ("base", b.cname), ie_mul(("v", x), E.ie()))))
        lv, i = self.inner(level, ext=E, guard=False)
        yv = self.view_for(outs + [i])
        lv.stmt_list().append(("asg", self.ref(lv, yv, [a for a, _, _ in outs] + [i[0]], write=True), "+=",
                               ("ld", ("base", p), ("v", i[0])), ft))
        self.feat("gather")

    # pinc: a pointer advanced by p += stride at the end of a loop body
    def add_pinc(self, outer_levels):
        """outer_levels: the levels of the outer loops (outermost first)."""
        rng, ft = self.rng, self.ft
        if len(outer_levels) < 1:
            return
        k = rng.randrange(len(outer_levels))
        lv = outer_levels[k]
        L = lv.loop
        if L.step != 1 or L.start != ("n", 0) or L.op != "<" or lv.guard or \
                L.bound != L.rext.ie():
            return
        # a view over [outer ivs up to k, E]: pointer at the row of the ivs
        # before k, advanced by E per iteration of loop k
        E = self.pick_ext(allow_prod=False)
        ivs = [(x.loop.iv, x.loop.rext, x) for x in outer_levels[:k + 1]]
        v = self.get_view([e for _, e, _ in ivs] + [E], fresh=True)
        if v.base.kind != "ptr" or not v.rowmajor or v.offset is not None:
            return
        p = self.fresh("r")
        declv = outer_levels[k - 1] if k > 0 else self.n.pre
        e = None
        for (x, _, _), st in zip(ivs[:-1], v.strides):
            e = ie_add(e, ie_mul(("v", x), st.ie()))
        declv.decls.append(("dptr", p, ft, ("base", v.base.cname) if e is None else ("add", ("base", v.base.cname), e)))
        lv.pinc = ("pinc", p, v.strides[k].ie())
        lv.no_cont = True
        # uses: a loop over E inside loop k reading p[i]
        self.pending = []
        lv2, i = self.inner(lv, ext=E, plain=True, guard=False)
        ov = self.view_for(ivs)
        s = self.fresh("s")
        lv.stmts.insert(0, ("ds", s, ft, ("lit", "0.0" + SUF[ft])))
        lv2.stmt_list().append(("asg", ("s", s), "+=", ("b", "*", ("ld", ("base", p), ("v", i[0])), self.lit(), ft), ft))
        lv.stmt_list().append(("asg", self.ref(lv, ov, [x for x, _, _ in ivs], write=True), "=", ("s", s), ft))
        self.feat("ptr-induction")

    # counter: an index kept in an int the nest advances (cnn.c's w[k++])
    def add_counter(self, outer_levels):
        """k = 0 before the nest; loops 0..K rectangular; either k += E at
        the end of loop K's body and w[k + j] in a loop over E inside it, or
        w[k] with k++ after it in that inner loop (no step in loop K)."""
        rng, ft = self.rng, self.ft
        if not outer_levels:
            return
        K = rng.randrange(len(outer_levels))
        for lv in outer_levels[:K + 1]:
            L = lv.loop
            if L.step != 1 or L.start != ("n", 0) or L.op != "<" or lv.guard or \
                    L.bound != L.rext.ie() or getattr(lv, "pinc", None):
                return
        lv = outer_levels[K]
        E = self.pick_ext(allow_prod=False)
        ivs = [(x.loop.iv, x.loop.rext, x) for x in outer_levels[:K + 1]]
        v = self.get_view([e for _, e, _ in ivs] + [E], fresh=True)
        if v.base.kind != "ptr" or not v.rowmajor or v.offset is not None:
            return
        c = self.fresh("k")
        self.n.pre.decls.append(("dint", c, ("n", 0)))
        for x in outer_levels[:K + 1]:
            x.no_cont = True
        self.pending = []
        lv2, i = self.inner(lv, ext=E, plain=True, guard=False)
        ov = self.view_for(ivs)
        sname = self.fresh("s")
        lv.stmts.insert(0, ("ds", sname, ft, ("lit", "0.0" + SUF[ft])))
        if rng.random() < 0.5:
            idx = ie_add(("v", c), ("v", i[0]))
            lv2.stmt_list().append(("asg", ("s", sname), "+=", ("b", "*", ("ld", ("base", v.base.cname), idx), self.lit(), ft), ft))
            lv.pinc = ("cinc", c, E.ie())
            self.feat("counter-row")
        else:
            lv2.stmt_list().append(("asg", ("s", sname), "+=", ("b", "*", ("ld", ("base", v.base.cname), ("v", c)), self.lit(), ft), ft))
            lv2.stmt_list().append(("cinc", c, ("n", 1), rng.random() < 0.5))
            self.feat("counter-step")
        lv.stmt_list().append(("asg", self.ref(lv, ov, [x for x, _, _ in ivs], write=True), "=", ("s", sname), ft))

    def generate(self):
        rng = self.rng
        n = self.n
        n.pre = Level(None, None)
        n.overlap = None
        n.scratch = False
        self.pending = []
        self.setup_sizes()
        if self.on["group"]:
            return self.group_nest()
        if self.on.get("modsplit"):
            return self.modsplit_nest()
        if self.on.get("window"):
            return self.window_nest()
        depth = rng.choice([1, 2, 2, 2, 3, 3])
        level = n.pre
        outer_levels = []
        for d in range(depth):
            ext = self.pick_ext()
            lv, iv = self.new_loop(level, ext)
            outer_levels.append(lv)
            if d > 0 and self.on["affine"] and rng.random() < 0.2:
                self.maybe_guard(lv, iv, self.scope_ivs(level))
            level = lv
        for _ in range(rng.choice([1, 1, 2, 2, 3])):
            self.idiom(level)
        if depth > 1 and rng.random() < 0.25:
            self.idiom(outer_levels[rng.randrange(depth - 1)])
        if self.on["pinc"]:
            self.add_pinc(outer_levels)
        if self.on["counter"] and not any(getattr(x, "pinc", None) for x in outer_levels):
            self.add_counter(outer_levels)
        main, self.rng = self.rng, self.side
        if self.on.get("ptrinc") and not any(getattr(x, "pinc", None) for x in outer_levels):
            self.add_ptrinc(outer_levels)
        if self.on["memcall"]:
            for _ in range(self.rng.choice([1, 1, 2])):
                self.add_memcall(outer_levels)
        self.rng = main
        if self.on.get("nestcounter") and not any(getattr(x, "pinc", None) for x in outer_levels):
            main, self.rng = self.rng, self.side2
            self.add_nest_counter(outer_levels)
            self.rng = main
        if self.on.get("reindex") and not any(getattr(x, "pinc", None) for x in outer_levels):
            main, self.rng = self.rng, self.side_ri
            self.add_reindex(outer_levels)
            self.rng = main
        if self.on.get("condsel"):
            main, self.rng = self.rng, self.side3
            self.add_condsel(outer_levels)
            self.rng = main
        if self.on.get("assert"):
            main, self.rng = self.rng, self.side3
            self.add_assert(outer_levels)
            self.rng = main
        if self.on.get("exit"):
            main, self.rng = self.rng, self.side_ex
            self.add_exit(outer_levels)
            self.rng = main
        if n.pre.stmts and n.pre.stmts[0][0] == "for":
            n.root = n.pre.stmts[0]
        self.freeze(n.pre)
        for h in n.helpers:
            self.freeze_stmts(h.body)
        if self.on["fieldptr"]:
            main, self.rng = self.rng, self.side
            self.fieldify()
            self.rng = main
        if self.on.get("bodyassign"):
            self.bodyassignify()
        if self.on.get("reseat"):
            self.reseatify()
        if self.on.get("lambda") and n.field_sizes and self.side_lm.random() < 0.5:
            n.getters = True
            self.feat("getter")
        if self.on.get("lambda") and n.helpers:
            n.lambda_helpers = True
            self.feat("lambda-helper")
            if any(h.ret == "int" for h in n.helpers):
                self.feat("lambda-index")
        if self.on.get("accessor"):
            self.wrap_bases()
        return n

    def wrap_bases(self):
        """accessor: half the pointer parameters (no null check, no field of
        a state struct) become `Buf<T> &A`, reached through its accessors."""
        n = self.n
        for b in n.bases:
            if (b.kind == "ptr" and not b.nullable and b.cname not in n.field_ptrs
                    and self.side_ac.random() < 0.5):
                n.wrapped[b.cname] = "OBuf" if self.side_ac.random() < 0.5 else "Buf"
        if n.wrapped:
            self.feat("accessor")

    # reseat: a pointer set again before the nest
    def reseatify(self):
        """Pointers declared before the nest (first level of the function,
        not advanced, no field, not assigned in a loop body) are declared at
        their array's start and set to their value in the next statement: the
        same program, written as Mamba's step writes `dt` (`float *dt =
        s->x_db; ... dt = s->dt;`). Some are set once more after the nest
        (which does not change it), some set in an inner block `{ p = ...; }`
        (which the tool refuses: no setting of a block around the nest)."""
        rng, n = self.side_rs, self.n
        stepped = set(n.ptr_stepped) | set(n.field_ptrs) | set(n.body_assigned)

        def walk(sts):
            for x in sts:
                if x[0] in ("pinc", "cinc", "pstep"):
                    stepped.add(x[1])
                elif x[0] == "asg":
                    stepped.update(pincx_names(x))
                elif x[0] in ("for", "rfor"):
                    walk(x[1].body)
                elif x[0] == "if":
                    walk(x[3])
                    walk(x[4] or [])
        walk(n.pre.decls + n.pre.stmts)
        for x in n.pre.decls:
            root = x[3] if x[0] == "dptr" else None
            while root and root[0] in ("add", "addr"):
                root = root[1]
            if root and root[0] == "base" and x[1] not in stepped and rng.random() < 0.7:
                n.reseated[x[1]] = rng.choice(["before", "before", "after", "block"])
        if n.reseated:
            self.feat("reseated-pointer")
            if "block" in n.reseated.values():
                self.feat("reseated-pointer-block")

    # condsel: c ? a : b in a bound and a subscript (genann's genann_train)
    def add_condsel(self, outer_levels):
        """Loops 0..K plain (upward from 0, or downward to 0); in loop K's
        body a loop over E whose bound is `c ? E : E - d` and whose element
        is read at `c2 ? j : E - 1 - j` in its row, summed into loop K's
        element. c and c2 are the same condition or one of them is on an
        outer variable t: t == its first or last value, t != 0 (t's first
        value upward, its last downward), t < S (S a size or 2), or a flag
        argument (a loop-invariant case)."""
        rng, ft = self.rng, self.ft
        if not outer_levels:
            return
        K = rng.randrange(len(outer_levels))
        ivs = []
        for lv in outer_levels[:K + 1]:
            L = lv.loop
            e = L.rext.ie()
            up = L.step == 1 and L.start == ("n", 0) and L.op == "<" and L.bound == e
            down = L.step == -1 and L.start == ("-", e, ("n", 1)) and L.op == ">=" and \
                L.bound == ("n", 0)
            if lv.guard or not (up or down):
                return
            ivs.append((L.iv, L.rext, lv, up))
        lv = outer_levels[K]

        def cond():
            if rng.random() < 0.25:
                name = rng.choice(["relu", "gate", "scale"])
                return ("!=", ("v", name), ("n", 0), name)
            t, ext, _, up = rng.choice(ivs)
            first = ("n", 0) if up else ("-", ext.ie(), ("n", 1))
            last = ("-", ext.ie(), ("n", 1)) if up else ("n", 0)
            kind = rng.choice(["first", "last", "ne0", "rel"])
            if kind == "first":
                return ("==", ("v", t), first, kind)
            if kind == "last":
                return ("==", ("v", t), last, kind)
            if kind == "ne0":
                return ("!=", ("v", t), ("n", 0), kind)
            lim = rng.choice([("n", 2), self.pick_ext(allow_prod=False).ie()])
            return ("<", ("v", t), lim, kind)

        def use(c):
            """c's feature, and its flag argument where it is one."""
            if c[3] in ("first", "last", "ne0", "rel"):
                self.feat("condsel-" + c[3])
                for x in outer_levels[:K + 1]:
                    if x.loop.iv == c[1][1]:
                        x.loop.split_conds = getattr(x.loop, "split_conds", []) + [c[:3]]
                return
            self.feat("condsel-flag")
            if (c[3], "int") not in self.n.flags:
                self.n.flags.append((c[3], "int"))

        E = self.pick_ext(allow_prod=False)
        v = self.get_view([x.loop.rext for x in outer_levels[:K + 1]] + [E], fresh=True)
        if v.base.kind != "ptr" or not v.rowmajor or v.offset is not None:
            return
        start = row_offset([iv[0] for iv in ivs], v.strides)
        c1 = cond()
        c2 = c1 if rng.random() < 0.6 else cond()
        short = ("-", E.ie(), ("n", rng.choice([1, 1, 2])))
        if rng.random() < 0.5:
            bound = ("isel", c1[0], c1[1], c1[2], E.ie(), short)
        else:
            bound = ("isel", c1[0], c1[1], c1[2], short, E.ie())
        for x in outer_levels[:K + 1]:
            x.no_cont = True
        lv2, i = self.inner(lv, ext=E, plain=True, guard=False)
        lv2.loop.bound = bound
        j = ("v", i[0])
        # The row: loop K's, or the view's first (genann's `out + (h ? X :
        # 0)`), so that j indexes it either way.
        use(c1)
        row = start if start is not None else ("n", 0)
        if rng.random() < 0.3:
            at = ie_add(start, j)  # the condition in the bound only
        else:
            use(c2)
            sel = ("isel", c2[0], c2[1], c2[2], row, ("n", 0)) if rng.random() < 0.5 else \
                ("isel", c2[0], c2[1], c2[2], ("n", 0), row)
            at = ie_add(sel, j)
            self.feat("condsel-index")
        sname = self.fresh("s")
        lv.stmts.insert(0, ("ds", sname, ft, ("lit", "0.0" + SUF[ft])))
        lv2.stmt_list().append(("asg", ("s", sname), "+=", ("b", "*", ("ld", ("base", v.base.cname), at), self.lit(), ft), ft))
        ov = self.view_for([(x, e, l) for x, e, l, _ in ivs])
        lv.stmt_list().append(("asg", self.ref(lv, ov, [x for x, _, _, _ in ivs], write=True), "=", ("s", sname), ft))
        self.feat("condsel")

    # nestcounter: an int counter declared in the nest (rnn.c's kx)
    def add_nest_counter(self, outer_levels):
        """Loops 0..K rectangular, K >= 1; `int k = start;` in loop K-1's
        body: 0 (rows of loop K in a view over [extent K, E]) or the row
        offset of loops 0..K-1 (a view over [extents 0..K, E]), maybe plus
        a constant. In loop K's body a loop over E reads w[k] with `k++`
        (or `++k`) after it, or w[k + j] with `k += E` after the
        loop; the loop and the steps maybe under an if whose condition
        uses only loops 0..K-1 and sizes (rnn.c's `if ((t+1) < T)`), or
        (rarely) loop K's variable too."""
        rng, ft = self.rng, self.ft
        if len(outer_levels) < 2:
            return
        K = rng.randrange(1, len(outer_levels))
        if not plain_loops(outer_levels[:K + 1]):
            return
        decl_lv, lv = outer_levels[K - 1], outer_levels[K]
        E = self.pick_ext(allow_prod=False)
        ivs = [(x.loop.iv, x.loop.rext, x) for x in outer_levels[:K + 1]]
        zero = rng.random() < 0.4
        vivs = ivs[K:] if zero else ivs
        v = self.get_view([e for _, e, _ in vivs] + [E], fresh=True)
        if v.base.kind != "ptr" or not v.rowmajor or v.offset is not None:
            return
        shift = 0 if zero or rng.random() < 0.7 else rng.choice([1, 2])
        start = None if zero else row_offset([iv[0] for iv in ivs[:K]], v.strides)
        if shift:
            # the counter runs `shift` elements ahead; the row view is read
            # `shift` elements back so every element stays in the array
            start = ie_add(start, ("n", shift))
        start = start if start is not None else ("n", 0)
        c = self.fresh("k")
        decl_lv.decls.append(("dint", c, start))
        for x in outer_levels[:K + 1]:
            x.no_cont = True
        mark = len(lv.stmt_list())
        self.pending = []
        lv2, i = self.inner(lv, ext=E, plain=True, guard=False)
        sname = self.fresh("s")
        lv.stmts.insert(0, ("ds", sname, ft, ("lit", "0.0" + SUF[ft])))
        mark += 1
        at = ("-", ("v", c), ("n", shift)) if shift else ("v", c)
        if rng.random() < 0.5:
            lv2.stmt_list().append(("asg", ("s", sname), "+=", ("b", "*", ("ld", ("base", v.base.cname), at), self.lit(), ft), ft))
            lv2.stmt_list().append(("cinc", c, ("n", 1), rng.random() < 0.4))
            steps = []
            self.feat("nestcounter-step")
        else:
            lv2.stmt_list().append(("asg", ("s", sname), "+=", ("b", "*", ("ld", ("base", v.base.cname), ie_add(at, ("v", i[0]))), self.lit(), ft), ft))
            steps = [("cinc", c, E.ie())]
            self.feat("nestcounter-row")
        body = lv.stmt_list()
        region = body[mark:] + steps
        del body[mark:]
        r = rng.random()
        if r < 0.5:
            outer = self.scope_ivs(decl_lv)
            cond = self.affine_cond(outer[-1][0], outer[:-1])
            body.append(("if", "aff-partial", cond, region, []))
            self.feat("nestcounter-guard")
        elif r < 0.6:
            # on loop K's variable: it changes while the counter lives (the
            # tool must refuse, or count what runs)
            cond = self.affine_cond(lv.loop.iv, self.scope_ivs(decl_lv))
            body.append(("if", "aff-partial", cond, region, []))
            self.feat("nestcounter-variant-guard")
        else:
            body.extend(region)
        if zero:
            self.feat("nestcounter-zero")
        if shift:
            self.feat("nestcounter-shift")
        ov = self.view_for(ivs)
        lv.stmt_list().append(("asg", self.ref(lv, ov, [x for x, _, _ in ivs], write=True), "=", ("s", sname), ft))

    # reindex: an int row offset set again in the body that declares it
    def add_reindex(self, outer_levels):
        """Loops 0..K rectangular; `int k = <row offset of loops 0..K>;` in
        loop K's body over a fresh view [extents 0..K, m*E] (m = 2 or 3);
        m loops over E read w[k + j] into one sum, and before each but the
        first k is set again: `k += E;`, `k = k + E;` or `k = <row offset>
        + s*E;` (darknet YOLO's `index = entry_index(...)` set twice). The
        sum is stored by a subscript over loops 0..K."""
        rng, ft = self.rng, self.ft
        if not outer_levels:
            return
        K = rng.randrange(len(outer_levels))
        if not plain_loops(outer_levels[:K + 1]):
            return
        lv = outer_levels[K]
        E = self.pick_ext(allow_prod=False)
        m = rng.choice([2, 3])
        ivs = [(x.loop.iv, x.loop.rext, x) for x in outer_levels[:K + 1]]
        v = self.get_view([e for _, e, _ in ivs] + [E.times(Sz(m))], fresh=True)
        if v.base.kind != "ptr" or not v.rowmajor or v.offset is not None:
            return
        start = row_offset([iv[0] for iv in ivs], v.strides)
        c = self.fresh("k")
        lv.decls.append(("dint", c, start))
        for x in outer_levels[:K + 1]:
            x.no_cont = True
        sname = self.fresh("s")
        lv.stmts.insert(0, ("ds", sname, ft, ("lit", "0.0" + SUF[ft])))
        for seg in range(m):
            if seg:
                r = rng.random()
                if r < 0.4:
                    lv.stmt_list().append(("cinc", c, E.ie()))
                    self.feat("reindex-plus")
                elif r < 0.7:
                    lv.stmt_list().append(("dset", c, ie_add(("v", c), E.ie())))
                    self.feat("reindex-self")
                else:
                    lv.stmt_list().append(("dset", c, ie_add(start, ie_mul(("n", seg), E.ie()))))
                    self.feat("reindex-fresh")
            self.pending = []
            lv2, i = self.inner(lv, ext=E, plain=True, guard=False)
            ld = ("ld", ("base", v.base.cname), ie_add(("v", c), ("v", i[0])))
            lv2.stmt_list().append(("asg", ("s", sname), "+=", ("b", "*", ld, self.lit(), ft), ft))
        ov = self.view_for(ivs)
        lv.stmt_list().append(("asg", self.ref(lv, ov, [x for x, _, _ in ivs], write=True),
                               "=", ("s", sname), ft))

    # assert: an assertion somewhere in a loop body of the nest
    def add_assert(self, outer_levels):
        """`assert(c);` at a random place of a loop body: c compares an
        element of a fresh view, two such (&&), a scalar declared before it
        in the body, or (costing nothing) a loop variable with a size. The
        brute force runs it as a data-dependent if with empty branches: the
        condition counts, nothing else (the failing branch never returns)."""
        rng, ft = self.rng, self.ft
        if not outer_levels:
            return
        lv = rng.choice(outer_levels)
        body = lv.stmt_list()
        at = rng.randint(0, len(body))
        ivs = self.scope_ivs(lv)
        lit = lambda: ("lit", rng.choice(["0.0", "-1.0", "2.5"]) + SUF[ft])
        op = lambda: rng.choice(["<", ">", "<=", ">=", "!="])

        def element():
            sub = self.outer_idx(lv)
            v = self.view_for(sub)
            ref = self.ref(lv, v, [x for x, _, _ in sub])
            if rng.random() < 0.25:
                # genann's assert(!isnan(a)): a classification, one compare.
                self.feat("assert-isnan")
                return ("cmp", rng.choice(["!isnan", "isfinite", "!isinf"]), ref, None, ft)
            return ("cmp", op(), ref, lit(), ft)
        scalars = [x[1] for x in body[:at] if x[0] == "ds" and x[2] == ft]
        r = rng.random()
        if r < 0.15:
            iv, ext, _ = rng.choice(ivs)
            cond = ("icmp", "<", ("v", iv), ext.ie())
            self.feat("assert-index")
        elif r < 0.3 and scalars:
            cond = ("cmp", op(), ("s", rng.choice(scalars)), lit(), ft)
            self.feat("assert-scalar")
        elif r < 0.5:
            cond = ("and", element(), element())
            self.feat("assert-and")
        else:
            cond = element()
            self.feat("assert-element")
        body[at:at] = self.pending + [("if", "assert", cond, [], [])]
        self.pending = []

    def add_exit(self, outer_levels):
        """exit: `if (c) break;` as the last statement of a loop's body, or
        `if (c) return;` as the last of the outermost loop's (llama2.c's
        sample_mult, a search), c comparing an element of a fresh view or a
        scalar the body declares. The tool counts a range, from the loop's
        first iteration per entry to all of them (docs/design.md, "Early
        exits"); the brute force runs the nest twice more, every exit taken
        at once and none taken (Interp.exits)."""
        rng, ft = self.rng, self.ft
        if not outer_levels:
            return
        k = rng.randrange(len(outer_levels))
        lv = outer_levels[k]
        body = lv.stmt_list()
        kind = "exit-return" if k == 0 and rng.random() < 0.5 else "exit-break"
        lit = ("lit", rng.choice(["0.0", "-1.0", "2.5"]) + SUF[ft])
        op = rng.choice(["<", ">", "<=", ">=", "!="])
        scalars = [x[1] for x in body if x[0] == "ds" and x[2] == ft]
        if scalars and rng.random() < 0.5:
            cond = ("cmp", op, ("s", rng.choice(scalars)), lit, ft)
            self.feat("exit-scalar")
        else:
            sub = self.outer_idx(lv)
            ref = self.ref(lv, self.view_for(sub), [x for x, _, _ in sub])
            cond = ("cmp", op, ref, lit, ft)
            self.feat("exit-element")
        self.feat(kind)
        if rng.random() < 0.3:
            # llama2.c's sample_topp: `last_idx = i; break;` (a local the
            # nest never reads; the count does not change)
            self.n.exit_record = ("rec0", lv.loop.iv)
            self.feat("exit-record")
        body.extend(self.pending + [("if", kind, cond, [], [])])
        self.pending = []

    # ptrinc: pointers the nest advances, genann's `sum += *w++ * x[k]`
    def add_ptrinc(self, outer_levels):
        """Loops 0..K rectangular; a row-major view over [their extents, E]
        walked by a pointer q (declared before the nest at the base, or in
        loop K-1's body at its row) in a loop over E inside loop K: `*q++`,
        `*q` then `++q;`, `*q` then `q += 2; q--;`, or q[i] with `q += E` at
        the end of loop K's body. The sum is stored through `*o++` (o over
        the view of loops 0..K, before the nest) or by a subscript."""
        rng, ft = self.rng, self.ft
        if not outer_levels:
            return
        K = rng.randrange(len(outer_levels))
        if not plain_loops(outer_levels[:K + 1]):
            return
        lv = outer_levels[K]
        E = self.pick_ext(allow_prod=False)
        ivs = [(x.loop.iv, x.loop.rext, x) for x in outer_levels[:K + 1]]
        v = self.get_view([e for _, e, _ in ivs] + [E], fresh=True)
        if v.base.kind != "ptr" or not v.rowmajor or v.offset is not None or v.base.nullable:
            return
        q = self.fresh("q")
        mode = rng.choice(["post", "post", "pre", "pair", "row"])
        in_nest = K > 0 and mode != "row" and rng.random() < 0.3
        if in_nest:
            e = None
            for (x, _, _), st in zip(ivs, v.strides):
                e = ie_add(e, ie_mul(("v", x), st.ie()))
            lv.decls.append(("dptr", q, ft, ("add", ("base", v.base.cname), e)))
        else:
            self.n.pre.decls.append(("dptr", q, ft, ("base", v.base.cname)))
        self.n.ptr_stepped.add(q)
        for x in outer_levels[:K + 1]:
            x.no_cont = True
        self.pending = []
        lv2, i = self.inner(lv, ext=E, plain=True, guard=False)
        sname = self.fresh("s")
        lv.stmts.insert(0, ("ds", sname, ft, ("lit", "0.0" + SUF[ft])))
        body = lv2.stmt_list()
        if mode == "post":
            body.append(("asg", ("s", sname), "+=", ("b", "*", ("ld", ("pincx", q), ("n", 0)), self.lit(), ft), ft))
        elif mode in ("pre", "pair"):
            body.append(("asg", ("s", sname), "+=", ("b", "*", ("ld", ("base", q), ("n", 0)), self.lit(), ft), ft))
            if mode == "pre":
                body.append(("pstep", q, 1, "++" + q))
            else:
                body.append(("pinc", q, ("n", 2)))
                body.append(("pstep", q, -1, q + "--"))
        else:
            body.append(("asg", ("s", sname), "+=", ("b", "*", ("ld", ("base", q), ("v", i[0])), self.lit(), ft), ft))
            lv.pinc = ("pinc", q, E.ie())
        self.feat("ptrinc-" + mode + ("-in-nest" if in_nest else ""))
        ov = self.view_for(ivs)
        if (ov.base.kind == "ptr" and ov.rowmajor and ov.offset is None and not ov.base.nullable
                and ov.base is not v.base and rng.random() < 0.5):
            o = self.fresh("o")
            self.n.pre.decls.append(("dptr", o, ft, ("base", ov.base.cname)))
            self.n.ptr_stepped.add(o)
            ov.base.written = True
            lv.stmt_list().append(("asg", ("ld", ("pincx", o), ("n", 0)), "=", ("s", sname), ft))
            self.feat("ptrinc-store")
        else:
            lv.stmt_list().append(("asg", self.ref(lv, ov, [x for x, _, _ in ivs], write=True), "=", ("s", sname), ft))

    # memcall: memset / memcpy of a row block of a view inside the nest
    def add_memcall(self, outer_levels):
        """At a random place of a loop body: memset(A + off, 0, n *
        sizeof(T)) or memcpy(A + off, B + off, n * sizeof(T)), where the
        leading dimensions of a row-major view are fixed by loop variables
        of the same extent around it and n is the product of the rest."""
        rng = self.rng
        lv = rng.choice(outer_levels)
        scope = self.scope_ivs(lv)

        def plain(v):
            return (v.base.kind == "ptr" and not v.base.nullable and v.rowmajor
                    and v.offset is None)
        cands = [v for v in self.views if plain(v)]
        if not cands or rng.random() < 0.3:
            k = rng.randrange(len(scope) + 1)
            v = self.get_view([e for _, e, _ in scope[:k]] + [self.pick_ext(allow_prod=False)],
                              fresh=True)
            if not plain(v):
                return
        else:
            v = rng.choice(cands)
        fixed, used = [], set()
        for dim in v.dims[:-1]:
            m = [iv for iv, ext, _ in scope if ext is not None and ext.key() == dim.key()
                 and iv not in used]
            if not m:
                break
            used.add(m[0])
            fixed.append(m[0])
        fixed = fixed[:rng.randrange(len(fixed) + 1)] if rng.random() < 0.3 else fixed
        off = None
        for iv, st in zip(fixed, v.strides):
            off = ie_add(off, ie_mul(("v", iv), st.ie()))
        count = Sz(1)
        for d in v.dims[len(fixed):]:
            count = count.times(d)

        def at(b):
            return ("base", b.cname) if off is None else ("add", ("base", b.cname), off)
        kind = "copy" if rng.random() < 0.45 else "set"
        src = None
        if kind == "copy":
            w = self.get_view(v.dims, ty=v.base.ty)
            if not plain(w) or [st.key() for st in w.strides] != [st.key() for st in v.strides]:
                w = View(self.new_base("ptr", v.base.ty), v.dims, self.row_strides(v.dims))
                self.views.append(w)
            src = at(w.base)
        v.base.written = True
        self.loop_id += 1
        M = MemCall(self.loop_id, kind, at(v.base), src, count.ie(), v.base.ty)
        lv.stmts.insert(rng.randrange(len(lv.stmts) + 1), ("mem", M))
        self.feat("memset" if kind == "set" else "memcpy")

    # fieldptr: pointers before the nest held in the fields of a struct
    def fieldify(self):
        """Pointers declared before the nest become fields of *st, assigned
        there (llama2.c's s->k = s->key_cache + loff); one in ten is first
        assigned the bare array (assigned twice: never counted as exact)."""
        rng, n = self.rng, self.n
        stepped = set()

        def walk(sts):
            for x in sts:
                if x[0] == "pinc":
                    stepped.add(x[1])
                elif x[0] == "for":
                    walk(x[1].body)
                elif x[0] == "rfor":
                    walk(x[1].body)
                elif x[0] == "if":
                    walk(x[3])
                    walk(x[4])
        walk(n.pre.decls + n.pre.stmts)
        stepped |= n.ptr_stepped
        for x in n.pre.decls:
            if x[0] == "dptr" and x[1] not in stepped and rng.random() < 0.8:
                n.field_ptrs.add(x[1])
                if rng.random() < 0.1:
                    n.field_twice.add(x[1])
        if n.field_ptrs:
            self.feat("field-pointer")
            if n.field_twice:
                self.feat("field-pointer-twice")

    # bodyassign: row pointers of a loop body declared before the nest
    def bodyassignify(self):
        """Pointers declared first-level in a loop body of the nest (not
        advanced there) are declared before the nest instead, uninitialized,
        and assigned where their declaration was: the same program, as
        llm.c's layer loops write it (`float *residual;` ... `residual =
        ...;`)."""
        rng, n = self.side4, self.n
        stepped = set(n.ptr_stepped) | set(n.field_ptrs)
        found = []

        def walk(sts, in_loop):
            for x in sts:
                if x[0] in ("pinc", "cinc", "pstep"):
                    stepped.add(x[1])
                elif x[0] == "asg":
                    stepped.update(pincx_names(x))
                elif x[0] == "dptr" and in_loop:
                    found.append(x)
                elif x[0] in ("for", "rfor"):
                    walk(x[1].body, True)
                elif x[0] == "if":
                    walk(x[3], False)
                    walk(x[4] or [], False)
        walk(n.pre.decls + n.pre.stmts, False)
        for x in found:
            if x[1] not in stepped and rng.random() < 0.8:
                n.body_assigned[x[1]] = x[2]
        if n.body_assigned:
            self.feat("body-assigned-pointer")

    def whole_nest_parts(self):
        """Builders of a nest written whole (group_nest, modsplit_nest): a
        load, a new pointer argument, a loop from 0."""
        ft = self.ft

        def ld(b, i):
            return ("ld", ("base", b.cname), i)

        def base(written=False):
            b = self.new_base("ptr", ft)
            b.written = written
            return b

        def loop(iv, bound, body, op="<", step=1):
            self.loop_id += 1
            L = Loop(self.loop_id, iv, ("n", 0), op, bound, step, None)
            L.body = body
            return ("for", L)
        return ld, base, loop

    def window_nest(self):
        """Form 'window': a window clamped to the input in int locals by
        std::max and std::min, as pooling and box filters in C++ reference
        kernels are written: for (o < X) { int lo = std::max(0, o*S - P);
        int hi = std::min(W, o*S - P + F); for (k = lo; k < hi; k++) s +=
        in[r*W + k]; ... }, S a constant or a size (counted at its value),
        rows r of an outer loop sometimes. The tool runs clamped loops over
        ranges of its own, so the loop structure is not compared."""
        rng, n, ft = self.side_wn, self.n, self.ft
        n.loops_checkable = False
        V, Nn = (lambda x: ("v", x)), (lambda x: ("n", x))
        ld, base, loop = self.whole_nest_parts()
        Wd, X = rng.choice(BASE_SIZES), rng.choice(BASE_SIZES)
        S = Nn(rng.choice([1, 1, 2])) if rng.random() < 0.7 else V(rng.choice(BASE_SIZES))
        P, F = Nn(rng.choice([0, 1, 2])), Nn(rng.choice([1, 2, 3]))
        o, k = self.fresh_iv(), self.fresh_iv()
        In, Out = base(), base(True)
        rows = rng.random() < 0.4
        r = self.fresh_iv() if rows else None
        row_in = ie_mul(V(r), V(Wd)) if rows else None
        row_out = ie_mul(V(r), V(X)) if rows else None
        origin = ("-", ie_mul(V(o), S), P)
        lo, hi = self.fresh("lo"), self.fresh("hi")
        sname = self.fresh("s")
        closed = rng.random() < 0.3  # k <= hi with hi one less
        # std::max / std::min, or a conditional choosing one side (C code,
        # MAX(a, b) macros): the spelling of each clamp drawn apart
        how_lo, how_hi = rng.choice([0, 0, 1, 2, 3]), rng.choice([0, 0, 1, 2, 3])
        hi_e = ("min", ("-", V(Wd), Nn(1)) if closed else V(Wd),
                ("-", ("+", origin, F), Nn(1)) if closed else ("+", origin, F), how_hi)
        if how_lo or how_hi:
            self.feat("window-conditional")
        clamp = [("dint", lo, ("max", Nn(0), origin, how_lo)), ("dint", hi, hi_e)]
        if rng.random() < 0.3:
            # Caffe's spelling: the end from the unclamped start, then the
            # start clamped by setting it again
            start = ("-", ("+", V(lo), F), Nn(1)) if closed else ("+", V(lo), F)
            clamp = [("dint", lo, origin),
                     ("dint", hi, ("min", hi_e[1], start, how_hi)),
                     ("dset", lo, ("max", V(lo), Nn(0), how_lo))]
            self.feat("window-caffe")
        body = clamp + [
                ("ds", sname, ft, ("lit", "0.0" + SUF[ft])),
                loop(k, V(hi), [("asg", ("s", sname), "+=",
                                 ld(In, ie_add(row_in, V(k))), ft)],
                     op="<=" if closed else "<"),
                ("asg", ld(Out, ie_add(row_out, V(o))), "=", ("s", sname), ft)]
        body[-2][1].start = V(lo)
        nest = loop(o, V(X), body)
        n.pre.stmts = [loop(r, V(rng.choice(BASE_SIZES)), [nest]) if rows else nest]
        n.root = n.pre.stmts[0]
        self.feat("window-" + ("size-stride" if S[0] == "v" else "const-stride"))
        return n

    def modsplit_nest(self):
        """im2col's loop (Caffe, darknet): for (q = 0; q < X*G*G; q++) { int
        kc = q % G; int kr = (q / G) % G; int ch = q / G / G; ... } (or one
        level: q < X*G, kc = q % G, ch = q / G), the parts indexing rows and
        q itself an output row. The tool runs it as loops over groups of
        groups, so the loop structure is not compared."""
        rnd, n, ft = self.side7, self.n, self.ft
        n.loops_checkable = False
        self.feat("modsplit")
        V = lambda x: ("v", x)
        ld, base, loop = self.whole_nest_parts()

        G, X = rnd.choice(BASE_SIZES), rnd.choice(BASE_SIZES)
        depth = rnd.choice([1, 2, 2])
        q = self.fresh_iv()
        kc, ch = self.fresh("kc"), self.fresh("ch")
        body = [("dint", kc, ("%", V(q), G))]
        if depth == 2:
            kr = self.fresh("kr")
            body += [("dint", kr, ("%", ("/", V(q), G), G)),
                     ("dint", ch, ("/", ("/", V(q), G), G))]
            row = ie_add(ie_mul(V(ch), V(G)), V(kr))
            self.feat("modsplit-2")
        else:
            body.append(("dint", ch, ("/", V(q), G)))
            row = V(ch)
            self.feat("modsplit-1")
        A, B, S = base(True), base(), base()
        val = ("b", "*", ld(B, row), ld(S, V(kc)), ft)
        if rnd.random() < 0.5:
            j, Y = self.fresh_iv(), rnd.choice(BASE_SIZES)
            body.append(loop(j, V(Y), [("asg", ld(A, ie_add(ie_mul(V(q), V(Y)), V(j))), "=", val, ft)]))
            self.feat("modsplit-rows")
        else:
            body.append(("asg", ld(A, V(q)), rnd.choice(["=", "+="]), val, ft))
        ext = ("*", ("*", V(X), V(G)), V(G)) if depth == 2 else ("*", V(X), V(G))
        n.pre.stmts = [loop(q, ext, body)]
        n.root = n.pre.stmts[0]
        return n

    def group_nest(self):
        """Form 'group': a whole nest of grouped loops, as quantized and
        grouped-query code writes them (docs/fuzzing.md): a loop variable
        divided by a size, a step that is a size, a bound and a pointer
        chosen per iteration. The tool runs such loops over loops of its own,
        so the loop structure is not compared."""
        rng, n, ft = self.rng, self.n, self.ft
        n.loops_checkable = False
        kind = rng.choice(["div", "step", "choice"])
        self.feat("group-" + kind)
        V, Nn = (lambda x: ("v", x)), (lambda x: ("n", x))
        ld, base, loop = self.whole_nest_parts()

        G = rng.choice(BASE_SIZES)
        X = rng.choice(BASE_SIZES)
        # the extent grouped: a multiple of G, or a size G may not divide
        U = Sz(1, (X, G)) if rng.random() < 0.6 else Sz(1, (X,))
        if kind == "div" and U == Sz(1, (G,)):
            # i < G: i / G is the constant 0 and the reference does not move
            # per iteration; this script's dataflow (syntactic) would say it
            # does (no-reuse loads), so this draw is not made.
            U = Sz(1, (G, G))
        o = self.fresh_iv()
        outer_ext = rng.choice(BASE_SIZES)
        outer = kind == "step" or rng.random() < 0.5
        off = ie_mul(V(o), U.ie()) if outer else None
        if kind == "div":
            i = self.fresh_iv()
            A, B, S = base(True), base(), base()
            q = ("/", V(i), G) if rng.random() < 0.5 else ("/", ie_add(off, V(i)), G)
            body = [("asg", ld(A, ie_add(off, V(i))), "=",
                     ("b", "*", ld(B, ie_add(off, V(i))), ld(S, q), ft), ft)]
            if rng.random() < 0.3:
                body.append(("asg", ld(A, ie_add(off, V(i))), "+=", ld(S, ("/", V(i), G)), ft))
            inner = loop(i, U.ie(), body)
        elif kind == "step":
            j, k = self.fresh_iv(), self.fresh_iv()
            Xq, W, Sw, Sx, Y = base(), base(), base(), base(), base(True)
            sname, acc = self.fresh("s"), self.fresh("s")
            dot = [("ds", sname, ft, ("lit", "0.0" + SUF[ft])),
                   loop(k, V(G), [("asg", ("s", sname), "+=",
                                   ("b", "*", ld(Xq, ie_add(V(j), V(k))),
                                    ld(W, ie_add(ie_add(off, V(j)), V(k))), ft), ft)])]
            scale = ("b", "*", ("s", sname), ld(Sw, ("/", ie_add(off, V(j)), G)), ft)
            if rng.random() < 0.5:
                scale = ("b", "*", scale, ld(Sx, ("/", V(j), G)), ft)
            dot.append(("asg", ("s", acc), "+=", scale, ft))
            if rng.random() < 0.5:
                jl = loop(j, ("-", U.ie(), V(G)), dot, op="<=", step=G)
            else:
                jl = loop(j, U.ie(), dot, step=G)
            body = [("ds", acc, ft, ("lit", "0.0" + SUF[ft])), jl,
                    ("asg", ld(Y, V(o)), "=", ("s", acc), ft)]
            n.pre.stmts = [loop(o, V(outer_ext), body)]
            n.root = n.pre.stmts[0]
            return n
        else:
            i, v = self.fresh_iv(), self.fresh_iv()
            A, B = base(True), base(True)
            r, ptr = self.fresh("r"), self.fresh("p")
            step = rng.choice([1, 1, 2])
            L = rng.choice(BASE_SIZES)
            lim = V(L) if rng.random() < 0.6 else ("-", V(L), Nn(1))
            pick = ("psel", "==", V(v), Nn(0), ("base", A.cname), ("base", B.cname)) \
                if rng.random() < 0.6 else \
                ("psel", "!=", V(v), Nn(0), ("base", B.cname), ("base", A.cname))
            c = ("lit", rng.choice(LITS[ft]))
            rot = [("dptr", ptr, ft, pick),
                   ("asg", ("ld", ("base", ptr), V(i)), "=",
                    ("b", "*", ("ld", ("base", ptr), V(i)), c, ft), ft)]
            if step == 2:
                rot.append(("asg", ("ld", ("base", ptr), ie_add(V(i), Nn(1))), "+=",
                            ("ld", ("base", ptr), V(i)), ft))
            body = []
            if rng.random() < 0.5:  # work before the choice, as RoPE has
                body.append(("asg", ld(A, V(i)), "+=", ("lit", "1.0" + SUF[ft]), ft))
            body += [("dint", r, ("isel", "<", V(i), lim, Nn(2), Nn(1))),
                     loop(v, V(r), rot)]
            n.pre.stmts = [loop(i, V(X), body, step=step)]
            n.root = n.pre.stmts[0]
            return n
        n.pre.stmts = [loop(o, V(outer_ext), [inner]) if outer else inner]
        n.root = n.pre.stmts[0]
        return n

    def freeze(self, level):
        """Turn levels into statement lists (guards, declarations)."""
        self.freeze_stmts(level.decls)
        self.freeze_stmts(level.stmts)

    def freeze_stmts(self, sts):
        for s in sts:
            if s[0] == "for":
                L = s[1]
                if L.body is not None:
                    self.freeze_stmts(L.body)
                    continue
                lv = L.level
                self.freeze(lv)
                body = lv.decls + lv.stmts
                pinc = getattr(lv, "pinc", None)
                if pinc:
                    body = body + [pinc]
                if lv.guard is None:
                    L.body = body
                elif lv.guard[0] == "cont":
                    L.body = [("if", "aff-cont", lv.guard[1], [("cont",)], [])] + body
                elif lv.guard[0] == "whole":
                    L.body = [("if", "aff-whole", lv.guard[1], body, [])]
                else:
                    self.freeze_stmts(lv.else_decls)
                    self.freeze_stmts(lv.else_stmts)
                    L.body = [("if", "aff-else", lv.guard[1], body, lv.else_decls + lv.else_stmts)]
                L.guard = lv.guard
            elif s[0] == "if":
                self.freeze_stmts(s[3])
                self.freeze_stmts(s[4])
            elif s[0] == "rfor":
                self.freeze_stmts(s[1].body)


class _Holder:
    """A pseudo-level collecting one idiom's statements under a condition."""

    def __init__(self, level):
        self.loop, self.parent = None, level
        self.depth = level.depth + 1
        self.decls, self.stmts = [], []
        self.in_else = False

    def stmt_list(self):
        return self.stmts

    def decl_list(self):
        return self.decls


def pincx_names(x):
    """The pointers a statement or expression advances with p++ inside."""
    if isinstance(x, tuple):
        if len(x) == 2 and x[0] == "pincx":
            yield x[1]
        for y in x:
            yield from pincx_names(y)


def subst(e, name, new):
    t = e[0]
    if t == "v":
        return ("v", new) if e[1] == name else e
    if t == "n":
        return e
    if t in ("/", "%"):
        return (t, subst(e[1], name, new), e[2])
    if t == "icall":
        return ("icall", e[1], [subst(a, name, new) for a in e[2]])
    return (t, subst(e[1], name, new), subst(e[2], name, new))


# --- Static facts: leaf loops, the loop directly around each reference ------

def stmt_has_loop(sts, case=None):
    """Whether sts holds a loop (through calls too); with a case, code under a
    loop-invariant condition that is false in it does not count (the nest
    of that case does not have it)."""
    for s in sts:
        t = s[0]
        if t in ("for", "rfor", "mem"):
            return True
        if t == "if" and s[1] == "inv" and case is not None:
            taken = s[3] if guard_value(s[2], True, case) else s[4]
            if stmt_has_loop(taken, case):
                return True
        elif t == "if" and (stmt_has_loop(s[3], case) or stmt_has_loop(s[4], case)):
            return True
        if t == "call" and s[1].has_loop:
            return True
        if t in ("asg", "ds", "dintd") and expr_calls_loop(s):
            return True
    return False


def expr_calls_loop(x):
    if isinstance(x, Helper):
        return x.has_loop
    if isinstance(x, (tuple, list)):
        return any(expr_calls_loop(y) for y in x)
    return False


def row_offset(names, strides):
    """sum of each loop variable times its row's stride; None for no loop."""
    start = None
    for x, st in zip(names, strides):
        start = ie_add(start, ie_mul(("v", x), st.ie()))
    return start


def plain_loops(levels):
    """Whether every loop of levels runs from 0 below its extent by 1,
    unguarded: row offsets over them are their variables times strides."""
    return all(lv.loop.step == 1 and lv.loop.start == ("n", 0) and lv.loop.op == "<"
               and not lv.guard and lv.loop.bound == lv.loop.rext.ie() for lv in levels)


def mark_leaves(sts, case=None):
    for s in sts:
        t = s[0]
        if t in ("for", "rfor"):
            s[1].leaf = not stmt_has_loop(s[1].body, case)
            mark_leaves(s[1].body, case)
        elif t == "if":
            mark_leaves(s[3], case)
            mark_leaves(s[4], case)


def ideps(e, env):
    t = e[0]
    if t == "n":
        return frozenset()
    if t == "v":
        v = env.get(e[1])
        return v[0] if v else frozenset()
    if t == "icall":
        out = frozenset()
        for a in e[2]:
            out |= ideps(a, env)
        return out
    if t in ("/", "%"):
        return ideps(e[1], env)
    if t == "isel":
        return ideps(e[2], env) | ideps(e[3], env) | ideps(e[4], env) | ideps(e[5], env)
    return ideps(e[1], env) | ideps(e[2], env)


class Sites:
    """For each array reference (node, call context, read/write): the loop
    directly around it, whether its address depends on that loop (a
    dataflow over int locals and pointers), the loop-invariant conditions
    between them and its base array."""

    def __init__(self, nest):
        self.n = nest
        self.info = {}
        self.branch = False   # a reference inside a data-dependent branch
        self.partial = False  # an affine if around part of a body
        self.pinc = {}
        self.decl_depth = {}
        self.prepass(nest.pre.decls + nest.pre.stmts, [])
        env = {}
        for b in nest.bases:
            env[b.cname] = (frozenset(), b.cname)
        self.walk(nest.pre.decls + nest.pre.stmts, env, [], [], None, False)

    def prepass(self, sts, loops):
        for s in sts:
            t = s[0]
            if t == "dptr":
                self.decl_depth[s[1]] = len(loops)
            elif t in ("pinc", "cinc", "pstep"):
                self.pinc.setdefault(s[1], set()).update(loops[self.decl_depth[s[1]]:])
            elif t == "asg":
                for name in pincx_names(s):
                    self.pinc.setdefault(name, set()).update(loops[self.decl_depth[name]:])
            elif t == "dint":
                self.decl_depth[s[1]] = len(loops)
            elif t in ("dset", "dclamp"):
                pass
            elif t == "for":
                self.prepass(s[1].body, loops + [(s[1].id, None)])
            elif t == "rfor":
                self.prepass(s[1].body, loops + [(s[1].id, None)])
            elif t == "if":
                self.prepass(s[3], loops)
                self.prepass(s[4], loops)

    def pinfo(self, p, env):
        t = p[0]
        if t == "base":
            v = env[p[1]]
            return v[0], v[1]
        if t in ("add", "addr"):
            d, b = self.pinfo(p[1], env)
            return d | ideps(p[2], env), b
        if t == "row":
            return ideps(p[2], env), p[1]
        if t == "addr2":
            return ideps(p[2], env) | ideps(p[3], env), p[1]
        if t == "pincx":
            v = env[p[1]]
            return v[0], v[1]
        if t == "psel":
            # Either array: whose loads a reference makes is not tracked,
            # so this nest's loads and stores are not compared.
            self.partial = True
            d1, b1 = self.pinfo(p[4], env)
            d2, _ = self.pinfo(p[5], env)
            return d1 | d2 | ideps(p[2], env) | ideps(p[3], env), b1
        raise ValueError(t)

    def site(self, node, kind, deps, base, loops, guards, ctx, branch):
        if base == "#s":
            return
        if branch:
            self.branch = True
        direct = loops[-1]
        self.info[(id(node), ctx, kind)] = (direct, direct not in deps, tuple(guards), base)

    def dwalk(self, e, env, loops, guards, ctx, branch):
        t = e[0]
        if t == "ld":
            d, b = self.pinfo(e[1], env)
            self.site(e, 0, d | ideps(e[2], env), b, loops, guards, ctx, branch)
        elif t == "ld2":
            self.site(e, 0, ideps(e[2], env) | ideps(e[3], env), e[1], loops, guards, ctx, branch)
        elif t == "s":
            v = env.get(e[1])
            if v and v[0] == "REF":
                self.site(e, 0, v[1], v[2], loops, guards, ctx, branch)
        elif t in ("b", "cmp"):
            self.dwalk(e[2], env, loops, guards, ctx, branch)
            if e[3] is not None:
                self.dwalk(e[3], env, loops, guards, ctx, branch)
        elif t == "m":
            for a in e[2]:
                self.dwalk(a, env, loops, guards, ctx, branch)
        elif t == "fma":
            for a in e[1:4]:
                self.dwalk(a, env, loops, guards, ctx, branch)
        elif t == "sel":
            c = e[1]
            if c[0] in ("flag", "nn"):
                self.dwalk(e[2], env, loops, guards + [(c, True)], ctx, branch)
                self.dwalk(e[3], env, loops, guards + [(c, False)], ctx, branch)
            else:
                if c[0] == "cmp":
                    self.dwalk(c, env, loops, guards, ctx, branch)
                elif c[0] in ("dand", "dor"):
                    self.dwalk(c[1], env, loops, guards, ctx, branch)
                    self.dwalk(c[2], env, loops, guards, ctx, True)
                self.dwalk(e[2], env, loops, guards, ctx, True)
                self.dwalk(e[3], env, loops, guards, ctx, True)
        elif t == "u":
            self.call(e, e[1], e[2], env, loops, guards, ctx, branch)

    def call(self, node, h, args, env, loops, guards, ctx, branch):
        henv = {}
        for (kind, a), (pk, name, _) in zip(args, h.params):
            if kind == "ptr":
                henv[name] = self.pinfo(a, env)
            elif kind == "int":
                henv[name] = (ideps(a, env),)
            else:
                self.dwalk(a, env, loops, guards, ctx, branch)
        self.walk(h.body, henv, loops, guards, id(node), branch)
        if h.ret_expr is not None and h.ret != "int":
            self.dwalk(h.ret_expr, henv, loops, guards, id(node), branch)

    def walk(self, sts, env, loops, guards, ctx, branch):
        for s in sts:
            t = s[0]
            if t == "for":
                L = s[1]
                key = (L.id, ctx)
                e2 = dict(env)
                e2[L.iv] = (frozenset([key]),)
                g = getattr(L, "guard", None)
                if g and g[0] in ("cont", "else") and g[1][0] == "and":
                    # a union of ranges: the tool runs the body in guard
                    # loops, like an affine if around part of a body
                    self.partial = True
                self.walk(L.body, e2, loops + [key], [], ctx, branch)
            elif t == "rfor":
                R = s[1]
                key = (R.id, ctx)
                e2 = dict(env)
                if R.byref:
                    e2[R.var] = ("REF", frozenset([key]), R.base.cname)
                else:
                    self.site(R, 0, frozenset([key]), R.base.cname, loops + [key], [], ctx, branch)
                self.walk(R.body, e2, loops + [key], [], ctx, branch)
            elif t in ("dint", "dset"):
                env[s[1]] = (ideps(s[2], env) | frozenset(self.pinc.get(s[1], ())),)
            elif t == "dclamp":
                env[s[1]] = (env.get(s[1], (frozenset(),))[0] | ideps(s[3], env) |
                             ideps(s[4], env),)
            elif t == "iadj":
                env[s[1]] = (env[s[1]][0] | (ideps(s[3], env) if s[3] else frozenset()),)
            elif t == "dintd":
                self.dwalk(s[2], env, loops, guards, ctx, branch)
                # Loaded anew every iteration of the loops around: an
                # address it picks moves with them (the tool's row gathers).
                env[s[1]] = (frozenset(loops),)
            elif t == "dcond":
                env[s[1]] = (frozenset(),)
            elif t == "dptr":
                d, b = self.pinfo(s[3], env)
                d = d | frozenset(k for k in self.pinc.get(s[1], ()))
                env[s[1]] = (d, b)
            elif t == "ds":
                if s[3] is not None:
                    self.dwalk(s[3], env, loops, guards, ctx, branch)
            elif t == "darr":
                env[s[1]] = (frozenset(), "#s")
            elif t == "asg":
                self.dwalk(s[3], env, loops, guards, ctx, branch)
                lhs = s[1]
                if lhs[0] == "s":
                    v = env.get(lhs[1])
                    if not (v and v[0] == "REF"):
                        continue
                    d, b = v[1], v[2]
                elif lhs[0] == "ld":
                    d, b = self.pinfo(lhs[1], env)
                    d = d | ideps(lhs[2], env)
                else:
                    d, b = ideps(lhs[2], env) | ideps(lhs[3], env), lhs[1]
                if s[2] != "=":
                    self.site(lhs, 0, d, b, loops, guards, ctx, branch)
                self.site(lhs, 1, d, b, loops, guards, ctx, branch)
            elif t == "if":
                kind, c = s[1], s[2]
                if kind in ("data", "assert") + EXIT_KINDS:
                    for part in ([c[1], c[2]] if c[0] == "and" else [c]):
                        if part[0] != "icmp":
                            self.dwalk(part, env, loops, guards, ctx, branch)
                    self.walk(s[3], env, loops, guards, ctx, True)
                    self.walk(s[4], env, loops, guards, ctx, True)
                elif kind == "inv":
                    self.walk(s[3], env, loops, guards + [(c, True)], ctx, branch)
                    self.walk(s[4], env, loops, guards + [(c, False)], ctx, branch)
                else:
                    if kind == "aff-partial":
                        self.partial = True
                    self.walk(s[3], env, loops, guards, ctx, branch)
                    self.walk(s[4], env, loops, guards, ctx, branch)
            elif t == "ifret":
                # a void helper's exit on loop variables: the tool runs its
                # sides in guard loops, like an affine if around part of a
                # body (a hoisted y[n - 1] += v counts per guard entry)
                self.partial = True
                self.walk(s[2], env, loops, guards, ctx, branch)
            elif t == "call":
                self.call(s, s[1], s[2], env, loops, guards, ctx, branch)
            elif t == "mem":
                # a loop of its own: every reference moves each iteration
                M = s[1]
                key = (M.id, ctx)
                here = frozenset([key])
                if M.src is not None:
                    d, b = self.pinfo(M.src, env)
                    self.site(M, 0, d | here, b, loops + [key], [], ctx, branch)
                d, b = self.pinfo(M.dst, env)
                self.site(M, 1, d | here, b, loops + [key], [], ctx, branch)


# --- The interpreter -----------------------------------------------------------

class Rec:
    __slots__ = ("lo", "hi", "ev", "sx")

    def __init__(self):
        self.lo, self.hi, self.ev, self.sx = Counter(), Counter(), [], Counter()


CONT = "continue"
OPKIND = {"+": "add", "-": "add", "*": "mul", "/": "div"}
# The components a data-dependent branch's range is taken over: "ops" (every
# kind of operation per precision: adds, multiplies, divides, MACs,
# comparisons, each math function; INTOPs) or "totals" (MACs and FLOPs per
# precision, INTOPs), see --nn-range.
RANGE = ["ops"]


def derive(c):
    """Operation counts -> FLOPs ('F', ty), MACs ('M', ty), INTOPs ('I',);
    keys already derived pass through."""
    out = Counter()
    for k, v in c.items():
        if not v:
            continue
        if k[0] in ("F", "M", "I"):
            out[k] += v
        elif k[0] == "intop":
            out[("I",)] += v
        elif k[0] == "mac":
            out[("M", k[1])] += v
            out[("F", k[1])] += 2 * v
        else:  # add, mul, div, cmp, call:...
            out[("F", k[1])] += v
    return out
OPS = {"<": lambda a, b: a < b, "<=": lambda a, b: a <= b,
       ">": lambda a, b: a > b, ">=": lambda a, b: a >= b,
       "==": lambda a, b: a == b, "!=": lambda a, b: a != b}


class Interp:
    def __init__(self, nest, sizes, case, mode):
        self.n, self.mode, self.case = nest, mode, case
        self.senv = nest.size_env(sizes)
        self.env = dict(self.senv)
        self.cols = {}
        for b in nest.bases:
            if b.kind in ("ptr", "vec"):
                null = b.nullable and not case.get(b.cname, True)
                self.env[b.cname] = None if null else ("P", b.cname, 0)
            elif b.kind == "g2":
                self.cols[b.cname] = b.cols
        for name, kind in nest.flags:
            if kind == "int":
                self.env[name] = 1 if case[name] else 0
            elif kind == "switch":
                self.env[name] = case[name]
        self.fp, self.wr = {}, {}
        self.stmt_writes = set()  # bases the statement being run wrote
        self.top = Rec()
        self.caps = [self.top]
        self.iterations = 0
        self.ltotal = Counter()
        # No-reuse: a reference whose address does not depend on its loop
        # moves once per entry of that loop on which it executes (loaded in
        # the preheader behind the trip-count test; an entry whose guard
        # holds on no iteration moves nothing). lserial numbers the entries
        # of each loop, hentry counts per site the entries it executed on.
        self.lserial, self.hentry, self.hseen = Counter(), Counter(), {}
        self.hinfo = nest.sites.info
        self.steps = 0
        self.data_fp = False
        self.empty_entry = False
        self.negative_trip = False
        self.guard_hits = []
        self.ctx = None
        self._const = {}
        self.gseed = 0x9E3779B97F4A7C15  # the indices a point gather loads
        # Early exits on the data: unknown (None: no exact count), every
        # exit taken the first time it is met ("first"), or none ("never"):
        # the two ends of the range the tool reports (expected(exits=...)).
        self.exits = None
        # Arrays a point gather's index is loaded from, and arrays written:
        # where the nest writes an index array (a memset of it), a native run
        # loads what was written, not the drawn sequence; the tool's count
        # must hold for any index all the same, so only the native check
        # leaves such a nest out (expected's 'native_skip').
        self.pg_bases, self.bases_written, self.pg_loading = set(), set(), False
        self.pg_addr, self.pg_drawn = None, {}  # the element last loaded; its draws
        # A row gather's index (a loaded int, no extent drawn): unknown (D),
        # or every pick row 0 ("same"), or a new row each pick ("new"): the
        # two ends of the range the tool reports (expected(rows=...)).
        self.rows, self.picks = None, 0

    def row_pick(self):
        if self.rows is None:
            return D
        if self.rows == "same":
            return 0
        self.picks += 1
        return self.picks - 1

    def drawn(self, ext):
        """An index loaded from memory for a point gather: in [0, ext), from
        a fixed sequence (the tool's count must hold for any), the same
        again wherever the same element is loaded again."""
        n = self.iev(ext)
        key = (self.pg_addr, n)
        if key not in self.pg_drawn:
            self.gseed = (self.gseed * 6364136223846793005 + 1442695040888963407) % (1 << 64)
            self.pg_drawn[key] = (self.gseed >> 33) % n if n is not D and n > 0 else 0
        return self.pg_drawn[key]

    # recording
    def acc(self, ptr, idx, kind, node):
        if ptr is None:
            raise MustRefuse("null pointer dereferenced")
        base, off = ptr[1], ptr[2]
        if base == "#s":
            return
        if off is D or idx is D:
            raise MustRefuse("an address depends on loaded data (gather)")
        addr = off + idx
        if kind:
            self.bases_written.add(base)
        elif self.pg_loading:
            self.pg_bases.add(base)
            self.pg_addr = (base, addr)
        r = self.caps[-1]
        site = (id(node), self.ctx, kind)
        r.sx[site] += 1
        info = self.hinfo.get(site)
        if info is not None and info[1]:  # hoisted: once per entry it runs on
            entry = (info[0], self.lserial[info[0]])
            if self.hseen.get(site) != entry:
                self.hseen[site] = entry
                self.hentry[site] += 1
        if kind:
            self.stmt_writes.add(base)
        if r is self.top:
            f = self.fp.setdefault(base, {})
            if addr not in f:
                f[addr] = kind
            if kind:
                self.wr.setdefault(base, set()).add(addr)
        else:
            r.ev.append((base, addr, kind))

    def work(self, comp, k=1):
        r = self.caps[-1]
        r.lo[comp] += k
        r.hi[comp] += k

    def op1(self, ty, op):
        self.work((OPKIND[op], ty) if ty != "i32" else ("intop",))

    def mac(self, ty):
        self.work(("mac", ty))

    def seen(self, base, addr):
        if addr in self.fp.get(base, ()):
            return True
        for r in self.caps[1:]:
            for b, a, _ in r.ev:
                if b == base and a == addr:
                    return True
        return False

    def written(self, base, addr):
        if addr in self.wr.get(base, ()):
            return True
        for r in self.caps[1:]:
            for b, a, k in r.ev:
                if b == base and a == addr and k:
                    return True
        return False

    def delta(self, rec):
        new, wr = {}, set()
        for b, a, k in rec.ev:
            if (b, a) not in new and not self.seen(b, a):
                new[(b, a)] = k
            if k and not self.written(b, a):
                wr.add((b, a))
        return new, wr

    def both(self, fa, fb):
        ra, rb = Rec(), Rec()
        self.caps.append(ra)
        try:
            fa()
        finally:
            self.caps.pop()
        self.caps.append(rb)
        try:
            fb()
        finally:
            self.caps.pop()
        if self.delta(ra) != self.delta(rb):
            self.data_fp = True
        p = self.caps[-1]
        alo, ahi, blo, bhi = ra.lo, ra.hi, rb.lo, rb.hi
        if RANGE[0] == "totals":
            alo, ahi, blo, bhi = (derive(x) for x in (alo, ahi, blo, bhi))
        for c in set(alo) | set(blo) | set(ahi) | set(bhi):
            p.lo[c] += min(alo[c], blo[c])
            p.hi[c] += max(ahi[c], bhi[c])
        for (b, a, k) in ra.ev:  # the same footprint either way (else data_fp)
            if p is self.top:
                f = self.fp.setdefault(b, {})
                if a not in f:
                    f[a] = k
                if k:
                    self.wr.setdefault(b, set()).add(a)
            else:
                p.ev.append((b, a, k))
        p.sx.update(ra.sx)

    # evaluation
    def g2_offset(self, name, row, col):
        """G[row][col]'s element offset; D (a gather) when a subscript is
        loaded from memory (a row gather's G[x][i])."""
        a, b = self.iev(row), self.iev(col)
        return D if D in (a, b) else a * self.cols[name] + b

    def iev(self, e):
        t = e[0]
        if t == "n":
            return e[1]
        if t == "v":
            return self.env[e[1]]
        if t == "icall":
            h = e[1]
            vals = [self.iev(a) for a in e[2]]
            saved = self.env
            self.env = {name: v for (_, name, _), v in zip(h.params, vals)}
            try:
                return self.iev(h.ret_expr)
            finally:
                self.env = saved
        if t == "isel":
            a, b = self.iev(e[2]), self.iev(e[3])
            if D in (a, b):
                raise MustRefuse("a choice on loaded data")
            return self.iev(e[4] if OPS[e[1]](a, b) else e[5])
        a = self.iev(e[1])
        if t in ("/", "%"):
            q = self.env[e[2]] if isinstance(e[2], str) else e[2]
            if q == 0:
                raise MustRefuse("division by a zero size")
            # C's % is the remainder of its truncating /.
            return D if a is D else (cdiv(a, q) if t == "/" else a - q * cdiv(a, q))
        b = self.iev(e[2])
        if a is D or b is D:
            return D
        if t == "+":
            return a + b
        if t == "-":
            return a - b
        if t == "*":
            return a * b
        if t in ("max", "min"):
            return max(a, b) if t == "max" else min(a, b)
        raise ValueError(t)

    def pev(self, p):
        t = p[0]
        if t == "base":
            return self.env[p[1]]
        if t in ("add", "addr"):
            q = self.pev(p[1])
            if q is None:
                raise MustRefuse("arithmetic on a null pointer")
            o = self.iev(p[2])
            return ("P", q[1], D if (o is D or q[2] is D) else q[2] + o)
        if t == "row":
            i = self.iev(p[2])
            return ("P", p[1], D if i is D else i * self.cols[p[1]])
        if t == "addr2":
            i, j = self.iev(p[2]), self.iev(p[3])
            return ("P", p[1], D if D in (i, j) else i * self.cols[p[1]] + j)
        if t == "psel":  # ("psel", op, a, b, then, else)
            return self.pev(p[4] if OPS[p[1]](self.iev(p[2]), self.iev(p[3])) else p[5])
        if t == "pincx":  # p++: the old value, p one element on
            q = self.env[p[1]]
            self.env[p[1]] = ("P", q[1], q[2] + 1)
            return q
        raise ValueError(t)

    def const(self, e):
        k = id(e)
        v = self._const.get(k)
        if v is None:
            v = self._const[k] = self._is_const(e)
        return v

    def _is_const(self, e):
        t = e[0]
        if t in ("lit", "c"):
            return True
        if t == "sz":
            return self.mode == "const" and all(f in BASE_SIZES for f in e[1].facs)
        if t in ("b", "cmp"):
            return self.const(e[2]) and (e[3] is None or self.const(e[3]))
        if t == "m":
            return all(self.const(a) for a in e[2])
        if t == "fma":
            return all(self.const(a) for a in e[1:4])
        return False

    def ev(self, e):
        t = e[0]
        if t in ("lit", "c", "sz"):
            return D
        if self.const(e):
            return D
        if t == "ld":
            self.acc(self.pev(e[1]), self.iev(e[2]), 0, e)
            return D
        if t == "ld2":
            self.acc(("P", e[1], 0), self.g2_offset(e[1], e[2], e[3]), 0, e)
            return D
        if t == "s":
            v = self.env[e[1]]
            if isinstance(v, tuple) and v[0] == "REF":
                self.acc(("P", v[1], 0), v[2], 0, e)
            return D
        if t == "b":
            ty = e[4]
            if e[1] in "+-":
                for m, o in ((e[2], e[3]), (e[3], e[2])):
                    if m[0] == "b" and m[1] == "*" and not self.const(m):
                        self.mac(ty)
                        self.ev(m[2])
                        self.ev(m[3])
                        self.ev(o)
                        return D
            self.op1(ty, e[1])
            self.ev(e[2])
            self.ev(e[3])
            return D
        if t == "cmp":
            # isnan(x) is one compare, as x != x (docs/design.md 4.3).
            self.work(("cmp", e[4]))
            self.ev(e[2])
            if e[3] is not None:
                self.ev(e[3])
            return D
        if t == "m":
            self.work(("call:" + e[1], e[3]))
            for a in e[2]:
                self.ev(a)
            return D
        if t == "fma":
            self.mac(e[4])
            for a in e[1:4]:
                self.ev(a)
            return D
        if t == "sel":
            c = self.cond(e[1])
            if c is D:
                if all(x[0] in ("s", "lit", "c") for x in (e[2], e[3])):
                    self.ev(e[2])  # by-reference variables are references
                    self.ev(e[3])
                    return D
                self.both(lambda: self.ev(e[2]), lambda: self.ev(e[3]))
                return D
            return self.ev(e[2] if c else e[3])
        if t == "u":
            return self.call(e, e[1], e[2])
        raise ValueError(t)

    def cond(self, c):
        t = c[0]
        if t == "icmp":
            a, b = self.iev(c[2]), self.iev(c[3])
            return OPS[c[1]](a, b)
        if t == "and":
            return self.cond(c[1]) and self.cond(c[2])
        if t == "or":
            return self.cond(c[1]) or self.cond(c[2])
        if t in ("dand", "dor"):
            # a && b on data: a always, b on some paths (a range).
            self.ev(c[1])
            self.both(lambda: self.ev(c[2]), lambda: None)
            return D
        if t == "flag":
            v = bool(self.env[c[1]])
            return v if c[3] else not v
        if t == "swv":
            return self.env[c[1]] in c[2]
        if t == "nn":
            return self.env[c[1]] is not None
        if t == "gv":
            return not self.env[c[1]] if c[2] else bool(self.env[c[1]])
        self.ev(c)
        return D

    def call(self, node, h, args):
        vals = []
        for kind, a in args:
            if kind == "ptr":
                vals.append(self.pev(a))
            elif kind == "int":
                vals.append(self.iev(a))
            else:
                self.ev(a)
                vals.append(D)
        saved, sctx = self.env, self.ctx
        self.env = {name: v for (_, name, _), v in zip(h.params, vals)}
        self.ctx = id(node)
        try:
            self.run(h.body)
            if h.ret_expr is not None:
                return self.ev(h.ret_expr)
            return None
        finally:
            self.env, self.ctx = saved, sctx

    def lhs_ref(self, lhs):
        t = lhs[0]
        if t == "ld":
            return self.pev(lhs[1]), self.iev(lhs[2])
        if t == "ld2":
            return ("P", lhs[1], 0), self.g2_offset(lhs[1], lhs[2], lhs[3])
        v = self.env.get(lhs[1])
        if isinstance(v, tuple) and v[0] == "REF":
            return ("P", v[1], 0), v[2]
        return None, None

    def run(self, sts):
        for s in sts:
            self.steps += 1
            if self.steps > MAX_STEPS:
                raise TooBig()
            t = s[0]
            if t == "asg":
                _, lhs, op, rhs, ty = s
                outer, self.stmt_writes = self.stmt_writes, set()
                if op == "=":
                    self.ev(rhs)
                elif op in ("+=", "-=") and rhs[0] == "b" and rhs[1] == "*" and not self.const(rhs):
                    self.mac(ty)
                    self.ev(rhs[2])
                    self.ev(rhs[3])
                else:
                    self.op1(ty, op[0])
                    self.ev(rhs)
                called, self.stmt_writes = self.stmt_writes, outer | self.stmt_writes
                p, i = self.lhs_ref(lhs)
                if op != "=" and p is not None and p[1] in called:
                    # y[i] += f(y, ...): C does not order the read of y[i]
                    # against f's stores (docs/design.md, "Calls").
                    raise MustRefuse("the statement reads an array a helper it calls writes")
                if p is not None:
                    if op != "=":
                        self.acc(p, i, 0, lhs)
                    self.acc(p, i, 1, lhs)
                elif lhs[0] == "s":
                    self.env[lhs[1]] = D
            elif t == "for":
                self.loop(s[1])
            elif t == "ds":
                if s[3] is not None:
                    self.ev(s[3])
                self.env[s[1]] = D
            elif t in ("dint", "dset"):
                self.env[s[1]] = self.iev(s[2])
            elif t == "dclamp":
                if OPS[s[2]](self.env[s[1]], self.iev(s[3])):
                    self.env[s[1]] = self.iev(s[4])
            elif t == "iadj":
                d = 1 if s[2] in ("++", "--") else self.iev(s[3])
                v = self.env[s[1]]
                self.env[s[1]] = v - d if s[2] in ("-=", "=-", "--") else v + d
            elif t == "dptr":
                self.env[s[1]] = self.pev(s[3])
            elif t == "if" and s[1] in EXIT_KINDS:
                self.cond(s[2])
                if self.exits is None:
                    raise MustRefuse("an early exit on the data")
                if self.exits == "first":
                    raise LoopExit(s[1][5:])
            elif t == "if":
                c = self.cond(s[2])
                if c is not D and self.guard_hits and s[1] != "szc":
                    # An if that narrows its loop: the tool's "runs at
                    # least once" note covers it holding on some iteration.
                    # Under `if (c) continue;` the iteration goes on when c
                    # is false.
                    skips = bool(s[3]) and s[3][0][0] == "cont"
                    self.guard_hits[-1][0] = True
                    self.guard_hits[-1][1] |= bool(c) != skips
                if c is D:
                    self.both(lambda: self.run(s[3]), lambda: self.run(s[4]))
                elif self.run(s[3] if c else s[4]) is CONT:
                    return CONT
            elif t == "cont":
                return CONT
            elif t == "ifret":  # a void helper's exit: the rest is skipped
                if self.cond(s[1]):
                    self.run(s[2])
                    return None
            elif t == "cinc":
                o = self.iev(s[2])
                k = self.env[s[1]]
                self.env[s[1]] = D if (o is D or k is D) else k + o
            elif t == "pstep":
                p = self.env[s[1]]
                self.env[s[1]] = ("P", p[1], p[2] + s[2])
            elif t == "pinc":
                p = self.env[s[1]]
                o = self.iev(s[2])
                self.env[s[1]] = ("P", p[1], D if (o is D or p[2] is D) else p[2] + o)
            elif t == "darr":
                self.env[s[1]] = ("P", "#s", 0)
            elif t == "rfor":
                self.rfor(s[1])
            elif t == "call":
                self.call(s, s[1], s[2])
            elif t == "dintd":
                self.pg_loading = len(s) > 3
                self.ev(s[2])
                self.pg_loading = False
                self.env[s[1]] = self.drawn(s[3]) if len(s) > 3 else self.row_pick()
            elif t == "dcond":
                self.env[s[1]] = 1 if self.cond(s[2]) else 0
            elif t == "mem":
                self.memcall(s[1])
            else:
                raise ValueError(t)
        return None

    def memcall(self, M):
        """memset / memcpy: a leaf loop over count elements, no work."""
        key = (M.id, self.ctx)
        self.lserial[key] += 1
        n = self.iev(M.count)
        if n <= 0:
            self.empty_entry = True
        dst = self.pev(M.dst)
        src = self.pev(M.src) if M.src is not None else None
        for k in range(n):
            self.ltotal[key] += 1
            self.iterations += 1
            if src is not None:
                self.acc(src, k, 0, M)
            self.acc(dst, k, 1, M)

    def loop(self, L):
        key = (L.id, self.ctx)
        self.lserial[key] += 1
        v = self.iev(L.start)
        op = OPS[L.op]
        ran = False
        self.note_negative_trip(L, v)
        self.guard_hits.append([False, False])  # [an if was met, one held]
        part = None
        while op(v, self.iev(L.bound)):
            ran = True
            self.env[L.iv] = v
            self.ltotal[key] += 1
            # A loop a ?: on its variable splits (condsel) runs as one loop
            # per part: each is an entry of its own for the hoisted moves.
            splits = getattr(L, "split_conds", None)
            if splits:
                now = tuple(OPS[c[0]](self.iev(c[1]), self.iev(c[2])) for c in splits)
                if part is not None and now != part:
                    self.lserial[key] += 1
                part = now
            if L.leaf:
                g = L.guard
                if getattr(L, "guard_local", None) is not None:
                    # guardlocal's `int ok = c; if (ok) ...` as a whole body
                    self.iterations += bool(self.cond(L.guard_local[0])) != L.guard_local[1]
                elif g is None or g[0] == "else":
                    self.iterations += 1
                elif g[0] == "whole":
                    self.iterations += bool(self.cond(g[1]))
                else:
                    self.iterations += not self.cond(g[1])
            try:
                self.run(L.body)
            except LoopExit as x:
                if x.kind != "break":
                    raise
                break
            if isinstance(L.step, str):
                if self.env[L.step] <= 0:
                    raise MustRefuse("a size step that is not positive")
                v += self.env[L.step]
            else:
                v += L.step
        met, held = self.guard_hits.pop()
        if not ran or (met and not held):
            self.empty_entry = True

    def note_negative_trip(self, L, start):
        """A trip count below zero at these sizes (`h < M - 1` at M = 0)
        breaks the formulas' stated precondition, "formulas valid while
        every trip count is >= 0": they are not compared then."""
        if isinstance(L.step, str) or L.step == 0:
            return
        if trip_count(start, L.op, self.iev(L.bound), L.step) < 0:
            self.negative_trip = True

    def rfor(self, R):
        key = (R.id, self.ctx)
        self.lserial[key] += 1
        b = R.base
        n = b.length if b.length is not None else b.len_sz.value(self.senv)
        if n <= 0:
            self.empty_entry = True
        for k in range(n):
            self.ltotal[key] += 1
            if R.leaf:
                self.iterations += 1
            if R.byref:
                self.env[R.var] = ("REF", b.cname, k)
            else:
                self.acc(("P", b.cname, 0), k, 0, R)
                self.env[R.var] = D
            self.run(R.body)


def loop_order(sts, out):
    for s in sts:
        if s[0] == "for":
            out.append(s[1].id)
            loop_order(s[1].body, out)
        elif s[0] == "rfor":
            out.append(s[1].id)
            loop_order(s[1].body, out)
        elif s[0] == "mem":
            out.append(s[1].id)
        elif s[0] == "if":
            loop_order(s[3], out)
            loop_order(s[4], out)
    return out


def guard_value(c, pol, case):
    if c[0] == "swv":
        return (case[c[1]] in c[2]) == pol
    if c[0] == "flag":
        v = bool(case[c[1]])
        v = v if c[3] else not v
    else:
        v = bool(case.get(c[1], True))
    return v == pol


def expected(nest, sizes, case, mode, gseed=None, rows=None, exits=None):
    """The brute-force counts of nest at sizes under case (flag/pointer ->
    bool) in mode ('const' folds sizes as constants). Returns a dict, with
    'refuse' set (and no counts) when no exact count exists. gseed: another
    sequence for the indices point gathers load (the native check). rows:
    the rows loaded ints pick ("same" or "new", Interp.row_pick), the ends
    of a row gather's range. exits: where early exits on the data are
    taken ("first" or "never", Interp.exits), the ends of their range."""
    it = Interp(nest, sizes, case, mode)
    if gseed is not None:
        it.gseed = gseed
    it.rows = rows
    it.exits = exits
    mark_leaves(nest.pre.stmts, case)  # iterations: leaf loops of this case's nest
    try:
        it.run(nest.pre.decls + nest.pre.stmts)
    except MustRefuse as e:
        return {"refuse": str(e)}
    except LoopExit:
        pass  # a return: the rest of the nest does not run
    if it.data_fp:
        return {"refuse": "the elements a data-dependent branch touches differ between its branches"}
    native_skip = bool(it.pg_bases & it.bases_written)
    S = nest.sites
    loads, stores = Counter(), Counter()
    for (nid, ctx, kind), (lk, hoisted, guards, base) in S.info.items():
        if hoisted:
            ok = all(guard_value(c, pol, case) for c, pol in guards)
            m = it.hentry[(nid, ctx, kind)] if ok else 0
        else:
            m = it.top.sx[(nid, ctx, kind)]
        (stores if kind else loads)[base] += m
    lo, hi = derive(it.top.lo), derive(it.top.hi)
    tys = sorted({k[1] for k in list(lo) + list(hi) if k[0] in ("F", "M")})
    res = {
        "iterations": it.iterations,
        "macs": sum(hi[("M", t)] for t in tys),
        "macs_min": sum(lo[("M", t)] for t in tys),
        "flops": sum(hi[("F", t)] for t in tys),
        "flops_min": sum(lo[("F", t)] for t in tys),
        "intops": hi[("I",)],
        "flops_by_type": {t: hi[("F", t)] for t in tys if hi[("F", t)]},
        "macs_by_type": {t: hi[("M", t)] for t in tys if hi[("M", t)]},
        "loads_checkable": not (S.branch or S.partial),
        "empty_entry": it.empty_entry,
        "negative_trip": it.negative_trip,
    }
    arrays = {}
    nr = comp = 0
    tl = ts = 0
    for b in nest.bases:
        f = it.fp.get(b.cname, {})
        w = it.wr.get(b.cname, set())
        ld, st = loads[b.cname], stores[b.cname]
        if not f and not ld and not st:
            continue
        eb = EB[b.ty]
        a = {"element_bytes": eb, "loads": ld, "stores": st,
             "elements_read": sum(1 for k in f.values() if k == 0),
             "elements_written": len(w)}
        arrays[b.cname] = a
        tl += ld
        ts += st
        nr += (ld + st) * eb
        comp += (a["elements_read"] + a["elements_written"]) * eb
    res["arrays"] = arrays
    res["loads"], res["stores"] = tl, ts
    res["bytes_no_reuse"], res["bytes_compulsory"] = nr, comp
    order = loop_order(nest.pre.stmts, [])
    res["loops"] = [it.ltotal[(i, None)] for i in order]
    if native_skip:
        res["native_skip"] = True
    return res


def finalize(nest, sizes):
    """Array extents at the sizes; False if the nest is too big to enumerate
    or unusable."""
    env = nest.size_env(sizes)
    for b in nest.bases:
        if b.kind == "g2":
            b.rows = max(1, b.len_sz[0].value(env))
            b.cols = max(1, b.len_sz[1].value(env))
    mark_leaves(nest.pre.stmts)
    for h in nest.helpers:
        mark_leaves(h.body)
    nest.sites = Sites(nest)
    nest.loops_checkable = not any(
        nest.feats[f] for f in nest.feats if f.startswith(("affine", "pad-guard", "call", "rangefor", "inv",
                                                            "causal", "idiom-inv", "idiom-call", "condsel",
                                                            "idiom-partial")))
    try:
        for case in cases_of(nest):
            expected(nest, sizes, case, "const")
    except TooBig:
        return False
    for s in nest.pre.decls:
        # a clamped local the nest reads (beyond its declaration and clamp)
        if s[0] == "dclamp" and len(re.findall(r"\b%s\b" % s[1], nest.cpp("sym"))) > 3:
            nest.feats["clamp-used"] += 1
    return True


def cases_of(nest):
    import itertools
    names = [n for n, _ in nest.flags]
    values = [SWITCH_VALUES if k == "switch" else (False, True) for _, k in nest.flags]
    return [dict(zip(names, vs)) for vs in itertools.product(*values)]


def generate(rng, name, forms):
    """A nest (NNNest) or None when this draw did not work out."""
    g = Gen(rng, name, forms)
    try:
        n = g.generate()
    except TooBig:
        return None
    n.gen_on = [f for f, v in g.on.items() if v]
    return n


# memset / memcpy element by element, so that the native check's load and
# store tracing sees them (the C library's are not instrumented).
NATIVE_MEM = """int rt_value(int v) { return v; }
template <class T> T *memset(T *d, int c, size_t n) {
  for (size_t i = 0; i < n / sizeof(T); ++i) d[i] = (T)c;
  return d;
}
template <class T> T *memcpy(T *d, const T *s, size_t n) {
  for (size_t i = 0; i < n / sizeof(T); ++i) d[i] = s[i];
  return d;
}
"""


# Whether the emitter writes assertions for the native check (file_cpp).
NATIVE_ASSERTS = [False]


def file_cpp(nests, mode, sizes, native=False):
    head = FILE_HEADER + (NATIVE_MEM if native else "")
    if mode == "const":
        head += "".join("constexpr int %s = %d;\n" % (p, sizes[p]) for p in BASE_SIZES)
    NATIVE_ASSERTS[0] = native
    try:
        return head + "\n".join(n.cpp(mode) for n in nests)
    finally:
        NATIVE_ASSERTS[0] = False


# --- Cases and formulas in the tool's report ---------------------------------

def parse_case(text, nest):
    """'bias != NULL && !(relu)' -> {'bias': True, 'relu': False}, or None."""
    names = {n for n, _ in nest.flags}
    switches = {n for n, k in nest.flags if k == "switch"}
    out = {}
    for atom in split_and(text):
        a = strip_parens(atom.replace(" ", ""))
        m = re.fullmatch(r"([A-Za-z_]\w*)(?:==(\d+)|:(default|nocaselabel))", a)
        if m and m.group(1) in switches:
            v = int(m.group(2)) if m.group(2) else SWITCH_VALUES[-1]
            if m.group(1) in out and out[m.group(1)] != v:
                return "contradiction"
            out[m.group(1)] = v
            continue
        neg = False
        while a.startswith("!"):
            neg = not neg
            a = strip_parens(a[1:])
        m = re.fullmatch(r"([A-Za-z_]\w*)(?:(==|!=)(NULL|nullptr|0|false|true|1))?", a)
        if not m or m.group(1) not in names:
            return None
        v = True
        if m.group(2):
            rhs_true = m.group(3) in ("true", "1")
            v = (m.group(2) == "!=") != rhs_true
        if neg:
            v = not v
        if m.group(1) in out and out[m.group(1)] != v:
            return "contradiction"
        out[m.group(1)] = v
    return out


def split_and(text):
    parts, depth, cur = [], 0, ""
    i = 0
    while i < len(text):
        ch = text[i]
        if ch == "(":
            depth += 1
        elif ch == ")":
            depth -= 1
        if depth == 0 and text.startswith("&&", i):
            parts.append(cur)
            cur = ""
            i += 2
            continue
        cur += ch
        i += 1
    parts.append(cur)
    return [p.strip() for p in parts if p.strip()]


def strip_parens(a):
    while a.startswith("(") and a.endswith(")"):
        depth = 0
        for i, ch in enumerate(a):
            depth += ch == "("
            depth -= ch == ")"
            if depth == 0 and i < len(a) - 1:
                return a
        a = a[1:-1]
    return a


def formula_env(nest, sizes):
    env = nest.size_env(sizes)
    out = {}
    for k, v in env.items():
        out[k] = v
    for s in BASE_SIZES:
        out[FIELD[s]] = sizes[s]
    for b in nest.bases:
        if b.kind == "vec" and b.len_sz is not None:
            out["__size_" + b.cname] = b.len_sz.value(env)
    return out


FIELD_RE = re.compile(r"\b(?:this->|[A-Za-z_]\w*\s*(?:\.|->)\s*)([A-Za-z_]\w*)")


def formula_text(f):
    """cfg.rows / p->rows / this->rows / cfg.get_rows() -> rows (evaluated by
    field name); V.size() -> __size_V."""
    f = re.sub(r"\b([A-Za-z_]\w*)\.size\(\)", r"__size_\1", f)
    f = re.sub(r"\bget_(\w+)\(\)", r"\1", f)  # cfg.get_rows() is cfg.rows
    return FIELD_RE.sub(lambda m: m.group(1), f)


# --- Comparison ----------------------------------------------------------------

SCALARS = ["iterations", "macs", "flops", "intops"]
SYMBOLIC = ["iterations", "macs", "flops", "loads", "stores", "bytes_no_reuse",
            "bytes_compulsory"]


def norm_reason(r):
    """Names and numbers elided; one refusal per case ('[c] why; [d] why')
    reads as one '[per case] why'."""
    m = re.match(r"^(\w+: )?(.*)$", r)
    run, body = m.group(1) or "", m.group(2)
    parts = [p.strip() for p in body.split("; ")]
    cased = all(p.startswith("[") for p in parts)
    parts = [re.sub(r"^\[[^\]]*\] ", "", p) for p in parts]
    parts = [re.sub(r"\b\d+\b", "#", re.sub(r"'[^']*'", "'…'", p)) for p in parts]
    uniq = []
    for p in parts:
        if p not in uniq:
            uniq.append(p)
    return run + ("[per case] " if cased else "") + "; ".join(uniq)


class Checker:
    """Compares one nest's reports in one run with the brute force."""

    def __init__(self, nest, sizes, flag_case, nulls, formulas):
        self.n, self.sizes, self.flag_case = nest, sizes, flag_case
        self.nulls, self.formulas = nulls, formulas
        self.cache = {}
        self.musts = []
        self.row_gathers = 0  # reports with a bytes range checked at both ends
        self.exit_ranges = 0  # reports with an early exit's range, the same

    inject = False

    def exp(self, case, mode, rows=None, exits=None):
        if not self.n.size_in_data:
            mode = "sym"
        key = (tuple(sorted(case.items())), mode, rows, exits)
        if key not in self.cache:
            e = expected(self.n, self.sizes, case, mode, rows=rows, exits=exits)
            if self.inject and "refuse" not in e:
                e["iterations"] += 1  # --self-test-inject-error: must be caught
            self.cache[key] = e
        return self.cache[key]

    def check(self, tag, got, skipped, problems):
        """Returns the refusal reason of this run (or None)."""
        n = self.n
        refusal = "; ".join(skipped) if skipped else None
        errs = [r["tool_error"] for r in got if "tool_error" in r]
        if errs:
            problems.append("%s: roofline-lint failed on the nest alone (%s)" % (tag, errs[0]))
            return refusal
        if not got:
            if not skipped:
                problems.append("%s: no report and no refusal" % tag)
            return refusal
        flags = {x for x, _ in n.flags}
        if flags:
            want = [self.flag_case] if tag == "param" else cases_of(n)
        else:
            want = [{}]
        seen = []
        applicable = 0
        for r in got:
            ctext = r.get("case")
            if ctext:
                ctext = self.size_atoms(ctext)
                if ctext is False:
                    continue  # the case of other sizes
            applicable += 1
            if flags:
                if ctext:
                    case = parse_case(ctext, n)
                    if case == "contradiction":
                        problems.append("%s: case '%s' cannot happen (a flag both ways)" % (tag, ctext))
                        continue
                    if case is not None and tag == "param":
                        # flags --param decided need not be named
                        case = dict(self.flag_case, **case)
                    if case is None or set(case) != flags:
                        problems.append("%s: case '%s' not understood (conditions on %s)" % (
                            tag, ctext, ", ".join(sorted(flags))))
                        continue
                elif tag == "param" and len(got) == 1:
                    case = self.flag_case
                else:
                    problems.append("%s: %d report(s) without a case for a nest with a "
                                    "loop-invariant condition on %s" % (tag, len(got), ", ".join(sorted(flags))))
                    continue
            else:
                if ctext:
                    problems.append("%s: case '%s' on a nest without loop-invariant conditions" % (tag, ctext))
                case = {}
            if case not in want:
                problems.append("%s: case '%s' reported though --param gave %s" % (
                    tag, ctext, self.flag_case))
                continue
            if case in seen:
                problems.append("%s: case '%s' reported twice" % (tag, ctext))
                continue
            seen.append(case)
            e = self.exp(case, "const" if tag == "const" else "sym")
            label = tag + ("[%s]" % ctext if ctext else "")
            rng = self.row_range(r, e, case, "const" if tag == "const" else "sym")
            exit_rng = rng is None
            if exit_rng:
                rng = self.exit_range(r, e, case, "const" if tag == "const" else "sym")
            if rng is not None and "unchecked" in rng:
                self.nulls["nn: a range not checked (the runs at its ends are too long, "
                           "or refused for another reason)"] += 1
            elif rng is not None and "refuse" in rng:
                problems.append("%s: a bytes range for a nest the brute force refuses "
                                "with its rows picked (%s)" % (label, rng["refuse"]))
            elif rng is not None:
                self.row_gathers += not exit_rng
                if tag == "sym":
                    self.check_formulas(label, r, rng, problems)
                else:
                    self.check_values(label, r, rng, problems)
            elif "refuse" in e:
                self.check_refuse(label, r, e["refuse"], problems)
            elif tag == "sym":
                self.check_formulas(label, r, e, problems)
            else:
                self.check_values(label, r, e, problems)
        missing = [c for c in want if c not in seen]
        if missing and not skipped and len(seen) == applicable:
            problems.append("%s: cases not reported: %s" % (tag, missing))
        return refusal

    SIZE_ATOM = re.compile(r"(.+?)(<=|>=|==|!=|<|>)(.+)")

    def size_atoms(self, ctext):
        """A case's conditions on sizes (a helper's `n > 3` in the caller's
        sizes, `N > 3`) evaluated at this run's sizes: False when one does
        not hold (the report is another sizes' case), else the text of the
        other conditions ('' -> None)."""
        env = formula_env(self.n, self.sizes)
        rest = []
        for atom in split_and(ctext):
            a = strip_parens(atom.replace(" ", ""))
            neg = False
            while a.startswith("!"):
                neg = not neg
                a = strip_parens(a[1:])
            m = self.SIZE_ATOM.fullmatch(a.replace("->", "."))  # p->rows: no '>'
            try:
                lhs, rhs = (EVAL_C(formula_text(x), env) for x in (m.group(1), m.group(3)))
            except Exception:
                rest.append(atom)  # not a size condition (or not understood)
                continue
            if OPS[m.group(2)](lhs, rhs) == neg:
                return False
        return " && ".join(rest) or None

    def row_range(self, r, e, case, mode):
        """For a nest the brute force refuses for a gather and the tool
        counts with a bytes range (a row gather): the counts with every
        pick the same row, and bytes_compulsory_min and the arrays' mins from
        the run with every pick a new row; None otherwise."""
        if "gather" not in e.get("refuse", ""):
            return None
        if (r.get("bytes") or {}).get("compulsory_min") is None and \
                (r.get("symbolic") or {}).get("bytes_compulsory_min") is None:
            return None
        try:
            same, new = self.exp(case, mode, "same"), self.exp(case, mode, "new")
        except TooBig:  # the run with rows goes past where the unknown one stopped
            return {"unchecked": True}
        if any("early exit" in x.get("refuse", "") for x in (same, new)):
            return {"unchecked": True}  # an early exit too: not both ends of both
        if "refuse" in same or "refuse" in new:
            return same if "refuse" in same else new
        rng = dict(new)
        rng["bytes_compulsory_min"] = same["bytes_compulsory"]
        rng["arrays_min"] = same["arrays"]
        return rng

    def exit_range(self, r, e, case, mode):
        """For a nest the brute force refuses for an early exit and the
        tool counts with a range: the counts with no exit taken, and the
        mins (FLOPs, MACs, bytes_compulsory and the arrays') from the run
        with every exit taken the first time it is met; None otherwise.
        Loads, stores and the no-reuse bytes depend on where the loop stops:
        the tool gives none, and none are checked."""
        if "early exit" not in e.get("refuse", ""):
            return None
        # The tool claims the range in a note (its ends may have no value
        # or formula at these sizes: nulls, counted as such).
        if not any(x.startswith("early exit:") for x in r.get("notes", [])):
            return None
        try:
            first = self.exp(case, mode, exits="first")
            never = self.exp(case, mode, exits="never")
        except TooBig:
            return {"unchecked": True}
        if "refuse" in first or "refuse" in never:
            return {"unchecked": True}  # refused for another reason too
        self.exit_ranges += 1
        rng = dict(never, loads_checkable=False)
        for k in ("flops_min", "macs_min"):
            rng[k] = first[k]
        rng["bytes_compulsory_min"] = first["bytes_compulsory"]
        rng["arrays_min"] = first["arrays"]
        return rng

    def check_row_mins(self, tag, r, e, assumed, problems):
        """A bytes range's lower end (row_range): the total and each array's
        elements against the run with every pick the same row."""
        got = (r.get("bytes") or {}).get("compulsory_min")
        if got is None:
            return
        if assumed:
            return
        # Exact where no pick ran at these sizes: both ends must be it.
        want_total = e.get("bytes_compulsory_min", e["bytes_compulsory"])
        if got != want_total:
            problems.append("%s bytes.compulsory_min = %s, brute force (every pick the "
                            "same row) %s" % (tag, got, want_total))
        for a in r.get("arrays", []):
            ea = e.get("arrays_min", e["arrays"]).get(a["name"])
            for k in ("elements_read", "elements_written"):
                want = a.get(k + "_min", a.get(k))
                if ea is not None and want is not None and want != ea[k]:
                    problems.append("%s arrays[%s].%s_min = %s, brute force (every pick "
                                    "the same row) %s" % (tag, a["name"], k, want, ea[k]))

    def check_refuse(self, tag, r, why, problems):
        self.musts.append(why)
        got = (r.get("bytes") or {}).get("compulsory")
        if got is not None:
            problems.append("%s bytes.compulsory = %s for a nest with no exact count (%s)" % (tag, got, why))

    def check_values(self, tag, r, e, problems):
        c = r.get("counts", {})
        nulls = self.nulls
        for k in SCALARS:
            got = c.get(k)
            if got is None:
                nulls["nn-" + tag.split("[")[0] + ":" + k] += 1
            elif got != e[k]:
                problems.append("%s counts.%s = %s, brute force %s" % (tag, k, got, e[k]))
        for k in ("flops_min", "macs_min"):
            full = k[:-4]
            got = c.get(k)
            if e[k] != e[full]:
                if got is None and c.get(full) is not None:
                    problems.append("%s counts.%s missing: brute force range %s..%s" % (
                        tag, k, e[k], e[full]))
                elif got is not None and got != e[k]:
                    problems.append("%s counts.%s = %s, brute force %s" % (tag, k, got, e[k]))
            elif got is not None and got != e[k]:
                problems.append("%s counts.%s = %s, brute force %s (no range)" % (tag, k, got, e[k]))
        for jk in ("flops_by_type", "macs_by_type"):
            raw = c.get(jk) or {}
            got = {t: v for t, v in raw.items() if v}
            if any(v is None for v in raw.values()):
                nulls["nn-" + jk] += 1
            elif got != e[jk]:
                problems.append("%s counts.%s = %s, brute force %s" % (tag, jk, got, e[jk]))
        lc = e["loads_checkable"]
        if lc:
            for k in ("loads", "stores"):
                got = c.get(k)
                if got is not None and got != e[k]:
                    problems.append("%s counts.%s = %s, brute force %s" % (tag, k, got, e[k]))
        b = r.get("bytes") or {}
        got = b.get("compulsory")
        # A size the run does not give (a vector's length) may leave a loop
        # empty; values resting on the "runs at least once" note then skip.
        assumed = e["empty_entry"] and any(
            "runs at least once" in x for x in r.get("notes", []))
        if assumed:
            nulls["nn-const: footprint skipped (a loop ran 0 times, noted)"] += 1
        elif got is None:
            nulls["nn-" + tag.split("[")[0] + ":bytes.compulsory"] += 1
        elif got != e["bytes_compulsory"]:
            problems.append("%s bytes.compulsory = %s, brute force %s" % (tag, got, e["bytes_compulsory"]))
        self.check_row_mins(tag, r, e, assumed, problems)
        got = b.get("no_reuse")
        if lc and got is not None and got != e["bytes_no_reuse"]:
            problems.append("%s bytes.no_reuse = %s, brute force %s" % (tag, got, e["bytes_no_reuse"]))
        seen = set()
        for a in r.get("arrays", []):
            name = a["name"]
            if name.endswith(".p") and name[:-2] in self.n.wrapped:
                name = name[:-2]  # accessor: Buf<T> &A holds the array in A.p
            seen.add(name)
            ea = e["arrays"].get(name)
            if ea is None and assumed:
                # Touched only inside a loop that ran 0 times here, which
                # the noted "runs at least once" assumption rules out.
                nulls["nn-const: array touched only in a loop that ran 0 times (noted)"] += 1
                continue
            if ea is None:
                if any(a.get(k) for k in ("loads", "stores", "elements_read", "elements_written")):
                    problems.append("%s array %s is not an array the nest touches (%s)" % (
                        tag, name, ", ".join(sorted(e["arrays"])) or "none"))
                continue
            keys = ["element_bytes"] if assumed else [
                "element_bytes", "elements_read", "elements_written"]
            if lc:
                keys += ["loads", "stores"]
            for k in keys:
                if a.get(k) is None:
                    nulls["nn-arrays." + k] += 1
                elif a[k] != ea[k]:
                    problems.append("%s arrays[%s].%s = %s, brute force %s" % (tag, name, k, a[k], ea[k]))
        for name in e["arrays"]:
            if name not in seen:
                problems.append("%s array %s missing" % (tag, name))
        if self.n.loops_checkable:
            loops = r.get("loops", [])
            if len(loops) == len(e["loops"]):
                for lj, want in zip(loops, e["loops"]):
                    if lj.get("total") is not None and lj["total"] != want:
                        problems.append("%s loops[%s].total = %s, brute force %s" % (
                            tag, lj.get("iv"), lj["total"], want))
            else:
                self.nulls["nn-loops: list differs in length"] += 1

    def check_formulas(self, tag, r, e, problems):
        sym = r.get("symbolic") or {}
        env = formula_env(self.n, self.sizes)
        notes = r.get("notes", [])
        if e["negative_trip"] and any("every trip count is >= 0" in x for x in notes):
            if any(sym.get(k) for k in SYMBOLIC):
                self.nulls["nn-sym: skipped (a trip count < 0 at the sizes, noted)"] += 1
            return
        keys = list(SYMBOLIC)
        if not e["loads_checkable"]:
            keys = [k for k in keys if k not in ("loads", "stores", "bytes_no_reuse")]
        for k in ("flops_min", "macs_min", "bytes_compulsory_min"):
            if sym.get(k) is not None:
                keys.append(k)
        if "bytes_compulsory_min" in keys and "bytes_compulsory_min" not in e:
            # Exact here (no pick ran at these sizes): both ends must be it.
            e = dict(e, bytes_compulsory_min=e["bytes_compulsory"])
        for k in keys:
            f = sym.get(k)
            if f is None:
                self.nulls["nn-sym:" + k] += 1
                continue
            if (k in ("bytes_compulsory", "bytes_compulsory_min") or k.endswith("_min")) and \
                    e["empty_entry"] and any("runs at least once" in x for x in notes):
                self.nulls["nn-sym:bytes_compulsory skipped (a loop ran 0 times, noted)"] += 1
                continue
            self.formulas[0] += 1
            try:
                v = EVAL(formula_text(f), env)
            except KeyError as x:
                if any(str(x).strip("'") == b.cname for b in self.n.bases if b.kind == "vec"):
                    self.nulls["nn-sym: a vector's size"] += 1
                    continue
                problems.append("%s formula %s = '%s' names an unknown size %s" % (tag, k, f, x))
                continue
            except (ValueError, SyntaxError, ZeroDivisionError) as x:
                if isinstance(x, ZeroDivisionError) and failed_assumption(notes, env):
                    # a group size of 0: the noted 'G > 0' fails here
                    self.nulls["nn-sym: skipped (a noted assumption fails at the sizes)"] += 1
                    continue
                problems.append("%s formula %s = '%s' does not evaluate: %s" % (tag, k, f, x))
                continue
            if v != e[k]:
                why = failed_assumption(notes, env)
                if why:
                    self.nulls["nn-sym: skipped (a noted assumption fails at the sizes)"] += 1
                    continue
                problems.append("%s symbolic.%s = '%s' = %s at %s, brute force %s" % (
                    tag, k, f, v, ",".join("%s=%d" % kv for kv in sorted(self.sizes.items())), e[k]))


ASSUME_RE = re.compile(r"assum\w*\s+(?:[^:]*:\s*)?(.*?)\s*(>=|<=|>|<|==)\s*(-?\d+)\b")


def failed_assumption(notes, env):
    """A note 'assumes X >= c' (or divisibility) that is false at the sizes."""
    for n in notes:
        for m in ASSUME_RE.finditer(n):
            try:
                v = EVAL(formula_text(m.group(1)), env)
            except Exception:
                continue
            if not OPS[m.group(2)](v, int(m.group(3))):
                return n
        # "assumes G divides M": a group count M/G (docs/design.md)
        m = re.search(r"assumes\s+([A-Za-z_][\w.>-]*)\s+divides\s+([A-Za-z_][\w.>*-]*)", n)
        if m:
            try:
                d = EVAL(formula_text(m.group(1)), env)
                v = EVAL(formula_text(m.group(2)), env)
            except Exception:
                d = v = None
            if d is not None and (d == 0 or v % d):
                return n
        m = re.search(r"([A-Za-z_][\w.>-]*)\s+(?:is\s+)?(?:divisible by|a multiple of)\s+(\d+)", n)
        if m:
            try:
                v = EVAL(formula_text(m.group(1)), env)
            except Exception:
                continue
            if v % int(m.group(2)):
                return n
    return None


# --- The driver ------------------------------------------------------------------

def select_forms(only, force):
    forms = dict(FORMS)
    if only:
        names = [x for x in only.split(",") if x]
        bad = [x for x in names if x not in FORMS]
        if bad:
            raise SystemExit("unknown --nn-forms: %s (known: %s)" % (", ".join(bad), ", ".join(FORMS)))
        forms = {f: (p if f in names else 0.0) for f, p in forms.items()}
    if force:
        names = [x for x in force.split(",") if x]
        bad = [x for x in names if x not in FORMS]
        if bad:
            raise SystemExit("unknown --nn-force: %s" % ", ".join(bad))
        for f in names:
            forms[f] = 1.0
    return forms


class Result:
    def __init__(self):
        self.done = 0
        self.failures = []  # (nest, sizes, [problems])
        self.refused = []   # (nest, sizes, reason)
        self.musts = Counter()  # no exact count exists: reason -> nests
        self.nulls = Counter()
        self.formulas = [0]
        self.outcome = {}   # nest name -> 'exact' | 'refused' | 'mismatch' | 'no-exact-count'
        self.by_form = {}   # feature -> Counter of outcomes
        self.gen_forms = Counter()
        self.tool_errors = []


def run_tool_json(tool, path, extra):
    import json
    import subprocess
    cmd = [tool, "--format=json", "--no-source"] + extra + [path]
    p = subprocess.run(cmd, capture_output=True, text=True)
    try:
        return json.loads(p.stdout), None
    except ValueError:
        lines = p.stderr.strip().splitlines()
        frame = next((re.sub(r"^\s*#\d+\s+0x[0-9a-f]+\s+", "", x).split(" (")[0]
                      for x in lines if "roofline::" in x), None)
        if frame:
            return None, "exit %d, crashed in %s" % (p.returncode, frame)
        return None, "exit %d: %s" % (p.returncode, lines[-1] if lines else "no output")


def batch_params(rng, nests, sizes, scoped_sizes):
    """--param arguments of the param run, and each nest's flag values. With
    scoped_sizes the global sizes are off by one and every nest gets its own
    (--param nest:N=...), which must win."""
    def size_args(prefix, off):
        out = ["--param=%s%s=%d" % (prefix, s, sizes[s] + off) for s in BASE_SIZES]
        if any(n.field_sizes for n in nests):
            for s in BASE_SIZES:
                if style == "field":
                    out.append("--param=%s%s=%d" % (prefix, FIELD[s], sizes[s] + off))
                else:
                    out.append("--param=%scfg.%s=%d" % (prefix, FIELD[s], sizes[s] + off))
                    out.append("--param=%sp->%s=%d" % (prefix, FIELD[s], sizes[s] + off))
        return out
    style = rng.choice(["field", "qualified"])
    if scoped_sizes:
        args = size_args("", 1)
        for n in nests:
            args += size_args(n.name + ":", 0)
            n.feats["param-scoped-sizes"] += 1
    else:
        args = size_args("", 0)
    scoped = rng.random() < 0.5
    glob = {}
    cases = {}
    rt_args = []
    for n in nests:
        case = {}
        for name, kind in n.flags:
            pick = ((lambda: rng.choice(SWITCH_VALUES)) if kind == "switch"
                    else (lambda: rng.random() < 0.5))
            if scoped:
                v = pick()
                args.append("--param=%s:%s=%d" % (n.name, name, v))
            else:
                if name not in glob:
                    glob[name] = pick()
                    args.append("--param=%s=%d" % (name, glob[name]))
                v = glob[name]
            case[name] = v
        cases[n.name] = case
        env = n.size_env(sizes)
        for name in sorted(n.runtime):  # sizes computed at run time
            rt_args.append("--param=%s:%s=%d" % (n.name, name, env[name]))
        for b in n.bases:  # a vector's length (range-for over it), by function
            if b.kind == "vec" and b.len_sz is not None:
                args.append("--param=%s:%s.size()=%d" % (n.name, b.cname,
                                                          b.len_sz.value(n.size_env(sizes))))
    return args + rt_args, cases, rt_args


def run(args, count, tmp, index_by_function, inject=False):
    """count NN nests in batches; returns a Result."""
    import os
    res = Result()
    rng = random.Random("nn-%d" % args.seed)
    forms = select_forms(args.nn_forms, args.nn_force)
    idx = 0
    batchno = 0
    while res.done < count:
        k = min(args.nn_batch, count - res.done)
        if rng.random() < 0.85:
            sizes = {p: rng.randint(2, args.nn_max_size) for p in BASE_SIZES}
        else:
            sizes = {p: rng.randint(0, args.nn_max_size + 1) for p in BASE_SIZES}
        nests = []
        tries = 0
        while len(nests) < k:
            tries += 1
            n = generate(rng, "nn%d" % idx, forms)
            idx += 1
            if n is None or not finalize(n, sizes):
                continue
            nests.append(n)
        pargs, cases, rt_args = batch_params(rng, nests, sizes,
                                             rng.random() < args.nn_scoped_sizes)
        paths = {}
        for mode in ("const", "sym"):
            paths[mode] = os.path.join(tmp, "nn%d-%s.cpp" % (batchno, mode))
            with open(paths[mode], "w") as fh:
                fh.write(file_cpp(nests, mode, sizes))
        runs = [("const", paths["const"], rt_args), ("param", paths["sym"], pargs),
                ("sym", paths["sym"], [])]
        reports = {}
        for tag, path, extra in runs:
            rep, err = run_tool_json(args.tool, path, extra)
            if rep is None:
                res.tool_errors.append("%s batch %d: %s" % (tag, batchno, err))
                rep = one_by_one(args.tool, nests, tag, sizes, pargs, tmp, res)
            nmap, smap = index_by_function(rep)
            for fn in list(smap):
                # a refusal per case named 'f [case]' (nests carry "case"):
                # still a refusal of f, counted under its own key
                m = re.match(r"^(\S+) \[(.*)\]$", fn)
                if m:
                    smap.setdefault(m.group(1), []).extend(
                        "[%s] %s" % (m.group(2), x) for x in smap.pop(fn))
                    res.nulls["nn-%s: refusal named 'function [case]'" % tag] += 1
            reports[tag] = (nmap, smap)
        for n in nests:
            chk = Checker(n, sizes, cases[n.name], res.nulls, res.formulas)
            if inject:
                chk.inject = True
            problems = []
            refusal = None
            for tag, _, _ in runs:
                nmap, smap = reports[tag]
                got = nmap.get(n.name, [])
                skipped = smap.get(n.name, [])
                if tag == "sym" and skipped and not got:
                    res.nulls["nn-sym: no formula for the nest (refused)"] += 1
                    continue
                r = chk.check(tag, got, skipped, problems)
                if r and tag != "sym" and refusal is None:
                    refusal = "%s: %s" % (tag, r)
            if problems:
                outcome = "mismatch"
                res.failures.append((n, sizes, problems))
            elif refusal:
                outcome = "refused"
            elif chk.musts:
                outcome = "no-exact-count"
            elif chk.row_gathers:
                outcome = "bytes-range"
            elif chk.exit_ranges:
                outcome = "exit-range"
            else:
                outcome = "exact"
            if chk.musts:
                res.musts[chk.musts[0]] += 1
            if refusal:
                res.refused.append((n, sizes, refusal))
            res.outcome[n.name] = outcome
            for f in set(n.feats):
                res.by_form.setdefault(f, Counter())[outcome] += 1
            for f in n.gen_on:
                res.gen_forms[f] += 1
        res.done += k
        batchno += 1
    return res


def one_by_one(tool, nests, tag, sizes, pargs, tmp, res):
    """After a run produced no report: each nest alone, so one crash does not
    hide the others; a crashing nest gets a 'tool error' refusal-free problem."""
    import os
    mode = "const" if tag == "const" else "sym"
    out = {"nests": [], "skipped": []}
    for n in nests:
        path = os.path.join(tmp, "one-%s-%s.cpp" % (n.name, mode))
        with open(path, "w") as fh:
            fh.write(file_cpp([n], mode, sizes))
        rep, err = run_tool_json(tool, path, pargs if tag == "param" else [])
        if rep is None:
            out["nests"].append({"function": n.name, "tool_error": err})
            continue
        out["nests"] += rep.get("nests", [])
        out["skipped"] += rep.get("skipped", [])
    return out


def summary(res, elapsed, show=30):
    """The NN section of the report (lines)."""
    L = []
    exact = sum(1 for v in res.outcome.values() if v == "exact")
    refused = sum(1 for v in res.outcome.values() if v == "refused")
    noexact = sum(1 for v in res.outcome.values() if v == "no-exact-count")
    ranged = sum(1 for v in res.outcome.values() if v == "bytes-range")
    exits = sum(1 for v in res.outcome.values() if v == "exit-range")
    L.append("NN idioms: nests: %d   exact: %d   bytes range (row gathers, both ends "
             "checked): %d   early-exit range (both ends checked): %d   refused: %d   "
             "no exact count, not claimed: %d   mismatching: %d   formulas checked: %d" % (
                 res.done, exact, ranged, exits, refused, noexact, len(res.failures),
                 res.formulas[0]))
    if res.tool_errors:
        L.append("roofline-lint gave no JSON on %d batch run(s) (each nest then run alone):" % len(res.tool_errors))
        for e in res.tool_errors[:10]:
            L.append("  " + e)
    L.append("forms drawn (nests with the form switched on; a form may still not appear):")
    L.append("  " + ", ".join("%s %d" % (f, res.gen_forms[f]) for f in FORMS))
    L.append("outcome by construct (nests containing it: exact / refused / mismatching / no exact count"
             " / bytes range / early-exit range):")
    for f in sorted(res.by_form):
        c = res.by_form[f]
        L.append("  %-24s %5d  %5d / %5d / %5d / %5d / %5d / %5d" % (
            f, sum(c.values()), c["exact"], c["refused"], c["mismatch"], c["no-exact-count"],
            c["bytes-range"], c["exit-range"]))
    if res.failures:
        cls = Counter()
        for _, _, probs in res.failures:
            seen = set()
            for p in probs:
                seen.add(problem_class(p))
            cls.update(seen)
        L.append("mismatching nests by what differs:")
        for k, v in cls.most_common():
            L.append("  %5d  %s" % (v, k))
    if res.musts:
        L.append("nests with no exact count (the tool must refuse them or leave the bytes null):")
        for k, v in res.musts.most_common():
            L.append("  %5d  %s" % (v, k))
    if res.refused:
        L.append("refusals by reason (first refusing run per nest; names and numbers elided):")
        reasons = Counter(norm_reason(r) for _, _, r in res.refused)
        for r, c in reasons.most_common():
            L.append("  %5d  %s" % (c, r))
    if res.nulls:
        L.append("NN counts left null or not compared, by key:")
        for k in sorted(res.nulls):
            L.append("  %-60s %d" % (k, res.nulls[k]))
    # Examples: the two shortest nests of each kind of difference first.
    order = []
    by_cls = {}
    for f in res.failures:
        for c in sorted({problem_class(p) for p in f[2]}):
            by_cls.setdefault(c, []).append(f)
    for c in sorted(by_cls):
        for f in sorted(by_cls[c], key=lambda f: len(f[0].cpp("sym")))[:2]:
            if f not in order:
                order.append(f)
    order += [f for f in res.failures if f not in order]
    for n, sizes, probs in order[:show]:
        L.append("MISMATCH %s at %s (%s):" % (n.name, ",".join("%s=%d" % kv for kv in sorted(sizes.items())),
                                             " ".join(sorted(n.feats))))
        for p in probs[:12]:
            L.append("    " + p)
        L.append("    nest:\n" + "\n".join("      " + x for x in n.cpp("sym").splitlines()))
    if len(res.failures) > show:
        L.append("(%d more mismatching nests not shown)" % (len(res.failures) - show))
    return L


def problem_class(p):
    """'const[relu] counts.flops = 3, brute force 4' -> 'counts.flops'."""
    p = re.sub(r"^(const|param|sym)(\[[^\]]*\])?:?\s*", "", p)
    m = re.match(r"(arrays)\[[^\]]*\](\.\w+)", p)
    if m:
        return m.group(1) + m.group(2)
    m = re.match(r"(counts\.\w+|bytes\.\w+|symbolic\.\w+|loops)", p)
    if m:
        return m.group(1)
    m = re.match(r"array \S+ (missing|is not an array the nest touches)", p)
    if m:
        return "array … " + m.group(1)
    m = re.match(r"(formula \w+)", p)
    if m:
        return m.group(1) + " (does not evaluate)"
    return norm_reason(p)[:90]


# --- The oracle's own check: hand-counted nests --------------------------------

def _loop(lid, iv, bound, body, start=("n", 0), op="<", step=1):
    L = Loop(lid, iv, start, op, bound, step, None)
    L.body = body
    return ("for", L)


def _nest(name, bases, stmts, flags=()):
    n = NNNest(name)
    n.pre = Level(None, None)
    n.pre.stmts = stmts
    for cname, kind in bases:
        n.bases.append(Base(cname, kind, "f32"))
    n.flags = list(flags)
    for b in n.bases:
        if (b.cname, "ptr") in n.flags:
            b.nullable = True
    mark_leaves(stmts)
    n.sites = Sites(n)
    return n


def self_check():
    """Nests counted by hand (sizes N=2, M=3, K=4) against expected()."""
    V, Nn = (lambda x: ("v", x)), (lambda x: ("n", x))
    ld = lambda p, i: ("ld", ("base", p), i)
    f = "f32"
    sizes = {"N": 2, "M": 3, "K": 4}
    cases = []
    # 1. x = A + b*M*K + t*K; s += x[i]: A's rows, not x's (issue 18's bug)
    n = _nest("rowptr", [("A", "ptr"), ("O", "ptr")], [_loop(1, "b", V("N"), [_loop(2, "t", V("M"), [
        ("dptr", "x", f, ("add", ("base", "A"), ("+", ("*", ("*", V("b"), V("M")), V("K")), ("*", V("t"), V("K"))))),
        ("ds", "s", f, ("lit", "0.0f")),
        _loop(3, "i", V("K"), [("asg", ("s", "s"), "+=", ld("x", V("i")), f)]),
        ("asg", ld("O", ("+", ("*", V("b"), V("M")), V("t"))), "=", ("s", "s"), f)])])])
    cases.append((n, {}, {"iterations": 24, "flops": 24, "macs": 0, "loads": 24, "stores": 6,
                          "bytes_compulsory": 4 * (24 + 6)}))
    # 2. overlapping rows: x[t*2 + k], k < 3: 7 distinct addresses, not 2*3 + ...
    n = _nest("window", [("X", "ptr")], [_loop(1, "t", Nn(3), [_loop(2, "k", Nn(3), [
        ("ds", "s", f, ld("X", ("+", ("*", V("t"), Nn(2)), V("k"))))])])])
    cases.append((n, {}, {"bytes_compulsory": 4 * 7, "loads": 9}))
    # 3. online max: cmp every time, 0..3 FLOPs in the branch
    n = _nest("online", [("A", "ptr")], [("ds", "m", f, ("lit", "-1e30f")), ("ds", "s", f, ("lit", "0.0f")),
                                         _loop(1, "i", V("K"), [
        ("if", "data", ("cmp", ">", ld("A", V("i")), ("s", "m"), f),
         [("asg", ("s", "s"), "*=", ("m", "expf", [("b", "-", ("s", "m"), ld("A", V("i")), f)], f), f),
          ("asg", ("s", "m"), "=", ld("A", V("i")), f)], [])])])
    cases.append((n, {}, {"flops": 16, "flops_min": 4, "bytes_compulsory": 16}))
    # 3b. if (A > 0) A = A * 0.25f; else A = A + A * 3.0f: a multiply or a MAC.
    # Per operation kind (--nn-range ops) the range is cmp + 0..(mul + MAC) =
    # 1..4 per execution; per total (--nn-range totals) 1 + (1..2) = 2..3.
    el = lambda: ld("A", V("i"))
    n = _nest("branch", [("A", "ptr")], [_loop(1, "i", V("K"), [
        ("if", "data", ("cmp", ">", el(), ("lit", "0.0f"), f),
         [("asg", el(), "=", ("b", "*", el(), ("lit", "0.25f"), f), f)],
         [("asg", el(), "=", ("b", "+", el(), ("b", "*", el(), ("lit", "3.0f"), f), f), f)])])])
    cases.append((n, {}, {"flops": 16, "flops_min": 4, "macs": 4, "macs_min": 0} if RANGE[0] == "ops"
                  else {"flops": 12, "flops_min": 8, "macs": 4, "macs_min": 0}))
    # 4. folding: A*2*3 + (2*3) is a MAC and a multiply; A * HALF one multiply
    n = _nest("fold", [("A", "ptr"), ("B", "ptr")], [_loop(1, "i", V("K"), [
        ("asg", ld("B", V("i")), "=", ("b", "+", ("b", "*", ("b", "*", ld("A", V("i")), ("lit", "2.0f"), f),
                                                  ("lit", "3.0f"), f),
                                        ("b", "*", ("lit", "2.0f"), ("lit", "3.0f"), f), f), f),
        ("asg", ld("B", V("i")), "+=", ("b", "*", ld("A", V("i")), ("c", "HALF"), f), f),
        ("asg", ld("B", V("i")), "+=", ("b", "*", ("c", "HALF"), ("lit", "2.0f"), f), f)])])
    cases.append((n, {}, {"macs": 8, "flops": 4 * (3 + 2 + 1)}))
    # 5. a null check: the bias only in its case
    st = [_loop(1, "o", V("M"), [("ds", "s", f, ("lit", "0.0f")),
                                 ("if", "inv", ("nn", "bias", "bias != NULL"),
                                  [("asg", ("s", "s"), "+=", ld("bias", V("o")), f)], []),
                                 ("asg", ld("Y", V("o")), "=", ("s", "s"), f)])]
    n = _nest("bias", [("bias", "ptr"), ("Y", "ptr")], st, [("bias", "ptr")])
    cases.append((n, {"bias": True}, {"flops": 3, "bytes_compulsory": 24}))
    cases.append((n, {"bias": False}, {"flops": 0, "bytes_compulsory": 12}))
    # 6. C[i] += A[j] in loop j: C moves once per entry of j
    n = _nest("hoist", [("A", "ptr"), ("C", "ptr")], [_loop(1, "i", V("N"), [_loop(2, "j", V("M"), [
        ("asg", ld("C", V("i")), "+=", ld("A", V("j")), f)])])])
    cases.append((n, {}, {"loads": 2 + 6, "stores": 2, "bytes_compulsory": 4 * (3 + 2 + 2)}))
    # 7. p += M at the end of loop i: rows of A
    n = _nest("pinc", [("A", "ptr")], [("dptr", "p", f, ("base", "A")), _loop(1, "i", V("N"), [
        ("ds", "s", f, ("lit", "0.0f")),
        _loop(2, "j", V("M"), [("asg", ("s", "s"), "+=", ld("p", V("j")), f)]),
        ("pinc", "p", V("M"))])])
    cases.append((n, {}, {"bytes_compulsory": 4 * 6, "loads": 6}))
    # 8. w = W + ix*K with ix loaded: a gather, no exact count
    n = _nest("gather", [("I", "ptr"), ("W", "ptr")], [_loop(1, "b", V("N"), [
        ("dintd", "ix", ld("I", V("b"))),
        ("dptr", "w", f, ("add", ("base", "W"), ("*", V("ix"), V("K")))),
        _loop(2, "i", V("K"), [("ds", "s", f, ld("w", V("i")))])])])
    cases.append((n, {}, {"refuse": True}))
    ok = 0
    for n, case, want in cases:
        e = expected(n, sizes, case, "sym")
        bad = [k for k in want if (("refuse" not in e) if k == "refuse" else e.get(k) != want[k])]
        if bad:
            print("oracle self-check: %s %s: %s" % (n.name, case, ", ".join(
                "%s = %s, by hand %s" % (k, e.get(k), want[k]) for k in bad)))
        else:
            ok += 1
    print("oracle self-check: %d of %d cases agree" % (ok, len(cases)))
    return ok == len(cases)


# --- The oracle's footprints against the nests compiled and run ----------------

NATIVE_RUNTIME = r"""
#include <cstdint>
#include <cstdio>
#include <cstring>
#include <unordered_map>
#include <unordered_set>
struct Range { const char *name; uintptr_t lo, hi; unsigned esize; };
static Range Ranges[16];
static int NRanges = 0;
static std::unordered_map<uint64_t, int> First;  // (range << 40 | element) -> 0 read, 1 write
static std::unordered_set<uint64_t> Written;
static bool Tracing = false;
void rl_trace(bool on) { Tracing = on; }
static void note(const void *p, unsigned size, int kind) {
  if (!Tracing) return;
  uintptr_t a = (uintptr_t)p;
  for (int r = 0; r < NRanges; ++r) {
    if (a >= Ranges[r].lo && a < Ranges[r].hi) {
      uint64_t e = ((uint64_t)r << 40) | ((a - Ranges[r].lo) / Ranges[r].esize);
      First.emplace(e, kind);
      if (kind) Written.insert(e);
      return;
    }
  }
}
extern "C" {
void __sanitizer_cov_load1(uint8_t *p) { note(p, 1, 0); }
void __sanitizer_cov_load2(uint16_t *p) { note(p, 2, 0); }
void __sanitizer_cov_load4(uint32_t *p) { note(p, 4, 0); }
void __sanitizer_cov_load8(uint64_t *p) { note(p, 8, 0); }
void __sanitizer_cov_load16(__int128 *p) { note(p, 16, 0); }
void __sanitizer_cov_store1(uint8_t *p) { note(p, 1, 1); }
void __sanitizer_cov_store2(uint16_t *p) { note(p, 2, 1); }
void __sanitizer_cov_store4(uint32_t *p) { note(p, 4, 1); }
void __sanitizer_cov_store8(uint64_t *p) { note(p, 8, 1); }
void __sanitizer_cov_store16(__int128 *p) { note(p, 16, 1); }
void __sanitizer_cov_trace_pc_guard_init(uint32_t *, uint32_t *) {}
void __sanitizer_cov_trace_pc_guard(uint32_t *) {}
}
void rl_begin() { NRanges = 0; First.clear(); Written.clear(); }
void rl_range(const char *name, const void *p, size_t bytes, unsigned esize) {
  Ranges[NRanges++] = {name, (uintptr_t)p, (uintptr_t)p + bytes, esize};
}
void rl_end(const char *nest) {
  Tracing = false;
  for (int r = 0; r < NRanges; ++r) {
    long rd = 0, wr = 0;
    for (auto &kv : First)
      if ((int)(kv.first >> 40) == r && kv.second == 0) ++rd;
    for (auto e : Written)
      if ((int)(e >> 40) == r) ++wr;
    if (rd || wr) printf("%s %s %ld %ld\n", nest, Ranges[r].name, rd, wr);
  }
}
"""

NATIVE_ELEMS = 1 << 15


def native_driver(nests, cases, sizes):
    """main() calling every nest of the const-mode file with fresh buffers."""
    out = ["#include <vector>", "#include <array>", "#include <cstdlib>",
           "void rl_begin(); void rl_range(const char *, const void *, size_t, unsigned);",
           "void rl_end(const char *); void rl_trace(bool);",
           # int data 0: an index a point gather loads stays in a row of
           # any stride, as the tool's count assumes (0 <= ix < R)
           "template <class T> void fill(T *p, size_t n, bool idx) {",
           "  for (size_t i = 0; i < n; ++i) p[i] = idx ? (T)0 : (T)((rand() % 4001 - 2000) / 1000.0);",
           "}", "int main() {", "  srand(1);"]
    for n in nests:
        case = cases[n.name]
        out.append("  {")
        out.append("    rl_begin();")
        args = []
        for b in n.bases:
            ct = FT_C[b.ty]
            idx = "true" if b.ty == "i32" else "false"
            if b.kind == "ptr":
                out.append("    static %s buf_%s[%d]; fill(buf_%s, %d, %s);" % (ct, b.cname, NATIVE_ELEMS, b.cname, NATIVE_ELEMS, idx))
                out.append('    rl_range("%s", buf_%s, sizeof buf_%s, sizeof(%s));' % (b.cname, b.cname, b.cname, ct))
                null = b.nullable and not case.get(b.cname, True)
                if n.wrapped.get(b.cname) == "Buf":
                    out.append("    Buf<%s> w_%s{buf_%s};" % (ct, b.cname, b.cname))
                elif b.cname in n.wrapped:  # shared, not owned: the buffer is static
                    out.append("    OBuf<%s> w_%s{std::shared_ptr<%s[]>(buf_%s, [](%s *) {})};" % (
                        ct, b.cname, ct, b.cname, ct))
                args.append("nullptr" if null else
                            ("w_%s" if b.cname in n.wrapped else "buf_%s") % b.cname)
            elif b.kind == "vec":
                ln = b.len_sz.value(sizes) if b.len_sz is not None else NATIVE_ELEMS
                out.append("    std::vector<%s> %s(%d); fill(%s.data(), %d, %s);" % (ct, b.cname, ln, b.cname, ln, idx))
                out.append('    rl_range("%s", %s.data(), %d * sizeof(%s), sizeof(%s));' % (b.cname, b.cname, ln, ct, ct))
                args.append(b.cname)
            elif b.kind == "arr":
                out.append("    static std::array<%s, %d> %s; fill(%s.data(), %d, %s);" % (ct, b.length, b.cname, b.cname, b.length, idx))
                out.append('    rl_range("%s", %s.data(), sizeof %s, sizeof(%s));' % (b.cname, b.cname, b.cname, ct))
                args.append(b.cname)
            elif b.kind == "g2" and b.jagged:
                # rows of their own: one block behind the row pointers, traced
                # as the array (the row pointers are not its elements)
                out.append("    static %s rows_%s[%d][%d]; fill(&rows_%s[0][0], %d, %s);" % (
                    ct, b.cname, b.rows, b.cols, b.cname, b.rows * b.cols, idx))
                out.append("    for (int r = 0; r < %d; ++r) %s[r] = rows_%s[r];" % (
                    b.rows, b.cname, b.cname))
                out.append('    rl_range("%s", rows_%s, sizeof rows_%s, sizeof(%s));' % (
                    b.cname, b.cname, b.cname, ct))
            else:
                out.append('    rl_range("%s", &%s, sizeof %s, sizeof(%s));' % (b.cname, b.cname, b.cname, ct))
        for name, kind in n.flags:
            if kind == "int":
                args.append("1" if case[name] else "0")
            elif kind == "switch":
                args.append(str(case[name]))
        if n.field_ptrs:
            out.append("    %s_State st_%s = {};" % (n.name, n.name))
            args.append("&st_%s" % n.name)
        out.append("    rl_trace(true);")
        out.append("    %s(%s);" % (n.name, ", ".join(args)))
        out.append('    rl_end("%s");' % n.name)
        out.append("  }")
    out.append("}")
    return "\n".join(out) + "\n"


def native_check(count, seed, clang="clang++-19"):
    """Compiles count generated nests (sizes constexpr) with clang's load and
    store tracing, runs them on random data and compares every array's
    distinct elements read first and written with the oracle's."""
    import os
    import subprocess
    import tempfile
    rng = random.Random("native-%d" % seed)
    tmp = tempfile.mkdtemp(prefix="differential-native-")
    rt = os.path.join(tmp, "rt.cpp")
    with open(rt, "w") as fh:
        fh.write(NATIVE_RUNTIME)
    subprocess.run([clang, "-O0", "-c", rt, "-o", rt + ".o"], check=True)
    done = bad = skipped = compared = 0
    idx = 0
    batch = 0
    while done < count:
        k = min(60, count - done)
        sizes = {p: rng.randint(1, 5) for p in BASE_SIZES}
        nests = []
        while len(nests) < k:
            n = generate(rng, "nv%d" % idx, FORMS)
            idx += 1
            if n is not None and finalize(n, sizes):
                nests.append(n)
        cases = {n.name: {f: (rng.choice(SWITCH_VALUES) if k == "switch" else rng.random() < 0.5)
                          for f, k in n.flags} for n in nests}
        src = os.path.join(tmp, "b%d.cpp" % batch)
        with open(src, "w") as fh:
            fh.write(file_cpp(nests, "const", sizes, native=True))
            fh.write(native_driver(nests, cases, sizes))
        exe = src + ".exe"
        p = subprocess.run([clang, "-std=c++17", "-O0", "-w",
                            "-fsanitize-coverage=edge,trace-loads,trace-stores",
                            src, rt + ".o", "-o", exe], capture_output=True, text=True)
        if p.returncode:
            print("native: compile error in batch %d:\n%s" % (batch, p.stderr[-3000:]))
            return False
        p = subprocess.run([exe], capture_output=True, text=True)
        if p.returncode:
            print("native: batch %d exited %d" % (batch, p.returncode))
            return False
        got = {}
        for line in p.stdout.splitlines():
            nest, arr, rd, wr = line.split()
            got.setdefault(nest, {})[arr] = (int(rd), int(wr))
        for n in nests:
            e = expected(n, sizes, cases[n.name], "const")
            # A footprint that depends on the indices a point gather loads
            # (rows picked more than once, which the tool refuses) is one
            # count of the drawn indices, not of the native run's.
            drawn_dependent = "refuse" not in e and \
                expected(n, sizes, cases[n.name], "const", gseed=12345)["arrays"] != e["arrays"]
            if "refuse" in e or e.get("native_skip") or drawn_dependent:
                skipped += 1
                continue
            want = {a: (v["elements_read"], v["elements_written"]) for a, v in e["arrays"].items()
                    if v["elements_read"] or v["elements_written"]}
            have = got.get(n.name, {})
            compared += 1
            if want != have:
                bad += 1
                print("native: %s at %s case %s: oracle %s, native %s\n%s" % (
                    n.name, sizes, cases[n.name], want, have, n.cpp("const")))
        done += k
        batch += 1
    print("native footprint check: %d nests, %d compared, %d differ, %d with no exact count skipped"
          " (or an index array the nest writes, or a footprint of the gathered indices drawn)"
          % (done, compared, bad, skipped))
    return bad == 0


if __name__ == "__main__":
    import sys
    if sys.argv[1:] == ["--self-check"]:
        sys.exit(0 if self_check() else 1)
    if sys.argv[1:2] == ["--native-check"]:
        sys.exit(0 if native_check(int(sys.argv[2]), int(sys.argv[3])) else 1)
    sys.exit("usage: differential_nn.py --self-check | --native-check COUNT SEED "
             "(the generator runs from differential.py)")
