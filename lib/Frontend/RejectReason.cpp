//===- RejectReason.cpp - Why the front end refuses a nest ----------------===//

#include "roofline/Frontend/RejectReason.h"

#include "llvm/ADT/STLExtras.h"

using namespace roofline;

namespace {
struct KindInfo {
  RejectKind Kind;
  const char *Slug;
  const char *Category;
};
constexpr KindInfo Kinds[] = {
#define REJECT_KIND(Enum, Slug, Category) {RejectKind::Enum, Slug, Category},
#include "roofline/Frontend/RejectKinds.def"
};
constexpr RejectKind KindList[] = {
#define REJECT_KIND(Enum, Slug, Category) RejectKind::Enum,
#include "roofline/Frontend/RejectKinds.def"
};

const KindInfo &info(RejectKind K) {
  assert(static_cast<size_t>(K) < std::size(Kinds) &&
         Kinds[static_cast<size_t>(K)].Kind == K && "kinds out of order");
  return Kinds[static_cast<size_t>(K)];
}
} // namespace

llvm::StringRef roofline::rejectKindSlug(RejectKind K) { return info(K).Slug; }

llvm::StringRef roofline::rejectKindCategory(RejectKind K) {
  return info(K).Category;
}

llvm::ArrayRef<RejectKind> roofline::allRejectKinds() { return KindList; }

std::optional<RejectKind> roofline::rejectKindNamed(llvm::StringRef Slug) {
  for (const KindInfo &I : Kinds)
    if (Slug == I.Slug)
      return I.Kind;
  return std::nullopt;
}
