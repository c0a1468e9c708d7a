//===- CheckRegistryTest.cpp - The one table of checks --------------------===//
//
// Every check is registered once (lib/Config/Checks.cpp): its id finds its
// row, its name is unique and findable, and its docs page exists.
//
//===----------------------------------------------------------------------===//

#include "roofline/Config/Checks.h"

#include "llvm/ADT/SmallString.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/Path.h"

#include "gtest/gtest.h"

#include <set>
#include <string>

using namespace roofline;

namespace {

TEST(CheckRegistryTest, EveryIdHasItsRow) {
  for (const CheckInfo &C : allChecks()) {
    EXPECT_EQ(&check(C.Id), &C) << C.Name.str();
    EXPECT_EQ(checkName(C.Id), C.Name);
    EXPECT_EQ(findCheck(C.Name), &C);
  }
  // The last id is the last row: no id without a row.
  EXPECT_EQ(static_cast<size_t>(CheckId::NoLint) + 1, allChecks().size());
}

TEST(CheckRegistryTest, NamesAreUnique) {
  std::set<std::string> Names;
  for (const CheckInfo &C : allChecks())
    EXPECT_TRUE(Names.insert(C.Name.str()).second) << C.Name.str();
  EXPECT_EQ(allCheckNames().size(), allChecks().size());
}

TEST(CheckRegistryTest, EveryCheckHasItsDocsPage) {
  for (const CheckInfo &C : allChecks()) {
    EXPECT_EQ(C.DocPage, ("docs/diagnostics/" + C.Name + ".md").str());
    llvm::SmallString<256> Path(ROOFLINE_SOURCE_DIR);
    llvm::sys::path::append(Path, C.DocPage);
    EXPECT_TRUE(llvm::sys::fs::exists(Path)) << Path.str().str();
  }
}

} // namespace
