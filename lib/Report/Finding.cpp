//===- Finding.cpp - One diagnostic of a CI run ----------------------------===//

#include "roofline/Report/Finding.h"
#include "roofline/Report/Report.h"

#include "llvm/Support/FileSystem.h"
#include "llvm/Support/Format.h"
#include "llvm/Support/Path.h"
#include "llvm/Support/MemoryBuffer.h"

#include <tuple>

using namespace roofline;

const char *roofline::baselineStateName(BaselineState S) {
  switch (S) {
  case BaselineState::None:
    return "";
  case BaselineState::New:
    return "new";
  case BaselineState::Unchanged:
    return "unchanged";
  case BaselineState::Updated:
    return "updated";
  }
  return "";
}

NestOrdinals roofline::nestOrdinals(const Report &R) {
  // All nests of the file, analyzed or not, keyed by position.
  struct Item {
    const SourceLoc *Loc;
    const std::string *Function;
    bool Skipped;
    size_t Index;
  };
  std::vector<Item> Items;
  for (size_t I = 0; I < R.Nests.size(); ++I)
    Items.push_back({&R.Nests[I].Nest.Loc, &R.Nests[I].Nest.Function, false, I});
  for (size_t I = 0; I < R.Skipped.size(); ++I)
    Items.push_back({&R.Skipped[I].Loc, &R.Skipped[I].Function, true, I});
  std::stable_sort(Items.begin(), Items.end(), [](const Item &A, const Item &B) {
    return std::tie(A.Loc->File, A.Loc->Line, A.Loc->Column) <
           std::tie(B.Loc->File, B.Loc->Line, B.Loc->Column);
  });
  NestOrdinals O;
  O.Nests.resize(R.Nests.size());
  O.Skipped.resize(R.Skipped.size());
  std::map<std::pair<std::string, std::string>, unsigned> Next;
  for (const Item &It : Items) {
    unsigned N = Next[{It.Loc->File, *It.Function}]++;
    (It.Skipped ? O.Skipped : O.Nests)[It.Index] = N;
  }
  return O;
}

void roofline::printFinding(llvm::raw_ostream &OS, const Finding &F,
                            SourceLines *Src, Verbosity Level) {
  const SourceLoc &L = F.Loc;
  Severity Shown = F.AcceptedByBaseline ? Severity::Note : F.Level;
  OS << L.File << ":" << L.Line << ":" << L.Column << ": "
     << severityName(Shown) << ": " << F.Message << " [" << F.Check
     << (F.Promoted ? ",-warnings-as-errors" : "") << "]\n";
  bool Brief = Level == Verbosity::Brief;
  llvm::StringRef Code = Src && !Brief ? Src->line(L.File, L.Line) : "";
  if (!Code.empty())
    printSourceEcho(OS, Code, L.Line, L.Column);
  auto Note = [&](const std::string &N) {
    OS << L.File << ":" << L.Line << ":" << L.Column << ": note: " << N
       << "\n";
  };
  if (!Brief) {
    for (const std::string &N : F.Notes)
      Note(N);
    return;
  }
  // Brief: one reason, for what is worth a look (not for remarks).
  if (F.Level != Severity::Warning && F.Level != Severity::Error)
    return;
  if (!F.BriefNote.empty())
    Note(F.BriefNote);
  else if (!F.Notes.empty())
    Note(F.Notes.front());
}

std::string roofline::relativeToCwd(llvm::StringRef File) {
  llvm::SmallString<256> Abs(File), Cwd;
  llvm::sys::fs::make_absolute(Abs);
  llvm::sys::path::remove_dots(Abs, /*remove_dot_dot=*/true);
  if (llvm::sys::fs::current_path(Cwd))
    return std::string(Abs);
  llvm::sys::path::remove_dots(Cwd, /*remove_dot_dot=*/true);
  llvm::StringRef Rel(Abs);
  if (Rel.consume_front(Cwd) && !Rel.empty() &&
      llvm::sys::path::is_separator(Rel.front()))
    return Rel.drop_front().str();
  return std::string(Abs);
}
