//===- RejectReasonTest.cpp - The refusal kinds' table --------------------===//
//
// Each kind of RejectKinds.def has a unique kebab-case slug (JSON's
// reason_kind) that names it back, and a one-line category
// (docs/design.md, "Refusals").
//
//===----------------------------------------------------------------------===//

#include "roofline/Frontend/RejectReason.h"

#include "llvm/ADT/StringSet.h"
#include "gtest/gtest.h"

using namespace roofline;

namespace {

bool isKebab(llvm::StringRef S) {
  if (S.empty() || S.front() == '-' || S.back() == '-' || S.contains("--"))
    return false;
  return llvm::all_of(S, [](char C) {
    return (C >= 'a' && C <= 'z') || (C >= '0' && C <= '9') || C == '-';
  });
}

TEST(RejectReasonTest, SlugsAreUniqueKebabCaseAndNameTheirKind) {
  llvm::StringSet<> Seen;
  ASSERT_GE(allRejectKinds().size(), 20u);
  for (RejectKind K : allRejectKinds()) {
    llvm::StringRef Slug = rejectKindSlug(K);
    EXPECT_TRUE(isKebab(Slug)) << Slug.str();
    EXPECT_TRUE(Seen.insert(Slug).second) << "slug used twice: " << Slug.str();
    std::optional<RejectKind> Back = rejectKindNamed(Slug);
    ASSERT_TRUE(Back) << Slug.str();
    EXPECT_EQ(*Back, K) << Slug.str();
    llvm::StringRef Cat = rejectKindCategory(K);
    EXPECT_FALSE(Cat.empty()) << Slug.str();
    EXPECT_FALSE(Cat.contains('\n')) << Slug.str();
  }
  EXPECT_FALSE(rejectKindNamed("no-such-kind"));
}

TEST(RejectReasonTest, TheUserReadsTheDetail) {
  RejectReason R{RejectKind::DataDependentIndex,
                 "access 'A[idx[i]]': gather: the index 'idx[i]' of 'A' is "
                 "loaded from memory"};
  EXPECT_EQ(R.getEndUserMessage(), R.Detail);
  EXPECT_EQ(rejectKindSlug(R.Kind), "data-dependent-index");
}

} // namespace
