//===- LoopNest.cpp - LoopNest IR helpers ----------------------------------===//

#include "roofline/IR/LoopNest.h"
#include "roofline/IR/RenameIVs.h"

#include <algorithm>
#include <set>

using namespace roofline;

const char *roofline::precisionName(Precision P) {
  switch (P) {
  case Precision::F64: return "f64";
  case Precision::F32: return "f32";
  case Precision::F16: return "f16";
  case Precision::BF16: return "bf16";
  case Precision::I8: return "i8";
  case Precision::I16: return "i16";
  case Precision::I32: return "i32";
  case Precision::I64: return "i64";
  case Precision::Unknown: return "unknown";
  }
  return "unknown";
}

std::optional<Precision> roofline::parsePrecision(const std::string &Name) {
  for (Precision P : {Precision::F64, Precision::F32, Precision::F16,
                      Precision::BF16, Precision::I8, Precision::I16, Precision::I32,
                      Precision::I64})
    if (Name == precisionName(P))
      return P;
  return std::nullopt;
}

unsigned roofline::precisionBytes(Precision P) {
  switch (P) {
  case Precision::F64: case Precision::I64: return 8;
  case Precision::F32: case Precision::I32: return 4;
  case Precision::F16: case Precision::BF16: case Precision::I16: return 2;
  case Precision::I8: return 1;
  case Precision::Unknown: return 0;
  }
  return 0;
}

bool roofline::isFloating(Precision P) {
  return P == Precision::F64 || P == Precision::F32 || P == Precision::F16 ||
         P == Precision::BF16;
}

const Array *LoopNest::findArray(const std::string &Name) const {
  for (const Array &A : Arrays)
    if (A.Name == Name)
      return &A;
  return nullptr;
}

const Param *LoopNest::findParam(const std::string &Name) const {
  for (const Param &P : Params)
    if (P.Name == Name)
      return &P;
  return nullptr;
}

static std::string sizeTermsText(const std::vector<SizeTerm> &Terms) {
  std::string S;
  for (const SizeTerm &T : Terms) {
    int64_t Mag = T.Coeff < 0 ? -T.Coeff : T.Coeff;
    std::string Term;
    if (Mag != 1 || T.Factors.empty())
      Term = std::to_string(Mag);
    for (const std::string &F : T.Factors)
      Term += (Term.empty() ? "" : "*") + F;
    if (S.empty())
      S = (T.Coeff < 0 ? "-" : "") + Term;
    else
      S += (T.Coeff < 0 ? " - " : " + ") + Term;
  }
  return S.empty() ? "0" : S;
}

std::string DerivedSize::str() const {
  std::string Num = sizeTermsText(Numerator);
  if (Denominator.empty())
    return Num;
  std::string Den = sizeTermsText(Denominator);
  auto Wrap = [](const std::string &T, const std::vector<SizeTerm> &Terms) {
    bool Simple = Terms.size() == 1 && (Terms[0].Factors.size() +
                                        (Terms[0].Coeff != 1)) <= 1;
    return Simple ? T : "(" + T + ")";
  };
  return Wrap(Num, Numerator) + " / " + Wrap(Den, Denominator);
}

void roofline::renameUses(std::vector<Node> &Body, const std::string &Old,
                          const std::string &New) {
  AffineExpr V = AffineExpr::var(New);
  auto Fix = [&](AffineExpr &E) {
    if (E.uses(Old))
      E = *E.substitute(Old, V); // coefficient * 1: cannot overflow
  };
  for (Node &N : Body) {
    if (!N.isLoop()) {
      for (Access &A : N.S.Accesses)
        for (std::optional<AffineExpr> &S : A.Subscripts)
          if (S)
            Fix(*S);
      continue;
    }
    Loop &L = N.loop();
    for (BoundTerm &T : L.First.Terms)
      Fix(T.Expr);
    for (BoundTerm &T : L.Last.Terms)
      Fix(T.Expr);
    if (L.IV != Old)
      renameUses(L.Body, Old, New);
  }
}

void roofline::uniquifyIVs(Loop &L, std::set<std::string> &Scope,
                           unsigned &Counter) {
  if (Scope.count(L.IV)) {
    std::string New;
    do
      New = L.IV + "." + std::to_string(++Counter);
    while (Scope.count(New));
    renameUses(L.Body, L.IV, New);
    L.IV = New;
  }
  Scope.insert(L.IV);
  for (Node &N : L.Body)
    if (N.isLoop())
      uniquifyIVs(N.loop(), Scope, Counter);
  Scope.erase(L.IV);
}

bool roofline::hasScratch(const LoopNest &N) {
  for (const Array &A : N.Arrays)
    if (A.Scratch)
      return true;
  return false;
}

const Loop *roofline::earlyExitLoop(const Loop &Root) {
  if (Root.ExitsEarly)
    return &Root;
  for (const Node &N : Root.Body)
    if (N.isLoop())
      if (const Loop *L = earlyExitLoop(N.loop()))
        return L;
  return nullptr;
}

Loop roofline::firstIterationsOnly(const Loop &Root) {
  Loop R = Root;
  if (R.ExitsEarly)
    R.Last = R.First;
  for (Node &N : R.Body)
    if (N.isLoop())
      N.loop() = firstIterationsOnly(N.loop());
  return R;
}

static void dropAccesses(Loop &L, const std::set<std::string> &Names) {
  for (Node &N : L.Body) {
    if (N.isLoop()) {
      dropAccesses(N.loop(), Names);
      continue;
    }
    auto &A = N.S.Accesses;
    A.erase(std::remove_if(A.begin(), A.end(),
                           [&](const Access &X) {
                             return Names.count(X.ArrayName) != 0;
                           }),
            A.end());
  }
}

LoopNest roofline::withoutScratch(const LoopNest &N) {
  LoopNest R = N;
  std::set<std::string> Names;
  for (const Array &A : N.Arrays)
    if (A.Scratch)
      Names.insert(A.Name);
  R.Arrays.erase(std::remove_if(R.Arrays.begin(), R.Arrays.end(),
                                [](const Array &A) { return A.Scratch; }),
                 R.Arrays.end());
  dropAccesses(R.Root, Names);
  return R;
}
