//===- Inputs.cpp - Source files from the command line ---------------------===//

#include "roofline/Frontend/Inputs.h"

#include "llvm/ADT/SmallString.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/Path.h"

#include <algorithm>
#include <set>

using namespace llvm;

bool roofline::isSourceFile(StringRef Path) {
  StringRef Ext = sys::path::extension(Path);
  return Ext == ".c" || Ext == ".cc" || Ext == ".cpp" || Ext == ".cxx" ||
         Ext == ".cu";
}

bool roofline::isHeaderFile(StringRef Path) {
  StringRef Ext = sys::path::extension(Path);
  return Ext == ".h" || Ext == ".hh" || Ext == ".hpp" || Ext == ".hxx" ||
         Ext == ".cuh" || Ext == ".inl" || Ext == ".inc";
}

/// Whether \p Text has an `#include "P"` or `#include <P>` whose path P the
/// path \p Header ends with (as a whole component).
static bool includesHeader(StringRef Text, StringRef Header) {
  while (!Text.empty()) {
    auto [Line, Rest] = Text.split('\n');
    Text = Rest;
    Line = Line.ltrim();
    if (!Line.consume_front("#"))
      continue;
    Line = Line.ltrim();
    if (!Line.consume_front("include"))
      continue;
    Line = Line.ltrim();
    if (Line.empty() || (Line.front() != '"' && Line.front() != '<'))
      continue;
    char Close = Line.front() == '"' ? '"' : '>';
    StringRef Path = Line.drop_front().take_until([&](char C) { return C == Close; });
    while (Path.consume_front("./"))
      ;
    if (!Path.empty() && Header.ends_with(Path) &&
        (Header.size() == Path.size() ||
         sys::path::is_separator(Header[Header.size() - Path.size() - 1])))
      return true;
  }
  return false;
}

std::optional<std::string>
roofline::translationUnitFor(StringRef Header, ArrayRef<std::string> Candidates) {
  StringRef Stem = sys::path::stem(Header);
  std::vector<const std::string *> Order;
  for (const std::string &C : Candidates)
    if (sys::path::stem(C) == Stem)
      Order.push_back(&C);
  for (const std::string &C : Candidates)
    if (sys::path::stem(C) != Stem)
      Order.push_back(&C);
  for (const std::string *C : Order) {
    if (*C == Header || isHeaderFile(*C))
      continue;
    ErrorOr<std::unique_ptr<MemoryBuffer>> Buf = MemoryBuffer::getFile(*C);
    if (Buf && includesHeader((*Buf)->getBuffer(), Header))
      return *C;
  }
  return std::nullopt;
}

std::string roofline::normalizePath(StringRef Path) {
  SmallString<256> P(Path);
  sys::fs::make_absolute(P);
  sys::path::remove_dots(P, /*remove_dot_dot=*/true);
  return std::string(P);
}

static void searchDirectory(const std::string &Dir,
                            std::vector<std::string> &Out,
                            std::vector<std::string> &Errors) {
  std::vector<std::string> Found;
  std::error_code EC;
  for (sys::fs::recursive_directory_iterator It(Dir, EC), End; It != End && !EC;
       It.increment(EC)) {
    StringRef Name = sys::path::filename(It->path());
    sys::fs::file_type Type = It->type();
    bool IsDir = Type == sys::fs::file_type::directory_file ||
                 (Type == sys::fs::file_type::type_unknown &&
                  sys::fs::is_directory(It->path()));
    if (IsDir) {
      if (Name.starts_with("."))
        It.no_push();
      continue;
    }
    if (roofline::isSourceFile(It->path()))
      Found.push_back(It->path());
  }
  if (EC)
    Errors.push_back("cannot search directory '" + Dir + "': " + EC.message());
  // Directory iteration order is the file system's: sort for stable output.
  std::sort(Found.begin(), Found.end());
  Out.insert(Out.end(), Found.begin(), Found.end());
}

roofline::InputList roofline::collectInputs(ArrayRef<std::string> Args) {
  InputList L;
  std::vector<std::string> All;
  for (const std::string &A : Args) {
    std::string P = normalizePath(A);
    if (sys::fs::is_directory(P))
      searchDirectory(P, All, L.Errors);
    else if (sys::fs::exists(P))
      All.push_back(P);
    else
      L.Errors.push_back("no such file or directory: '" + A + "'");
  }
  std::set<std::string> Seen;
  for (std::string &F : All)
    if (Seen.insert(F).second)
      L.Files.push_back(std::move(F));
  return L;
}
