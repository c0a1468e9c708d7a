//===- CallSites.h - What the calls in a translation unit pass -*- C++ -*-===//
//
// Private to the Frontend. One walk over the translation unit records, per
// function and parameter, the constants its calls pass (a size every call
// gives the same value is that value), whether pointer arguments are null
// or surely not null (a null check a nest makes is then known), and the
// calls that pass one array for two pointer parameters (aliasing), and the
// functions whose address is taken (the targets a function pointer may
// hold, docs/user-guide.md, "Calls").
//
//===----------------------------------------------------------------------===//

#ifndef ROOFLINE_LIB_FRONTEND_CALLSITES_H
#define ROOFLINE_LIB_FRONTEND_CALLSITES_H

#include "clang/AST/ASTContext.h"
#include "clang/AST/RecursiveASTVisitor.h"
#include "llvm/ADT/ArrayRef.h"

#include <map>
#include <optional>
#include <set>
#include <string>
#include <vector>

namespace roofline {
namespace frontend {

/// Two pointer parameters of a function that one call passes the same
/// array to.
struct SharedArgument {
  unsigned First, Second; ///< parameter indices
  std::string Base;       ///< the variable passed to both
  clang::SourceLocation Call;
};

class CallSiteCollector
    : public clang::RecursiveASTVisitor<CallSiteCollector> {
public:
  explicit CallSiteCollector(clang::ASTContext &Ctx) : Ctx(Ctx) {}
  bool shouldVisitTemplateInstantiations() const { return true; }
  bool VisitCallExpr(clang::CallExpr *CE);
  bool VisitDeclRefExpr(clang::DeclRefExpr *DRE);

  /// The calls that pass one array to two pointer parameters of \p FD.
  llvm::ArrayRef<SharedArgument>
  sharedArguments(const clang::FunctionDecl *FD) const;
  /// The one constant every call passes for \p P, if there is one.
  std::optional<int64_t> valueOf(const clang::ParmVarDecl *P) const;
  /// Whether every call passes a null pointer (false) or a pointer that
  /// cannot be null (true) for \p P; nullopt when they differ or a call
  /// passes a pointer of unknown value.
  std::optional<bool> nonNull(const clang::ParmVarDecl *P) const;
  /// The functions defined in the translation unit (outside system
  /// headers) whose address is taken anywhere in it (assigned, compared,
  /// passed: any use but a direct call) and whose type is \p FnType, in
  /// source order.
  std::vector<const clang::FunctionDecl *>
  addressTaken(clang::QualType FnType) const;

private:
  struct Slot {
    std::set<int64_t> Seen;
    bool NonConstant = false;
    unsigned Null = 0, NotNull = 0, Unknown = 0;
  };
  const Slot *slotOf(const clang::ParmVarDecl *P) const;
  void noteSharedArguments(const clang::CallExpr *CE,
                           const clang::FunctionDecl *FD);

  clang::ASTContext &Ctx;
  std::map<const clang::FunctionDecl *, std::vector<Slot>> Values;
  std::map<const clang::FunctionDecl *, std::vector<SharedArgument>> Shared;
  /// Direct callees' references (visited before their DeclRefExpr).
  std::set<const clang::Expr *> CalleeRefs;
  std::vector<const clang::FunctionDecl *> Taken; ///< canonical, first use
  std::set<const clang::FunctionDecl *> TakenSet;
};

} // namespace frontend
} // namespace roofline

#endif // ROOFLINE_LIB_FRONTEND_CALLSITES_H
