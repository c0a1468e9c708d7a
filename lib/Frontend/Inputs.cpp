//===- Inputs.cpp - Source files from the command line ---------------------===//

#include "roofline/Frontend/Inputs.h"

#include "llvm/ADT/SmallString.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/Path.h"

#include <algorithm>
#include <set>

using namespace llvm;

bool roofline::isSourceFile(StringRef Path) {
  StringRef Ext = sys::path::extension(Path);
  return Ext == ".c" || Ext == ".cc" || Ext == ".cpp" || Ext == ".cxx" ||
         Ext == ".cu";
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
