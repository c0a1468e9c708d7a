//===- JsonText.h - llvm::json::Value to text, fast ------------*- C++ -*-===//
//
// The same text as formatv("{0:N}", Value) (llvm::json::OStream: keys
// sorted, N-space indentation, numbers as "%.17g"), written straight into a
// string. formatv prints into an unbuffered raw_string_ostream one
// character at a time, which made the --format=json and SARIF reports
// cost more than the analysis (docs/results/speed.txt).
//
//===----------------------------------------------------------------------===//

#ifndef ROOFLINE_SUPPORT_JSONTEXT_H
#define ROOFLINE_SUPPORT_JSONTEXT_H

#include "llvm/Support/JSON.h"

#include <string>

namespace roofline {

/// Appends \p V to \p Out as formatv("{0:<IndentSize>}") prints it, every
/// line after the first indented \p Indent more columns (for a value that
/// sits that deep in an enclosing document).
void appendJson(std::string &Out, const llvm::json::Value &V,
                unsigned IndentSize = 2, unsigned Indent = 0);

/// \p V as formatv("{0:<IndentSize>}") prints it.
std::string jsonText(const llvm::json::Value &V, unsigned IndentSize = 2);

} // namespace roofline

#endif // ROOFLINE_SUPPORT_JSONTEXT_H
