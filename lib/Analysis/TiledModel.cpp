//===- TiledModel.cpp - Bytes a T-tiled schedule moves --------------------===//

#include "roofline/Analysis/TiledModel.h"
#include "roofline/Analysis/Dependence.h"

#include "IterationSpace.h"
#include "roofline/IR/PointGather.h"

#include <algorithm>
#include <cmath>
#include <functional>

using namespace roofline;
using namespace roofline::detail;

namespace {

struct TileLoopTrip {
  double Trip = 0;                   ///< average iterations per entry
  std::optional<Polynomial> SymTrip; ///< rectangular, unit step
};

/// One array's references with the same subscript coefficients.
struct TileGroup {
  std::string Array;
  std::vector<std::map<std::string, int64_t>> Coef;
  std::vector<double> MinC, MaxC; ///< constant parts, per dimension
  bool Reads = false, Writes = false;
  double Count = 0; ///< elements moved, deepest reference's structure
  std::optional<Polynomial> Sym;
  bool SymOk = true;
};

/// Average iterations per entry of every loop, from the exact counts, and
/// with \p WithFormula the formula of the rectangular unit-step ones.
/// \p Numeric turns false where a loop's count is unknown.
std::map<const Loop *, TileLoopTrip>
tileLoopTrips(const LoopNest &N, const NestCounts &C,
              const std::vector<const Loop *> &Pre, bool WithFormula,
              bool &Numeric) {
  std::map<const Loop *, TileLoopTrip> Trips;
  std::function<void(const Loop &, double)> Walk = [&](const Loop &L,
                                                       double Entries) {
    size_t I = std::find(Pre.begin(), Pre.end(), &L) - Pre.begin();
    TileLoopTrip T;
    double Total = 0;
    if (I < C.Loops.size() && C.Loops[I].Total.Value) {
      Total = static_cast<double>(*C.Loops[I].Total.Value);
      T.Trip = Entries > 0 ? Total / Entries : 0;
    } else {
      Numeric = false;
    }
    if (WithFormula && L.Step == 1 && L.First.isAffine() &&
        L.Last.isAffine()) {
      bool UsesIV = false;
      for (const Loop *O : Pre)
        UsesIV |= L.First.uses(O->IV) || L.Last.uses(O->IV);
      std::optional<AffineExpr> D = L.Last.affine().sub(L.First.affine());
      if (D)
        D = D->addConstant(1);
      if (!UsesIV && D)
        T.SymTrip = polynomialOrNone(Polynomial::fromAffine(*D));
    }
    Trips[&L] = T;
    for (const Node &X : L.Body)
      if (X.isLoop())
        Walk(X.loop(), Total);
  };
  Walk(N.Root, 1);
  return Trips;
}

/// Elements one reference moves under a T-tiling of the band.
class TileCounter {
public:
  TileCounter(const std::vector<const Loop *> &Band,
              std::map<const Loop *, TileLoopTrip> &Trips,
              const std::map<std::string, int64_t> &Values, unsigned Tile,
              bool WithFormula)
      : Band(Band), Trips(Trips), Values(Values), Tile(Tile),
        WithFormula(WithFormula), InvT(Rational::make(1, Tile)) {}

  /// The group of access \p A of statement \p S under \p Q band loops, or
  /// nothing with \p WhyNot set.
  std::optional<TileGroup> group(const StmtRef &S, size_t Q, const Access &A,
                                 bool FirstIsWrite, std::string &WhyNot) {
    TileGroup G;
    G.Array = A.ArrayName;
    G.Reads = A.IsRead && !FirstIsWrite;
    G.Writes = A.IsWrite;
    // Elements per tile, per dimension.
    double Count = 1;
    std::optional<Polynomial> Sym;
    if (WithFormula)
      Sym = Polynomial(Rational(1));
    for (const auto &Sub : A.Subscripts) {
      if (!Sub) {
        WhyNot = "subscript of '" + A.Text + "' is not affine";
        return std::nullopt;
      }
      auto [Span, SymSpan] = span(S, Q, *Sub, G);
      Count *= Span;
      Sym = Sym && SymSpan ? polynomialOrNone(Sym->mul(*SymSpan)) : std::nullopt;
    }
    countTiles(Q, G, Count, Sym);
    G.Count = Count;
    G.Sym = Sym;
    G.SymOk = Sym.has_value();
    return G;
  }

private:
  const std::vector<const Loop *> &Band;
  std::map<const Loop *, TileLoopTrip> &Trips;
  const std::map<std::string, int64_t> &Values;
  unsigned Tile;
  bool WithFormula;
  std::optional<Rational> InvT;

  /// Distinct values of subscript \p Sub in one tile, and their formula;
  /// its coefficients and constant part go to \p G.
  std::pair<double, std::optional<Polynomial>>
  span(const StmtRef &S, size_t Q, const AffineExpr &Sub, TileGroup &G) {
    std::map<std::string, int64_t> Coef;
    double Const = static_cast<double>(Sub.constant());
    double Span = 1;
    unsigned Using = 0;
    std::optional<Polynomial> SymSpan;
    if (WithFormula)
      SymSpan = Polynomial(Rational(1));
    std::optional<Polynomial> SymExt;
    for (const auto &[Name, K] : Sub.terms()) {
      auto It = std::find_if(S.Loops.begin(), S.Loops.end(),
                             [&](const Loop *L) { return L->IV == Name; });
      if (It == S.Loops.end()) {
        if (auto V = Values.find(Name); V != Values.end())
          Const += static_cast<double>(K) * V->second;
        continue;
      }
      Coef[Name] = K;
      const Loop *L = *It;
      bool Tiled = static_cast<size_t>(It - S.Loops.begin()) < Q;
      double Ext =
          Tiled ? std::min<double>(Tile, Trips[L].Trip) : Trips[L].Trip;
      Span += std::fabs(static_cast<double>(K * L->Step)) * (Ext - 1);
      ++Using;
      std::optional<Polynomial> E =
          Tiled ? std::optional<Polynomial>(Polynomial(Rational(Tile)))
                : Trips[L].SymTrip;
      if (!E || !SymSpan) {
        SymSpan.reset();
        continue;
      }
      SymExt = E;
      std::optional<Polynomial> Em1 = polynomialOrNone(E->sub(Polynomial(Rational(1))));
      std::optional<Polynomial> T =
          Em1 ? polynomialOrNone(Em1->scale(Rational(std::abs(K * L->Step))))
              : std::nullopt;
      SymSpan = T ? polynomialOrNone(SymSpan->add(*T)) : std::nullopt;
    }
    // One loop per subscript: distinct values = its iterations.
    if (Using == 1) {
      const Loop *L = *std::find_if(
          S.Loops.begin(), S.Loops.end(),
          [&](const Loop *X) { return Coef.count(X->IV) != 0; });
      bool Tiled = static_cast<size_t>(
                       std::find(S.Loops.begin(), S.Loops.end(), L) -
                       S.Loops.begin()) < Q;
      Span = Tiled ? std::min<double>(Tile, Trips[L].Trip) : Trips[L].Trip;
      SymSpan = SymExt;
    }
    G.Coef.push_back(std::move(Coef));
    G.MinC.push_back(Const);
    G.MaxC.push_back(Const);
    return {Span, SymSpan};
  }

  /// Tiles loaded: every tile iteration around the reference, except the
  /// innermost tile loop when the reference does not move with it.
  void countTiles(size_t Q, const TileGroup &G, double &Count,
                  std::optional<Polynomial> &Sym) {
    for (size_t M = 0; M < Q; ++M) {
      const Loop *L = Band[M];
      bool Uses = false;
      for (const auto &Co : G.Coef)
        Uses |= Co.count(L->IV) != 0;
      if (!Uses && M + 1 == Q)
        continue;
      Count *= std::ceil(Trips[L].Trip / Tile);
      std::optional<Polynomial> Tiles =
          Sym && Trips[L].SymTrip && InvT
              ? polynomialOrNone(Trips[L].SymTrip->scale(*InvT))
              : std::nullopt;
      Sym = Sym && Tiles ? polynomialOrNone(Sym->mul(*Tiles)) : std::nullopt;
    }
  }
};

/// Adds \p G to \p Groups: a new group, or merged into the one of the same
/// array and coefficients (the deepest reference's structure counts).
void addGroup(std::vector<TileGroup> &Groups, TileGroup G) {
  auto Same = std::find_if(Groups.begin(), Groups.end(),
                           [&](const TileGroup &O) {
                             return O.Array == G.Array && O.Coef == G.Coef;
                           });
  if (Same == Groups.end()) {
    Groups.push_back(std::move(G));
    return;
  }
  for (size_t D = 0; D < Same->MinC.size(); ++D) {
    Same->MinC[D] = std::min(Same->MinC[D], G.MinC[D]);
    Same->MaxC[D] = std::max(Same->MaxC[D], G.MaxC[D]);
  }
  Same->Reads |= G.Reads;
  Same->Writes |= G.Writes;
  if (G.Count > Same->Count) {
    Same->Count = G.Count;
    Same->Sym = G.Sym;
    Same->SymOk = G.SymOk;
  }
}

/// The bytes of \p Groups into R.Bytes and R.Formula.
void sumGroups(const LoopNest &N, const std::vector<TileGroup> &Groups,
               unsigned Tile, bool WithFormula, TiledTraffic &R) {
  double Bytes = 0;
  std::optional<Polynomial> Sym;
  if (WithFormula)
    Sym = Polynomial(Rational(0));
  for (const TileGroup &G : Groups) {
    const Array *Arr = N.findArray(G.Array);
    unsigned E = Arr ? precisionBytes(Arr->Elem) : 0;
    if (!E) {
      R.WhyNot = "element type of '" + G.Array + "' is unknown";
      return;
    }
    int Moves = (G.Reads ? 1 : 0) + (G.Writes ? 1 : 0);
    // References at constant offsets (a stencil's halo) widen each tile.
    double Widen = 1;
    bool Widened = false;
    for (size_t D = 0; D < G.MinC.size(); ++D)
      if (G.MaxC[D] > G.MinC[D]) {
        Widened = true;
        Widen *= 1 + (G.MaxC[D] - G.MinC[D]) / Tile;
      }
    Bytes += G.Count * Widen * E * Moves;
    if (Widened || !G.SymOk)
      Sym.reset();
    else if (Sym) {
      std::optional<Polynomial> Part =
          polynomialOrNone(G.Sym->scale(Rational(int64_t(E) * Moves)));
      Sym = Part ? polynomialOrNone(Sym->add(*Part)) : std::nullopt;
    }
  }
  if (R.WhyNot.empty())
    R.Bytes = Bytes;
  R.Formula = Sym;
}

} // namespace

TiledTraffic roofline::tiledTraffic(const LoopNest &N, const NestCounts &C,
                                    unsigned Tile, bool WithFormula) {
  // Scratch arrays are registers and L1, not traffic.
  if (hasScratch(N))
    return tiledTraffic(withoutScratch(N), C, Tile, WithFormula);
  TiledTraffic R;
  R.Tile = Tile;
  std::vector<const Loop *> Band = permutableBand(N);
  for (const Loop *L : Band)
    R.Loops.push_back(L->IV);
  Legality Leg = isTilingLegal(N, C.Values);
  R.Legal = Leg.Legal;
  R.LegalityReason = Leg.Reason;
  if (Tile == 0) {
    R.WhyNot = "tile size 0";
    return R;
  }
  if (const Loop *L = earlyExitLoop(N.Root)) {
    R.WhyNot = "where the loop at line " + std::to_string(L->Loc.Line) +
               " stops depends on the data (an early exit)";
    return R;
  }
  // Tiles would place every pick of a row gather at the same row.
  if (const Access *G = firstRowGather(N)) {
    R.WhyNot = "the rows '" + G->GatherIndex +
               "' picks are loaded from memory (a gather)";
    return R;
  }
  std::map<std::string, int64_t> Values = paramValues(N, C.Values);

  std::vector<const Loop *> Pre = preorderLoops(N.Root);
  bool Numeric = Pre.size() == C.Loops.size();
  std::map<const Loop *, TileLoopTrip> Trips =
      tileLoopTrips(N, C, Pre, WithFormula, Numeric);

  std::map<std::string, bool> FirstIsWrite;
  for (const ArrayTraffic &A : C.Arrays)
    FirstIsWrite[A.Name] = A.ElementsRead.Value && *A.ElementsRead.Value == 0;

  TileCounter Counter(Band, Trips, Values, Tile, WithFormula);
  std::vector<TileGroup> Groups;
  for (const StmtRef &S : collectStmts(N.Root)) {
    size_t Q = 0; // band loops around the statement
    while (Q < S.Loops.size() && Q < Band.size() && S.Loops[Q] == Band[Q])
      ++Q;
    for (const Access &A : S.S->Accesses) {
      std::optional<TileGroup> G =
          Counter.group(S, Q, A, FirstIsWrite[A.ArrayName], R.WhyNot);
      if (!G)
        return R;
      addGroup(Groups, std::move(*G));
    }
  }
  if (!Numeric) {
    R.WhyNot = "a trip count is unknown";
  }
  sumGroups(N, Groups, Tile, WithFormula, R);
  return R;
}
