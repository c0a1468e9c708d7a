//===- Dependence.cpp - Data dependences and transform legality -----------===//

#include "roofline/Analysis/Dependence.h"
#include "roofline/IR/Rational.h"

#include "IterationSpace.h"

#include "llvm/ADT/StringExtras.h"

#include <algorithm>
#include <cassert>
#include <cmath>
#include <cstdlib>
#include <functional>
#include <numeric>

using namespace roofline;
using namespace roofline::detail;

namespace {

constexpr double Inf = std::numeric_limits<double>::infinity();

//===----------------------------------------------------------------------===//
// Subscript equations
//===----------------------------------------------------------------------===//

/// A loop level as a normalized counter t: IV = Offset + Mult * t, so that a
/// larger t is always a later iteration (Mult < 0 for a loop counting down).
struct Level {
  int64_t Offset = 0;
  int64_t Mult = 1;
  double Lo = -Inf, Hi = Inf; ///< range of t
};

Level levelOf(const Loop &L, const Interval &Range,
              const std::map<std::string, int64_t> &Values) {
  Level V;
  Interval F = rangeOf(L.First, {}, Values);
  if (F.finite() && F.Lo == F.Hi && std::abs(F.Lo) < 1e15) {
    V.Offset = static_cast<int64_t>(F.Lo);
    V.Mult = L.Step;
    V.Lo = 0;
    V.Hi = L.Step > 0 ? std::floor((Range.Hi - F.Lo) / L.Step)
                      : std::floor((F.Lo - Range.Lo) / -L.Step);
    return V;
  }
  // First depends on an outer loop: keep the IV itself (sign-flipped when
  // counting down); the step's divisibility is not used.
  V.Mult = L.Step > 0 ? 1 : -1;
  V.Lo = V.Mult > 0 ? Range.Lo : -Range.Hi;
  V.Hi = V.Mult > 0 ? Range.Hi : -Range.Lo;
  return V;
}

/// One subscript position of a pair of accesses:
///   sum_k A[k] * t_k - sum_k B[k] * u_k = Rhs
/// over the normalized counters t (source side) and u (sink side).
struct DimEq {
  bool Usable = false;
  std::vector<int64_t> A, B;
  int64_t Rhs = 0;
};

/// Side of a pair: an access and its enclosing loops.
struct Side {
  const Access *Acc = nullptr;
  const std::vector<const Loop *> *Loops = nullptr;
  const std::vector<Level> *Levels = nullptr;
};

/// Coefficients per level of \p S's subscript \p E (params folded in).
/// Unknown-size terms are returned in \p Unknown by name.
bool linearize(const AffineExpr &E, const Side &S,
               const std::map<std::string, int64_t> &Values,
               std::vector<int64_t> &Coef, int64_t &Const,
               std::map<std::string, int64_t> &Unknown) {
  Coef.assign(S.Loops->size(), 0);
  Const = E.constant();
  for (const auto &[Name, C] : E.terms()) {
    bool Found = false;
    for (size_t K = 0; K < S.Loops->size(); ++K) {
      if ((*S.Loops)[K]->IV != Name)
        continue;
      const Level &L = (*S.Levels)[K];
      int64_t Scaled, Off;
      if (__builtin_mul_overflow(C, L.Mult, &Scaled) ||
          __builtin_mul_overflow(C, L.Offset, &Off) ||
          __builtin_add_overflow(Const, Off, &Const))
        return false;
      Coef[K] += Scaled;
      Found = true;
      break;
    }
    if (Found)
      continue;
    if (auto It = Values.find(Name); It != Values.end()) {
      int64_t T;
      if (__builtin_mul_overflow(C, It->second, &T) ||
          __builtin_add_overflow(Const, T, &Const))
        return false;
      continue;
    }
    Unknown[Name] += C;
  }
  return true;
}

std::vector<DimEq> equations(const Side &Src, const Side &Dst,
                             const std::map<std::string, int64_t> &Values) {
  std::vector<DimEq> Out;
  size_t Dims = std::min(Src.Acc->Subscripts.size(), Dst.Acc->Subscripts.size());
  for (size_t D = 0; D < Dims; ++D) {
    DimEq Eq;
    const auto &FA = Src.Acc->Subscripts[D];
    const auto &FB = Dst.Acc->Subscripts[D];
    if (FA && FB) {
      std::map<std::string, int64_t> UA, UB;
      int64_t CA, CB;
      if (linearize(*FA, Src, Values, Eq.A, CA, UA) &&
          linearize(*FB, Dst, Values, Eq.B, CB, UB) &&
          !__builtin_sub_overflow(CB, CA, &Eq.Rhs)) {
        // A size without a value constrains nothing unless it cancels.
        bool Cancels = true;
        for (auto &[N, C] : UB)
          UA[N] -= C;
        for (auto &[N, C] : UA)
          Cancels &= C == 0;
        Eq.Usable = Cancels;
      }
    }
    Out.push_back(std::move(Eq));
  }
  return Out;
}

//===----------------------------------------------------------------------===//
// GCD and Banerjee tests
//===----------------------------------------------------------------------===//

struct Range {
  double Lo = 0, Hi = 0;
  void add(double L, double H) {
    Lo += L;
    Hi += H;
  }
};

/// [min, max] of K * t for t in [Lo, Hi] (0 * inf counts as 0).
std::pair<double, double> linRange(double K, double Lo, double Hi) {
  if (K == 0)
    return {0, 0};
  double X = K * Lo, Y = K * Hi;
  return {std::min(X, Y), std::max(X, Y)};
}

/// [min, max] of A*t - B*u over one common level under direction \p D, or
/// nullopt when the direction is impossible (a single iteration).
std::optional<std::pair<double, double>> termRange(int64_t A, int64_t B,
                                                   char D, const Level &L) {
  double Lo = L.Lo, Hi = L.Hi;
  if (D == '=') {
    return linRange(static_cast<double>(A - B), Lo, Hi);
  }
  if (D == '*') {
    auto X = linRange(static_cast<double>(A), Lo, Hi);
    auto Y = linRange(static_cast<double>(-B), Lo, Hi);
    return std::make_pair(X.first + Y.first, X.second + Y.second);
  }
  if (Hi - Lo < 1)
    return std::nullopt;
  auto F = [&](double T, double U) {
    return static_cast<double>(A) * T - static_cast<double>(B) * U;
  };
  if (std::isfinite(Lo) && std::isfinite(Hi)) {
    // The extremes of a linear function over the triangle are at its
    // vertices: u >= t + 1 ('<') or t >= u + 1 ('>') inside [Lo, Hi]^2.
    double V[3];
    if (D == '<') {
      V[0] = F(Lo, Lo + 1), V[1] = F(Lo, Hi), V[2] = F(Hi - 1, Hi);
    } else {
      V[0] = F(Lo + 1, Lo), V[1] = F(Hi, Lo), V[2] = F(Hi, Hi - 1);
    }
    return std::make_pair(*std::min_element(V, V + 3),
                          *std::max_element(V, V + 3));
  }
  // Unbounded: the box around the triangle (conservative).
  auto X = linRange(static_cast<double>(A), D == '<' ? Lo : Lo + 1,
                    D == '<' ? Hi - 1 : Hi);
  auto Y = linRange(static_cast<double>(-B), D == '<' ? Lo + 1 : Lo,
                    D == '<' ? Hi : Hi - 1);
  return std::make_pair(X.first + Y.first, X.second + Y.second);
}

int64_t gcd64(int64_t A, int64_t B) {
  return std::gcd(A < 0 ? -A : A, B < 0 ? -B : B);
}

/// Whether the equations can hold with the directions \p Psi ('<', '=',
/// '>' or '*' per common level).
bool feasible(const std::vector<DimEq> &Eqs, const std::string &Psi,
              const std::vector<Level> &SrcL, const std::vector<Level> &DstL) {
  size_t Common = Psi.size();
  for (size_t K = 0; K < Common; ++K)
    if (Psi[K] != '=' && Psi[K] != '*' && SrcL[K].Hi - SrcL[K].Lo < 1)
      return false; // a loop with one iteration only has '='
  for (const DimEq &Eq : Eqs) {
    if (!Eq.Usable)
      continue;
    Range R;
    int64_t G = 0;
    for (size_t K = 0; K < Common; ++K) {
      int64_t A = Eq.A[K], B = Eq.B[K];
      auto T = termRange(A, B, Psi[K], SrcL[K]);
      if (!T)
        return false;
      R.add(T->first, T->second);
      switch (Psi[K]) {
      case '=':
        G = gcd64(G, A - B);
        break;
      case '<':
        G = gcd64(gcd64(G, A - B), B);
        break;
      case '>':
        G = gcd64(gcd64(G, A - B), A);
        break;
      default:
        G = gcd64(gcd64(G, A), B);
      }
    }
    for (size_t K = Common; K < Eq.A.size(); ++K) {
      auto T = linRange(static_cast<double>(Eq.A[K]), SrcL[K].Lo, SrcL[K].Hi);
      R.add(T.first, T.second);
      G = gcd64(G, Eq.A[K]);
    }
    for (size_t K = Common; K < Eq.B.size(); ++K) {
      auto T = linRange(static_cast<double>(-Eq.B[K]), DstL[K].Lo, DstL[K].Hi);
      R.add(T.first, T.second);
      G = gcd64(G, Eq.B[K]);
    }
    double Rhs = static_cast<double>(Eq.Rhs);
    if (Rhs < R.Lo || Rhs > R.Hi)
      return false;
    if (G == 0 ? Eq.Rhs != 0 : Eq.Rhs % G != 0)
      return false;
  }
  return true;
}

/// Exact distances (sink - source per common level) when every usable
/// subscript has equal coefficients on both sides and none on the other
/// loops. Returns false when not uniform; sets \p None when no integer
/// distance exists at all.
bool uniformDistance(const std::vector<DimEq> &Eqs, size_t Common,
                     std::vector<std::optional<int64_t>> &Dist, bool &None) {
  None = false;
  std::vector<std::vector<Rational>> Rows;
  std::vector<bool> Used(Common, false);
  for (const DimEq &Eq : Eqs) {
    if (!Eq.Usable)
      return false;
    for (size_t K = Common; K < Eq.A.size(); ++K)
      if (Eq.A[K])
        return false;
    for (size_t K = Common; K < Eq.B.size(); ++K)
      if (Eq.B[K])
        return false;
    std::vector<Rational> Row;
    for (size_t K = 0; K < Common; ++K) {
      if (Eq.A[K] != Eq.B[K])
        return false;
      Row.push_back(Rational(Eq.A[K]));
      Used[K] = Used[K] || Eq.A[K] != 0;
    }
    // sum A (t - u) = Rhs, i.e. sum A d = -Rhs with d = u - t.
    Row.push_back(Rational(-Eq.Rhs));
    Rows.push_back(std::move(Row));
  }
  // Gauss-Jordan over the rationals on the used columns.
  std::vector<int> PivotOf(Common, -1);
  size_t R = 0;
  for (size_t C = 0; C < Common && R < Rows.size(); ++C) {
    if (!Used[C])
      continue;
    size_t P = R;
    while (P < Rows.size() && Rows[P][C].isZero())
      ++P;
    if (P == Rows.size())
      continue;
    std::swap(Rows[P], Rows[R]);
    Rational Piv = Rows[R][C];
    for (Rational &X : Rows[R]) {
      std::optional<Rational> Q = X.div(Piv);
      if (!Q)
        return false;
      X = *Q;
    }
    for (size_t O = 0; O < Rows.size(); ++O) {
      if (O == R || Rows[O][C].isZero())
        continue;
      Rational F = Rows[O][C];
      for (size_t X = 0; X <= Common; ++X) {
        std::optional<Rational> M = F.mul(Rows[R][X]);
        std::optional<Rational> S = M ? Rows[O][X].sub(*M) : std::nullopt;
        if (!S)
          return false;
        Rows[O][X] = *S;
      }
    }
    PivotOf[C] = static_cast<int>(R);
    ++R;
  }
  for (size_t O = R; O < Rows.size(); ++O)
    if (!Rows[O][Common].isZero()) {
      None = true; // inconsistent: no dependence
      return true;
    }
  Dist.assign(Common, std::nullopt);
  for (size_t C = 0; C < Common; ++C) {
    if (!Used[C])
      continue;
    if (PivotOf[C] < 0)
      return false; // under-determined
    const std::vector<Rational> &Row = Rows[PivotOf[C]];
    for (size_t X = 0; X < Common; ++X)
      if (X != C && Used[X] && !Row[X].isZero())
        return false;
    const Rational &V = Row[Common];
    if (!V.isInteger()) {
      None = true;
      return true;
    }
    Dist[C] = static_cast<int64_t>(V.num());
  }
  return true;
}

char flip(char D) { return D == '<' ? '>' : (D == '>' ? '<' : D); }

//===----------------------------------------------------------------------===//
// Pair testing
//===----------------------------------------------------------------------===//

struct SiteInfo {
  const StmtRef *Ref = nullptr;
  std::vector<Level> Levels;
  size_t Order = 0; ///< program order of the statement
};

unsigned kindsOf(const Access &Src, const Access &Dst) {
  unsigned K = 0;
  if (Src.IsWrite && Dst.IsRead)
    K |= DepFlow;
  if (Src.IsRead && Dst.IsWrite)
    K |= DepAnti;
  if (Src.IsWrite && Dst.IsWrite)
    K |= DepOutput;
  return K;
}

/// Tests access \p X of \p SA against \p Y of \p SB over their first
/// \p Common loops (which correspond level by level) and appends the
/// dependences found. \p SA runs before \p SB when all directions are '='.
void testPair(const SiteInfo &SA, const Access &X, const SiteInfo &SB,
              const Access &Y, size_t Common,
              const std::vector<const Loop *> &CommonLoops,
              const std::map<std::string, int64_t> &Values,
              std::vector<Dependence> &Out) {
  Side Src{&X, &SA.Ref->Loops, &SA.Levels};
  Side Dst{&Y, &SB.Ref->Loops, &SB.Levels};
  std::vector<DimEq> Eqs = equations(Src, Dst, Values);

  std::vector<std::optional<int64_t>> Dist;
  bool None = false;
  bool Uniform = uniformDistance(Eqs, Common, Dist, None);
  if (Uniform && None)
    return;

  // Direction vectors, refined loop by loop.
  std::vector<std::string> Found;
  std::string Psi(Common, '*');
  std::function<void(size_t)> Refine = [&](size_t K) {
    if (!feasible(Eqs, Psi, SA.Levels, SB.Levels))
      return;
    if (K == Common) {
      Found.push_back(Psi);
      return;
    }
    for (char D : {'<', '=', '>'}) {
      if (Uniform && Dist[K]) {
        char Want = *Dist[K] > 0 ? '<' : (*Dist[K] < 0 ? '>' : '=');
        if (D != Want)
          continue;
      }
      Psi[K] = D;
      Refine(K + 1);
    }
    Psi[K] = '*';
  };
  Refine(0);

  bool SameInstance = SA.Ref == SB.Ref;
  Dependence Fwd, Bwd;
  for (const std::string &V : Found) {
    size_t First = V.find_first_not_of('=');
    if (First == std::string::npos) {
      if (SameInstance)
        continue; // the same execution of one statement
      Fwd.Vectors.push_back(V);
    } else if (V[First] == '<') {
      Fwd.Vectors.push_back(V);
    } else {
      std::string R = V;
      for (char &C : R)
        C = flip(C);
      Bwd.Vectors.push_back(R);
    }
  }
  auto Emit = [&](Dependence &D, const SiteInfo &S, const Access &SAcc,
                  const SiteInfo &T, const Access &TAcc, int Sign) {
    if (D.Vectors.empty())
      return;
    D.Kinds = kindsOf(SAcc, TAcc);
    if (!D.Kinds)
      return;
    D.Array = X.ArrayName;
    D.Source = S.Ref->S;
    D.Sink = T.Ref->S;
    D.SourceAccess = &SAcc;
    D.SinkAccess = &TAcc;
    D.Loops = CommonLoops;
    D.Uniform = Uniform;
    if (Uniform)
      for (const std::optional<int64_t> &K : Dist)
        D.Distance.push_back(K ? std::optional<int64_t>(Sign * *K)
                               : std::nullopt);
    else
      D.Distance.assign(Common, std::nullopt);
    Out.push_back(std::move(D));
  };
  Emit(Fwd, SA, X, SB, Y, 1);
  if (&X != &Y) // an access against itself: both orientations are one set
    Emit(Bwd, SB, Y, SA, X, -1);
}

bool writesArray(const Stmt &S) {
  for (const Access &A : S.Accesses)
    if (A.IsWrite)
      return true;
  return false;
}

/// Whether \p S updates a scalar. With the statement's value known, only an
/// assignment to an existing scalar does (a declaration starts a fresh
/// one); without it, any statement that writes no array is assumed to.
bool isScalarStmt(const Stmt &S) {
  if (S.Value)
    return S.Value->Target == StmtValue::ScalarTarget;
  return !writesArray(S) && (!S.Accesses.empty() || !S.Ops.empty());
}

/// The scalar \p S updates, when the IR names it.
std::string scalarName(const Stmt &S) {
  return S.Value && S.Value->Target == StmtValue::ScalarTarget ? S.Value->Scalar
                                                               : "";
}

/// Whether \p S reads scalar \p Name (every statement might, unnamed).
bool touchesScalar(const Stmt &S, const std::string &Name) {
  if (Name.empty() || !S.Value)
    return true;
  if (S.Value->Target != StmtValue::ArrayTarget && S.Value->Scalar == Name)
    return true;
  bool Reads = false;
  S.Value->Value.walk([&](const ValueExpr &E) {
    Reads |= E.Kind == ValueExpr::Scalar && E.Name == Name;
  });
  return Reads;
}

} // namespace

unsigned roofline::scalarScopeDepth(const LoopNest &N, const Stmt &S) {
  std::string Name = scalarName(S);
  if (Name.empty())
    return 0;
  for (const StmtRef &R : collectStmts(N.Root))
    if (R.S->Value && R.S->Value->Target == StmtValue::ScalarDecl &&
        R.S->Value->Scalar == Name)
      return static_cast<unsigned>(R.Loops.size());
  return 0;
}

namespace {

/// Every lexicographically positive vector over \p N loops.
std::vector<std::string> allPositive(size_t N) {
  std::vector<std::string> Out;
  std::string V(N, '=');
  std::function<void(size_t, bool)> Gen = [&](size_t K, bool Pos) {
    if (K == N) {
      if (Pos)
        Out.push_back(V);
      return;
    }
    for (char D : {'<', '=', '>'}) {
      if (!Pos && D == '>')
        continue;
      V[K] = D;
      Gen(K + 1, Pos || D == '<');
    }
  };
  Gen(0, false);
  return Out;
}

size_t commonPrefix(const std::vector<const Loop *> &A,
                    const std::vector<const Loop *> &B) {
  size_t K = 0;
  while (K < A.size() && K < B.size() && A[K] == B[K])
    ++K;
  return K;
}

std::vector<SiteInfo>
siteInfos(const std::vector<StmtRef> &Refs, const Loop &Root,
          const std::map<std::string, int64_t> &Values) {
  std::map<const Loop *, Interval> Ranges = loopRanges(Root, Values);
  std::vector<SiteInfo> Sites;
  for (size_t I = 0; I < Refs.size(); ++I) {
    SiteInfo S;
    S.Ref = &Refs[I];
    S.Order = I;
    for (const Loop *L : Refs[I].Loops)
      S.Levels.push_back(levelOf(*L, Ranges[L], Values));
    Sites.push_back(std::move(S));
  }
  return Sites;
}

/// Vectors over \p C loops that are '=' on the first \p Private ones (the
/// scalar is declared inside them: each iteration has its own) and
/// lexicographically positive; plus all '=' when \p Independent.
std::vector<std::string> scalarVectors(size_t C, size_t Private,
                                       bool Independent) {
  std::vector<std::string> Out;
  size_t P = std::min(C, Private);
  for (std::string V : allPositive(C - P))
    Out.push_back(std::string(P, '=') + V);
  if (Independent)
    Out.push_back(std::string(C, '='));
  return Out;
}

void scalarDeps(const LoopNest &N, const std::vector<SiteInfo> &Sites,
                std::vector<Dependence> &Out, std::vector<std::string> &Notes) {
  for (const SiteInfo &S : Sites) {
    const Stmt &St = *S.Ref->S;
    if (!isScalarStmt(St))
      continue;
    std::string Name = scalarName(St);
    unsigned Scope = scalarScopeDepth(N, St);
    if (Name.empty())
      Notes.push_back("the statement at line " + std::to_string(St.Loc.Line) +
                      " writes no array: it is assumed to update a scalar "
                      "carried across every loop around it");
    for (const SiteInfo &T : Sites) {
      if (&T != &S && !touchesScalar(*T.Ref->S, Name))
        continue;
      size_t C = commonPrefix(S.Ref->Loops, T.Ref->Loops);
      std::vector<const Loop *> Loops(S.Ref->Loops.begin(),
                                      S.Ref->Loops.begin() + C);
      auto Make = [&](const SiteInfo &From, const SiteInfo &To) {
        Dependence D;
        D.Array = "";
        D.Scalar = Name;
        D.Source = From.Ref->S;
        D.Sink = To.Ref->S;
        D.Kinds = DepFlow | DepAnti | DepOutput;
        D.Loops = Loops;
        D.Vectors = scalarVectors(C, Scope, From.Order < To.Order);
        D.Distance.assign(C, std::nullopt);
        if (!D.Vectors.empty())
          Out.push_back(std::move(D));
      };
      if (&T == &S) {
        Make(S, S);
        continue;
      }
      Make(S, T);
      if (!isScalarStmt(*T.Ref->S))
        Make(T, S); // a pair of updates is covered from both ends
    }
  }
}

std::string accessName(const Access *A) {
  return A ? "'" + A->Text + "'" : std::string("a scalar");
}

} // namespace

//===----------------------------------------------------------------------===//
// Dependence
//===----------------------------------------------------------------------===//

bool Dependence::isLoopIndependent() const {
  return Vectors.size() == 1 &&
         Vectors.front().find_first_not_of('=') == std::string::npos;
}

std::string Dependence::directions() const {
  std::string S = "(";
  for (size_t K = 0; K < Loops.size(); ++K) {
    bool Lt = false, Eq = false, Gt = false;
    for (const std::string &V : Vectors) {
      Lt |= V[K] == '<';
      Eq |= V[K] == '=';
      Gt |= V[K] == '>';
    }
    if (K)
      S += ", ";
    if (Lt && Eq && Gt)
      S += "*";
    else if (Lt && Eq)
      S += "<=";
    else if (Gt && Eq)
      S += ">=";
    else if (Lt && Gt)
      S += "<>";
    else
      S += Lt ? "<" : (Gt ? ">" : "=");
  }
  return S + ")";
}

std::string Dependence::distanceStr() const {
  if (!Uniform)
    return "";
  std::string S = "(";
  for (size_t K = 0; K < Distance.size(); ++K) {
    if (K)
      S += ", ";
    S += Distance[K] ? std::to_string(*Distance[K]) : std::string("*");
  }
  return S + ")";
}

std::string Dependence::str() const {
  std::string Kind = (Kinds & DepFlow)     ? "flow"
                     : (Kinds & DepAnti)   ? "anti"
                                           : "output";
  std::string S = Kind + " dependence on " +
                  (!Array.empty()   ? "'" + Array + "'"
                   : Scalar.empty() ? std::string("a scalar")
                                    : "the scalar '" + Scalar + "'");
  if (SourceAccess && SinkAccess)
    S += " from " + accessName(SourceAccess) + " to " + accessName(SinkAccess);
  else if (Source && Sink)
    S += " from line " + std::to_string(Source->Loc.Line) + " to line " +
         std::to_string(Sink->Loc.Line);
  if (!Loops.empty()) {
    S += ", direction " + directions();
    std::string D = distanceStr();
    if (!D.empty())
      S += ", distance " + D;
    S += " over loops " + joinIVs(Loops);
  }
  return S;
}

DependenceGraph roofline::computeDependences(const LoopNest &N,
                                             const ParamValues &Overrides) {
  DependenceGraph G;
  std::map<std::string, int64_t> Values = paramValues(N, Overrides);
  std::vector<StmtRef> Refs = collectStmts(N.Root);
  std::vector<SiteInfo> Sites = siteInfos(Refs, N.Root, Values);
  bool Unusable = false;
  for (size_t I = 0; I < Sites.size(); ++I)
    for (size_t J = I; J < Sites.size(); ++J) {
      const Stmt &SA = *Sites[I].Ref->S, &SB = *Sites[J].Ref->S;
      size_t Common = commonPrefix(Sites[I].Ref->Loops, Sites[J].Ref->Loops);
      std::vector<const Loop *> Loops(Sites[I].Ref->Loops.begin(),
                                      Sites[I].Ref->Loops.begin() + Common);
      for (size_t X = 0; X < SA.Accesses.size(); ++X)
        for (size_t Y = (I == J ? X : 0); Y < SB.Accesses.size(); ++Y) {
          const Access &AX = SA.Accesses[X], &AY = SB.Accesses[Y];
          if (AX.ArrayName != AY.ArrayName || !(AX.IsWrite || AY.IsWrite))
            continue;
          for (const auto &S : AX.Subscripts)
            Unusable |= !S;
          testPair(Sites[I], AX, Sites[J], AY, Common, Loops, Values, G.Deps);
        }
    }
  scalarDeps(N, Sites, G.Deps, G.Notes);
  if (Unusable)
    G.Notes.push_back("a subscript that is not affine constrains nothing: "
                      "its dependences are assumed in every direction");
  return G;
}

//===----------------------------------------------------------------------===//
// Legality
//===----------------------------------------------------------------------===//

std::vector<const Loop *> roofline::permutableBand(const LoopNest &N) {
  std::vector<const Loop *> Band{&N.Root};
  while (true) {
    const Loop *Only = nullptr;
    unsigned Loops = 0;
    for (const Node &X : Band.back()->Body)
      if (X.isLoop()) {
        Only = &X.loop();
        ++Loops;
      }
    if (Loops != 1)
      return Band;
    Band.push_back(Only);
  }
}

namespace {

/// A 2d+1 schedule: ordinals and loops alternate, starting and ending with
/// an ordinal. Loops stand for their iteration counter.
struct Tok {
  const Loop *L = nullptr;
  int64_t Ord = 0;
};
using Schedule = std::vector<Tok>;

Schedule originalSchedule(const StmtRef &R) {
  Schedule S;
  for (size_t K = 0; K < R.Loops.size(); ++K) {
    S.push_back({nullptr, R.Positions[K]});
    S.push_back({R.Loops[K], 0});
  }
  S.push_back({nullptr, R.Positions[R.Loops.size()]});
  return S;
}

/// Schedules after distributing the statements beside the band out of it
/// below the first \p Keep band loops and running the rest of the band in
/// the order \p Perm (band indices).
std::map<const Stmt *, Schedule>
permutedSchedules(const std::vector<StmtRef> &Refs,
                  const std::vector<const Loop *> &Band,
                  const std::vector<size_t> &Perm, size_t Keep) {
  size_t D = Band.size();
  std::map<const Stmt *, Schedule> Out;
  int64_t Part = -1;
  int64_t LastParent = -2; // band depth of the previous distributed stmt
  bool InBand = false;
  for (const StmtRef &R : Refs) {
    Schedule Orig = originalSchedule(R);
    size_t Q = 0; // band loops around the statement
    while (Q < R.Loops.size() && Q < D && R.Loops[Q] == Band[Q])
      ++Q;
    if (Q <= Keep && Q < D) {
      Out[R.S] = Orig; // above the reordered part: unchanged
      continue;
    }
    bool Band_ = Q == D;
    if (Band_) {
      if (!InBand)
        ++Part;
      InBand = true;
      LastParent = -2;
    } else {
      if (InBand || LastParent != static_cast<int64_t>(Q))
        ++Part;
      InBand = false;
      LastParent = static_cast<int64_t>(Q);
    }
    Schedule S(Orig.begin(), Orig.begin() + 2 * Keep);
    S.push_back({nullptr, Orig[2 * Keep].Ord * 1000 + Part});
    if (Band_) {
      for (size_t K = Keep; K < D; ++K) {
        if (K > Keep)
          S.push_back({nullptr, 0});
        S.push_back({Band[Perm[K]], 0});
      }
      S.insert(S.end(), Orig.begin() + 2 * D, Orig.end());
    } else {
      for (size_t K = Keep; K < Q; ++K) {
        if (K > Keep)
          S.push_back({nullptr, 0});
        S.push_back({Band[K], 0});
      }
      S.push_back(Orig.back()); // its position among its neighbours
    }
    Out[R.S] = std::move(S);
  }
  return Out;
}

/// Whether the sink of \p D still runs after its source under the new
/// schedules, for every direction vector.
bool preserved(const Dependence &D, const Schedule &Src, const Schedule &Dst,
               std::string &Vector) {
  for (const std::string &V : D.Vectors) {
    bool Ok = true, Decided = false;
    for (size_t P = 0; P < Src.size() && P < Dst.size() && !Decided; ++P) {
      const Tok &A = Src[P], &B = Dst[P];
      if (!A.L || !B.L) {
        if (A.L || B.L) {
          Ok = false; // shapes diverge without an ordinal deciding: unsafe
          Decided = true;
        } else if (A.Ord != B.Ord) {
          Ok = A.Ord < B.Ord;
          Decided = true;
        }
        continue;
      }
      auto It = std::find(D.Loops.begin(), D.Loops.end(), A.L);
      if (A.L != B.L || It == D.Loops.end()) {
        Ok = false;
        Decided = true;
        continue;
      }
      char C = V[It - D.Loops.begin()];
      if (C != '=') {
        Ok = C == '<';
        Decided = true;
      }
    }
    if (!Ok) {
      Vector = V;
      return false;
    }
  }
  return true;
}

Legality checkSchedules(const DependenceGraph &G,
                        const std::map<const Stmt *, Schedule> &New,
                        const std::string &What) {
  for (const Dependence &D : G.Deps) {
    auto S = New.find(D.Source), T = New.find(D.Sink);
    if (S == New.end() || T == New.end())
      continue;
    std::string V;
    if (!preserved(D, S->second, T->second, V))
      return {false, "the " + D.str() + " would be reversed"};
  }
  return {true, What};
}

/// A scalar declared inside a band loop that the transform moves (below the
/// first \p Keep loops) would be shared by iterations that no longer run
/// together: the transform needs it expanded into an array first.
std::optional<Legality> scalarScopeCrossed(const LoopNest &N,
                                           const std::vector<StmtRef> &Refs,
                                           const std::vector<const Loop *> &Band,
                                           size_t Keep) {
  for (const StmtRef &R : Refs) {
    if (!isScalarStmt(*R.S))
      continue;
    unsigned Q = scalarScopeDepth(N, *R.S);
    if (Q == 0 || Q <= Keep || Q > Band.size())
      continue;
    return Legality{false, "the scalar '" + scalarName(*R.S) +
                               "' is declared inside loop '" +
                               Band[Q - 1]->IV +
                               "': the loops around it cannot move "
                               "(accumulate into an array instead)"};
  }
  return std::nullopt;
}

} // namespace

Legality roofline::isInterchangeLegal(const LoopNest &N,
                                      const std::vector<std::string> &Order,
                                      const ParamValues &Overrides) {
  if (hasShadowing(N))
    return {false, "a loop variable shadows another name"};
  std::vector<const Loop *> Band = permutableBand(N);
  std::vector<size_t> Perm;
  for (const std::string &IV : Order) {
    auto It = std::find_if(Band.begin(), Band.end(),
                           [&](const Loop *L) { return L->IV == IV; });
    if (It == Band.end() ||
        std::find(Perm.begin(), Perm.end(), It - Band.begin()) != Perm.end())
      return {false, "loop order " + llvm::join(Order, ", ") +
                         " is not a permutation of the band " +
                         joinIVs(Band)};
    Perm.push_back(It - Band.begin());
  }
  if (Perm.size() != Band.size())
    return {false, "loop order " + llvm::join(Order, ", ") +
                       " is not a permutation of the band " + joinIVs(Band)};
  size_t Keep = 0;
  while (Keep < Perm.size() && Perm[Keep] == Keep)
    ++Keep;
  if (Keep == Perm.size())
    return {true, "the loop order is unchanged"};
  // Moving loops whose bounds use an IV outside them is not a plain
  // interchange (a triangular nest needs its bounds rewritten).
  for (size_t K = Keep; K < Band.size(); ++K)
    for (size_t O = Keep; O < Band.size(); ++O)
      if (O != K && (Band[K]->First.uses(Band[O]->IV) ||
                     Band[K]->Last.uses(Band[O]->IV)))
        return {false, "the bounds of loop '" + Band[K]->IV +
                           "' depend on loop '" + Band[O]->IV + "'"};
  std::vector<StmtRef> Refs = collectStmts(N.Root);
  if (std::optional<Legality> L = scalarScopeCrossed(N, Refs, Band, Keep))
    return *L;
  DependenceGraph G = computeDependences(N, Overrides);
  return checkSchedules(G, permutedSchedules(Refs, Band, Perm, Keep),
                        "no dependence is reversed by loop order " +
                            llvm::join(Order, ", "));
}

Legality roofline::isTilingLegal(const LoopNest &N,
                                 const ParamValues &Overrides) {
  if (hasShadowing(N))
    return {false, "a loop variable shadows another name"};
  std::vector<const Loop *> Band = permutableBand(N);
  for (const Loop *K : Band)
    for (const Loop *O : Band)
      if (K != O && (K->First.uses(O->IV) || K->Last.uses(O->IV)))
        return {false, "the bounds of loop '" + K->IV + "' depend on loop '" +
                           O->IV + "' (tiling it needs its bounds rewritten)"};
  std::vector<StmtRef> Refs = collectStmts(N.Root);
  if (std::optional<Legality> L = scalarScopeCrossed(N, Refs, Band, 0))
    return *L;
  DependenceGraph G = computeDependences(N, Overrides);
  std::vector<size_t> Identity(Band.size());
  std::iota(Identity.begin(), Identity.end(), 0);
  // Tiling reorders the whole band: first distribute what sits beside it.
  Legality Dist = checkSchedules(G, permutedSchedules(Refs, Band, Identity, 0),
                                 "");
  if (!Dist.Legal)
    return {false, "the statements beside the band cannot be distributed: " +
                       Dist.Reason};
  for (const Dependence &D : G.Deps)
    for (const std::string &V : D.Vectors)
      for (size_t K = 0; K < D.Loops.size() && K < V.size(); ++K) {
        if (std::find(Band.begin(), Band.end(), D.Loops[K]) == Band.end())
          continue;
        if (V[K] == '>')
          return {false, "band " + joinIVs(Band) +
                             " is not fully permutable: the " + D.str() +
                             " has a '>' on loop '" + D.Loops[K]->IV + "'"};
      }
  return {true, "band " + joinIVs(Band) +
                    " is fully permutable (no dependence has a '>' on it)"};
}

namespace {

bool sameBound(const Bound &A, const Bound &B,
               const std::map<std::string, std::string> &Rename) {
  if (A.Kind != B.Kind || A.Terms.size() != B.Terms.size())
    return false;
  for (size_t I = 0; I < A.Terms.size(); ++I) {
    AffineExpr E = B.Terms[I].Expr;
    for (const auto &[From, To] : Rename) {
      std::optional<AffineExpr> R = E.substitute(From, AffineExpr::var(To));
      if (!R)
        return false;
      E = *R;
    }
    if (!(E == A.Terms[I].Expr) || A.Terms[I].Divisor != B.Terms[I].Divisor)
      return false;
  }
  return true;
}

const Loop *onlyLoopChild(const Loop &L) {
  if (L.Body.size() == 1 && L.Body.front().isLoop())
    return &L.Body.front().loop();
  return nullptr;
}

} // namespace

unsigned roofline::fusableDepth(const LoopNest &First, const LoopNest &Second) {
  const Loop *A = &First.Root, *B = &Second.Root;
  std::map<std::string, std::string> Rename;
  unsigned Depth = 0;
  while (A && B) {
    if (A->Step != B->Step || !sameBound(A->First, B->First, Rename) ||
        !sameBound(A->Last, B->Last, Rename))
      break;
    Rename[B->IV] = A->IV;
    ++Depth;
    const Loop *NA = onlyLoopChild(*A), *NB = onlyLoopChild(*B);
    if (!NA || !NB)
      break;
    A = NA;
    B = NB;
  }
  return Depth;
}

Legality roofline::isFusionLegal(const LoopNest &First, const LoopNest &Second,
                                 const ParamValues &Overrides) {
  unsigned Depth = fusableDepth(First, Second);
  if (Depth == 0)
    return {false, "the loops at lines " + std::to_string(First.Loc.Line) +
                       " and " + std::to_string(Second.Loc.Line) +
                       " have different bounds"};
  if (hasShadowing(First) || hasShadowing(Second))
    return {false, "a loop variable shadows another name"};
  std::map<std::string, int64_t> Values = paramValues(First, Overrides);
  for (const auto &[K, V] : paramValues(Second, Overrides))
    Values.emplace(K, V);
  std::vector<StmtRef> RA = collectStmts(First.Root);
  std::vector<StmtRef> RB = collectStmts(Second.Root);
  for (const std::vector<StmtRef> *Rs : {&RA, &RB})
    for (const StmtRef &R : *Rs)
      if (isScalarStmt(*R.S))
        return {false, "the statement at line " + std::to_string(R.S->Loc.Line) +
                           " writes no array: it may carry a scalar between "
                           "the loops"};
  std::vector<SiteInfo> SA = siteInfos(RA, First.Root, Values);
  std::vector<SiteInfo> SB = siteInfos(RB, Second.Root, Values);
  if (SA.empty() || SB.empty())
    return {true, "one of the nests has no statement"};
  // The fused loops of the second nest take the first nest's ranges.
  for (SiteInfo &S : SB)
    for (size_t K = 0; K < Depth && K < S.Levels.size(); ++K)
      S.Levels[K] = SA.front().Levels[K];
  std::vector<const Loop *> Fused;
  for (const Loop *L = &First.Root; L && Fused.size() < Depth;
       L = onlyLoopChild(*L))
    Fused.push_back(L);
  std::vector<Dependence> Deps;
  for (const SiteInfo &A : SA)
    for (const SiteInfo &B : SB)
      for (const Access &X : A.Ref->S->Accesses)
        for (const Access &Y : B.Ref->S->Accesses) {
          if (X.ArrayName != Y.ArrayName || !(X.IsWrite || Y.IsWrite))
            continue;
          std::vector<Dependence> Found;
          testPair(A, X, B, Y, Depth, Fused, Values, Found);
          for (const Dependence &D : Found)
            if (D.Source != A.Ref->S) // the second nest's access came first
              return {false, "fusing would reverse the dependence on '" +
                                 X.ArrayName + "' from '" + X.Text +
                                 "' (line " + std::to_string(X.Loc.Line) +
                                 ") to '" + Y.Text + "' (line " +
                                 std::to_string(Y.Loc.Line) +
                                 "): direction " + D.directions() +
                                 " over the fused loops"};
        }
  return {true, "no dependence between the nests runs backwards in the "
                "fused loops " + joinIVs(Fused)};
}
