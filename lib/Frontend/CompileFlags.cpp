//===- CompileFlags.cpp - Compile commands made parseable by Clang ---------===//

#include "roofline/Frontend/CompileFlags.h"

#include "clang/Basic/DiagnosticIDs.h"
#include "clang/Driver/Options.h"
#include "llvm/ADT/STLExtras.h"
#include "llvm/Option/ArgList.h"
#include "llvm/Option/OptTable.h"
#include "llvm/Support/Path.h"

using namespace roofline;
namespace options = clang::driver::options;

namespace {

/// One parsed flag: where it starts in the command and how many words it
/// takes (`-I dir` two, `-Idir` one).
struct FlagSpan {
  size_t Begin, End;
  const llvm::opt::Arg *A;
};

/// The driver's view of \p Args[1..]: each flag with its words. Parsing
/// stops at "--" (what follows are inputs).
struct ParsedCommand {
  std::vector<const char *> Words;
  llvm::opt::InputArgList List;
  std::vector<FlagSpan> Spans;
};

std::unique_ptr<ParsedCommand> parse(llvm::ArrayRef<std::string> Args) {
  auto P = std::make_unique<ParsedCommand>();
  for (size_t I = 1; I < Args.size() && Args[I] != "--"; ++I)
    P->Words.push_back(Args[I].c_str());
  unsigned MissingIndex = 0, MissingCount = 0;
  P->List = clang::driver::getDriverOptTable().ParseArgs(
      P->Words, MissingIndex, MissingCount,
      llvm::opt::Visibility(options::ClangOption));
  std::vector<const llvm::opt::Arg *> InOrder(P->List.begin(), P->List.end());
  for (size_t K = 0; K < InOrder.size(); ++K) {
    size_t Begin = InOrder[K]->getIndex();
    size_t End = K + 1 < InOrder.size() ? InOrder[K + 1]->getIndex()
                                        : P->Words.size();
    // Word indices are into Args[1..].
    P->Spans.push_back({Begin + 1, End + 1, InOrder[K]});
  }
  return P;
}

bool isClangCl(llvm::ArrayRef<std::string> Args) {
  if (Args.empty())
    return false;
  llvm::StringRef Exe = llvm::sys::path::stem(Args.front());
  return Exe.equals_insensitive("cl") || Exe.ends_with_insensitive("clang-cl") ||
         llvm::any_of(Args, [](const std::string &A) {
           return A == "--driver-mode=cl";
         });
}

/// Whether Clang knows the warning option -W<Value> (Clang's own
/// ProcessWarningOptions: no-, error=, no-error= around a group name).
bool knownWarningOption(llvm::StringRef Value) {
  Value.consume_front("no-");
  if (Value.empty() || Value == "error" || Value == "fatal-errors" ||
      Value == "everything" || Value == "system-headers")
    return true;
  if (!Value.consume_front("error="))
    Value.consume_front("fatal-errors=");
  return clang::DiagnosticIDs::getGroupForWarningOption(Value).has_value();
}

bool matchesPattern(const FlagSpan &S, llvm::ArrayRef<std::string> Args,
                    llvm::StringRef Pattern) {
  const llvm::opt::Option &O = S.A->getOption();
  if (O.matches(options::OPT_INPUT)) // the file itself is no flag
    return false;
  llvm::StringRef First = Args[S.Begin];
  if (Pattern.consume_back("*"))
    return First.starts_with(Pattern);
  if (First == Pattern)
    return true;
  // An option's spelling: -I matches -Idir and -I dir, -D every define.
  return !O.matches(options::OPT_UNKNOWN) && S.A->getSpelling() == Pattern;
}

} // namespace

CleanCommand roofline::dropUnknownFlags(llvm::ArrayRef<std::string> Args) {
  CleanCommand Out;
  if (Args.empty() || isClangCl(Args)) {
    Out.Args = Args.vec();
    return Out;
  }
  std::unique_ptr<ParsedCommand> P = parse(Args);
  std::vector<bool> Drop(Args.size(), false);
  for (const FlagSpan &S : P->Spans) {
    const llvm::opt::Option &O = S.A->getOption();
    bool Unknown = O.matches(options::OPT_UNKNOWN);
    bool BadWarning = O.matches(options::OPT_W_Joined) &&
                      !knownWarningOption(S.A->getValue());
    if (!Unknown && !BadWarning)
      continue;
    for (size_t I = S.Begin; I < S.End; ++I)
      Drop[I] = true;
    Out.Dropped.push_back(Args[S.Begin]);
  }
  for (size_t I = 0; I < Args.size(); ++I)
    if (!Drop[I])
      Out.Args.push_back(Args[I]);
  return Out;
}

std::vector<std::string>
roofline::removeFlags(llvm::ArrayRef<std::string> Args,
                      llvm::ArrayRef<std::string> Patterns) {
  if (Args.empty() || Patterns.empty())
    return Args.vec();
  std::unique_ptr<ParsedCommand> P = parse(Args);
  std::vector<bool> Drop(Args.size(), false);
  for (const FlagSpan &S : P->Spans)
    if (llvm::any_of(Patterns, [&](const std::string &Pat) {
          return matchesPattern(S, Args, Pat);
        }))
      for (size_t I = S.Begin; I < S.End; ++I)
        Drop[I] = true;
  std::vector<std::string> Out;
  for (size_t I = 0; I < Args.size(); ++I)
    if (!Drop[I])
      Out.push_back(Args[I]);
  return Out;
}

std::vector<std::string> roofline::addFlags(llvm::ArrayRef<std::string> Args,
                                            llvm::ArrayRef<std::string> Extra) {
  std::vector<std::string> Out = Args.vec();
  auto DashDash = llvm::find(Out, std::string("--"));
  Out.insert(DashDash, Extra.begin(), Extra.end());
  return Out;
}
