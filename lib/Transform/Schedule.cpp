//===- Schedule.cpp - Schedule syntax: print and parse ---------------------===//

#include "roofline/Transform/Schedule.h"

#include "llvm/ADT/StringRef.h"
#include "llvm/ADT/StringSwitch.h"
#include "llvm/Support/raw_ostream.h"

#include <cassert>

#include <optional>

using namespace roofline;
using llvm::StringRef;

const char *TransformRecord::kindName(KindTy K) {
  switch (K) {
  case Interchange: return "interchange";
  case Permute: return "permute";
  case StripMine: return "stripmine";
  case Tile: return "tile";
  case UnrollJam: return "unroll_jam";
  case RegBlock: return "regblock";
  case Pack: return "pack";
  case Parallel: return "parallel";
  case Vectorize: return "vectorize";
  case Fuse: return "fuse";
  case Contract: return "contract";
  case Quantize: return "quantize";
  case ImplicitGemm: return "implicit_gemm";
  }
  return "?";
}

std::string TransformRecord::str() const {
  std::string S = kindName(Kind);
  if (Kind == Fuse)
    return S;
  S += "(";
  if (Kind == Quantize) {
    S += Precision;
    for (const auto &[Array, Gran] : Scales)
      S += "," + Array + ":" + Gran;
    return S + ")";
  }
  for (size_t I = 0; I < Names.size(); ++I) {
    S += (I ? "," : "") + Names[I];
    if (I < Sizes.size())
      S += ":" + std::to_string(Sizes[I]);
  }
  return S + ")";
}

std::string Schedule::str() const {
  std::string S;
  for (const TransformRecord &R : Records)
    S += (S.empty() ? "" : "; ") + R.str();
  return S;
}

namespace {

llvm::Error bad(StringRef Record, const llvm::Twine &Why) {
  return llvm::createStringError(llvm::inconvertibleErrorCode(),
                                 "schedule record '" + Record + "': " + Why);
}

bool isIdent(StringRef S) {
  if (S.empty() || !(isalpha(S[0]) || S[0] == '_'))
    return false;
  return llvm::all_of(S, [](char C) { return isalnum(C) || C == '_'; });
}

/// Splits at ';' and newlines; blank records are skipped.
std::vector<StringRef> splitRecords(StringRef Text) {
  std::vector<StringRef> Out;
  while (!Text.empty()) {
    size_t Cut = Text.find_first_of(";\n");
    StringRef R = Text.substr(0, Cut).trim();
    if (!R.empty())
      Out.push_back(R);
    if (Cut == StringRef::npos)
      break;
    Text = Text.substr(Cut + 1);
  }
  return Out;
}

bool takesSizes(TransformRecord::KindTy K) {
  return K == TransformRecord::StripMine || K == TransformRecord::Tile ||
         K == TransformRecord::UnrollJam || K == TransformRecord::RegBlock ||
         K == TransformRecord::ImplicitGemm;
}

/// The checks of a record that need all of it: how many names its kind
/// takes, and each named once. \p Text names the record in the error.
llvm::Error checkShape(const TransformRecord &T, StringRef Text) {
  auto Count = T.Names.size();
  if (T.Kind == TransformRecord::ImplicitGemm &&
      T.Names != std::vector<std::string>{"mc", "nc", "kc", "mr", "nr"})
    return bad(Text, "implicit_gemm takes the blocks mc, nc, kc, mr, nr");
  if (T.Kind == TransformRecord::Interchange && Count != 2)
    return bad(Text, "interchange takes two loops");
  if ((T.Kind == TransformRecord::StripMine ||
       T.Kind == TransformRecord::UnrollJam ||
       T.Kind == TransformRecord::Parallel ||
       T.Kind == TransformRecord::Vectorize) &&
      Count != 1)
    return bad(Text, "takes one loop");
  for (size_t I = 0; I < Count; ++I)
    for (size_t J = I + 1; J < Count; ++J)
      if (T.Names[I] == T.Names[J])
        return bad(Text, "'" + T.Names[I] + "' is named twice");
  return llvm::Error::success();
}

/// The checks the parser makes while it reads a record, for one built as
/// a value.
llvm::Error checkParts(const TransformRecord &T, StringRef Text) {
  if (T.Kind == TransformRecord::Quantize) {
    if (T.Precision != "int8" && T.Precision != "bf16")
      return bad(Text, "precision must be int8 or bf16");
    for (const auto &[Arr, Gran] : T.Scales)
      if (!isIdent(Arr) || (Gran != "row" && Gran != "col" && Gran != "tensor") ||
          T.Precision == "bf16")
        return bad(Text, "scale '" + Arr + ":" + Gran + "' is malformed");
    return llvm::Error::success();
  }
  if (T.Kind != TransformRecord::Fuse && T.Names.empty())
    return bad(Text, "expected arguments");
  for (const std::string &N : T.Names)
    if (!isIdent(N))
      return bad(Text, "'" + N + "' is not a name");
  if (takesSizes(T.Kind) ? T.Sizes.size() != T.Names.size() : !T.Sizes.empty())
    return bad(Text, "needs one size per name, or none");
  for (int64_t S : T.Sizes)
    if (S < 1)
      return bad(Text, "size '" + llvm::Twine(S) + "' must be a positive integer");
  return llvm::Error::success();
}

llvm::Expected<TransformRecord> parseRecord(StringRef R) {
  TransformRecord T;
  size_t Open = R.find('(');
  StringRef Name = R.substr(0, Open).trim();
  auto Kind = llvm::StringSwitch<int>(Name)
                  .Case("interchange", TransformRecord::Interchange)
                  .Case("permute", TransformRecord::Permute)
                  .Case("stripmine", TransformRecord::StripMine)
                  .Case("strip_mine", TransformRecord::StripMine)
                  .Case("tile", TransformRecord::Tile)
                  .Case("unroll_jam", TransformRecord::UnrollJam)
                  .Case("regblock", TransformRecord::RegBlock)
                  .Case("pack", TransformRecord::Pack)
                  .Case("parallel", TransformRecord::Parallel)
                  .Case("vectorize", TransformRecord::Vectorize)
                  .Case("fuse", TransformRecord::Fuse)
                  .Case("contract", TransformRecord::Contract)
                  .Case("quantize", TransformRecord::Quantize)
                  .Case("implicit_gemm", TransformRecord::ImplicitGemm)
                  .Default(-1);
  if (Kind < 0)
    return bad(R, "unknown transform '" + Name +
                      "' (interchange, permute, stripmine, tile, unroll_jam, "
                      "regblock, pack, parallel, vectorize, fuse, contract, "
                      "quantize, implicit_gemm)");
  T.Kind = static_cast<TransformRecord::KindTy>(Kind);
  StringRef Args;
  if (Open != StringRef::npos) {
    if (!R.ends_with(")"))
      return bad(R, "missing ')'");
    Args = R.substr(Open + 1, R.size() - Open - 2).trim();
  }
  if (T.Kind == TransformRecord::Fuse) {
    if (!Args.empty())
      return bad(R, "fuse takes no arguments");
    return T;
  }
  if (Args.empty())
    return bad(R, "expected arguments");
  llvm::SmallVector<StringRef, 8> Parts;
  Args.split(Parts, ',');

  if (T.Kind == TransformRecord::Quantize) {
    T.Precision = Parts[0].trim().str();
    if (T.Precision != "int8" && T.Precision != "bf16")
      return bad(R, "precision must be int8 or bf16");
    for (size_t I = 1; I < Parts.size(); ++I) {
      auto [Arr, Gran] = Parts[I].split(':');
      Arr = Arr.trim();
      Gran = Gran.trim();
      if (!isIdent(Arr) ||
          (Gran != "row" && Gran != "col" && Gran != "tensor"))
        return bad(R, "scale '" + Parts[I].trim() +
                          "' must be ARRAY:row, ARRAY:col or ARRAY:tensor");
      if (T.Precision == "bf16")
        return bad(R, "bf16 has no scales");
      T.Scales.push_back({Arr.str(), Gran.str()});
    }
    return T;
  }

  bool TakesSizes = takesSizes(T.Kind);
  std::vector<std::optional<int64_t>> Sizes;
  for (StringRef P : Parts) {
    auto [N, Sz] = P.split(':');
    N = N.trim();
    Sz = Sz.trim();
    if (!isIdent(N))
      return bad(R, "'" + N + "' is not a name");
    T.Names.push_back(N.str());
    if (P.contains(':')) {
      int64_t V;
      if (!TakesSizes)
        return bad(R, "takes no sizes");
      if (Sz.getAsInteger(10, V) || V < 1)
        return bad(R, "size '" + Sz + "' must be a positive integer");
      Sizes.push_back(V);
    } else {
      Sizes.push_back(std::nullopt);
    }
  }
  if (TakesSizes) {
    // "tile(i,j,k:32)": a size applies to the names before it that have
    // none ("i,j,k:32" is 32 for all three).
    std::optional<int64_t> Pending;
    for (size_t I = Sizes.size(); I-- > 0;) {
      if (Sizes[I])
        Pending = Sizes[I];
      else if (Pending)
        Sizes[I] = Pending;
      else
        return bad(R, "'" + T.Names[I] + "' has no size");
    }
    for (auto &S : Sizes)
      T.Sizes.push_back(*S);
  }
  if (llvm::Error E = checkShape(T, R))
    return std::move(E);
  return T;
}

/// Our own records must be what the parser would accept.
void assertWellFormed(const TransformRecord &R) {
#ifndef NDEBUG
  if (llvm::Error E = R.check()) {
    llvm::errs() << llvm::toString(std::move(E)) << "\n";
    assert(false && "a schedule record built by the tool is malformed");
  }
#else
  (void)R;
#endif
}

} // namespace

llvm::Error TransformRecord::check() const {
  std::string Text = str();
  if (llvm::Error E = checkParts(*this, Text))
    return E;
  return checkShape(*this, Text);
}

TransformRecord TransformRecord::make(KindTy K, std::vector<std::string> Names,
                                      std::vector<int64_t> Sizes) {
  TransformRecord R;
  R.Kind = K;
  R.Names = std::move(Names);
  R.Sizes = std::move(Sizes);
  assertWellFormed(R);
  return R;
}

TransformRecord TransformRecord::quantize(const std::string &Prec) {
  TransformRecord R;
  R.Kind = Quantize;
  R.Precision = Prec;
  assertWellFormed(R);
  return R;
}

llvm::Expected<Schedule> Schedule::parse(const std::string &Text) {
  Schedule S;
  for (StringRef R : splitRecords(Text)) {
    llvm::Expected<TransformRecord> T = parseRecord(R);
    if (!T)
      return T.takeError();
    S.Records.push_back(std::move(*T));
  }
  return S;
}
