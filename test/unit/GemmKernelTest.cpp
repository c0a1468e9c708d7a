//===- GemmKernelTest.cpp - roofline_gemm.h's small paths on every ISA ----===//
//
// The f32 and bf16 small-matrix paths of kernels/runtime/roofline_gemm.h
// (and the blocked drivers past their size limit) against a double-precision
// oracle, on each instruction-set path as RL_ISA forces it (the emitted
// variants pick theirs the same way), at shapes below one register tile,
// odd sizes, K = 1 and the limits of the small path. The bound is tight:
// a bf16 product of bf16 operands is exact in f32, so the only error left
// is f32 summation (K * eps of the magnitude); B rounded any other way than
// to nearest even (truncated, say) or a term dropped is far outside it.
// Quantized convolutions (qconvolve) likewise, with zero padding.
// Strided operands carry NaN in their padding: a kernel that reads past a
// row (A's last odd k, B's columns past N) makes NaN; C's padding must stay.
//
//===----------------------------------------------------------------------===//

#include "roofline_gemm.h"

#include <gtest/gtest.h>

#include <cmath>
#include <cstdlib>
#include <limits>
#include <random>
#include <string>
#include <vector>

namespace {

struct Shape {
  int64_t M, N, K;
};

// Below one tile (6 x 64, AVX2 6 x 16, AVX-512 fallback 4 x 64), K = 1,
// odd sizes, the seed's 64^3, the small path's limits, and shapes past
// them (the blocked driver).
const Shape Shapes[] = {{1, 1, 1},    {1, 1, 2},     {2, 3, 1},    {5, 7, 3},
                        {3, 17, 1},   {6, 64, 64},   {7, 65, 5},   {64, 64, 64},
                        {13, 129, 31}, {100, 160, 2}, {160, 100, 101}, {1, 160, 320},
                        {37, 33, 65}, {161, 20, 9},  {9, 30, 400}, {200, 70, 300}};

const float NaN = std::numeric_limits<float>::quiet_NaN();

// The RL_ISA value for the test, restored after it.
class ForcedIsa {
public:
  explicit ForcedIsa(const char *Name) {
    if (const char *Old = std::getenv("RL_ISA"))
      Saved = Old, HadOld = true;
    setenv("RL_ISA", Name, 1);
  }
  ~ForcedIsa() {
    if (HadOld)
      setenv("RL_ISA", Saved.c_str(), 1);
    else
      unsetenv("RL_ISA");
  }

private:
  std::string Saved;
  bool HadOld = false;
};

// Operands with padded rows (NaN in the padding) and C with a sentinel in
// its padding; values in [-1, 1], away from zero (no denormals).
struct Operands {
  Shape S;
  int64_t Am, Bk, Cm;
  std::vector<float> A, B, C;
  std::vector<rl::bf16> A16;

  Operands(Shape Sh, unsigned Seed) : S(Sh), Am(Sh.K + 1), Bk(Sh.N + 3), Cm(Sh.N + 2) {
    std::mt19937 Rng(Seed);
    std::uniform_real_distribution<float> U(0.125f, 1.0f);
    auto Value = [&] { return Rng() % 2 ? U(Rng) : -U(Rng); };
    A.assign(size_t(S.M * Am), NaN);
    B.assign(size_t(S.K * Bk), NaN);
    C.assign(size_t(S.M * Cm), 7.0f);
    A16.assign(A.size(), rl::bf16(NaN));
    for (int64_t I = 0; I < S.M; ++I)
      for (int64_t K = 0; K < S.K; ++K)
        A16[size_t(I * Am + K)] = A[size_t(I * Am + K)] = Value();
    for (int64_t K = 0; K < S.K; ++K)
      for (int64_t J = 0; J < S.N; ++J)
        B[size_t(K * Bk + J)] = Value();
    for (int64_t I = 0; I < S.M; ++I)
      for (int64_t J = 0; J < S.N; ++J)
        C[size_t(I * Cm + J)] = Value();
  }

  rl::gemm::strided f32(bool Beta0) {
    return {S.M, S.N, S.K, A.data(), Am, 1, B.data(), Bk, 1, C.data(), Cm, 1, Beta0};
  }
  rl::gemm::qproblem bf16(bool Beta0) {
    return {S.M,      S.N, S.K, A16.data(), Am, 1,  nullptr, 0,
            B.data(), Bk,  1,   false,      C.data(), Cm, 1,  Beta0};
  }

  // C0 + sum_k a(i,k) b(k,j) in double, with each operand through Round,
  // and sum_k |a b|.
  template <typename Round>
  void oracle(const std::vector<float> &C0, bool Beta0, Round R, std::vector<double> &Ref,
              std::vector<double> &Mag) const {
    Ref.assign(size_t(S.M * S.N), 0.0);
    Mag.assign(Ref.size(), 0.0);
    for (int64_t I = 0; I < S.M; ++I)
      for (int64_t J = 0; J < S.N; ++J) {
        double Sum = Beta0 ? 0.0 : C0[size_t(I * Cm + J)], Abs = std::fabs(Sum);
        for (int64_t K = 0; K < S.K; ++K) {
          const double P = double(R(A[size_t(I * Am + K)])) * double(R(B[size_t(K * Bk + J)]));
          Sum += P;
          Abs += std::fabs(P);
        }
        Ref[size_t(I * S.N + J)] = Sum;
        Mag[size_t(I * S.N + J)] = Abs;
      }
  }

  // Every element within (K + 2) f32 epsilons of its magnitude; C's
  // padding untouched.
  void expectNear(const std::vector<double> &Ref, const std::vector<double> &Mag,
                  const std::string &What) const {
    const double Eps = std::ldexp(1.0, -24) * double(S.K + 2);
    int Bad = 0;
    for (int64_t I = 0; I < S.M; ++I) {
      for (int64_t J = 0; J < S.N && Bad < 5; ++J) {
        const double Got = C[size_t(I * Cm + J)], Want = Ref[size_t(I * S.N + J)];
        if (!(std::fabs(Got - Want) <= Eps * Mag[size_t(I * S.N + J)])) {
          ADD_FAILURE() << What << ": C[" << I << "][" << J << "] = " << Got << ", want "
                        << Want << " within " << Eps * Mag[size_t(I * S.N + J)];
          ++Bad;
        }
      }
      for (int64_t J = S.N; J < Cm; ++J)
        EXPECT_EQ(C[size_t(I * Cm + J)], 7.0f) << What << ": C's padding written";
    }
  }
};

std::string describe(const char *Isa, Shape S, bool Beta0) {
  return std::string(Isa) + " M=" + std::to_string(S.M) + " N=" + std::to_string(S.N) +
         " K=" + std::to_string(S.K) + (Beta0 ? "" : " C+=");
}

// The emitted variants' default blocks (TileDefaults).
const rl::gemm::blocks Blocks{120, 512, 512};

class GemmKernel : public ::testing::TestWithParam<const char *> {
protected:
  // The path the emitted variant would run with RL_ISA forced to the
  // parameter; skips when this CPU does not have it.
  bool choose(std::initializer_list<rl::isa> Have, rl::gemm::path &P) {
    const char *Name = GetParam();
    ForcedIsa Force(Name);
    const rl::isa I = rl::pick(Have);
    static const char *Names[] = {"portable",   "avx2",       "avx512",
                                  "avx512vnni", "avx512bf16", "amx"};
    if (std::string(Names[int(I)]) != Name)
      return false;
    P = rl::gemm::path_of(I);
    return true;
  }
};

TEST_P(GemmKernel, F32MatchesOracle) {
  rl::gemm::path P;
  if (!choose({rl::isa::avx512, rl::isa::avx2, rl::isa::portable}, P))
    GTEST_SKIP() << GetParam() << ": not an f32 path, or not this CPU's";
  unsigned Seed = 1;
  for (const Shape &S : Shapes)
    for (bool Beta0 : {true, false}) {
      Operands O(S, Seed++);
      const std::vector<float> C0 = O.C;
      rl::gemm::sgemm<6, 64>(P, O.f32(Beta0), Blocks, false, rl::gemm::no_epi(),
                             rl::gemm::no_block_epi());
      std::vector<double> Ref, Mag;
      O.oracle(C0, Beta0, [](float X) { return X; }, Ref, Mag);
      O.expectNear(Ref, Mag, describe(GetParam(), S, Beta0));
    }
}

// Rows of C in more than one chunk of packed A (roofline_gemm.h
// packed_a_cap: 1100 x 2048 floats exceed it, so 1024 rows, then 76), each
// chunk over two K blocks (2048, 952) and two N blocks (64, 6).
TEST_P(GemmKernel, F32RowChunksMatchOracle) {
  rl::gemm::path P;
  if (!choose({rl::isa::avx512, rl::isa::avx2, rl::isa::portable}, P))
    GTEST_SKIP() << GetParam() << ": not an f32 path, or not this CPU's";
  const Shape S{1100, 70, 3000};
  ASSERT_GT(S.M * 2048, rl::gemm::packed_a_cap);
  for (bool Beta0 : {true, false}) {
    Operands O(S, 77 + Beta0);
    const std::vector<float> C0 = O.C;
    rl::gemm::sgemm<6, 64>(P, O.f32(Beta0), rl::gemm::blocks{8, 64, 2048}, false,
                           rl::gemm::no_epi(), rl::gemm::no_block_epi());
    std::vector<double> Ref, Mag;
    O.oracle(C0, Beta0, [](float X) { return X; }, Ref, Mag);
    O.expectNear(Ref, Mag, describe(GetParam(), S, Beta0) + " in row chunks");
  }
}

TEST_P(GemmKernel, Bf16MatchesOracle) {
  rl::gemm::path P;
  if (!choose({rl::isa::amx, rl::isa::avx512bf16, rl::isa::avx512, rl::isa::portable}, P))
    GTEST_SKIP() << GetParam() << ": not a bf16 path (avx2: the variant runs portable), or not "
                    "this CPU's";
  unsigned Seed = 1000;
  // Also small blocks: several K blocks (C accumulated across them), N and
  // M blocks, partial AMX tiles.
  for (const rl::gemm::blocks &Bl : {Blocks, rl::gemm::blocks{32, 64, 64}})
    for (const Shape &S : Shapes)
      for (bool Beta0 : {true, false}) {
        Operands O(S, Seed++);
        const std::vector<float> C0 = O.C;
        rl::gemm::bf16gemm(P, O.bf16(Beta0), Bl, rl::gemm::no_epi(),
                           rl::gemm::no_block_epi());
        std::vector<double> Ref, Mag;
        O.oracle(C0, Beta0, [](float X) { return float(rl::bf16(X)); }, Ref, Mag);
        O.expectNear(Ref, Mag, describe(GetParam(), S, Beta0) + " KC=" + std::to_string(Bl.KC));
      }
}

// int8 gemms (i8gemm): A quantized per row as the prepare entry does, B by
// the driver per tensor or per column; the int32 sums are exact, so C is
// the oracle's but for the f32 dequantization and the add to C. Also with
// small blocks: several K blocks (C accumulated across them), N and M
// blocks, partial AMX tiles.
TEST_P(GemmKernel, Int8MatchesOracle) {
  rl::gemm::path P;
  if (!choose({rl::isa::amx, rl::isa::avx512vnni, rl::isa::avx512, rl::isa::avx2,
               rl::isa::portable},
              P))
    GTEST_SKIP() << GetParam() << ": not this CPU's";
  const rl::gemm::blocks Small{32, 64, 64};
  unsigned Seed = 3000;
  for (const rl::gemm::blocks &Bl : {Blocks, Small})
    for (const Shape &S : Shapes)
      for (bool Beta0 : {true, false})
        for (bool Bcol : {false, true}) {
          Operands O(S, Seed++);
          const std::vector<float> C0 = O.C;
          std::vector<signed char> Aq(O.A.size(), 0);
          std::vector<float> As(size_t(S.M)), Bs(size_t(Bcol ? S.N : 1), 0.0f);
          for (int64_t I = 0; I < S.M; ++I) {
            float Max = 0.0f;
            for (int64_t K = 0; K < S.K; ++K)
              Max = std::fmax(Max, std::fabs(O.A[size_t(I * O.Am + K)]));
            As[size_t(I)] = std::fmax(Max, 1e-30f) / 127.0f;
            for (int64_t K = 0; K < S.K; ++K)
              Aq[size_t(I * O.Am + K)] = static_cast<signed char>(
                  std::lrint(O.A[size_t(I * O.Am + K)] / As[size_t(I)]));
          }
          for (int64_t K = 0; K < S.K; ++K)
            for (int64_t J = 0; J < S.N; ++J) {
              float &X = Bs[size_t(Bcol ? J : 0)];
              X = std::fmax(X, std::fabs(O.B[size_t(K * O.Bk + J)]));
            }
          for (float &X : Bs)
            X = std::fmax(X, 1e-30f) / 127.0f;
          const rl::gemm::qproblem G{S.M,      S.N,  S.K,  Aq.data(), O.Am, 1,    As.data(), 1,
                                     O.B.data(), O.Bk, 1,  Bcol,      O.C.data(), O.Cm, 1,
                                     Beta0};
          rl::gemm::i8gemm(P, G, Bl, rl::gemm::no_epi(), rl::gemm::no_block_epi());
          const std::string What = describe(GetParam(), S, Beta0) + (Bcol ? " per column" : "") +
                                   " KC=" + std::to_string(Bl.KC);
          int Bad = 0;
          for (int64_t I = 0; I < S.M && Bad < 5; ++I) {
            for (int64_t J = 0; J < S.N && Bad < 5; ++J) {
              int64_t Sum = 0, Abs = 0;
              const float Sb = Bs[size_t(Bcol ? J : 0)];
              for (int64_t K = 0; K < S.K; ++K) {
                const int64_t X = int64_t(Aq[size_t(I * O.Am + K)]) *
                                  int64_t(rl::gemm::quantize8(O.B[size_t(K * O.Bk + J)], Sb));
                Sum += X;
                Abs += X < 0 ? -X : X;
              }
              const double Scale = double(As[size_t(I)]) * double(Sb);
              const double Want =
                  (Beta0 ? 0.0 : double(C0[size_t(I * O.Cm + J)])) + double(Sum) * Scale;
              const double Got = O.C[size_t(I * O.Cm + J)];
              // Each K block's sum is exact, then dequantized and added to C
              // in f32: a few roundings a block, of at most the block's size.
              const double Blocks = double(S.K / (2 * Bl.KC) + 3);
              if (!(std::fabs(Got - Want) <= std::ldexp(Blocks * double(Abs) * Scale, -22) +
                                                 std::ldexp(std::fabs(Want), -22))) {
                ADD_FAILURE() << What << ": C[" << I << "][" << J << "] = " << Got << ", want "
                              << Want;
                ++Bad;
              }
            }
            for (int64_t J = S.N; J < O.Cm; ++J)
              EXPECT_EQ(O.C[size_t(I * O.Cm + J)], 7.0f) << What << ": C's padding written";
          }
        }
}

// The oracle is tight enough to see B truncated to bf16 instead of
// rounded: the same operands through truncation miss it.
TEST(GemmKernelOracle, TruncatedBf16Fails) {
  Operands O({64, 64, 64}, 7);
  const std::vector<float> C0 = O.C;
  rl::gemm::bf16gemm(rl::gemm::path::portable, O.bf16(true), Blocks, rl::gemm::no_epi(),
                     rl::gemm::no_block_epi());
  std::vector<double> Ref, Mag;
  O.oracle(C0, true,
           [](float X) {
             uint32_t U;
             std::memcpy(&U, &X, 4);
             U &= 0xffff0000u;
             std::memcpy(&X, &U, 4);
             return X;
           },
           Ref, Mag);
  const double Eps = std::ldexp(1.0, -24) * 66;
  int Outside = 0;
  for (size_t I = 0; I < Ref.size(); ++I)
    Outside += std::fabs(O.C[size_t(I / 64 * O.Cm + I % 64)] - Ref[I]) > Eps * Mag[I];
  EXPECT_GT(Outside, 2048);
}

// Quantized convolutions (rl::gemm::qconvolve): NCHW input, weights
// KCRS (their offsets a stride) or KRSC (not: copied dense first), zero
// padding, strides 1 and 2, against a double oracle of the same quantized
// operands: int8 exact but for the f32 dequantization, bf16 within f32
// summation.
struct ConvShape {
  int64_t N, C, K, H, W, R, S, Pad, Stride;
  bool Krsc; ///< the weights as [k][r][s][c]: offsets not a stride
};

const ConvShape ConvShapes[] = {
    {1, 1, 1, 1, 1, 1, 1, 0, 1, false},  {1, 1, 1, 3, 3, 3, 3, 1, 1, false},
    {1, 3, 5, 5, 7, 3, 3, 1, 1, false},  {2, 2, 7, 6, 5, 3, 3, 2, 1, true},
    {1, 3, 4, 7, 7, 3, 3, 1, 2, false},  {2, 1, 3, 4, 4, 5, 5, 2, 2, true},
    {1, 5, 9, 9, 11, 3, 3, 0, 1, false}, {1, 16, 70, 12, 12, 3, 3, 1, 1, false},
    {1, 2, 3, 2, 2, 3, 3, 2, 1, false}};

struct ConvOperands {
  ConvShape S;
  int64_t P, Q; ///< output rows and columns
  std::vector<float> In, Wt, Out;
  std::vector<int64_t> Ak, Bk, Bn, Cn, Pk, Pn, Lim;

  ConvOperands(ConvShape Sh, unsigned Seed) : S(Sh) {
    P = (S.H + 2 * S.Pad - S.R) / S.Stride + 1;
    Q = (S.W + 2 * S.Pad - S.S) / S.Stride + 1;
    std::mt19937 Rng(Seed);
    std::uniform_real_distribution<float> U(0.125f, 1.0f);
    auto Value = [&] { return Rng() % 2 ? U(Rng) : -U(Rng); };
    In.resize(size_t(S.N * S.C * S.H * S.W));
    Wt.resize(size_t(S.K * S.C * S.R * S.S));
    Out.resize(size_t(S.N * S.K * P * Q));
    for (float &X : In)
      X = Value();
    for (float &X : Wt)
      X = Value();
    for (float &X : Out)
      X = Value();
    for (int64_t c = 0; c < S.C; ++c)
      for (int64_t r = 0; r < S.R; ++r)
        for (int64_t s = 0; s < S.S; ++s) {
          Ak.push_back(S.Krsc ? (r * S.S + s) * S.C + c : (c * S.R + r) * S.S + s);
          Bk.push_back((c * S.H + r - S.Pad) * S.W + s - S.Pad);
          Pk.insert(Pk.end(), {r - S.Pad, s - S.Pad});
        }
    for (int64_t n = 0; n < S.N; ++n)
      for (int64_t p = 0; p < P; ++p)
        for (int64_t q = 0; q < Q; ++q) {
          Bn.push_back((n * S.C * S.H + p * S.Stride) * S.W + q * S.Stride);
          Cn.push_back((n * S.K * P + p) * Q + q);
          Pn.insert(Pn.end(), {p * S.Stride, q * S.Stride});
        }
    Lim = {S.H, S.W};
  }
  int64_t kk() const { return S.C * S.R * S.S; }
  int64_t nn() const { return S.N * P * Q; }
  float w(int64_t i, int64_t k) const { return Wt[size_t(i * kk() + Ak[size_t(k)])]; }
  float x(int64_t k, int64_t j) const {
    for (int d = 0; d < 2; ++d) {
      const int64_t X = Pk[size_t(k * 2 + d)] + Pn[size_t(j * 2 + d)];
      if (X < 0 || X >= Lim[size_t(d)])
        return 0.0f;
    }
    return In[size_t(Bk[size_t(k)] + Bn[size_t(j)])];
  }
  rl::gemm::qconv problem(const void *A, const float *As, bool Beta0) {
    return {S.K,   nn(),          kk(),      A,         kk(),       Ak.data(), As,
            1,     In.data(),     Bk.data(), Bn.data(), Out.data(), P * Q,     Cn.data(),
            Beta0, S.Pad ? 2 : 0, Pk.data(), Pn.data(), Lim.data()};
  }
};

std::string describe(const char *Isa, const ConvShape &S, bool Beta0) {
  return std::string(Isa) + " conv N=" + std::to_string(S.N) + " C=" + std::to_string(S.C) +
         " K=" + std::to_string(S.K) + " " + std::to_string(S.H) + "x" + std::to_string(S.W) +
         " filter " + std::to_string(S.R) + "x" + std::to_string(S.S) +
         " pad=" + std::to_string(S.Pad) + " stride=" + std::to_string(S.Stride) +
         (S.Krsc ? " krsc" : "") + (Beta0 ? "" : " C+=");
}

// Checks Out against Out0 (+) Ref within Tol[i][j], the first five misses.
void expectConv(const ConvOperands &O, const std::vector<float> &Out0, bool Beta0,
                const std::vector<double> &Ref, const std::vector<double> &Tol,
                const std::string &What) {
  int Bad = 0;
  for (int64_t i = 0; i < O.S.K && Bad < 5; ++i)
    for (int64_t j = 0; j < O.nn() && Bad < 5; ++j) {
      const size_t At = size_t(i * O.P * O.Q + O.Cn[size_t(j)]), Ix = size_t(i * O.nn() + j);
      const double Want = (Beta0 ? 0.0 : double(Out0[At])) + Ref[Ix];
      if (!(std::fabs(O.Out[At] - Want) <= Tol[Ix] + std::ldexp(std::fabs(Want), -22))) {
        ADD_FAILURE() << What << ": out[" << i << "][" << j << "] = " << O.Out[At] << ", want "
                      << Want << " within " << Tol[Ix];
        ++Bad;
      }
    }
}

// The int8 oracle: the weights per row and the im2col view per tensor,
// quantized as the prepare step and the driver do; int32 sums exact.
void int8ConvOracle(const ConvOperands &O, std::vector<signed char> &Wq, std::vector<float> &Ws,
                    std::vector<double> &Ref, std::vector<double> &Tol) {
  const int64_t K = O.kk(), N = O.nn();
  Wq.assign(size_t(O.S.K * K), 0);
  Ws.assign(size_t(O.S.K), 0.0f);
  for (int64_t i = 0; i < O.S.K; ++i) {
    float Max = 0.0f;
    for (int64_t k = 0; k < K; ++k)
      Max = std::fmax(Max, std::fabs(O.Wt[size_t(i * K + k)]));
    Ws[size_t(i)] = std::fmax(Max, 1e-30f) / 127.0f;
    for (int64_t k = 0; k < K; ++k)
      Wq[size_t(i * K + k)] =
          static_cast<signed char>(std::lrint(O.Wt[size_t(i * K + k)] / Ws[size_t(i)]));
  }
  float Xmax = 0.0f;
  for (int64_t k = 0; k < K; ++k)
    for (int64_t j = 0; j < N; ++j)
      Xmax = std::fmax(Xmax, std::fabs(O.x(k, j)));
  const float Xs = std::fmax(Xmax, 1e-30f) / 127.0f;
  Ref.assign(size_t(O.S.K * N), 0.0);
  Tol.assign(Ref.size(), 0.0);
  for (int64_t i = 0; i < O.S.K; ++i)
    for (int64_t j = 0; j < N; ++j) {
      int64_t Sum = 0;
      for (int64_t k = 0; k < K; ++k)
        Sum += int64_t(Wq[size_t(i * K + O.Ak[size_t(k)])]) *
               int64_t(rl::gemm::quantize8(O.x(k, j), Xs));
      Ref[size_t(i * N + j)] = double(Sum) * double(Ws[size_t(i)]) * double(Xs);
      Tol[size_t(i * N + j)] = 4 * std::ldexp(std::fabs(Ref[size_t(i * N + j)]), -24);
    }
}

TEST_P(GemmKernel, Int8ConvMatchesOracle) {
  rl::gemm::path P;
  if (!choose({rl::isa::amx, rl::isa::avx512vnni, rl::isa::avx512, rl::isa::avx2,
               rl::isa::portable},
              P))
    GTEST_SKIP() << GetParam() << ": not this CPU's";
  unsigned Seed = 2000;
  for (const ConvShape &S : ConvShapes)
    for (bool Beta0 : {true, false}) {
      ConvOperands O(S, Seed++);
      std::vector<signed char> Wq;
      std::vector<float> Ws;
      std::vector<double> Ref, Tol;
      int8ConvOracle(O, Wq, Ws, Ref, Tol);
      const std::vector<float> Out0 = O.Out;
      rl::gemm::qconvolve(P, O.problem(Wq.data(), Ws.data(), Beta0), Blocks, true);
      expectConv(O, Out0, Beta0, Ref, Tol, describe(GetParam(), S, Beta0));
    }
}

TEST_P(GemmKernel, Bf16ConvMatchesOracle) {
  rl::gemm::path P;
  if (!choose({rl::isa::amx, rl::isa::avx512bf16, rl::isa::avx512, rl::isa::portable}, P))
    GTEST_SKIP() << GetParam() << ": not a bf16 path, or not this CPU's";
  unsigned Seed = 3000;
  for (const ConvShape &S : ConvShapes)
    for (bool Beta0 : {true, false}) {
      ConvOperands O(S, Seed++);
      std::vector<rl::bf16> W16(O.Wt.begin(), O.Wt.end());
      const int64_t K = O.kk(), N = O.nn();
      std::vector<double> Ref(size_t(S.K * N), 0.0), Tol(Ref.size(), 0.0);
      for (int64_t i = 0; i < S.K; ++i)
        for (int64_t j = 0; j < N; ++j) {
          double Sum = 0, Abs = 0;
          for (int64_t k = 0; k < K; ++k) {
            const double X =
                double(float(rl::bf16(O.w(i, k)))) * double(float(rl::bf16(O.x(k, j))));
            Sum += X;
            Abs += std::fabs(X);
          }
          Ref[size_t(i * N + j)] = Sum;
          Tol[size_t(i * N + j)] = std::ldexp(1.0, -24) * double(K + 2) * Abs;
        }
      const std::vector<float> Out0 = O.Out;
      rl::gemm::qconvolve(P, O.problem(W16.data(), nullptr, Beta0), Blocks, false);
      expectConv(O, Out0, Beta0, Ref, Tol, describe(GetParam(), S, Beta0));
    }
}

INSTANTIATE_TEST_SUITE_P(Isa, GemmKernel,
                         ::testing::Values("amx", "avx512bf16", "avx512vnni", "avx512",
                                           "avx2", "portable"),
                         [](const ::testing::TestParamInfo<const char *> &I) {
                           return std::string(I.param);
                         });

} // namespace
