//===- Suppressions.cpp - NOLINT comments ----------------------------------===//

#include "roofline/Report/Suppressions.h"
#include "roofline/Config/GlobList.h"

#include "llvm/ADT/SmallVector.h"
#include "llvm/Support/MemoryBuffer.h"

#include <algorithm>

using namespace roofline;

namespace {

enum class Kind { SameLine, NextLine, Begin, End };

struct Directive {
  Kind K;
  std::string Checks; ///< as written inside (...), "*" without parens
};

/// The NOLINT directives in one line, as clang-tidy recognizes them: the
/// word NOLINT, an optional NEXTLINE/BEGIN/END suffix, an optional (list).
std::vector<Directive> directivesIn(llvm::StringRef Line) {
  std::vector<Directive> Out;
  size_t Pos = 0;
  while ((Pos = Line.find("NOLINT", Pos)) != llvm::StringRef::npos) {
    llvm::StringRef Rest = Line.substr(Pos + 6);
    Pos += 6;
    Kind K = Kind::SameLine;
    if (Rest.consume_front("NEXTLINE"))
      K = Kind::NextLine;
    else if (Rest.consume_front("BEGIN"))
      K = Kind::Begin;
    else if (Rest.consume_front("END"))
      K = Kind::End;
    // NOLINTFOO is not a directive.
    if (!Rest.empty() && (isalnum(static_cast<unsigned char>(Rest[0])) ||
                          Rest[0] == '_'))
      continue;
    std::string Checks = "*";
    if (Rest.consume_front("(")) {
      size_t Close = Rest.find(')');
      if (Close == llvm::StringRef::npos)
        continue; // unterminated list: ignored, as clang-tidy does
      Checks = Rest.take_front(Close).str();
    }
    Out.push_back({K, Checks});
  }
  return Out;
}

} // namespace

Suppressions Suppressions::parse(llvm::StringRef Text) {
  Suppressions S;
  llvm::SmallVector<llvm::StringRef, 0> Lines;
  Text.split(Lines, '\n');
  // Open NOLINTBEGIN regions: {first line, checks}.
  std::vector<std::pair<unsigned, std::string>> Open;
  for (unsigned I = 0; I < Lines.size(); ++I) {
    unsigned LineNo = I + 1;
    for (const Directive &D : directivesIn(Lines[I])) {
      switch (D.K) {
      case Kind::SameLine:
        S.Ranges.push_back({LineNo, LineNo, D.Checks});
        break;
      case Kind::NextLine:
        S.Ranges.push_back({LineNo + 1, LineNo + 1, D.Checks});
        break;
      case Kind::Begin:
        Open.push_back({LineNo, D.Checks});
        break;
      case Kind::End:
        // Closes the innermost region with the same check list.
        bool Matched = false;
        for (auto It = Open.rbegin(); It != Open.rend(); ++It)
          if (It->second == D.Checks) {
            S.Ranges.push_back({It->first, LineNo, It->second});
            Open.erase(std::next(It).base());
            Matched = true;
            break;
          }
        if (!Matched)
          S.Problems.push_back(
              {LineNo, "unmatched 'NOLINTEND' comment without a previous "
                       "'NOLINTBEGIN' comment (with the same check list)"});
        break;
      }
    }
  }
  // An unterminated NOLINTBEGIN suppresses nothing (as in clang-tidy): a
  // typo must not silence the rest of the file.
  for (const auto &[First, Checks] : Open)
    S.Problems.push_back(
        {First, "unmatched 'NOLINTBEGIN' comment without a subsequent "
                "'NOLINTEND' comment; it suppresses nothing"});
  std::sort(S.Problems.begin(), S.Problems.end());
  return S;
}

bool Suppressions::suppresses(unsigned Line, llvm::StringRef Check) const {
  for (const Range &R : Ranges)
    if (Line >= R.First && Line <= R.Last && GlobList(R.Checks).contains(Check))
      return true;
  return false;
}

bool SuppressionCache::suppresses(const std::string &File, unsigned Line,
                                  llvm::StringRef Check) {
  auto [It, New] = Files.try_emplace(File);
  if (New) {
    auto Buf = llvm::MemoryBuffer::getFile(File, /*IsText=*/true);
    It->second = std::make_unique<Suppressions>(
        Buf ? Suppressions::parse((*Buf)->getBuffer()) : Suppressions());
  }
  return It->second->suppresses(Line, Check);
}

std::vector<std::string> SuppressionCache::problems() const {
  std::vector<std::string> Out;
  for (const auto &[File, S] : Files)
    for (const auto &[Line, Msg] : S->problems())
      Out.push_back(File + ":" + std::to_string(Line) + ":1: warning: " + Msg +
                    " [roofline-nolint]");
  return Out;
}
