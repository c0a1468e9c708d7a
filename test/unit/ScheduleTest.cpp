//===- ScheduleTest.cpp - Schedules as values, and their text form --------===//
//
// The automatic schedules are built as records, not text: a record the
// tool builds must be one the parser would accept from a user and print
// back the same, and a malformed one must be caught (check()).
//
//===----------------------------------------------------------------------===//

#include "roofline/CodeGen/Units.h"
#include "roofline/Transform/Schedule.h"

#include <gtest/gtest.h>

using namespace roofline;

namespace {

using Rec = TransformRecord;

std::string checkError(const TransformRecord &R) {
  llvm::Error E = R.check();
  return E ? llvm::toString(std::move(E)) : std::string("ok");
}

// The gemm schedule of the tiled variant, built as a value, prints as the
// text it used to be formatted as, and parses back to the same records.
TEST(ScheduleTest, BuiltRecordsRoundTripThroughText) {
  Schedule S;
  S.then(Rec::make(Rec::Tile, {"j", "k", "i"}, {1024, 512, 120}))
      .then(Rec::make(Rec::RegBlock, {"i", "j"}, {6, 64}))
      .then(Rec::make(Rec::Pack, {"B"}))
      .then(Rec::make(Rec::Pack, {"A"}))
      .then(Rec::make(Rec::Parallel, {"i_1"}))
      .then(Rec::make(Rec::ImplicitGemm, {"mc", "nc", "kc", "mr", "nr"},
                      {120, 1024, 512, 6, 64}))
      .then(Rec::make(Rec::Fuse, {}))
      .then(Rec::make(Rec::Contract, {"t1", "t2"}))
      .then(Rec::quantize("int8"));
  const std::string Text =
      "tile(j:1024,k:512,i:120); regblock(i:6,j:64); pack(B); pack(A); "
      "parallel(i_1); implicit_gemm(mc:120,nc:1024,kc:512,mr:6,nr:64); fuse; "
      "contract(t1,t2); quantize(int8)";
  EXPECT_EQ(S.str(), Text);
  llvm::Expected<Schedule> P = Schedule::parse(Text);
  ASSERT_TRUE(bool(P)) << llvm::toString(P.takeError());
  EXPECT_EQ(P->str(), Text);
  ASSERT_EQ(P->Records.size(), S.Records.size());
  for (size_t I = 0; I < S.Records.size(); ++I) {
    EXPECT_EQ(P->Records[I].Kind, S.Records[I].Kind);
    EXPECT_EQ(P->Records[I].Names, S.Records[I].Names);
    EXPECT_EQ(P->Records[I].Sizes, S.Records[I].Sizes);
    EXPECT_EQ(checkError(P->Records[I]), "ok");
  }
}

// What the parser refuses from a user, check() refuses in a built record
// (where make() asserts): the parser's old silent fallback to an empty
// schedule cannot hide it.
TEST(ScheduleTest, CheckCatchesMalformedRecords) {
  Rec Twice;
  Twice.Kind = Rec::Tile;
  Twice.Names = {"i", "i"};
  Twice.Sizes = {32, 32};
  EXPECT_EQ(checkError(Twice),
            "schedule record 'tile(i:32,i:32)': 'i' is named twice");
  Rec NoSize = Twice;
  NoSize.Names = {"i", "j"};
  NoSize.Sizes = {32};
  EXPECT_NE(checkError(NoSize), "ok");
  Rec BadName;
  BadName.Kind = Rec::Parallel;
  BadName.Names = {"i 1"};
  EXPECT_NE(checkError(BadName), "ok");
  Rec TwoLoops;
  TwoLoops.Kind = Rec::Parallel;
  TwoLoops.Names = {"i", "j"};
  EXPECT_EQ(checkError(TwoLoops),
            "schedule record 'parallel(i,j)': takes one loop");
  Rec Quant;
  Quant.Kind = Rec::Quantize;
  Quant.Precision = "int4";
  EXPECT_NE(checkError(Quant), "ok");
  // A user's text keeps its own wording in the error.
  llvm::Expected<Schedule> U = Schedule::parse("tile(i,i:4)");
  ASSERT_FALSE(bool(U));
  EXPECT_EQ(llvm::toString(U.takeError()),
            "schedule record 'tile(i,i:4)': 'i' is named twice");
}

// Variant kinds are an enum; the names are one table, used for output and
// for --variants.
TEST(ScheduleTest, VariantKindNames) {
  std::vector<std::string> Names;
  for (VariantKind K : allVariantKinds()) {
    Names.push_back(variantName(K));
    EXPECT_EQ(variantNamed(variantName(K)), K);
  }
  EXPECT_EQ(Names, allVariantNames());
  EXPECT_EQ(Names, (std::vector<std::string>{"naive", "interchanged", "tiled",
                                             "parallel", "fused", "int8",
                                             "bf16", "scheduled"}));
  EXPECT_FALSE(variantNamed("warp")); // a CUDA variant
}

} // namespace
