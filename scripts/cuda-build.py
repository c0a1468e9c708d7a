#!/usr/bin/env python3
"""Builds the CUDA variants an `roofline-lint --emit --target=cuda` wrote
(docs/cuda.md) and records what ptxas says about each kernel.

For every unit under each DIR (units.json) and every arch asked for, each
cuda_<variant>.cu is compiled with `nvcc --resource-usage`; per kernel the
script prints one line with its registers, shared memory, stack frame and
spill bytes, and fails (exit 1) when a kernel spills or a file does not
compile. A variant whose manifest entry names a "feature_arch" (wgmma:
sm_90a) is also compiled for it when its base architecture is asked for.

  scripts/cuda-build.py --dir DIR [--dir DIR ...] [--arch sm_75,sm_86,sm_90]
      [--jobs 2] [--link] [--merge N] [--record] [--unit NAME ...] [--variant NAME ...]
      [--results FILE]
      [--json FILE]

  (default)  one nvcc per file and arch, objects cuda_<variant>.<arch>.o;
             --link links each unit's check driver for the first arch.
  --merge N  the compile check at a fraction of the cost: up to N files in
             one translation unit (each inside a namespace of its own, after
             roofline_cuda.h; a file that includes or defines anything else
             is compiled alone), one nvcc per unit for all archs
             (-gencode per arch). Each file is still parsed, instantiated,
             compiled to PTX and assembled by ptxas for every arch: what
             is shared is the front end's work on the CUDA headers, which is
             most of an nvcc run. No objects are kept (nothing to link).
  --record   writes each variant's kernels and whether any spills into its
             manifest entry ("resource_usage": {arch: {...}}).
Without nvcc it prints why and exits 77.
"""

import argparse
import concurrent.futures
import json
import os
import re
import shutil
import subprocess
import sys
import tempfile
import time

ENTRY = re.compile(r"Compiling entry function '([^']+)' for '(sm_\w+)'")
PROPS = re.compile(r"(\d+) bytes stack frame, (\d+) bytes spill stores, (\d+) bytes spill loads")
USED = re.compile(r"Used (\d+) registers(?:.*?(\d+) bytes smem)?")
MERGED = re.compile(r"rl_f(\d+)::")


def find_nvcc(explicit):
    for c in [explicit, shutil.which("nvcc"), "/usr/local/cuda/bin/nvcc"]:
        if c and os.path.exists(c):
            return c
    return None


def demangle(names):
    if not names or not shutil.which("c++filt"):
        return {n: n for n in names}
    out = subprocess.run(["c++filt"], input="\n".join(names), capture_output=True,
                         text=True).stdout.splitlines()
    return dict(zip(names, out)) if len(out) == len(names) else {n: n for n in names}


def short(kernel):
    # void rl::cuda::gemm_blocktiled<128, 128, 8, 8, 8, true, (anonymous
    # namespace)::rl_store>(...) -> gemm_blocktiled<128,128,8,8,8,true>; the
    # store functor and the generic kernels are file-local (anonymous
    # namespace), merged files each in a namespace rl_f<N>.
    k = kernel.replace("(anonymous namespace)::", "").split("(")[0]
    k = MERGED.sub("", k)
    if k.startswith("void "):
        k = k[5:]
    k = k.replace("rl::cuda::", "")
    k = re.sub(r",\s*rl_store", "", k).replace("rl_store", "")
    return re.sub(r"\s+", "", k)


def parse_ptxas(text):
    """[{kernel (mangled), arch, registers, smem, stack, spill_stores, spill_loads}]"""
    kernels, cur = [], None
    for line in text.splitlines():
        m = ENTRY.search(line)
        if m:
            cur = {"kernel": m.group(1), "arch": m.group(2), "stack": 0,
                   "spill_stores": 0, "spill_loads": 0, "registers": 0, "smem": 0}
            kernels.append(cur)
            continue
        if cur is None:
            continue
        m = PROPS.search(line)
        if m:
            cur["stack"], cur["spill_stores"], cur["spill_loads"] = map(int, m.groups())
            continue
        m = USED.search(line)
        if m:
            cur["registers"] = int(m.group(1))
            cur["smem"] = int(m.group(2) or 0)
    return kernels


def gencode(archs):
    out = []
    for a in archs:
        n = a[len("sm_"):]
        out += ["-gencode", "arch=compute_%s,code=sm_%s" % (n, n)]
    return out


def run(cmd):
    t0 = time.time()
    p = subprocess.run(cmd, capture_output=True, text=True)
    return p, time.time() - t0


def compile_one(nvcc, f, arch, rt):
    obj = os.path.join(f["dir"], "%s.%s.o" % (f["file"][:-3], arch))
    p, secs = run([nvcc, "-std=c++17", "-O3", "-arch=" + arch, "--resource-usage", "-I", rt,
                   "-c", os.path.join(f["dir"], f["file"]), "-o", obj])
    ks = parse_ptxas(p.stdout + p.stderr)
    return [{"files": [f], "archs": [arch], "ok": p.returncode == 0, "seconds": secs,
             "log": p.stdout + p.stderr, "obj": obj, "kernels": ks}]


def mergeable(text):
    """Only `#include "roofline_cuda.h"` as preprocessor directive: the file
    sees nothing in a merged unit that it would not see alone."""
    for line in text.splitlines():
        s = line.strip()
        if s.startswith("#") and s != '#include "roofline_cuda.h"':
            return False
    return True


def compile_merged(nvcc, files, archs, rt, tmp):
    src = ['// Merged by scripts/cuda-build.py --merge (compile check only).',
           '#include "roofline_cuda.h"']
    for i, f in enumerate(files):
        path = os.path.abspath(os.path.join(f["dir"], f["file"]))
        with open(path) as h:
            text = h.read()
        src += ["namespace rl_f%d {" % i, '#line 1 "%s"' % path, text, "} // namespace rl_f%d" % i]
    fd, cu = tempfile.mkstemp(suffix=".cu", dir=tmp)
    with os.fdopen(fd, "w") as h:
        h.write("\n".join(src) + "\n")
    p, secs = run([nvcc, "-std=c++17", "-O3", "--resource-usage", "-I", rt] + gencode(archs)
                  + ["-c", cu, "-o", cu[:-3] + ".o"])
    return [{"files": files, "archs": archs, "ok": p.returncode == 0, "seconds": secs,
             "log": p.stdout + p.stderr, "obj": None, "kernels": parse_ptxas(p.stdout + p.stderr)}]


def load_files(dirs, archs, only=None, variants=None):
    files = []
    for d0 in dirs:
        rt = os.path.join(d0, "runtime")
        with open(os.path.join(d0, "units.json")) as f:
            units = json.load(f)["units"]
        for u in units:
            if only and u not in only:
                continue
            d = os.path.join(d0, u)
            with open(os.path.join(d, "manifest.json")) as f:
                m = json.load(f)
            for v in m["variants"]:
                if v.get("target") != "cuda" or "file" not in v:
                    continue
                if variants and v["name"] not in variants:
                    continue
                extra = []
                fa = v.get("feature_arch")
                if fa and fa not in archs and any(fa.startswith(a) for a in archs):
                    extra = [fa]
                files.append({"dir": d, "unit": u, "file": v["file"], "variant": v["name"],
                              "rt": rt, "archs": archs + extra})
    return files


def attribute(results, names):
    """Kernels per (file, arch): a merged unit's kernel goes to the file of
    its namespace; one shared by several files (quantize_rows, to_bf16,
    the arch probe: same template arguments) to each file that names it."""
    per = {}
    for r in results:
        texts = None
        for k in r["kernels"]:
            k["name"] = short(names.get(k["kernel"], k["kernel"]))
            m = MERGED.search(names.get(k["kernel"], ""))
            if len(r["files"]) == 1:
                owners = r["files"]
            elif m:
                owners = [r["files"][int(m.group(1))]]
            else:
                if texts is None:
                    texts = []
                    for f in r["files"]:
                        with open(os.path.join(f["dir"], f["file"])) as h:
                            texts.append(h.read())
                base = k["name"].split("<")[0]
                owners = [f for f, t in zip(r["files"], texts) if base in t] or r["files"][:1]
            for f in owners:
                per.setdefault((f["dir"], f["file"], k["arch"]), []).append(k)
    return per


def record(files, per):
    """resource_usage in each unit's manifest, per variant and arch."""
    by_dir = {}
    for f in files:
        by_dir.setdefault(f["dir"], []).append(f)
    for d, fs in by_dir.items():
        path = os.path.join(d, "manifest.json")
        with open(path) as h:
            m = json.load(h)
        for v in m["variants"]:
            f = next((x for x in fs if x["file"] == v.get("file")), None)
            if not f:
                continue
            ru = {}
            for arch in f["archs"]:
                ks = per.get((d, f["file"], arch), [])
                ru[arch] = {"kernels": [{x: k[x] for x in ("name", "registers", "smem", "stack",
                                                           "spill_stores", "spill_loads")}
                                        for k in ks],
                            "spills": any(k["spill_stores"] + k["spill_loads"] for k in ks)}
            v["resource_usage"] = ru
        with open(path, "w") as h:
            json.dump(m, h, indent=2, sort_keys=True)
            h.write("\n")


def link_driver(nvcc, unit_dir, objs, arch, rt):
    cxx = shutil.which("c++") or shutil.which("g++")
    out = []
    for src in ["reference.cpp", "cuda_driver.cpp"]:
        o = os.path.join(unit_dir, src[:-4] + ".o")
        p = subprocess.run([cxx, "-std=c++17", "-O2", "-I", rt, "-c",
                            os.path.join(unit_dir, src), "-o", o],
                           capture_output=True, text=True)
        if p.returncode:
            return False, p.stderr
        out.append(o)
    exe = os.path.join(unit_dir, "cuda_driver")
    p = subprocess.run([nvcc, "-arch=" + arch, "-o", exe] + out + objs + ["-lcudart"],
                       capture_output=True, text=True)
    return p.returncode == 0, p.stdout + p.stderr


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--dir", required=True, action="append")
    ap.add_argument("--arch", default="sm_90")
    ap.add_argument("--nvcc")
    ap.add_argument("--jobs", type=int, default=2)
    ap.add_argument("--link", action="store_true")
    ap.add_argument("--merge", type=int, default=0, metavar="N")
    ap.add_argument("--record", action="store_true")
    ap.add_argument("--unit", action="append", help="only these units")
    ap.add_argument("--variant", action="append", help="only these variants")
    ap.add_argument("--results")
    ap.add_argument("--json", help="per-kernel results as JSON")
    a = ap.parse_args()

    nvcc = find_nvcc(a.nvcc)
    if not nvcc:
        print("SKIPPED: nvcc not found (install CUDA at /usr/local/cuda, or pass --nvcc)")
        return 77
    if a.merge and a.link:
        print("cuda-build: --merge keeps no objects; --link needs them")
        return 2
    archs = [x for x in a.arch.split(",") if x]
    files = load_files(a.dir, archs, a.unit, a.variant)
    t0 = time.time()
    tmp = tempfile.mkdtemp(prefix="rl-cuda-build-")
    tasks = []
    if a.merge:
        # Merge within a runtime directory and an arch set, in order.
        groups = {}
        for f in files:
            with open(os.path.join(f["dir"], f["file"])) as h:
                ok = mergeable(h.read())
            key = (f["rt"], tuple(f["archs"])) if ok else (f["rt"], tuple(f["archs"]), f["file"], f["dir"])
            groups.setdefault(key, []).append(f)
        for key, fs in groups.items():
            for i in range(0, len(fs), a.merge):
                chunk = fs[i:i + a.merge]
                tasks.append(lambda c=chunk: compile_merged(nvcc, c, list(c[0]["archs"]),
                                                            c[0]["rt"], tmp))
    else:
        for f in files:
            for arch in f["archs"]:
                tasks.append(lambda f=f, arch=arch: compile_one(nvcc, f, arch, f["rt"]))
    with concurrent.futures.ThreadPoolExecutor(max_workers=max(1, a.jobs)) as ex:
        results = [r for rs in ex.map(lambda t: t(), tasks) for r in rs]
    shutil.rmtree(tmp, ignore_errors=True)
    names = demangle(sorted({k["kernel"] for r in results for k in r["kernels"]}))
    per = attribute(results, names)
    failed, spilled = 0, 0
    lines = []
    version = subprocess.run([nvcc, "--version"], capture_output=True, text=True).stdout
    version = ([l for l in version.splitlines() if "release" in l] or ["?"])[0].strip()
    for r in results:
        if not r["ok"]:
            failed += 1
            lines.append("%s %s: FAILED to compile\n%s" % (
                ", ".join("%s/%s" % (f["unit"], f["variant"]) for f in r["files"]),
                ",".join(r["archs"]), r["log"][-6000:]))
    for f in files:
        for arch in f["archs"]:
            for k in per.get((f["dir"], f["file"], arch), []):
                sp = k["spill_stores"] + k["spill_loads"]
                spilled += sp > 0
                lines.append("%-22s %-11s %-7s %-44s regs=%-3d smem=%-6d stack=%-3d spills=%d%s"
                             % (f["unit"], f["variant"], arch, k["name"], k["registers"],
                                k["smem"], k["stack"], sp, "  SPILLS" if sp else ""))
    if a.record:
        record(files, per)
    linked = []
    if a.link and not failed:
        by_unit = {}
        for r in results:
            if r["archs"][0] == archs[0]:
                by_unit.setdefault((r["files"][0]["dir"], r["files"][0]["rt"]), []).append(r["obj"])
        for (d, rt), objs in sorted(by_unit.items()):
            ok, log = link_driver(nvcc, d, objs, archs[0], rt)
            linked.append((os.path.basename(d), ok))
            if not ok:
                failed += 1
                lines.append("%s: driver FAILED to link\n%s" % (os.path.basename(d), log))
    wall = time.time() - t0
    compiles = sum(len(f["archs"]) for f in files)
    head = ["# nvcc --resource-usage of every CUDA variant (scripts/cuda-build.py)",
            "# %s; archs %s; %d files, %d file x arch compiles in %d nvcc runs, %.0f s (%d jobs%s)"
            % (version, ",".join(archs), len(files), compiles, len(results), wall, a.jobs,
               ", merged by %d" % a.merge if a.merge else ""),
            "# unit                 variant     arch    kernel                                       "
            "registers, shared bytes (static), stack bytes, spill bytes (stores + loads)"]
    text = "\n".join(head + lines) + "\n"
    for u, ok in linked:
        text += "linked %s/cuda_driver: %s\n" % (u, "ok" if ok else "FAILED")
    text += "summary: %d compiles, %d failed, %d kernels spill\n" % (compiles, failed, spilled)
    sys.stdout.write(text)
    if a.results:
        with open(a.results, "w") as f:
            f.write(text)
    if a.json:
        with open(a.json, "w") as f:
            json.dump([{"files": ["%s/%s" % (x["unit"], x["file"]) for x in r["files"]],
                        "archs": r["archs"], "ok": r["ok"], "seconds": r["seconds"],
                        "kernels": r["kernels"]} for r in results], f, indent=1)
    return 1 if failed or spilled else 0


if __name__ == "__main__":
    sys.exit(main())
