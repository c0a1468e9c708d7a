//===- JsonText.h - llvm::json::Value to text, fast ------------*- C++ -*-===//
//
// The same text as formatv("{0:N}", Value) (llvm::json::OStream: keys
// sorted, N-space indentation, numbers as "%.17g"), written straight into a
// string. formatv prints into an unbuffered raw_string_ostream one
// character at a time, which made the --format=json and SARIF reports
// cost more than the analysis (docs/results/speed.txt).
//
//===----------------------------------------------------------------------===//

#ifndef ROOFLINE_SUPPORT_JSONTEXT_H
#define ROOFLINE_SUPPORT_JSONTEXT_H

#include "llvm/ADT/STLFunctionalExtras.h"
#include "llvm/ADT/SmallVector.h"
#include "llvm/Support/JSON.h"

#include <cstring>
#include <optional>
#include <string>

namespace roofline {

/// JSON text as formatv("{0:<IndentSize>}") prints it, written through a
/// cursor into a string: whole json::Values (objects' keys sorted), or
/// value by value without building one (objectBegin, key, ...: the caller
/// gives each object's keys in sorted order, as OStream would write them).
/// The text is complete when the writer is destroyed.
class JsonWriter {
public:
  /// Appends to \p Out, every line after the first indented \p Indent
  /// more columns (for a value that sits that deep in an enclosing
  /// document).
  JsonWriter(std::string &Out, unsigned IndentSize = 2, unsigned Indent = 0)
      : Out(Out), Start(Out.size()), Used(Start), IndentSize(IndentSize),
        Indent(Indent) {}
  ~JsonWriter() { Out.resize(Used); }
  JsonWriter(const JsonWriter &) = delete;
  JsonWriter &operator=(const JsonWriter &) = delete;

  void value(const llvm::json::Value &V);
  /// A member written by a callback instead of held in a json::Value.
  struct Member {
    llvm::StringRef Key;
    llvm::function_ref<void(JsonWriter &)> Write;
  };
  /// \p O with the members \p Extra (none of them a key of \p O) placed
  /// in key order.
  void object(const llvm::json::Object &O, llvm::ArrayRef<Member> Extra);

  void objectBegin();
  void objectEnd();
  void arrayBegin();
  void arrayEnd();
  /// The next member's key; its value follows.
  void key(llvm::StringRef K);
  /// A key written as a string literal (every key the report writers
  /// name; keys from the input go through key(StringRef)): it needs no
  /// escape, so it is copied without the quoting scan, its separator,
  /// indent, quotes and ": " in one step. Most of a report's lines are a
  /// key and a short value (docs/results/speed.txt).
  template <size_t N> void key(const char (&K)[N]) {
    static_assert(N > 0, "a string literal");
    char *P = literalKeyStart(K, N - 1);
    std::memcpy(P, K, N - 1); // N is a constant: a few moves
    literalKeyEnd(P + (N - 1));
  }
  void null();
  void boolean(bool B);
  /// As json::Value(int64_t) prints: decimal.
  void integer(int64_t N);
  /// As json::Value(double) prints: "%.17g".
  void number(double D);
  /// As json::Value(std::string) prints (invalid UTF-8 fixed as it fixes
  /// it).
  void string(llvm::StringRef S);
  /// \p D, or null.
  void number(const std::optional<double> &D) {
    if (D)
      number(*D);
    else
      null();
  }

private:
  std::string &Out;
  size_t Start; ///< where this writer's text begins in Out
  size_t Used;  ///< Out's first Used characters are the text
  unsigned IndentSize;
  unsigned Indent;
  /// Per open array or object: whether it has an element yet.
  llvm::SmallVector<bool, 16> Open;
  bool AfterKey = false;

  char *room(size_t N);
  /// key(literal)'s parts: the separator, indent and opening quote, with
  /// room for \p N more characters and the key's end; then the end.
  char *literalKeyStart(const char *K, size_t N);
  void literalKeyEnd(char *P);
  /// What separates a member or an element from what came before, written
  /// at \p P (room for Indent + 2 characters): ",\n" and the indent, or
  /// "\n" and the indent; without indentation "," or nothing. Returns the
  /// end. newline() and key(literal) write it in one step each.
  char *separator(char *P, bool Comma);
  void put(const char *S, size_t N);
  void put(char C);
  void newline(bool Comma);
  void quoted(llvm::StringRef S, bool KnownUTF8 = true);
  void numberOf(const llvm::json::Value &V);
  void beginValue();
  void tree(const llvm::json::Value &V);
  void treeArray(const llvm::json::Array &A);
  void treeObject(const llvm::json::Object &O,
                  llvm::ArrayRef<Member> Extra = {});
};

/// Appends \p V to \p Out as formatv("{0:<IndentSize>}") prints it, every
/// line after the first indented \p Indent more columns (for a value that
/// sits that deep in an enclosing document).
void appendJson(std::string &Out, const llvm::json::Value &V,
                unsigned IndentSize = 2, unsigned Indent = 0);

/// \p V as formatv("{0:<IndentSize>}") prints it.
std::string jsonText(const llvm::json::Value &V, unsigned IndentSize = 2);

} // namespace roofline

#endif // ROOFLINE_SUPPORT_JSONTEXT_H
