//===- DelinearizeTest.cpp - IndexPoly and rows split provably -------------===//

#include "roofline/IR/Delinearize.h"
#include "roofline/IR/IndexPoly.h"

#include "gtest/gtest.h"

#include <map>
#include <random>
#include <set>

using namespace roofline;

namespace {

IndexPoly iv(const std::string &N) { return IndexPoly::loopVar(N); }
IndexPoly sz(const std::string &N) { return IndexPoly::size(N); }
IndexPoly k(int64_t C) { return IndexPoly::constant(C); }
IndexPoly mul(const IndexPoly &A, const IndexPoly &B) {
  bool LV = false;
  return *A.mul(B, LV);
}
IndexPoly add(const IndexPoly &A, const IndexPoly &B) { return *A.add(B); }

LoopRange loop(const std::string &IV, AffineExpr First, AffineExpr Last,
               const LoopRange *Outer, int64_t Step = 1) {
  LoopRange L;
  L.IV = IV;
  L.First = Bound::single(std::move(First));
  L.Last = Bound::single(std::move(Last));
  L.Step = Step;
  L.Outer = Outer;
  return L;
}
AffineExpr var(const std::string &N, int64_t C = 1) {
  return AffineExpr::var(N, C);
}
AffineExpr minus1(const std::string &N) { return *var(N).addConstant(-1); }
bool accepted(llvm::Expected<Delinearized> D) {
  if (D)
    return true;
  llvm::consumeError(D.takeError());
  return false;
}

TEST(IndexPolyTest, ProductsOfSizesAndLoopVariables) {
  // b*T*C + t*C + i
  IndexPoly P = add(add(mul(mul(iv("b"), sz("T")), sz("C")),
                        mul(iv("t"), sz("C"))),
                    iv("i"));
  EXPECT_EQ(P.parts().size(), 3u);
  EXPECT_EQ(P.part({"C", "T"}), AffineExpr::var("b"));
  EXPECT_EQ(P.part({"C"}), AffineExpr::var("t"));
  EXPECT_FALSE(P.isFlat());
  bool LoopVarProduct = false;
  EXPECT_FALSE(iv("i").mul(iv("j"), LoopVarProduct).has_value());
  EXPECT_TRUE(LoopVarProduct);
  // B*T + 3 is flat: one variable for the product.
  std::vector<SizeMonomial> Products;
  std::optional<AffineExpr> A = add(mul(sz("B"), sz("T")), k(3)).toAffine(&Products);
  ASSERT_TRUE(A);
  EXPECT_EQ(A->str(), "B*T + 3");
  EXPECT_EQ(Products, (std::vector<SizeMonomial>{{"B", "T"}}));
  // C -> NH*hs.
  IndexPoly R = mul(iv("t"), sz("C")).rewrite({"C"}, {"NH", "hs"});
  EXPECT_EQ(R.part({"NH", "hs"}), AffineExpr::var("t"));
}

TEST(DelinearizeTest, RowPointersSplitIntoRows) {
  LoopRange B = loop("b", AffineExpr(0), minus1("B"), nullptr);
  LoopRange T = loop("t", AffineExpr(0), minus1("T"), &B);
  LoopRange I = loop("i", AffineExpr(0), minus1("C"), &T);
  IndexPoly X = add(add(mul(mul(iv("b"), sz("T")), sz("C")),
                        mul(iv("t"), sz("C"))),
                    iv("i"));
  llvm::Expected<Delinearized> D = delinearize("inp", {{X, &I}}, {}, {});
  ASSERT_TRUE(bool(D)) << llvm::toString(D.takeError());
  ASSERT_EQ(D->Extents.size(), 3u);
  EXPECT_FALSE(D->Extents[0]);
  EXPECT_EQ(D->Extents[1]->str(), "T");
  EXPECT_EQ(D->Extents[2]->str(), "C");
  EXPECT_EQ(D->Subscripts[0][0].str(), "b");
  EXPECT_EQ(D->Subscripts[0][1].str(), "t");
  EXPECT_EQ(D->Subscripts[0][2].str(), "i");
  EXPECT_TRUE(D->Conditions.empty()); // proved from the loop bounds
}

TEST(DelinearizeTest, PackedRowsAbsorbTheirConstantFactor) {
  // q at t*3*C, k at t*3*C + C: rows of 3*C hold q, k and v.
  LoopRange T = loop("t", AffineExpr(0), minus1("T"), nullptr);
  LoopRange I = loop("i", AffineExpr(0), minus1("C"), &T);
  IndexPoly Q = add(mul(iv("t"), mul(k(3), sz("C"))), iv("i"));
  IndexPoly K = add(Q, sz("C"));
  IndexPoly Next = add(mul(add(iv("t"), k(1)), mul(k(3), sz("C"))), iv("i"));
  llvm::Expected<Delinearized> D =
      delinearize("qkv", {{Q, &I}, {K, &I}, {Next, &I}}, {}, {});
  ASSERT_TRUE(bool(D)) << llvm::toString(D.takeError());
  EXPECT_EQ(D->Subscripts[0][0].str(), "3*t");
  EXPECT_EQ(D->Subscripts[1][0].str(), "3*t + 1");
  EXPECT_EQ(D->Subscripts[2][0].str(), "3*t + 3");
  EXPECT_TRUE(D->Conditions.empty());
}

TEST(DelinearizeTest, QuotientSizesMakeStridesNest) {
  // h*hs + i beside t*C, with hs = C / NH.
  LoopRange T = loop("t", AffineExpr(0), minus1("T"), nullptr);
  LoopRange H = loop("h", AffineExpr(0), minus1("NH"), &T);
  LoopRange I = loop("i", AffineExpr(0), minus1("hs"), &H);
  IndexPoly P = add(add(mul(iv("t"), sz("C")), mul(iv("h"), sz("hs"))), iv("i"));
  EXPECT_FALSE(accepted(delinearize("x", {{P, &I}}, {}, {})));
  SizeRelation Rel{{"C"}, {"NH", "hs"}, "C = NH*hs"};
  llvm::Expected<Delinearized> D = delinearize("x", {{P, &I}}, {Rel}, {});
  ASSERT_TRUE(bool(D)) << llvm::toString(D.takeError());
  EXPECT_EQ(D->Extents[1]->str(), "NH");
  EXPECT_EQ(D->Extents[2]->str(), "hs");
  EXPECT_EQ(D->Notes, (std::vector<std::string>{"C = NH*hs"}));
}

TEST(DelinearizeTest, RelationConditionsOnlyWhereUsed) {
  // A relation's divisibility is assumed by a split that rewrites with it,
  // not by one that never needed it.
  LoopRange T = loop("t", AffineExpr(0), minus1("T"), nullptr);
  LoopRange I = loop("i", AffineExpr(0), minus1("hs"), &T);
  IndexPoly P = add(mul(iv("t"), sz("C")), iv("i"));
  SizeRelation Rel{{"C"}, {"NH", "hs"}, "C = NH*hs"};
  Rel.Conditions.push_back({var("C"), "NH divides C"});
  llvm::Expected<Delinearized> Plain = delinearize("x", {{P, &I}}, {Rel}, {});
  ASSERT_TRUE(bool(Plain)) << llvm::toString(Plain.takeError());
  for (const SizeCondition &C : Plain->Conditions)
    EXPECT_NE(C.What, "NH divides C");
  IndexPoly Q = add(add(mul(iv("t"), sz("C")), mul(iv("h"), sz("hs"))), iv("i"));
  LoopRange H = loop("h", AffineExpr(0), minus1("NH"), &T);
  LoopRange I2 = loop("i", AffineExpr(0), minus1("hs"), &H);
  llvm::Expected<Delinearized> D = delinearize("x", {{Q, &I2}}, {Rel}, {});
  ASSERT_TRUE(bool(D)) << llvm::toString(D.takeError());
  EXPECT_TRUE(std::any_of(D->Conditions.begin(), D->Conditions.end(),
                          [](const SizeCondition &C) {
                            return C.What == "NH divides C";
                          }));
}

TEST(DelinearizeTest, ProductOffsetJoinsTheRowItIsAMultipleOf) {
  // llama2's KV cache: key_cache[loff + t*kv + i], loff = l*seq*kv. As a
  // size of its own loff is an offset in the row, which it leaves (at l =
  // 1); rewritten as its product it joins the row subscript: l*seq + t.
  LoopRange T = loop("t", AffineExpr(0), var("pos"), nullptr);
  LoopRange I = loop("i", AffineExpr(0), minus1("hs"), &T);
  IndexPoly P = add(add(sz("loff"), mul(iv("t"), sz("kv"))), iv("i"));
  SizeValues Vals{{"loff", 48}, {"l", 1}, {"seq", 6}, {"kv", 8},
                  {"hs", 4}, {"pos", 3}};
  llvm::Expected<Delinearized> Off = delinearize("kc", {{P, &I}}, {}, Vals);
  ASSERT_FALSE(bool(Off));
  EXPECT_NE(llvm::toString(Off.takeError()).find("overlap"), std::string::npos);
  SizeRelation Rel{{"loff"}, {"kv", "l", "seq"}, "loff = kv*l*seq"};
  llvm::Expected<Delinearized> D = delinearize("kc", {{P, &I}}, {Rel}, Vals);
  ASSERT_TRUE(bool(D)) << llvm::toString(D.takeError());
  // The strides now nest (1, kv, kv*l*seq): rows of kv in blocks of l*seq
  // rows, loff the block index 1 (one block of l*seq rows = loff).
  ASSERT_EQ(D->Extents.size(), 3u);
  EXPECT_EQ(D->Extents[1]->str(), "l*seq");
  EXPECT_EQ(D->Extents[2]->str(), "kv");
  EXPECT_EQ(D->Subscripts[0][0].str(), "1");
  EXPECT_EQ(D->Subscripts[0][1].str(), "t");
  EXPECT_EQ(D->Subscripts[0][2].str(), "i");
  // A product that is no multiple of the row (l*seq*hs, rows of kv = 2*hs)
  // stays in the column, and is refused where it leaves the row.
  SizeRelation Skew{{"loff"}, {"hs", "l", "seq"}, "loff = hs*l*seq"};
  Vals["loff"] = 24;
  llvm::Expected<Delinearized> S = delinearize("kc", {{P, &I}}, {Skew}, Vals);
  ASSERT_FALSE(bool(S));
  EXPECT_NE(llvm::toString(S.takeError()).find("overlap"), std::string::npos);
}

TEST(DelinearizeTest, SlidingWindowsAreConditionsOrRefusals) {
  LoopRange T = loop("t", AffineExpr(0), minus1("T"), nullptr);
  LoopRange K = loop("k", AffineExpr(0), minus1("K"), &T);
  IndexPoly P = add(mul(iv("t"), sz("S")), iv("k"));
  llvm::Expected<Delinearized> D = delinearize("x", {{P, &K}}, {}, {});
  ASSERT_TRUE(bool(D));
  ASSERT_EQ(D->Conditions.size(), 1u);
  EXPECT_EQ(D->Conditions[0].Expr.str(), "-K + S"); // K <= S
  llvm::Expected<Delinearized> Over =
      delinearize("x", {{P, &K}}, {}, {{"S", 2}, {"K", 3}, {"T", 4}});
  ASSERT_FALSE(bool(Over));
  EXPECT_NE(llvm::toString(Over.takeError()).find("overlap"), std::string::npos);
  EXPECT_TRUE(accepted(delinearize("x", {{P, &K}}, {}, {{"S", 3}, {"K", 3}})));
}

TEST(DelinearizeTest, SymbolicOffsetsJoinTheRowTheyDivide) {
  // A padded image read inside its padding test: (y - P)*W + (x - P) with
  // y in [P, H + P - 1], x in [P, W + P - 1]. -P*W and -P are no strides:
  // they go to the subscripts of rows W and 1.
  LoopRange Y = loop("y", var("P"), *var("H").add(minus1("P")), nullptr);
  LoopRange X = loop("x", var("P"), *var("W").add(minus1("P")), &Y);
  IndexPoly P = add(add(mul(iv("y"), sz("W")), iv("x")),
                    add(mul(mul(k(-1), sz("P")), sz("W")), mul(k(-1), sz("P"))));
  llvm::Expected<Delinearized> D = delinearize("in", {{P, &X}}, {}, {});
  ASSERT_TRUE(bool(D)) << llvm::toString(D.takeError());
  ASSERT_EQ(D->Extents.size(), 2u);
  EXPECT_EQ(D->Extents[1]->str(), "W");
  EXPECT_EQ(D->Subscripts[0][0].str(), "-P + y");
  EXPECT_EQ(D->Subscripts[0][1].str(), "-P + x");
  EXPECT_TRUE(D->Conditions.empty());
  // Without the test, x - P leaves its row: stated, or refused at sizes.
  LoopRange X0 = loop("x", AffineExpr(0), minus1("W"), &Y);
  llvm::Expected<Delinearized> Open = delinearize("in", {{P, &X0}}, {}, {});
  ASSERT_TRUE(bool(Open));
  EXPECT_FALSE(Open->Conditions.empty());
  EXPECT_FALSE(accepted(
      delinearize("in", {{P, &X0}}, {}, {{"P", 1}, {"W", 4}, {"H", 4}})));
}

TEST(DelinearizeTest, StridedLoopsEndOnTheirLattice) {
  // i += 2 below n, reading x[h*n + i + 1]: fine where n is even.
  LoopRange H = loop("h", AffineExpr(0), minus1("H"), nullptr);
  LoopRange I = loop("i", AffineExpr(0), minus1("n"), &H, 2);
  IndexPoly P = add(add(mul(iv("h"), sz("n")), iv("i")), k(1));
  EXPECT_TRUE(accepted(delinearize("x", {{P, &I}}, {}, {{"n", 4}, {"H", 2}})));
  EXPECT_FALSE(accepted(delinearize("x", {{P, &I}}, {}, {{"n", 5}, {"H", 2}})));
}

// The address an index names at one point: sum of size products times
// their loop-variable coefficients.
static __int128 evalPoly(const IndexPoly &P, const SizeValues &Vals, int64_t I,
                         int64_t J) {
  SizeValues V = Vals;
  V["i"] = I;
  V["j"] = J;
  __int128 Sum = 0;
  for (const auto &[Mono, Coeff] : P.parts()) {
    __int128 Prod = *evalSizes(Coeff, V);
    for (const std::string &S : Mono)
      Prod *= Vals.at(S);
    Sum += Prod;
  }
  return Sum;
}

static std::string describe(const std::vector<DelinearizeAccess> &Acc,
                            const Delinearized &D, const SizeValues &Vals,
                            const LoopRange &LI, const LoopRange &LJ) {
  std::string Out;
  for (auto &[K, V] : Vals)
    Out += K + "=" + std::to_string(V) + " ";
  Out += "i in [" + LI.First.affine().str() + ", " + LI.Last.affine().str() +
         "] j in [" + LJ.First.affine().str() + ", " + LJ.Last.affine().str() +
         "]";
  for (size_t K = 0; K < Acc.size(); ++K) {
    Out += "; " + Acc[K].Index.str() + " ->";
    for (const AffineExpr &S : D.Subscripts[K])
      Out += " [" + S.str() + "]";
  }
  return Out;
}

// The property everything rests on: where delinearize accepts at known
// sizes, distinct subscript tuples are distinct addresses, over every
// point the loops visit. Random rectangular and triangular nests, random
// linear indices in two sizes.
TEST(DelinearizeTest, AcceptedSplitsAreInjectiveByEnumeration) {
  std::mt19937 Rng(7);
  auto Pick = [&](int Lo, int Hi) {
    return std::uniform_int_distribution<int>(Lo, Hi)(Rng);
  };
  int Accepted = 0, Refused = 0;
  for (int Case = 0; Case < 400; ++Case) {
    SizeValues Vals{{"N", Pick(1, 5)}, {"M", Pick(1, 5)}};
    // Loops i (outer) and j (inner, maybe triangular), bounds in sizes.
    LoopRange LI = loop("i", AffineExpr(0), *var(Pick(0, 1) ? "N" : "M").addConstant(-Pick(0, 1)), nullptr);
    AffineExpr JLast = Pick(0, 2) == 0 ? var("i") : *var(Pick(0, 1) ? "M" : "N").addConstant(-Pick(1, 2));
    LoopRange LJ = loop("j", AffineExpr(Pick(0, 1)), JLast, &LI);
    // index = (a*i + b) * S + c*j + d with S one of the sizes
    std::string S = Pick(0, 1) ? "M" : "N";
    auto Index = [&]() {
      IndexPoly Row = add(mul(k(Pick(1, 2)), iv("i")), k(Pick(0, 1)));
      IndexPoly Col = add(mul(k(Pick(0, 2)), iv("j")), k(Pick(-1, 2)));
      return add(mul(Row, sz(S)), Col);
    };
    std::vector<DelinearizeAccess> Acc{{Index(), &LJ}, {Index(), &LJ}};
    llvm::Expected<Delinearized> D = delinearize("A", Acc, {}, Vals);
    if (!D) {
      llvm::consumeError(D.takeError());
      ++Refused;
      continue;
    }
    ++Accepted;
    std::map<std::vector<__int128>, __int128> AddressOf;
    std::map<__int128, std::vector<__int128>> TupleOf;
    auto Eval = [&](const AffineExpr &E, int64_t I, int64_t J) {
      SizeValues V = Vals;
      V["i"] = I;
      V["j"] = J;
      return *evalSizes(E, V);
    };
    int64_t IHi = *evalSizes(LI.Last.affine(), Vals);
    for (int64_t I = 0; I <= IHi; ++I) {
      SizeValues V = Vals;
      V["i"] = I;
      int64_t JLo = *evalSizes(LJ.First.affine(), V);
      int64_t JHi = *evalSizes(LJ.Last.affine(), V);
      for (int64_t J = JLo; J <= JHi; ++J)
        for (size_t K = 0; K < Acc.size(); ++K) {
          __int128 A = evalPoly(Acc[K].Index, Vals, I, J);
          std::vector<__int128> T;
          for (const AffineExpr &Sub : D->Subscripts[K])
            T.push_back(Eval(Sub, I, J));
          auto [It, New] = TupleOf.emplace(A, T);
          EXPECT_TRUE(New || It->second == T)
              << "address " << static_cast<long long>(A)
              << " has two tuples in case " << Case << ": " << describe(Acc, *D, Vals, LI, LJ);
          auto [It2, New2] = AddressOf.emplace(T, A);
          EXPECT_TRUE(New2 || It2->second == A)
              << "a tuple has two addresses in case " << Case;
        }
    }
  }
  EXPECT_GT(Accepted, 50); // 95 of 400 with this seed
  EXPECT_GT(Refused, 10); // the generator does make overlapping windows
}

} // namespace
