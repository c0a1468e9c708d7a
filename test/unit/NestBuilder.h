//===- NestBuilder.h - Hand-built LoopNests for the unit tests ------------===//
//
// Small helpers to write nests the way they read in C:
//   nest("gemm", {{"N", 64}}, {arr("A", F32, {N, N}), ...},
//        upto("i", N, {upto("j", N, {upto("k", N, {stmt({rw("C", {i, j}),
//        rd("A", {i, k}), rd("B", {k, j})}, mac())})})}));
//
//===----------------------------------------------------------------------===//

#ifndef ROOFLINE_TEST_UNIT_NESTBUILDER_H
#define ROOFLINE_TEST_UNIT_NESTBUILDER_H

#include "roofline/IR/LoopNest.h"

#include <string>
#include <vector>

namespace roofline {
namespace testing {

inline AffineExpr v(const std::string &N, int64_t C = 1) {
  return AffineExpr::var(N, C);
}
inline AffineExpr k(int64_t C) { return AffineExpr(C); }
inline AffineExpr operator+(const AffineExpr &A, const AffineExpr &B) {
  return *A.add(B);
}
inline AffineExpr operator-(const AffineExpr &A, const AffineExpr &B) {
  return *A.sub(B);
}
inline AffineExpr operator+(const AffineExpr &A, int64_t C) {
  return *A.addConstant(C);
}
inline AffineExpr operator-(const AffineExpr &A, int64_t C) {
  return *A.addConstant(-C);
}
inline AffineExpr operator*(int64_t C, const AffineExpr &A) {
  return *A.scale(C);
}

inline Node loop(const std::string &IV, const AffineExpr &First,
                 const AffineExpr &Last, std::vector<Node> Body,
                 int64_t Step = 1) {
  Loop L;
  L.IV = IV;
  L.First = Bound::single(First);
  L.Last = Bound::single(Last);
  L.Step = Step;
  L.Body = std::move(Body);
  L.Loc.Line = 1;
  return Node::loop(std::move(L));
}
/// for (IV = 0; IV < Hi; ++IV)
inline Node upto(const std::string &IV, const AffineExpr &Hi,
                 std::vector<Node> Body) {
  return loop(IV, k(0), Hi - 1, std::move(Body));
}

inline std::string accessText(const std::string &A,
                              const std::vector<AffineExpr> &Subs) {
  std::string T = A;
  for (const AffineExpr &S : Subs)
    T += "[" + S.str() + "]";
  return T;
}
inline Access acc(const std::string &A, std::vector<AffineExpr> Subs, bool R,
                  bool W) {
  Access X;
  X.ArrayName = A;
  X.Text = accessText(A, Subs);
  for (auto &S : Subs)
    X.Subscripts.push_back(S);
  X.IsRead = R;
  X.IsWrite = W;
  return X;
}
inline Access rd(const std::string &A, std::vector<AffineExpr> Subs) {
  return acc(A, std::move(Subs), true, false);
}
inline Access wr(const std::string &A, std::vector<AffineExpr> Subs) {
  return acc(A, std::move(Subs), false, true);
}
inline Access rw(const std::string &A, std::vector<AffineExpr> Subs) {
  return acc(A, std::move(Subs), true, true);
}

inline std::map<Precision, OpCounts> mac(Precision P = Precision::F32) {
  OpCounts O;
  O.Macs = 1;
  return {{P, O}};
}
inline std::map<Precision, OpCounts> add(Precision P = Precision::F32) {
  OpCounts O;
  O.Adds = 1;
  return {{P, O}};
}

inline Node stmt(std::vector<Access> Accs,
                 std::map<Precision, OpCounts> Ops = {}, unsigned Line = 2) {
  Stmt S;
  S.Accesses = std::move(Accs);
  S.Ops = std::move(Ops);
  S.Loc.Line = Line;
  for (Access &A : S.Accesses)
    A.Loc.Line = Line;
  return Node::stmt(std::move(S));
}

inline Array arr(const std::string &Name, Precision P,
                 std::vector<AffineExpr> Extents) {
  Array A;
  A.Name = Name;
  A.Elem = P;
  for (auto &E : Extents)
    A.Extents.push_back(E);
  return A;
}

inline LoopNest nest(const std::string &Fn,
                     std::vector<std::pair<std::string, int64_t>> Params,
                     std::vector<Array> Arrays, Node Root) {
  LoopNest N;
  N.Function = Fn;
  N.Loc.File = "test.cpp";
  N.Loc.Line = 1;
  for (auto &[Name, V] : Params)
    N.Params.push_back({Name, V, "test"});
  N.Arrays = std::move(Arrays);
  N.Root = std::move(Root.loop());
  return N;
}

/// The seed's tri-loop: C[i][j] = 0 before the k loop, then C += A*B, in
/// the loop order given (a permutation of "ijk"); sizes N (rows of A), K, M.
inline LoopNest gemmNest(const std::string &Order, int64_t N, int64_t K,
                         int64_t M, bool Init = false) {
  AffineExpr I = v("i"), J = v("j"), Kk = v("k");
  auto Hi = [&](char C) {
    return C == 'i' ? v("N") : (C == 'j' ? v("M") : v("K"));
  };
  Node Body = stmt({rw("C", {I, J}), rd("A", {I, Kk}), rd("B", {Kk, J})},
                   mac(), 5);
  Node L3 = upto(std::string(1, Order[2]), Hi(Order[2]), {Body});
  std::vector<Node> Mid;
  if (Init)
    Mid.push_back(stmt({wr("C", {I, J})}, {}, 4));
  Mid.push_back(std::move(L3));
  Node L2 = upto(std::string(1, Order[1]), Hi(Order[1]), std::move(Mid));
  Node L1 = upto(std::string(1, Order[0]), Hi(Order[0]), {L2});
  return nest("gemm", {{"N", N}, {"K", K}, {"M", M}},
              {arr("C", Precision::F32, {v("N"), v("M")}),
               arr("A", Precision::F32, {v("N"), v("K")}),
               arr("B", Precision::F32, {v("K"), v("M")})},
              std::move(L1));
}

} // namespace testing
} // namespace roofline

#endif // ROOFLINE_TEST_UNIT_NESTBUILDER_H
