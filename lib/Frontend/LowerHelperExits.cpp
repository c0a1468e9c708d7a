//===- LowerHelperExits.cpp - A void helper's exit on loop variables ------===//
//
// darknet's col2im_add_pixel returns early where the pixel falls in the
// padding: `if (row < 0 || col < 0 || row >= h || col >= w) return;`, then
// adds to the image. Its parameters are index expressions of the caller's
// loops, so the condition is affine: the statements before the return run
// where it holds, the rest of the helper where it fails, each in one guard
// loop per disjoint part (LowerUnionGuards.cpp), as an if/else on loop
// variables around part of a body would (docs/design.md, "Conditions").
// A size times a loop variable (`h * stride`) takes its given value, as in
// im2col's padding test (guardBounds' Pin).
//
//===----------------------------------------------------------------------===//

#include "NestBuilder.h"

using namespace clang;
using namespace roofline;
using namespace roofline::frontend;

bool NestBuilder::lowerAffineExit(const IfStmt *If,
                                  llvm::ArrayRef<const clang::Stmt *> Taken,
                                  llvm::ArrayRef<const clang::Stmt *> Rest,
                                  Loop &Parent, const FunctionDecl *Callee) {
  const Expr *Cond = If->getCond();
  std::string Why;
  std::optional<Conjunctions> Exits = disjointParts(Cond, false, Why);
  std::optional<Conjunctions> Stays =
      Exits ? disjointParts(Cond, true, Why) : std::nullopt;
  if (!Stays)
    return fail(If->getBeginLoc(), RejectKind::EarlyExit,
                "early exit ('return') in '" + declName(Callee) +
                    "', called inside the nest, under a condition on loop "
                    "variables: " +
                    Why);
  noteExtended(Cond->getBeginLoc(),
               "early return of a helper under a condition on loop variables");
  auto Lower = [&](const Conjunctions &Parts,
                   llvm::ArrayRef<const clang::Stmt *> Stmts) {
    if (Stmts.empty())
      return true;
    return llvm::all_of(Parts, [&](const std::vector<Constraint> &Part) {
      return guardLoop(Part, If, Parent, /*Narrows=*/false, /*Pin=*/true,
                       [&](Loop &G) {
                         return lowerCalleeStmts(Stmts, G, Callee);
                       });
    });
  };
  return Lower(*Exits, Taken) && Lower(*Stays, Rest);
}
