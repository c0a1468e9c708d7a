//===- Error.h - An llvm::Error from a message ------------------*- C++ -*-===//
//
// The libraries' errors are reasons for the user (a nest refused, a file that
// does not parse): text, with no code a caller dispatches on. One helper
// makes them, instead of a copy per file.
//
//===----------------------------------------------------------------------===//

#ifndef ROOFLINE_SUPPORT_ERROR_H
#define ROOFLINE_SUPPORT_ERROR_H

#include "llvm/ADT/Twine.h"
#include "llvm/Support/Error.h"

namespace roofline {

/// An error whose message is \p Msg.
inline llvm::Error makeError(const llvm::Twine &Msg) {
  return llvm::createStringError(llvm::inconvertibleErrorCode(), Msg);
}

} // namespace roofline

#endif // ROOFLINE_SUPPORT_ERROR_H
