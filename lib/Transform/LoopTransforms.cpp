//===- LoopTransforms.cpp - Band transforms and their legality ------------===//
//
// Strip-mining, permutation (interchange), tiling, unroll-and-jam, register
// blocking, parallel and SIMD marks, and packing. Each transform's
// precondition is written at its function and checked before the IR
// changes; the caller (applyRecord) works on a copy, so a refused record
// leaves the program untouched.
//
// Dependences: the first band transform of a nest computes the dependence
// graph (Analysis/Dependence.h) and keeps each direction vector as a set of
// directions per loop IV. Permuting loops needs no update (IVs keep their
// names); strip-mining i into (i_1, i) splits each entry by the standard
// rules  '<' -> (<,*) | (=,<),  '=' -> (=,=),  '>' -> (>,*) | (=,>).  A loop
// order is legal when no vector can be lexicographically negative in it.
//
//===----------------------------------------------------------------------===//

#include "LoopTransforms.h"
#include "TransformUtil.h"

#include "roofline/Analysis/Dependence.h"

#include "llvm/ADT/StringExtras.h"

#include <algorithm>
#include <functional>

using namespace roofline;

namespace {

constexpr uint8_t DirLT = 1, DirEQ = 2, DirGT = 4, DirAny = 7;

std::string joinNames(const std::vector<std::string> &V) {
  return llvm::join(V, ", ");
}

/// Loops from the root to \p Deepest that form a chain: every loop on it
/// above the last has the next one in its body.
std::vector<Loop *> pathTo(LoopNest &N, const std::string &IV) {
  std::vector<Loop *> Path;
  findLoop(N.Root, IV, &Path);
  return Path;
}

/// The chain continued below \p L while a body holds exactly one loop.
std::vector<Loop *> chainBelow(Loop *L) {
  std::vector<Loop *> C;
  while (true) {
    Loop *Only = nullptr;
    unsigned Count = 0;
    for (Node &N : L->Body)
      if (N.isLoop()) {
        Only = &N.loop();
        ++Count;
      }
    if (Count != 1)
      return C;
    C.push_back(Only);
    L = Only;
  }
}

size_t depthOf(const std::vector<Loop *> &Chain, const std::string &IV) {
  for (size_t I = 0; I < Chain.size(); ++I)
    if (Chain[I]->IV == IV)
      return I;
  return SIZE_MAX;
}

/// Depth of every loop by IV (IVs are unique on a chain; sibling nests may
/// reuse names, the deepest wins, which is the chain being transformed).
std::map<std::string, size_t> depths(LoopNest &N) {
  std::map<std::string, size_t> D;
  std::function<void(Loop &, size_t)> Walk = [&](Loop &L, size_t K) {
    D[L.IV] = std::max(D[L.IV], K);
    for (Node &X : L.Body)
      if (X.isLoop())
        Walk(X.loop(), K + 1);
  };
  Walk(N.Root, 0);
  return D;
}

} // namespace

//===----------------------------------------------------------------------===//
// Dependence vectors
//===----------------------------------------------------------------------===//

void roofline::ensureDeps(KernelNest &K, const ParamValues &Values) {
  if (K.Deps)
    return;
  BandDeps B;
  DependenceGraph G = computeDependences(K.Nest, Values);
  for (const Dependence &D : G.Deps)
    for (const std::string &V : D.Vectors) {
      DepVector X;
      X.What = D.str();
      X.Array = D.Array;
      for (size_t I = 0; I < D.Loops.size() && I < V.size(); ++I)
        X.Dir[D.Loops[I]->IV] = V[I] == '<'   ? DirLT
                                : V[I] == '=' ? DirEQ
                                              : DirGT;
      B.Vectors.push_back(std::move(X));
    }
  K.Deps = std::move(B);
}

namespace {

/// Whether \p V can be lexicographically negative with its loops ordered by
/// \p Depth (only loops both ends share appear in V).
bool mayBeNegative(const DepVector &V,
                   const std::map<std::string, size_t> &Depth) {
  std::vector<std::pair<size_t, uint8_t>> Ordered;
  for (const auto &[IV, M] : V.Dir) {
    auto It = Depth.find(IV);
    Ordered.push_back({It == Depth.end() ? SIZE_MAX : It->second, M});
  }
  std::sort(Ordered.begin(), Ordered.end());
  for (const auto &[D, M] : Ordered) {
    if (M & DirGT)
      return true;
    if (!(M & DirEQ))
      return false; // strictly '<' here: positive whatever follows
  }
  return false;
}

/// Whether some vector may be carried by loop \p IV (first non-'=' there).
const DepVector *carriedBy(const BandDeps &B, const std::string &IV,
                           const std::map<std::string, size_t> &Depth) {
  for (const DepVector &V : B.Vectors) {
    auto Mine = V.Dir.find(IV);
    if (Mine == V.Dir.end() || !(Mine->second & (DirLT | DirGT)))
      continue;
    size_t My = Depth.count(IV) ? Depth.at(IV) : SIZE_MAX;
    bool OuterCanBeEqual = true;
    for (const auto &[Other, M] : V.Dir) {
      auto It = Depth.find(Other);
      if (Other == IV || It == Depth.end() || It->second >= My)
        continue;
      OuterCanBeEqual &= (M & DirEQ) != 0;
    }
    if (OuterCanBeEqual)
      return &V;
  }
  return nullptr;
}

void splitVectors(BandDeps &B, const std::string &IV, const std::string &Tile) {
  std::vector<DepVector> Out;
  for (const DepVector &V : B.Vectors) {
    auto It = V.Dir.find(IV);
    if (It == V.Dir.end()) {
      Out.push_back(V);
      continue;
    }
    uint8_t M = It->second;
    auto Emit = [&](uint8_t T, uint8_t P) {
      DepVector X = V;
      X.Dir[Tile] = T;
      X.Dir[IV] = P;
      Out.push_back(std::move(X));
    };
    if (M & DirLT) {
      Emit(DirLT, DirAny);
      Emit(DirEQ, DirLT);
    }
    if (M & DirEQ)
      Emit(DirEQ, DirEQ);
    if (M & DirGT) {
      Emit(DirGT, DirAny);
      Emit(DirEQ, DirGT);
    }
  }
  B.Vectors = std::move(Out);
}

} // namespace

//===----------------------------------------------------------------------===//
// Distribution
//===----------------------------------------------------------------------===//

namespace {

Loop headerOf(const Loop &L) {
  Loop H;
  H.IV = L.IV;
  H.First = L.First;
  H.Last = L.Last;
  H.Step = L.Step;
  H.Loc = L.Loc;
  H.IsGuard = L.IsGuard;
  H.Narrows = L.Narrows;
  H.ExitsEarly = L.ExitsEarly;
  return H;
}

/// Statements under \p N, by address.
void stmtsUnder(const Node &N, std::vector<const Stmt *> &Out) {
  forEachStmtIn(N, [&](const Stmt &S) { Out.push_back(&S); });
}

/// The group of every statement below Chain[From] when the nodes beside
/// the chain are distributed: before-nodes of level K are group K - From,
/// the chain is G = To - From, after-nodes of level K are G + 1 + (To-1-K).
std::map<const Stmt *, int64_t> distributionGroups(const std::vector<Loop *> &Chain,
                                                   size_t From, size_t To) {
  const int64_t G = static_cast<int64_t>(To - From);
  std::map<const Stmt *, int64_t> Group;
  for (size_t K = From; K < To; ++K) {
    bool After = false;
    for (const Node &N : Chain[K]->Body) {
      if (N.isLoop() && &N.loop() == Chain[K + 1]) {
        After = true;
        continue;
      }
      std::vector<const Stmt *> S;
      stmtsUnder(N, S);
      for (const Stmt *X : S)
        Group[X] = After ? G + 1 + static_cast<int64_t>(To - 1 - K)
                         : static_cast<int64_t>(K - From);
    }
  }
  std::vector<const Stmt *> S;
  for (const Node &N : Chain[To]->Body)
    stmtsUnder(N, S);
  for (const Stmt *X : S)
    Group[X] = G;
  return Group;
}

/// The distribution's legality (the precondition of distributeChain): no
/// dependence from a later group to an earlier one within one iteration of
/// the loops outside Chain[From], and no scalar shared by two groups.
llvm::Error checkDistribution(const KernelNest &KN,
                              const std::vector<Loop *> &Chain, size_t From,
                              size_t To,
                              const std::map<const Stmt *, int64_t> &Group,
                              const ParamValues &Values) {
  std::set<std::string> Outer;
  for (size_t K = 0; K < From; ++K)
    Outer.insert(Chain[K]->IV);
  DependenceGraph DG = computeDependences(KN.Nest, Values);
  for (const Dependence &D : DG.Deps) {
    auto S = Group.find(D.Source), T = Group.find(D.Sink);
    if (S == Group.end() || T == Group.end() || S->second <= T->second)
      continue;
    for (const std::string &V : D.Vectors) {
      bool SameOuter = true;
      for (size_t I = 0; I < D.Loops.size() && I < V.size(); ++I)
        if (Outer.count(D.Loops[I]->IV))
          SameOuter &= V[I] == '=';
      if (SameOuter)
        return transformError("distributing the statements beside loop '" +
                              Chain[To]->IV + "' would reverse the " + D.str());
    }
  }
  // Scalars must stay within one group.
  std::map<std::string, std::set<int64_t>> ScalarGroups;
  for (const auto &[S, Gr] : Group) {
    if (!S->Value)
      continue;
    if (S->Value->Target != StmtValue::ArrayTarget)
      ScalarGroups[S->Value->Scalar].insert(Gr);
    S->Value->Value.walk([&, Gr = Gr](const ValueExpr &E) {
      if (E.Kind == ValueExpr::Scalar)
        ScalarGroups[E.Name].insert(Gr);
    });
  }
  for (const auto &[Name, Gs] : ScalarGroups) {
    const ScalarVar *V = KN.Nest.Sem.findScalar(Name);
    if (Gs.size() > 1 && V && V->Kind != ScalarVar::Input)
      return transformError("scalar '" + Name +
                            "' would be split across distributed loops");
  }
  return llvm::Error::success();
}

/// Moves the nodes beside the chain out of Chain[From..To), each wrapped in
/// copies of the loop headers from Chain[From] down to its level: \p Before
/// in program order, \p After inner levels first.
void takeBesideNodes(const std::vector<Loop *> &Chain, size_t From, size_t To,
                     std::vector<Node> &Before, std::vector<Node> &After) {
  std::vector<std::vector<Node>> AfterByLevel(To - From);
  for (size_t K = From; K < To; ++K) {
    std::vector<Node> B, A;
    bool Past = false;
    for (Node &N : Chain[K]->Body) {
      if (N.isLoop() && &N.loop() == Chain[K + 1]) {
        Past = true;
        continue;
      }
      (Past ? A : B).push_back(std::move(N));
    }
    auto Wrap = [&](std::vector<Node> Body) {
      Loop Inner = headerOf(*Chain[K]);
      Inner.Body = std::move(Body);
      for (size_t J = K; J-- > From;) {
        Loop Outer = headerOf(*Chain[J]);
        Outer.Body.push_back(Node::loop(std::move(Inner)));
        Inner = std::move(Outer);
      }
      return Node::loop(std::move(Inner));
    };
    if (!B.empty())
      Before.push_back(Wrap(std::move(B)));
    if (!A.empty())
      AfterByLevel[K - From].push_back(Wrap(std::move(A)));
    // Leave only the chain child in this level's body.
    std::vector<Node> Keep;
    for (Node &N : Chain[K]->Body)
      if (N.isLoop() && &N.loop() == Chain[K + 1])
        Keep.push_back(std::move(N));
    Chain[K]->Body = std::move(Keep);
  }
  for (size_t K = To - From; K-- > 0;)
    for (Node &N : AfterByLevel[K])
      After.push_back(std::move(N));
}

/// Puts the distributed copies beside the chain in \p Parent's body, their
/// loops renamed so that every IV of the nest names one loop.
void spliceIntoParent(LoopNest &Nest, Loop *Parent, std::vector<Node> &Before,
                      std::vector<Node> &After) {
  std::set<std::string> Used = loopNames(Nest);
  auto Rename = [&](Node &N) {
    std::vector<std::string> IVs;
    forEachLoopIn(N.loop(), [&](const Loop &L) { IVs.push_back(L.IV); });
    for (const std::string &IV : IVs) {
      std::string New = IV + "_d";
      for (unsigned K = 2; Used.count(New); ++K)
        New = IV + "_d" + std::to_string(K);
      Used.insert(New);
      renameIV(N.loop(), IV, New);
    }
  };
  for (Node &N : Before)
    Rename(N);
  for (Node &N : After)
    Rename(N);
  std::vector<Node> Body;
  for (Node &N : Before)
    Body.push_back(std::move(N));
  for (Node &N : Parent->Body)
    Body.push_back(std::move(N));
  for (Node &N : After)
    Body.push_back(std::move(N));
  Parent->Body = std::move(Body);
}

/// Makes the distributed copies at the root nests of their own, before
/// and after nest \p NestIdx of \p P.
void spliceAsNests(Program &P, size_t NestIdx, std::vector<Node> &Before,
                   std::vector<Node> &After) {
  KernelNest &KN = P.Nests[NestIdx];
  auto MakeNest = [&](Node N) {
    KernelNest X;
    X.Nest = KN.Nest;
    X.Nest.Root = std::move(N.loop());
    pruneArrays(X.Nest);
    return X;
  };
  std::vector<KernelNest> Pre, Post;
  for (Node &N : Before)
    Pre.push_back(MakeNest(std::move(N)));
  for (Node &N : After)
    Post.push_back(MakeNest(std::move(N)));
  pruneArrays(KN.Nest);
  std::vector<KernelNest> All;
  for (size_t I = 0; I < P.Nests.size(); ++I) {
    if (I == NestIdx) {
      for (KernelNest &X : Pre)
        All.push_back(std::move(X));
      All.push_back(std::move(P.Nests[I]));
      for (KernelNest &X : Post)
        All.push_back(std::move(X));
    } else {
      All.push_back(std::move(P.Nests[I]));
    }
  }
  P.Nests = std::move(All);
}

} // namespace

/// Precondition: running the nodes beside the chain (statements or loops
/// next to Chain[K+1] in Chain[K]'s body, for K in [From, To)) in loops of
/// their own -- the nodes before the chain first, outer levels first; those
/// after it last, inner levels first -- reverses no dependence: none goes
/// from a later group to an earlier one within one iteration of the loops
/// outside Chain[From], and no scalar declared in one group is used in
/// another.
llvm::Error roofline::distributeChain(Program &P, size_t NestIdx,
                                      const std::string &FromIV,
                                      const std::string &ToIV,
                                      const ParamValues &Values) {
  KernelNest &KN = P.Nests[NestIdx];
  std::vector<Loop *> Path = pathTo(KN.Nest, FromIV);
  if (Path.empty())
    return transformError("no loop '" + FromIV + "'");
  size_t From = Path.size() - 1;
  std::vector<Loop *> Chain = Path;
  for (Loop *L : chainBelow(Path.back()))
    Chain.push_back(L);
  size_t To = depthOf(Chain, ToIV);
  if (To == SIZE_MAX || To < From)
    return transformError("loop '" + ToIV + "' is not below '" + FromIV +
                          "' on one chain");
  bool Needed = false;
  for (size_t K = From; K < To; ++K)
    Needed |= Chain[K]->Body.size() != 1;
  if (!Needed)
    return llvm::Error::success();

  if (llvm::Error E = checkDistribution(
          KN, Chain, From, To, distributionGroups(Chain, From, To), Values))
    return E;
  std::vector<Node> Before, After;
  takeBesideNodes(Chain, From, To, Before, After);
  KN.Deps.reset(); // recomputed on the distributed nest when next needed
  if (From > 0) {
    // The copies stay in this nest.
    spliceIntoParent(KN.Nest, Chain[From - 1], Before, After);
    return llvm::Error::success();
  }
  // At the root: the groups become nests of their own.
  spliceAsNests(P, NestIdx, Before, After);
  return llvm::Error::success();
}

//===----------------------------------------------------------------------===//
// Strip-mining and permutation
//===----------------------------------------------------------------------===//

/// Precondition: the loop counts up (step > 0) and its last bound is a
/// single term or a min (a max cannot nest inside the new min). Always
/// legal otherwise: the iteration order is unchanged.
llvm::Expected<std::string> roofline::stripMine(KernelNest &K,
                                                const std::string &IV,
                                                int64_t Size,
                                                const ParamValues &Values) {
  if (!K.Packed.empty())
    return transformError("pack must come after the loop transforms");
  std::vector<Loop *> Path;
  Loop *L = findLoop(K.Nest.Root, IV, &Path);
  if (!L)
    return transformError("no loop '" + IV + "'");
  if (L->Step <= 0)
    return transformError("loop '" + IV + "' counts down");
  if (L->Last.Kind == Bound::Max)
    return transformError("loop '" + IV + "' has a max upper bound");
  if (Size < 1)
    return transformError("size must be positive");
  ensureDeps(K, Values);
  std::set<std::string> Used = loopNames(K.Nest);
  std::string Tile = freshName(Used, IV);
  int64_t Span;
  if (__builtin_mul_overflow(Size - 1, L->Step, &Span))
    return transformError("tile size overflows");

  Loop Outer = headerOf(*L);
  Outer.IV = Tile;
  if (__builtin_mul_overflow(L->Step, Size, &Outer.Step))
    return transformError("tile size overflows");
  Loop Inner = std::move(*L);
  Inner.First = Bound::single(AffineExpr::var(Tile));
  Bound Last;
  Last.Kind = Bound::Min;
  std::optional<AffineExpr> Hi = AffineExpr::var(Tile).addConstant(Span);
  if (!Hi)
    return transformError("tile bound overflows");
  Last.Terms.push_back({*Hi, 1});
  for (const BoundTerm &T : Inner.Last.Terms)
    Last.Terms.push_back(T);
  Inner.Last = std::move(Last);
  Outer.Body.push_back(Node::loop(std::move(Inner)));
  *L = std::move(Outer);
  splitVectors(*K.Deps, IV, Tile);
  return Tile;
}

/// Precondition: \p Order names the loops of a contiguous piece of one
/// chain; a loop whose bounds use another loop's IV stays below it; the
/// nodes beside the piece can be distributed out (distributeChain); and no
/// dependence vector can become lexicographically negative in the new order.
llvm::Expected<std::string>
roofline::permuteLoops(Program &P, size_t NestIdx,
                       const std::vector<std::string> &Order,
                       const ParamValues &Values) {
  if (Order.empty())
    return std::string("nothing to permute");
  // The deepest named loop's path holds them all.
  std::vector<Loop *> Best;
  for (const std::string &IV : Order) {
    std::vector<Loop *> Path = pathTo(P.Nests[NestIdx].Nest, IV);
    if (Path.empty())
      return transformError("no loop '" + IV + "'");
    if (Path.size() > Best.size())
      Best = Path;
  }
  std::vector<Loop *> Chain = Best;
  for (Loop *L : chainBelow(Best.back()))
    Chain.push_back(L);
  std::vector<size_t> Pos;
  for (const std::string &IV : Order) {
    size_t D = depthOf(Chain, IV);
    if (D == SIZE_MAX)
      return transformError("loops " + joinNames(Order) +
                            " are not on one chain of the nest");
    Pos.push_back(D);
  }
  size_t Lo = *std::min_element(Pos.begin(), Pos.end());
  size_t Hi = *std::max_element(Pos.begin(), Pos.end());
  if (Hi - Lo + 1 != Order.size())
    return transformError("loops " + joinNames(Order) +
                          " are not contiguous (a loop between them is not "
                          "named)");
  std::vector<std::string> Current;
  for (size_t I = Lo; I <= Hi; ++I)
    Current.push_back(Chain[I]->IV);
  size_t First = 0;
  while (First < Order.size() && Order[First] == Current[First])
    ++First;
  if (First == Order.size())
    return std::string("the loop order is unchanged");

  // Bounds: a loop's bounds may only use IVs that stay outside it.
  std::map<std::string, size_t> NewPos;
  for (size_t I = 0; I < Order.size(); ++I)
    NewPos[Order[I]] = I;
  for (size_t I = Lo; I <= Hi; ++I)
    for (size_t J = Lo; J <= Hi; ++J) {
      const Loop *X = Chain[I], *Y = Chain[J];
      if (X == Y || !(X->First.uses(Y->IV) || X->Last.uses(Y->IV)))
        continue;
      if (NewPos[Y->IV] > NewPos[X->IV])
        return transformError("the bounds of loop '" + X->IV +
                              "' use loop '" + Y->IV +
                              "', which would move inside it");
    }

  KernelNest &KN0 = P.Nests[NestIdx];
  if (!KN0.Packed.empty())
    return transformError("pack must come after the loop transforms");
  ensureDeps(KN0, Values);
  BandDeps Saved = *KN0.Deps;
  // Distribution may move nests (and the loops in them): keep names only.
  const std::string LoIV = Chain[Lo]->IV, HiIV = Chain[Hi]->IV;
  if (llvm::Error E =
          distributeChain(P, NestIdx, Chain[Lo + First]->IV, HiIV, Values))
    return std::move(E);
  Chain.clear();
  size_t Idx = NestIdx;
  for (size_t I = 0; I < P.Nests.size(); ++I) {
    std::vector<Loop *> Path = pathTo(P.Nests[I].Nest, HiIV);
    if (!Path.empty() && depthOf(Path, LoIV) != SIZE_MAX &&
        (Path.size() == 1 || Path.back()->Body.size() >= 1))
      Idx = I;
  }
  KernelNest &KN = P.Nests[Idx];
  // The vectors of the main chain survive distribution (conservatively:
  // those between distributed groups are kept too).
  KN.Deps = Saved;

  // Rebuild the piece in the new order, then check the vectors.
  std::vector<Loop *> Path = pathTo(KN.Nest, HiIV);
  std::vector<Loop *> C2 = Path;
  for (Loop *L : chainBelow(Path.back()))
    C2.push_back(L);
  size_t Lo2 = depthOf(C2, LoIV);
  if (Lo2 == SIZE_MAX || Lo2 + Order.size() > C2.size())
    return transformError("loops " + joinNames(Order) +
                          " lost their chain after distribution");
  // Only the levels from the first changed one are rebuilt: the loops above
  // keep their bodies (which may hold distributed statements now).
  std::map<std::string, Loop> Headers;
  for (size_t I = Lo2 + First; I < Lo2 + Order.size(); ++I)
    Headers[C2[I]->IV] = headerOf(*C2[I]);
  std::vector<Node> Inner = std::move(C2[Lo2 + Order.size() - 1]->Body);
  Loop Built = Headers[Order.back()];
  Built.Body = std::move(Inner);
  for (size_t I = Order.size() - 1; I-- > First;) {
    Loop Outer = Headers[Order[I]];
    Outer.Body.push_back(Node::loop(std::move(Built)));
    Built = std::move(Outer);
  }
  *C2[Lo2 + First] = std::move(Built);

  std::map<std::string, size_t> Depth = depths(KN.Nest);
  for (const DepVector &V : KN.Deps->Vectors)
    if (mayBeNegative(V, Depth))
      return transformError("loop order " + joinNames(Order) +
                            " would reverse the " + V.What);
  return "no dependence is reversed by loop order " + joinNames(Order);
}

/// Precondition: every dependence vector leaves loop \p IV with '=' where
/// the loops outside it are '=' (no dependence is carried by it), so its
/// iterations may run in any order or at once; it must not be nested in
/// another parallel loop.
llvm::Expected<std::string> roofline::markParallel(KernelNest &K,
                                                   const std::string &IV,
                                                   bool Vector,
                                                   const ParamValues &Values) {
  std::vector<Loop *> Path;
  Loop *L = findLoop(K.Nest.Root, IV, &Path);
  if (!L)
    return transformError("no loop '" + IV + "'");
  if (Vector) {
    for (const Node &N : L->Body)
      if (N.isLoop())
        return transformError("loop '" + IV +
                              "' is not innermost: only innermost loops are "
                              "vectorized");
  } else {
    for (Loop *O : Path)
      if (O != L && K.Attrs[O->IV].Parallel)
        return transformError("loop '" + IV + "' is inside parallel loop '" +
                              O->IV + "'");
    bool Inner = false;
    forEachLoopIn(*L, [&](const Loop &X) {
      Inner |= &X != L && K.Attrs.count(X.IV) && K.Attrs.at(X.IV).Parallel;
    });
    if (Inner)
      return transformError("a loop inside '" + IV + "' is already parallel");
  }
  ensureDeps(K, Values);
  std::map<std::string, size_t> Depth = depths(K.Nest);
  // A buffer packed inside this loop is private to its iterations.
  BandDeps Kept;
  for (const DepVector &V : K.Deps->Vectors) {
    auto P = K.Packed.find(V.Array);
    bool Private = false;
    if (P != K.Packed.end())
      if (Loop *At = findLoop(*L, P->second))
        Private = At != nullptr;
    if (!Private)
      Kept.Vectors.push_back(V);
  }
  if (const DepVector *V = carriedBy(Kept, IV, Depth))
    return transformError("loop '" + IV + "' carries the " + V->What);
  (Vector ? K.Attrs[IV].Vector : K.Attrs[IV].Parallel) = true;
  return "no dependence is carried by loop '" + IV + "'";
}

//===----------------------------------------------------------------------===//
// Packing
//===----------------------------------------------------------------------===//

namespace {

/// A loop made by strip-mining: first = T, last = min(T + S - 1, ..); S is
/// the span of values it covers within one iteration of T.
bool tileOf(const Loop &L, std::string &Tile, int64_t &Size) {
  if (!L.First.isAffine() || L.Step < 1 || L.Last.Kind != Bound::Min)
    return false;
  const AffineExpr &F = L.First.affine();
  if (F.constant() != 0 || F.terms().size() != 1 ||
      F.terms().begin()->second != 1)
    return false;
  Tile = F.terms().begin()->first;
  const BoundTerm &T = L.Last.Terms.front();
  if (T.Divisor != 1 || T.Expr.coeff(Tile) != 1 || T.Expr.terms().size() != 1)
    return false;
  Size = T.Expr.constant() + 1;
  return Size >= 1;
}

/// The loop variable subscripting each dimension of \p ArrayName in \p N,
/// the same at every access; an error if it is written, subscripted by
/// anything but a bare loop variable, or not accessed.
llvm::Expected<std::vector<std::string>> packedDims(const LoopNest &N,
                                                    const std::string &ArrayName) {
  std::vector<std::string> DimIVs;
  bool Bad = false, Written = false;
  std::string Why;
  forEachLoopIn(N.Root, [&](const Loop &L) {
    for (const Node &X : L.Body) {
      if (X.isLoop())
        continue;
      for (const Access &Acc : X.S.Accesses) {
        if (Acc.ArrayName != ArrayName)
          continue;
        Written |= Acc.IsWrite;
        std::vector<std::string> D;
        for (const auto &S : Acc.Subscripts) {
          if (!S || S->constant() != 0 || S->terms().size() != 1 ||
              S->terms().begin()->second != 1) {
            Bad = true;
            Why = "subscript of '" + Acc.Text + "' is not a loop variable";
            continue;
          }
          D.push_back(S->terms().begin()->first);
        }
        if (DimIVs.empty())
          DimIVs = D;
        else if (DimIVs != D) {
          Bad = true;
          Why = "'" + ArrayName + "' is accessed at different subscripts";
        }
      }
    }
  });
  if (Written)
    return transformError("'" + ArrayName + "' is written in the nest");
  if (Bad)
    return transformError(Why);
  if (DimIVs.empty())
    return transformError("'" + ArrayName + "' is not accessed");
  return DimIVs;
}

/// The tile a packed buffer holds: per dimension the outermost tile loop,
/// its span and the copy's upper bound; At, the deepest of those tile
/// loops, is where the copy goes.
struct PackTile {
  std::vector<std::string> Tiles;
  std::vector<int64_t> Sizes;
  std::vector<Bound> Lasts;
  Loop *At = nullptr;
};

/// The tile of the point loops \p DimIVs; an error if one is not a tiled
/// point loop or lies above the loop where the copy would go.
llvm::Expected<PackTile> packTile(LoopNest &N,
                                  const std::vector<std::string> &DimIVs) {
  PackTile PT;
  std::vector<Loop *> Deepest;
  for (const std::string &IV : DimIVs) {
    std::vector<Loop *> Path;
    Loop *L = findLoop(N.Root, IV, &Path);
    std::string T;
    int64_t S;
    if (!L || !tileOf(*L, T, S))
      return transformError("loop '" + IV + "' is not a tiled point loop "
                                            "(tile first)");
    // The outermost tiling level: a register block inside a cache block
    // packs the cache block.
    Bound Last = L->Last;
    for (Loop *X = findLoop(N.Root, T); X;) {
      std::string T2;
      int64_t S2;
      if (!tileOf(*X, T2, S2))
        break;
      T = T2;
      S = S2;
      Last = X->Last;
      X = findLoop(N.Root, T);
    }
    // The copy's upper bound: the min of the outermost tile's span and the
    // loop's own limits (the terms that do not name an inner tile loop).
    Bound CopyLast;
    CopyLast.Kind = Bound::Min;
    for (const BoundTerm &BT : Last.Terms)
      CopyLast.Terms.push_back(BT);
    PT.Tiles.push_back(T);
    PT.Sizes.push_back(S);
    PT.Lasts.push_back(CopyLast);
    for (size_t I = 0; I < Path.size(); ++I)
      if (Path[I]->IV == T && (Deepest.empty() || I + 1 > Deepest.size()))
        Deepest.assign(Path.begin(), Path.begin() + I + 1);
  }
  PT.At = Deepest.back();
  // The point loops must all be below the copy.
  for (const std::string &IV : DimIVs) {
    std::vector<Loop *> Path;
    findLoop(*PT.At, IV, &Path);
    if (Path.empty())
      return transformError("point loop '" + IV + "' is above the tile loop '" +
                            PT.At->IV + "' where the copy would go");
  }
  return PT;
}

/// Declares the local buffer that holds \p Src's tile of \p Sizes in \p N
/// and returns its name (<array>p when free); \p Used gets the nest's
/// names, for the copy loops' own.
std::string addPackBuffer(LoopNest &N, const Array &Src,
                          const std::vector<int64_t> &Sizes,
                          std::set<std::string> &Used) {
  const std::string &ArrayName = Src.Name;
  Used = loopNames(N);
  std::string Buf = freshName(Used, ArrayName + "p");
  Buf = ArrayName + "p"; // readable name when free
  if (N.findArray(Buf) || N.Sem.findScalar(Buf)) {
    Used = loopNames(N);
    Buf = freshName(Used, ArrayName + "p");
  }
  Array P;
  P.Name = Buf;
  P.Elem = Src.Elem;
  for (int64_t S : Sizes)
    P.Extents.push_back(AffineExpr(S));
  P.Loc = Src.Loc;
  N.Arrays.push_back(P);
  N.Sem.ArrayCTypes[Buf] = N.Sem.ArrayCTypes.count(ArrayName)
                               ? N.Sem.ArrayCTypes[ArrayName]
                               : std::string("float");
  N.Sem.LocalArrays.insert(Buf);
  return Buf;
}

/// \p IV's offset within its tile \p Tile: the packed buffer's subscript.
AffineExpr offsetInTile(const std::string &IV, const std::string &Tile) {
  return *AffineExpr::var(IV).sub(AffineExpr::var(Tile));
}

/// Turns the reads of \p ArrayName below the copy into reads of \p Buf.
void readFromBuffer(const PackTile &PT, const std::string &ArrayName,
                    const std::string &Buf,
                    const std::vector<std::string> &DimIVs) {
  forEachLoopIn(*PT.At, [&](Loop &L) {
    for (Node &X : L.Body) {
      if (X.isLoop())
        continue;
      for (Access &Acc : X.S.Accesses) {
        if (Acc.ArrayName != ArrayName)
          continue;
        Acc.ArrayName = Buf;
        for (size_t D = 0; D < Acc.Subscripts.size(); ++D)
          Acc.Subscripts[D] = offsetInTile(DimIVs[D], PT.Tiles[D]);
        Acc.Text = Buf;
        for (const auto &S : Acc.Subscripts)
          Acc.Text += "[" + S->str() + "]";
      }
    }
  });
}

/// The copy of \p Src's tile into \p Buf: loops over the tile in the
/// array's dimension order, named fresh from \p Used.
Node packCopy(const Array &Src, const std::string &Buf, const PackTile &PT,
              const std::vector<std::string> &DimIVs,
              std::set<std::string> &Used) {
  Stmt Copy;
  Copy.Loc = Src.Loc;
  std::vector<std::string> CopyIVs;
  for (const std::string &IV : DimIVs)
    CopyIVs.push_back(freshName(Used, IV + "p"));
  Access W, R;
  W.ArrayName = Buf;
  W.IsWrite = true;
  R.ArrayName = Src.Name;
  R.IsRead = true;
  W.Text = Buf;
  R.Text = Src.Name;
  for (size_t D = 0; D < DimIVs.size(); ++D) {
    W.Subscripts.push_back(offsetInTile(CopyIVs[D], PT.Tiles[D]));
    R.Subscripts.push_back(AffineExpr::var(CopyIVs[D]));
    W.Text += "[" + W.Subscripts.back()->str() + "]";
    R.Text += "[" + CopyIVs[D] + "]";
  }
  Copy.Accesses = {W, R};
  StmtValue V;
  V.Target = StmtValue::ArrayTarget;
  V.TargetAccess = 0;
  V.Op = "=";
  V.Value = ValueExpr::load(1);
  Copy.Value = V;
  Node Body = Node::stmt(std::move(Copy));
  for (size_t D = DimIVs.size(); D-- > 0;) {
    Loop L;
    L.IV = CopyIVs[D];
    L.First = Bound::single(AffineExpr::var(PT.Tiles[D]));
    L.Last = PT.Lasts[D];
    L.Step = 1;
    L.Loc = Src.Loc;
    L.Body.push_back(std::move(Body));
    Body = Node::loop(std::move(L));
  }
  return Body;
}

} // namespace

/// Precondition: \p ArrayName is only read in the nest, every access to it
/// subscripts each dimension by a point loop of a tiled loop (the copy
/// covers exactly that tile), and those point loops all lie below the
/// deepest of their tile loops, where the copy goes. Legal then: the buffer
/// holds the values the reads would have seen.
llvm::Expected<std::string> roofline::packArray(KernelNest &K,
                                                const std::string &ArrayName) {
  LoopNest &N = K.Nest;
  if (!N.findArray(ArrayName))
    return transformError("no array '" + ArrayName + "'");
  // A copy: adding the buffer below reallocates N.Arrays.
  const Array Src = *N.findArray(ArrayName);
  llvm::Expected<std::vector<std::string>> DimIVs = packedDims(N, ArrayName);
  if (!DimIVs)
    return DimIVs.takeError();
  llvm::Expected<PackTile> PT = packTile(N, *DimIVs);
  if (!PT)
    return PT.takeError();
  std::set<std::string> Used;
  std::string Buf = addPackBuffer(N, Src, PT->Sizes, Used);
  readFromBuffer(*PT, ArrayName, Buf, *DimIVs);
  Loop *At = PT->At;
  std::string AtIV = At->IV;
  At->Body.insert(At->Body.begin(), packCopy(Src, Buf, *PT, *DimIVs, Used));
  // The tracked vectors stay valid (the old statements keep their order);
  // the copy's own dependences are loop-independent within At or carried by
  // loops outside it, and later loop transforms are refused.
  K.Packed[Buf] = AtIV;
  return "'" + ArrayName + "' is only read; its " + std::to_string(PT->Sizes.size()) +
         "-d tile is copied at loop '" + At->IV + "'";
}
