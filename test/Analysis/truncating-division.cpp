// A loop bound with '/': the formulas use floor(), C's '/' rounds toward
// zero, so they are exact only while the dividend is >= 0; the note says
// so (at K = 0 the loop runs once, (0 - 1) / 2 == 0, while the formula
// floor((K - 1)/2) + 1 gives 0). With known sizes that make it negative the
// nest is refused. Found by scripts/differential.py.
// RUN: roofline-lint --verbosity=normal --no-source %s 2>&1 | FileCheck %s
// RUN: roofline-lint --verbosity=normal --no-source --param K=0 %s 2>&1 | FileCheck %s --check-prefix=NEG
// RUN: roofline-lint --verbosity=normal --no-source --param K=5 %s 2>&1 | FileCheck %s --check-prefix=POS
float A[16];
void half(const float *B, int K) {
  // CHECK: :[[@LINE+4]]:3: note: as formulas: MACs = 0, FLOPs = 0, bytes compulsory = 4*floor((K - 1)/2) + 8
  // CHECK: :[[@LINE+3]]:3: note: formulas take '/' in a bound as floor(); C's '/' rounds toward zero, so they hold while K - 1 >= 0
  // NEG: :[[@LINE+2]]:3: note: loop nest not analyzed: '/' in a loop bound divides a value that can be negative (K - 1 can be -1)
  // POS: :[[@LINE+1]]:3: note: 0 MACs, 0 FLOPs; 16 bytes compulsory
  for (int i = 0; i <= (K - 1) / 2; i++)
    A[i] = B[1];
}
