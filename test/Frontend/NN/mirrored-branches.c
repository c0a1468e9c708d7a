// A data-dependent if/else whose branches hold loops is refused (the work
// would depend on the data) unless both branches are the same code but for
// `+=` against `-=` on floats (a binary-weight GEMM: add the row of B where
// the sign bit is set, subtract it elsewhere): the same loops touch the same
// elements with the same operations either way, so the compare is counted
// every time and the branch once, exactly (docs/design.md, "Conditions").
// RUN: roofline-lint --verbosity=normal --no-source --param M=4 --param N=8 --param K=16 %s | FileCheck %s

// 4*16 sign loads (char, 64 B) and integer tests; per (i, k) 8 adds or
// subtracts of B's row into C's: 512 FLOPs; C 4*8 read and written (256 B),
// B 16*8 read (512 B).
// CHECK: mirrored-branches.c:[[@LINE+4]]:3: remark: sign_gemm:
// CHECK: note: 0 MACs, 512 FLOPs (f32: 512); 832 bytes compulsory
// CHECK: note: the branches of the if at line [[@LINE+5]] do the same work (+= against -=): counted once
void sign_gemm(int M, int N, int K, const char *S, const float *B, float *C) {
  for (int i = 0; i < M; ++i) {
    for (int k = 0; k < K; ++k) {
      char sign = S[i * K + k];
      if (sign) {
        for (int j = 0; j < N; ++j)
          C[i * N + j] += B[k * N + j];
      } else {
        for (int j = 0; j < N; ++j)
          C[i * N + j] -= B[k * N + j];
      }
    }
  }
}

// Scaled by a weight: `+= w * b` and `-= w * b` are a multiply-add each;
// the float compare is a FLOP (64 of them).
// CHECK: mirrored-branches.c:[[@LINE+3]]:3: remark: signed_axpy:
// CHECK: note: 512 MACs, 1,088 FLOPs (f32: 1,088)
void signed_axpy(int M, int N, int K, const float *S, const float *B, float *C, float w) {
  for (int i = 0; i < M; ++i)
    for (int k = 0; k < K; ++k) {
      if (S[i * K + k] > 0.0f) {
        for (int j = 0; j < N; ++j)
          C[i * N + j] += w * B[k * N + j];
      } else {
        for (int j = 0; j < N; ++j)
          C[i * N + j] -= w * B[k * N + j];
      }
    }
}

// Different elements on each side (B's row against its column), a
// different trip count, or different operations: refused as before.
// CHECK: mirrored-branches.c:[[@LINE+2]]:3: note: loop nest not analyzed: loop inside a data-dependent branch: its work depends on the data
void other_elements(int M, int N, int K, const char *S, const float *B, float *C) {
  for (int i = 0; i < M; ++i)
    for (int k = 0; k < K; ++k) {
      if (S[i * K + k]) {
        for (int j = 0; j < N; ++j)
          C[i * N + j] += B[k * N + j];
      } else {
        for (int j = 0; j < N; ++j)
          C[i * N + j] -= B[j * K + k];
      }
    }
}

// CHECK: mirrored-branches.c:[[@LINE+2]]:3: note: loop nest not analyzed: loop inside a data-dependent branch: its work depends on the data
void other_trips(int M, int N, int K, const char *S, const float *B, float *C) {
  for (int i = 0; i < M; ++i)
    for (int k = 0; k < K; ++k) {
      if (S[i * K + k]) {
        for (int j = 0; j < N; ++j)
          C[i * N + j] += B[k * N + j];
      } else {
        for (int j = 0; j < N / 2; ++j)
          C[i * N + j] -= B[k * N + j];
      }
    }
}

// CHECK: mirrored-branches.c:[[@LINE+2]]:3: note: loop nest not analyzed: loop inside a data-dependent branch: its work depends on the data
void other_ops(int M, int N, int K, const char *S, const float *B, float *C) {
  for (int i = 0; i < M; ++i)
    for (int k = 0; k < K; ++k) {
      if (S[i * K + k]) {
        for (int j = 0; j < N; ++j)
          C[i * N + j] += B[k * N + j];
      } else {
        for (int j = 0; j < N; ++j)
          C[i * N + j] *= B[k * N + j];
      }
    }
}
