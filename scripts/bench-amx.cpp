// AMX against the paths it replaces, in one process (issue 20): the int8
// gemm on path amx vs vnni and the bf16 gemm on path amx vs bf16
// (vdpbf16ps), C = A B at M = N = K = 1024 by default, A prepared (int8 per
// row, or bf16), B quantized or rounded in the timed call, as the emitted
// int8 and bf16 variants run them. Rounds alternate the two sides; prints
// the median GOP/s of each side and the ratio per round (median, min..max).
// Build and run: scripts/bench-amx.sh [N] [ROUNDS].
#include "roofline_gemm.h"

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <functional>
#include <cstdlib>
#include <random>
#include <vector>

namespace {

double seconds(const std::function<void()> &F, int Reps) {
  std::vector<double> T;
  for (int R = 0; R < Reps; ++R) {
    auto A = std::chrono::steady_clock::now();
    F();
    T.push_back(std::chrono::duration<double>(std::chrono::steady_clock::now() - A).count());
  }
  std::sort(T.begin(), T.end());
  return T[T.size() / 2];
}

double median(std::vector<double> V) {
  std::sort(V.begin(), V.end());
  return V[V.size() / 2];
}

} // namespace

int main(int argc, char **argv) {
  const int64_t N = argc > 1 ? std::atoll(argv[1]) : 1024;
  const int Rounds = argc > 2 ? std::atoi(argv[2]) : 7;
  if (!rl::amx_usable()) {
    std::printf("bench-amx: this CPU (or kernel) has no usable AMX; nothing to compare\n");
    return 0;
  }
  std::mt19937 Rng(1);
  std::uniform_real_distribution<float> U(-1.0f, 1.0f);
  std::vector<float> B(static_cast<size_t>(N * N)), C(B.size()), As(static_cast<size_t>(N));
  std::vector<signed char> A8(size_t(N * N));
  std::vector<rl::bf16> A16(size_t(N * N));
  for (auto &X : B)
    X = U(Rng);
  for (int64_t I = 0; I < N; ++I) {
    As[size_t(I)] = 1.0f / 127.0f;
    for (int64_t K = 0; K < N; ++K) {
      const float X = U(Rng);
      A8[size_t(I * N + K)] = static_cast<signed char>(std::lrint(X * 127.0f));
      A16[size_t(I * N + K)] = rl::bf16(X);
    }
  }
  const rl::gemm::blocks Bl{120, 512, 512}; // the emitted variants' default
  const rl::gemm::qproblem G8{N, N, N, A8.data(), N, 1, As.data(), 1, B.data(), N, 1, false,
                              C.data(), N, 1, true};
  const rl::gemm::qproblem G16{N, N, N, A16.data(), N, 1, nullptr, 0, B.data(), N, 1, false,
                               C.data(), N, 1, true};
  const double Ops = 2.0 * double(N) * double(N) * double(N);
  struct Pair {
    const char *Name, *Base;
    std::function<void(rl::gemm::path)> Run;
    rl::gemm::path BasePath;
  } Pairs[] = {
      {"int8", "vnni (vpdpbusd)",
       [&](rl::gemm::path P) {
         rl::gemm::i8gemm(P, G8, Bl, rl::gemm::no_epi(), rl::gemm::no_block_epi());
       },
       rl::gemm::path::vnni},
      {"bf16", "bf16 (vdpbf16ps)",
       [&](rl::gemm::path P) {
         rl::gemm::bf16gemm(P, G16, Bl, rl::gemm::no_epi(), rl::gemm::no_block_epi());
       },
       rl::gemm::path::bf16},
  };
  std::printf("bench-amx: M = N = K = %lld, %d rounds, one thread\n", (long long)N, Rounds);
  for (const Pair &P : Pairs) {
    std::vector<double> Amx, Base, Ratio;
    P.Run(rl::gemm::path::amx); // warm: scratch buffers, tile permission
    for (int R = 0; R < Rounds; ++R) {
      double Ta, Tb;
      if (R % 2) {
        Tb = seconds([&] { P.Run(P.BasePath); }, 5);
        Ta = seconds([&] { P.Run(rl::gemm::path::amx); }, 5);
      } else {
        Ta = seconds([&] { P.Run(rl::gemm::path::amx); }, 5);
        Tb = seconds([&] { P.Run(P.BasePath); }, 5);
      }
      Amx.push_back(Ops / Ta / 1e9);
      Base.push_back(Ops / Tb / 1e9);
      Ratio.push_back(Tb / Ta);
    }
    std::printf("  %s: amx %.0f GOP/s, %s %.0f GOP/s; amx / %s %.2f [%.2f .. %.2f]\n", P.Name,
                median(Amx), P.Base, median(Base), P.Base, median(Ratio),
                *std::min_element(Ratio.begin(), Ratio.end()),
                *std::max_element(Ratio.begin(), Ratio.end()));
  }
  return 0;
}
