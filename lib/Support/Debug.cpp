//===- Debug.cpp - Debug tracing that release builds keep -----------------===//

#include "roofline/Support/Debug.h"

#include "llvm/ADT/STLExtras.h"
#include "llvm/Support/CommandLine.h"

#include <string>
#include <vector>

// libLLVM defines these in every build; its header hides them under NDEBUG.
#undef isCurrentDebugType
namespace llvm {
bool isCurrentDebugType(const char *Type);
} // namespace llvm

using namespace llvm;

bool roofline::DebugTracing = false;

namespace {
bool UseLLVMOption = false;
std::vector<std::string> &debugTypes() {
  static std::vector<std::string> Types;
  return Types;
}
} // namespace

bool roofline::debugTypeEnabled(const char *Type) {
  if (UseLLVMOption)
    return DebugFlag && isCurrentDebugType(Type);
  return is_contained(debugTypes(), StringRef(Type));
}

void roofline::addDebugOnlyOption() {
  if (cl::getRegisteredOptions().count("debug-only")) {
    UseLLVMOption = DebugTracing = true;
    return;
  }
  static cl::list<std::string> DebugOnly(
      "debug-only", cl::CommaSeparated, cl::Hidden,
      cl::value_desc("type,..."),
      cl::desc("Trace the analyses of these DEBUG_TYPEs on stderr "
               "(roofline-frontend, roofline-lower, roofline-counts, "
               "roofline-footprint, "
               "roofline-cache; docs/design.md)"),
      cl::callback([](const std::string &Type) {
        debugTypes().push_back(Type);
        DebugTracing = true;
      }));
}
