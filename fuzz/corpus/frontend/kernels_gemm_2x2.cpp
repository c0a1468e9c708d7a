// The seed's 2x2 example: N = K = M = 2 gives 8 MACs = 16 FLOPs, the
// "8 clicks in the step-through".

template <int Size>
void matmul(const float (&A)[Size][Size], const float (&B)[Size][Size],
            float (&C)[Size][Size]) {
  for (int i = 0; i < Size; ++i)
    for (int j = 0; j < Size; ++j) {
      float s = 0;
      for (int k = 0; k < Size; ++k)
        s += A[i][k] * B[k][j];
      C[i][j] = s;
    }
}

void two_by_two(const float (&A)[2][2], const float (&B)[2][2],
                float (&C)[2][2]) {
  matmul<2>(A, B, C);
}
