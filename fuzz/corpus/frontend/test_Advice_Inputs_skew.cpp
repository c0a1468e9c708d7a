// A wavefront: A[j][i] takes the value computed one column left and one row
// down, so the dependence has distance (1, -1) in loop order (i, j). The
// innermost loop walks A down a column; the order (j, i) would walk it
// along a row but would reverse the dependence.
constexpr int N = 2048;
float A[N][N];

void wavefront() {
  for (int i = 1; i < N; ++i)
    for (int j = 0; j < N - 1; ++j)
      A[j][i] = A[j + 1][i - 1] + 1.0f;
}
