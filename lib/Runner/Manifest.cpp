//===- Manifest.cpp - Reading the directories roofline-lint --emit writes -===//

#include "roofline/Runner/Manifest.h"

#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/Path.h"

using namespace roofline;
namespace json = llvm::json;

namespace {

llvm::Error manifestError(llvm::StringRef Where, const llvm::Twine &Msg) {
  return llvm::createStringError(llvm::inconvertibleErrorCode(),
                                 Where + ": " + Msg);
}

std::string str(const json::Object &O, llvm::StringRef Key,
                llvm::StringRef Default = "") {
  if (std::optional<llvm::StringRef> S = O.getString(Key))
    return S->str();
  return Default.str();
}

std::vector<std::string> strings(const json::Object &O, llvm::StringRef Key) {
  std::vector<std::string> Out;
  if (const json::Array *A = O.getArray(Key))
    for (const json::Value &V : *A)
      if (std::optional<llvm::StringRef> S = V.getAsString())
        Out.push_back(S->str());
  return Out;
}

std::map<std::string, std::string> stringMap(const json::Object *O) {
  std::map<std::string, std::string> Out;
  if (!O)
    return Out;
  for (const auto &[K, V] : *O)
    Out[K.str()] = V.getAsString() ? V.getAsString()->str() : "";
  return Out;
}

VariantPrediction prediction(const json::Object *P) {
  VariantPrediction Out;
  if (!P)
    return Out;
  if (std::optional<llvm::StringRef> W = P->getString("why_not")) {
    Out.WhyNot = W->str();
    return Out;
  }
  std::optional<double> F = P->getNumber("flops");
  const json::Object *B = P->getObject("bytes");
  if (!F || !B)
    return Out;
  Out.Known = true;
  Out.Flops = *F;
  Out.BytesCompulsory = B->getNumber("compulsory").value_or(0);
  Out.BytesNoReuse = B->getNumber("no_reuse").value_or(0);
  if (const json::Object *T = P->getObject("flops_by_type"))
    for (const auto &[K, V] : *T)
      if (std::optional<double> X = V.getAsNumber())
        Out.FlopsByType[K.str()] = *X;
  return Out;
}

ContractionOperand operand(const json::Object *O) {
  ContractionOperand Out;
  if (!O)
    return Out;
  Out.Array = str(*O, "array");
  Out.Strides = stringMap(O->getObject("strides"));
  return Out;
}

} // namespace

const ManifestVariant *UnitManifest::find(llvm::StringRef Name) const {
  for (const ManifestVariant &V : Variants)
    if (V.Name == Name && !V.isCuda())
      return &V;
  for (const ManifestVariant &V : Variants)
    if (V.DriverName == Name || V.Name == Name)
      return &V;
  return nullptr;
}

std::string UnitManifest::sizesText() const {
  std::string S;
  for (const ManifestSize &Z : Sizes)
    S += (S.empty() ? "" : " ") + Z.Name + "=" +
         (Z.Value ? std::to_string(*Z.Value) : std::string("?"));
  return S;
}

llvm::Expected<UnitManifest> roofline::parseManifest(llvm::StringRef Text,
                                                     llvm::StringRef Dir) {
  std::string Where = (Dir + "/manifest.json").str();
  llvm::Expected<json::Value> V = json::parse(Text);
  if (!V)
    return manifestError(Where, llvm::toString(V.takeError()));
  const json::Object *O = V->getAsObject();
  if (!O)
    return manifestError(Where, "not a JSON object");
  if (O->getInteger("version").value_or(0) != 1)
    return manifestError(Where, "unsupported manifest version (want 1)");
  UnitManifest M;
  M.Dir = Dir.str();
  M.Unit = str(*O, "unit");
  if (M.Unit.empty())
    return manifestError(Where, "no 'unit'");
  M.Kind = str(*O, "kind");
  M.Function = str(*O, "function");
  M.File = str(*O, "file");
  M.Machine = str(*O, "machine");
  if (const json::Array *L = O->getArray("lines"))
    for (const json::Value &X : *L)
      if (std::optional<int64_t> I = X.getAsInteger())
        M.Lines.push_back(*I);
  if (const json::Array *S = O->getArray("sizes"))
    for (const json::Value &X : *S)
      if (const json::Object *Z = X.getAsObject()) {
        ManifestSize Size;
        Size.Name = str(*Z, "name");
        Size.Value = Z->getInteger("value");
        Size.Fixed = Z->getBoolean("fixed").value_or(false);
        M.Sizes.push_back(std::move(Size));
      }
  if (const json::Array *A = O->getArray("args"))
    for (const json::Value &X : *A)
      if (const json::Object *Z = X.getAsObject()) {
        ManifestArg Arg;
        Arg.Name = str(*Z, "name");
        Arg.Type = str(*Z, "type");
        Arg.Elem = str(*Z, "elem");
        Arg.Intent = str(*Z, "intent", "in");
        Arg.Shape = strings(*Z, "shape");
        Arg.Scalar = Z->getBoolean("scalar").value_or(false);
        M.Args.push_back(std::move(Arg));
      }
  if (const json::Object *B = O->getObject("build")) {
    M.Cxx = str(*B, "cxx", "c++");
    M.Flags = strings(*B, "flags");
    M.LdFlags = strings(*B, "ldflags");
  }
  if (const json::Object *R = O->getObject("reference"))
    M.ReferenceFile = str(*R, "file", "reference.cpp");
  M.DriverFile = str(*O, "driver", "driver.cpp");
  if (const json::Object *C = O->getObject("cuda_build")) {
    M.CudaDriverFile = str(*C, "driver");
    M.CudaFlags = strings(*C, "flags");
    M.CudaLdFlags = strings(*C, "ldflags");
  }
  const json::Array *Vs = O->getArray("variants");
  if (!Vs)
    return manifestError(Where, "no 'variants'");
  for (const json::Value &X : *Vs) {
    const json::Object *Z = X.getAsObject();
    if (!Z)
      continue;
    ManifestVariant Var;
    Var.Name = str(*Z, "name");
    Var.Skipped = str(*Z, "skipped");
    Var.File = str(*Z, "file");
    Var.Symbol = str(*Z, "symbol");
    Var.Schedule = str(*Z, "schedule");
    Var.Path = str(*Z, "path");
    Var.Threads = str(*Z, "threads", "1");
    Var.Target = str(*Z, "target", "cpu");
    Var.Timer = str(*Z, "timer");
    std::string Prefix = "rl_" + M.Unit + "_";
    Var.DriverName = llvm::StringRef(Var.Symbol).starts_with(Prefix)
                         ? Var.Symbol.substr(Prefix.size())
                         : Var.Name;
    if (const json::Object *T = Z->getObject("tolerance")) {
      Var.RTol = T->getNumber("rtol").value_or(0);
      Var.RTolPerTerm = T->getNumber("rtol_per_term").value_or(0);
      Var.ATol = T->getNumber("atol").value_or(0);
    }
    Var.Predicted = prediction(Z->getObject("predicted"));
    if (Var.Skipped.empty() && Var.File.empty())
      return manifestError(Where, "variant '" + Var.Name + "' has no 'file'");
    M.Variants.push_back(std::move(Var));
  }
  if (const json::Object *C = O->getObject("contraction")) {
    ManifestContraction K;
    K.Kind = str(*C, "kind");
    K.Elem = str(*C, "elem");
    K.Batch = C->getInteger("batch").value_or(0);
    K.Epilogue = C->getInteger("epilogue").value_or(0);
    K.InitZero = C->getBoolean("init_zero").value_or(false);
    K.Extent = stringMap(C->getObject("extent"));
    K.First = stringMap(C->getObject("first"));
    K.Out = operand(C->getObject("out"));
    K.L = operand(C->getObject("l"));
    K.R = operand(C->getObject("r"));
    M.Contraction = std::move(K);
  }
  return M;
}

llvm::Expected<UnitManifest> roofline::loadManifest(llvm::StringRef UnitDir) {
  std::string Path = (UnitDir + "/manifest.json").str();
  llvm::ErrorOr<std::unique_ptr<llvm::MemoryBuffer>> B =
      llvm::MemoryBuffer::getFile(Path);
  if (!B)
    return manifestError(Path, B.getError().message());
  return parseManifest((*B)->getBuffer(), UnitDir);
}

llvm::Expected<std::vector<std::string>>
roofline::loadUnitIndex(llvm::StringRef Dir) {
  std::string Path = (Dir + "/units.json").str();
  llvm::ErrorOr<std::unique_ptr<llvm::MemoryBuffer>> B =
      llvm::MemoryBuffer::getFile(Path);
  if (!B)
    return manifestError(Path, B.getError().message() +
                                   " (a directory written by roofline-lint "
                                   "--emit has one)");
  llvm::Expected<json::Value> V = json::parse((*B)->getBuffer());
  if (!V)
    return manifestError(Path, llvm::toString(V.takeError()));
  const json::Object *O = V->getAsObject();
  const json::Array *U = O ? O->getArray("units") : nullptr;
  if (!U)
    return manifestError(Path, "no 'units' array");
  std::vector<std::string> Out;
  for (const json::Value &X : *U)
    if (std::optional<llvm::StringRef> S = X.getAsString())
      Out.push_back(S->str());
  return Out;
}
