//===- SizesFile.cpp - --sizes=model.yaml: the sizes of a whole model -----===//
//
// Parsed with YAMLIO, like .roofline.yaml (lib/Config/Config.cpp): a value
// that is no integer and a key that is no size name are errors at their
// line, so a typo cannot leave a size silently unset.
//
//===----------------------------------------------------------------------===//

#include "roofline/Config/SizesFile.h"

#include "llvm/ADT/StringExtras.h"
#include "llvm/Support/JSON.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/SourceMgr.h"
#include "llvm/Support/YAMLTraits.h"
#include "llvm/Support/raw_ostream.h"

using namespace llvm;
using namespace roofline;

namespace {

struct SizeValue {
  int64_t V = 0;
};
/// Stands in for the value of a key that is no size name, so the error is
/// reported at that entry.
struct BadSizeKey {
  std::string Key;
};
using SizeMap = std::map<std::string, SizeValue>;

/// Storage for the message a ScalarTraits::input returns.
std::string &message(void *Ctxt) { return *static_cast<std::string *>(Ctxt); }

bool isIdent(StringRef S) {
  return !S.empty() && (isAlpha(S[0]) || S[0] == '_') &&
         llvm::all_of(S, [](char C) { return isAlnum(C) || C == '_'; });
}

/// `a`, `a.b`, `a->b.c`.
bool isFieldPath(StringRef S) {
  while (true) {
    size_t Dot = S.find('.'), Arrow = S.find("->");
    size_t Cut = std::min(Dot, Arrow);
    if (Cut == StringRef::npos)
      return isIdent(S);
    if (!isIdent(S.take_front(Cut)))
      return false;
    S = S.drop_front(Cut + (Cut == Arrow ? 2 : 1));
  }
}

/// `f`, `ns::f`.
bool isFunctionName(StringRef S) {
  SmallVector<StringRef, 4> Parts;
  S.split(Parts, "::");
  return llvm::all_of(Parts, isIdent);
}

void collectDiag(const SMDiagnostic &D, void *Out) {
  raw_string_ostream OS(*static_cast<std::string *>(Out));
  OS << D.getFilename() << ":" << D.getLineNo() << ":" << (D.getColumnNo() + 1)
     << ": error: " << D.getMessage() << "\n";
}

} // namespace

namespace llvm {
namespace yaml {

template <> struct ScalarTraits<SizeValue> {
  static void output(const SizeValue &S, void *, raw_ostream &OS) {
    OS << S.V;
  }
  static StringRef input(StringRef S, void *Ctxt, SizeValue &V) {
    if (S.trim().getAsInteger(10, V.V))
      return message(Ctxt) = "expected an integer size, got '" + S.str() + "'";
    return {};
  }
  static QuotingType mustQuote(StringRef) { return QuotingType::None; }
};

template <> struct ScalarTraits<BadSizeKey> {
  static void output(const BadSizeKey &, void *, raw_ostream &) {}
  static StringRef input(StringRef, void *Ctxt, BadSizeKey &B) {
    return message(Ctxt) =
               "'" + B.Key +
               "' is not a size name (NAME, a field path such as p->dim or "
               "cfg.dim, or FUNCTION:NAME)";
  }
  static QuotingType mustQuote(StringRef) { return QuotingType::None; }
};

template <> struct CustomMappingTraits<SizeMap> {
  static void inputOne(IO &IO, StringRef Key, SizeMap &M) {
    if (!isSizeKey(Key)) {
      BadSizeKey B{Key.str()};
      IO.mapRequired(Key.str().c_str(), B);
      return;
    }
    IO.mapRequired(Key.str().c_str(), M[Key.str()]);
  }
  static void output(IO &IO, SizeMap &M) {
    for (auto &[Name, V] : M)
      IO.mapRequired(Name.c_str(), V);
  }
};

} // namespace yaml
} // namespace llvm

bool roofline::isSizeKey(StringRef Key) {
  // The function part ends at the last ':' that is not half of a '::'.
  for (size_t I = Key.size(); I-- > 0;)
    if (Key[I] == ':' && (I == 0 || Key[I - 1] != ':') &&
        (I + 1 == Key.size() || Key[I + 1] != ':'))
      return isFunctionName(Key.take_front(I)) &&
             isFieldPath(Key.drop_front(I + 1));
  return isFieldPath(Key);
}

Expected<std::map<std::string, int64_t>>
roofline::parseSizesFile(StringRef Yaml, StringRef Path) {
  if (!json::isUTF8(Yaml))
    return createStringError(inconvertibleErrorCode(),
                             "%s: error: the sizes file is not valid UTF-8",
                             Path.str().c_str());
  std::string Errors, Message;
  SizeMap Sizes;
  {
    yaml::Input In(MemoryBufferRef(Yaml, Path), &Message, collectDiag, &Errors);
    In >> Sizes;
    if (In.error() && Errors.empty())
      Errors = (Path + ": error: cannot parse the sizes file\n").str();
  }
  if (!Errors.empty())
    return createStringError(inconvertibleErrorCode(),
                             StringRef(Errors).rtrim('\n').str());
  std::map<std::string, int64_t> Out;
  for (const auto &[K, V] : Sizes)
    Out[K] = V.V;
  return Out;
}

Expected<std::map<std::string, int64_t>>
roofline::loadSizesFile(StringRef Path) {
  ErrorOr<std::unique_ptr<MemoryBuffer>> Buf =
      MemoryBuffer::getFile(Path, /*IsText=*/true);
  if (!Buf)
    return createStringError(Buf.getError(), "cannot read sizes file '%s': %s",
                             Path.str().c_str(),
                             Buf.getError().message().c_str());
  return parseSizesFile((*Buf)->getBuffer(), Path);
}
