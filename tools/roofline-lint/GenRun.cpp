//===- GenRun.cpp - roofline-lint's code-generation mode ------------------===//

#include "GenRun.h"

#include "roofline/CodeGen/CudaEmitter.h"
#include "roofline/CodeGen/Units.h"
#include "roofline/Transform/Schedule.h"

#include "llvm/ADT/StringExtras.h"
#include "llvm/Support/WithColor.h"

#include <algorithm>

using namespace llvm;
using namespace roofline;
namespace tooling = clang::tooling;

namespace {

cl::OptionCategory &category() {
  static cl::OptionCategory C("roofline-lint code generation options "
                              "(docs/codegen.md)");
  return C;
}

cl::opt<std::string> ScheduleOpt(
    "schedule",
    cl::desc("Apply a schedule to each nest: records separated by ';', e.g. "
             "'tile(i,j,k:32); parallel(i_1)'. With --dump-ir prints IR'; "
             "with --emit adds the variant 'scheduled'"),
    cl::value_desc("records"), cl::cat(category()));
cl::opt<std::string>
    EmitDir("emit",
            cl::desc("Write kernel variants, their references and "
                     "manifest.json for each nest to DIR/<unit>/"),
            cl::value_desc("DIR"), cl::cat(category()));
cl::list<std::string> VariantsOpt(
    "variants",
    cl::desc("Variants to emit (default all): naive, interchanged, tiled, "
             "parallel, fused, int8, bf16, scheduled"),
    cl::CommaSeparated, cl::value_desc("list"), cl::cat(category()));
cl::opt<std::string> TargetOpt(
    "target",
    cl::desc("With --emit: cpu (C++17 variants, the default), cuda (.cu "
             "variants and launchers, docs/cuda.md) or all"),
    cl::init("cpu"), cl::value_desc("cpu|cuda|all"), cl::cat(category()));
cl::opt<bool> IRValues("ir-values",
                       cl::desc("With --dump-ir: also print what each "
                                "statement computes"),
                       cl::cat(category()));
cl::list<std::string> NestOpt(
    "nest",
    cl::desc("Only the nests of this function (NAME, or NAME:LINE for one "
             "nest), in the report as with --emit and --dump-ir; repeatable"),
    cl::value_desc("name[:line]"), cl::cat(category()));
cl::opt<std::string> GemmTiles(
    "gemm-tiles",
    cl::desc("Blocks of the automatic gemm schedule: MC,NC,KC,MR,NR "
             "(default 120,512,512,6,64)"),
    cl::value_desc("MC,NC,KC,MR,NR"), cl::cat(category()));

int error(const Twine &Msg) {
  WithColor::error(errs(), "roofline-lint") << Msg << "\n";
  return 2;
}

/// --target and --variants into \p O: the backends and the variants of
/// each; the usage error of an unknown one, else 0.
int selectVariants(GenOptions &O) {
  if (TargetOpt != "cpu" && TargetOpt != "cuda" && TargetOpt != "all")
    return error("--target expects cpu, cuda or all, not '" + TargetOpt + "'");
  O.Cpu = TargetOpt != "cuda";
  O.Cuda = TargetOpt != "cpu";
  for (const std::string &V : VariantsOpt) {
    const std::vector<std::string> &All = allVariantNames();
    const std::vector<std::string> &Cuda = allCudaVariantNames();
    bool Known = (O.Cpu && std::find(All.begin(), All.end(), V) != All.end()) ||
                 (O.Cuda && std::find(Cuda.begin(), Cuda.end(), V) != Cuda.end());
    if (!Known)
      return error("unknown variant '" + V + "' (" +
                   join(O.Cuda && !O.Cpu ? Cuda : All, ", ") +
                   (O.Cuda && O.Cpu ? "; cuda: " + join(Cuda, ", ") : "") + ")");
    if (O.Cuda && std::find(Cuda.begin(), Cuda.end(), V) != Cuda.end())
      O.CudaVariants.insert(V);
    // The CUDA fused, int8 and bf16 variants take their plan and tolerance
    // from the CPU variant of the same name.
    std::optional<VariantKind> K = variantNamed(V);
    if (K && (O.Cpu || *K == VariantKind::Fused || *K == VariantKind::Int8 ||
              *K == VariantKind::Bf16))
      O.Variants.insert(*K);
  }
  if (!VariantsOpt.empty() && O.Variants.empty())
    O.Variants.insert(VariantKind::Naive); // empty would mean all
  if (!VariantsOpt.empty() && O.Cuda && O.CudaVariants.empty())
    O.Cuda = false;
  return 0;
}

/// --gemm-tiles into \p O.Tiles; the usage error of a malformed one, else 0.
int parseGemmTiles(GenOptions &O) {
  if (GemmTiles.empty())
    return 0;
  SmallVector<StringRef, 5> Parts;
  StringRef(GemmTiles).split(Parts, ',');
  int64_t V[5];
  bool Bad = Parts.size() != 5;
  for (size_t I = 0; !Bad && I < 5; ++I)
    Bad = Parts[I].trim().getAsInteger(10, V[I]) || V[I] < 1;
  if (Bad)
    return error("--gemm-tiles expects five positive integers MC,NC,KC,MR,NR");
  O.Tiles.MC = V[0];
  O.Tiles.NC = V[1];
  O.Tiles.KC = V[2];
  O.Tiles.MR = V[3];
  O.Tiles.NR = V[4];
  return 0;
}

/// Parses every source as the analysis does, its nests in source order;
/// the usage error of one that cannot be, else 0.
int parseSources(const CodegenRequest &R, std::vector<LoopNest> &Nests,
                 std::vector<SkippedNest> &Skipped) {
  FrontendOptions FOpts;
  FOpts.Params = R.Params;
  for (const std::string &Src : R.Sources) {
    std::vector<tooling::CompileCommand> Cmds = R.DB->getCompileCommands(Src);
    if (Cmds.empty())
      return error("no compile command for '" + Src + "'");
    TUResult TU = runFrontendOnFile(Cmds.front(), FOpts, R.Adjust,
                                    R.VirtualFiles);
    errs() << TU.Diagnostics;
    if (!TU.Compiled)
      return error("'" + Src + "' does not compile");
    std::stable_sort(TU.Nests.Nests.begin(), TU.Nests.Nests.end(),
                     [](const LoopNest &A, const LoopNest &B) {
                       return std::tie(A.Loc.File, A.Loc.Line, A.Loc.Column) <
                              std::tie(B.Loc.File, B.Loc.Line, B.Loc.Column);
                     });
    for (LoopNest &N : TU.Nests.Nests)
      Nests.push_back(std::move(N));
    for (SkippedNest &S : TU.Nests.Skipped)
      Skipped.push_back(std::move(S));
  }
  return 0;
}

/// Keeps the nests --nest selects (all without it; the skipped ones are
/// then not listed); the usage error when it selects none, else 0.
int selectNests(std::vector<LoopNest> &Nests,
                std::vector<SkippedNest> &Skipped) {
  if (NestOpt.empty())
    return 0;
  std::vector<LoopNest> Kept;
  for (LoopNest &N : Nests)
    if (roofline::nestSelected(N.Function, N.Loc.Line))
      Kept.push_back(std::move(N));
  if (Kept.empty())
    return error("--nest selects no analyzable nest");
  Nests = std::move(Kept);
  Skipped.clear();
  return 0;
}

/// --dump-ir: each nest's IR (with --schedule: IR' after it); 1 when a
/// schedule is refused.
int dumpIR(const std::vector<LoopNest> &Nests,
           const std::vector<SkippedNest> &Skipped, const GenOptions &O,
           raw_ostream &OS) {
  bool Ok = true;
  if (O.User) {
    Ok = dumpScheduled(Nests, *O.User, O.Values, OS);
  } else {
    PrintOptions P;
    P.Values = true;
    for (const LoopNest &N : Nests) {
      OS << printNest(N, P);
      if (!N.Sem.Complete)
        OS << "values: incomplete: " << N.Sem.WhyNot << "\n";
    }
  }
  for (const SkippedNest &S : Skipped)
    OS << "skipped @" << S.Function << " at " << S.Loc.File << ":"
       << S.Loc.Line << ":" << S.Loc.Column << ": " << S.Reason << "\n";
  return Ok ? 0 : 1;
}

/// --emit: writes the units and lists what each holds and what it does
/// not; 1 when the user's schedule was refused.
int emitUnits(const std::vector<LoopNest> &Nests,
              const std::vector<SkippedNest> &Skipped, const GenOptions &O,
              raw_ostream &OS) {
  std::vector<std::string> NotEmitted;
  std::vector<UnitOut> Units = buildUnits(Nests, O, NotEmitted);
  if (Error E = writeUnits(Units, EmitDir, O))
    return error(toString(std::move(E)));
  bool Refused = false;
  for (const UnitOut &U : Units) {
    std::vector<std::string> Done, Not;
    for (const VariantOut &V : U.Variants) {
      if (V.Skipped.empty())
        Done.push_back(V.name());
      else
        Not.push_back(V.name() + " (" + V.Skipped + ")");
      Refused |= V.Kind == VariantKind::Scheduled && !V.Skipped.empty();
    }
    if (O.Cuda) {
      if (!O.Cpu)
        Done.clear(), Not.clear();
      for (const CudaVariantOut &V : emitCudaUnit(U, O).Variants) {
        if (V.Skipped.empty())
          Done.push_back("cuda " + V.Name);
        else
          Not.push_back("cuda " + V.Name + " (" + V.Skipped + ")");
      }
    }
    OS << EmitDir << "/" << U.Name << ": " << U.Kind << "; "
       << join(Done, ", ") << "\n";
    for (const std::string &N : Not)
      OS << "  not emitted: " << N << "\n";
  }
  for (const std::string &S : NotEmitted)
    OS << "not emitted: " << S << "\n";
  for (const SkippedNest &S : Skipped)
    OS << "not analyzable: " << S.Function << ":" << S.Loc.Line << ": "
       << S.Reason << "\n";
  return Refused ? 1 : 0;
}

} // namespace

cl::OptionCategory &roofline::codegenOptionCategory() { return category(); }

ArrayRef<std::string> roofline::nestSelectors() { return NestOpt; }

bool roofline::nestSelected(StringRef Function, unsigned Line,
                            std::set<std::string> *Matched) {
  bool Any = false;
  for (const std::string &Sel : NestOpt) {
    auto [Name, LineText] = StringRef(Sel).rsplit(':');
    unsigned L = 0;
    if (LineText.empty() || LineText.getAsInteger(10, L))
      Name = Sel, L = 0;
    // A method also by its unqualified name (the report says S::f).
    bool SameName = Function == Name || Function.ends_with("::" + Name.str());
    if (!SameName || (L != 0 && Line != L))
      continue;
    Any = true;
    if (!Matched)
      break;
    Matched->insert(Sel);
  }
  return Any;
}

bool roofline::codegenRequested() {
  return !EmitDir.empty() || ScheduleOpt.getNumOccurrences() ||
         IRValues.getNumOccurrences();
}

int roofline::runCodegen(const CodegenRequest &R, raw_ostream &OS) {
  std::optional<Schedule> User;
  if (ScheduleOpt.getNumOccurrences()) {
    Expected<Schedule> S = Schedule::parse(ScheduleOpt);
    if (!S)
      return error(toString(S.takeError()));
    User = std::move(*S);
  }
  if (EmitDir.empty() && !R.DumpIR)
    return error("--schedule and --ir-values need --dump-ir or --emit");
  GenOptions O;
  O.User = User;
  O.M = R.M;
  if (int RC = selectVariants(O))
    return RC;
  if (int RC = parseGemmTiles(O))
    return RC;
  for (const auto &[K, V] : R.Params)
    O.Values[K] = V;

  std::vector<LoopNest> Nests;
  std::vector<SkippedNest> Skipped;
  if (int RC = parseSources(R, Nests, Skipped))
    return RC;
  if (int RC = selectNests(Nests, Skipped))
    return RC;
  if (R.DumpIR)
    return dumpIR(Nests, Skipped, O, OS);
  return emitUnits(Nests, Skipped, O, OS);
}
