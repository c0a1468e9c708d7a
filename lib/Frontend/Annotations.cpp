//===- Annotations.cpp - `// roofline: N=4096` size annotations ------------===//

#include "roofline/Frontend/Annotations.h"

#include "llvm/ADT/SmallVector.h"
#include "llvm/ADT/StringExtras.h"

using namespace llvm;

llvm::Expected<std::optional<roofline::SizeMap>>
roofline::parseNestAnnotation(StringRef Line) {
  StringRef S = Line.trim();
  if (!S.consume_front("//"))
    return std::nullopt;
  S = S.ltrim();
  if (!S.consume_front("roofline:"))
    return std::nullopt;
  auto Bad = [&](const Twine &Why) {
    return createStringError(inconvertibleErrorCode(),
                             "malformed roofline annotation: " + Why +
                                 " (expected '// roofline: N=4096 M=512')");
  };
  SizeMap Out;
  SmallVector<StringRef, 8> Tokens;
  SplitString(S, Tokens, " \t,");
  // NAME, a field path (p->dim, cfg.n_heads), either scoped to a function
  // (gelu:N).
  auto IsIdent = [](StringRef N) {
    return !N.empty() && (isAlpha(N[0]) || N[0] == '_') &&
           all_of(N, [](char C) { return isAlnum(C) || C == '_'; });
  };
  auto IsPath = [&](StringRef N) {
    auto [Fn, Rest] = N.split(':');
    if (Rest.empty())
      Rest = Fn;
    else if (!IsIdent(Fn))
      return false;
    SmallVector<StringRef, 4> Parts;
    Rest.split(Parts, '.');
    for (StringRef P : Parts) {
      SmallVector<StringRef, 4> Arrows;
      P.split(Arrows, "->");
      if (!all_of(Arrows, IsIdent))
        return false;
    }
    return true;
  };
  for (StringRef T : Tokens) {
    auto [Name, Value] = T.split('=');
    int64_t V;
    bool NameOk = IsPath(Name);
    if (!NameOk || !T.contains('=') || Value.getAsInteger(10, V))
      return Bad("'" + T + "' is not NAME=INTEGER");
    Out[Name.str()] = V;
  }
  if (Out.empty())
    return Bad("no sizes given");
  return std::optional<SizeMap>(std::move(Out));
}
