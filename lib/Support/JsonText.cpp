//===- JsonText.cpp - llvm::json::Value to text, fast ---------------------===//

#include "roofline/Support/JsonText.h"

#include "llvm/ADT/SmallVector.h"

#include <algorithm>
#include <cassert>
#include <charconv>
#include <cmath>
#include <cstring>
#include <limits>
#include <vector>

using namespace llvm;
using namespace roofline;

// The text is written through a cursor into Out grown ahead (room()), not
// appended piece by piece: std::string's appends checked and grew the
// string for every brace, key and indent, most of the writing's cost on a
// --format=json report (docs/results/speed.txt).

char *JsonWriter::room(size_t N) {
  // Grown by what this writer wrote so far, not by the string's size: a
  // caller appending many small values to one long text (SARIF's results)
  // would have the whole text zero-filled for each.
  if (Used + N > Out.size())
    Out.resize(Used + std::max(N, Used - Start + 256));
  return &Out[Used];
}

void JsonWriter::put(const char *S, size_t N) {
  std::memcpy(room(N), S, N);
  Used += N;
}

void JsonWriter::put(char C) {
  *room(1) = C;
  ++Used;
}

/// Inlined into newline() and key(literal), each of which makes the room
/// first: the members are read after room(), which may grow Out, as the two
/// read them when each wrote its own copy (no more instructions).
inline char *JsonWriter::separator(char *P, bool Comma) {
  if (Comma)
    *P++ = ',';
  if (IndentSize) {
    *P++ = '\n';
    std::memset(P, ' ', Indent);
    P += Indent;
  }
  return P;
}

void JsonWriter::newline(bool Comma) {
  char *P = separator(room(Indent + 2), Comma);
  Used = static_cast<size_t>(P - Out.data());
}

namespace {
/// The characters quote() escapes: the control characters, '"' and '\\';
/// with \p StopAtHigh also the bytes of multi-byte UTF-8 sequences, where
/// a string not known to be valid UTF-8 is checked.
struct EscapeTable {
  bool T[256] = {};
  constexpr EscapeTable(bool StopAtHigh) {
    for (int C = 0; C < 0x20; ++C)
      T[C] = true;
    T[static_cast<unsigned char>('"')] = true;
    T[static_cast<unsigned char>('\\')] = true;
    for (int C = 0x80; C < 0x100 && StopAtHigh; ++C)
      T[C] = true;
  }
  constexpr bool operator[](unsigned char C) const { return T[C]; }
};
constexpr EscapeTable NeedsEscape(false), NeedsEscapeOrCheck(true);
} // namespace

/// The escapes of llvm/lib/Support/JSON.cpp's quote(): \" \\ \t \n \r and
/// \u00XX for the other control characters. Strings in a json::Value are
/// valid UTF-8 already (fixed when the value was built). Room for the worst
/// case (six characters per byte) is made once.
void JsonWriter::quoted(StringRef S, bool KnownUTF8) {
  char *P = room(6 * S.size() + 2);
  char *Start = P;
  *P++ = '"';
  // A string not known to be UTF-8 is checked at its first byte above
  // ASCII, if it has one: most have none, and the scan is this one.
  const EscapeTable *Stop = KnownUTF8 ? &NeedsEscape : &NeedsEscapeOrCheck;
  const char *I = S.begin(), *E = S.end();
  while (I != E) {
    // Most text needs no escape: the run up to the next character that
    // does is found by one table lookup per character and copied at once.
    const char *Run = I;
    while (I != E && !(*Stop)[static_cast<unsigned char>(*I)])
      ++I;
    std::memcpy(P, Run, static_cast<size_t>(I - Run));
    P += I - Run;
    if (I == E)
      break;
    if (static_cast<unsigned char>(*I) >= 0x80) {
      // What came before is ASCII: the rest starts a sequence.
      if (LLVM_UNLIKELY(!json::isUTF8(StringRef(I, E - I))))
        return quoted(json::fixUTF8(S)); // nothing written is kept
      Stop = &NeedsEscape;
      continue;
    }
    unsigned char C = static_cast<unsigned char>(*I++);
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

/// OStream prints an integer (int64 or uint64) in decimal and a double with
/// "%.17g". The type is private to json::Value; getAsUINT64() answers for
/// the integers >= 0 only, and "%.17g" prints every integer of magnitude
/// below 2^53 exactly as "%lld" does, so the two differ only for an int64
/// below -2^53, which no report holds. std::to_chars with a precision
/// prints as printf does with that precision in the "C" locale (the
/// standard's words), without printf's cost.
void JsonWriter::numberOf(const json::Value &V) {
  if (std::optional<uint64_t> U = V.getAsUINT64()) {
    char *P = room(40);
    Used += static_cast<size_t>(std::to_chars(P, P + 40, *U).ptr - P);
    return;
  }
  double D = *V.getAsNumber();
  char *P = room(40);
  // "%.17g" prints an integral double of magnitude below 1e17 (exactly an
  // integer there) as its integer's digits: those are cheaper to make.
  // -0.0 prints "-0", and NaN and infinity fail the test.
  if (D == std::trunc(D) && std::fabs(D) < 1e17 && !(D == 0 && std::signbit(D))) {
    Used += static_cast<size_t>(
        std::to_chars(P, P + 40, static_cast<int64_t>(D)).ptr - P);
    return;
  }
  Used += static_cast<size_t>(
      std::to_chars(P, P + 40, D, std::chars_format::general,
                    std::numeric_limits<double>::max_digits10)
          .ptr -
      P);
}

/// What comes before a value: nothing after a key, the separator and the
/// line break in an array.
void JsonWriter::beginValue() {
  if (AfterKey) {
    AfterKey = false;
    return;
  }
  if (Open.empty())
    return;
  newline(Open.back());
  Open.back() = true;
}

void JsonWriter::value(const json::Value &V) {
  beginValue();
  tree(V);
}

void JsonWriter::object(const json::Object &O, ArrayRef<Member> Extra) {
  beginValue();
  treeObject(O, Extra);
}

void JsonWriter::objectBegin() {
  beginValue();
  put('{');
  Open.push_back(false);
  Indent += IndentSize;
}

void JsonWriter::objectEnd() {
  Indent -= IndentSize;
  if (Open.pop_back_val())
    newline(false);
  put('}');
}

void JsonWriter::arrayBegin() {
  beginValue();
  put('[');
  Open.push_back(false);
  Indent += IndentSize;
}

void JsonWriter::arrayEnd() {
  Indent -= IndentSize;
  if (Open.pop_back_val())
    newline(false);
  put(']');
}

void JsonWriter::key(StringRef K) {
  newline(Open.back());
  Open.back() = true;
  quoted(K);
  if (IndentSize)
    put(": ", 2);
  else
    put(':');
  AfterKey = true;
}

char *JsonWriter::literalKeyStart(const char *K, size_t N) {
#ifndef NDEBUG
  // A literal needs no escape, and is the whole array (no buffer).
  assert(std::strlen(K) == N && "a key literal is its whole array");
  for (size_t I = 0; I < N; ++I)
    assert(!NeedsEscapeOrCheck[static_cast<unsigned char>(K[I])] &&
           "a key literal needs no escape");
#endif
  (void)K;
  bool Comma = Open.back();
  Open.back() = true;
  // ",\n", the indent, the quotes, the key and ": ".
  char *P = separator(room(Indent + N + 6), Comma);
  *P++ = '"';
  return P;
}

void JsonWriter::literalKeyEnd(char *P) {
  *P++ = '"';
  *P++ = ':';
  if (IndentSize)
    *P++ = ' ';
  Used = static_cast<size_t>(P - Out.data());
  AfterKey = true;
}

void JsonWriter::null() {
  beginValue();
  put("null", 4);
}

void JsonWriter::boolean(bool B) {
  beginValue();
  B ? put("true", 4) : put("false", 5);
}

void JsonWriter::integer(int64_t N) {
  beginValue();
  numberOf(json::Value(N));
}

void JsonWriter::number(double D) {
  beginValue();
  numberOf(json::Value(D));
}

void JsonWriter::string(StringRef S) {
  beginValue();
  quoted(S, /*KnownUTF8=*/false);
}

void JsonWriter::tree(const json::Value &V) {
  switch (V.kind()) {
  case json::Value::Null:
    return put("null", 4);
  case json::Value::Boolean:
    return *V.getAsBoolean() ? put("true", 4) : put("false", 5);
  case json::Value::Number:
    return numberOf(V);
  case json::Value::String:
    return quoted(*V.getAsString());
  case json::Value::Array:
    return treeArray(*V.getAsArray());
  case json::Value::Object:
    return treeObject(*V.getAsObject());
  }
}

void JsonWriter::treeArray(const json::Array &A) {
  put('[');
  Indent += IndentSize;
  bool First = true;
  for (const json::Value &E : A) {
    newline(!First);
    First = false;
    tree(E);
  }
  Indent -= IndentSize;
  if (!A.empty())
    newline(false);
  put(']');
}

namespace {
/// Byte order of the keys (StringRef's <), without a call per compare.
bool keyLess(StringRef A, StringRef B) {
  size_t N = std::min(A.size(), B.size());
  for (size_t I = 0; I < N; ++I)
    if (A[I] != B[I])
      return static_cast<unsigned char>(A[I]) <
             static_cast<unsigned char>(B[I]);
  return A.size() < B.size();
}
} // namespace

void JsonWriter::treeObject(const json::Object &O, ArrayRef<Member> Extra) {
  // OStream writes the members in key order (json::sortedElements). A
  // member is either O's (Tree) or one of Extra (its index).
  struct Item {
    StringRef Key;
    const json::Value *Tree;
    size_t Index;
  };
  llvm::SmallVector<Item, 32> Members;
  Members.reserve(O.size() + Extra.size());
  for (const json::Object::value_type &E : O)
    Members.push_back({E.first, &E.second, 0});
  for (size_t I = 0; I < Extra.size(); ++I)
    Members.push_back({Extra[I].Key, nullptr, I});
  std::sort(Members.begin(), Members.end(),
            [](const Item &L, const Item &R) { return keyLess(L.Key, R.Key); });
  put('{');
  Indent += IndentSize;
  bool First = true;
  for (const Item &E : Members) {
    newline(!First);
    First = false;
    quoted(E.Key);
    if (IndentSize)
      put(": ", 2);
    else
      put(':');
    if (E.Tree) {
      tree(*E.Tree);
      continue;
    }
    // The callback writes one value, at this depth, as after a key.
    AfterKey = true;
    Extra[E.Index].Write(*this);
  }
  Indent -= IndentSize;
  if (!Members.empty())
    newline(false);
  put('}');
}

void roofline::appendJson(std::string &Out, const json::Value &V,
                          unsigned IndentSize, unsigned Indent) {
  JsonWriter(Out, IndentSize, Indent).value(V);
}

std::string roofline::jsonText(const json::Value &V, unsigned IndentSize) {
  std::string Out;
  appendJson(Out, V, IndentSize);
  return Out;
}
