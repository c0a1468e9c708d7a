//===- RejectReason.h - Why the front end refuses a nest -------*- C++ -*-===//
//
// A refusal is a kind (RejectKinds.def: one per cause, with a stable slug
// and a one-line category) and the detail the refusal site words, which is
// the message the user reads. The kind is what tools and JSON consumers
// match on (skipped[].reason_kind); the detail names the source.
// docs/design.md, "Refusals".
//
//===----------------------------------------------------------------------===//

#ifndef ROOFLINE_FRONTEND_REJECTREASON_H
#define ROOFLINE_FRONTEND_REJECTREASON_H

#include "llvm/ADT/ArrayRef.h"
#include "llvm/ADT/StringRef.h"

#include <cstdint>
#include <optional>
#include <string>

namespace roofline {

enum class RejectKind : uint8_t {
#define REJECT_KIND(Enum, Slug, Category) Enum,
#include "roofline/Frontend/RejectKinds.def"
};

/// The stable kebab-case name of \p K ("data-dependent-index").
llvm::StringRef rejectKindSlug(RejectKind K);
/// One line saying which refusals \p K covers.
llvm::StringRef rejectKindCategory(RejectKind K);
/// Every kind, in the order of RejectKinds.def.
llvm::ArrayRef<RejectKind> allRejectKinds();
/// The kind named \p Slug, if any.
std::optional<RejectKind> rejectKindNamed(llvm::StringRef Slug);

/// Why one nest was refused.
struct RejectReason {
  RejectKind Kind;
  /// The specific detail ("while loop inside the nest: ...").
  std::string Detail;
  /// What the user reads: the detail alone, as before kinds existed.
  const std::string &getEndUserMessage() const { return Detail; }
};

} // namespace roofline

#endif // ROOFLINE_FRONTEND_REJECTREASON_H
