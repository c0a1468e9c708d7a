//===- JsonText.cpp - llvm::json::Value to text, fast ---------------------===//

#include "roofline/Support/JsonText.h"

#include "llvm/ADT/SmallVector.h"

#include <algorithm>
#include <charconv>
#include <cstdio>
#include <limits>
#include <vector>

using namespace llvm;

namespace {

/// The escapes of llvm/lib/Support/JSON.cpp's quote(): \" \\ \t \n \r and
/// \u00XX for the other control characters. Strings in a json::Value are
/// valid UTF-8 already (fixed when the value was built).
void appendQuoted(std::string &Out, StringRef S) {
  Out += '"';
  size_t Plain = 0;
  for (size_t I = 0; I < S.size(); ++I) {
    unsigned char C = S[I];
    if (C >= 0x20 && C != '"' && C != '\\')
      continue;
    Out.append(S.data() + Plain, I - Plain);
    Plain = I + 1;
    Out += '\\';
    switch (C) {
    case '"':
    case '\\':
      Out += static_cast<char>(C);
      break;
    case '\t':
      Out += 't';
      break;
    case '\n':
      Out += 'n';
      break;
    case '\r':
      Out += 'r';
      break;
    default: {
      char Hex[8];
      std::snprintf(Hex, sizeof(Hex), "u%04x", C);
      Out += Hex;
      break;
    }
    }
  }
  Out.append(S.data() + Plain, S.size() - Plain);
  Out += '"';
}

/// OStream prints an integer (int64 or uint64) in decimal and a double with
/// "%.17g". The type is private to json::Value; getAsUINT64() answers for
/// the integers >= 0 only, and "%.17g" prints every integer of magnitude
/// below 2^53 exactly as "%lld" does, so the two differ only for an int64
/// below -2^53, which no report holds.
/// std::to_chars with a precision prints as printf does with that
/// precision in the "C" locale (the standard's words), without printf's
/// cost.
void appendNumber(std::string &Out, const json::Value &V) {
  char Buf[40];
  std::to_chars_result R;
  if (std::optional<uint64_t> U = V.getAsUINT64())
    R = std::to_chars(Buf, Buf + sizeof(Buf), *U);
  else
    R = std::to_chars(Buf, Buf + sizeof(Buf), *V.getAsNumber(),
                      std::chars_format::general,
                      std::numeric_limits<double>::max_digits10);
  Out.append(Buf, R.ptr);
}

struct Writer {
  std::string &Out;
  unsigned IndentSize;
  unsigned Indent;

  void newline() {
    if (!IndentSize)
      return;
    Out += '\n';
    Out.append(Indent, ' ');
  }

  void value(const json::Value &V) {
    switch (V.kind()) {
    case json::Value::Null:
      Out += "null";
      return;
    case json::Value::Boolean:
      Out += *V.getAsBoolean() ? "true" : "false";
      return;
    case json::Value::Number:
      appendNumber(Out, V);
      return;
    case json::Value::String:
      appendQuoted(Out, *V.getAsString());
      return;
    case json::Value::Array:
      return array(*V.getAsArray());
    case json::Value::Object:
      return object(*V.getAsObject());
    }
  }

  void array(const json::Array &A) {
    Out += '[';
    Indent += IndentSize;
    bool First = true;
    for (const json::Value &E : A) {
      if (!First)
        Out += ',';
      First = false;
      newline();
      value(E);
    }
    Indent -= IndentSize;
    if (!A.empty())
      newline();
    Out += ']';
  }

  void object(const json::Object &O) {
    // OStream writes the members in key order (json::sortedElements).
    llvm::SmallVector<const json::Object::value_type *, 32> Members;
    Members.reserve(O.size());
    for (const json::Object::value_type &E : O)
      Members.push_back(&E);
    std::sort(Members.begin(), Members.end(),
              [](const json::Object::value_type *L,
                 const json::Object::value_type *R) {
                return L->first < R->first;
              });
    Out += '{';
    Indent += IndentSize;
    bool First = true;
    for (const json::Object::value_type *E : Members) {
      if (!First)
        Out += ',';
      First = false;
      newline();
      appendQuoted(Out, E->first);
      Out += ':';
      if (IndentSize)
        Out += ' ';
      value(E->second);
    }
    Indent -= IndentSize;
    if (!Members.empty())
      newline();
    Out += '}';
  }
};

} // namespace

void roofline::appendJson(std::string &Out, const json::Value &V,
                          unsigned IndentSize, unsigned Indent) {
  Writer{Out, IndentSize, Indent}.value(V);
}

std::string roofline::jsonText(const json::Value &V, unsigned IndentSize) {
  std::string Out;
  appendJson(Out, V, IndentSize);
  return Out;
}
