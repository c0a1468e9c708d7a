//===- Semantics.h - Statement values for code generation -----------------===//
//
// Private to the Frontend. Beside the counts, records what each statement
// of a nest computes (roofline/IR/Value.h) so that CodeGen can emit the nest
// and its transformed forms. NestBuilder tells it which subscript
// expressions became which accesses; it never changes what the analysis
// sees, and a construct it cannot express only marks the nest as not
// emittable (NestSemantics::WhyNot).
//
//===----------------------------------------------------------------------===//

#ifndef ROOFLINE_LIB_FRONTEND_SEMANTICS_H
#define ROOFLINE_LIB_FRONTEND_SEMANTICS_H

#include "roofline/IR/LoopNest.h"

#include "clang/AST/ASTContext.h"
#include "clang/AST/Expr.h"
#include "clang/AST/Stmt.h"
#include "llvm/ADT/DenseMap.h"

#include <functional>
#include <set>
#include <vector>

namespace roofline {

/// \p D's name. A plain identifier is copied directly: getNameAsString
/// builds a LangOptions and a printing policy on every call, and the front
/// end asks for thousands of names.
inline std::string declName(const clang::NamedDecl *D) {
  return D->getDeclName().isIdentifier() ? D->getName().str()
                                         : D->getNameAsString();
}

/// Parens, implicit casts and full-expression wrappers off: the peeling of
/// statement values, which keeps temporaries and branch hints; the
/// NestBuilder's strip() peels those too before it records an access.
const clang::Expr *stripParensAndCasts(const clang::Expr *E);

class ValueLowering {
public:
  /// \p IVs: the enclosing loops' induction variables while lowering (the
  /// NestBuilder's stack). \p Loc formats a location for WhyNot.
  ValueLowering(clang::ASTContext &Ctx,
                const std::vector<const clang::VarDecl *> &IVs,
                std::function<SourceLoc(clang::SourceLocation)> Loc)
      : Ctx(Ctx), IVs(IVs), Loc(std::move(Loc)) {}

  /// The nest being lowered (its range tells local scalars from outer ones).
  void beginNest(const clang::Stmt *Outermost) { Nest = Outermost; }
  /// NestBuilder made access \p Index of the current statement from the
  /// subscript expression \p E of the array \p Name; \p LocalArray: an
  /// array of the function's own (dead when it returns).
  void noteAccess(const clang::Expr *E, unsigned Index, bool LocalArray,
                  const std::string &Name);
  /// Sets St.Value for statement \p S, whose accesses are in St (or notes
  /// why it cannot). Clears the accesses noted for it.
  void lower(const clang::Stmt *S, Stmt &St);
  /// Fills Out.Sem once the nest is complete; \p ParamNames are its sizes.
  void finish(LoopNest &Out, const std::set<std::string> &ParamNames);

private:
  std::optional<ValueExpr> expr(const clang::Expr *E);
  std::optional<ValueExpr> ref(const clang::DeclRefExpr *DRE);
  bool failed(clang::SourceLocation L, const std::string &Why);
  std::string scalarName(const clang::VarDecl *VD, bool Written);

  clang::ASTContext &Ctx;
  const std::vector<const clang::VarDecl *> &IVs;
  std::function<SourceLoc(clang::SourceLocation)> Loc;
  const clang::Stmt *Nest = nullptr;
  llvm::DenseMap<const clang::Expr *, unsigned> AccessOf;
  std::string WhyNot;
  bool AllLowered = true;
  NestSemantics Sem;
  /// Scalars seen, by declaration; integer ones may turn out to be sizes.
  std::vector<const clang::VarDecl *> ScalarOrder;
  llvm::DenseMap<const clang::VarDecl *, ScalarVar> ScalarInfo;
};

} // namespace roofline

#endif // ROOFLINE_LIB_FRONTEND_SEMANTICS_H
