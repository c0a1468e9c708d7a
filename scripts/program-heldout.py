#!/usr/bin/env python3
"""program-heldout.py: the --entry pass's FLOPs per token on two real
inference programs, against a counting-float run of the same forward pass
(issue 19, "Done when"; docs/network-report.md, results in
docs/results/program-heldout.txt).

  program-heldout.py --tool build/bin/roofline-lint --work DIR \\
      [--gpt2 train_gpt2.c --gpt2-sizes gpt2.yaml] [--llama2 run.c]

The programs are not in this repository (karpathy/llm.c train_gpt2.c,
karpathy/llama2.c run.c); give their paths.

The run: a copy of the program with every line outside its type
definitions and the forward pass's functions blanked (line numbers kept),
an OracleScope at the top of every function body (program-oracle.py's
instrument), compiled as C++ -O2 with scripts/nn-oracle/oracle.h's counting
float (every + - * / and compare on a float, every math call: the FLOPs the
tool counts, docs/counting.md) and a driver written here that sets the
model's sizes, allocates its buffers (deterministic values) and calls the
entry once. The driver's runtime keeps only FLOPs per innermost function:
no load/store tracing, so a full-size model runs in seconds.

The tool: roofline-lint --format=json --entry=ENTRY with the same sizes.

Compared: the pass's FLOPs (and per token: / T for GPT-2's B=1 x T tokens,
one token for llama2's forward at one position) within 1%, every function's
FLOPs, and the function with the largest share (of the tool's time floor,
and of the FLOPs in both). Exits 1 when a check fails.
"""
import argparse
import importlib.util
import json
import os
import re
import subprocess
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
_spec = importlib.util.spec_from_file_location(
    "program_oracle", os.path.join(HERE, "program-oracle.py"))
po = importlib.util.module_from_spec(_spec)
_spec.loader.exec_module(po)

RUNTIME = r'''
#undef float // oracle.h's: the runtime's own headers keep theirs
#include <map>
#include <string>
#include <vector>
// FLOPs per innermost function execution's name (OracleScope), nothing else.
static unsigned long long OracleSink;
static unsigned long long *OracleTop = &OracleSink;
static std::vector<unsigned long long *> OracleStack;
static std::map<std::string, unsigned long long> OracleByFn;
extern "C" {
void oracle_flops(int N) { *OracleTop += N; }
void oracle_enter(const char *F) {
  OracleStack.push_back(OracleTop);
  OracleTop = &OracleByFn[F];
}
void oracle_exit(void) {
  OracleTop = OracleStack.back();
  OracleStack.pop_back();
}
void oracle_register(const char *, const void *, size_t, size_t, size_t) {}
void oracle_unregister(const void *) {}
void oracle_param(const char *, long) {}
void oracle_call_begin(const char *, const char *, void *) {}
void oracle_call_end(void) {}
}
static void oracle_reset() { OracleByFn.clear(); OracleSink = 0; }
static void oracle_report() {
  for (auto &[F, N] : OracleByFn)
    printf("fn %s %llu\n", F.c_str(), N);
}
#define float Counted
'''

GPT2_DRIVER = r'''
#include "%(kernel)s"
int main() {
  static GPT2 model;
  model.config.max_seq_len = %(max_seq_len)d;
  model.config.vocab_size = %(vocab_size)d;
  model.config.padded_vocab_size = %(padded_vocab_size)d;
  model.config.num_layers = %(num_layers)d;
  model.config.num_heads = %(num_heads)d;
  model.config.channels = %(channels)d;
  fill_in_parameter_sizes(model.param_sizes, model.config);
  size_t n = 0;
  for (int i = 0; i < NUM_PARAMETER_TENSORS; i++)
    n += model.param_sizes[i];
  model.num_parameters = n;
  model.params_memory =
      malloc_and_point_parameters(&model.params, model.param_sizes);
  for (size_t i = 0; i < n; i++)
    model.params_memory[i].V = 0.02 * (double)((i * 2654435761u) %% 101) / 101 - 0.01;
  model.acts_memory = NULL;
  model.grads_memory = NULL;
  model.m_memory = NULL;
  model.v_memory = NULL;
  model.grads_acts_memory = NULL;
  model.inputs = NULL;
  model.targets = NULL;
  model.batch_size = 0;
  model.seq_len = 0;
  model.mean_loss = -1;
  const int B = %(B)d, T = %(T)d;
  static int inputs[B * T];
  for (int i = 0; i < B * T; i++)
    inputs[i] = (i * 7919) %% %(vocab_size)d;
  oracle_reset();
  gpt2_forward(&model, inputs, NULL, B, T);
  oracle_report();
}
'''

LLAMA2_DRIVER = r'''
#include "%(kernel)s"
#include <vector>
int main() {
  static Transformer t;
  Config *p = &t.config;
  p->dim = %(dim)d;
  p->hidden_dim = %(hidden_dim)d;
  p->n_layers = %(n_layers)d;
  p->n_heads = %(n_heads)d;
  p->n_kv_heads = %(n_kv_heads)d;
  p->vocab_size = %(vocab_size)d;
  p->seq_len = %(seq_len)d;
  size_t hs = p->dim / p->n_heads, kv_dim = p->dim * p->n_kv_heads / p->n_heads;
  size_t L = p->n_layers, dim = p->dim, hid = p->hidden_dim;
  size_t nw = p->vocab_size * dim + 2 * L * dim + L * dim * dim * 2 +
              2 * L * dim * kv_dim + 3 * L * dim * hid + dim + p->seq_len * hs;
  static std::vector<Counted> weights(nw);
  for (size_t i = 0; i < nw; i++)
    weights[i].V = 0.02 * (double)((i * 2654435761u) %% 101) / 101 - 0.01;
  memory_map_weights(&t.weights, p, weights.data(), 1);
  RunState *s = &t.state;
  auto buf = [](size_t n) {
    Counted *b = new Counted[n];
    for (size_t i = 0; i < n; i++)
      b[i].V = 0.001 * (double)(i %% 17);
    return b;
  };
  s->x = buf(dim); s->xb = buf(dim); s->xb2 = buf(dim);
  s->hb = buf(hid); s->hb2 = buf(hid); s->q = buf(dim);
  s->key_cache = buf(L * p->seq_len * kv_dim);
  s->value_cache = buf(L * p->seq_len * kv_dim);
  s->att = buf(p->n_heads * p->seq_len);
  s->logits = buf(p->vocab_size);
  oracle_reset();
  forward(&t, %(token)d, %(pos)d);
  oracle_report();
}
'''


def run(cmd, **kw):
    r = subprocess.run(cmd, capture_output=True, text=True, **kw)
    if r.returncode != 0:
        sys.exit("program-heldout: %s failed (%d):\n%s" % (
            " ".join(cmd), r.returncode, r.stderr[-4000:]))
    return r.stdout


def function_span(lines, name):
    """(first, last) 1-based lines of the definition of NAME: its first line
    starts with a type and names it, its last is the first '}' in column 1
    after it."""
    pat = re.compile(r"^[A-Za-z_].*\b%s\s*\(" % re.escape(name))
    for i, l in enumerate(lines):
        if pat.match(l) and not l.rstrip().endswith(";"):
            for j in range(i, len(lines)):
                if lines[j].startswith("}"):
                    return i + 1, j + 1
    sys.exit("program-heldout: no definition of %s" % name)


def counted_copy(src, work, keep_until, blank, blank_includes=()):
    """SRC with every line after KEEP_UNTIL's definition, inside the
    definitions named in BLANK, and the #includes of BLANK_INCLUDES emptied,
    an OracleScope in every body."""
    lines = open(src).read().split("\n")
    last = function_span(lines, keep_until)[1]
    spans = [function_span(lines, b) for b in blank]
    out = []
    for n, l in enumerate(lines, 1):
        dead = n > last or any(a <= n <= b for a, b in spans) or \
            any(l.startswith("#include") and h in l for h in blank_includes)
        out.append("" if dead else l)
    path = os.path.join(work, os.path.basename(src) + ".counted.c")
    with open(path, "w") as f:
        f.write(po.instrument("\n".join(out)))
    return path


def counted_run(args, src, driver_text, name, keep_until, blank,
                blank_includes=()):
    work = os.path.join(args.work, name)
    os.makedirs(work, exist_ok=True)
    kernel = counted_copy(src, work, keep_until, blank, blank_includes)
    driver = os.path.join(work, "driver.cpp")
    with open(driver, "w") as f:
        f.write(RUNTIME + driver_text.replace("%(kernel)s", kernel))
    exe = os.path.join(work, "counted")
    run([args.cxx, "-std=c++20", "-O2", "-w", "-include",
         os.path.join(HERE, "nn-oracle", "oracle.h"),
         "-I", os.path.dirname(os.path.abspath(src)), driver, "-o", exe])
    flops = {}
    for line in run([exe], timeout=1800).splitlines():
        if line.startswith("fn "):
            _, fn, n = line.split(" ")
            flops[fn] = int(n)
    return flops


def tool_run(args, src, entry, tool_args):
    cmd = [args.tool, "--format=json", "--quiet", "--entry=" + entry] + \
        tool_args + [src, "--", "-I", os.path.dirname(os.path.abspath(src))]
    r = subprocess.run(cmd, capture_output=True, text=True)
    if r.returncode not in (0, 1):
        sys.exit("program-heldout: %s failed (%d): %s" % (
            " ".join(cmd), r.returncode, r.stderr[-4000:]))
    progs = json.loads(r.stdout).get("programs", [])
    if len(progs) != 1:
        sys.exit("program-heldout: the tool reported %d programs" % len(progs))
    return cmd, progs[0]


def compare(name, cmd, prog, flops, tokens, out):
    """Lines for one program; returns the number of failed checks."""
    failing = 0
    t = prog["totals"]
    run_total = sum(flops.values())
    tool_total = t["flops"]
    ratio = tool_total / run_total if run_total else float("inf")
    ok = abs(ratio - 1) <= 0.01
    failing += not ok
    out.append("%s: %s" % (name, " ".join(cmd)))
    out.append("  pass FLOPs: tool %d, counted run %d, ratio %.6f (%s, within 1%%: %s)" % (
        tool_total, run_total, ratio,
        "complete" if t["complete"] else "incomplete: %d left out" % len(prog["left_out"]),
        "ok" if ok else "FAIL"))
    out.append("  FLOPs per token (%d tokens): tool %.1f, counted run %.1f" % (
        tokens, tool_total / tokens, run_total / tokens))
    if t.get("flops_formula") is not None:
        out.append("  formula: %s" % t["flops_formula"])
    else:
        out.append("  formula: none (%s)" % t.get("flops_formula_why_not"))
    tool_fn = {f["function"]: f for f in prog["functions"]}
    for fn in sorted(set(tool_fn) | set(k for k, v in flops.items() if v)):
        got = tool_fn.get(fn, {}).get("flops", 0)
        want = flops.get(fn, 0)
        same = got == want
        out.append("  %s function %s: tool %d, counted run %d" % (
            "ok" if same else "DIFF", fn, got, want))
    by_time = max(prog["functions"], key=lambda f: f["time_floor_s"])
    by_flops_tool = max(prog["functions"], key=lambda f: f["flops"])["function"]
    by_flops_run = max(flops, key=flops.get)
    named = by_flops_tool == by_flops_run
    failing += not named
    out.append("  largest share: of the tool's time floor %s (%.1f%%); of the FLOPs: tool %s, counted run %s (%s)" % (
        by_time["function"], 100 * by_time["share"], by_flops_tool,
        by_flops_run, "ok" if named else "FAIL"))
    for l in prog["left_out"]:
        out.append("  left out: line %d: %s: %s" % (l["line"], l["path"], l["what"]))
    for n in prog["nests"]:
        if "why_not" in n:
            out.append("  no count: %s line %d: %s" % (n["function"], n["line"], n["why_not"]))
    return failing


def read_sizes(path):
    sizes = {}
    for line in open(path):
        line = line.split("#")[0].strip()
        if line:
            k, v = line.split(":", 1) if line.count(":") == 1 else line.rsplit(":", 1)
            sizes[k.strip().split(".")[-1]] = int(v)
    return sizes


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--tool", required=True)
    ap.add_argument("--work", required=True)
    ap.add_argument("--cxx", default="clang++-19")
    ap.add_argument("--gpt2", help="llm.c's train_gpt2.c")
    ap.add_argument("--gpt2-sizes", help="its sizes file (model->config.*)")
    ap.add_argument("--B", type=int, default=1)
    ap.add_argument("--T", type=int, default=64)
    ap.add_argument("--llama2", help="llama2.c's run.c")
    ap.add_argument("--pos", type=int, default=63)
    args = ap.parse_args()
    out, failing = [], 0
    if args.gpt2:
        sizes = read_sizes(args.gpt2_sizes)
        sizes.update(B=args.B, T=args.T)
        flops = counted_run(args, args.gpt2, GPT2_DRIVER % dict(sizes, kernel="%(kernel)s"),
                            "gpt2", "gpt2_forward",
                            ["gpt2_build_from_checkpoint"],
                            # main's: the forward pass uses neither
                            ["llmc/tokenizer.h", "llmc/dataloader.h"])
        cmd, prog = tool_run(args, args.gpt2, "gpt2_forward",
                             ["--sizes=" + args.gpt2_sizes,
                              "--param=B=%d" % args.B, "--param=T=%d" % args.T,
                              # the driver passes no targets (inference)
                              "--param=gpt2_forward:targets=0"])
        failing += compare("gpt2 (B=%d T=%d)" % (args.B, args.T), cmd, prog,
                           flops, args.B * args.T, out)
    if args.llama2:
        cfg = dict(dim=288, hidden_dim=768, n_layers=6, n_heads=6,
                   n_kv_heads=6, vocab_size=32000, seq_len=256)
        flops = counted_run(args, args.llama2,
                            LLAMA2_DRIVER % dict(cfg, token=1, pos=args.pos,
                                                 kernel="%(kernel)s"),
                            "llama2", "forward",
                            ["malloc_run_state", "free_run_state",
                             "read_checkpoint", "build_transformer",
                             "free_transformer"])
        params = ["--param=%s=%d" % kv for kv in sorted(cfg.items())]
        params += ["--param=forward:pos=%d" % args.pos, "--param=forward:token=1"]
        cmd, prog = tool_run(args, args.llama2, "forward", params)
        failing += compare("llama2 stories15M (pos=%d)" % args.pos, cmd, prog,
                           flops, 1, out)
    print("\n".join(out))
    print("failing: %d" % failing)
    sys.exit(1 if failing else 0)


if __name__ == "__main__":
    main()
