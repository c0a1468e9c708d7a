//===- PrinterTest.cpp - The textual IR ------------------------------------===//

#include "roofline/IR/LoopNest.h"

#include "gtest/gtest.h"

using namespace roofline;

namespace {

Loop loopOf(const std::string &IV, AffineExpr First, AffineExpr Last) {
  Loop L;
  L.IV = IV;
  L.First = Bound::single(std::move(First));
  L.Last = Bound::single(std::move(Last));
  return L;
}

TEST(PrinterTest, GemvRoundTripsToStableText) {
  LoopNest N;
  N.Function = "gemv";
  N.Loc = {"gemv.cpp", 3, 3};
  N.Params.push_back({"N", 1024, "macro"});
  Array A;
  A.Name = "A";
  A.Elem = Precision::F32;
  A.Extents = {AffineExpr::var("N"), AffineExpr::var("N")};
  N.Arrays.push_back(A);

  Stmt S;
  S.Loc = {"gemv.cpp", 5, 7};
  Access Acc;
  Acc.ArrayName = "A";
  Acc.Subscripts = {AffineExpr::var("i"), AffineExpr::var("j")};
  Acc.IsRead = true;
  S.Accesses.push_back(Acc);
  S.Ops[Precision::F32].Macs = 1;

  Loop Inner = loopOf("j", AffineExpr(0), *AffineExpr::var("N").addConstant(-1));
  Inner.Loc = {"gemv.cpp", 4, 5};
  Inner.Body.push_back(Node::stmt(S));
  N.Root = loopOf("i", AffineExpr(0), *AffineExpr::var("N").addConstant(-1));
  N.Root.Loc = {"gemv.cpp", 3, 3};
  N.Root.Step = 2;
  N.Root.Body.push_back(Node::loop(Inner));

  EXPECT_EQ(printNest(N), "nest @gemv at gemv.cpp:3:3\n"
                          "param N = 1024 (macro)\n"
                          "array A : f32[N][N]\n"
                          "for i = 0 to N - 1 step 2 @3:3 {\n"
                          "  for j = 0 to N - 1 @4:5 {\n"
                          "    stmt @5:7 {\n"
                          "      read A[i][j]\n"
                          "      ops f32: mac=1\n"
                          "    }\n"
                          "  }\n"
                          "}\n");
}

TEST(PrinterTest, PrecisionNamesParseBack) {
  for (Precision P : {Precision::F64, Precision::F32, Precision::F16,
                      Precision::BF16, Precision::I8, Precision::I32,
                      Precision::I64})
    EXPECT_EQ(parsePrecision(precisionName(P)), P);
  EXPECT_FALSE(parsePrecision("f128").has_value());
  EXPECT_EQ(precisionBytes(Precision::BF16), 2u);
  EXPECT_EQ(precisionBytes(Precision::I8), 1u);
}

} // namespace
