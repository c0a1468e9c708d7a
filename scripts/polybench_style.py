"""PolyBench-style kernels for scripts/cachegrind-compare.py.

Whole functions with several loop nests, written for this repository from
the published definitions of the PolyBench/C 4.2.1 kernels of the same name
(the suite itself is not part of the repository): double-precision arrays,
the kernel's loops as the suite states them, with the sizes as macros.

Each entry: desc, arrays [(name, [dims])] in declaration order (all double),
scalars (C declarations at the top of each function), nests (the C text of
each top-level nest of the kernel, in program order).

CASES: (kernel, sizes, label) with label the smallest cache level the data
fits in (L1, L2, LL) or "beyond" the last level, for the epyc-7763 geometry
(32 KiB L1, 512 KiB L2, 32 MiB L3).
"""

FUNCTIONS = {
    "mvt": dict(
        desc="x1 += A y1; x2 += A^T y2 (two nests over A)",
        arrays=[("A", ["N", "N"]), ("x1", ["N"]), ("x2", ["N"]),
                ("y_1", ["N"]), ("y_2", ["N"])],
        scalars="",
        nests=["""
  for (int i = 0; i < N; i++)
    for (int j = 0; j < N; j++)
      x1[i] = x1[i] + A[i][j] * y_1[j];""", """
  for (int i = 0; i < N; i++)
    for (int j = 0; j < N; j++)
      x2[i] = x2[i] + A[j][i] * y_2[j];"""],
    ),
    "gemver": dict(
        desc="A += u1 v1^T + u2 v2^T; x += b A^T y + z; w += a A x",
        arrays=[("A", ["N", "N"]), ("u1", ["N"]), ("v1", ["N"]),
                ("u2", ["N"]), ("v2", ["N"]), ("w", ["N"]), ("x", ["N"]),
                ("y", ["N"]), ("z", ["N"])],
        scalars="  const double alpha = 1.5, beta = 1.2;\n",
        nests=["""
  for (int i = 0; i < N; i++)
    for (int j = 0; j < N; j++)
      A[i][j] = A[i][j] + u1[i] * v1[j] + u2[i] * v2[j];""", """
  for (int i = 0; i < N; i++)
    for (int j = 0; j < N; j++)
      x[i] = x[i] + beta * A[j][i] * y[j];""", """
  for (int i = 0; i < N; i++)
    x[i] = x[i] + z[i];""", """
  for (int i = 0; i < N; i++)
    for (int j = 0; j < N; j++)
      w[i] = w[i] + alpha * A[i][j] * x[j];"""],
    ),
    "2mm": dict(
        desc="D = alpha A B C + beta D, through tmp = alpha A B",
        arrays=[("tmp", ["NI", "NJ"]), ("A", ["NI", "NK"]),
                ("B", ["NK", "NJ"]), ("C", ["NJ", "NL"]),
                ("D", ["NI", "NL"])],
        scalars="  const double alpha = 1.5, beta = 1.2;\n",
        nests=["""
  for (int i = 0; i < NI; i++)
    for (int j = 0; j < NJ; j++) {
      tmp[i][j] = 0.0;
      for (int k = 0; k < NK; ++k)
        tmp[i][j] += alpha * A[i][k] * B[k][j];
    }""", """
  for (int i = 0; i < NI; i++)
    for (int j = 0; j < NL; j++) {
      D[i][j] *= beta;
      for (int k = 0; k < NJ; ++k)
        D[i][j] += tmp[i][k] * C[k][j];
    }"""],
    ),
    "covariance": dict(
        desc="column means, centring, then the upper triangle of data^T data",
        arrays=[("data", ["N", "M"]), ("cov", ["M", "M"]), ("mean", ["M"])],
        scalars="  const double float_n = (double)N;\n",
        nests=["""
  for (int j = 0; j < M; j++) {
    mean[j] = 0.0;
    for (int i = 0; i < N; i++)
      mean[j] += data[i][j];
    mean[j] /= float_n;
  }""", """
  for (int i = 0; i < N; i++)
    for (int j = 0; j < M; j++)
      data[i][j] -= mean[j];""", """
  for (int i = 0; i < M; i++)
    for (int j = i; j < M; j++) {
      cov[i][j] = 0.0;
      for (int k = 0; k < N; k++)
        cov[i][j] += data[k][i] * data[k][j];
      cov[i][j] /= (float_n - 1.0);
      cov[j][i] = cov[i][j];
    }"""],
    ),
    "fdtd-2d": dict(
        desc="2-D FDTD: four sibling nests inside the time loop",
        arrays=[("ex", ["NX", "NY"]), ("ey", ["NX", "NY"]),
                ("hz", ["NX", "NY"]), ("_fict_", ["TMAX"])],
        scalars="",
        nests=["""
  for (int t = 0; t < TMAX; t++) {
    for (int j = 0; j < NY; j++)
      ey[0][j] = _fict_[t];
    for (int i = 1; i < NX; i++)
      for (int j = 0; j < NY; j++)
        ey[i][j] = ey[i][j] - 0.5 * (hz[i][j] - hz[i - 1][j]);
    for (int i = 0; i < NX; i++)
      for (int j = 1; j < NY; j++)
        ex[i][j] = ex[i][j] - 0.5 * (hz[i][j] - hz[i][j - 1]);
    for (int i = 0; i < NX - 1; i++)
      for (int j = 0; j < NY - 1; j++)
        hz[i][j] = hz[i][j] - 0.7 * (ex[i][j + 1] - ex[i][j] +
                                     ey[i + 1][j] - ey[i][j]);
  }"""],
    ),
    "syrk": dict(
        desc="C = alpha A A^T + beta C, lower triangle",
        arrays=[("C", ["N", "N"]), ("A", ["N", "M"])],
        scalars="  const double alpha = 1.5, beta = 1.2;\n",
        nests=["""
  for (int i = 0; i < N; i++) {
    for (int j = 0; j <= i; j++)
      C[i][j] *= beta;
    for (int k = 0; k < M; k++)
      for (int j = 0; j <= i; j++)
        C[i][j] += alpha * A[i][k] * A[j][k];
  }"""],
    ),
    "trmm": dict(
        desc="B = alpha A^T B, A unit lower triangular",
        arrays=[("A", ["M", "M"]), ("B", ["M", "N"])],
        scalars="  const double alpha = 1.5;\n",
        nests=["""
  for (int i = 0; i < M; i++)
    for (int j = 0; j < N; j++) {
      for (int k = i + 1; k < M; k++)
        B[i][j] += A[k][i] * B[k][j];
      B[i][j] = alpha * B[i][j];
    }"""],
    ),
    "seidel-2d": dict(
        desc="Gauss-Seidel 9-point sweeps, in place",
        arrays=[("A", ["N", "N"])],
        scalars="",
        nests=["""
  for (int t = 0; t <= TSTEPS - 1; t++)
    for (int i = 1; i <= N - 2; i++)
      for (int j = 1; j <= N - 2; j++)
        A[i][j] = (A[i - 1][j - 1] + A[i - 1][j] + A[i - 1][j + 1] +
                   A[i][j - 1] + A[i][j] + A[i][j + 1] +
                   A[i + 1][j - 1] + A[i + 1][j] + A[i + 1][j + 1]) / 9.0;"""],
    ),
}

# Kernels beyond the eight, run with --set=extra (or all): more of
# the suite's shapes (triangular solves, 3-D stencils, transposed walks).
EXTRA_FUNCTIONS = {
    "gemm": dict(
        desc="C = alpha A B + beta C, i-k-j order",
        arrays=[("C", ["NI", "NJ"]), ("A", ["NI", "NK"]), ("B", ["NK", "NJ"])],
        scalars="  const double alpha = 1.5, beta = 1.2;\n",
        nests=["""
  for (int i = 0; i < NI; i++) {
    for (int j = 0; j < NJ; j++)
      C[i][j] *= beta;
    for (int k = 0; k < NK; k++)
      for (int j = 0; j < NJ; j++)
        C[i][j] += alpha * A[i][k] * B[k][j];
  }"""],
    ),
    "atax": dict(
        desc="y = A^T (A x)",
        arrays=[("A", ["M", "N"]), ("x", ["N"]), ("y", ["N"]),
                ("tmp", ["M"])],
        scalars="",
        nests=["""
  for (int i = 0; i < N; i++)
    y[i] = 0;""", """
  for (int i = 0; i < M; i++) {
    tmp[i] = 0.0;
    for (int j = 0; j < N; j++)
      tmp[i] = tmp[i] + A[i][j] * x[j];
    for (int j = 0; j < N; j++)
      y[j] = y[j] + A[i][j] * tmp[i];
  }"""],
    ),
    "bicg": dict(
        desc="s = A^T r, q = A p",
        arrays=[("A", ["N", "M"]), ("s", ["M"]), ("q", ["N"]), ("p", ["M"]),
                ("r", ["N"])],
        scalars="",
        nests=["""
  for (int i = 0; i < M; i++)
    s[i] = 0;""", """
  for (int i = 0; i < N; i++) {
    q[i] = 0.0;
    for (int j = 0; j < M; j++) {
      s[j] = s[j] + r[i] * A[i][j];
      q[i] = q[i] + A[i][j] * p[j];
    }
  }"""],
    ),
    "gesummv": dict(
        desc="y = alpha A x + beta B x",
        arrays=[("A", ["N", "N"]), ("B", ["N", "N"]), ("tmp", ["N"]),
                ("x", ["N"]), ("y", ["N"])],
        scalars="  const double alpha = 1.5, beta = 1.2;\n",
        nests=["""
  for (int i = 0; i < N; i++) {
    tmp[i] = 0.0;
    y[i] = 0.0;
    for (int j = 0; j < N; j++) {
      tmp[i] = A[i][j] * x[j] + tmp[i];
      y[i] = B[i][j] * x[j] + y[i];
    }
    y[i] = alpha * tmp[i] + beta * y[i];
  }"""],
    ),
    "syr2k": dict(
        desc="C = alpha A B^T + alpha B A^T + beta C, lower triangle",
        arrays=[("C", ["N", "N"]), ("A", ["N", "M"]), ("B", ["N", "M"])],
        scalars="  const double alpha = 1.5, beta = 1.2;\n",
        nests=["""
  for (int i = 0; i < N; i++) {
    for (int j = 0; j <= i; j++)
      C[i][j] *= beta;
    for (int k = 0; k < M; k++)
      for (int j = 0; j <= i; j++)
        C[i][j] += A[j][k] * alpha * B[i][k] + B[j][k] * alpha * A[i][k];
  }"""],
    ),
    "lu": dict(
        desc="LU decomposition in place, no pivoting",
        arrays=[("A", ["N", "N"])],
        scalars="",
        nests=["""
  for (int i = 0; i < N; i++) {
    for (int j = 0; j < i; j++) {
      for (int k = 0; k < j; k++)
        A[i][j] -= A[i][k] * A[k][j];
      A[i][j] /= A[j][j];
    }
    for (int j = i; j < N; j++)
      for (int k = 0; k < i; k++)
        A[i][j] -= A[i][k] * A[k][j];
  }"""],
    ),
    "jacobi-2d": dict(
        desc="Jacobi 5-point, two sweeps a step",
        arrays=[("A", ["N", "N"]), ("B", ["N", "N"])],
        scalars="",
        nests=["""
  for (int t = 0; t < TSTEPS; t++) {
    for (int i = 1; i < N - 1; i++)
      for (int j = 1; j < N - 1; j++)
        B[i][j] = 0.2 * (A[i][j] + A[i][j - 1] + A[i][1 + j] + A[1 + i][j] +
                         A[i - 1][j]);
    for (int i = 1; i < N - 1; i++)
      for (int j = 1; j < N - 1; j++)
        A[i][j] = 0.2 * (B[i][j] + B[i][j - 1] + B[i][1 + j] + B[1 + i][j] +
                         B[i - 1][j]);
  }"""],
    ),
    "heat-3d": dict(
        desc="heat equation, 3-D 7-point, two sweeps a step",
        arrays=[("A", ["N", "N", "N"]), ("B", ["N", "N", "N"])],
        scalars="",
        nests=["""
  for (int t = 1; t <= TSTEPS; t++) {
    for (int i = 1; i < N - 1; i++)
      for (int j = 1; j < N - 1; j++)
        for (int k = 1; k < N - 1; k++)
          B[i][j][k] = 0.125 * (A[i + 1][j][k] - 2.0 * A[i][j][k] + A[i - 1][j][k]) +
                       0.125 * (A[i][j + 1][k] - 2.0 * A[i][j][k] + A[i][j - 1][k]) +
                       0.125 * (A[i][j][k + 1] - 2.0 * A[i][j][k] + A[i][j][k - 1]) +
                       A[i][j][k];
    for (int i = 1; i < N - 1; i++)
      for (int j = 1; j < N - 1; j++)
        for (int k = 1; k < N - 1; k++)
          A[i][j][k] = 0.125 * (B[i + 1][j][k] - 2.0 * B[i][j][k] + B[i - 1][j][k]) +
                       0.125 * (B[i][j + 1][k] - 2.0 * B[i][j][k] + B[i][j - 1][k]) +
                       0.125 * (B[i][j][k + 1] - 2.0 * B[i][j][k] + B[i][j][k - 1]) +
                       B[i][j][k];
  }"""],
    ),
    "doitgen": dict(
        desc="multiresolution kernel: sum over p of A[r][q][s] C4[s][p]",
        arrays=[("A", ["NR", "NQ", "NP"]), ("C4", ["NP", "NP"]),
                ("sum", ["NP"])],
        scalars="",
        nests=["""
  for (int r = 0; r < NR; r++)
    for (int q = 0; q < NQ; q++) {
      for (int p = 0; p < NP; p++) {
        sum[p] = 0.0;
        for (int s = 0; s < NP; s++)
          sum[p] += A[r][q][s] * C4[s][p];
      }
      for (int p = 0; p < NP; p++)
        A[r][q][p] = sum[p];
    }"""],
    ),
    "3mm": dict(
        desc="G = (A B)(C D) through E and F",
        arrays=[("E", ["NI", "NJ"]), ("A", ["NI", "NK"]), ("B", ["NK", "NJ"]),
                ("F", ["NJ", "NL"]), ("C", ["NJ", "NM"]), ("D", ["NM", "NL"]),
                ("G", ["NI", "NL"])],
        scalars="",
        nests=["""
  for (int i = 0; i < NI; i++)
    for (int j = 0; j < NJ; j++) {
      E[i][j] = 0.0;
      for (int k = 0; k < NK; ++k)
        E[i][j] += A[i][k] * B[k][j];
    }""", """
  for (int i = 0; i < NJ; i++)
    for (int j = 0; j < NL; j++) {
      F[i][j] = 0.0;
      for (int k = 0; k < NM; ++k)
        F[i][j] += C[i][k] * D[k][j];
    }""", """
  for (int i = 0; i < NI; i++)
    for (int j = 0; j < NL; j++) {
      G[i][j] = 0.0;
      for (int k = 0; k < NJ; ++k)
        G[i][j] += E[i][k] * F[k][j];
    }"""],
    ),
    "jacobi-1d": dict(
        desc="Jacobi 3-point, two sweeps a step",
        arrays=[("A", ["N"]), ("B", ["N"])],
        scalars="",
        nests=["""
  for (int t = 0; t < TSTEPS; t++) {
    for (int i = 1; i < N - 1; i++)
      B[i] = 0.33333 * (A[i - 1] + A[i] + A[i + 1]);
    for (int i = 1; i < N - 1; i++)
      A[i] = 0.33333 * (B[i - 1] + B[i] + B[i + 1]);
  }"""],
    ),
}

# (kernel, sizes, label): data inside L1, L2 and the last level, and beyond.
CASES = [
    ("mvt", dict(N=40), "L1"),
    ("mvt", dict(N=200), "L2"),
    ("mvt", dict(N=1000), "LL"),
    ("mvt", dict(N=2500), "beyond"),
    ("gemver", dict(N=40), "L1"),
    ("gemver", dict(N=200), "L2"),
    ("gemver", dict(N=1000), "LL"),
    ("gemver", dict(N=2500), "beyond"),
    ("2mm", dict(NI=16, NJ=16, NK=16, NL=16), "L1"),
    ("2mm", dict(NI=100, NJ=100, NK=100, NL=100), "L2"),
    ("2mm", dict(NI=180, NJ=190, NK=210, NL=220), "LL"),
    ("2mm", dict(NI=200, NJ=600, NK=600, NL=600), "LL"),
    ("2mm", dict(NI=16, NJ=1600, NK=1600, NL=1600), "beyond"),
    ("covariance", dict(M=20, N=30), "L1"),
    ("covariance", dict(M=100, N=120), "L2"),
    ("covariance", dict(M=240, N=260), "LL"),
    ("covariance", dict(M=400, N=500), "LL"),
    ("covariance", dict(M=64, N=80000), "beyond"),
    ("fdtd-2d", dict(TMAX=4, NX=20, NY=24), "L1"),
    ("fdtd-2d", dict(TMAX=4, NX=100, NY=120), "L2"),
    ("fdtd-2d", dict(TMAX=3, NX=500, NY=600), "LL"),
    ("fdtd-2d", dict(TMAX=3, NX=1200, NY=1400), "beyond"),
    ("syrk", dict(M=20, N=30), "L1"),
    ("syrk", dict(M=100, N=150), "L2"),
    ("syrk", dict(M=100, N=1000), "LL"),
    ("syrk", dict(M=20, N=2200), "beyond"),
    ("trmm", dict(M=20, N=30), "L1"),
    ("trmm", dict(M=100, N=150), "L2"),
    ("trmm", dict(M=200, N=240), "LL"),
    ("trmm", dict(M=64, N=70000), "beyond"),
    ("seidel-2d", dict(TSTEPS=4, N=40), "L1"),
    ("seidel-2d", dict(TSTEPS=4, N=200), "L2"),
    ("seidel-2d", dict(TSTEPS=3, N=1000), "LL"),
    ("seidel-2d", dict(TSTEPS=2, N=2500), "beyond"),
]

EXTRA_CASES = [
    ("gemm", dict(NI=100, NJ=110, NK=120), "L2"),
    ("gemm", dict(NI=300, NJ=300, NK=300), "LL"),
    ("gemm", dict(NI=16, NJ=1600, NK=1600), "beyond"),
    ("atax", dict(M=200, N=220), "L2"),
    ("atax", dict(M=1900, N=2100), "beyond"),
    ("bicg", dict(M=200, N=220), "L2"),
    ("bicg", dict(M=2100, N=1900), "beyond"),
    ("gesummv", dict(N=250), "LL"),
    ("gesummv", dict(N=1300), "LL"),
    ("gesummv", dict(N=2200), "beyond"),
    ("syr2k", dict(M=100, N=150), "L2"),
    ("syr2k", dict(M=200, N=240), "LL"),
    ("syr2k", dict(M=16, N=2100), "beyond"),
    ("lu", dict(N=120), "L2"),
    ("lu", dict(N=400), "LL"),
    ("jacobi-2d", dict(TSTEPS=4, N=200), "L2"),
    ("jacobi-2d", dict(TSTEPS=3, N=1000), "LL"),
    ("jacobi-2d", dict(TSTEPS=2, N=1700), "beyond"),
    ("heat-3d", dict(TSTEPS=4, N=30), "LL"),
    ("heat-3d", dict(TSTEPS=3, N=100), "LL"),
    ("heat-3d", dict(TSTEPS=2, N=150), "beyond"),
    ("doitgen", dict(NR=25, NQ=20, NP=30), "LL"),
    ("doitgen", dict(NR=50, NQ=40, NP=60), "LL"),
    ("3mm", dict(NI=100, NJ=110, NK=120, NL=130, NM=140), "LL"),
    ("3mm", dict(NI=16, NJ=1200, NK=16, NL=1200, NM=1200), "beyond"),
    ("jacobi-1d", dict(TSTEPS=20, N=4000), "L1"),
    ("jacobi-1d", dict(TSTEPS=4, N=3000000), "beyond"),
]
