//===- CrossTU.cpp - Callees defined in other translation units -----------===//
//
// The database's translation units are parsed once, on the first call the
// walk cannot follow in its own, and kept alive: an imported definition
// refers into them until the entry's AST is done (forget). Functions are
// matched by USR, which for a function with external linkage is the same
// in every translation unit that declares it; a static function's is not,
// so a static in another file never answers a call (docs/network-report.md,
// "Across translation units").
//
//===----------------------------------------------------------------------===//

#include "roofline/Frontend/CrossTU.h"
#include "NestBuilder.h"

#include "clang/AST/ASTImporter.h"
#include "clang/AST/RecursiveASTVisitor.h"
#include "clang/Basic/SourceManager.h"
#include "clang/Index/USRGeneration.h"
#include "llvm/ADT/SmallString.h"
#include "llvm/ADT/StringExtras.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/Path.h"

#include <map>
#include <mutex>

using namespace clang;
using namespace roofline;

namespace {

std::optional<std::string> usrOf(const Decl *D) {
  SmallString<128> USR;
  if (index::generateUSRForDecl(D, USR))
    return std::nullopt;
  return USR.str().str();
}

struct Definition {
  size_t Unit;
  const FunctionDecl *FD;
  std::string Where; ///< "matmul.c:3"
};

/// Every definition with external linkage outside system headers.
class DefinitionIndexer : public RecursiveASTVisitor<DefinitionIndexer> {
public:
  DefinitionIndexer(size_t Unit, const SourceManager &SM,
                    std::map<std::string, std::vector<Definition>> &Index)
      : Unit(Unit), SM(SM), Index(Index) {}

  bool VisitFunctionDecl(FunctionDecl *FD) {
    if (!FD->doesThisDeclarationHaveABody() || !FD->isExternallyVisible() ||
        FD->isDependentContext() || SM.isInSystemHeader(FD->getLocation()))
      return true;
    std::optional<std::string> USR = usrOf(FD);
    if (!USR)
      return true;
    SourceLoc L = roofline::frontend::fileLoc(SM, FD->getLocation());
    std::string Where = llvm::sys::path::filename(L.File).str() + ":" +
                        std::to_string(L.Line);
    std::vector<Definition> &Defs = Index[*USR];
    // An inline function of a header is one definition, however many
    // translation units include it.
    for (const Definition &D : Defs)
      if (D.Where == Where)
        return true;
    Defs.push_back({Unit, FD, Where});
    return true;
  }

private:
  size_t Unit;
  const SourceManager &SM;
  std::map<std::string, std::vector<Definition>> &Index;
};

std::string realPath(StringRef Path) {
  SmallString<256> Real;
  if (llvm::sys::fs::real_path(Path, Real))
    return Path.str();
  return Real.str().str();
}

} // namespace

struct CrossTUDefinitions::Impl {
  std::vector<tooling::CompileCommand> Commands;
  tooling::ArgumentsAdjuster Adjust;
  std::vector<VirtualFile> VirtualFiles;

  std::mutex Lock;
  bool Loaded = false;
  std::vector<std::unique_ptr<ASTUnit>> Units;
  std::vector<std::string> UnitFiles; ///< real paths
  std::vector<std::string> Failed;    ///< files that did not compile
  std::map<std::string, std::vector<Definition>> Index;
  std::map<std::pair<const ASTContext *, size_t>, std::unique_ptr<ASTImporter>>
      Importers;

  void load() {
    if (Loaded)
      return;
    Loaded = true;
    for (const tooling::CompileCommand &Cmd : Commands) {
      std::string Diagnostics;
      std::unique_ptr<ASTUnit> U =
          buildASTUnit(Cmd, Adjust, VirtualFiles, Diagnostics);
      SmallString<256> File(Cmd.Filename);
      llvm::sys::fs::make_absolute(Cmd.Directory, File);
      if (!U) {
        Failed.push_back(llvm::sys::path::filename(File).str());
        continue;
      }
      DefinitionIndexer(Units.size(), U->getSourceManager(), Index)
          .TraverseDecl(U->getASTContext().getTranslationUnitDecl());
      UnitFiles.push_back(realPath(File));
      Units.push_back(std::move(U));
    }
  }

  std::string failedNote() const {
    if (Failed.empty())
      return "";
    return "; " + llvm::join(Failed, ", ") + " did not compile";
  }
};

CrossTUDefinitions::CrossTUDefinitions(
    std::vector<tooling::CompileCommand> Commands,
    tooling::ArgumentsAdjuster Adjust, std::vector<VirtualFile> VirtualFiles)
    : P(std::make_unique<Impl>()) {
  P->Commands = std::move(Commands);
  P->Adjust = std::move(Adjust);
  P->VirtualFiles = std::move(VirtualFiles);
}

CrossTUDefinitions::~CrossTUDefinitions() = default;

const FunctionDecl *
CrossTUDefinitions::importDefinition(ASTContext &Ctx, const FunctionDecl *Callee,
                                     std::string &Why) {
  std::optional<std::string> USR = usrOf(Callee);
  if (!USR || !Callee->isExternallyVisible()) {
    Why = "which has no body here (and no external name to look up in the "
          "other translation units)";
    return nullptr;
  }
  std::lock_guard<std::mutex> Guard(P->Lock);
  P->load();
  // The entry's own file, parsed again as a unit of the database, is no
  // other definition.
  const SourceManager &SM = Ctx.getSourceManager();
  std::string Main;
  if (OptionalFileEntryRef F = SM.getFileEntryRefForID(SM.getMainFileID())) {
    StringRef Real = F->getFileEntry().tryGetRealPathName();
    Main = realPath(Real.empty() ? F->getName() : Real);
  }
  std::vector<const Definition *> Defs;
  std::vector<std::string> Where;
  if (auto It = P->Index.find(*USR); It != P->Index.end())
    for (const Definition &D : It->second)
      if (P->UnitFiles[D.Unit] != Main) {
        Defs.push_back(&D);
        Where.push_back(D.Where);
      }
  if (Defs.empty()) {
    Why = "which has no body in any translation unit of the compile "
          "database" + P->failedNote();
    return nullptr;
  }
  if (Defs.size() > 1) {
    Why = "which is defined in " + std::to_string(Defs.size()) +
          " translation units of the compile database (" +
          llvm::join(Where, ", ") + "): which one links is not known";
    return nullptr;
  }
  const Definition &D = *Defs.front();
  ASTUnit &From = *P->Units[D.Unit];
  std::unique_ptr<ASTImporter> &Importer = P->Importers[{&Ctx, D.Unit}];
  if (!Importer)
    Importer = std::make_unique<ASTImporter>(
        Ctx, Ctx.getSourceManager().getFileManager(), From.getASTContext(),
        From.getFileManager(), /*MinimalImport=*/false);
  llvm::Expected<Decl *> To = Importer->Import(const_cast<FunctionDecl *>(D.FD));
  if (!To) {
    Why = "whose definition in " + D.Where + " could not be imported (" +
          llvm::toString(To.takeError()) + ")";
    return nullptr;
  }
  const auto *FD = dyn_cast_or_null<FunctionDecl>(*To);
  const FunctionDecl *Def = FD ? FD->getDefinition() : nullptr;
  if (!Def || !Def->hasBody()) {
    Why = "whose definition in " + D.Where + " could not be imported";
    return nullptr;
  }
  return Def;
}

void CrossTUDefinitions::forget(ASTContext &Ctx) {
  std::lock_guard<std::mutex> Guard(P->Lock);
  for (auto It = P->Importers.begin(); It != P->Importers.end();)
    It = It->first.first == &Ctx ? P->Importers.erase(It) : std::next(It);
}

const FunctionDecl *roofline::bodyFromElsewhere(CrossTUDefinitions *CrossTU,
                                                ASTContext &Ctx,
                                                const FunctionDecl *Callee,
                                                std::string &Why) {
  if (!CrossTU || Callee->getDefinition() ||
      Ctx.getSourceManager().isInSystemHeader(Callee->getLocation()))
    return nullptr;
  return CrossTU->importDefinition(Ctx, Callee, Why);
}
