// A loop variable whose type cannot reach the value that ends the loop
// wraps around or overflows and may never terminate: refused, never counted.
// Where C's modular arithmetic gives the bound ('0u - 1'), C's value is used.
// RUN: %expect-exit 0 roofline-lint --verbosity=normal --no-source %s 2>&1 | FileCheck %s

// CHECK: integer-bounds.cpp:[[@LINE+1]]:24: note: loop nest not analyzed: loop variable of type 'unsigned char' cannot step past the bound 300: it wraps around or overflows first, and the loop may never terminate [roofline-unanalyzable]
void uchar(float *A) { for (unsigned char c = 0; c < 300; ++c) A[c] += 1.0f; }
// CHECK: integer-bounds.cpp:[[@LINE+1]]:{{[0-9]+}}: note: loop nest not analyzed: loop variable of type 'int' cannot step past the bound 2147483647
void int_max(float *A) { for (int i = 0; i <= 2147483647; ++i) A[i] += 1.0f; }
// A step overshoots the bound: i += 2 from 0 takes 2147483646, then overflows.
// CHECK: integer-bounds.cpp:[[@LINE+1]]:{{[0-9]+}}: note: loop nest not analyzed: loop variable of type 'int' cannot step past the bound 2147483647
void overshoot(float *A) { for (int i = 0; i < 2147483647; i += 2) A[i] += 1.0f; }
// CHECK: integer-bounds.cpp:[[@LINE+1]]:{{[0-9]+}}: note: loop nest not analyzed: loop variable of type 'short' cannot step past the bound -40000
void short_down(float *A) { for (short s = 0; s > -40000; --s) A[-s] += 1.0f; }
// CHECK: integer-bounds.cpp:[[@LINE+2]]:{{[0-9]+}}: remark: uint_max: {{.*}}[roofline-verdict]
// CHECK-NEXT: note: 0 MACs, 4,294,967,295 FLOPs
void uint_max(float *A) { for (unsigned i = 0; i < 0u - 1; ++i) A[i] += 1.0f; }
// In range: counted.
// CHECK: integer-bounds.cpp:[[@LINE+2]]:{{[0-9]+}}: remark: uchar_ok: {{.*}}[roofline-verdict]
// CHECK-NEXT: note: 0 MACs, 255 FLOPs
void uchar_ok(float *A) { for (unsigned char c = 0; c < 255; ++c) A[c] += 1.0f; }
