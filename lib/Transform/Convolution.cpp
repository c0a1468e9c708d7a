//===- Convolution.cpp - Direct convolutions as implicit gemms -------------===//

#include "roofline/Transform/Convolution.h"

#include "LoopTransforms.h"
#include "TransformUtil.h"

#include "roofline/IR/GuardLoop.h"

#include "llvm/ADT/StringExtras.h"

#include <algorithm>
#include <set>

using namespace roofline;

std::string ConvInfo::kind() const { return "convolution (implicit gemm)"; }

namespace {

std::optional<ConvInfo> fail(std::string *Why, const std::string &W) {
  if (Why)
    *Why = W;
  return std::nullopt;
}

/// \p A's subscripts as loop terms; a message when one is not a sum of
/// loops around the update (\p Loops) with positive coefficients and no
/// constant. A delinearized window may share its dimension with others
/// (x[29*c + 2*t + r]).
llvm::Expected<ConvOperand>
termsOf(const Access &A, const std::map<std::string, AffineExpr> &Loops,
        bool Input = false) {
  ConvOperand O{A.ArrayName, {}, {}};
  for (const std::optional<AffineExpr> &S : A.Subscripts) {
    if (!S)
      return transformError("a subscript of " + A.Text + " is not affine");
    // The input's offsets are checked against its guards (checkPads).
    if (S->constant() != 0 && !Input)
      return transformError("subscript '" + S->str() + "' of " + A.Text +
                            " has a constant offset (only the input's may: "
                            "zero padding)");
    O.Offset.push_back(S->constant());
    if (S->terms().empty())
      return transformError("subscript '" + S->str() + "' of " + A.Text +
                            " indexes no loop");
    std::vector<ConvTerm> D;
    for (const auto &[IV, Coef] : S->terms()) {
      if (!Loops.count(IV))
        return transformError("subscript '" + S->str() + "' of " + A.Text +
                              " uses '" + IV +
                              "', which is not a loop around the update");
      if (Coef < 1)
        return transformError("subscript '" + S->str() + "' of " + A.Text +
                              " is not `stride*p + r` (a negative "
                              "coefficient of '" +
                              IV + "': a flipped filter is not supported)");
      D.push_back({IV, Coef});
    }
    O.Dims.push_back(std::move(D));
  }
  return O;
}

/// Whether a dimension of \p O mixes a loop of the output (a pixel) with
/// one that is not (a filter): a window.
bool hasWindow(const ConvOperand &O, const std::map<std::string, int> &Out) {
  return std::any_of(O.Dims.begin(), O.Dims.end(), [&](const auto &D) {
    bool Px = false, Other = false;
    for (const ConvTerm &T : D)
      (Out.count(T.IV) ? Px : Other) = true;
    return Px && Other;
  });
}

/// How often each loop indexes \p O.
std::map<std::string, int> uses(const ConvOperand &O) {
  std::map<std::string, int> U;
  for (const auto &D : O.Dims)
    for (const ConvTerm &T : D)
      ++U[T.IV];
  return U;
}

/// The pixel (indexes Out) and filter (indexes W) loops of In's windows.
void splitWindows(ConvInfo &C, const std::map<std::string, int> &Out) {
  for (const auto &D : C.In.Dims) {
    if (!hasWindow(ConvOperand{C.In.Array, {D}}, Out))
      continue;
    for (const ConvTerm &T : D)
      (Out.count(T.IV) ? C.Pixel : C.Filter).push_back(T.IV);
  }
}

/// Gives each loop around the update its role, in loop order.
llvm::Error assignRoles(ConvInfo &C, const std::vector<const Loop *> &Loops) {
  std::map<std::string, int> O = uses(C.Out), I = uses(C.In), W = uses(C.W);
  for (const auto *U : {&O, &I, &W})
    for (const auto &[IV, Count] : *U)
      if (Count > 1)
        return transformError("loop '" + IV +
                              "' indexes one operand twice");
  splitWindows(C, O);
  for (const Loop *L : Loops) {
    const std::string &IV = L->IV;
    bool InO = O.count(IV), InI = I.count(IV), InW = W.count(IV);
    if (InO && InW && !InI) {
      if (!C.M.empty())
        return transformError("two output-channel loops ('" + C.M + "', '" +
                              IV + "')");
      C.M = IV;
    } else if (InO && InI && !InW) {
      C.N.push_back(IV); // a batch loop, or a window's pixel side
    } else if (InI && InW && !InO) {
      C.K.push_back(IV); // an input channel, or a window's filter side
    } else {
      std::vector<std::string> Which;
      for (auto [Has, Name] : {std::pair<bool, const char *>{InO, "the output"},
                               {InI, "the input"},
                               {InW, "the weights"}})
        if (Has)
          Which.push_back(Name);
      return transformError(
          "loop '" + IV + "' has no convolution role (it indexes " +
          (Which.empty() ? "no operand" : llvm::join(Which, " and ")) +
          (Which.size() == 1 ? " only" : "") + ")");
    }
  }
  if (C.M.empty())
    return transformError("no output-channel loop (indexing the output and "
                          "the weights, not the input)");
  return llvm::Error::success();
}

/// The statements besides the update: at most one `Out = 0` over the
/// output's loops, before the reduction.
llvm::Error checkInit(ConvInfo &C, const std::vector<StmtSite> &All,
                      const StmtSite &Update, const Access &OutA) {
  std::set<std::string> OutLoops;
  for (const auto &D : C.Out.Dims)
    OutLoops.insert(D[0].IV);
  for (const StmtSite &S : All) {
    if (&S == &Update)
      continue;
    const StmtValue &V = *S.S->Value;
    std::set<std::string> Around;
    for (const Loop *L : S.Loops)
      Around.insert(L->IV);
    bool Prefix =
        S.Loops.size() <= Update.Loops.size() &&
        std::equal(S.Loops.begin(), S.Loops.end(), Update.Loops.begin());
    bool IsInit = V.Target == StmtValue::ArrayTarget && V.Op == "=" &&
                  isZeroValue(V.Value) && S.S->Accesses.size() == 1 &&
                  S.S->Accesses[V.TargetAccess].Subscripts == OutA.Subscripts &&
                  Around == OutLoops && Prefix && &S < &Update;
    if (!IsInit || C.InitZero)
      return transformError("statement at line " +
                            std::to_string(S.S->Loc.Line) +
                            " is not `Out = 0` before the reduction "
                            "(epilogues are not supported)");
    C.InitZero = true;
  }
  return llvm::Error::success();
}


/// The loops around the update as rectangular loops, and the conditions
/// `c >= 0` the source guards the update with: a guard loop's (`if`), and
/// a max/min bound's terms besides the one that uses no loop (`r` from
/// max(0, 1 - p): r - (1 - p) >= 0).
llvm::Error unguard(const std::vector<const Loop *> &Around,
                    std::vector<Loop> &Rect, std::vector<AffineExpr> &Guards) {
  auto UsesLoop = [&](const AffineExpr &E) {
    return std::any_of(Around.begin(), Around.end(),
                       [&](const Loop *L) { return E.uses(L->IV); });
  };
  for (const Loop *L : Around) {
    if (isGuardLoop(*L)) {
      // One iteration exactly when every c >= 0: min(0, c...) from 0.
      bool Zero = L->Last.Kind == Bound::Min &&
                  std::any_of(L->Last.Terms.begin(), L->Last.Terms.end(),
                              [](const BoundTerm &T) {
                                return T.Expr == AffineExpr(0);
                              });
      if (!L->First.isAffine() || L->First.affine() != AffineExpr(0) || !Zero)
        return transformError("a guard with an equality is not zero padding");
      for (const BoundTerm &T : L->Last.Terms)
        if (T.Divisor != 1)
          return transformError("a guard divides");
        else if (T.Expr != AffineExpr(0))
          Guards.push_back(T.Expr);
      continue;
    }
    Loop R;
    R.IV = L->IV;
    R.Step = L->Step;
    R.Loc = L->Loc;
    R.First = L->First;
    R.Last = L->Last;
    for (auto [B, Low] : {std::pair<Bound *, bool>{&R.First, true}, {&R.Last, false}}) {
      if (B->Kind == Bound::Single)
        continue;
      std::optional<AffineExpr> Keep;
      for (const BoundTerm &T : B->Terms) {
        if (T.Divisor != 1)
          return transformError("loop '" + L->IV + "' has a divided bound");
        if (!UsesLoop(T.Expr) && !Keep) {
          Keep = T.Expr;
          continue;
        }
        AffineExpr IV = AffineExpr::var(L->IV);
        std::optional<AffineExpr> G = Low ? IV.sub(T.Expr) : T.Expr.sub(IV);
        if (!G)
          return transformError("a guard overflows");
        Guards.push_back(*G);
      }
      if (!Keep)
        return transformError("loop '" + L->IV + "' is not rectangular");
      *B = Bound::single(*Keep);
    }
    Rect.push_back(std::move(R));
  }
  return llvm::Error::success();
}

/// Zero padding: each guard is one side of `0 <= s < extent` for a window
/// subscript s of the input, and each subscript with an offset or a guard
/// has both sides. Fills C.Pads.
llvm::Error checkPads(ConvInfo &C, const Access &InA, const Array &AI,
                      std::vector<AffineExpr> Guards) {
  for (size_t D = 0; D < InA.Subscripts.size(); ++D) {
    const AffineExpr &S = *InA.Subscripts[D];
    bool Lo = false, Hi = false;
    std::optional<AffineExpr> Upper;
    if (D < AI.Extents.size() && AI.Extents[D])
      if (std::optional<AffineExpr> E = AI.Extents[D]->addConstant(-1))
        Upper = E->sub(S);
    for (auto It = Guards.begin(); It != Guards.end();) {
      bool IsLo = *It == S, IsHi = Upper && *It == *Upper;
      if ((IsLo && !Lo) || (IsHi && !Hi)) {
        (IsLo ? Lo : Hi) = true;
        It = Guards.erase(It);
      } else {
        ++It;
      }
    }
    if (!Lo && !Hi && C.In.Offset[D] == 0)
      continue;
    if (!Lo || !Hi || C.In.Dims[D].size() < 2)
      return transformError(
          "subscript '" + S.str() + "' of '" + C.In.Array + "' " +
          (C.In.Dims[D].size() < 2 ? "is not a window"
                                   : "is not kept inside 0 .. " +
                                         (AI.Extents.size() > D && AI.Extents[D]
                                              ? AI.Extents[D]->str()
                                              : std::string("its extent")) +
                                         " by a guard") +
          " (a constant offset is zero padding only under `if (0 <= s && s "
          "< extent)` around the update, or the filter loops' bounds)");
    C.Pads.push_back({D, *AI.Extents[D]});
  }
  if (!Guards.empty())
    return transformError("guard '" + Guards.front().str() +
                          " >= 0' is not a bound of the input's window "
                          "(zero padding)");
  return llvm::Error::success();
}
} // namespace

std::optional<ConvInfo> roofline::recognizeConvolution(const LoopNest &N,
                                                       std::string *WhyNot) {
  llvm::Expected<MacUpdate> Mac = findMacUpdate(N);
  if (!Mac)
    return fail(WhyNot, llvm::toString(Mac.takeError()));
  const StmtSite *Update = Mac->Site;
  const Access &OutA = *Mac->Out, &LA = *Mac->L, &RA = *Mac->R;

  ConvInfo C;
  std::vector<Loop> Rect;
  std::vector<AffineExpr> Guards;
  if (llvm::Error E = unguard(Update->Loops, Rect, Guards))
    return fail(WhyNot, llvm::toString(std::move(E)));
  std::vector<const Loop *> Loops;
  for (const Loop &L : Rect)
    Loops.push_back(&L);
  if (llvm::Error E = rectangularExtents(Loops, C.Extent, C.First))
    return fail(WhyNot, llvm::toString(std::move(E)));
  // Which operand is the input is known once the windows are: an offset
  // is allowed in either here and refused below in the weights.
  llvm::Expected<ConvOperand> O = termsOf(OutA, C.Extent),
                              L = termsOf(LA, C.Extent, true),
                              R = termsOf(RA, C.Extent, true);
  for (llvm::Expected<ConvOperand> *X : {&O, &L, &R})
    if (!*X)
      return fail(WhyNot, llvm::toString(X->takeError()));
  std::map<std::string, int> OutUses = uses(*O);
  bool LWin = hasWindow(*L, OutUses), RWin = hasWindow(*R, OutUses);
  if (LWin == RWin)
    return fail(WhyNot, LWin ? "both operands are indexed by windows"
                             : "no operand is indexed by a window (`p + r`)");
  C.Out = std::move(*O);
  C.In = LWin ? std::move(*L) : std::move(*R);
  C.W = LWin ? std::move(*R) : std::move(*L);
  const Access &InA = LWin ? LA : RA;
  for (int64_t Off : C.W.Offset)
    if (Off != 0)
      return fail(WhyNot, "a subscript of the weights '" + C.W.Array +
                              "' has a constant offset");
  if (llvm::Error E = assignRoles(C, Loops))
    return fail(WhyNot, llvm::toString(std::move(E)));
  if (llvm::Error E = checkInit(C, Mac->All, *Update, OutA))
    return fail(WhyNot, llvm::toString(std::move(E)));
  const Array *AO = N.findArray(C.Out.Array), *AI = N.findArray(C.In.Array),
              *AW = N.findArray(C.W.Array);
  if (!AO || !AI || !AW || AO->Elem != AI->Elem || AO->Elem != AW->Elem)
    return fail(WhyNot, "operands differ in element type");
  C.Elem = AO->Elem;
  if (llvm::Error E = checkPads(C, InA, *AI, std::move(Guards)))
    return fail(WhyNot, llvm::toString(std::move(E)));
  return C;
}

llvm::Expected<std::string>
roofline::implicitGemm(Program &P, const TransformRecord &R) {
  assert(R.Sizes.size() == 5 && "the parser checks the five blocks");
  if (!P.Applied.empty())
    return transformError("implicit_gemm must be the first record");
  if (P.Nests.size() != 1)
    return transformError("a group of nests is not one convolution");
  std::string Why;
  std::optional<ConvInfo> C = recognizeConvolution(P.Nests.front().Nest, &Why);
  if (!C)
    return transformError("not a convolution: " + Why);
  if (C->Elem != Precision::F32)
    return transformError("the convolution is not f32 (the gemm "
                          "micro-kernels are)");
  ConvPlan Plan;
  Plan.MC = R.Sizes[0];
  Plan.NC = R.Sizes[1];
  Plan.KC = R.Sizes[2];
  Plan.MR = R.Sizes[3];
  Plan.NR = R.Sizes[4];
  std::string Msg = "'" + C->In.Array + "' and '" + C->W.Array +
                    "' are only read and '" + C->Out.Array +
                    "' is written by the update alone: each output "
                    "element's sum over (" +
                    llvm::join(C->K, ", ") +
                    ") is independent, only its order changes; M = " + C->M +
                    ", N = (" + llvm::join(C->N, ", ") + ")";
  Plan.C = std::move(*C);
  P.Conv = std::move(Plan);
  return Msg;
}
