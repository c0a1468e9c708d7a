//===- HarnessTest.cpp - The check driver's int8 quantization bound -------===//
//
// roofline_harness.h bounds an int8 variant's output by the quantization
// error of its inputs (struct tolerance): a correct symmetric int8 gemm
// passes at every shape, including K = 1 where a product is small next to
// its operands' scales, and a wrong scale or a dropped term fails.
//
//===----------------------------------------------------------------------===//

#include "roofline_harness.h"

#include <gtest/gtest.h>

#include <cmath>
#include <string>
#include <vector>

namespace {

// C[M][N] = sum_k Term(A[M][K], B[K][N]); sizes M, N, K.
template <double (*Term)(double, double)>
void gemmOf(void *const *Args, const int64_t *S) {
  const double *A = static_cast<const double *>(Args[0]),
               *B = static_cast<const double *>(Args[1]);
  double *C = static_cast<double *>(Args[2]);
  for (int64_t I = 0; I < S[0]; ++I)
    for (int64_t J = 0; J < S[1]; ++J) {
      double Acc = 0;
      for (int64_t K = 0; K < S[2]; ++K)
        Acc += Term(A[I * S[2] + K], B[K * S[1] + J]);
      C[I * S[1] + J] = Acc;
    }
}

double product(double A, double B) { return A * B; }
double magnitude(double A, double B) { return std::fabs(A) * std::fabs(B); }

void refGemm(void *const *Args, const int64_t *S) {
  gemmOf<product>(Args, S);
}
void magGemm(void *const *Args, const int64_t *S) {
  gemmOf<magnitude>(Args, S);
}

enum class Bug { None, DroppedTerm, ScaleOff, Truncate, TensorScaleForRows };
Bug TheBug = Bug::None;

// The int8 gemm as the generator emits it: A per row, B per tensor,
// round to nearest, int32 accumulation, out = acc * sa * sb.
void int8Gemm(void *const *Args, const int64_t *S) {
  const float *A = static_cast<const float *>(Args[0]),
              *B = static_cast<const float *>(Args[1]);
  float *C = static_cast<float *>(Args[2]);
  int64_t M = S[0], N = S[1], K = S[2];
  auto Q = [](float X, float Scale) {
    float V = X / Scale;
    return static_cast<int>(TheBug == Bug::Truncate ? std::trunc(V)
                                                    : std::rint(V));
  };
  float SB = 0, SAll = 0;
  for (int64_t I = 0; I < K * N; ++I)
    SB = std::fmax(SB, std::fabs(B[I]));
  for (int64_t I = 0; I < M * K; ++I)
    SAll = std::fmax(SAll, std::fabs(A[I]));
  SB = std::fmax(SB, 1e-30f) / 127;
  SAll = std::fmax(SAll, 1e-30f) / 127;
  for (int64_t I = 0; I < M; ++I) {
    float SA = 0;
    for (int64_t Kk = 0; Kk < K; ++Kk)
      SA = std::fmax(SA, std::fabs(A[I * K + Kk]));
    SA = std::fmax(SA, 1e-30f) / 127;
    // The bug: rows quantized per row, dequantized with the tensor's scale.
    float SDeq = TheBug == Bug::TensorScaleForRows ? SAll : SA;
    if (TheBug == Bug::ScaleOff)
      SDeq *= 1.05f;
    for (int64_t J = 0; J < N; ++J) {
      int Acc = 0;
      int64_t Last = TheBug == Bug::DroppedTerm ? K - 1 : K;
      for (int64_t Kk = 0; Kk < Last; ++Kk)
        Acc += Q(A[I * K + Kk], SA) * Q(B[Kk * N + J], SB);
      C[I * N + J] = static_cast<float>(Acc) * SDeq * SB;
    }
  }
}

std::vector<int64_t> shapeMK(const int64_t *S) { return {S[0], S[2]}; }
std::vector<int64_t> shapeKN(const int64_t *S) { return {S[2], S[1]}; }
std::vector<int64_t> shapeMN(const int64_t *S) { return {S[0], S[1]}; }

rl::harness::unit_desc gemmUnit(bool Quant) {
  using namespace rl::harness;
  unit_desc U;
  U.name = "gemm";
  U.sizes = {{"M", 32, false}, {"N", 32, false}, {"K", 16, false}};
  U.args = {{"A", f32, in, false, shapeMK},
            {"B", f32, in, false, shapeKN},
            {"C", f32, out, false, shapeMN}};
  variant_desc V;
  V.name = "int8";
  V.fn = int8Gemm;
  V.prepare = nullptr;
  V.tol = {0, 4 * std::ldexp(1.0, -24), 1e-30};
  if (Quant) {
    V.tol.quant.l = 0;
    V.tol.quant.r = 1;
    V.tol.quant.l_axes = {true, false}; // A per row
    V.tol.quant.r_axes = {false, false}; // B per tensor
  }
  U.variants.push_back(V);
  U.reference = refGemm;
  U.magnitude = magGemm;
  return U;
}

/// The check's exit status (0: every element within the bound).
int checkAt(Bug B, int64_t M, int64_t N, int64_t K, int Seed,
            bool Quant = true) {
  TheBug = B;
  std::vector<std::string> Words = {"driver", "check",
                                    "--seed=" + std::to_string(Seed),
                                    "M=" + std::to_string(M),
                                    "N=" + std::to_string(N),
                                    "K=" + std::to_string(K)};
  std::vector<char *> Argv;
  for (std::string &W : Words)
    Argv.push_back(W.data());
  int R = rl::harness::check(gemmUnit(Quant), static_cast<int>(Argv.size()),
                             Argv.data());
  TheBug = Bug::None;
  return R;
}

TEST(HarnessInt8, CorrectKernelPassesEveryShape) {
  // K = 1 is the shape the old 3%-of-magnitude rule failed: a product of
  // two small values is off by |a| s_b / 2, more than 3% of |a b|.
  for (int64_t K : {1, 2, 3, 7, 16, 64, 257})
    for (int64_t MN : {1, 5, 33})
      for (int Seed : {1, 2, 3})
        EXPECT_EQ(checkAt(Bug::None, MN, MN, K, Seed), 0)
            << "M=N=" << MN << " K=" << K << " seed " << Seed;
}

TEST(HarnessInt8, BoundIsNeededAtKOne) {
  // Without the quantization bound (only f32 rounding) the correct kernel
  // fails: the check does compare.
  EXPECT_NE(checkAt(Bug::None, 33, 33, 1, 1, /*Quant=*/false), 0);
}

TEST(HarnessInt8, PerturbedResultsFail) {
  for (int64_t K : {1, 16, 64}) {
    EXPECT_NE(checkAt(Bug::ScaleOff, 33, 33, K, 1), 0) << "K=" << K;
    EXPECT_NE(checkAt(Bug::TensorScaleForRows, 33, 33, K, 1), 0) << "K=" << K;
  }
  for (int64_t K : {1, 2, 16, 64})
    EXPECT_NE(checkAt(Bug::DroppedTerm, 33, 33, K, 1), 0) << "K=" << K;
  // Truncation doubles the worst-case error of a value (s, not s/2).
  EXPECT_NE(checkAt(Bug::Truncate, 33, 33, 1, 1), 0);
}

TEST(HarnessInt8, MissingOperandFails) {
  TheBug = Bug::None;
  rl::harness::unit_desc U = gemmUnit(true);
  U.variants[0].tol.quant.r = -2; // the operand is not an argument
  std::vector<std::string> Words = {"driver", "check", "M=4", "N=4", "K=4"};
  std::vector<char *> Argv;
  for (std::string &W : Words)
    Argv.push_back(W.data());
  EXPECT_NE(rl::harness::check(U, static_cast<int>(Argv.size()), Argv.data()),
            0);
}

TEST(HarnessInt8, ScalesFollowTheGroups) {
  using namespace rl::harness;
  unit_desc U = gemmUnit(true);
  int64_t S[3] = {2, 3, 3}; // A is 2 x 3
  arg_set In;
  fill_inputs(U.args, S, 7, In);
  std::vector<double> Rows = quant_scales(U, In, S, 0, {true, false});
  std::vector<double> All = quant_scales(U, In, S, 0, {false, false});
  std::vector<double> Bad = quant_scales(U, In, S, 0, {true}); // wrong rank
  double Max = 0, Row0 = 0;
  for (size_t I = 0; I < 6; ++I)
    Max = std::fmax(Max, std::fabs(In.b[0].get(I)));
  for (size_t I = 0; I < 3; ++I)
    Row0 = std::fmax(Row0, std::fabs(In.b[0].get(I)));
  for (size_t I = 0; I < 6; ++I) {
    EXPECT_NEAR(All[I], Max / 127, 1e-4 * Max / 127);
    EXPECT_EQ(Bad[I], All[I]); // falls back to one group: still an upper bound
  }
  for (size_t I = 0; I < 3; ++I)
    EXPECT_NEAR(Rows[I], Row0 / 127, 1e-4 * Row0 / 127);
}

} // namespace
