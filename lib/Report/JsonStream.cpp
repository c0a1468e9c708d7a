//===- JsonStream.cpp - One --format=json report for many files, streamed -===//

#include "roofline/Report/JsonStream.h"
#include "roofline/Support/JsonText.h"

#include "llvm/ADT/ScopeExit.h"
#include "llvm/Support/FileSystem.h"

using namespace roofline;
using namespace llvm;

std::string roofline::serializeNestElement(const json::Value &Nest) {
  // An element of a top-level array sits two levels deep: every line after
  // the first is indented four more columns than when printed alone.
  std::string Out;
  appendJson(Out, Nest, /*IndentSize=*/2, /*Indent=*/4);
  return Out;
}

JsonReportWriter::JsonReportWriter() = default;

JsonReportWriter::~JsonReportWriter() {
  Spool.reset();
  if (!SpoolPath.empty())
    sys::fs::remove(SpoolPath);
}

Error JsonReportWriter::openSpool() {
  int FD;
  SmallString<128> Path;
  if (std::error_code EC =
          sys::fs::createTemporaryFile("roofline-nests", "json", FD, Path))
    return createStringError(EC, "cannot create a temporary file: %s",
                             EC.message().c_str());
  SpoolPath = std::string(Path);
  Spool = std::make_unique<raw_fd_ostream>(FD, /*shouldClose=*/true);
  return Error::success();
}

Error JsonReportWriter::addNest(StringRef Serialized) {
  if (!Spool)
    if (Error E = openSpool())
      return E;
  *Spool << Serialized;
  Sizes.push_back(Serialized.size());
  return Error::success();
}

void JsonReportWriter::addFile(json::Object Rest) {
  for (auto &KV : Rest) {
    std::string Key = KV.first.str();
    auto It = Top.find(Key);
    if (It == Top.end()) {
      Top.emplace(Key, std::move(KV.second));
      continue;
    }
    json::Array *Have = It->second.getAsArray();
    json::Array *More = KV.second.getAsArray();
    if (Have && More)
      for (json::Value &V : *More)
        Have->push_back(std::move(V));
  }
}

void JsonReportWriter::set(StringRef Key, json::Value V) {
  TopText.erase(Key.str());
  Top.insert_or_assign(Key.str(), std::move(V));
}

void JsonReportWriter::setText(StringRef Key, std::string Text) {
  Top.erase(Key.str());
  TopText.insert_or_assign(Key.str(), std::move(Text));
}

Error JsonReportWriter::write(raw_ostream &OS) {
  // The spool is read back one nest at a time: mapping it whole would put
  // the whole report in memory again.
  std::optional<sys::fs::file_t> In;
  if (Spool) {
    Spool->close();
    if (Spool->has_error())
      return createStringError(Spool->error(), "cannot write '%s'",
                               SpoolPath.c_str());
    Expected<sys::fs::file_t> F = sys::fs::openNativeFileForRead(SpoolPath);
    if (!F)
      return F.takeError();
    In = *F;
  }
  auto CloseIn = make_scope_exit([&] {
    if (In)
      sys::fs::closeFile(*In);
  });
  Top.erase("nests");
  TopText.erase("nests");
  // Per key: its value, or its text (setText), or neither: the nests.
  std::map<std::string, std::pair<json::Value *, std::string *>> Keys;
  for (auto &[K, V] : Top)
    Keys.emplace(K, std::make_pair(&V, nullptr));
  for (auto &[K, T] : TopText)
    Keys.emplace(K, std::make_pair(nullptr, &T));
  Keys.emplace("nests", std::make_pair(nullptr, nullptr));

  // The text json::OStream would write (keys in order, two-space indent),
  // with the spooled nests pasted in as they are.
  std::string Text;
  std::string Buf;
  Error ReadError = Error::success();
  bool FirstKey = true;
  Text += '{';
  for (auto &[K, Member] : Keys) {
    auto [V, Written] = Member;
    Text += FirstKey ? "\n  " : ",\n  ";
    FirstKey = false;
    appendJson(Text, json::Value(K), 2);
    Text += ": ";
    if (V) {
      appendJson(Text, *V, /*IndentSize=*/2, /*Indent=*/2);
      continue;
    }
    if (Written) {
      Text += *Written;
      continue;
    }
    OS << Text;
    Text.clear();
    OS << '[';
    // Each nest goes from the read buffer to OS: copied through Text it
    // cost a copy of the whole report, and resizing the buffer to each
    // nest's size zero-filled it (docs/results/speed.txt).
    for (size_t I = 0; I < Sizes.size(); ++I) {
      uint64_t Size = Sizes[I];
      if (Buf.size() < Size)
        Buf.resize(Size);
      size_t Got = 0;
      while (In && Got < Size) {
        Expected<size_t> N = sys::fs::readNativeFile(
            *In, MutableArrayRef<char>(Buf.data() + Got, Size - Got));
        if (!N) {
          ReadError = joinErrors(std::move(ReadError), N.takeError());
          break;
        }
        if (*N == 0)
          break;
        Got += *N;
      }
      OS << (I == 0 ? "\n    " : ",\n    ");
      OS.write(Buf.data(), Got);
    }
    Text += Sizes.empty() ? "]" : "\n  ]";
  }
  Text += FirstKey ? "}" : "\n}";
  OS << Text;
  OS << "\n";
  return ReadError;
}
