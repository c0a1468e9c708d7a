"""Adds a hand-written CUDA variant to the first unit of an --emit
directory (manifest entry and .cu file), so roofline-run's CUDA handling is
tested without depending on the CUDA backend's output.

add-cuda-variant.py DIR
"""
import json
import os
import sys

d = sys.argv[1]
unit = json.load(open(os.path.join(d, "units.json")))["units"][0]
ud = os.path.join(d, unit)
path = os.path.join(ud, "manifest.json")
m = json.load(open(path))
naive = next(v for v in m["variants"] if v["name"] == "naive")
sym = "rl_%s_cuda_copy" % unit
open(os.path.join(ud, "cuda_copy.cu"), "w").write(
    '#include <cstdint>\n#include <cuda_runtime.h>\n\n'
    '__global__ void rl_zero(float *p) { p[threadIdx.x] = 0; }\n\n'
    'extern "C" void %s(void *const *a, const int64_t *s) {\n'
    '  (void)a; (void)s;\n  float *d = nullptr;\n'
    '  cudaMalloc(&d, 32 * sizeof(float));\n  rl_zero<<<1, 32>>>(d);\n'
    '  cudaFree(d);\n}\n' % sym)
m["variants"].append({"name": "copy", "target": "cuda", "file": "cuda_copy.cu",
                      "symbol": sym, "threads": "GPU", "path": "cuda (test)",
                      "tolerance": naive["tolerance"], "predicted": naive["predicted"]})
json.dump(m, open(path, "w"), indent=2)
