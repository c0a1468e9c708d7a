//===- Runner.cpp - Parse one translation unit, in any thread --------------===//

#include "roofline/Frontend/Runner.h"

#include "clang/AST/ASTConsumer.h"
#include "clang/AST/RecursiveASTVisitor.h"
#include "clang/Basic/DiagnosticOptions.h"
#include "clang/Basic/FileManager.h"
#include "clang/Frontend/ASTUnit.h"
#include "clang/Frontend/CompilerInstance.h"
#include "clang/Frontend/FrontendAction.h"
#include "clang/Frontend/MultiplexConsumer.h"
#include "clang/Frontend/TextDiagnosticPrinter.h"
#include "clang/Tooling/Tooling.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/VirtualFileSystem.h"

using namespace clang;
using namespace roofline;

namespace {

/// Records the line range of every loop statement (TUResult::LoopEnds).
class LoopEndsVisitor : public RecursiveASTVisitor<LoopEndsVisitor> {
public:
  LoopEndsVisitor(SourceManager &SM, std::map<LoopStart, unsigned> &Out)
      : SM(SM), Out(Out) {}

  bool TraverseDecl(Decl *D) {
    if (D && !isa<TranslationUnitDecl>(D) &&
        SM.isInSystemHeader(SM.getFileLoc(D->getLocation())))
      return true;
    return RecursiveASTVisitor::TraverseDecl(D);
  }
  bool VisitForStmt(ForStmt *S) { return record(S); }
  bool VisitCXXForRangeStmt(CXXForRangeStmt *S) { return record(S); }
  bool VisitWhileStmt(WhileStmt *S) { return record(S); }
  bool VisitDoStmt(DoStmt *S) { return record(S); }

private:
  bool record(const clang::Stmt *S) {
    PresumedLoc B = SM.getPresumedLoc(SM.getFileLoc(S->getBeginLoc()));
    PresumedLoc E = SM.getPresumedLoc(SM.getFileLoc(S->getEndLoc()));
    if (B.isValid() && E.isValid()) {
      unsigned &End = Out[{B.getFilename(), B.getLine(), B.getColumn()}];
      End = std::max({End, E.getLine(), B.getLine()});
    }
    return true;
  }
  SourceManager &SM;
  std::map<LoopStart, unsigned> &Out;
};

class LoopEndsConsumer : public ASTConsumer {
public:
  explicit LoopEndsConsumer(std::map<LoopStart, unsigned> &Out) : Out(Out) {}
  void HandleTranslationUnit(ASTContext &Ctx) override {
    LoopEndsVisitor(Ctx.getSourceManager(), Out)
        .TraverseDecl(Ctx.getTranslationUnitDecl());
  }

private:
  std::map<LoopStart, unsigned> &Out;
};

/// The nest extraction, with LoopEndsConsumer beside it.
class WithLoopEndsAction : public WrapperFrontendAction {
public:
  WithLoopEndsAction(std::unique_ptr<FrontendAction> Inner,
                     std::map<LoopStart, unsigned> &Out)
      : WrapperFrontendAction(std::move(Inner)), Out(Out) {}

protected:
  std::unique_ptr<ASTConsumer> CreateASTConsumer(CompilerInstance &CI,
                                                 StringRef InFile) override {
    std::vector<std::unique_ptr<ASTConsumer>> Consumers;
    Consumers.push_back(WrapperFrontendAction::CreateASTConsumer(CI, InFile));
    Consumers.push_back(std::make_unique<LoopEndsConsumer>(Out));
    return std::make_unique<MultiplexConsumer>(std::move(Consumers));
  }

private:
  std::map<LoopStart, unsigned> &Out;
};

/// FrontendActionFactory::runInvocation, but with clang's verbose stream
/// ("1 error generated.") captured with the diagnostics instead of going to
/// llvm::errs().
class CapturingToolAction : public tooling::ToolAction {
public:
  CapturingToolAction(tooling::FrontendActionFactory &Factory,
                      llvm::raw_ostream &Verbose,
                      std::map<LoopStart, unsigned> *LoopEnds)
      : Factory(Factory), Verbose(Verbose), LoopEnds(LoopEnds) {}

  bool runInvocation(std::shared_ptr<CompilerInvocation> Invocation,
                     FileManager *Files,
                     std::shared_ptr<PCHContainerOperations> PCHContainerOps,
                     DiagnosticConsumer *DiagConsumer) override {
    CompilerInstance Compiler(std::move(PCHContainerOps));
    Compiler.setInvocation(std::move(Invocation));
    Compiler.setFileManager(Files);
    // Declared after Compiler so it is destroyed first.
    std::unique_ptr<FrontendAction> Action = Factory.create();
    if (LoopEnds)
      Action = std::make_unique<WithLoopEndsAction>(std::move(Action),
                                                    *LoopEnds);
    Compiler.createDiagnostics(DiagConsumer, /*ShouldOwnClient=*/false);
    if (!Compiler.hasDiagnostics())
      return false;
    Compiler.setVerboseOutputStream(Verbose);
    Compiler.createSourceManager(*Files);
    bool Ok = Compiler.ExecuteAction(*Action);
    Files->clearStatCache();
    return Ok;
  }

private:
  tooling::FrontendActionFactory &Factory;
  llvm::raw_ostream &Verbose;
  std::map<LoopStart, unsigned> *LoopEnds;
};

} // namespace

namespace {

/// The arguments clang gets for \p Cmd (what ClangTool does by default,
/// then \p Adjust), and a file manager of its own whose working directory
/// is the command's: the process's stays untouched, so threads do not race
/// on it. Null, with the reason in \p Diag, when the directory is missing.
llvm::IntrusiveRefCntPtr<FileManager>
prepareCommand(const tooling::CompileCommand &Cmd,
               const tooling::ArgumentsAdjuster &Adjust,
               const std::vector<VirtualFile> &VirtualFiles,
               tooling::CommandLineArguments &Args, llvm::raw_ostream &Diag) {
  Args = Cmd.CommandLine;
  Args = tooling::getClangStripOutputAdjuster()(Args, Cmd.Filename);
  Args = tooling::getClangSyntaxOnlyAdjuster()(Args, Cmd.Filename);
  Args = tooling::getClangStripDependencyFileAdjuster()(Args, Cmd.Filename);
  if (Adjust)
    Args = Adjust(Args, Cmd.Filename);

  llvm::IntrusiveRefCntPtr<llvm::vfs::FileSystem> Physical(
      llvm::vfs::createPhysicalFileSystem().release());
  auto Overlay =
      llvm::makeIntrusiveRefCnt<llvm::vfs::OverlayFileSystem>(Physical);
  auto Memory = llvm::makeIntrusiveRefCnt<llvm::vfs::InMemoryFileSystem>();
  Overlay->pushOverlay(Memory);
  for (const auto &[Path, Text] : VirtualFiles)
    Memory->addFile(Path, 0, llvm::MemoryBuffer::getMemBufferCopy(Text, Path));
  if (std::error_code EC = Overlay->setCurrentWorkingDirectory(Cmd.Directory)) {
    Diag << "error: cannot enter the compile command's directory '"
         << Cmd.Directory << "': " << EC.message() << "\n";
    return nullptr;
  }
  return llvm::makeIntrusiveRefCnt<FileManager>(FileSystemOptions(), Overlay);
}

/// Keeps the AST of the one file it parses (tooling's own ASTBuilderAction
/// is private to it).
class UnitBuilder : public tooling::ToolAction {
public:
  explicit UnitBuilder(std::unique_ptr<ASTUnit> &Out) : Out(Out) {}
  bool runInvocation(std::shared_ptr<CompilerInvocation> Invocation,
                     FileManager *Files,
                     std::shared_ptr<PCHContainerOperations> PCHContainerOps,
                     DiagnosticConsumer *DiagConsumer) override {
    Out = ASTUnit::LoadFromCompilerInvocation(
        Invocation, std::move(PCHContainerOps),
        CompilerInstance::createDiagnostics(&Invocation->getDiagnosticOpts(),
                                            DiagConsumer,
                                            /*ShouldOwnClient=*/false),
        Files);
    return Out && !Out->getDiagnostics().hasErrorOccurred();
  }

private:
  std::unique_ptr<ASTUnit> &Out;
};

} // namespace

std::unique_ptr<ASTUnit> roofline::buildASTUnit(
    const tooling::CompileCommand &Cmd,
    const tooling::ArgumentsAdjuster &Adjust,
    const std::vector<VirtualFile> &VirtualFiles, std::string &Diagnostics) {
  llvm::raw_string_ostream DiagOS(Diagnostics);
  tooling::CommandLineArguments Args;
  llvm::IntrusiveRefCntPtr<FileManager> Files =
      prepareCommand(Cmd, Adjust, VirtualFiles, Args, DiagOS);
  if (!Files)
    return nullptr;
  std::unique_ptr<ASTUnit> Unit;
  UnitBuilder Action(Unit);
  TextDiagnosticPrinter Printer(DiagOS, new DiagnosticOptions());
  tooling::ToolInvocation Invocation(std::move(Args), &Action, Files.get(),
                                     std::make_shared<PCHContainerOperations>());
  Invocation.setDiagnosticConsumer(&Printer);
  if (!Invocation.run())
    return nullptr;
  // Printer goes out of scope here; what the AST reports later (an
  // import's notes) is not this file's to print.
  Unit->getDiagnostics().setClient(new IgnoringDiagConsumer(),
                                   /*ShouldOwnClient=*/true);
  return Unit;
}

TUResult roofline::runFrontendOnFile(
    const tooling::CompileCommand &Cmd, const FrontendOptions &Opts,
    const tooling::ArgumentsAdjuster &Adjust,
    const std::vector<VirtualFile> &VirtualFiles, bool LoopExtents) {
  TUResult R;
  llvm::raw_string_ostream DiagOS(R.Diagnostics);
  tooling::CommandLineArguments Args;
  llvm::IntrusiveRefCntPtr<FileManager> Files =
      prepareCommand(Cmd, Adjust, VirtualFiles, Args, DiagOS);
  if (!Files)
    return R;

  std::unique_ptr<tooling::FrontendActionFactory> Factory =
      newExtractNestsFactory(Opts, R.Nests);
  CapturingToolAction Action(*Factory, DiagOS,
                             LoopExtents ? &R.LoopEnds : nullptr);
  TextDiagnosticPrinter Printer(DiagOS, new DiagnosticOptions());
  tooling::ToolInvocation Invocation(std::move(Args), &Action, Files.get(),
                                     std::make_shared<PCHContainerOperations>());
  Invocation.setDiagnosticConsumer(&Printer);
  R.Compiled = Invocation.run();
  return R;
}
