// The cache model over a whole function (docs/cache-model.md, "Across nests
// and sibling loops"): nests run in program order through one set of caches.
// RUN: roofline-lint --machine=epyc-7763 --format=json %s | FileCheck %s
// RUN: roofline-lint --machine=epyc-7763 --format=json --cache-state=warm %s | FileCheck %s --check-prefix=WARM

#define N 1000
float A[N][N], x1[N], x2[N], y1[N], y2[N];

// mvt: the second nest finds A (4 MB) in the 32 MiB L3, left by the first;
// from memory it fetches only x2 and y2 (2 x 4000 B: 126 lines).
void mvt(void) {
  for (int i = 0; i < N; ++i)
    for (int j = 0; j < N; ++j)
      x1[i] += A[i][j] * y1[j];
  for (int i = 0; i < N; ++i)
    for (int j = 0; j < N; ++j)
      x2[i] += A[j][i] * y2[j];
}
// In JSON a nest's cache numbers come before its function and line.
// CHECK:      "nests": [
// CHECK:      "function": "mvt",
// CHECK:      "line": 12,
// CHECK:      "fetch_bytes": 8064,
// CHECK-NEXT: "line_bytes": 64,
// CHECK-NEXT: "name": "L3",
// CHECK:      "function": "mvt",
// CHECK:      "line": 15,

// Warm: the function run again and again; its 4 MB stay in L3, so the first
// nest fetches (next to) nothing from memory either.
// WARM:      "nests": [
// WARM:      "fetch_bytes": 0.{{[0-9]+}},
// WARM-NEXT: "line_bytes": 64,
// WARM-NEXT: "name": "L3",
// WARM:      "cache model: warm caches, the steady state of the function run again and again"
// WARM:      "function": "mvt",
// WARM:      "line": 12,

float P[64][1024], Q[64][1024], R[64][1040], S[64][1040];
float s;

// Two column walks 4 KiB apart per element: the 64 lines of each column all
// map onto one set of the 8-way L1 (64 sets of 64 B), so no line survives
// to the next j and L1 misses every access (2 x 64 x 1024 x 64 B), although
// the two columns (8 KiB) fit its 32 KiB. The note says conflicts are
// modelled.
void conflict(void) {
  for (int j = 0; j < 1024; ++j)
    for (int i = 0; i < 64; ++i)
      s += P[i][j] + Q[i][j];
}
// CHECK:      "fetch_bytes": 8388608,
// CHECK-NEXT: "line_bytes": 64,
// CHECK-NEXT: "name": "L1",
// CHECK:      "notes": [
// CHECK-NEXT: "cache model: arrays start on a 4 KiB page, one after another; L1 8-way, L2 8-way, L3 16-way set-associative LRU (conflict misses modelled)"
// CHECK:      "function": "conflict",
// CHECK:      "line": 48,

// Rows of 1040 floats spread the columns over the sets: every line is
// fetched once (2 arrays x 64 rows x 64 lines x 64 B).
void padded(void) {
  for (int j = 0; j < 1024; ++j)
    for (int i = 0; i < 64; ++i)
      s += R[i][j] + S[i][j];
}
// CHECK:      "fetch_bytes": 524288,
// CHECK-NEXT: "line_bytes": 64,
// CHECK-NEXT: "name": "L1",
// CHECK:      "function": "padded",
// CHECK:      "line": 63,
