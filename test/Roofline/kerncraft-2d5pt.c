// kerncraft's own Roofline test (test_2d5pt_Roofline: 2d-5pt.c with N = 4096,
// M = 50 on SandyBridgeEP_E5-2680.yml) expects the L2 bottleneck at
// 4.72 GFLOP/s: 40 B per iteration cross L2 at 47.24 GB/s, and main memory
// moves nothing, the 3.3 MB of a and b staying in the 20 MiB L3 (its
// steady state). --cache-state=warm asks for that view (issue 21); the
// default, one pass from empty caches, is bound by main memory instead.
// RUN: roofline-lint --verbosity=normal --no-source --machine=%S/Inputs/snb-e5-2680-core.yaml --cache-state=warm %s | FileCheck %s --check-prefix=WARM
// RUN: roofline-lint --format=json --machine=%S/Inputs/snb-e5-2680-core.yaml --cache-state=warm %s | FileCheck %s --check-prefix=JSON
// RUN: roofline-lint --verbosity=normal --no-source --machine=%S/Inputs/snb-e5-2680-core.yaml %s | FileCheck %s --check-prefix=COLD

#define N 4096
#define M 50
double a[M][N], b[M][N], s;

void kernel(void) {
  for (int j = 1; j < M - 1; ++j)
    for (int i = 1; i < N - 1; ++i)
      b[j][i] = (a[j][i - 1] + a[j][i + 1] + a[j - 1][i] + a[j + 1][i]) * s;
}
// 48 x 4094 = 196,512 iterations of 4 FLOPs. Warm: MEM 0 B; L3 4.78 MB
// (24.3 B/it, kerncraft 24); L2 7.87 MB (40.03 B/it, kerncraft 40) in
// 166.5 us: 786,048 FLOP / 166.5 us = 4.720 GFLOP/s, kerncraft 4.72.
// WARM: note: 0 MACs, 786,048 FLOPs
// WARM: note: per level: MEM 0 B, AI inf compute-bound, 0 ps; L3 4.78 MB (cache model), {{.*}}; L2 7.87 MB (cache model), AI 0.09992 memory-bound, 167 us; {{.*}}; bottleneck L2 (167 us against math 36.4 us)
// JSON:      "verdict": {
// JSON:      "bottleneck": "L2",
// JSON:      "levels": [
// JSON:        "bytes": 0,
// JSON-NEXT:   "intensity": null,
// JSON-NEXT:   "name": "MEM",
// JSON:        "bandwidth": 47240000000,
// JSON:        "bytes": 7866624,
// JSON:        "name": "L2",
// JSON:        "time_s": 0.00016652
// Cold: the data comes from main memory once (a read, b allocated and
// written back: 4.78 MB at 12.01 GB/s, 1.97 GFLOP/s).
// COLD: note: per level: MEM 4.78 MB, AI 0.1643 memory-bound, 398 us; {{.*}}; bottleneck MEM (398 us against math 36.4 us)
