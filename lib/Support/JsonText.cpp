//===- JsonText.cpp - llvm::json::Value to text, fast ---------------------===//

#include "roofline/Support/JsonText.h"

#include "llvm/ADT/SmallVector.h"

#include <algorithm>
#include <charconv>
#include <cstring>
#include <limits>
#include <vector>

using namespace llvm;

namespace {

/// The text is written through a cursor into \p Out grown ahead (room()),
/// not appended piece by piece: std::string's appends checked and grew
/// the string for every brace, key and indent, most of the writing's cost
/// on a --format=json report (docs/results/speed.txt).
class Writer {
public:
  Writer(std::string &Out, unsigned IndentSize, unsigned Indent)
      : Out(Out), Used(Out.size()), IndentSize(IndentSize), Indent(Indent) {}
  ~Writer() { Out.resize(Used); }

  void value(const json::Value &V) {
    switch (V.kind()) {
    case json::Value::Null:
      return put("null", 4);
    case json::Value::Boolean:
      return *V.getAsBoolean() ? put("true", 4) : put("false", 5);
    case json::Value::Number:
      return number(V);
    case json::Value::String:
      return quoted(*V.getAsString());
    case json::Value::Array:
      return array(*V.getAsArray());
    case json::Value::Object:
      return object(*V.getAsObject());
    }
  }

private:
  std::string &Out;
  size_t Used; ///< Out's first Used characters are the text
  unsigned IndentSize;
  unsigned Indent;

  /// Room for \p N more characters at Out[Used].
  char *room(size_t N) {
    if (Used + N > Out.size())
      Out.resize(std::max(Used + N, 2 * Out.size() + 256));
    return &Out[Used];
  }
  void put(const char *S, size_t N) {
    std::memcpy(room(N), S, N);
    Used += N;
  }
  void put(char C) {
    *room(1) = C;
    ++Used;
  }

  /// ",\n" and the indent, or "\n" and the indent: one copy.
  void newline(bool Comma) {
    if (!IndentSize) {
      if (Comma)
        put(',');
      return;
    }
    char *P = room(Indent + 2);
    if (Comma)
      *P++ = ',';
    *P++ = '\n';
    std::memset(P, ' ', Indent);
    Used = static_cast<size_t>(P + Indent - Out.data());
  }

  /// The escapes of llvm/lib/Support/JSON.cpp's quote(): \" \\ \t \n \r
  /// and \u00XX for the other control characters. Strings in a json::Value
  /// are valid UTF-8 already (fixed when the value was built). Room for the
  /// worst case (six characters per byte) is made once.
  void quoted(StringRef S) {
    char *P = room(6 * S.size() + 2);
    char *Start = P;
    *P++ = '"';
    for (unsigned char C : S) {
      if (C >= 0x20 && C != '"' && C != '\\') {
        *P++ = static_cast<char>(C);
        continue;
      }
      *P++ = '\\';
      switch (C) {
      case '"':
      case '\\':
        *P++ = static_cast<char>(C);
        break;
      case '\t':
        *P++ = 't';
        break;
      case '\n':
        *P++ = 'n';
        break;
      case '\r':
        *P++ = 'r';
        break;
      default: {
        static const char Hex[] = "0123456789abcdef";
        *P++ = 'u';
        *P++ = '0';
        *P++ = '0';
        *P++ = Hex[C >> 4];
        *P++ = Hex[C & 15];
        break;
      }
      }
    }
    *P++ = '"';
    Used += static_cast<size_t>(P - Start);
  }

  /// OStream prints an integer (int64 or uint64) in decimal and a double
  /// with "%.17g". The type is private to json::Value; getAsUINT64()
  /// answers for the integers >= 0 only, and "%.17g" prints every integer
  /// of magnitude below 2^53 exactly as "%lld" does, so the two differ only
  /// for an int64 below -2^53, which no report holds. std::to_chars with a
  /// precision prints as printf does with that precision in the "C" locale
  /// (the standard's words), without printf's cost.
  void number(const json::Value &V) {
    char *P = room(40);
    std::to_chars_result R;
    if (std::optional<uint64_t> U = V.getAsUINT64())
      R = std::to_chars(P, P + 40, *U);
    else
      R = std::to_chars(P, P + 40, *V.getAsNumber(),
                        std::chars_format::general,
                        std::numeric_limits<double>::max_digits10);
    Used += static_cast<size_t>(R.ptr - P);
  }

  void array(const json::Array &A) {
    put('[');
    Indent += IndentSize;
    bool First = true;
    for (const json::Value &E : A) {
      newline(!First);
      First = false;
      value(E);
    }
    Indent -= IndentSize;
    if (!A.empty())
      newline(false);
    put(']');
  }

  /// Byte order of the keys (StringRef's <), without a call per compare.
  static bool keyLess(const json::Object::value_type *L,
                      const json::Object::value_type *R) {
    StringRef A = L->first, B = R->first;
    size_t N = std::min(A.size(), B.size());
    for (size_t I = 0; I < N; ++I)
      if (A[I] != B[I])
        return static_cast<unsigned char>(A[I]) <
               static_cast<unsigned char>(B[I]);
    return A.size() < B.size();
  }

  void object(const json::Object &O) {
    // OStream writes the members in key order (json::sortedElements).
    llvm::SmallVector<const json::Object::value_type *, 32> Members;
    Members.reserve(O.size());
    for (const json::Object::value_type &E : O)
      Members.push_back(&E);
    std::sort(Members.begin(), Members.end(), keyLess);
    put('{');
    Indent += IndentSize;
    bool First = true;
    for (const json::Object::value_type *E : Members) {
      newline(!First);
      First = false;
      quoted(E->first);
      if (IndentSize)
        put(": ", 2);
      else
        put(':');
      value(E->second);
    }
    Indent -= IndentSize;
    if (!Members.empty())
      newline(false);
    put('}');
  }
};

} // namespace

void roofline::appendJson(std::string &Out, const json::Value &V,
                          unsigned IndentSize, unsigned Indent) {
  Writer(Out, IndentSize, Indent).value(V);
}

std::string roofline::jsonText(const json::Value &V, unsigned IndentSize) {
  std::string Out;
  appendJson(Out, V, IndentSize);
  return Out;
}
