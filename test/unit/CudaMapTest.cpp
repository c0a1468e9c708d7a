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
#include <set>
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
  expectExactlyOnce<warptile_sm75>("warptiled sm_75");
  expectExactlyOnce<warptile_sm80>("warptiled sm_80");
  expectExactlyOnce<warptile_sm90>("warptiled sm_90");
  expectExactlyOnce<mma_bf16_map>("bf16 mma");
  expectExactlyOnce<mma_s8_map>("int8 mma");
  expectExactlyOnce<wgmma_map>("wgmma");
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

/// A tile loader over one block's K steps: every slot of the tile filled
/// exactly once per step (with a run of \p Width elements), in bounds
/// exactly when the whole run is, and every in-bounds (row, k) of the
/// block's rows loaded exactly once over all steps ("every k visited
/// once"). Load(K0, Fn(slot row, slot col, row, k, width, ok)).
template <class L>
void expectTileCover(int Rows, int Cols, int Step, int64_t Row0, int64_t RLim, int64_t KLim,
                     int Width, L &&Load, const char *What, bool KAlongCols = true) {
  std::map<std::pair<int64_t, int64_t>, int> Seen;
  for (int64_t K0 = 0; K0 < KLim; K0 += Step) {
    std::vector<int> Slot(size_t(Rows * Cols), 0);
    Load(K0, [&](int R, int C, int64_t GR, int64_t GC, int W, bool Ok) {
      ASSERT_EQ(W, Width) << What;
      ASSERT_TRUE(R >= 0 && R < Rows && C >= 0 && C + W <= Cols) << What;
      int64_t Row = KAlongCols ? GR : GC, K = KAlongCols ? GC : GR;
      int64_t RowLim = RLim;
      bool In = Row < RowLim && (KAlongCols ? K + W - 1 < KLim : K < KLim);
      if (!KAlongCols)
        In = K < KLim && Row + W - 1 < RowLim;
      ASSERT_EQ(Ok, In) << What << ": run at (" << Row << ", " << K << ")";
      for (int E = 0; E < W; ++E) {
        ++Slot[size_t(R * Cols + C + E)];
        if (Ok)
          ++Seen[KAlongCols ? std::make_pair(Row, K + E) : std::make_pair(Row + E, K)];
      }
    });
    for (int X : Slot)
      ASSERT_EQ(X, 1) << What << ": a slot not filled exactly once at K0 " << K0;
  }
  // Every element of the block's rows, all k: once (runs are whole, so
  // with Width 1, or K a multiple of the width, nothing is missed).
  if (Width == 1 || KLim % Width == 0)
    for (int64_t R = Row0; R < std::min(RLim, Row0 + (KAlongCols ? Rows : Cols)); ++R)
      for (int64_t K = 0; K < KLim; ++K)
        ASSERT_EQ((Seen[{R, K}]), 1) << What << ": (" << R << ", " << K << ") not loaded once";
}

template <class Map> void expectWarptileTiles(const char *Name) {
  for (dims D : shapes())
    for (bool Vec : {false, true}) {
      if (Vec && (D.K % 4 || D.N % 4))
        continue; // the launcher's condition for the float4 path
      launch L = Map::config(D);
      for (unsigned BY = 0; BY < L.grid.y; ++BY)
        for (unsigned BX = 0; BX < L.grid.x; ++BX) {
          idx3 Bl{BX, BY, 0};
          expectTileCover(Map::BM, Map::BK, Map::BK, int64_t(BY) * Map::BM, D.M, D.K,
                          Vec ? 4 : 1, [&](int64_t K0, auto &&Fn) {
                            for (unsigned T = 0; T < unsigned(Map::Threads); ++T)
                              Map::load_a(D, Vec, Bl, {T, 0, 0}, K0, Fn);
                          }, Name);
          // B: rows are k, columns j.
          std::map<std::pair<int64_t, int64_t>, int> Seen;
          for (int64_t K0 = 0; K0 < D.K; K0 += Map::BK) {
            std::vector<int> Slot(Map::BK * Map::BN, 0);
            for (unsigned T = 0; T < unsigned(Map::Threads); ++T)
              Map::load_b(D, Vec, Bl, {T, 0, 0}, K0,
                          [&](int K, int N, int64_t GK, int64_t J, int W, bool Ok) {
                            ASSERT_EQ(Ok, GK < D.K && J + W - 1 < D.N) << Name;
                            for (int E = 0; E < W; ++E) {
                              ++Slot[K * Map::BN + N + E];
                              if (Ok)
                                ++Seen[{GK, J + E}];
                            }
                          });
            for (int X : Slot)
              ASSERT_EQ(X, 1) << Name << ": B slot";
          }
          for (int64_t K = 0; K < D.K; ++K)
            for (int64_t J = int64_t(BX) * Map::BN; J < std::min(D.N, int64_t(BX + 1) * Map::BN); ++J)
              ASSERT_EQ((Seen[{K, J}]), 1) << Name << ": B(" << K << ", " << J << ")";
        }
    }
}

TEST(CudaMap, WarptileTilesFilledOnceEveryKOnce) {
  expectWarptileTiles<warptile_sm75>("warptiled sm_75");
  expectWarptileTiles<warptile_sm80>("warptiled sm_80");
  expectWarptileTiles<warptile_sm90>("warptiled sm_90");
}

/// The shared-memory reads of a warptiled warp at one k: its 8 A rows in 8
/// different banks, its B runs 16 consecutive floats (no bank conflict).
template <class Map> void expectWarptileConflictFree() {
  for (unsigned W = 0; W < unsigned(Map::Threads / 32); ++W)
    for (int M = 0; M < Map::TM; ++M) {
      std::map<int, std::set<int>> Banks; // bank -> rows
      for (unsigned L = 0; L < 32; ++L) {
        int Row = Map::row(32 * W + L, M);
        Banks[(Row * Map::LDA) % 32].insert(Row);
      }
      for (auto &B : Banks)
        EXPECT_EQ(B.second.size(), 1u) << "two A rows of a warp share bank " << B.first;
    }
  for (unsigned W = 0; W < unsigned(Map::Threads / 32); ++W)
    for (int N = 0; N < Map::TN / 4; ++N) {
      std::set<int> Words;
      for (unsigned L = 0; L < 32; ++L)
        for (int E = 0; E < 4; ++E)
          Words.insert(Map::col(32 * W + L, N) + E);
      EXPECT_EQ(Words.size(), 16u);
      EXPECT_EQ(*Words.rbegin() - *Words.begin(), 15);
    }
}

TEST(CudaMap, WarptileSharedReadsConflictFree) {
  expectWarptileConflictFree<warptile_sm75>();
  expectWarptileConflictFree<warptile_sm80>();
  expectWarptileConflictFree<warptile_sm90>();
}

TEST(CudaMap, MmaTilesFilledOnceEveryKOnce) {
  for (dims D : shapes()) {
    // bf16: A (BM x BK) and B (BK x BN, k-major); chunks of 8 elements
    // when K and N are multiples of 8.
    for (bool Vec : {false, true}) {
      using Map = mma_bf16_map;
      if (Vec && (D.K % 8 || D.N % 8))
        continue;
      launch L = Map::config(D);
      for (unsigned BY = 0; BY < L.grid.y; ++BY) {
        expectTileCover(Map::BM, Map::BK, Map::BK, int64_t(BY) * Map::BM, D.M, D.K,
                        Vec ? 8 : 1, [&](int64_t K0, auto &&Fn) {
                          for (unsigned T = 0; T < unsigned(Map::Threads); ++T)
                            Map::load(Map::BM, Map::BK, Vec, int64_t(BY) * Map::BM, K0, D.M,
                                      D.K, {T, 0, 0}, Fn);
                        }, "bf16 A");
      }
      for (unsigned BX = 0; BX < L.grid.x; ++BX)
        expectTileCover(Map::BK, Map::BN, Map::BK, int64_t(BX) * Map::BN, D.N, D.K,
                        Vec ? 8 : 1, [&](int64_t K0, auto &&Fn) {
                          for (unsigned T = 0; T < unsigned(Map::Threads); ++T)
                            Map::load(Map::BK, Map::BN, Vec, K0, int64_t(BX) * Map::BN, D.K,
                                      D.N, {T, 0, 0}, Fn);
                        }, "bf16 B", /*KAlongCols=*/false);
    }
    // int8: both operands rows x K, chunks of 16 when K is a multiple of 16.
    for (bool Vec : {false, true}) {
      using Map = mma_s8_map;
      if (Vec && D.K % 16)
        continue;
      launch L = Map::config(D);
      for (unsigned BY = 0; BY < L.grid.y; ++BY)
        expectTileCover(Map::BM, Map::BK, Map::BK, int64_t(BY) * Map::BM, D.M, D.K,
                        Vec ? 16 : 1, [&](int64_t K0, auto &&Fn) {
                          for (unsigned T = 0; T < unsigned(Map::Threads); ++T)
                            Map::load(Map::BM, Map::BK, Vec, int64_t(BY) * Map::BM, K0, D.M,
                                      D.K, {T, 0, 0}, Fn);
                        }, "int8 A");
      for (unsigned BX = 0; BX < L.grid.x; ++BX)
        expectTileCover(Map::BN, Map::BK, Map::BK, int64_t(BX) * Map::BN, D.N, D.K,
                        Vec ? 16 : 1, [&](int64_t K0, auto &&Fn) {
                          for (unsigned T = 0; T < unsigned(Map::Threads); ++T)
                            Map::load(Map::BN, Map::BK, Vec, int64_t(BX) * Map::BN, K0, D.N,
                                      D.K, {T, 0, 0}, Fn);
                        }, "int8 B");
    }
  }
}

/// wgmma's slabs: every byte of a stage's A and B tiles written by exactly
/// one element (or chunk), each in-bounds (row, k) of the block once over
/// all K steps; chunks of 16 bytes never straddle two slabs.
TEST(CudaMap, WgmmaSlabsFilledOnce) {
  using Map = wgmma_map;
  for (dims D : shapes())
    for (bool Vec : {false, true}) {
      if (Vec && D.K % 8)
        continue;
      launch L = Map::config(D);
      for (unsigned BY = 0; BY < L.grid.y; ++BY) {
        std::map<std::pair<int64_t, int64_t>, int> Seen;
        for (int64_t K0 = 0; K0 < D.K; K0 += Map::BK) {
          std::vector<int> Bytes(8 * Map::Slab, 0);
          for (unsigned T = 0; T < unsigned(Map::Threads); ++T)
            Map::loader::load(Map::BM, Map::BK, Vec, int64_t(BY) * Map::BM, K0, D.M, D.K,
                              {T, 0, 0}, [&](int R, int C, int64_t I, int64_t K, int W, bool Ok) {
                                int Off = Map::slab_offset(R, C);
                                ASSERT_EQ(Off / Map::Slab, (C + W - 1) / 8) << "a chunk across slabs";
                                for (int B = 0; B < 2 * W; ++B)
                                  ++Bytes[size_t(Off + B)];
                                for (int E = 0; E < W && Ok; ++E)
                                  ++Seen[{I, K + E}];
                              });
          for (int X : Bytes)
            ASSERT_EQ(X, 1);
        }
        for (int64_t I = int64_t(BY) * Map::BM; I < std::min(D.M, int64_t(BY + 1) * Map::BM); ++I)
          for (int64_t K = 0; K < D.K; ++K)
            ASSERT_EQ((Seen[{I, K}]), 1) << "A(" << I << ", " << K << ")";
      }
    }
}

/// The mma C fragment (PTX ISA, m16n8k16 and m16n8k32): the 32 lanes' 4
/// accumulators cover a 16 x 8 tile once.
TEST(CudaMap, MmaAccumulatorsCoverTheTile) {
  using Map = mma_bf16_map;
  dims D{Map::BM, Map::BN, 16};
  for (unsigned W = 0; W < unsigned(Map::Threads / 32); ++W) {
    std::map<std::tuple<int, int, int, int>, int> Seen; // mi, ni, row, col
    for (unsigned L = 0; L < 32; ++L)
      Map::outputs(D, {0, 0, 0}, {32 * W + L, 0, 0},
                   [&](int64_t I, int64_t J, int Mi, int Ni, int) {
                     int R = int(I) - Map::warp_row(32 * W) - 16 * Mi;
                     int C = int(J) - Map::warp_col(32 * W) - 8 * Ni;
                     ASSERT_TRUE(R >= 0 && R < 16 && C >= 0 && C < 8);
                     ++Seen[{Mi, Ni, R, C}];
                   });
    EXPECT_EQ(Seen.size(), size_t(Map::MI * Map::NI * 16 * 8));
    for (auto &X : Seen)
      EXPECT_EQ(X.second, 1);
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
