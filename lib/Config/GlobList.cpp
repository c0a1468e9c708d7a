//===- GlobList.cpp - clang-tidy style check globs -------------------------===//

#include "roofline/Config/GlobList.h"

#include "llvm/ADT/SmallVector.h"

using namespace roofline;

bool roofline::globMatches(llvm::StringRef Glob, llvm::StringRef Name) {
  // Iterative matcher with single-star backtracking: linear for the short
  // check names this sees.
  size_t G = 0, N = 0, StarG = llvm::StringRef::npos, StarN = 0;
  while (N < Name.size()) {
    if (G < Glob.size() && Glob[G] == '*') {
      StarG = G++;
      StarN = N;
    } else if (G < Glob.size() && Glob[G] == Name[N]) {
      ++G;
      ++N;
    } else if (StarG != llvm::StringRef::npos) {
      G = StarG + 1;
      N = ++StarN;
    } else {
      return false;
    }
  }
  while (G < Glob.size() && Glob[G] == '*')
    ++G;
  return G == Glob.size();
}

GlobList::GlobList(llvm::StringRef S) : Spec(S.str()) {
  llvm::SmallVector<llvm::StringRef, 8> Parts;
  S.split(Parts, ',', /*MaxSplit=*/-1, /*KeepEmpty=*/false);
  for (llvm::StringRef P : Parts) {
    P = P.trim();
    bool Positive = !P.consume_front("-");
    P = P.trim();
    if (!P.empty())
      Items.push_back({Positive, P.str()});
  }
}

bool GlobList::contains(llvm::StringRef Name) const {
  for (auto It = Items.rbegin(); It != Items.rend(); ++It)
    if (globMatches(It->Glob, Name))
      return It->Positive;
  return false;
}

std::vector<std::string>
GlobList::unmatchedGlobs(llvm::ArrayRef<llvm::StringRef> Known) const {
  std::vector<std::string> Out;
  for (const Item &I : Items) {
    if (!I.Positive)
      continue;
    bool Any = false;
    for (llvm::StringRef K : Known)
      Any |= globMatches(I.Glob, K);
    if (!Any)
      Out.push_back(I.Glob);
  }
  return Out;
}
