//===- FieldLiterals.h - Struct fields the program sets from literals -*- C++ -*-===//
//
// Private to the Frontend. A model's sizes usually live in a config struct
// filled in `main` (`c.dim = 288;`, `Config c = {.dim = 288}`, `p->dim =
// 288`). This scan finds, per integer field name, the one literal value the
// translation unit ever writes to it; a field written from anything else
// (a variable, a file read, through a pointer, a copy from a function with
// no body) has no value, unless it is computed once, unconditionally and
// after its operands are set, from other fields (FieldFormula). The program walk uses these below every other
// source of sizes (docs/network-report.md, "Sizes").
//
//===----------------------------------------------------------------------===//

#ifndef ROOFLINE_LIB_FRONTEND_FIELDLITERALS_H
#define ROOFLINE_LIB_FRONTEND_FIELDLITERALS_H

#include "roofline/IR/LoopNest.h"

#include "clang/AST/ASTContext.h"

#include <cstdint>
#include <map>
#include <set>
#include <string>
#include <vector>

namespace roofline {
namespace frontend {

struct FieldLiteral {
  int64_t Value = 0;
  std::string Record; ///< "Config"
  SourceLoc Loc;      ///< the write that gave the value
};

/// A field the program computes from other fields, once, unconditionally
/// (`c.kv_dim = c.dim * c.n_kv_heads / c.n_heads`): the walk evaluates
/// Formula when the fields it reads have values (docs/network-report.md,
/// "Struct fields the program computes").
struct FieldFormula {
  const clang::Expr *Formula = nullptr;
  std::string Text;   ///< "c.dim * c.n_kv_heads / c.n_heads"
  std::string Record; ///< "Config"
  SourceLoc Loc;      ///< the assignment
  /// The fields it reads, by name (each once, in the order written).
  std::vector<std::string> Reads;
};

struct FieldLiterals {
  /// By field name: only names every write of which agrees.
  std::map<std::string, FieldLiteral> Values;
  /// By field name: fields computed from other fields (not in Values).
  std::map<std::string, FieldFormula> Computed;
  /// Field names with a literal write that are not used, and why.
  std::map<std::string, std::string> Refused;
  /// The structs of the file that have an integer field of each name, so
  /// `--param dim` can say when it sets the field of more than one.
  std::map<std::string, std::set<std::string>> RecordsWithField;
};

/// Scans the whole translation unit of \p Ctx.
FieldLiterals collectFieldLiterals(clang::ASTContext &Ctx);

} // namespace frontend
} // namespace roofline

#endif // ROOFLINE_LIB_FRONTEND_FIELDLITERALS_H
