//===- CudaMapTest.cpp - CPU emulation of the CUDA variants' launches -----===//
//
// The maps of kernels/runtime/roofline_cuda.h decide, for every CUDA
// variant, the launch grid, which thread writes which output, and which
// thread fills which shared-memory slot; the kernels call them. Here the
// same maps run over the whole grid on the CPU, for sizes that are and are
// not multiples of the tiles: every output must be written exactly once,
// every tile slot filled exactly once per K step (zero outside the matrix),
// and the tiled algorithms built on them must compute the product.
//
//===----------------------------------------------------------------------===//

#include "roofline_cuda.h"

#include "gtest/gtest.h"

#include <cmath>
#include <cstdint>
#include <map>
#include <random>
#include <tuple>
#include <vector>

using namespace rl::cuda;

namespace {

/// Every (block, thread) of \p L.
template <class F> void forAll(const launch &L, F &&Fn) {
  for (unsigned BZ = 0; BZ < L.grid.z; ++BZ)
    for (unsigned BY = 0; BY < L.grid.y; ++BY)
      for (unsigned BX = 0; BX < L.grid.x; ++BX)
        for (unsigned TZ = 0; TZ < L.block.z; ++TZ)
          for (unsigned TY = 0; TY < L.block.y; ++TY)
            for (unsigned TX = 0; TX < L.block.x; ++TX)
              Fn(idx3{BX, BY, BZ}, idx3{TX, TY, TZ});
}

const std::vector<dims> &shapes() {
  // Tile edges: 1, below/at/above 8, 16, 32, 64, 128, and primes.
  static const std::vector<dims> S = {
      {1, 1, 1},     {1, 7, 3},      {7, 1, 5},     {31, 33, 17},
      {32, 32, 32},  {64, 64, 8},    {65, 63, 9},   {127, 129, 31},
      {128, 128, 8}, {129, 257, 33}, {200, 3, 100}, {3, 300, 2},
      {257, 131, 13}};
  return S;
}

/// Writes per output by the map \p M (outputs' callback takes (i, j, ...)).
template <class Map> std::vector<int> writes(const dims &D) {
  std::vector<int> W(size_t(D.M * D.N), 0);
  launch L = Map::config(D);
  EXPECT_GT(L.grid.x, 0u);
  EXPECT_LE(L.grid.y, 65535u);
  forAll(L, [&](idx3 B, idx3 T) {
    Map::outputs(D, B, T, [&](int64_t I, int64_t J, auto...) {
      ASSERT_TRUE(I >= 0 && I < D.M && J >= 0 && J < D.N)
          << "output (" << I << ", " << J << ") out of range";
      ++W[size_t(I * D.N + J)];
    });
  });
  return W;
}

template <class Map> void expectExactlyOnce(const char *Name, bool Gemv = false) {
  for (dims D : shapes()) {
    if (Gemv)
      D.N = 1;
    std::vector<int> W = writes<Map>(D);
    for (int64_t I = 0; I < D.M; ++I)
      for (int64_t J = 0; J < D.N; ++J)
        ASSERT_EQ(W[size_t(I * D.N + J)], 1)
            << Name << ": output (" << I << ", " << J << ") of " << D.M << "x"
            << D.N << "x" << D.K;
  }
}

TEST(CudaMap, EveryOutputWrittenOnce) {
  expectExactlyOnce<naive_map>("naive");
  expectExactlyOnce<coalesced_map>("coalesced");
  expectExactlyOnce<smem_map<32>>("smem-tiled");
  expectExactlyOnce<blocktile_map<128, 128, 8, 8, 8>>("blocktiled");
  expectExactlyOnce<dp4a_map<64, 64, 8>>("int8");
  expectExactlyOnce<wmma_map>("bf16");
  expectExactlyOnce<gemv_thread_map>("gemv naive", true);
  expectExactlyOnce<gemv_warp_map>("gemv warp", true);
}

TEST(CudaMap, NaiveIsTheSeedsOneThreadPerOutput) {
  // 64x64: 4,096 threads, one per output (seed, section 2).
  launch L = naive_map::config({64, 64, 64});
  EXPECT_EQ(uint64_t(L.grid.x) * L.grid.y * L.block.x * L.block.y, 4096u);
  // Coalesced: the 32 threads of a warp write 32 consecutive columns.
  std::vector<int64_t> Cols;
  for (unsigned T = 0; T < 32; ++T)
    coalesced_map::outputs({64, 64, 64}, {0, 0, 0}, {T, 0, 0},
                           [&](int64_t, int64_t J) { Cols.push_back(J); });
  for (unsigned T = 0; T < 32; ++T)
    EXPECT_EQ(Cols[T], int64_t(T));
}

TEST(CudaMap, GridStrideCoversIterationsOnce) {
  for (int64_t N : {int64_t(0), int64_t(1), int64_t(255), int64_t(256),
                    int64_t(257), int64_t(100000)}) {
    launch L = grid_stride_map::config(N);
    std::vector<int> W(size_t(N), 0);
    forAll(L, [&](idx3 B, idx3 T) {
      grid_stride_map::iterations(N, L.grid, B, T, [&](int64_t X) {
        ASSERT_TRUE(X >= 0 && X < N);
        ++W[size_t(X)];
      });
    });
    for (int64_t X = 0; X < N; ++X)
      ASSERT_EQ(W[size_t(X)], 1) << "iteration " << X << " of " << N;
  }
  // More iterations than the grid has threads: each thread loops.
  launch L = grid_stride_map::config(int64_t(1) << 40);
  EXPECT_EQ(L.grid.x, unsigned(grid_stride_map::MaxBlocks));
}

/// Shared-memory slots of one block's tile filled per K step: each exactly
/// once, with the element of the matrix that belongs there.
TEST(CudaMap, SmemTilesFilledOnce) {
  constexpr int T = 32;
  for (const dims &D : shapes()) {
    launch L = smem_map<T>::config(D);
    for (unsigned BY = 0; BY < L.grid.y; ++BY)
      for (unsigned BX = 0; BX < L.grid.x; ++BX)
        for (int64_t K0 = 0; K0 < D.K; K0 += T) {
          int A[T][T] = {}, B[T][T] = {};
          for (unsigned TY = 0; TY < T; ++TY)
            for (unsigned TX = 0; TX < T; ++TX) {
              idx3 Bl{BX, BY, 0}, Th{TX, TY, 0};
              smem_map<T>::load_a(D, Bl, Th, K0, [&](int R, int C, int64_t I, int64_t K, bool Ok) {
                ++A[R][C];
                EXPECT_EQ(I, int64_t(BY) * T + R);
                EXPECT_EQ(K, K0 + C);
                EXPECT_EQ(Ok, I < D.M && K < D.K);
              });
              smem_map<T>::load_b(D, Bl, Th, K0, [&](int R, int C, int64_t K, int64_t J, bool Ok) {
                ++B[R][C];
                EXPECT_EQ(K, K0 + R);
                EXPECT_EQ(J, int64_t(BX) * T + C);
                EXPECT_EQ(Ok, K < D.K && J < D.N);
              });
            }
          for (int R = 0; R < T; ++R)
            for (int C = 0; C < T; ++C)
              ASSERT_TRUE(A[R][C] == 1 && B[R][C] == 1);
        }
  }
}

std::vector<float> randomMatrix(int64_t R, int64_t C, unsigned Seed) {
  std::mt19937 G(Seed);
  std::uniform_real_distribution<float> U(-1.f, 1.f);
  std::vector<float> X(size_t(R * C));
  for (float &V : X) {
    V = U(G);
    if (V == 0.f)
      V = 0.5f;
  }
  return X;
}

/// gemm_blocktiled's algorithm on the CPU, through its maps: the tiles as
/// load_a/load_b fill them, the register tiles as the kernel reads them, the
/// outputs as the map stores them. Checked against a plain product.
template <bool Vec> void emulateBlocktiled(const dims &D) {
  constexpr int BM = 128, BN = 128, BK = 8, TM = 8, TN = 8;
  using Map = blocktile_map<BM, BN, BK, TM, TN>;
  std::vector<float> A = randomMatrix(D.M, D.K, 1), B = randomMatrix(D.K, D.N, 2);
  std::vector<float> C(size_t(D.M * D.N), std::nanf(""));
  launch L = Map::config(D);
  for (unsigned BY = 0; BY < L.grid.y; ++BY)
    for (unsigned BX = 0; BX < L.grid.x; ++BX) {
      idx3 Bl{BX, BY, 0};
      std::vector<float> Acc(size_t(Map::Threads) * TM * TN, 0.f);
      for (int64_t K0 = 0; K0 < D.K; K0 += BK) {
        std::vector<int> Fa(BK * BM, 0), Fb(BK * BN, 0);
        std::vector<float> As(BK * BM), Bs(BK * BN);
        for (unsigned T = 0; T < unsigned(Map::Threads); ++T) {
          Map::load_a(D, Vec, Bl, {T, 0, 0}, K0,
                      [&](int M, int K, int64_t I, int64_t GK, int W, bool Ok) {
                        ASSERT_EQ(W, Vec ? 4 : 1);
                        for (int E = 0; E < W; ++E) {
                          // A run is all in or all out: none is half lost.
                          bool In = I < D.M && GK + E < D.K;
                          ASSERT_EQ(In, Ok) << "partial float4 run";
                          As[(K + E) * BM + M] = Ok ? A[size_t(I * D.K + GK + E)] : 0.f;
                          ++Fa[(K + E) * BM + M];
                        }
                      });
          Map::load_b(D, Vec, Bl, {T, 0, 0}, K0,
                      [&](int K, int N, int64_t GK, int64_t J, int W, bool Ok) {
                        for (int E = 0; E < W; ++E) {
                          bool In = GK < D.K && J + E < D.N;
                          ASSERT_EQ(In, Ok) << "partial float4 run";
                          Bs[K * BN + N + E] = Ok ? B[size_t(GK * D.N + J + E)] : 0.f;
                          ++Fb[K * BN + N + E];
                        }
                      });
        }
        for (int X : Fa)
          ASSERT_EQ(X, 1);
        for (int X : Fb)
          ASSERT_EQ(X, 1);
        for (unsigned T = 0; T < unsigned(Map::Threads); ++T)
          for (int K = 0; K < BK; ++K)
            for (int R = 0; R < TM; ++R)
              for (int Cc = 0; Cc < TN; ++Cc)
                Acc[(T * TM + R) * TN + Cc] += As[K * BM + Map::row0(T) + R] *
                                               Bs[K * BN + Map::col0(T) + Cc];
      }
      for (unsigned T = 0; T < unsigned(Map::Threads); ++T)
        Map::outputs(D, Bl, {T, 0, 0}, [&](int64_t I, int64_t J, int R, int Cc) {
          C[size_t(I * D.N + J)] = Acc[(T * TM + R) * TN + Cc];
        });
    }
  for (int64_t I = 0; I < D.M; ++I)
    for (int64_t J = 0; J < D.N; ++J) {
      double Ref = 0, Mag = 0;
      for (int64_t K = 0; K < D.K; ++K) {
        Ref += double(A[size_t(I * D.K + K)]) * B[size_t(K * D.N + J)];
        Mag += std::fabs(double(A[size_t(I * D.K + K)]) * B[size_t(K * D.N + J)]);
      }
      ASSERT_NEAR(C[size_t(I * D.N + J)], Ref, 1e-5 * (Mag + 1))
          << "C(" << I << ", " << J << ") of " << D.M << "x" << D.N << "x" << D.K;
    }
}

TEST(CudaMap, BlocktiledComputesTheProduct) {
  // Scalar path: any sizes. float4 path: the launcher's condition (K and N
  // multiples of 4).
  for (dims D : {dims{1, 1, 1}, dims{129, 131, 9}, dims{130, 257, 17}, dims{7, 300, 3}})
    emulateBlocktiled<false>(D);
  for (dims D : {dims{4, 4, 4}, dims{129, 132, 12}, dims{130, 260, 20}, dims{128, 128, 8}})
    emulateBlocktiled<true>(D);
}

TEST(CudaMap, Dp4aComputesTheProduct) {
  // Integer operands: the emulation must be exact. Bq is B transposed.
  using Map = dp4a_map<64, 64, 8>;
  for (dims D : {dims{1, 1, 1}, dims{65, 63, 37}, dims{64, 64, 64}, dims{130, 70, 3}}) {
    std::mt19937 G(3);
    std::uniform_int_distribution<int> U(-127, 127);
    std::vector<int8_t> Aq(size_t(D.M * D.K)), Bq(size_t(D.N * D.K));
    for (int8_t &X : Aq)
      X = int8_t(U(G));
    for (int8_t &X : Bq)
      X = int8_t(U(G));
    int64_t KW = cdiv(D.K, 4);
    std::vector<int64_t> C(size_t(D.M * D.N), INT64_MIN);
    launch L = Map::config(D);
    for (unsigned BY = 0; BY < L.grid.y; ++BY)
      for (unsigned BX = 0; BX < L.grid.x; ++BX) {
        std::vector<int64_t> Acc(size_t(Map::Threads) * Map::TM * Map::TN, 0);
        for (int64_t W0 = 0; W0 < KW; W0 += 8) {
          // Slots hold word indices (or -1 for zero) to check coverage too.
          std::map<std::pair<int, int>, int64_t> Sa, Sb;
          for (unsigned T = 0; T < unsigned(Map::Threads); ++T) {
            Map::load(64, D.M, KW, int64_t(BY) * 64, W0, {T, 0, 0},
                      [&](int R, int W, int64_t Row, int64_t Word, bool Ok) {
                        ASSERT_TRUE(Sa.emplace(std::make_pair(R, W), Ok ? Row * KW + Word : -1).second);
                      });
            Map::load(64, D.N, KW, int64_t(BX) * 64, W0, {T, 0, 0},
                      [&](int R, int W, int64_t Row, int64_t Word, bool Ok) {
                        ASSERT_TRUE(Sb.emplace(std::make_pair(R, W), Ok ? Row * KW + Word : -1).second);
                      });
          }
          ASSERT_EQ(Sa.size(), 64u * 8);
          ASSERT_EQ(Sb.size(), 64u * 8);
          auto Dot = [&](const std::vector<int8_t> &X, const std::vector<int8_t> &Y,
                         int64_t Wa, int64_t Wb) -> int64_t {
            if (Wa < 0 || Wb < 0)
              return 0;
            int64_t S = 0, Ra = Wa / KW, Rb = Wb / KW, Wd = Wa % KW;
            for (int E = 0; E < 4; ++E) {
              int64_t K = Wd * 4 + E;
              if (K < D.K) // the bytes past K are zero (word_at)
                S += int64_t(X[size_t(Ra * D.K + K)]) * Y[size_t(Rb * D.K + K)];
            }
            return S;
          };
          for (unsigned T = 0; T < unsigned(Map::Threads); ++T) {
            int Ty = int(T) / Map::TX, Tx = int(T) % Map::TX;
            for (int W = 0; W < 8; ++W)
              for (int R = 0; R < Map::TM; ++R)
                for (int Cc = 0; Cc < Map::TN; ++Cc)
                  Acc[(T * Map::TM + R) * Map::TN + Cc] +=
                      Dot(Aq, Bq, Sa[{Ty + Map::TY * R, W}], Sb[{Tx + Map::TX * Cc, W}]);
          }
        }
        for (unsigned T = 0; T < unsigned(Map::Threads); ++T)
          Map::outputs(D, {BX, BY, 0}, {T, 0, 0}, [&](int64_t I, int64_t J, int R, int Cc) {
            C[size_t(I * D.N + J)] = Acc[(T * Map::TM + R) * Map::TN + Cc];
          });
      }
    for (int64_t I = 0; I < D.M; ++I)
      for (int64_t J = 0; J < D.N; ++J) {
        int64_t Ref = 0;
        for (int64_t K = 0; K < D.K; ++K)
          Ref += int64_t(Aq[size_t(I * D.K + K)]) * Bq[size_t(J * D.K + K)];
        ASSERT_EQ(C[size_t(I * D.N + J)], Ref) << I << "," << J;
      }
  }
}

TEST(CudaMap, WmmaTilesFilledOnce) {
  using Map = wmma_map;
  for (const dims &D : shapes()) {
    launch L = Map::config(D);
    for (unsigned BY = 0; BY < L.grid.y; ++BY)
      for (unsigned BX = 0; BX < L.grid.x; ++BX)
        for (int64_t K0 = 0; K0 < D.K; K0 += Map::BK) {
          std::vector<int> A(Map::BM * Map::BK, 0), B(Map::BK * Map::BN, 0);
          for (unsigned T = 0; T < unsigned(Map::Threads); ++T) {
            Map::load_a(D, {BX, BY, 0}, {T, 0, 0}, K0,
                        [&](int R, int C, int64_t I, int64_t K, bool Ok) {
                          ++A[R * Map::BK + C];
                          EXPECT_EQ(I, int64_t(BY) * Map::BM + R);
                          EXPECT_EQ(K, K0 + C);
                          EXPECT_EQ(Ok, I < D.M && K < D.K);
                        });
            Map::load_b(D, {BX, BY, 0}, {T, 0, 0}, K0,
                        [&](int R, int C, int64_t K, int64_t J, bool Ok) {
                          ++B[R * Map::BN + C];
                          EXPECT_EQ(K, K0 + R);
                          EXPECT_EQ(J, int64_t(BX) * Map::BN + C);
                          EXPECT_EQ(Ok, K < D.K && J < D.N);
                        });
          }
          for (int X : A)
            ASSERT_EQ(X, 1);
          for (int X : B)
            ASSERT_EQ(X, 1);
        }
  }
}

TEST(CudaMap, GemvWarpReadsEveryKOnce) {
  for (int64_t K : {int64_t(1), int64_t(3), int64_t(31), int64_t(32), int64_t(127),
                    int64_t(128), int64_t(129), int64_t(1000), int64_t(4096)})
    for (int W : {1, 4, 16}) {
      std::vector<int> Seen(size_t(K), 0);
      for (unsigned Lane = 0; Lane < 32; ++Lane)
        gemv_warp_map::reads({1, 1, K}, W, {Lane + 32, 0, 0}, [&](int64_t K0, int Wd, bool Ok) {
          ASSERT_EQ(Wd, W);
          for (int E = 0; E < Wd; ++E)
            if (K0 + E < K)
              ++Seen[size_t(K0 + E)];
          // The vector path is taken only when every lane's run is whole;
          // with K a multiple of W no run is partial.
          if (K % W == 0) {
            ASSERT_TRUE(Ok);
          }
        });
      for (int64_t X = 0; X < K; ++X)
        ASSERT_EQ(Seen[size_t(X)], 1) << "k " << X << " of " << K << ", width " << W;
    }
}

} // namespace
