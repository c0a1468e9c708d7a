// A range-for stopped early on the data (docs/design.md "Early exits"): the
// same range as an indexed loop's (early-exits.c).
// RUN: roofline-lint --verbosity=normal --no-source %s 2>&1 | FileCheck %s
#include <vector>

// CHECK: early-exits-range-for.cpp:[[@LINE+3]]:3: note: 0 MACs, 2 to 16 FLOPs (f32: 16); 4 to 32 bytes compulsory
float sum_until_negative(float (&v)[8]) {
  float s = 0.0f;
  for (float x : v) {
    s += x;
    if (x < 0.0f)
      break;
  }
  return s;
}
