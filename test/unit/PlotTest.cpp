//===- PlotTest.cpp - The roofline SVG from hand-built reports ------------===//

#include "roofline/Report/Plot.h"

#include "gtest/gtest.h"

using namespace roofline;

namespace {

Machine load(const char *Name) {
  llvm::Expected<Machine> M = loadMachine(Name);
  if (!M) {
    ADD_FAILURE() << llvm::toString(M.takeError());
    return Machine();
  }
  return std::move(*M);
}

unsigned count(const std::string &Hay, const std::string &Needle) {
  unsigned N = 0;
  for (size_t P = Hay.find(Needle); P != std::string::npos;
       P = Hay.find(Needle, P + 1))
    ++N;
  return N;
}

AnalyzedNest nest(const Machine &M, const std::string &Name, double Flops,
                  double Bytes, double Footprint) {
  AnalyzedNest A;
  A.Nest.Function = Name;
  A.Nest.Loc = {"k.cpp", 3, 1};
  A.Counts.Flops.Value = static_cast<Int128>(Flops);
  A.Counts.BytesCompulsory.Value = static_cast<Int128>(Bytes);
  A.Counts.BytesNoReuse.Value = static_cast<Int128>(Bytes);
  A.Judged.V = computeVerdict(M, Precision::F32, Flops, Bytes, Footprint,
                              "compulsory");
  A.Judged.Levels = judgeLevels(A.Counts, M, *A.Judged.V);
  return A;
}

TEST(PlotTest, RoofsWithoutNests) {
  Machine M = load("rtx-a6000");
  Report R;
  R.M = &M;
  std::string S = renderRooflineSVG(R);
  EXPECT_EQ(S.rfind("<?xml", 0), 0u);
  EXPECT_EQ(count(S, "class=\"roof memory\""), 3u); // DRAM, L2, L1
  EXPECT_EQ(count(S, "class=\"roof compute\""), 1u); // f32 only
  EXPECT_NE(S.find("no analyzed loop nests"), std::string::npos);
  EXPECT_NE(S.find("data-ridge=\"50.4\""), std::string::npos);
  EXPECT_EQ(count(S, "<svg"), 1u);
  EXPECT_EQ(count(S, "</svg>"), 1u);
}

TEST(PlotTest, PointsAreColouredByVerdict) {
  Machine M = load("rtx-a6000");
  Report R;
  R.M = &M;
  R.Nests.push_back(nest(M, "big", 134217728, 2097152, 2097152));
  R.Nests.push_back(nest(M, "small", 2097152, 4202496, 4202496));
  R.Nests.push_back(nest(M, "huge<T&>", 1e12, 1e11, 1e11)); // > 48 GiB
  std::string S = renderRooflineSVG(R);
  EXPECT_NE(S.find("data-nest=\"big\" data-bound=\"compute-bound\""),
            std::string::npos);
  EXPECT_NE(S.find("data-nest=\"small\" data-bound=\"memory-bound\""),
            std::string::npos);
  // Names are escaped.
  EXPECT_NE(S.find("data-nest=\"huge&lt;T&amp;&gt;\" "
                   "data-bound=\"does-not-fit\""),
            std::string::npos);
  EXPECT_EQ(count(S, std::string("fill=\"") + plotcolors::ComputeBound +
                         "\" stroke=\"#ffffff\""),
            1u);
  EXPECT_NE(S.find("big: compute-bound, AI 64"), std::string::npos);
  EXPECT_NE(S.find("small: memory-bound, AI 0.499"), std::string::npos);
  EXPECT_NE(S.find("huge&lt;T&amp;&gt;: does not fit, AI 10"),
            std::string::npos);
}

TEST(PlotTest, HtmlWrapsTheSvgWithATable) {
  Machine M = load("t4");
  Report R;
  R.M = &M;
  R.Nests.push_back(nest(M, "gemm_64", 524288, 49152, 49152));
  R.Skipped.push_back({"gather", {"k.cpp", 9, 3}, "indirect index 'idx[i]'"});
  std::string H = renderRooflineHTML(R);
  EXPECT_EQ(H.rfind("<!DOCTYPE html>", 0), 0u);
  EXPECT_EQ(count(H, "<svg"), 1u);
  EXPECT_NE(H.find("<table class=\"nests\">"), std::string::npos);
  EXPECT_NE(H.find("<td>gemm_64</td><td>k.cpp:3</td>"), std::string::npos);
  EXPECT_NE(H.find("not analyzed: indirect index 'idx[i]'"), std::string::npos);
  EXPECT_NE(H.find("addEventListener('mousemove'"), std::string::npos);
  // No external resources: a self-contained page.
  EXPECT_EQ(H.find("src=\"http"), std::string::npos);
  EXPECT_EQ(H.find("href=\"http"), std::string::npos);
}

TEST(PlotTest, PlotPaths) {
  EXPECT_TRUE(isPlotPath("a.svg"));
  EXPECT_TRUE(isPlotPath("dir/a.HTML"));
  EXPECT_TRUE(isPlotPath("a.htm"));
  EXPECT_FALSE(isPlotPath("a.png"));
  EXPECT_FALSE(isPlotPath("svg"));
}

} // namespace
