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

const rl::gemm::blocks Blocks{120, 1024, 512};

class GemmKernel : public ::testing::TestWithParam<const char *> {
protected:
  // The path the emitted variant would run with RL_ISA forced to the
  // parameter; skips when this CPU does not have it.
  bool choose(std::initializer_list<rl::isa> Have, rl::gemm::path &P) {
    const char *Name = GetParam();
    ForcedIsa Force(Name);
    const rl::isa I = rl::pick(Have);
    static const char *Names[] = {"portable", "avx2", "avx512", "avx512vnni", "avx512bf16"};
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

TEST_P(GemmKernel, Bf16MatchesOracle) {
  rl::gemm::path P;
  if (!choose({rl::isa::avx512bf16, rl::isa::avx512, rl::isa::portable}, P))
    GTEST_SKIP() << GetParam() << ": not a bf16 path (avx2: the variant runs portable), or not "
                    "this CPU's";
  unsigned Seed = 1000;
  for (const Shape &S : Shapes)
    for (bool Beta0 : {true, false}) {
      Operands O(S, Seed++);
      const std::vector<float> C0 = O.C;
      rl::gemm::bf16gemm(P, O.bf16(Beta0), Blocks, rl::gemm::no_epi(),
                         rl::gemm::no_block_epi());
      std::vector<double> Ref, Mag;
      O.oracle(C0, Beta0, [](float X) { return float(rl::bf16(X)); }, Ref, Mag);
      O.expectNear(Ref, Mag, describe(GetParam(), S, Beta0));
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

INSTANTIATE_TEST_SUITE_P(Isa, GemmKernel,
                         ::testing::Values("avx512bf16", "avx512", "avx2", "portable"),
                         [](const ::testing::TestParamInfo<const char *> &I) {
                           return std::string(I.param);
                         });

} // namespace
