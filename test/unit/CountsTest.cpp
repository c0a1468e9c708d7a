//===- CountsTest.cpp - Exact counts of hand-built and random nests -------===//

#include "roofline/Analysis/Counts.h"

#include "BruteForce.h"
#include "CountsLookup.h"
#include "RandomNest.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <random>

using namespace roofline;
using roofline::unittest::NestGen;

namespace {

//===----------------------------------------------------------------------===//
// IR construction helpers
//===----------------------------------------------------------------------===//

AffineExpr v(const std::string &N, int64_t C = 1) {
  return AffineExpr::var(N, C);
}
AffineExpr k(int64_t C) { return AffineExpr(C); }
AffineExpr operator-(const AffineExpr &A, const AffineExpr &B) {
  return *A.sub(B);
}
AffineExpr operator+(const AffineExpr &A, int64_t C) {
  return *A.addConstant(C);
}
AffineExpr operator-(const AffineExpr &A, int64_t C) {
  return *A.addConstant(-C);
}

Bound b(const AffineExpr &E) { return Bound::single(E); }
Bound bmin(std::vector<AffineExpr> Es) {
  Bound B;
  B.Kind = Bound::Min;
  for (auto &E : Es)
    B.Terms.push_back({E, 1});
  return B;
}

Node loop(const std::string &IV, Bound First, Bound Last,
          std::vector<Node> Body, int64_t Step = 1) {
  Loop L;
  L.IV = IV;
  L.First = std::move(First);
  L.Last = std::move(Last);
  L.Step = Step;
  L.Body = std::move(Body);
  return Node::loop(std::move(L));
}
/// for IV in [0, Hi - 1]
Node upto(const std::string &IV, const AffineExpr &Hi, std::vector<Node> Body) {
  return loop(IV, b(k(0)), b(Hi - 1), std::move(Body));
}

Access acc(const std::string &A, std::vector<AffineExpr> Subs, bool R,
           bool W) {
  Access X;
  X.ArrayName = A;
  for (auto &S : Subs)
    X.Subscripts.push_back(S);
  X.IsRead = R;
  X.IsWrite = W;
  X.Text = A;
  return X;
}
Access rd(const std::string &A, std::vector<AffineExpr> Subs) {
  return acc(A, std::move(Subs), true, false);
}
Access wr(const std::string &A, std::vector<AffineExpr> Subs) {
  return acc(A, std::move(Subs), false, true);
}
Access rw(const std::string &A, std::vector<AffineExpr> Subs) {
  return acc(A, std::move(Subs), true, true);
}

Node stmt(std::vector<Access> As, Precision P = Precision::F32,
          int64_t Macs = 0, int64_t Adds = 0) {
  Stmt S;
  S.Accesses = std::move(As);
  if (Macs || Adds) {
    S.Ops[P].Macs = Macs;
    S.Ops[P].Adds = Adds;
  }
  return Node::stmt(std::move(S));
}

LoopNest nest(Node Root, std::vector<std::pair<std::string, std::optional<int64_t>>> Params,
              std::vector<std::pair<std::string, Precision>> Arrays) {
  LoopNest N;
  N.Function = "f";
  N.Root = std::move(Root.loop());
  for (auto &[Name, V] : Params)
    N.Params.push_back({Name, V, "literal"});
  for (auto &[Name, P] : Arrays) {
    Array A;
    A.Name = Name;
    A.Elem = P;
    N.Arrays.push_back(A);
  }
  return N;
}

NestCounts analyze(const LoopNest &N, const ParamValues &O = {}) {
  llvm::Expected<NestCounts> C = analyzeNest(N, O);
  if (!C) {
    ADD_FAILURE() << llvm::toString(C.takeError());
    return NestCounts();
  }
  return std::move(*C);
}

Int128 val(const Count &C) {
  EXPECT_TRUE(C.Value.has_value()) << C.WhyNot;
  return C.Value.value_or(-1);
}
std::string fstr(const Count &C) {
  EXPECT_TRUE(C.Formula.has_value()) << C.WhyNot;
  return C.Formula ? C.Formula->str() : "<none>";
}
const ArrayTraffic &arr(const NestCounts &C, const std::string &Name) {
  return roofline::testing::trafficOf(C, Name);
}
Int128 e(int64_t A, int64_t B = 1) { return static_cast<Int128>(A) * B; }

/// for i, j { C[i][j] = 0; for k C[i][j] += A[i][k] * B[k][j]; }
LoopNest gemmInit(std::optional<int64_t> NV, std::optional<int64_t> MV,
                  std::optional<int64_t> KV, Precision P = Precision::F32) {
  Node Root = upto(
      "i", v("N"),
      {upto("j", v("M"),
            {stmt({wr("C", {v("i"), v("j")})}),
             upto("k", v("K"),
                  {stmt({rw("C", {v("i"), v("j")}), rd("A", {v("i"), v("k")}),
                         rd("B", {v("k"), v("j")})},
                        P, 1)})})});
  return nest(std::move(Root), {{"N", NV}, {"M", MV}, {"K", KV}},
              {{"A", P}, {"B", P}, {"C", P}});
}

/// for i, j, k C[i][j] += A[i][k] * B[k][j];
LoopNest gemmAcc(int64_t NV, Precision P = Precision::F32) {
  Node Root = upto(
      "i", v("N"),
      {upto("j", v("N"),
            {upto("k", v("N"),
                  {stmt({rw("C", {v("i"), v("j")}), rd("A", {v("i"), v("k")}),
                         rd("B", {v("k"), v("j")})},
                        P, 1)})})});
  return nest(std::move(Root), {{"N", NV}}, {{"A", P}, {"B", P}, {"C", P}});
}

//===----------------------------------------------------------------------===//
// Seed numbers
//===----------------------------------------------------------------------===//

TEST(CountsTest, GemmSeedNumbers) {
  NestCounts C = analyze(gemmInit(64, 64, 64));
  EXPECT_EQ(val(C.Macs), 262144);
  EXPECT_EQ(val(C.Flops), 524288);
  EXPECT_EQ(val(C.Iterations), 262144);
  EXPECT_EQ(val(C.BytesCompulsory), 49152);
  EXPECT_EQ(val(arr(C, "C").ElementsRead), 0);
  EXPECT_EQ(val(arr(C, "C").ElementsWritten), 4096);
  EXPECT_EQ(val(C.MacsByType[Precision::F32]), 262144);
  EXPECT_EQ(val(C.FlopsByType[Precision::F32]), 524288);

  NestCounts Big = analyze(gemmInit(512, 512, 256));
  EXPECT_EQ(val(Big.Macs), 67108864);
  EXPECT_EQ(val(Big.Flops), 134217728);
  EXPECT_EQ(val(Big.BytesCompulsory), 2097152);
  // AI = 64 under the compulsory model.
  EXPECT_EQ(*Big.Flops.Value / *Big.BytesCompulsory.Value, 64);

  NestCounts Tiny = analyze(gemmInit(2, 2, 2));
  EXPECT_EQ(val(Tiny.Macs), 8);
  EXPECT_EQ(val(Tiny.Flops), 16);
}

TEST(CountsTest, GemmSymbolic) {
  NestCounts C = analyze(gemmInit(std::nullopt, std::nullopt, std::nullopt));
  EXPECT_EQ(fstr(C.Macs), "K*M*N");
  EXPECT_EQ(fstr(C.Flops), "2*K*M*N");
  EXPECT_EQ(fstr(C.Iterations), "K*M*N");
  // C written once (M*N), A (N*K) and B (K*M) read once, 4 bytes each.
  EXPECT_EQ(fstr(C.BytesCompulsory), "4*K*M + 4*K*N + 4*M*N");
  EXPECT_FALSE(C.Macs.Value.has_value());
  EXPECT_NE(C.Macs.WhyNot.find("no value"), std::string::npos);
  ASSERT_EQ(C.Loops.size(), 3u);
  EXPECT_EQ(C.Loops[0].TripPerEntry, "N");
  EXPECT_EQ(C.Loops[1].First, "0");
  EXPECT_EQ(C.Loops[1].Last, "M - 1");
  EXPECT_EQ(fstr(C.Loops[2].Total), "K*M*N");
  // The same formula, evaluated, gives the numbers of the valued nest.
  llvm::Expected<Rational> V =
      evaluateFormula(C, *C.BytesCompulsory.Formula,
                      {{"N", 512}, {"M", 512}, {"K", 256}});
  ASSERT_TRUE(bool(V)) << llvm::toString(V.takeError());
  EXPECT_EQ(*V, Rational(2097152));
  bool HasTripNote = false;
  for (const std::string &N : C.Notes)
    HasTripNote |= N.find("trip count is >= 0") != std::string::npos;
  EXPECT_TRUE(HasTripNote);
}

TEST(CountsTest, GemvSeedNumbers) {
  for (auto [P, Bytes] : {std::pair<Precision, int64_t>{Precision::F32,
                                                        4202496},
                          {Precision::I8, 1050624}}) {
    Node Root = upto("i", v("N"),
                     {stmt({wr("y", {v("i")})}),
                      upto("j", v("N"),
                           {stmt({rw("y", {v("i")}), rd("A", {v("i"), v("j")}),
                                  rd("x", {v("j")})},
                                 P, 1)})});
    NestCounts C = analyze(
        nest(std::move(Root), {{"N", 1024}}, {{"A", P}, {"x", P}, {"y", P}}));
    EXPECT_EQ(val(C.BytesCompulsory), Bytes);
    EXPECT_EQ(val(C.Macs), 1024 * 1024);
    EXPECT_EQ(val(C.MacsByType[P]), 1024 * 1024);
  }
}

TEST(CountsTest, NoReuseIntensityOfUntiledGemm) {
  NestCounts C = analyze(gemmAcc(1024));
  Int128 N = 1024;
  // A and B every iteration; C[i][j] is invariant in k: once per entry.
  EXPECT_EQ(val(C.Loads), 2 * N * N * N + N * N);
  EXPECT_EQ(val(C.Stores), N * N);
  EXPECT_EQ(val(arr(C, "C").Loads), N * N);
  EXPECT_EQ(val(arr(C, "A").Loads), N * N * N);
  EXPECT_EQ(val(C.BytesNoReuse), 4 * (2 * N * N * N + 2 * N * N));
  double AI = static_cast<double>(*C.Flops.Value) /
              static_cast<double>(*C.BytesNoReuse.Value);
  EXPECT_NEAR(AI, 0.25, 0.001);
  // C is read before it is written: once each.
  EXPECT_EQ(val(arr(C, "C").ElementsRead), N * N);
  EXPECT_EQ(val(arr(C, "C").ElementsWritten), N * N);
}

TEST(CountsTest, CompulsoryIntensityIsNOverSix) {
  for (int64_t N : {64, 1024, 3000}) {
    NestCounts C = analyze(gemmInit(N, N, N));
    EXPECT_EQ(*C.Flops.Value * 6, *C.BytesCompulsory.Value * N);
    NestCounts H = analyze(gemmInit(N, N, N, Precision::BF16));
    EXPECT_EQ(*H.Flops.Value * 3, *H.BytesCompulsory.Value * N);
    EXPECT_EQ(val(H.FlopsByType[Precision::BF16]), 2 * e(N, N) * N);
  }
}

//===----------------------------------------------------------------------===//
// Loop shapes
//===----------------------------------------------------------------------===//

TEST(CountsTest, Triangular) {
  Node Root = upto("i", v("N"),
                   {loop("j", b(k(0)), b(v("i")), {stmt({rd("x", {v("j")})})})});
  LoopNest N = nest(std::move(Root), {{"N", 100}}, {{"x", Precision::F64}});
  NestCounts C = analyze(N);
  EXPECT_EQ(fstr(C.Iterations), "(N^2 + N)/2");
  EXPECT_EQ(val(C.Iterations), 5050);
  EXPECT_EQ(C.Loops[1].TripPerEntry, "i + 1");
  EXPECT_EQ(val(arr(C, "x").ElementsRead), 100);
  EXPECT_EQ(val(C.BytesCompulsory), 800);
  EXPECT_EQ(val(C.BytesNoReuse), 8 * 5050);
}

TEST(CountsTest, StridedUsesFloorAtom) {
  Node Root = loop("i", b(k(0)), b(v("N") - 1), {stmt({rd("x", {v("i")})})}, 2);
  for (int64_t NV : {0, 1, 10, 11}) {
    NestCounts C =
        analyze(nest(loop("i", b(k(0)), b(v("N") - 1),
                          {stmt({rd("x", {v("i")})})}, 2),
                     {{"N", NV}}, {{"x", Precision::F32}}));
    Int128 Expect = (NV + 1) / 2;
    EXPECT_EQ(val(C.Iterations), Expect);
    EXPECT_EQ(fstr(C.Iterations), "floor((N - 1)/2) + 1");
    EXPECT_EQ(C.Loops[0].TripPerEntry, "(N - 1)/2 + 1");
    ASSERT_TRUE(C.Atoms.count("floor((N - 1)/2)"));
    if (NV > 0) {
      auto F = evaluateFormula(C, *C.Iterations.Formula, C.Values);
      ASSERT_TRUE(bool(F));
      EXPECT_EQ(*F, *Rational::make(Expect, 1));
    }
    EXPECT_EQ(val(arr(C, "x").ElementsRead), Expect);
  }
}

TEST(CountsTest, StridedSpanDependingOnOuterIV) {
  // for i < N; for j = 0; j <= i; j += 3: sum of floor(i/3) + 1.
  Node Root = upto("i", v("N"),
                   {loop("j", b(k(0)), b(v("i")), {stmt({rd("x", {v("j")})})},
                         3)});
  NestCounts C = analyze(nest(std::move(Root), {{"N", 10}}, {{"x", Precision::F32}}));
  EXPECT_EQ(val(C.Iterations), 1 + 1 + 1 + 2 + 2 + 2 + 3 + 3 + 3 + 4);
  EXPECT_FALSE(C.Iterations.Formula.has_value());
  EXPECT_NE(C.Iterations.WhyNot.find("strided"), std::string::npos);
  EXPECT_EQ(val(arr(C, "x").ElementsRead), 4); // 0, 3, 6, 9
}

TEST(CountsTest, Downward) {
  // for i = N-1 down to 0, for j = i down to 0
  Node Root = loop("i", b(v("N") - 1), b(k(0)),
                   {loop("j", b(v("i")), b(k(0)),
                         {stmt({rd("A", {v("i"), v("j")})}, Precision::F32, 1)},
                         -1)},
                   -1);
  NestCounts C = analyze(nest(std::move(Root), {{"N", 50}}, {{"A", Precision::F32}}));
  EXPECT_EQ(val(C.Iterations), 50 * 51 / 2);
  EXPECT_EQ(fstr(C.Iterations), "(N^2 + N)/2");
  EXPECT_EQ(C.Loops[0].TripPerEntry, "N");
  EXPECT_EQ(C.Loops[1].TripPerEntry, "i + 1");
  EXPECT_EQ(val(arr(C, "A").ElementsRead), 50 * 51 / 2);
}

TEST(CountsTest, TiledMinBounds) {
  // for ii < N step 32, jj < N step 32, i = ii..min(ii+31, N-1),
  // j = jj..min(jj+31, N-1): exactly N^2 iterations for every N.
  for (int64_t NV : {0, 1, 31, 32, 33, 100, 1000, 4099}) {
    Node Root = loop(
        "ii", b(k(0)), b(v("N") - 1),
        {loop("jj", b(k(0)), b(v("N") - 1),
              {loop("i", b(v("ii")), bmin({v("ii") + 31, v("N") - 1}),
                    {loop("j", b(v("jj")), bmin({v("jj") + 31, v("N") - 1}),
                          {stmt({rw("C", {v("i"), v("j")})}, Precision::F32,
                                0, 1)})})},
              32)},
        32);
    NestCounts C =
        analyze(nest(std::move(Root), {{"N", NV}}, {{"C", Precision::F32}}));
    EXPECT_EQ(val(C.Iterations), e(NV, NV)) << NV;
    EXPECT_EQ(val(C.Flops), e(NV, NV));
    EXPECT_EQ(val(arr(C, "C").ElementsRead), e(NV, NV));
    EXPECT_EQ(val(arr(C, "C").ElementsWritten), e(NV, NV));
    EXPECT_FALSE(C.Iterations.Formula.has_value());
    EXPECT_NE(C.Iterations.WhyNot.find("min"), std::string::npos);
    EXPECT_EQ(C.Loops[2].TripPerEntry, "min(ii + 31, N - 1) - ii + 1");
    EXPECT_EQ(C.Loops[0].TripPerEntry, "(N - 1)/32 + 1");
  }
}

TEST(CountsTest, TiledGemmFactorsIntoIndependentTiles) {
  // ii/i, jj/j, kk/k pairs are independent: the count is a product, so it
  // stays exact where enumerating (N/32)^3 tile origins would be too much.
  Node S = stmt({rw("C", {v("i"), v("j")}), rd("A", {v("i"), v("k")}),
                 rd("B", {v("k"), v("j")})},
                Precision::F32, 1);
  // Loop order ii, jj, kk, i, j, k.
  Node K = loop("k", b(v("kk")), bmin({v("kk") + 31, v("N") - 1}), {S});
  Node J = loop("j", b(v("jj")), bmin({v("jj") + 31, v("N") - 1}), {K});
  Node I = loop("i", b(v("ii")), bmin({v("ii") + 31, v("N") - 1}), {J});
  Node KK = loop("kk", b(k(0)), b(v("N") - 1), {I}, 32);
  Node JJ = loop("jj", b(k(0)), b(v("N") - 1), {KK}, 32);
  Node II = loop("ii", b(k(0)), b(v("N") - 1), {JJ}, 32);
  for (int64_t NV : {100, 100000}) {
    NestCounts C = analyze(nest(II, {{"N", NV}},
                                {{"A", Precision::F32}, {"B", Precision::F32},
                                 {"C", Precision::F32}}));
    EXPECT_EQ(val(C.Macs), e(NV, NV) * NV) << NV;
    // C[i][j] is invariant in k: once per entry of the k loop.
    Int128 Tiles = (NV + 31) / 32;
    EXPECT_EQ(val(arr(C, "C").Loads), e(NV, NV) * Tiles) << NV;
    EXPECT_EQ(val(arr(C, "A").ElementsRead), e(NV, NV)) << NV;
    EXPECT_EQ(val(C.BytesCompulsory), 16 * e(NV, NV)) << NV;
  }
}

TEST(CountsTest, LoopsEmptyForSomeOuterIterations) {
  // j from i + 3: empty for the last three i; a formula from the naive sum
  // would be wrong at N = 5, so it must be dropped there, kept at N >= 3.
  for (int64_t NV : {0, 2, 5, 40}) {
    Node Root = upto("i", v("N"),
                     {loop("j", b(v("i") + 3), b(v("N") - 1),
                           {stmt({rd("x", {v("j")})})})});
    LoopNest N = nest(std::move(Root), {{"N", NV}}, {{"x", Precision::F32}});
    NestCounts C = analyze(N);
    brute::Counts B = brute::run(N);
    EXPECT_EQ(val(C.Iterations), B.Iterations) << NV;
    EXPECT_EQ(val(arr(C, "x").ElementsRead), B.Arrays["x"].Read) << NV;
    EXPECT_FALSE(C.Iterations.Formula.has_value()) << NV;
  }
}

TEST(CountsTest, HoistedMovesOnlyOnEntriesThatRun) {
  // s[i] is invariant in j and kept in a register, loaded behind the j
  // loop's trip-count test: it moves once per entry that runs an iteration
  // (docs/design.md, "no-reuse"). j < i runs none at i = 0, so N - 1 of the
  // N entries move it; the formula cuts i's range to i >= 1 and says so.
  using Sizes = std::initializer_list<std::optional<int64_t>>;
  for (std::optional<int64_t> NV : Sizes{std::nullopt, 0, 1, 6}) {
    Node Root = upto("i", v("N"),
                     {loop("j", b(k(0)), b(v("i") - 1),
                           {stmt({rw("s", {v("i")}), rd("x", {v("j")})})})});
    LoopNest N = nest(std::move(Root), {{"N", NV}},
                      {{"s", Precision::F32}, {"x", Precision::F32}});
    NestCounts C = analyze(N);
    if (!NV) {
      EXPECT_EQ(fstr(arr(C, "s").Loads), "N - 1");
      EXPECT_NE(std::find(C.Notes.begin(), C.Notes.end(),
                          "the no-reuse formulas assume loop i has values "
                          "where loop j runs: N - 1 >= 0"),
                C.Notes.end());
      continue;
    }
    brute::Counts B = brute::run(N);
    Int128 Runs = *NV > 0 ? *NV - 1 : 0;
    EXPECT_EQ(B.Arrays["s"].Loads, Runs) << *NV;
    EXPECT_EQ(val(arr(C, "s").Loads), Runs) << *NV;
    EXPECT_EQ(val(arr(C, "s").Stores), Runs) << *NV;
    EXPECT_EQ(val(C.BytesNoReuse), B.BytesNoReuse) << *NV;
    // At N = 0 the cut range is empty: the formula N - 1 would say -1.
    EXPECT_EQ(arr(C, "s").Loads.Formula.has_value(), *NV > 0) << *NV;
  }
  // k < K runs on every entry or on none: the formula states K >= 1, the
  // value at K = 0 is 0.
  for (std::optional<int64_t> KV : Sizes{std::nullopt, 0, 3}) {
    Node Root = upto("i", v("R"),
                     {upto("k", v("K"),
                           {stmt({rw("c", {v("i")}), rd("a", {v("k")})})})});
    LoopNest N = nest(std::move(Root), {{"R", 4}, {"K", KV}},
                      {{"c", Precision::F32}, {"a", Precision::F32}});
    NestCounts C = analyze(N);
    bool Noted = std::find(C.Notes.begin(), C.Notes.end(),
                           "the no-reuse formulas assume loop k runs an "
                           "iteration on every entry: K - 1 >= 0") !=
                 C.Notes.end();
    EXPECT_EQ(Noted, !KV);
    if (!KV) {
      EXPECT_EQ(fstr(arr(C, "c").Loads), "R");
      continue;
    }
    EXPECT_EQ(val(arr(C, "c").Loads), *KV ? 4 : 0) << *KV;
    EXPECT_EQ(val(C.BytesNoReuse), brute::run(N).BytesNoReuse) << *KV;
  }
}

TEST(CountsTest, HugeButExact) {
  // 10^7 cubed is 10^21 iterations: beyond int64, exact in 128 bits.
  NestCounts C = analyze(gemmInit(10000000, 10000000, 10000000));
  Int128 E7 = 10000000;
  EXPECT_EQ(int128ToString(val(C.Iterations)), "1000000000000000000000");
  EXPECT_EQ(val(C.Macs), E7 * E7 * E7);
  EXPECT_EQ(val(C.Flops), 2 * E7 * E7 * E7);
  EXPECT_EQ(val(C.BytesCompulsory), 12 * E7 * E7);
}

TEST(CountsTest, OverflowIsReported) {
  Node Inner = stmt({rd("x", {v("a")})}, Precision::F32, 1);
  for (const char *IV : {"e", "d", "c", "b", "a"})
    Inner = upto(IV, v("N"), {std::move(Inner)});
  NestCounts C = analyze(nest(std::move(Inner), {{"N", 1000000000000LL}},
                              {{"x", Precision::F32}}));
  EXPECT_FALSE(C.Iterations.Value.has_value());
  EXPECT_NE(C.Iterations.WhyNot.find("128-bit"), std::string::npos);
  EXPECT_EQ(fstr(C.Iterations), "N^5");
}

TEST(CountsTest, TooIrregularIsNeverGuessed) {
  // The inner bound min(i, M) needs enumerating i: 10^9 values.
  Node Root = upto("i", v("N"),
                   {loop("j", b(k(0)), bmin({v("i"), v("M")}),
                         {stmt({rd("x", {v("j")})})})});
  NestCounts C = analyze(nest(std::move(Root),
                              {{"N", 1000000000}, {"M", 1000}},
                              {{"x", Precision::F32}}));
  EXPECT_FALSE(C.Iterations.Value.has_value());
  EXPECT_NE(C.Iterations.WhyNot.find("too irregular"), std::string::npos);
  // Smaller, it is exact.
  Node Small = upto("i", v("N"),
                    {loop("j", b(k(0)), bmin({v("i"), v("M")}),
                          {stmt({rd("x", {v("j")})})})});
  NestCounts S = analyze(
      nest(std::move(Small), {{"N", 100000}, {"M", 1000}}, {{"x", Precision::F32}}));
  // i < 1000: i + 1; else 1001.
  EXPECT_EQ(val(S.Iterations), e(1000 * 1001 / 2) + e(99000, 1001));
}

TEST(CountsTest, StencilBoxUnion) {
  // B[i][j] = A[i-1][j] + A[i+1][j] + A[i][j-1] + A[i][j+1], 1 <= i,j <= N-2
  auto Body = [] {
    return loop(
        "i", b(k(1)), b(v("N") - 2),
        {loop("j", b(k(1)), b(v("N") - 2),
              {stmt({rd("A", {v("i") - 1, v("j")}), rd("A", {v("i") + 1, v("j")}),
                     rd("A", {v("i"), v("j") - 1}), rd("A", {v("i"), v("j") + 1}),
                     wr("B", {v("i"), v("j")})},
                    Precision::F32, 0, 3)})});
  };
  for (int64_t NV : {3, 4, 10, 1000}) {
    LoopNest N = nest(Body(), {{"N", NV}}, {{"A", Precision::F32}, {"B", Precision::F32}});
    NestCounts C = analyze(N);
    // All of A but its four corners (and, at N = 3, its centre).
    Int128 Expect = NV == 3 ? 4 : e(NV, NV) - 4;
    EXPECT_EQ(val(arr(C, "A").ElementsRead), Expect) << NV;
    EXPECT_EQ(val(arr(C, "B").ElementsWritten), e(NV - 2, NV - 2));
    ASSERT_TRUE(arr(C, "A").ElementsRead.Formula.has_value()) << NV;
    auto F = evaluateFormula(C, *arr(C, "A").ElementsRead.Formula, C.Values);
    ASSERT_TRUE(bool(F));
    EXPECT_EQ(*F, *Rational::make(Expect, 1));
  }
  // Without a value, the formula assumes large sizes and says so.
  NestCounts S = analyze(nest(Body(), {{"N", std::nullopt}}, {{"A", Precision::F32}, {"B", Precision::F32}}));
  EXPECT_EQ(fstr(arr(S, "A").ElementsRead), "N^2 - 4");
  bool Noted = false;
  for (const std::string &Note : S.Notes)
    Noted |= Note == "the footprint formula of A assumes N >= 4";
  EXPECT_TRUE(Noted);
}

TEST(CountsTest, FootprintConditionsAsValues) {
  // s += A[2] + A[N - 2]: two elements "for large N", one at N = 4, where
  // the boxes [2, 3) and [N - 2, N - 1) meet. The formula states its
  // condition, N >= 5, in a note and as a value that a checker can
  // evaluate (fuzz-counts compared the formula at N = 4 and reported a
  // mismatch: it did not know the condition).
  auto Body = [] {
    return upto("i", v("N"),
                {stmt({rd("A", {k(2)}), rd("A", {v("N") - 2})})});
  };
  NestCounts At4 = analyze(nest(Body(), {{"N", 4}}, {{"A", Precision::F32}}));
  EXPECT_EQ(val(arr(At4, "A").ElementsRead), 1);
  NestCounts S =
      analyze(nest(Body(), {{"N", std::nullopt}}, {{"A", Precision::F32}}));
  EXPECT_EQ(fstr(arr(S, "A").ElementsRead), "2");
  bool Noted = false;
  for (const std::string &Note : S.Notes)
    Noted |= Note == "the footprint formula of A assumes N >= 5";
  EXPECT_TRUE(Noted);
  ASSERT_EQ(S.FootprintConditions.size(), 1u);
  for (int64_t NV : {4, 5}) {
    auto V = evaluateFormula(S, S.FootprintConditions.front(), {{"N", NV}});
    ASSERT_TRUE(bool(V));
    EXPECT_EQ(V->sign() >= 0, NV >= 5) << NV;
  }
}

TEST(CountsTest, NotesAndOverrides) {
  LoopNest N = gemmInit(64, 64, 64);
  N.Arrays[0].FromPointer = true;
  N.Arrays[1].FromPointer = true;
  NestCounts C = analyze(N, {{"N", 2}, {"M", 2}, {"K", 2}});
  EXPECT_EQ(val(C.Macs), 8);
  ASSERT_FALSE(C.Notes.empty());
  EXPECT_EQ(C.Notes[0], "arrays A, B come from pointers and are assumed not to "
                        "alias");
  EXPECT_EQ(C.Values.at("N"), 2);
}

TEST(CountsTest, MalformedIRFails) {
  LoopNest N = gemmInit(4, 4, 4);
  N.Root.Step = 0;
  llvm::Expected<NestCounts> C = analyzeNest(N);
  ASSERT_FALSE(C);
  EXPECT_NE(llvm::toString(C.takeError()).find("step 0"), std::string::npos);
}

TEST(CountsTest, ShadowedLoopVariable) {
  // for i < N { for i < M { x[i] } }: the inner i hides the outer one.
  Node Root = upto("i", v("N"), {upto("i", v("M"), {stmt({rd("x", {v("i")})})})});
  LoopNest N = nest(std::move(Root), {{"N", 3}, {"M", 5}}, {{"x", Precision::F32}});
  NestCounts C = analyze(N);
  EXPECT_EQ(val(C.Iterations), 15);
  EXPECT_EQ(val(arr(C, "x").ElementsRead), 5);
  EXPECT_EQ(fstr(C.Iterations), "M*N");
}

TEST(CountsTest, SpecialFunctionsAndIntOps) {
  Stmt S;
  S.Accesses = {rd("x", {v("i")}), wr("y", {v("i")})};
  S.Ops[Precision::F32].Calls["exp"] = 1;
  S.Ops[Precision::F32].Muls = 1;
  S.IntOps = 2;
  LoopNest N = nest(upto("i", v("N"), {Node::stmt(S)}), {{"N", 10}},
                    {{"x", Precision::F32}, {"y", Precision::F32}});
  NestCounts C = analyze(N);
  EXPECT_EQ(val(C.Calls["exp"]), 10);
  EXPECT_EQ(val(C.Flops), 10 * (1 + specialFunctionFlops("exp")));
  EXPECT_EQ(val(C.IntOps), 20);
  EXPECT_EQ(val(C.Macs), 0);
}

//===----------------------------------------------------------------------===//
// Random nests against the brute-force oracle
//===----------------------------------------------------------------------===//

/// Compares one count with the oracle: the value must be present and equal,
/// a formula (when present) must evaluate to it. Returns false on mismatch.
bool same(const char *What, const Count &C, Int128 Expect,
          const NestCounts &NC, std::string &Log, bool NeedValue = true) {
  if (!C.Value) {
    if (NeedValue) {
      Log += std::string(What) + ": no value (" + C.WhyNot + ")\n";
      return false;
    }
  } else if (*C.Value != Expect) {
    Log += std::string(What) + ": " + int128ToString(*C.Value) +
           " != oracle " + int128ToString(Expect) + "\n";
    return false;
  }
  if (C.Formula) {
    llvm::Expected<Rational> F = evaluateFormula(NC, *C.Formula, NC.Values);
    if (!F) {
      Log += std::string(What) + ": formula " + C.Formula->str() +
             " fails: " + llvm::toString(F.takeError()) + "\n";
      return false;
    }
    if (*F != *Rational::make(Expect, 1)) {
      Log += std::string(What) + ": formula " + C.Formula->str() + " = " +
             F->str() + " != oracle " + int128ToString(Expect) + "\n";
      return false;
    }
  }
  return true;
}

TEST(CountsTest, RandomNestsMatchBruteForce) {
  const int Nests = 400;
  int Mismatches = 0, WithFormula = 0, WithFootprintFormula = 0,
      WithMinMax = 0, FormulaStable = 0;
  for (int Seed = 1; Seed <= Nests; ++Seed) {
    NestGen G(Seed);
    LoopNest N = G.make();
    brute::Counts B = brute::run(N);
    llvm::Expected<NestCounts> CE = analyzeNest(N);
    if (!CE) {
      ADD_FAILURE() << "seed " << Seed << ": "
                    << llvm::toString(CE.takeError()) << "\n"
                    << printNest(N);
      ++Mismatches;
      continue;
    }
    NestCounts &C = *CE;
    std::string Log;
    bool Ok = true;
    Ok &= same("iterations", C.Iterations, B.Iterations, C, Log);
    Ok &= same("macs", C.Macs, B.Macs, C, Log);
    Ok &= same("flops", C.Flops, B.Flops, C, Log);
    Ok &= same("intops", C.IntOps, B.IntOps, C, Log);
    Ok &= same("loads", C.Loads, B.Loads, C, Log);
    Ok &= same("stores", C.Stores, B.Stores, C, Log);
    Ok &= same("bytes_no_reuse", C.BytesNoReuse, B.BytesNoReuse, C, Log);
    for (const auto &[P, V] : B.MacsByType)
      Ok &= same("macs_by_type", C.MacsByType[P], V, C, Log);
    for (const auto &[P, V] : B.FlopsByType)
      Ok &= same("flops_by_type", C.FlopsByType[P], V, C, Log);
    for (const auto &[Name, V] : B.Calls)
      Ok &= same("calls", C.Calls[Name], V, C, Log);
    if (C.Loops.size() != B.LoopTotals.size()) {
      Log += "loop count differs\n";
      Ok = false;
    } else {
      for (size_t I = 0; I < C.Loops.size(); ++I)
        Ok &= same(("loop " + C.Loops[I].IV).c_str(), C.Loops[I].Total,
                   B.LoopTotals[I], C, Log);
    }
    for (const ArrayTraffic &A : C.Arrays) {
      brute::ArrayCounts &BA = B.Arrays[A.Name];
      std::string P = "array " + A.Name + " ";
      Ok &= same((P + "loads").c_str(), A.Loads, BA.Loads, C, Log);
      Ok &= same((P + "stores").c_str(), A.Stores, BA.Stores, C, Log);
      if (BA.FootprintKnown) {
        Ok &= same((P + "read").c_str(), A.ElementsRead, BA.Read, C, Log);
        Ok &= same((P + "written").c_str(), A.ElementsWritten, BA.Written, C,
                   Log);
        WithFootprintFormula += A.ElementsRead.Formula.has_value() &&
                                BA.Read > 0;
      } else if (A.ElementsRead.Value || A.ElementsRead.Formula) {
        Log += P + "footprint counted despite a non-affine subscript\n";
        Ok = false;
      }
    }
    if (B.CompulsoryKnown)
      Ok &= same("bytes_compulsory", C.BytesCompulsory, B.BytesCompulsory, C,
                 Log);
    else if (C.BytesCompulsory.Value)
      Ok = false, Log += "compulsory bytes despite a non-affine subscript\n";

    WithFormula += C.Iterations.Formula.has_value();
    std::string Dump = printNest(N);
    WithMinMax += Dump.find("min(") != std::string::npos ||
                  Dump.find("max(") != std::string::npos;

    // Formulas do not depend on the values: dropping them gives the same
    // polynomial wherever the valued run kept one.
    LoopNest Sym = N;
    for (Param &P : Sym.Params)
      P.Value.reset();
    llvm::Expected<NestCounts> SE = analyzeNest(Sym);
    if (!SE) {
      Log += "symbolic run failed: " + llvm::toString(SE.takeError()) + "\n";
      Ok = false;
    } else {
      // Constant bounds still give values; with sizes in them they don't.
      bool UsesSizes = false;
      for (const LoopTrip &T : C.Loops)
        UsesSizes |= T.First.find_first_of("NM") != std::string::npos ||
                     T.Last.find_first_of("NM") != std::string::npos;
      if (SE->Iterations.Value &&
          (UsesSizes || *SE->Iterations.Value != B.Iterations)) {
        Log += "a wrong value without sizes\n";
        Ok = false;
      }
      if (C.Iterations.Formula) {
        if (!SE->Iterations.Formula ||
            !(*SE->Iterations.Formula == *C.Iterations.Formula)) {
          Log += "symbolic formula differs\n";
          Ok = false;
        } else {
          ++FormulaStable;
        }
      }
    }

    if (!Ok) {
      ++Mismatches;
      ADD_FAILURE() << "seed " << Seed << "\n" << Log << Dump;
    }
  }
  EXPECT_EQ(Mismatches, 0);
  // The comparison must not pass vacuously: many nests keep formulas,
  // many use min/max bounds.
  EXPECT_GE(WithFormula, Nests / 5) << "formulas kept";
  EXPECT_GE(FormulaStable, Nests / 5);
  EXPECT_GE(WithFootprintFormula, Nests / 10) << "footprint formulas kept";
  EXPECT_GE(WithMinMax, Nests / 10) << "nests with min/max bounds";
  std::printf("random nests: %d, with iteration formula: %d, footprint "
              "formulas: %d, with min/max: %d\n",
              Nests, WithFormula, WithFootprintFormula, WithMinMax);
}

TEST(CountsTest, RandomNestsAtLargerSizes) {
  // The same generator with sizes up to 60: closed forms and enumeration
  // meet in the middle; the oracle is still cheap enough.
  int Mismatches = 0;
  for (int Seed = 1001; Seed <= 1100; ++Seed) {
    NestGen G(Seed);
    LoopNest N = G.make();
    std::mt19937_64 R(Seed);
    ParamValues O{{"N", 20 + static_cast<int64_t>(R() % 41)},
                  {"M", 10 + static_cast<int64_t>(R() % 31)}};
    if (N.Root.Body.size() > 0 && printNest(N).find("i3") != std::string::npos)
      O = {{"N", 12}, {"M", 9}}; // keep depth-4 nests cheap
    brute::Counts B = brute::run(N, O);
    llvm::Expected<NestCounts> CE = analyzeNest(N, O);
    ASSERT_TRUE(bool(CE)) << llvm::toString(CE.takeError());
    std::string Log;
    bool Ok = same("iterations", CE->Iterations, B.Iterations, *CE, Log) &
              same("loads", CE->Loads, B.Loads, *CE, Log) &
              same("stores", CE->Stores, B.Stores, *CE, Log) &
              same("flops", CE->Flops, B.Flops, *CE, Log);
    if (B.CompulsoryKnown)
      Ok &= same("bytes_compulsory", CE->BytesCompulsory, B.BytesCompulsory,
                 *CE, Log);
    if (!Ok) {
      ++Mismatches;
      ADD_FAILURE() << "seed " << Seed << "\n" << Log << printNest(N);
    }
  }
  EXPECT_EQ(Mismatches, 0);
}

} // namespace

// A write of the whole box first, then read-modify-writes in later
// statements (ikj gemm with its own zeroing loop): no element of C is read
// before it is written, and the footprint has a closed form. Variations
// that break the rule must still match the oracle (by enumeration).
TEST(CountsTest, FirstWriteThenUpdates) {
  auto Make = [](std::optional<int64_t> NV, int64_t InitLo,
                 AffineExpr UpdRow) {
    Node Root = upto(
        "i", v("N"),
        {loop("jd", b(k(InitLo)), b(v("N") - 1), {stmt({wr("C", {v("i"), v("jd")})})}),
         upto("k", v("N"),
              {upto("j", v("N"),
                    {stmt({rw("C", {UpdRow, v("j")}), rd("A", {v("i"), v("k")}),
                           rd("B", {v("k"), v("j")})},
                          Precision::F32, 1)})})});
    return nest(std::move(Root), {{"N", NV}},
                {{"A", Precision::F32}, {"B", Precision::F32},
                 {"C", Precision::F32}});
  };
  for (int64_t NV : {1, 2, 7, 16}) {
    struct Case {
      int64_t InitLo;
      AffineExpr Row;
      bool ReadsC; ///< some element of C is read before written
    };
    for (const Case &K : {Case{0, v("i"), false}, Case{1, v("i"), true},
                          Case{0, v("N") - 1 - v("i"), NV > 1}}) {
      LoopNest N = Make(NV, K.InitLo, K.Row);
      brute::Counts B = brute::run(N);
      NestCounts C = analyze(N);
      std::string Log;
      EXPECT_TRUE(same("C read", arr(C, "C").ElementsRead,
                       B.Arrays["C"].Read, C, Log) &
                  same("C written", arr(C, "C").ElementsWritten,
                       B.Arrays["C"].Written, C, Log) &
                  same("compulsory", C.BytesCompulsory, B.BytesCompulsory, C, Log))
          << Log << printNest(N);
      EXPECT_EQ(B.Arrays["C"].Read != 0, K.ReadsC) << printNest(N);
    }
  }
  // At a size too large to enumerate, the rule's case is exact and has a
  // formula: C is written (N^2), never read first.
  NestCounts Big = analyze(Make(4096, 0, v("i")));
  EXPECT_EQ(val(arr(Big, "C").ElementsRead), 0);
  EXPECT_EQ(val(arr(Big, "C").ElementsWritten), e(4096, 4096));
  EXPECT_EQ(val(Big.BytesCompulsory), e(3 * 4096 * 4096, 4));
  NestCounts Sym = analyze(Make(std::nullopt, 0, v("i")));
  EXPECT_EQ(fstr(arr(Sym, "C").ElementsWritten), "N^2");
  EXPECT_EQ(fstr(arr(Sym, "C").ElementsRead), "0");
}
