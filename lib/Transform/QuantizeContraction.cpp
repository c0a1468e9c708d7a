//===- QuantizeContraction.cpp - int8 / bf16 contractions -----------------===//
//
// quantize(int8): Out = sum_k L*R becomes
//   acc(int32) = sum_k Lq*Rq;  Out = acc * Ls[..] * Rs[..]
// with Lq = round(L / Ls), Ls = max|L| / 127 over each row (or the whole
// tensor), and likewise R per tensor (or per column). L -- the weights in
// y = W x -- is quantized once by a prepare step (QuantPlan::Prepare, not
// part of the kernel); R is quantized by the kernel itself on every call,
// so those nests come first in the program and are counted with it.
// quantize(bf16): L and R rounded to bf16, products and sums in f32.
//
// Unlike the loop transforms this re-synthesizes the nest from the
// recognized contraction (batch, M, N, K loops keep their names and
// bounds), so it must be the first record of a schedule.
//
//===----------------------------------------------------------------------===//

#include "LoopTransforms.h"
#include "TransformUtil.h"

#include "roofline/Transform/Convolution.h"

#include <algorithm>
#include <set>

using namespace roofline;

namespace {

struct Builder {
  const ContractionInfo &C;
  LoopNest &N; ///< the nest being built (arrays, params, semantics)

  Loop loopOf(const std::string &IV) const {
    Loop L;
    L.IV = IV;
    L.First = Bound::single(C.First.at(IV));
    L.Last = Bound::single(*C.First.at(IV).add(*C.Extent.at(IV).addConstant(-1)));
    L.Step = 1;
    L.Loc = N.Loc;
    return L;
  }

  /// \p Body nested in loops over \p IVs (outermost first).
  Node nestIn(const std::vector<std::string> &IVs, std::vector<Node> Body) {
    for (size_t I = IVs.size(); I-- > 0;) {
      Loop L = loopOf(IVs[I]);
      L.Body = std::move(Body);
      Body.clear();
      Body.push_back(Node::loop(std::move(L)));
    }
    return std::move(Body.front());
  }

  Access access(const std::string &Array,
                const std::vector<std::string> &Dims, bool R, bool W) const {
    Access A;
    A.ArrayName = Array;
    A.IsRead = R;
    A.IsWrite = W;
    A.Text = Array;
    for (const std::string &D : Dims) {
      A.Subscripts.push_back(D.empty() ? AffineExpr(0) : AffineExpr::var(D));
      A.Text += "[" + (D.empty() ? std::string("0") : D) + "]";
    }
    A.Loc = N.Loc;
    return A;
  }

  void addArray(const std::string &Name, Precision P,
                const std::string &CType,
                std::vector<std::optional<AffineExpr>> Extents) {
    Array A;
    A.Name = Name;
    A.Elem = P;
    A.Extents = std::move(Extents);
    A.Loc = N.Loc;
    N.Arrays.push_back(A);
    N.Sem.ArrayCTypes[Name] = CType;
  }

  /// Extents of a scale array over \p Dims (loop IVs): last index + 1.
  std::vector<std::optional<AffineExpr>>
  extentsOver(const std::vector<std::string> &Dims) const {
    std::vector<std::optional<AffineExpr>> E;
    for (const std::string &D : Dims)
      E.push_back(*C.First.at(D).add(C.Extent.at(D)));
    if (Dims.empty())
      E.push_back(AffineExpr(1));
    return E;
  }
};

Stmt stmtOf(std::vector<Access> Accesses, StmtValue V,
            std::map<Precision, OpCounts> Ops, const SourceLoc &Loc) {
  Stmt S;
  S.Accesses = std::move(Accesses);
  S.Value = std::move(V);
  S.Ops = std::move(Ops);
  S.Loc = Loc;
  return S;
}

StmtValue assign(unsigned Target, const std::string &Op, ValueExpr E) {
  StmtValue V;
  V.Target = StmtValue::ArrayTarget;
  V.TargetAccess = Target;
  V.Op = Op;
  V.Value = std::move(E);
  return V;
}

std::vector<std::string> without(const std::vector<std::string> &D,
                                 const std::string &X) {
  std::vector<std::string> R;
  for (const std::string &S : D)
    if (S != X)
      R.push_back(S);
  return R;
}

/// Nests computing Scale[dims] = max(|Src|, tiny) / 127 over the reduction
/// loop \p K, then Q = round(Src / Scale).
std::vector<LoopNest> quantizeNests(Builder &B, const Operand &Src,
                                    const std::string &Q,
                                    const std::string &Scale,
                                    const std::vector<std::string> &ScaleDims,
                                    LoopNest Proto) {
  const SourceLoc &Loc = B.N.Loc;
  std::vector<std::string> Idx = ScaleDims.empty()
                                     ? std::vector<std::string>{""}
                                     : ScaleDims;
  // Every dimension of Src not in the scale's is reduced over.
  std::vector<std::string> Reduce;
  for (const std::string &D : Src.Dims)
    if (std::find(ScaleDims.begin(), ScaleDims.end(), D) == ScaleDims.end())
      Reduce.push_back(D);
  std::map<Precision, OpCounts> MaxOps, FinOps, QOps;
  MaxOps[Precision::F32].Calls["fmax"] = 1;
  MaxOps[Precision::F32].Calls["fabs"] = 1;
  FinOps[Precision::F32].Calls["fmax"] = 1;
  FinOps[Precision::F32].Divs = 1;
  QOps[Precision::F32].Divs = 1;
  QOps[Precision::F32].Calls["round"] = 1;

  Stmt Init = stmtOf({B.access(Scale, Idx, false, true)},
                     assign(0, "=", ValueExpr::floatLit(0)), {}, Loc);
  Stmt Max = stmtOf(
      {B.access(Scale, Idx, true, true), B.access(Src.Array, Src.Dims, true, false)},
      assign(0, "=",
             ValueExpr::call("std::fmax",
                             {ValueExpr::load(0),
                              ValueExpr::call("std::fabs", {ValueExpr::load(1)})})),
      MaxOps, Loc);
  Stmt Fin = stmtOf(
      {B.access(Scale, Idx, true, true)},
      assign(0, "=",
             ValueExpr::binary("/",
                               ValueExpr::call("std::fmax",
                                               {ValueExpr::load(0),
                                                ValueExpr::floatLit(1e-30)}),
                               ValueExpr::floatLit(127))),
      FinOps, Loc);
  std::vector<Node> Body;
  Body.push_back(Node::stmt(std::move(Init)));
  Body.push_back(B.nestIn(Reduce, {Node::stmt(std::move(Max))}));
  Body.push_back(Node::stmt(std::move(Fin)));

  LoopNest S1 = Proto;
  if (ScaleDims.empty()) {
    // A per-tensor scale: one iteration of a loop of its own holds it.
    Loop One;
    One.IV = "q";
    One.First = Bound::single(AffineExpr(0));
    One.Last = Bound::single(AffineExpr(0));
    One.Loc = Loc;
    One.Body = std::move(Body);
    S1.Root = std::move(One);
  } else {
    S1.Root = std::move(B.nestIn(ScaleDims, std::move(Body)).loop());
  }

  Stmt Quant = stmtOf(
      {B.access(Q, Src.Dims, false, true), B.access(Src.Array, Src.Dims, true, false),
       B.access(Scale, Idx, true, false)},
      assign(0, "=",
             ValueExpr::cast("signed char",
                             ValueExpr::call("std::lrint",
                                             {ValueExpr::binary(
                                                 "/", ValueExpr::load(1),
                                                 ValueExpr::load(2))}))),
      QOps, Loc);
  LoopNest S2 = Proto;
  S2.Root = std::move(B.nestIn(Src.Dims, {Node::stmt(std::move(Quant))}).loop());
  return {std::move(S1), std::move(S2)};
}

std::vector<LoopNest> convertNests(Builder &B, const Operand &Src,
                                   const std::string &To, LoopNest Proto) {
  std::map<Precision, OpCounts> Ops; // a conversion, not arithmetic
  Stmt Conv = stmtOf(
      {B.access(To, Src.Dims, false, true), B.access(Src.Array, Src.Dims, true, false)},
      assign(0, "=", ValueExpr::cast("rl_bf16", ValueExpr::load(1))), Ops,
      B.N.Loc);
  LoopNest S = Proto;
  S.Root = std::move(B.nestIn(Src.Dims, {Node::stmt(std::move(Conv))}).loop());
  return {std::move(S)};
}

/// Whether \p E depends on the output's value: it reads Out, or a local
/// scalar computed from it (\p Tainted).
bool dependsOnOut(const Stmt &S, const ValueExpr &E, const std::string &Out,
                  const std::set<std::string> &Tainted) {
  bool D = false;
  E.walk([&](const ValueExpr &X) {
    if (X.Kind == ValueExpr::Load && X.Access < S.Accesses.size())
      D |= S.Accesses[X.Access].ArrayName == Out;
    if (X.Kind == ValueExpr::Scalar)
      D |= Tainted.count(X.Name) != 0;
  });
  return D;
}

/// Whether \p E is affine in the output's value: a * out + b with a and b
/// not depending on it; else \p Why names the operation.
bool affineInOut(const Stmt &S, const ValueExpr &E, const std::string &Out,
                 const std::set<std::string> &Tainted, std::string &Why) {
  if (!dependsOnOut(S, E, Out, Tainted))
    return true;
  auto Dep = [&](size_t I) { return dependsOnOut(S, E.Operands[I], Out, Tainted); };
  auto Aff = [&](size_t I) { return affineInOut(S, E.Operands[I], Out, Tainted, Why); };
  switch (E.Kind) {
  case ValueExpr::Load:
  case ValueExpr::Scalar:
    return true;
  case ValueExpr::Unary:
    if (E.Name == "-" || E.Name == "+")
      return Aff(0);
    break;
  case ValueExpr::Binary:
    if (E.Name == "+" || E.Name == "-")
      return Aff(0) && Aff(1);
    if (E.Name == "*")
      return !(Dep(0) && Dep(1)) && Aff(0) && Aff(1);
    if (E.Name == "/")
      return !Dep(1) && Aff(0);
    break;
  case ValueExpr::Cast:
    if (E.CType == "float" || E.CType == "double")
      return Aff(0);
    break;
  default:
    break;
  }
  Why = E.Kind == ValueExpr::Call     ? "a call to '" + E.Name + "'"
        : E.Kind == ValueExpr::Select ? std::string("a select")
                                      : "operator '" + E.Name + "'";
  return false;
}

/// The epilogue is affine in the reduction's result: the int8 bound
/// (differences of the magnitude form) and the bf16 relative bound hold
/// for it; a threshold or a function of the result can turn a bounded
/// error into any other (ReLU flipping at zero).
std::string nonAffineEpilogue(const ContractionInfo &C) {
  std::set<std::string> Tainted;
  for (const Stmt &St : C.Epilogue) {
    if (!St.Value)
      return "a statement without a value";
    std::string Why;
    if (!affineInOut(St, St.Value->Value, C.Out.Array, Tainted, Why))
      return Why + " of the result";
    if (St.Value->Target != StmtValue::ArrayTarget &&
        dependsOnOut(St, St.Value->Value, C.Out.Array, Tainted))
      Tainted.insert(St.Value->Scalar);
  }
  return "";
}

/// Why \p P cannot take quantize() as a contraction; success when it can.
llvm::Error checkQuantizable(const Program &P) {
  if (!P.Applied.empty())
    return transformError("quantize must be the first record of a schedule");
  if (!P.Source)
    return transformError("the nest is not a contraction (gemm, gemv, "
                          "batched gemm) or a convolution");
  if (P.Nests.size() != 1)
    return transformError("the program has several nests");
  const ContractionInfo &C = *P.Source;
  if (C.Elem != Precision::F32)
    return transformError("the contraction is not f32");
  if (std::string Why = nonAffineEpilogue(C); !Why.empty())
    return transformError("its epilogue is not affine in the sum (" + Why +
                          "): the int8 and bf16 tolerances bound only an "
                          "affine epilogue");
  return llvm::Error::success();
}

/// The scale granularities \p R asks for, checked against the operands'
/// loops (row: L has an M loop; col: R has an N loop); per row and per
/// tensor when unnamed.
llvm::Error scaleGranularities(const ContractionInfo &C,
                               const TransformRecord &R, std::string &LG,
                               std::string &RG) {
  LG = C.M.empty() ? "tensor" : "row";
  RG = "tensor";
  for (const auto &[Arr, Gran] : R.Scales) {
    if (Arr == C.L.Array) {
      if (Gran == "col" || (Gran == "row" && C.M.empty()))
        return transformError("'" + Arr + "' has no " + Gran + " scale");
      LG = Gran;
    } else if (Arr == C.R.Array) {
      if (Gran == "row" || (Gran == "col" && C.N.empty()))
        return transformError("'" + Arr + "' has no " + Gran + " scale");
      RG = Gran;
    } else {
      return transformError("'" + Arr + "' is not an operand (" + C.L.Array +
                            ", " + C.R.Array + ")");
    }
  }
  return llvm::Error::success();
}

/// \p Proto with only the contraction's and the epilogue's arrays and no
/// scalars: the nest the quantized one is built in.
LoopNest mainNestShell(const LoopNest &Proto, const ContractionInfo &C) {
  LoopNest Main = Proto;
  Main.Arrays.clear();
  Main.Sem.Scalars.clear();
  for (const Array &A : Proto.Arrays)
    if (A.Name == C.Out.Array || A.Name == C.L.Array || A.Name == C.R.Array)
      Main.Arrays.push_back(A);
  // Epilogue arrays too.
  for (const Stmt &S : C.Epilogue)
    for (const Access &A : S.Accesses)
      if (!Main.findArray(A.ArrayName) && Proto.findArray(A.ArrayName))
        Main.Arrays.push_back(*Proto.findArray(A.ArrayName));
  return Main;
}

/// The low-precision copies of the operands (and, for int8, their scales
/// and the dimensions those run over).
struct LowOperands {
  std::string Lx, Rx, Ls, Rs;
  std::vector<std::string> LsDims, RsDims;
};

/// Declares the operands' int8 copies and scales in \p Main (granularity
/// \p LG, \p RG); the weights' quantization goes to \p Q.Prepare, the
/// other operand's is returned: the kernel runs it on every call.
std::vector<LoopNest> addInt8Operands(Builder &B, const ContractionInfo &C,
                                      const LoopNest &Proto, LoopNest &Main,
                                      const std::string &LG,
                                      const std::string &RG, LowOperands &O,
                                      QuantPlan &Q) {
  const Array *LA = Proto.findArray(C.L.Array), *RA = Proto.findArray(C.R.Array);
  Q.LGran = LG;
  Q.RGran = RG;
  O.Lx = C.L.Array + "_q";
  O.Rx = C.R.Array + "_q";
  O.Ls = C.L.Array + "_scale";
  O.Rs = C.R.Array + "_scale";
  if (LG == "row")
    O.LsDims = without(C.L.Dims, C.K);
  if (RG == "col")
    O.RsDims = without(C.R.Dims, C.K);
  B.addArray(O.Lx, Precision::I8, "signed char", LA->Extents);
  B.addArray(O.Rx, Precision::I8, "signed char", RA->Extents);
  B.addArray(O.Ls, Precision::F32, "float", B.extentsOver(O.LsDims));
  B.addArray(O.Rs, Precision::F32, "float", B.extentsOver(O.RsDims));
  Q.Prepared = {O.Lx, O.Ls};
  LoopNest PP = Main;
  Builder PB{C, PP};
  Q.Prepare = quantizeNests(PB, C.L, O.Lx, O.Ls, O.LsDims, Main);
  return quantizeNests(B, C.R, O.Rx, O.Rs, O.RsDims, Main);
}

/// Declares the operands' bf16 copies in \p Main; the weights' conversion
/// goes to \p Q.Prepare, the other operand's is returned.
std::vector<LoopNest> addBf16Operands(Builder &B, const ContractionInfo &C,
                                      const LoopNest &Proto, LoopNest &Main,
                                      LowOperands &O, QuantPlan &Q) {
  const Array *LA = Proto.findArray(C.L.Array), *RA = Proto.findArray(C.R.Array);
  Q.LGran = Q.RGran = "";
  O.Lx = C.L.Array + "_bf16";
  O.Rx = C.R.Array + "_bf16";
  B.addArray(O.Lx, Precision::BF16, "rl_bf16", LA->Extents);
  B.addArray(O.Rx, Precision::BF16, "rl_bf16", RA->Extents);
  Q.Prepared = {O.Lx};
  Q.Prepare = convertNests(B, C.L, O.Lx, Main);
  return convertNests(B, C.R, O.Rx, Main);
}

/// The accumulator's declaration (int for int8, float for bf16), declared
/// as a local scalar of \p Main.
Stmt accumulatorDecl(LoopNest &Main, const std::string &Acc, bool Int8) {
  ScalarVar AV;
  AV.Name = Acc;
  AV.CType = Int8 ? "int" : "float";
  AV.Kind = ScalarVar::Local;
  Main.Sem.Scalars.push_back(AV);
  StmtValue Decl;
  Decl.Target = StmtValue::ScalarDecl;
  Decl.Scalar = Acc;
  Decl.Op = "=";
  Decl.Value = Int8 ? ValueExpr::intLit(0) : ValueExpr::floatLit(0);
  return stmtOf({}, Decl, {}, Main.Loc);
}

/// acc += Lx * Rx, one int8 or bf16 MAC (bf16 widened to float).
Stmt macStmt(const Builder &B, const ContractionInfo &C, const LowOperands &O,
             const std::string &Acc, bool Int8) {
  std::map<Precision, OpCounts> MacOps;
  MacOps[Int8 ? Precision::I8 : Precision::BF16].Macs = 1;
  StmtValue Upd;
  Upd.Target = StmtValue::ScalarTarget;
  Upd.Scalar = Acc;
  Upd.Op = "+=";
  ValueExpr LV = ValueExpr::load(0), RV = ValueExpr::load(1);
  if (!Int8) {
    LV = ValueExpr::cast("float", LV);
    RV = ValueExpr::cast("float", RV);
  }
  Upd.Value = ValueExpr::binary("*", LV, RV);
  return stmtOf({B.access(O.Lx, C.L.Dims, true, false),
                 B.access(O.Rx, C.R.Dims, true, false)},
                Upd, MacOps, B.N.Loc);
}

/// The store of the accumulator into the output (= or +=), int8: scaled
/// back by the two operands' scales.
Stmt accumulatorStore(const Builder &B, const ContractionInfo &C,
                      const LowOperands &O, const std::string &Acc,
                      bool Int8) {
  std::vector<Access> StoreAcc{
      B.access(C.Out.Array, C.Out.Dims, !C.InitZero, true)};
  ValueExpr SV = Int8 ? ValueExpr::cast("float", ValueExpr::scalar(Acc))
                      : ValueExpr::scalar(Acc);
  std::map<Precision, OpCounts> StoreOps;
  if (Int8) {
    StoreAcc.push_back(B.access(O.Ls, O.LsDims.empty() ? std::vector<std::string>{""}
                                                       : O.LsDims,
                                true, false));
    StoreAcc.push_back(B.access(O.Rs, O.RsDims.empty() ? std::vector<std::string>{""}
                                                       : O.RsDims,
                                true, false));
    SV = ValueExpr::binary("*", ValueExpr::binary("*", SV, ValueExpr::load(1)),
                           ValueExpr::load(2));
    StoreOps[Precision::F32].Muls = 2;
  }
  if (!C.InitZero)
    StoreOps[Precision::F32].Adds += 1;
  return stmtOf(StoreAcc, assign(0, C.InitZero ? "=" : "+=", SV), StoreOps,
                B.N.Loc);
}

/// Replaces \p P's nests by the prologue nests and \p Main, each with only
/// its own arrays; \p Q's prepare nests are pruned likewise.
void installQuantized(Program &P, std::vector<LoopNest> &Prologue,
                      QuantPlan &Q, LoopNest &Main) {
  P.Nests.clear();
  for (LoopNest &X : Prologue) {
    X.Arrays = Main.Arrays;
    X.Sem = Main.Sem;
    pruneArrays(X);
    KernelNest K;
    K.Nest = std::move(X);
    P.Nests.push_back(std::move(K));
  }
  for (LoopNest &X : Q.Prepare) {
    X.Arrays = Main.Arrays;
    X.Sem = Main.Sem;
    pruneArrays(X);
  }
  pruneArrays(Main);
  KernelNest K;
  K.Nest = std::move(Main);
  P.Nests.push_back(std::move(K));
}


/// The weights of \p C as an operand over their loops, dimension by
/// dimension (Wt[k][9*c + 3*r + s]: k, c, r, s), and their subscripts.
Operand convWeights(const ConvInfo &C,
                    std::vector<std::optional<AffineExpr>> &Subs) {
  Operand W{C.W.Array, {}};
  for (const std::vector<ConvTerm> &D : C.W.Dims) {
    AffineExpr E(0);
    for (const ConvTerm &T : D) {
      W.Dims.push_back(T.IV);
      E = *E.add(AffineExpr::var(T.IV, T.Coeff));
    }
    Subs.push_back(E);
  }
  return W;
}

/// The prepare nests were built over the weights' loops: their accesses of
/// the weights and of the copy get the weights' own subscripts.
void useWeightSubscripts(std::vector<LoopNest> &Nests,
                         const std::set<std::string> &Arrays,
                         const std::vector<std::optional<AffineExpr>> &Subs) {
  std::string Text;
  for (const std::optional<AffineExpr> &S : Subs)
    Text += "[" + S->str() + "]";
  for (LoopNest &N : Nests) {
    Node Root = Node::loop(std::move(N.Root));
    forEachStmtInMutable(Root, [&](Stmt &St) {
      for (Access &A : St.Accesses)
        if (Arrays.count(A.ArrayName)) {
          A.Subscripts = Subs;
          A.Text = A.ArrayName + Text;
        }
    });
    N.Root = std::move(Root.loop());
  }
}

/// The weights' scale granularity \p R asks for (row: per output channel,
/// the default; or tensor); the input is one tensor, quantized on each call.
llvm::Expected<std::string> convScale(const ConvInfo &C,
                                      const TransformRecord &R) {
  std::string LG = "row";
  for (const auto &[Arr, Gran] : R.Scales) {
    if (Arr == C.W.Array && (Gran == "row" || Gran == "tensor"))
      LG = Gran;
    else if (Arr == C.In.Array && Gran == "tensor")
      continue;
    else if (Arr == C.W.Array || Arr == C.In.Array)
      return transformError("'" + Arr + "' has no " + Gran +
                            " scale in a convolution (the weights: row or "
                            "tensor; the input: tensor)");
    else
      return transformError("'" + Arr + "' is not an operand (" + C.W.Array +
                            ", " + C.In.Array + ")");
  }
  return LG;
}

/// quantize() of a convolution: the weights (the gemm's A) quantized or
/// rounded once by a prepare step, as for a gemm; CodeGen's quantized
/// implicit gemm quantizes the input's im2col view on each call. The nest
/// stays the IR', as under implicit_gemm (its packing is no nest).
llvm::Expected<std::string> quantizeConvolution(Program &P,
                                                const TransformRecord &R,
                                                ConvInfo Conv) {
  if (Conv.Elem != Precision::F32)
    return transformError("the convolution is not f32");
  std::vector<std::optional<AffineExpr>> WSubs;
  std::optional<Operand> W = convWeights(Conv, WSubs);
  bool Int8 = R.Precision == "int8";
  llvm::Expected<std::string> LG = Int8 ? convScale(Conv, R)
                                        : llvm::Expected<std::string>("");
  if (!LG)
    return LG.takeError();
  // The contraction view the prepare nests and the int8 tolerance need:
  // L the weights (a row scale varies along the output channel only), R
  // the input (a tensor scale).
  ContractionInfo Shell;
  Shell.First = Conv.First;
  Shell.Extent = Conv.Extent;
  Shell.M = Conv.M;
  Shell.Elem = Conv.Elem;
  Shell.InitZero = Conv.InitZero;
  Shell.Out = Operand{Conv.Out.Array, {}};
  Shell.L = Operand{Conv.W.Array, {}};
  for (const std::vector<ConvTerm> &D : Conv.W.Dims)
    Shell.L.Dims.push_back(D.size() == 1 && D[0].IV == Conv.M ? Conv.M : "");
  Shell.R = Operand{Conv.In.Array, {}};

  LoopNest Main = P.Nests.front().Nest;
  Builder B{Shell, Main};
  QuantPlan Q;
  Q.Precision = R.Precision;
  Q.C = Shell;
  std::string Wx = Conv.W.Array + (Int8 ? "_q" : "_bf16");
  const Array *WA = Main.findArray(Conv.W.Array);
  assert(WA && "recognizeConvolution checks the operands' arrays");
  std::vector<std::optional<AffineExpr>> WExt = WA->Extents;
  if (Int8) {
    std::string Ws = Conv.W.Array + "_scale";
    std::vector<std::string> SDims;
    if (*LG == "row")
      SDims = {Conv.M};
    B.addArray(Wx, Precision::I8, "signed char", WExt);
    B.addArray(Ws, Precision::F32, "float", B.extentsOver(SDims));
    Q.LGran = *LG;
    Q.RGran = "tensor";
    Q.Prepared = {Wx, Ws};
    Q.Prepare = quantizeNests(B, *W, Wx, Ws, SDims, Main);
  } else {
    B.addArray(Wx, Precision::BF16, "rl_bf16", WExt);
    Q.Prepared = {Wx};
    Q.Prepare = convertNests(B, *W, Wx, Main);
  }
  useWeightSubscripts(Q.Prepare, {Conv.W.Array, Wx}, WSubs);
  for (LoopNest &X : Q.Prepare) {
    X.Arrays = Main.Arrays;
    X.Sem = Main.Sem;
    pruneArrays(X);
  }
  P.Nests.front().Nest = std::move(Main);
  std::string Why = Conv.kind() + " " + Conv.Out.Array + " += " +
                    Conv.W.Array + " * im2col(" + Conv.In.Array + ") in " +
                    R.Precision +
                    (Int8 ? " (" + Conv.W.Array + " per " + *LG + ", " +
                                Conv.In.Array + " per tensor, int32 "
                                "accumulation)"
                          : std::string(" (f32 accumulation)"));
  P.Quant = std::move(Q);
  ConvPlan Plan;
  Plan.C = std::move(Conv);
  P.Conv = std::move(Plan);
  return Why;
}
} // namespace

/// Precondition (QuantizeScope::Contraction; the what-ifs' EveryOperand
/// scope is quantizeEveryOperand): the program is one untransformed nest
/// that is an f32 contraction (recognizeContraction); scales name its operands with a
/// granularity they have (row: L has an M loop; col: R has an N loop).
/// Numerics change by design: the manifest gives each precision its own
/// tolerance.
llvm::Expected<std::string> roofline::quantize(Program &P,
                                               const TransformRecord &R) {
  if (P.Quantize == QuantizeScope::EveryOperand)
    return quantizeEveryOperand(P, R);
  if (!P.Source && P.Applied.empty() && P.Nests.size() == 1)
    if (std::optional<ConvInfo> Conv =
            recognizeConvolution(P.Nests.front().Nest))
      return quantizeConvolution(P, R, std::move(*Conv));
  if (llvm::Error E = checkQuantizable(P))
    return std::move(E);
  const ContractionInfo &C = *P.Source;
  std::string LG, RG;
  if (llvm::Error E = scaleGranularities(C, R, LG, RG))
    return std::move(E);

  LoopNest Proto = P.Nests.front().Nest;
  LoopNest Main = mainNestShell(Proto, C);
  Builder B{C, Main};
  QuantPlan Q;
  Q.Precision = R.Precision;
  Q.C = C;
  LowOperands O;
  bool Int8 = R.Precision == "int8";
  std::vector<LoopNest> Prologue =
      Int8 ? addInt8Operands(B, C, Proto, Main, LG, RG, O, Q)
           : addBf16Operands(B, C, Proto, Main, O, Q);

  // The main nest: batch, M, N loops; acc; the K loop; the store; epilogue.
  const std::string Acc = "acc";
  Stmt DeclS = accumulatorDecl(Main, Acc, Int8);
  Stmt UpdS = macStmt(B, C, O, Acc, Int8);
  Stmt Store = accumulatorStore(B, C, O, Acc, Int8);
  std::vector<std::string> Outer = C.Batch;
  Outer.push_back(C.M);
  if (!C.N.empty())
    Outer.push_back(C.N);
  std::vector<Node> Body;
  Body.push_back(Node::stmt(std::move(DeclS)));
  Body.push_back(B.nestIn({C.K}, {Node::stmt(std::move(UpdS))}));
  Body.push_back(Node::stmt(std::move(Store)));
  for (const Stmt &E : C.Epilogue)
    Body.push_back(Node::stmt(E));
  for (const ScalarVar &V : Proto.Sem.Scalars)
    if (V.Kind == ScalarVar::Local)
      Main.Sem.Scalars.push_back(V);
  Main.Root = std::move(B.nestIn(Outer, std::move(Body)).loop());

  // The prologue nests use only their own arrays.
  installQuantized(P, Prologue, Q, Main);
  std::string Why = C.kind() + " " + C.Out.Array + " += " + C.L.Array + " * " +
                    C.R.Array + " in " + R.Precision;
  if (Int8)
    Why += " (" + C.L.Array + " per " + LG + ", " + C.R.Array + " per " + RG +
           ", int32 accumulation)";
  else
    Why += " (f32 accumulation)";
  P.Quant = std::move(Q);
  return Why;
}
