//===- SourceLines.cpp - Source lines echoed under a diagnostic ------------===//

#include "roofline/Report/SourceLines.h"

#include "llvm/Support/Format.h"

using namespace roofline;

llvm::StringRef SourceLines::line(const std::string &Path, unsigned Line) {
  std::lock_guard<std::mutex> Guard(Lock);
  auto [It, New] = Files.try_emplace(Path);
  File &F = It->second;
  if (New) {
    auto B = llvm::MemoryBuffer::getFile(Path, /*IsText=*/true);
    if (!B)
      return "";
    F.Buf = std::move(*B);
    llvm::StringRef Text = F.Buf->getBuffer();
    F.Starts.push_back(0);
    for (size_t I = 0; I < Text.size(); ++I)
      if (Text[I] == '\n')
        F.Starts.push_back(I + 1);
  }
  if (!F.Buf || Line == 0 || Line > F.Starts.size())
    return "";
  return F.Buf->getBuffer().substr(F.Starts[Line - 1]).split('\n').first.rtrim(
      '\r');
}

void roofline::printSourceEcho(llvm::raw_ostream &OS, llvm::StringRef Code,
                               unsigned Line, unsigned Column) {
  std::string Num = std::to_string(Line);
  OS << llvm::format("%5s", Num.c_str()) << " | " << Code << "\n";
  OS << "      | ";
  for (unsigned I = 1; I < Column && I <= Code.size(); ++I)
    OS << (Code[I - 1] == '\t' ? '\t' : ' ');
  OS << "^\n";
}
