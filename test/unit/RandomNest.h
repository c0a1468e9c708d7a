//===- RandomNest.h - Random affine loop nests for oracle tests -----------===//
//
// Depth 1-4 nests with triangular, strided, offset and min/max bounds,
// several statements over arrays of random element types and ops in random
// precisions; every size has a value so brute force can run them. Shared by
// the counting tests (against BruteForce.h) and the transform tests (counts
// derived without re-analysis against a fresh analysis).
//
//===----------------------------------------------------------------------===//

#ifndef ROOFLINE_TEST_UNIT_RANDOMNEST_H
#define ROOFLINE_TEST_UNIT_RANDOMNEST_H

#include "NestBuilder.h"

#include "roofline/IR/LoopNest.h"

#include <map>
#include <random>
#include <string>
#include <vector>

namespace roofline {
namespace unittest {

using namespace roofline::testing; // v, k and the AffineExpr operators

class NestGen {
public:
  explicit NestGen(uint64_t Seed) : Rng(Seed) {}

  LoopNest make() {
    LoopNest N;
    N.Function = "random";
    Sizes = {{"N", pick(0, 9)}, {"M", pick(0, 7)}};
    for (auto &[Name, V] : Sizes)
      N.Params.push_back({Name, V, "literal"});
    const Precision Ps[] = {Precision::F32, Precision::F64, Precision::BF16,
                            Precision::I8, Precision::F16};
    for (auto [Name, Dims] : std::vector<std::pair<std::string, int>>{
             {"A", 2}, {"B", 2}, {"x", 1}, {"y", 1}, {"s", 0}}) {
      Array A;
      A.Name = Name;
      A.Elem = Ps[pick(0, 4)];
      ArrayDims[Name] = Dims;
      N.Arrays.push_back(A);
    }
    MaxDepth = pick(1, 4);
    std::vector<const Loop *> Outer;
    Node Root = makeLoop(0, Outer);
    N.Root = std::move(Root.loop());
    return N;
  }

private:
  static Bound b(const AffineExpr &E) { return Bound::single(E); }
  static Bound bfloor(const AffineExpr &E, int64_t D) {
    Bound B;
    B.Terms.push_back({E, D});
    return B;
  }
  static Bound bmin(std::vector<AffineExpr> Es) {
    Bound B;
    B.Kind = Bound::Min;
    for (AffineExpr &E : Es)
      B.Terms.push_back({E, 1});
    return B;
  }
  static Bound bmax(std::vector<AffineExpr> Es) {
    Bound B = bmin(std::move(Es));
    B.Kind = Bound::Max;
    return B;
  }

  std::mt19937_64 Rng;
  std::vector<std::pair<std::string, int64_t>> Sizes;
  std::map<std::string, int> ArrayDims;
  int MaxDepth = 1;
  struct Scope {
    std::string IV;
    int64_t Step;
  };
  std::vector<Scope> Ivs;

  int64_t pick(int64_t Lo, int64_t Hi) {
    return Lo + static_cast<int64_t>(Rng() % static_cast<uint64_t>(Hi - Lo + 1));
  }
  bool coin(int Percent) { return pick(1, 100) <= Percent; }
  AffineExpr param() { return v(coin(50) ? "N" : "M"); }

  Node makeLoop(int Depth, std::vector<const Loop *> &Outer) {
    Loop L;
    L.IV = "i" + std::to_string(Depth);
    bool HasOuter = !Ivs.empty();
    const Scope *O = HasOuter ? &Ivs[pick(0, Ivs.size() - 1)] : nullptr;
    AffineExpr OV = O ? v(O->IV) : k(0);
    int Kind = pick(0, 12);
    if (!HasOuter && (Kind == 1 || Kind == 2 || Kind == 3 || Kind == 7 ||
                      Kind == 8))
      Kind = 0;
    switch (Kind) {
    case 0:
      L.First = b(k(0));
      L.Last = b(param() - 1);
      break;
    case 1:
      L.First = b(k(0));
      L.Last = b(OV + pick(-1, 1));
      break;
    case 2:
      L.First = b(OV);
      L.Last = b(param() - 1);
      break;
    case 3:
      L.First = b(OV + pick(1, 3));
      L.Last = b(param() - 1);
      break;
    case 4:
      L.Step = pick(2, 3);
      L.First = b(coin(50) || !HasOuter ? k(0) : OV);
      L.Last = b(coin(50) || !HasOuter ? param() - 1 : param() + OV - 1);
      break;
    case 5:
      L.Step = -1;
      L.First = b(coin(50) || !HasOuter ? param() - 1 : OV);
      L.Last = b(coin(50) || !HasOuter ? k(0) : OV - 2);
      break;
    case 6:
      L.Step = -pick(2, 3);
      L.First = b(param() - 1);
      L.Last = b(coin(50) || !HasOuter ? k(0) : OV);
      break;
    case 7: {
      int64_t T = O->Step > 1 ? O->Step : pick(2, 4);
      L.First = b(OV);
      L.Last = bmin({OV + (T - 1), param() - 1});
      break;
    }
    case 8:
      L.First = bmax({k(0), OV - 2});
      L.Last = bmin({OV + 2, param() - 1});
      break;
    case 9:
      L.First = b(k(0));
      L.Last = HasOuter && coin(50) ? bfloor(OV + param(), 2)
                                    : bfloor(param() + pick(-1, 2), 2);
      break;
    case 10:
      L.First = b(k(pick(0, 2)));
      L.Last = b(k(pick(-1, 4)));
      break;
    case 11:
      L.First = b(k(1));
      L.Last = b(param() - 2);
      break;
    default:
      L.Step = pick(2, 4); // a tile loop for case 7 below it
      L.First = b(k(0));
      L.Last = b(param() - 1);
      break;
    }
    Ivs.push_back({L.IV, L.Step});
    Outer.push_back(&L);
    int Children = pick(1, 3);
    for (int C = 0; C < Children; ++C) {
      if (Depth + 1 < MaxDepth && coin(60))
        L.Body.push_back(makeLoop(Depth + 1, Outer));
      else
        L.Body.push_back(makeStmt());
    }
    Outer.pop_back();
    Ivs.pop_back();
    return Node::loop(std::move(L));
  }

  std::optional<AffineExpr> subscript() {
    int Kind = pick(0, 19);
    const Scope &S = Ivs[pick(0, Ivs.size() - 1)];
    if (Kind == 0)
      return std::nullopt; // non-affine, rarely
    if (Kind <= 9)
      return v(S.IV) + pick(-1, 1);
    if (Kind <= 11)
      return k(pick(0, 2));
    if (Kind <= 13)
      return param() - v(S.IV) - 1;
    if (Kind <= 15)
      return v(S.IV, 2);
    if (Kind <= 17)
      return v(S.IV) + v(Ivs[pick(0, Ivs.size() - 1)].IV);
    return v(S.IV) + param();
  }

  Node makeStmt() {
    Stmt S;
    int NAcc = pick(1, 3);
    const char *Names[] = {"A", "B", "x", "y", "s"};
    for (int I = 0; I < NAcc; ++I) {
      Access A;
      A.ArrayName = Names[pick(0, 4)];
      for (int D = 0; D < ArrayDims[A.ArrayName]; ++D)
        A.Subscripts.push_back(subscript());
      int RW = pick(0, 3); // read, read, write, read+write
      A.IsRead = RW != 2;
      A.IsWrite = RW >= 2;
      A.Text = A.ArrayName;
      S.Accesses.push_back(A);
    }
    const Precision Ps[] = {Precision::F32, Precision::F64, Precision::BF16,
                            Precision::I8};
    int NOps = pick(0, 2);
    for (int I = 0; I < NOps; ++I) {
      OpCounts &O = S.Ops[Ps[pick(0, 3)]];
      O.Macs += pick(0, 2);
      O.Adds += pick(0, 1);
      O.Muls += pick(0, 1);
      O.Divs += pick(0, 1);
      if (coin(20))
        O.Calls[coin(50) ? "exp" : "sqrt"] += 1;
    }
    S.IntOps = pick(0, 2);
    return Node::stmt(std::move(S));
  }
};

} // namespace unittest
} // namespace roofline

#endif // ROOFLINE_TEST_UNIT_RANDOMNEST_H
