//===- LineFilter.cpp - Which lines of which files a run reports ----------===//

#include "roofline/Config/LineFilter.h"

#include "llvm/ADT/SmallString.h"
#include "llvm/Support/JSON.h"
#include "llvm/Support/Path.h"

using namespace roofline;
using llvm::StringRef;

namespace {

llvm::Error bad(const llvm::Twine &Msg) {
  return llvm::createStringError(llvm::inconvertibleErrorCode(), Msg);
}

/// A path in a diff header: "b/src/a.cpp", C-quoted when it has unusual
/// characters, with a tab after it when it has spaces.
std::string diffPath(StringRef S) {
  S = S.rtrim("\t\r");
  if (!(S.size() >= 2 && S.front() == '"' && S.back() == '"'))
    return S.str();
  std::string Out;
  S = S.drop_front().drop_back();
  for (size_t I = 0; I < S.size(); ++I) {
    if (S[I] != '\\' || I + 1 == S.size()) {
      Out += S[I];
      continue;
    }
    char C = S[++I];
    if (C >= '0' && C <= '7' && I + 2 < S.size()) { // octal byte
      Out += static_cast<char>((C - '0') * 64 + (S[I + 1] - '0') * 8 +
                               (S[I + 2] - '0'));
      I += 2;
    } else {
      Out += C == 't' ? '\t' : C == 'n' ? '\n' : C;
    }
  }
  return Out;
}

/// "+c,d" of a hunk header: the new file's lines c..c+d-1 (d = 1 when
/// absent); d = 0 is a deletion after line c.
bool newRange(StringRef Hunk, unsigned &First, unsigned &Count) {
  size_t Plus = Hunk.find(" +");
  if (Plus == StringRef::npos)
    return false;
  StringRef R = Hunk.substr(Plus + 2);
  R = R.take_until([](char C) { return C == ' '; });
  auto [Start, Len] = R.split(',');
  Count = 1;
  if (Start.getAsInteger(10, First))
    return false;
  return Len.empty() || !Len.getAsInteger(10, Count);
}

} // namespace

llvm::Expected<LineFilter> LineFilter::fromJSON(StringRef Json) {
  llvm::Expected<llvm::json::Value> V = llvm::json::parse(Json);
  if (!V)
    return bad("--line-filter: not JSON: " + llvm::toString(V.takeError()));
  const llvm::json::Array *Files = V->getAsArray();
  if (!Files)
    return bad("--line-filter: expected a list of {\"name\": ..., \"lines\": "
               "[[first, last], ...]}");
  LineFilter F;
  for (size_t I = 0; I < Files->size(); ++I) {
    std::string Where = "--line-filter: entry " + std::to_string(I + 1);
    const llvm::json::Object *O = (*Files)[I].getAsObject();
    std::optional<StringRef> Name = O ? O->getString("name") : std::nullopt;
    if (!Name || Name->empty())
      return bad(Where + " has no \"name\"");
    Entry E;
    E.Name = Name->str();
    const llvm::json::Value *Lines = O->get("lines");
    E.AllLines = !Lines;
    if (Lines) {
      const llvm::json::Array *L = Lines->getAsArray();
      if (!L)
        return bad(Where + ": \"lines\" must be a list of [first, last]");
      for (const llvm::json::Value &R : *L) {
        const llvm::json::Array *P = R.getAsArray();
        std::optional<int64_t> A = P && P->size() == 2 ? (*P)[0].getAsInteger()
                                                       : std::nullopt;
        std::optional<int64_t> B = P && P->size() == 2 ? (*P)[1].getAsInteger()
                                                       : std::nullopt;
        if (!A || !B || *A < 1 || *B < *A || *B > UINT32_MAX)
          return bad(Where + ": a line range must be [first, last] with "
                             "1 <= first <= last");
        E.Ranges.push_back({static_cast<unsigned>(*A), static_cast<unsigned>(*B)});
      }
    }
    F.Entries.push_back(std::move(E));
  }
  return F;
}

llvm::Expected<LineFilter> LineFilter::fromUnifiedDiff(StringRef Diff,
                                                       StringRef Root) {
  LineFilter F;
  Entry *Current = nullptr;
  StringRef Rest = Diff;
  while (!Rest.empty()) {
    auto [Line, Next] = Rest.split('\n');
    Rest = Next;
    if (Line.starts_with("+++ ")) {
      std::string Path = diffPath(Line.drop_front(4));
      Current = nullptr;
      if (Path == "/dev/null") // a deleted file
        continue;
      StringRef P(Path);
      if (!P.consume_front("b/"))
        return bad("git diff: unexpected file header '" + Line + "'");
      llvm::SmallString<256> Abs(Root);
      llvm::sys::path::append(Abs, P);
      F.Entries.push_back({std::string(Abs), /*Suffix=*/false, false, {}});
      Current = &F.Entries.back();
      continue;
    }
    if (!Line.starts_with("@@ ") || !Current)
      continue;
    unsigned First = 0, Count = 0;
    if (!newRange(Line, First, Count))
      return bad("git diff: unexpected hunk header '" + Line + "'");
    if (Count == 0) // lines removed after line First: it changed place
      Current->Ranges.push_back({std::max(First, 1u), std::max(First, 1u)});
    else
      Current->Ranges.push_back({First, First + Count - 1});
  }
  return F;
}

const LineFilter::Entry *LineFilter::find(StringRef File) const {
  for (const Entry &E : Entries) {
    if (!E.Suffix) {
      if (File == E.Name)
        return &E;
      continue;
    }
    // A whole path component: "a.cpp" names src/a.cpp, not src/data.cpp.
    if (File.ends_with(E.Name) &&
        (File.size() == E.Name.size() ||
         llvm::sys::path::is_separator(File[File.size() - E.Name.size() - 1]) ||
         llvm::sys::path::is_separator(E.Name.front())))
      return &E;
  }
  return nullptr;
}

bool LineFilter::passes(StringRef File, unsigned First, unsigned Last) const {
  const Entry *E = find(File);
  if (!E)
    return false;
  if (E->AllLines)
    return true;
  for (const auto &[A, B] : E->Ranges)
    if (A <= Last && First <= B)
      return true;
  return false;
}

bool LineFilter::mentions(StringRef File) const {
  const Entry *E = find(File);
  return E && (E->AllLines || !E->Ranges.empty());
}
