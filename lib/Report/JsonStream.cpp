//===- JsonStream.cpp - One --format=json report for many files, streamed -===//

#include "roofline/Report/JsonStream.h"

#include "llvm/ADT/ScopeExit.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/FormatVariadic.h"

using namespace roofline;
using namespace llvm;

std::string roofline::serializeNestElement(const json::Value &Nest) {
  // An element of a top-level array sits two levels deep: every line after
  // the first is indented four more columns than when printed alone.
  std::string Alone = formatv("{0:2}", Nest).str();
  std::string Out;
  Out.reserve(Alone.size() + Alone.size() / 8);
  for (char C : Alone) {
    Out += C;
    if (C == '\n')
      Out += "    ";
  }
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
  Top.insert_or_assign(Key.str(), std::move(V));
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
  std::map<std::string, json::Value *> Keys;
  for (auto &[K, V] : Top)
    Keys.emplace(K, &V);
  Keys.emplace("nests", nullptr);

  json::OStream J(OS, /*IndentSize=*/2);
  J.objectBegin();
  std::string Buf;
  Error ReadError = Error::success();
  for (auto &[K, V] : Keys) {
    if (V) {
      J.attribute(K, *V);
      continue;
    }
    J.attributeBegin(K);
    J.arrayBegin();
    for (uint64_t Size : Sizes) {
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
      Buf.resize(Got);
      J.rawValue(Buf);
    }
    J.arrayEnd();
    J.attributeEnd();
  }
  J.objectEnd();
  OS << "\n";
  return ReadError;
}
