#!/usr/bin/env python3
"""Builds the CUDA variants an `roofline-lint --emit --target=cuda` wrote
(docs/cuda.md) and records what ptxas says about each kernel.

For every unit under DIR (units.json) and every arch asked for, each
cuda_<variant>.cu is compiled with `nvcc --resource-usage` (in parallel);
per variant the script prints one line with the kernels' registers, shared
memory, stack frame and spill bytes, and fails (exit 1) when a kernel
spills or does not compile. With --link, each unit's check driver
(cuda_driver.cpp + reference.cpp + the variants, the harness of the CPU
side) is linked for the first arch. Without nvcc it prints why and exits 77.

  scripts/cuda-build.py --dir DIR [--arch sm_75,sm_86,sm_90] [--jobs 2]
      [--link] [--results docs/results/cuda-resource-usage.txt]
"""

import argparse
import concurrent.futures
import json
import os
import re
import shutil
import subprocess
import sys
import time

ENTRY = re.compile(r"Compiling entry function '([^']+)' for '(sm_\d+)'")
PROPS = re.compile(r"(\d+) bytes stack frame, (\d+) bytes spill stores, (\d+) bytes spill loads")
USED = re.compile(r"Used (\d+) registers(?:.*?(\d+) bytes smem)?")


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
    # rl::cuda::gemm_blocktiled<128, 128, 8, 8, 8, true, (anonymous
    # namespace)::rl_store>(...) -> gemm_blocktiled<...,true>; the store
    # functor and the generic kernels are file-local (anonymous namespace).
    k = kernel.replace("(anonymous namespace)::", "").split("(")[0]
    if k.startswith("void "):
        k = k[5:]
    k = k.replace("rl::cuda::", "").replace(", rl_store", "").replace("rl_store", "")
    return re.sub(r"\s+", "", k)


def parse_ptxas(text):
    """[(mangled kernel, arch, regs, smem, stack, spill_st, spill_ld)]"""
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


def compile_one(nvcc, unit_dir, cu, arch, rt):
    obj = os.path.join(unit_dir, "%s.%s.o" % (cu[:-3], arch))
    cmd = [nvcc, "-std=c++17", "-O3", "-arch=" + arch, "--resource-usage",
           "-I", rt, "-c", os.path.join(unit_dir, cu), "-o", obj]
    t0 = time.time()
    p = subprocess.run(cmd, capture_output=True, text=True)
    return {"unit_dir": unit_dir, "file": cu, "arch": arch, "ok": p.returncode == 0,
            "seconds": time.time() - t0, "log": p.stdout + p.stderr, "obj": obj,
            "kernels": parse_ptxas(p.stdout + p.stderr)}


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
    ap.add_argument("--dir", required=True)
    ap.add_argument("--arch", default="sm_90")
    ap.add_argument("--nvcc")
    ap.add_argument("--jobs", type=int, default=2)
    ap.add_argument("--link", action="store_true")
    ap.add_argument("--results")
    ap.add_argument("--json", help="per-kernel results as JSON")
    a = ap.parse_args()

    nvcc = find_nvcc(a.nvcc)
    if not nvcc:
        print("SKIPPED: nvcc not found (install CUDA at /usr/local/cuda, or pass --nvcc)")
        return 77
    archs = [x for x in a.arch.split(",") if x]
    rt = os.path.join(a.dir, "runtime")
    with open(os.path.join(a.dir, "units.json")) as f:
        units = json.load(f)["units"]
    jobs = []
    for u in units:
        d = os.path.join(a.dir, u)
        with open(os.path.join(d, "manifest.json")) as f:
            m = json.load(f)
        for v in m["variants"]:
            if v.get("target") == "cuda" and "file" in v:
                for arch in archs:
                    jobs.append((d, v["file"], arch))
    t0 = time.time()
    with concurrent.futures.ThreadPoolExecutor(max_workers=max(1, a.jobs)) as ex:
        results = list(ex.map(lambda j: compile_one(nvcc, j[0], j[1], j[2], rt), jobs))
    names = demangle(sorted({k["kernel"] for r in results for k in r["kernels"]}))
    failed, spilled = 0, 0
    lines = []
    version = subprocess.run([nvcc, "--version"], capture_output=True, text=True).stdout
    version = ([l for l in version.splitlines() if "release" in l] or ["?"])[0].strip()
    for r in results:
        unit = os.path.basename(r["unit_dir"])
        var = r["file"][len("cuda_"):-3]
        if not r["ok"]:
            failed += 1
            lines.append("%s/%s %s: FAILED to compile\n%s" % (unit, var, r["arch"], r["log"]))
            continue
        for k in r["kernels"]:
            k["name"] = short(names.get(k["kernel"], k["kernel"]))
            sp = k["spill_stores"] + k["spill_loads"]
            spilled += sp > 0
            lines.append("%-22s %-11s %-6s %-44s regs=%-3d smem=%-6d stack=%-3d spills=%d%s"
                         % (unit, var, r["arch"], k["name"], k["registers"], k["smem"],
                            k["stack"], sp, "  SPILLS" if sp else ""))
    linked = []
    if a.link and not failed:
        by_unit = {}
        for r in results:
            if r["arch"] == archs[0]:
                by_unit.setdefault(r["unit_dir"], []).append(r["obj"])
        for d, objs in sorted(by_unit.items()):
            ok, log = link_driver(nvcc, d, objs, archs[0], rt)
            linked.append((os.path.basename(d), ok))
            if not ok:
                failed += 1
                lines.append("%s: driver FAILED to link\n%s" % (os.path.basename(d), log))
    wall = time.time() - t0
    head = ["# nvcc --resource-usage of every CUDA variant (scripts/cuda-build.py)",
            "# %s; archs %s; %d files, %d compiles in %.0f s (%d jobs)"
            % (version, ",".join(archs), len(jobs) // max(1, len(archs)), len(jobs), wall, a.jobs),
            "# unit                 variant     arch   kernel                                       "
            "registers, shared bytes, stack bytes, spill bytes (stores + loads)"]
    text = "\n".join(head + lines) + "\n"
    for u, ok in linked:
        text += "linked %s/cuda_driver: %s\n" % (u, "ok" if ok else "FAILED")
    text += "summary: %d compiles, %d failed, %d kernels spill\n" % (len(jobs), failed, spilled)
    sys.stdout.write(text)
    if a.results:
        with open(a.results, "w") as f:
            f.write(text)
    if a.json:
        with open(a.json, "w") as f:
            json.dump([{k: v for k, v in r.items() if k != "log"} for r in results], f, indent=1)
    return 1 if failed or spilled else 0


if __name__ == "__main__":
    sys.exit(main())
