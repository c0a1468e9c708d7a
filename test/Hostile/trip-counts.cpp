// Hostile trip counts: exact big numbers, zero and negative trips, and
// refusals (never a wrong count) for loops that wrap around or skip the bound.
// RUN: %expect-exit 0 roofline-lint --verbosity=normal --no-source %s 2>&1 | FileCheck %s
// RUN: roofline-lint --verbosity=normal --format=json %s 2>/dev/null | FileCheck %s --check-prefix=JSON

// CHECK: trip-counts.cpp:[[@LINE+3]]:3: error: huge: footprint 8 TB does not fit
// CHECK: note: 1,000,000,000,000,000,000,000,000 MACs
void huge(float *A, float *B) {
  for (long i = 0; i < 1000000000000L; ++i)
    for (long j = 0; j < 1000000000000L; ++j)
      A[i] += B[j] * A[i];
}
// JSON: "iterations": "1000000000000000000000000"

// CHECK: :[[@LINE+1]]:{{[0-9]+}}: remark: neg: {{.*}}time floor 0 ps
void neg(float *A) { for (int i = 10; i < 0; ++i) A[i] = 1.0f; }
// CHECK: :[[@LINE+1]]:{{[0-9]+}}: remark: zero: {{.*}}time floor 0 ps
void zero(float *A) { for (int i = 0; i < 0; ++i) A[i] += 1.0f; }
// CHECK: :[[@LINE+1]]:{{[0-9]+}}: note: loop nest not analyzed: '!=' condition with step 2 may skip the bound
void skip(float *A) { for (int i = 0; i != 7; i += 2) A[i] += 1.0f; }
// Regression: 'i >= 0' on an unsigned variable never ends; it was counted as 6.
// CHECK: :[[@LINE+1]]:{{[0-9]+}}: note: loop nest not analyzed: unsigned loop variable counting down to '>= 0' wraps around below zero and may never terminate
void down_u(float *A) { for (unsigned i = 5; i >= 0; --i) A[i] += 1.0f; }
// CHECK: :[[@LINE+1]]:{{[0-9]+}}: remark: down_ok: {{.*}}time floor 52.1 ps
void down_ok(float *A) { for (unsigned i = 5; i >= 1; --i) A[i] += 1.0f; }
