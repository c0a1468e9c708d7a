// The seed's other costs of small work on a GPU: a launch latency per kernel
// and the host link, from the machine file (Inputs/small-gpu.yaml: 1e12
// FLOP/s, 100e9 B/s, host link 10e9 B/s, 1 us per launch). By hand:
//   scale(x, 1000):      1,000 FLOPs, 8,000 B: floor 80 ns; launch 1 us;
//                        transfer 800 ns: launch-bound.
//   scale(y, 1000000):   8e6 B: floor 80 us; transfer 800 us: transfer-bound.
//   mm(c, a, b, 1024):   2 x 1024^3 = 2.15 GFLOPs, 12 x 1024^2 = 12.6 MB:
//                        floor 2.15 ms (compute); transfer 1.26 ms; not small.
// Three launches: 3 us on a pass floor of 80 ns + 80 us + 2.147 ms = 2.23 ms.
//
// RUN: roofline-lint --no-source --quiet --machine=%S/Inputs/small-gpu.yaml --entry=step --param n=1000 --param m=1000000 --param k=1024 %s -- | FileCheck %s
// RUN: roofline-lint --no-source --quiet --format=json --machine=%S/Inputs/small-gpu.yaml --entry=step --param n=1000 --param m=1000000 --param k=1024 %s -- | FileCheck %s --check-prefix=JSON
// A machine file without the two figures (a CPU) adds nothing:
// RUN: roofline-lint --no-source --quiet --machine=xeon-8380 --entry=step --param n=1000 --param m=1000000 --param k=1024 %s -- | FileCheck %s --check-prefix=CPU
//
// Many tiny launches: a decode step of 32 layers of 4 small kernels is
// launch-bound as a whole.
// RUN: roofline-lint --no-source --quiet --machine=%S/Inputs/small-gpu.yaml --entry=layers --param L=32 --param n=1000 %s -- | FileCheck %s --check-prefix=MANY

void scale(float *x, int n) {
  for (int i = 0; i < n; i++)
    x[i] *= 2.0f;
}

void mm(float *c, const float *a, const float *b, int n) {
  for (int i = 0; i < n; i++)
    for (int j = 0; j < n; j++) {
      float s = 0.0f;
      for (int q = 0; q < n; q++)
        s += a[i * n + q] * b[q * n + j];
      c[i * n + j] = s;
    }
}

void step(float *x, float *y, float *c, const float *a, const float *b, int n,
          int m, int k) {
  scale(x, n);
  scale(y, m);
  mm(c, a, b, k);
}

void layers(float *x, int L, int n) {
  for (int l = 0; l < L; l++) {
    scale(x, n);
    scale(x, n);
    scale(x, n);
    scale(x, n);
  }
}

// CHECK: remark: pass 'step' on small-gpu: time floor 2.23 ms, {{.*}} compute-bound
// CHECK: launches: 3 (one per nest execution) x 1 us launch latency = 3 us; the pass with them: 2.23 ms, compute-bound (0.134% of it in launches)
// CHECK-NEXT: small work on small-gpu (a run's time floor below its launch latency, or below moving its bytes over the host link at 10 GB/s as a nest offloaded alone would):
// CHECK-NEXT: verdict floor/run launch bytes/run transfer runs nest
// CHECK-NEXT: launch-bound 80 ns 1 us 8 kB 800 ns 1 scale ({{.*}}launch.c:21) via step > scale
// CHECK-NEXT: transfer-bound 80 us 1 us 8 MB 800 us 1 scale ({{.*}}launch.c:21) via step > scale
// CHECK-NOT: mm (

// JSON: "launch_costs": {
// JSON-NEXT: "bound": "compute-bound",
// JSON-NEXT: "host_link_bytes_per_s": 10000000000,
// JSON-NEXT: "launch_latency_s": 9.99{{[0-9]*}}e-07,
// JSON-NEXT: "launch_time_s": 3{{(\.0+[0-9]*)?}}e-06,
// JSON-NEXT: "launches": 3,
// JSON-NEXT: "small_work": [
// JSON-NEXT: {
// JSON-NEXT: "bytes_per_run": 8000,
// JSON-NEXT: "executions": 1,
// JSON: "verdict": "launch-bound"
// JSON: "bytes_per_run": 8000000,
// JSON: "transfer_per_run_s": {{0.0008[0-9]*|7.99[0-9]*e-04}},
// JSON-NEXT: "verdict": "transfer-bound"
// JSON: "time_with_launches_s": 0.0022

// CPU: remark: pass 'step' on xeon-8380:
// CPU-NOT: launches:
// CPU-NOT: small work

// 128 launches of 80 ns of work each: 10.2 us of floor, 128 us of launches.
// MANY: remark: pass 'layers' on small-gpu: time floor 10.2 us,
// MANY: launches: 128 (one per nest execution) x 1 us launch latency = 128 us; the pass with them: 138 us, launch-bound (92.6% of it in launches)
// MANY: launch-bound 80 ns 1 us 8 kB 800 ns 128 scale ({{.*}}launch.c:21) via layers > scale
