//===- Frontend.cpp - Clang AST to LoopNest IR -----------------------------===//
//
// Finds the outermost loops of every function and hands each to a
// NestBuilder (NestBuilder.h). A nest whose count depends on a
// loop-invariant condition with no known value (a null check) is built once
// per value and reported per case. Sizes stay named (N, not 1024) so
// formulas come out symbolic, with the value the source gives attached.
//
//===----------------------------------------------------------------------===//

#include "roofline/Frontend/Frontend.h"
#include "CallSites.h"
#include "NestBuilder.h"
#include "ProgramWalk.h"
#include "roofline/Frontend/CrossTU.h"
#include "roofline/Frontend/RejectReason.h"
#include "roofline/Support/Debug.h"

#include "clang/AST/ASTConsumer.h"
#include "clang/AST/ASTContext.h"
#include "clang/AST/RecursiveASTVisitor.h"
#include "clang/AST/StmtOpenMP.h"
#include "clang/Frontend/CompilerInstance.h"
#include "clang/Frontend/FrontendAction.h"
#include "clang/Tooling/Tooling.h"
#include "llvm/ADT/StringExtras.h"
#include "llvm/Support/Regex.h"

using namespace clang;
using roofline::CheckId;
using roofline::FrontendResult;
using roofline::LoopNest;
using roofline::Param;
using roofline::SkippedNest;
using roofline::SourceLoc;
using roofline::frontend::CallSiteCollector;
using roofline::frontend::CaseAssignment;
using roofline::frontend::fileLoc;
using roofline::frontend::functionName;
using roofline::frontend::isLoopStmt;
using roofline::frontend::NestBuilder;
using RFOptions = roofline::FrontendOptions;
using roofline::RejectKind;

// --debug-only=roofline-frontend: each nest the report lists as skipped,
// with the kind of its reason, where the refusal was decided and the
// detail (roofline-lower traces every try). docs/design.md, "Debug tracing".
#define DEBUG_TYPE "roofline-frontend"

namespace {

/// Whether the loop of OpenMP directive \p D is counted as if the pragma were
/// not there: worksharing (for, distribute, taskloop), simd and loop
/// transformations (tile, unroll) run each iteration exactly once in all.
bool isOpenMPLoopCounted(const OMPExecutableDirective *D) {
  return D->hasAssociatedStmt() && isa<OMPLoopBasedDirective>(D);
}

//===----------------------------------------------------------------------===//
// Finding the outermost loops.
//===----------------------------------------------------------------------===//

void collectOutermostLoops(const Stmt *S, std::vector<const Stmt *> &Out) {
  if (!S)
    return;
  if (isLoopStmt(S)) {
    Out.push_back(S);
    return;
  }
  // With -fopenmp a pragma'd loop hangs below its directive's CapturedStmt,
  // which children() does not reach. A loop directive's loop is counted as
  // written. The loops of any other region (parallel, single, task, ...)
  // may run once per thread or not at all: the directive stands for them,
  // and build() refuses it with its name.
  if (const auto *D = dyn_cast<OMPExecutableDirective>(S)) {
    if (!D->hasAssociatedStmt())
      return;
    if (isOpenMPLoopCounted(D)) {
      collectOutermostLoops(D->getRawStmt(), Out);
      return;
    }
    std::vector<const Stmt *> Inner;
    collectOutermostLoops(D->getRawStmt(), Inner);
    if (!Inner.empty())
      Out.push_back(D);
    return;
  }
  if (isa<LambdaExpr>(S))
    return; // its body is a function of its own
  for (const Stmt *Child : S->children())
    collectOutermostLoops(Child, Out);
}

class FunctionVisitor : public RecursiveASTVisitor<FunctionVisitor> {
public:
  FunctionVisitor(ASTContext &Ctx, const CallSiteCollector &Calls,
                  const RFOptions &Opts, FrontendResult &Out)
      : Ctx(Ctx), Calls(Calls), Opts(Opts), Out(Out) {
    if (!Opts.HeaderFilter.empty())
      HeaderFilter.emplace(Opts.HeaderFilter);
  }
  bool shouldVisitTemplateInstantiations() const { return true; }

  /// The main file, and headers matching --header-filter.
  bool wanted(SourceLocation FileLoc) const {
    const SourceManager &SM = Ctx.getSourceManager();
    if (SM.isWrittenInMainFile(FileLoc))
      return true;
    if (!HeaderFilter || SM.isInSystemHeader(FileLoc))
      return false;
    PresumedLoc P = SM.getPresumedLoc(FileLoc);
    return P.isValid() && HeaderFilter->match(P.getFilename());
  }

  bool VisitFunctionDecl(FunctionDecl *FD) {
    analyzeFunction(FD);
    return true;
  }

  /// A lambda's body is a function of its own (collectOutermostLoops stops
  /// there), but RecursiveASTVisitor never visits a lambda's call operator as
  /// a FunctionDecl: without this the loops inside lambdas were dropped
  /// without a word. A generic lambda is analyzed per instantiation.
  bool VisitLambdaExpr(LambdaExpr *LE) {
    const CXXRecordDecl *Class = LE->getLambdaClass();
    if (!Class)
      return true;
    if (FunctionTemplateDecl *T = Class->getDependentLambdaCallOperator()) {
      for (FunctionDecl *Spec : T->specializations())
        analyzeFunction(Spec);
      return true;
    }
    analyzeFunction(LE->getCallOperator());
    return true;
  }

  /// One entry for the nests beyond --max-nests, at the first of them.
  void reportOverCap() {
    if (!OverCap)
      return;
    SkippedNest S;
    S.Function = FirstOverCap.first;
    S.Loc = fileLoc(Ctx.getSourceManager(), FirstOverCap.second->getBeginLoc());
    S.Reason = "the translation unit has more than " +
               std::to_string(Opts.MaxNests) + " loop nests (--max-nests): " +
               "this one and the " + std::to_string(OverCap - 1) +
               " after it are not analyzed";
    skip(std::move(S), RejectKind::TooManyNests, S.Loc);
  }

private:
  void analyzeFunction(FunctionDecl *FD) {
    if (!FD || !FD->doesThisDeclarationHaveABody() ||
        FD->isDependentContext() || FD->isInvalidDecl())
      return;
    SourceManager &SM = Ctx.getSourceManager();
    if (!wanted(SM.getFileLoc(FD->getLocation())))
      return;
    std::vector<const Stmt *> Loops;
    collectOutermostLoops(FD->getBody(), Loops);
    if (Loops.empty())
      return;
    if (Opts.MaxNests && Out.Nests.size() + Out.Skipped.size() >=
                             FirstNest + Opts.MaxNests) {
      if (!OverCap++)
        FirstOverCap = {functionName(FD, Ctx), Loops.front()};
      OverCap += Loops.size() - 1;
      return;
    }
    if (const char *Kind = cudaDeviceKind(FD)) {
      // Each thread of a launch runs the loop; the grid is not in the TU's
      // reach, so the nest's totals are not known.
      for (const Stmt *L : Loops)
        skipWhole(FD, L, RejectKind::CudaDevice,
                  Twine("loop in a CUDA ") + Kind +
                      " function: it runs once per thread of a launch "
                      "whose grid is not known statically");
      return;
    }
    for (const Stmt *L : Loops)
      buildCases(FD, L);
  }

  /// Builds the nest of loop \p L once per value of each loop-invariant
  /// condition nobody gives a value for (docs/design.md, "Conditions").
  void buildCases(FunctionDecl *FD, const Stmt *L) {
    // Three unknown conditions make eight reports: past that the nest is
    // refused rather than listed case by case.
    constexpr unsigned MaxCases = 8;
    // A switch's labels are one case each, not 2^k of k conditions: an enum
    // of activations (darknet's 14) is listed up to sixteen reports.
    constexpr unsigned MaxSwitchCases = 16;
    std::vector<CaseAssignment> Work{{}};
    bool First = true;
    unsigned Built = 0;
    SourceLoc At = fileLoc(Ctx.getSourceManager(), L->getBeginLoc());
    while (!Work.empty()) {
      CaseAssignment A = std::move(Work.front());
      Work.erase(Work.begin());
      NestBuilder B(Ctx, FD, Calls, Opts, A);
      LoopNest N;
      bool Ok = B.build(L, N);
      if (First && !B.annotationIssue().empty())
        Out.Issues.push_back(
            {CheckId::Annotation, N.Function, At, B.annotationIssue()});
      First = false;
      if (!B.unassignedTargets().empty()) {
        // One case per function the pointer may hold.
        const NestBuilder::TargetChoice &C = B.unassignedTargets().front();
        if (C.Switch &&
            Built + Work.size() + C.Targets.size() > MaxSwitchCases) {
          skipWhole(FD, L, RejectKind::TooManyCases,
                    "the nest would be reported in more than " +
                        Twine(MaxSwitchCases) + " cases: the switch on '" +
                        C.Name + "' has " + Twine(C.Targets.size()) +
                        " (" + llvm::join(C.Targets, ", ") + ")" +
                        (A.empty() ? ""
                                   : ", in each case of another switch, "
                                     "function pointer or condition "
                                     "without a value") +
                        ": give its value with --param " + C.Name +
                        "=LABEL");
          return;
        }
        if (!C.Switch && Built + Work.size() + C.Targets.size() > MaxCases) {
          skipWhole(FD, L, RejectKind::TooManyCases,
                    "the nest would be reported in more than " +
                        Twine(MaxCases) + " cases: '" + C.Name +
                        "' may call any of " + Twine(C.Targets.size()) +
                        " functions (" + llvm::join(C.Targets, ", ") + ")" +
                        (A.empty() ? ""
                                   : ", in each case of another function "
                                     "pointer or condition without a value") +
                        ": give its target with --param " + C.Name +
                        "=FUNCTION");
          return;
        }
        for (const std::string &T : C.Targets) {
          CaseAssignment Next = A;
          Next[C.Key + "=" + T] = true;
          Work.push_back(std::move(Next));
        }
        continue;
      }
      if (!B.unassignedCases().empty()) {
        if (Built + Work.size() + 2 > MaxCases) {
          bool Targets = std::any_of(A.begin(), A.end(), [](const auto &KV) {
            return StringRef(KV.first).starts_with("fn:");
          });
          skipWhole(FD, L, RejectKind::TooManyCases,
                    Targets ? "the nest would be reported in more than " +
                                  Twine(MaxCases) +
                                  " cases (function pointer targets and "
                                  "loop-invariant conditions without known "
                                  "values, such as '" +
                                  B.unassignedCases().front().second +
                                  "'): give their values with --param"
                            : "the nest depends on more than three "
                              "loop-invariant conditions without known "
                              "values (such as '" +
                                  B.unassignedCases().front().second +
                                  "'): give their values with --param");
          return;
        }
        const std::string &Key = B.unassignedCases().front().first;
        for (bool V : {true, false}) {
          CaseAssignment Next = A;
          Next[Key] = V;
          Work.push_back(std::move(Next));
        }
        continue;
      }
      ++Built;
      Out.ParamNames.insert(B.sizeNames().begin(), B.sizeNames().end());
      Out.ParamNames.insert(B.matchedKeys().begin(), B.matchedKeys().end());
      if (!Ok) {
        SkippedNest S;
        S.Function = N.Function;
        if (std::string Label = B.caseLabel(); !Label.empty())
          S.Function += " [" + Label + "]";
        S.Loc = B.loc(L->getBeginLoc());
        S.Reason = B.reason();
        skip(std::move(S), B.reasonKind(),
             B.reasonLoc().isValid() ? B.loc(B.reasonLoc()) : S.Loc);
        continue;
      }
      if (Built == 1)
        for (std::string &M : B.aliasIssues())
          Out.Issues.push_back({CheckId::Aliasing, N.Function, At, M});
      for (const Param &P : N.Params)
        Out.ParamNames.insert(P.Name);
      Out.Nests.push_back(std::move(N));
    }
  }

  /// "__global__" or "__device__" for a function only the GPU runs.
  static const char *cudaDeviceKind(const FunctionDecl *FD) {
    if (FD->hasAttr<CUDAGlobalAttr>())
      return "__global__";
    if (FD->hasAttr<CUDADeviceAttr>() && !FD->hasAttr<CUDAHostAttr>())
      return "__device__";
    return nullptr;
  }

  void skipWhole(const FunctionDecl *FD, const Stmt *L, RejectKind K,
                 const Twine &Why) {
    SkippedNest S;
    S.Function = functionName(FD, Ctx);
    S.Loc = fileLoc(Ctx.getSourceManager(), L->getBeginLoc());
    S.Reason = Why.str();
    skip(std::move(S), K, S.Loc);
  }

  /// Lists \p S as skipped for a reason of kind \p K decided at \p At.
  void skip(SkippedNest &&S, RejectKind K, const SourceLoc &At) {
    S.ReasonKind = roofline::rejectKindSlug(K).str();
    ROOFLINE_DEBUG(llvm::dbgs()
                   << "frontend: " << At.File << ":" << At.Line << ":"
                   << At.Column << ": nest of " << S.Function << " at line "
                   << S.Loc.Line << " refused [" << S.ReasonKind
                   << "]: " << S.Reason << "\n");
    Out.Skipped.push_back(std::move(S));
  }

  ASTContext &Ctx;
  const CallSiteCollector &Calls;
  const RFOptions &Opts;
  FrontendResult &Out;
  std::optional<llvm::Regex> HeaderFilter;
  size_t FirstNest = Out.Nests.size() + Out.Skipped.size();
  size_t OverCap = 0;
  std::pair<std::string, const Stmt *> FirstOverCap;
};

class ExtractConsumer : public ASTConsumer {
public:
  ExtractConsumer(const RFOptions &Opts, FrontendResult &Out)
      : Opts(Opts), Out(Out) {}
  void HandleTranslationUnit(ASTContext &Ctx) override {
    // A TU with errors gives clang's diagnostics and no partial numbers.
    if (Ctx.getDiagnostics().hasErrorOccurred())
      return;
    extractNests(Ctx, Opts, Out);
  }

private:
  const RFOptions &Opts;
  FrontendResult &Out;
};

class ExtractAction : public ASTFrontendAction {
public:
  ExtractAction(const RFOptions &Opts, FrontendResult &Out)
      : Opts(Opts), Out(Out) {}
  std::unique_ptr<ASTConsumer> CreateASTConsumer(CompilerInstance &,
                                                 StringRef) override {
    return std::make_unique<ExtractConsumer>(Opts, Out);
  }

private:
  const RFOptions &Opts;
  FrontendResult &Out;
};

class ExtractFactory : public tooling::FrontendActionFactory {
public:
  ExtractFactory(const RFOptions &Opts, FrontendResult &Out)
      : Opts(Opts), Out(Out) {}
  std::unique_ptr<FrontendAction> create() override {
    return std::make_unique<ExtractAction>(Opts, Out);
  }

private:
  RFOptions Opts;
  FrontendResult &Out;
};

} // namespace

void roofline::extractNests(ASTContext &Ctx, const RFOptions &Opts,
                            FrontendResult &Out) {
  CallSiteCollector Calls(Ctx);
  Calls.TraverseDecl(Ctx.getTranslationUnitDecl());
  FunctionVisitor V(Ctx, Calls, Opts, Out);
  V.TraverseDecl(Ctx.getTranslationUnitDecl());
  V.reportOverCap();
  for (const std::string &Entry : Opts.Entries) {
    ProgramResult P;
    P.Entry = Entry;
    walkProgram(Ctx, Calls, Opts, P);
    Out.ParamNames.insert(P.UsedParams.begin(), P.UsedParams.end());
    Out.Programs.push_back(std::move(P));
  }
  if (Opts.CrossTU)
    Opts.CrossTU->forget(Ctx); // Ctx ends with this translation unit
}

std::unique_ptr<tooling::FrontendActionFactory>
roofline::newExtractNestsFactory(const RFOptions &Opts,
                                 FrontendResult &Out) {
  return std::make_unique<ExtractFactory>(Opts, Out);
}
