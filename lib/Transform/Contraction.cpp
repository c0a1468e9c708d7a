//===- Contraction.cpp - Contraction recognition, accumulator promotion ---===//

#include "roofline/Transform/Contraction.h"

#include "TransformUtil.h"

#include <algorithm>
#include <functional>
#include <set>

using namespace roofline;

//===----------------------------------------------------------------------===//
// Accumulator promotion
//===----------------------------------------------------------------------===//

namespace {

bool readsScalar(const Stmt &S, const std::string &Name) {
  bool R = false;
  if (S.Value)
    S.Value->Value.walk([&](const ValueExpr &E) {
      R |= E.Kind == ValueExpr::Scalar && E.Name == Name;
    });
  return R;
}

bool writesScalar(const Stmt &S, const std::string &Name) {
  return S.Value && S.Value->Target != StmtValue::ArrayTarget &&
         S.Value->Scalar == Name;
}

bool accessesArray(const Node &N, const std::string &Array) {
  bool Found = false;
  forEachStmtIn(N, [&](const Stmt &S) {
    for (const Access &A : S.Accesses)
      Found |= A.ArrayName == Array;
  });
  return Found;
}

/// Every statement under \p N touching scalar \p Name is an update
/// `Name op= e` with e not reading it.
bool onlyUpdates(const Node &N, const std::string &Name) {
  bool Ok = true;
  forEachStmtIn(N, [&](const Stmt &S) {
    bool W = writesScalar(S, Name), R = readsScalar(S, Name);
    if (!W && !R)
      return;
    Ok &= W && !R && S.Value->Target == StmtValue::ScalarTarget &&
          (S.Value->Op == "+=" || S.Value->Op == "-=" || S.Value->Op == "*=");
  });
  return Ok;
}

/// Prepends \p A to \p S's accesses (indices in the value shift by one).
void prependAccess(Stmt &S, Access A) {
  S.Accesses.insert(S.Accesses.begin(), std::move(A));
  if (!S.Value)
    return;
  if (S.Value->Target == StmtValue::ArrayTarget)
    ++S.Value->TargetAccess;
  S.Value->Value.walkMutable([](ValueExpr &E) {
    if (E.Kind == ValueExpr::Load)
      ++E.Access;
  });
}

bool promoteIn(Loop &L, LoopNest &N, std::vector<std::string> *Notes) {
  bool Changed = false;
  for (Node &Child : L.Body)
    if (Child.isLoop())
      Changed |= promoteIn(Child.loop(), N, Notes);
  auto &B = L.Body;
  for (size_t P = 0; P < B.size(); ++P) {
    if (B[P].isLoop() || !B[P].S.Value ||
        B[P].S.Value->Target != StmtValue::ScalarDecl)
      continue;
    const std::string Name = B[P].S.Value->Scalar;
    const ScalarVar *SV = N.Sem.findScalar(Name);
    if (!SV || SV->Kind != ScalarVar::Local || B[P].S.Value->Op != "=")
      continue;
    // The copy-out: the first statement after P that reads the scalar.
    size_t Q = P + 1;
    bool Ok = true;
    for (; Q < B.size(); ++Q) {
      if (B[Q].isLoop()) {
        Ok &= onlyUpdates(B[Q], Name);
        continue;
      }
      const Stmt &S = B[Q].S;
      if (readsScalar(S, Name) || writesScalar(S, Name))
        break;
    }
    if (!Ok || Q == B.size())
      continue;
    Stmt &Copy = B[Q].S;
    if (writesScalar(Copy, Name) || !Copy.Value ||
        Copy.Value->Target != StmtValue::ArrayTarget || Copy.Value->Op != "=")
      continue;
    Access Target = Copy.Accesses[Copy.Value->TargetAccess];
    // The target must not be touched in between, and the scalar not after.
    for (size_t X = P + 1; X < Q && Ok; ++X)
      Ok &= !accessesArray(B[X], Target.ArrayName);
    for (const Access &A : Copy.Accesses)
      Ok &= &A == &Copy.Accesses[Copy.Value->TargetAccess] ||
            A.ArrayName != Target.ArrayName;
    for (size_t X = Q + 1; X < B.size() && Ok; ++X)
      forEachStmtIn(B[X], [&](const Stmt &S) {
        Ok &= !readsScalar(S, Name) && !writesScalar(S, Name);
      });
    if (!Ok)
      continue;

    // Rewrite: decl -> Target = init; updates -> Target op= e; the copy
    // disappears when it was a plain copy, else reads Target.
    Access W = Target;
    W.IsRead = false;
    W.IsWrite = true;
    Stmt &Decl = B[P].S;
    prependAccess(Decl, W);
    Decl.Value->Target = StmtValue::ArrayTarget;
    Decl.Value->TargetAccess = 0;
    Decl.Value->Scalar.clear();
    Access RW = Target;
    RW.IsRead = RW.IsWrite = true;
    for (size_t X = P + 1; X < Q; ++X)
      forEachStmtInMutable(B[X], [&](Stmt &S) {
        if (!writesScalar(S, Name))
          return;
        prependAccess(S, RW);
        S.Value->Target = StmtValue::ArrayTarget;
        S.Value->TargetAccess = 0;
        S.Value->Scalar.clear();
      });
    bool PlainCopy = Copy.Value->Value.Kind == ValueExpr::Scalar &&
                     Copy.Value->Value.Name == Name;
    if (PlainCopy) {
      B.erase(B.begin() + Q);
    } else {
      Access R = Target;
      R.IsRead = true;
      R.IsWrite = false;
      Copy.Accesses.push_back(R);
      unsigned RI = static_cast<unsigned>(Copy.Accesses.size() - 1);
      Copy.Value->Value.walkMutable([&](ValueExpr &E) {
        if (E.Kind == ValueExpr::Scalar && E.Name == Name)
          E = ValueExpr::load(RI);
      });
    }
    auto &Sc = N.Sem.Scalars;
    Sc.erase(std::remove_if(Sc.begin(), Sc.end(),
                            [&](const ScalarVar &V) { return V.Name == Name; }),
             Sc.end());
    if (Notes)
      Notes->push_back("accumulator '" + Name + "' promoted to '" +
                       Target.Text + "' (scalar expansion inverse)");
    Changed = true;
  }
  return Changed;
}

} // namespace

bool roofline::promoteAccumulators(LoopNest &N,
                                   std::vector<std::string> *Notes) {
  if (!N.Sem.Complete)
    return false;
  return promoteIn(N.Root, N, Notes);
}

//===----------------------------------------------------------------------===//
// Recognition
//===----------------------------------------------------------------------===//

std::string ContractionInfo::kind() const {
  std::string K = isGemm() ? "gemm" : isGemv() ? "gemv" : "dot";
  return Batch.empty() ? K : "batched " + K;
}

std::optional<AffineExpr> Operand::strideOf(const LoopNest &N,
                                            const std::string &IV) const {
  const roofline::Array *A = N.findArray(Array);
  if (!A)
    return std::nullopt;
  auto It = std::find(Dims.begin(), Dims.end(), IV);
  if (It == Dims.end())
    return AffineExpr(0);
  size_t D = It - Dims.begin();
  // Row-major: the product of the extents inside this dimension. A product
  // of two sizes is not affine; those layouts go the generic path.
  AffineExpr Stride(1);
  for (size_t E = D + 1; E < A->Extents.size(); ++E) {
    if (!A->Extents[E])
      return std::nullopt;
    const AffineExpr &X = *A->Extents[E];
    if (X.isConstant()) {
      std::optional<AffineExpr> S = Stride.scale(X.constant());
      if (!S)
        return std::nullopt;
      Stride = *S;
    } else if (Stride.isConstant() && Stride.constant() == 1) {
      Stride = X;
    } else if (Stride.isConstant()) {
      std::optional<AffineExpr> S = X.scale(Stride.constant());
      if (!S)
        return std::nullopt;
      Stride = *S;
    } else {
      return std::nullopt;
    }
  }
  return Stride;
}

namespace {

std::optional<std::string> plainIV(const std::optional<AffineExpr> &S) {
  if (!S || S->constant() != 0 || S->terms().size() != 1 ||
      S->terms().begin()->second != 1)
    return std::nullopt;
  return S->terms().begin()->first;
}

std::optional<std::vector<std::string>> dimsOf(const Access &A) {
  std::vector<std::string> D;
  for (const auto &S : A.Subscripts) {
    std::optional<std::string> IV = plainIV(S);
    if (!IV || std::find(D.begin(), D.end(), *IV) != D.end())
      return std::nullopt;
    D.push_back(*IV);
  }
  return D;
}

/// `Out = e` as `Out = e + Out`: the statement that adds an init value
/// after a reduction from zero (one more f32 add, or of Out's type).
Stmt addToOut(const Stmt &Init, const std::string &Out) {
  Stmt S = Init;
  Access Read = S.Accesses[S.Value->TargetAccess];
  Read.IsRead = true;
  Read.IsWrite = false;
  S.Accesses.push_back(Read);
  unsigned At = static_cast<unsigned>(S.Accesses.size() - 1);
  S.Value->Value = ValueExpr::binary("+", S.Value->Value, ValueExpr::load(At));
  Precision P = Precision::F32;
  for (const auto &[Prec, Ops] : Init.Ops)
    P = Prec;
  S.Ops[P].Adds += 1;
  (void)Out;
  return S;
}

std::optional<ContractionInfo> fail(std::string *Why, const std::string &W) {
  if (Why)
    *Why = W;
  return std::nullopt;
}

/// Whether \p IV is one of the dimensions \p D.
bool hasDim(const std::vector<std::string> &D, const std::string &IV) {
  return std::find(D.begin(), D.end(), IV) != D.end();
}

/// Swaps \p L and \p R unless L is the operand sharing Out's first
/// non-batch dimension \p OD (the row operand, as the emitters expect).
void orderOperands(const std::vector<std::string> &OD, Operand &L, Operand &R) {
  for (const std::string &IV : OD) {
    bool InL = hasDim(L.Dims, IV), InR = hasDim(R.Dims, IV);
    if (InL && InR)
      continue;
    if (InR && !InL)
      std::swap(L, R);
    break;
  }
}

/// Gives each loop of \p Loops its role in \p C (batch, M, N or K) by the
/// operands it subscripts; why one has none or two share one, else "".
std::string assignRoles(ContractionInfo &C,
                        const std::vector<const Loop *> &Loops) {
  for (const Loop *L : Loops) {
    bool O = hasDim(C.Out.Dims, L->IV), Lh = hasDim(C.L.Dims, L->IV),
         R = hasDim(C.R.Dims, L->IV);
    std::string *Role = nullptr;
    if (O && Lh && R)
      C.Batch.push_back(L->IV);
    else if (O && Lh && !R)
      Role = &C.M;
    else if (O && R && !Lh)
      Role = &C.N;
    else if (Lh && R && !O)
      Role = &C.K;
    else
      return "loop '" + L->IV + "' has no contraction role";
    if (Role) {
      if (!Role->empty())
        return "two loops play the same role ('" + *Role + "', '" + L->IV +
               "')";
      *Role = L->IV;
    }
  }
  return "";
}

/// An elementwise statement on Out's element: Out only at that element
/// (subscripts \p OutA), the other arrays indexed by the Out loops, writes
/// only to Out (or to a scalar local to it); "" when it is one, else why
/// not.
std::string notElementwise(const Stmt &St, const ContractionInfo &C,
                           const Access &OutA, const LoopNest &N) {
  for (const Access &A : St.Accesses) {
    if (A.ArrayName == C.Out.Array) {
      if (A.Subscripts != OutA.Subscripts)
        return "epilogue touches another element of '" + C.Out.Array + "'";
      continue;
    }
    if (A.ArrayName == C.L.Array || A.ArrayName == C.R.Array)
      return "epilogue reads an operand";
    for (const auto &Sub : A.Subscripts) {
      if (!Sub)
        return "epilogue subscript is not affine";
      for (const auto &[Name, Coef] : Sub->terms())
        if (C.Extent.count(Name) && !hasDim(C.Out.Dims, Name))
          return "epilogue indexes the reduction";
      if (A.IsWrite)
        return "epilogue writes a second array";
    }
  }
  const StmtValue &V = *St.Value;
  if (V.Target != StmtValue::ArrayTarget &&
      !(V.Target == StmtValue::ScalarDecl && N.Sem.findScalar(V.Scalar) &&
        N.Sem.findScalar(V.Scalar)->Kind == ScalarVar::Local))
    return "epilogue writes a scalar that outlives it";
  return "";
}

/// Where the reduction sits: OutBody, the innermost of the Out loops
/// around the update; ReductionAt, the node of its body that holds the
/// update (Seen when found); KOutsideBody, the K loop lies below OutBody,
/// so OutBody's own statements run outside it.
struct ReductionSite {
  const Loop *OutBody = nullptr;
  size_t ReductionAt = 0;
  bool Seen = false;
  bool KOutsideBody = false;
};

/// The ReductionSite of \p Update, the contraction's update statement.
ReductionSite reductionSite(const ContractionInfo &C, const StmtSite &Update) {
  ReductionSite RS;
  std::set<std::string> OutLoops(C.Out.Dims.begin(), C.Out.Dims.end());
  for (const Loop *L : Update.Loops)
    if (OutLoops.count(L->IV)) {
      OutLoops.erase(L->IV);
      if (OutLoops.empty()) {
        RS.OutBody = L;
        break;
      }
    }
  if (RS.OutBody)
    for (size_t I = 0; I < RS.OutBody->Body.size(); ++I) {
      bool Holds = false;
      forEachStmtIn(RS.OutBody->Body[I], [&](const Stmt &S) {
        Holds |= &S == Update.S;
      });
      if (Holds) {
        RS.ReductionAt = I;
        RS.Seen = true;
      }
    }
  auto KPos = std::find_if(Update.Loops.begin(), Update.Loops.end(),
                           [&](const Loop *L) { return L->IV == C.K; });
  auto OPos = std::find(Update.Loops.begin(), Update.Loops.end(), RS.OutBody);
  RS.KOutsideBody = RS.OutBody && KPos > OPos;
  return RS;
}

/// The statements other than the update: an init of Out before the
/// reduction (C.InitZero) and an elementwise epilogue after it, both in
/// the body of the Out loops; why one is neither, else "".
std::string addInitAndEpilogue(ContractionInfo &C, const LoopNest &N,
                               const std::vector<StmtSite> &All,
                               const StmtSite *Update, const Access &OutA) {
  ReductionSite RS = reductionSite(C, *Update);
  std::optional<Stmt> InitExpr;
  for (const StmtSite &S : All) {
    if (&S == Update)
      continue;
    const StmtValue &V = *S.S->Value;
    // Statements beside the reduction must run outside the K loop.
    bool InOutBody = RS.Seen && S.Parent == RS.OutBody && RS.KOutsideBody;
    if (!InOutBody)
      return "statement at line " + std::to_string(S.S->Loc.Line) +
             " is neither the init nor an epilogue";
    if (S.Index < RS.ReductionAt) {
      const bool SetsOut =
          V.Target == StmtValue::ArrayTarget && V.Op == "=" &&
          S.S->Accesses[V.TargetAccess].Subscripts == OutA.Subscripts;
      const bool IsInit =
          SetsOut && isZeroValue(V.Value) && S.S->Accesses.size() == 1;
      // Out = e, e not reading Out (a bias first): the reduction from zero,
      // then Out = e + Out as the first epilogue statement. Reordering the
      // sum is what every variant may do (docs/codegen.md, the tolerance).
      bool ReadsOut = std::any_of(
          S.S->Accesses.begin(), S.S->Accesses.end(),
          [&](const Access &A) { return A.ArrayName == C.Out.Array && A.IsRead; });
      const bool IsInitExpr = SetsOut && !IsInit && !ReadsOut &&
                              notElementwise(*S.S, C, OutA, N).empty();
      if ((!IsInit && !IsInitExpr) || C.InitZero)
        return "statement before the reduction is not `Out = 0` "
               "or `Out = e` (e elementwise, not reading Out)";
      C.InitZero = true;
      if (IsInitExpr)
        InitExpr = addToOut(*S.S, C.Out.Array);
      continue;
    }
    std::string Why = notElementwise(*S.S, C, OutA, N);
    if (!Why.empty())
      return Why;
    C.Epilogue.push_back(*S.S);
  }
  if (InitExpr)
    C.Epilogue.insert(C.Epilogue.begin(), *InitExpr);
  return "";
}

} // namespace

std::optional<ContractionInfo>
roofline::recognizeContraction(const LoopNest &N, std::string *WhyNot) {
  llvm::Expected<MacUpdate> Mac = findMacUpdate(N);
  if (!Mac)
    return fail(WhyNot, llvm::toString(Mac.takeError()));
  const StmtSite *Update = Mac->Site;
  const Access &OutA = *Mac->Out, &LA = *Mac->L, &RA = *Mac->R;

  ContractionInfo C;
  std::optional<std::vector<std::string>> OD = dimsOf(OutA), LD = dimsOf(LA),
                                          RD = dimsOf(RA);
  if (!OD || !LD || !RD)
    return fail(WhyNot, "a subscript is not a plain loop variable");
  if (llvm::Error E = rectangularExtents(Update->Loops, C.Extent, C.First))
    return fail(WhyNot, llvm::toString(std::move(E)));
  C.Out = {OutA.ArrayName, *OD};
  C.L = {LA.ArrayName, *LD};
  C.R = {RA.ArrayName, *RD};
  orderOperands(*OD, C.L, C.R);
  if (std::string Why = assignRoles(C, Update->Loops); !Why.empty())
    return fail(WhyNot, Why);
  for (const Operand *D : {&C.Out, &C.L, &C.R})
    for (const std::string &IV : D->Dims)
      if (!C.Extent.count(IV))
        return fail(WhyNot, "subscript '" + IV + "' is not a loop around the "
                                                 "update");
  if (C.K.empty() || C.M.empty())
    return fail(WhyNot, "no reduction or no row loop");
  const Array *AO = N.findArray(C.Out.Array), *AL = N.findArray(C.L.Array),
              *AR = N.findArray(C.R.Array);
  if (!AO || !AL || !AR || AO->Elem != AL->Elem || AO->Elem != AR->Elem)
    return fail(WhyNot, "operands differ in element type");
  C.Elem = AO->Elem;
  if (std::string Why = addInitAndEpilogue(C, N, Mac->All, Update, OutA);
      !Why.empty())
    return fail(WhyNot, Why);
  return C;
}
