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
  for (StringRef T : Tokens) {
    auto [Name, Value] = T.split('=');
    int64_t V;
    bool NameOk = !Name.empty() && (isAlpha(Name[0]) || Name[0] == '_') &&
                  all_of(Name, [](char C) { return isAlnum(C) || C == '_'; });
    if (!NameOk || !T.contains('=') || Value.getAsInteger(10, V))
      return Bad("'" + T + "' is not NAME=INTEGER");
    Out[Name.str()] = V;
  }
  if (Out.empty())
    return Bad("no sizes given");
  return std::optional<SizeMap>(std::move(Out));
}
