// One side of scripts/bench-gemm-blocks-ab.sh: C = A B (row-major, f32, one
// thread) at M N K, either the blocked path of the roofline_gemm.h it was
// built against (blocks MC NC KC, register tile 6 x 64, as the emitted
// `tiled` variant) or OpenBLAS's cblas_sgemm (-DUSE_BLAS). Prints the median
// GFLOP/s over REPS calls after one warm-up call; first checks 64 elements of
// C against a double-precision sum (exits 1 past 1e-4 relative to the sum
// of |terms|) and, for OpenBLAS, prints the core it runs on.
//   bench-gemm-blocks-ab M N K [MC NC KC] [REPS]
#include "roofline_kernel.h"
#include "roofline_gemm.h"

#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <random>
#include <vector>

#ifdef USE_BLAS
extern "C" void cblas_sgemm(int, int, int, int, int, int, float, const float *, int,
                            const float *, int, float, float *, int);
extern "C" char *openblas_get_corename(void);
#endif

int main(int argc, char **argv) {
  if (argc < 4)
    return 2;
  const int64_t M = atoll(argv[1]), N = atoll(argv[2]), K = atoll(argv[3]);
  const int64_t MC = argc > 4 ? atoll(argv[4]) : 120, NC = argc > 5 ? atoll(argv[5]) : 512,
                KC = argc > 6 ? atoll(argv[6]) : 512;
  const int Reps = argc > 7 ? atoi(argv[7]) : 5;
  std::vector<float> A(M * K), B(K * N), C(M * N);
  std::mt19937 Gen(7);
  std::uniform_real_distribution<float> U(-1, 1);
  for (float &X : A)
    X = U(Gen);
  for (float &X : B)
    X = U(Gen);
  auto Run = [&] {
#ifdef USE_BLAS
    cblas_sgemm(101, 111, 111, int(M), int(N), int(K), 1.0f, A.data(), int(K), B.data(),
                int(N), 0.0f, C.data(), int(N));
#else
    static const rl::gemm::path P =
        rl::gemm::path_of(rl::pick({rl::isa::avx512, rl::isa::avx2, rl::isa::portable}));
    const rl::gemm::strided G{M, N, K, A.data(), K, 1, B.data(), N, 1, C.data(), N, 1, true};
    rl::gemm::sgemm<6, 64>(P, G, rl::gemm::blocks{MC, NC, KC}, false, rl::gemm::no_epi(),
                           rl::gemm::no_block_epi());
#endif
  };
  Run();
  for (int T = 0; T < 64; ++T) {
    const int64_t I = Gen() % M, J = Gen() % N;
    double Sum = 0, Abs = 0;
    for (int64_t P = 0; P < K; ++P) {
      Sum += double(A[I * K + P]) * B[P * N + J];
      Abs += std::fabs(double(A[I * K + P]) * B[P * N + J]);
    }
    if (std::fabs(C[I * N + J] - Sum) > 1e-4 * Abs) {
      fprintf(stderr, "C[%lld][%lld] = %g, want %g\n", (long long)I, (long long)J,
              double(C[I * N + J]), Sum);
      return 1;
    }
  }
#ifdef USE_BLAS
  fprintf(stderr, "openblas core %s\n", openblas_get_corename());
#endif
  std::vector<double> T;
  for (int R = 0; R < Reps; ++R) {
    auto T0 = std::chrono::steady_clock::now();
    Run();
    T.push_back(std::chrono::duration<double>(std::chrono::steady_clock::now() - T0).count());
  }
  std::sort(T.begin(), T.end());
  printf("%.1f\n", 2.0 * M * N * K / T[T.size() / 2] / 1e9);
}
