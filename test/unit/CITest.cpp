//===- CITest.cpp - The CI layer: globs, NOLINT, annotations, config -------===//

#include "roofline/Config/Config.h"
#include "roofline/Config/GlobList.h"
#include "roofline/Config/LineFilter.h"
#include "roofline/Frontend/Annotations.h"
#include "roofline/Frontend/CompileFlags.h"
#include "roofline/Report/Baseline.h"
#include "roofline/Report/JsonStream.h"
#include "roofline/Report/ProgramPlot.h"
#include "roofline/Report/Suppressions.h"
#include "roofline/Support/JsonText.h"

#include "llvm/Support/FormatVariadic.h"

#include "gtest/gtest.h"

using namespace roofline;

namespace {

TEST(GlobListTest, LastMatchWins) {
  GlobList G("-*,roofline-verdict, roofline-min-* , -roofline-min-intensity");
  EXPECT_TRUE(G.contains("roofline-verdict"));
  EXPECT_FALSE(G.contains("roofline-min-intensity"));
  EXPECT_FALSE(G.contains("roofline-capacity"));
  EXPECT_TRUE(GlobList("*").contains("anything"));
  EXPECT_FALSE(GlobList("").contains("roofline-verdict"));
  EXPECT_TRUE(globMatches("roofline-*-bound", "roofline-memory-bound"));
  EXPECT_FALSE(globMatches("roofline-*-bound", "roofline-memory-boundx"));
  EXPECT_TRUE(globMatches("*a*b*", "xxaxxbxx"));
}

TEST(GlobListTest, UnmatchedGlobs) {
  std::vector<llvm::StringRef> Known = {"roofline-verdict", "roofline-max-time"};
  EXPECT_EQ(GlobList("-*,roofline-max-*,roofline-verdcit").unmatchedGlobs(Known),
            std::vector<std::string>{"roofline-verdcit"});
  EXPECT_TRUE(GlobList("-nosuch").unmatchedGlobs(Known).empty());
}

TEST(SuppressionsTest, Forms) {
  Suppressions S = Suppressions::parse("for (;;) // NOLINT\n"                 // 1
                                       "x // NOLINT(roofline-min-*, roofline-verdict)\n" // 2
                                       "// NOLINTNEXTLINE(roofline-verdict)\n" // 3
                                       "for\n"                                 // 4
                                       "// NOLINTBEGIN(roofline-baseline)\n"   // 5
                                       "a\n"                                   // 6
                                       "// NOLINTEND(roofline-baseline)\n"     // 7
                                       "b // NOLINTFOO\n"                      // 8
                                       "c // NOLINT()\n");                     // 9
  EXPECT_TRUE(S.suppresses(1, "roofline-anything"));
  EXPECT_TRUE(S.suppresses(2, "roofline-min-intensity"));
  EXPECT_TRUE(S.suppresses(2, "roofline-verdict"));
  EXPECT_FALSE(S.suppresses(2, "roofline-max-time"));
  EXPECT_FALSE(S.suppresses(3, "roofline-verdict"));
  EXPECT_TRUE(S.suppresses(4, "roofline-verdict"));
  EXPECT_FALSE(S.suppresses(4, "roofline-min-intensity"));
  EXPECT_TRUE(S.suppresses(6, "roofline-baseline"));
  EXPECT_FALSE(S.suppresses(6, "roofline-verdict"));
  EXPECT_FALSE(S.suppresses(8, "roofline-verdict"));
  EXPECT_FALSE(S.suppresses(9, "roofline-verdict"));
  EXPECT_TRUE(S.problems().empty());
}

TEST(SuppressionsTest, UnmatchedSuppressNothing) {
  Suppressions S = Suppressions::parse("// NOLINTBEGIN(a)\nx\n// NOLINTEND(b)\n");
  EXPECT_FALSE(S.suppresses(2, "a"));
  ASSERT_EQ(S.problems().size(), 2u);
  EXPECT_EQ(S.problems()[0].first, 1u);
  EXPECT_EQ(S.problems()[1].first, 3u);
}

TEST(AnnotationTest, Parse) {
  auto A = parseNestAnnotation("  // roofline: N=4096 M=512,K=8");
  ASSERT_TRUE(static_cast<bool>(A));
  ASSERT_TRUE(A->has_value());
  EXPECT_EQ(**A, (SizeMap{{"K", 8}, {"M", 512}, {"N", 4096}}));

  auto NotOne = parseNestAnnotation("// just a comment about roofline: x");
  ASSERT_TRUE(static_cast<bool>(NotOne));
  EXPECT_FALSE(NotOne->has_value());

  auto Bad = parseNestAnnotation("// roofline: N=lots");
  ASSERT_FALSE(static_cast<bool>(Bad));
  EXPECT_NE(llvm::toString(Bad.takeError()).find("'N=lots'"), std::string::npos);
  auto Empty = parseNestAnnotation("// roofline:");
  ASSERT_FALSE(static_cast<bool>(Empty));
  llvm::consumeError(Empty.takeError());
}

TEST(ConfigTest, ParseAndDump) {
  llvm::Expected<Config> C = parseConfig("machine: t4\n"
                                         "model: no-reuse\n"
                                         "params: {N: 4096, BATCH: 8}\n"
                                         "checks: '-*,roofline-verdict'\n"
                                         "thresholds:\n  min-intensity: 2.5\n  max-time: 250us\n"
                                         "fail-on: [memory-bound, capacity]\n",
                                         "/p/.roofline.yaml");
  ASSERT_TRUE(static_cast<bool>(C)) << llvm::toString(C.takeError());
  EXPECT_EQ(*C->Machine, "t4");
  EXPECT_EQ(*C->Model, "no-reuse");
  EXPECT_EQ(C->Params.at("N"), 4096);
  EXPECT_DOUBLE_EQ(*C->MinIntensity, 2.5);
  EXPECT_DOUBLE_EQ(*C->MaxTime, 250e-6);
  EXPECT_EQ(*C->FailOn, (std::vector<FailOnPolicy>{FailOnPolicy::MemoryBound,
                                                   FailOnPolicy::Capacity}));
  // The dump loads back to the same settings.
  llvm::Expected<Config> Again = parseConfig(dumpConfig(*C), "dump.yaml");
  ASSERT_TRUE(static_cast<bool>(Again)) << llvm::toString(Again.takeError());
  EXPECT_EQ(Again->Params, C->Params);
  EXPECT_EQ(*Again->Checks, *C->Checks);
  EXPECT_DOUBLE_EQ(*Again->MaxTime, *C->MaxTime);
  EXPECT_EQ(*Again->FailOn, *C->FailOn);
}

TEST(ConfigTest, ErrorsNameLineAndColumn) {
  llvm::Expected<Config> C = parseConfig("machine: t4\n  \nfail-on: [slow]\n", "c.yaml");
  ASSERT_FALSE(static_cast<bool>(C));
  std::string E = llvm::toString(C.takeError());
  EXPECT_EQ(E.rfind("c.yaml:3:11: error: unknown fail-on policy 'slow'", 0), 0u) << E;
}

TEST(ConfigTest, MergeAndHelpers) {
  Config Base, Over;
  Base.Machine = "t4";
  Base.Params = {{"N", 1}, {"M", 2}};
  Over.Params = {{"N", 3}};
  Over.MaxTime = 1.0;
  Config M = mergeConfig(Base, Over);
  EXPECT_EQ(*M.Machine, "t4");
  EXPECT_EQ(M.Params, (std::map<std::string, int64_t>{{"M", 2}, {"N", 3}}));
  EXPECT_DOUBLE_EQ(*M.MaxTime, 1.0);

  EXPECT_DOUBLE_EQ(*parseSeconds("3ms"), 3e-3);
  EXPECT_DOUBLE_EQ(*parseSeconds("2"), 2.0);
  EXPECT_DOUBLE_EQ(*parseSeconds("10 ns"), 10e-9);
  EXPECT_FALSE(parseSeconds("-1s").has_value());
  EXPECT_FALSE(parseSeconds("soon").has_value());

  auto L = parseFailOnList("capacity,none,unanalyzable");
  ASSERT_TRUE(static_cast<bool>(L));
  EXPECT_EQ(*L, std::vector<FailOnPolicy>{FailOnPolicy::Unanalyzable});
}

TEST(BaselineTest, OrdinalsFromAReport) {
  // A --format=json report without ordinals: each function's nests are
  // numbered in source order, analyzed and skipped together.
  llvm::Expected<Baseline> B = Baseline::parse(R"({
    "machine": {"name": "t4"}, "model": "compulsory",
    "nests": [
      {"file": "/abs/x.cpp", "function": "f", "line": 20, "column": 3,
       "verdict": {"bound": "memory-bound", "intensity": 0.5, "machine": "t4", "model": "compulsory"}},
      {"file": "/abs/x.cpp", "function": "f", "line": 5, "column": 3,
       "verdict": {"bound": "compute-bound", "intensity": 64}}],
    "skipped": [{"file": "/abs/x.cpp", "function": "f", "line": 10, "column": 3, "reason": "while"}]
  })", "r.json");
  ASSERT_TRUE(static_cast<bool>(B)) << llvm::toString(B.takeError());
  const BaselineNest *First = B->find("/abs/x.cpp", "f", 0);
  const BaselineNest *Second = B->find("/abs/x.cpp", "f", 1);
  const BaselineNest *Third = B->find("/abs/x.cpp", "f", 2);
  ASSERT_TRUE(First && Second && Third);
  EXPECT_EQ(First->Line, 5u);
  EXPECT_FALSE(Second->Analyzable);
  EXPECT_EQ(*Third->Bound, "memory-bound");
  EXPECT_DOUBLE_EQ(*Third->Intensity, 0.5);

  llvm::Expected<Baseline> Bad = Baseline::parse("[1]", "b.json");
  ASSERT_FALSE(static_cast<bool>(Bad));
  llvm::consumeError(Bad.takeError());
}

TEST(LineFilterTest, ClangTidyJson) {
  llvm::Expected<LineFilter> F = LineFilter::fromJSON(
      R"([{"name": "src/a.cpp", "lines": [[3, 5], [10, 10]]}, {"name": "b.h"}])");
  ASSERT_TRUE(bool(F)) << llvm::toString(F.takeError());
  EXPECT_TRUE(F->passes("/p/src/a.cpp", 1, 3)); // a nest reaching line 3
  EXPECT_TRUE(F->passes("/p/src/a.cpp", 10, 10));
  EXPECT_FALSE(F->passes("/p/src/a.cpp", 6, 9));
  EXPECT_FALSE(F->passes("/p/xsrc/a.cpp", 3, 3)); // not a whole component
  EXPECT_TRUE(F->passes("/p/include/b.h", 1000, 1000));
  EXPECT_FALSE(F->passes("/p/c.cpp", 1, 100));
  EXPECT_TRUE(F->mentions("/p/src/a.cpp"));
  EXPECT_FALSE(F->mentions("/p/c.cpp"));
  for (const char *Bad : {"{}", "[{\"lines\": []}]",
                          "[{\"name\": \"a\", \"lines\": [[2, 1]]}]",
                          "[{\"name\": \"a\", \"lines\": [[0, 1]]}]",
                          "[{\"name\": \"a\", \"lines\": [3]}]"}) {
    llvm::Expected<LineFilter> B = LineFilter::fromJSON(Bad);
    EXPECT_FALSE(bool(B)) << Bad;
    llvm::consumeError(B.takeError());
  }
}

TEST(LineFilterTest, UnifiedDiff) {
  llvm::Expected<LineFilter> F = LineFilter::fromUnifiedDiff(
      "diff --git a/src/k.cpp b/src/k.cpp\n"
      "--- a/src/k.cpp\n"
      "+++ b/src/k.cpp\n"
      "@@ -4 +4 @@ void f() {\n"
      "-  old\n"
      "+  new\n"
      "@@ -20,3 +20,0 @@\n"      // three lines deleted after line 20
      "diff --git a/gone.cpp b/gone.cpp\n"
      "--- a/gone.cpp\n"
      "+++ /dev/null\n"
      "diff --git a/with space.cpp b/with space.cpp\n"
      "+++ b/with space.cpp\t\n"
      "@@ -1,0 +2,3 @@\n"
      "+++ \"b/q\\\"uote.cpp\"\n"     // a C-quoted name
      "@@ -7 +7,2 @@\n",
      "/repo");
  ASSERT_TRUE(bool(F)) << llvm::toString(F.takeError());
  EXPECT_TRUE(F->passes("/repo/src/k.cpp", 1, 4));
  EXPECT_FALSE(F->passes("/repo/src/k.cpp", 5, 19));
  EXPECT_TRUE(F->passes("/repo/src/k.cpp", 18, 22));
  EXPECT_FALSE(F->passes("/other/src/k.cpp", 4, 4)); // whole paths
  EXPECT_FALSE(F->mentions("/repo/gone.cpp"));
  EXPECT_TRUE(F->passes("/repo/with space.cpp", 4, 4));
  EXPECT_FALSE(F->passes("/repo/with space.cpp", 5, 9));
  EXPECT_TRUE(F->passes("/repo/q\"uote.cpp", 8, 8));
  llvm::Expected<LineFilter> Bad =
      LineFilter::fromUnifiedDiff("+++ b/x.cpp\n@@ -1 +what @@\n", "/r");
  EXPECT_FALSE(bool(Bad));
  llvm::consumeError(Bad.takeError());
}

TEST(CompileFlagsTest, DropsWhatClangDoesNotKnow) {
  std::vector<std::string> Args = {
      "/usr/bin/g++", "-Iinclude", "-fno-lifetime-dse", "-Wall",
      "-Wno-class-memaccess", "-Werror=date-time", "-Wno-error=unused",
      "-mno-avx256-split-unaligned-load", "-include", "pre.h",
      "-Wimplicit-fallthrough=3", "-c", "k.cpp", "-o", "k.o"};
  CleanCommand C = dropUnknownFlags(Args);
  EXPECT_EQ(C.Dropped, (std::vector<std::string>{
                           "-fno-lifetime-dse", "-Wno-class-memaccess",
                           "-mno-avx256-split-unaligned-load",
                           "-Wimplicit-fallthrough=3"}));
  EXPECT_EQ(C.Args, (std::vector<std::string>{
                        "/usr/bin/g++", "-Iinclude", "-Wall",
                        "-Werror=date-time", "-Wno-error=unused", "-include",
                        "pre.h", "-c", "k.cpp", "-o", "k.o"}));
  // clang-cl's command is another language: left alone.
  std::vector<std::string> Cl = {"clang-cl", "/O2", "-fno-lifetime-dse", "k.cpp"};
  EXPECT_EQ(dropUnknownFlags(Cl).Args, Cl);
  // Nothing after "--" is a flag.
  EXPECT_TRUE(dropUnknownFlags({"cc", "--", "-fno-lifetime-dse"}).Dropped.empty());
}

TEST(CompileFlagsTest, RemoveAndAdd) {
  std::vector<std::string> Args = {"c++",      "-I", "a",         "-Ib",
                                   "-DX=1",    "-DNDEBUG", "-include", "p.h",
                                   "-fsanitize=address", "-c", "k.cpp"};
  EXPECT_EQ(removeFlags(Args, {"-I"}),
            (std::vector<std::string>{"c++", "-DX=1", "-DNDEBUG", "-include",
                                      "p.h", "-fsanitize=address", "-c",
                                      "k.cpp"}));
  EXPECT_EQ(removeFlags(Args, {"-DNDEBUG", "-include", "-fsan*"}),
            (std::vector<std::string>{"c++", "-I", "a", "-Ib", "-DX=1", "-c",
                                      "k.cpp"}));
  EXPECT_EQ(removeFlags(Args, {"k.cpp"}), Args); // an input is no flag
  EXPECT_EQ(addFlags({"cc", "k.c", "--", "x"}, {"-DY"}),
            (std::vector<std::string>{"cc", "k.c", "-DY", "--", "x"}));
  EXPECT_EQ(addFlags({"cc", "k.c"}, {"-DY"}),
            (std::vector<std::string>{"cc", "k.c", "-DY"}));
}

TEST(JsonStreamTest, SameTextAsTheWholeObject) {
  using llvm::json::Array;
  using llvm::json::Object;
  Object N1{{"file", "a.cpp"}, {"line", 3}, {"loops", Array{Object{{"iv", "i"}}}}};
  Object N2{{"file", "b.cpp"}, {"line", 7}, {"notes", Array{"x\ny"}}};
  Object Whole{{"version", 1},
               {"machine", Object{{"name", "t4"}}},
               {"nests", Array{Object(N1), Object(N2)}},
               {"skipped", Array{Object{{"file", "a.cpp"}}, Object{{"file", "b.cpp"}}}},
               {"summary", Object{{"files", 2}}}};
  std::string Expected = llvm::formatv("{0:2}", llvm::json::Value(Object(Whole))).str() + "\n";

  JsonReportWriter W;
  ASSERT_FALSE(static_cast<bool>(W.addNest(serializeNestElement(Object(N1)))));
  W.addFile(Object{{"machine", Object{{"name", "t4"}}},
                   {"skipped", Array{Object{{"file", "a.cpp"}}}},
                   {"version", 1}});
  ASSERT_FALSE(static_cast<bool>(W.addNest(serializeNestElement(Object(N2)))));
  W.addFile(Object{{"machine", Object{{"name", "other"}}},
                   {"skipped", Array{Object{{"file", "b.cpp"}}}}});
  W.set("summary", Object{{"files", 2}});
  std::string Got;
  llvm::raw_string_ostream OS(Got);
  ASSERT_FALSE(static_cast<bool>(W.write(OS)));
  EXPECT_EQ(Got, Expected);

  // No nests at all: an empty array.
  JsonReportWriter Empty;
  Empty.set("version", 1);
  std::string E;
  llvm::raw_string_ostream EOS(E);
  ASSERT_FALSE(static_cast<bool>(Empty.write(EOS)));
  EXPECT_EQ(E, "{\n  \"nests\": [],\n  \"version\": 1\n}\n");
}

// setText: a member written ahead (the diagnostics) sits in key order, as
// set() with its value would put it; set() of the same key replaces it.
TEST(JsonStreamTest, WrittenMemberInKeyOrder) {
  using llvm::json::Array;
  using llvm::json::Object;
  Array Diags{Object{{"check", "x"}, {"notes", Array{"a\tb"}}}, "s"};
  Object Whole{{"a", 1}, {"diagnostics", Array(Diags)}, {"nests", Array{}},
               {"z", "last"}};
  std::string Expected =
      llvm::formatv("{0:2}", llvm::json::Value(Object(Whole))).str() + "\n";
  std::string Text;
  {
    JsonWriter J(Text, /*IndentSize=*/2, /*Indent=*/2);
    J.value(Array(Diags));
  }
  JsonReportWriter W;
  W.set("z", "last");
  W.setText("diagnostics", Text);
  W.set("a", 1);
  std::string Got;
  llvm::raw_string_ostream OS(Got);
  ASSERT_FALSE(static_cast<bool>(W.write(OS)));
  EXPECT_EQ(Got, Expected);

  JsonReportWriter R;
  R.setText("diagnostics", "[1]");
  R.set("diagnostics", 2);
  std::string G;
  llvm::raw_string_ostream GOS(G);
  ASSERT_FALSE(static_cast<bool>(R.write(GOS)));
  EXPECT_EQ(G, "{\n  \"diagnostics\": 2,\n  \"nests\": []\n}\n");
}

} // namespace

// --plot=FILE.svg --entry=E: each pass's chart beside FILE, named by E
// (docs/network-report.md, "The plot").
TEST(ProgramPlotTest, PassSvgIsNamedAfterThePlotAndTheEntry) {
  EXPECT_EQ(roofline::programSVGPath("out/r.svg", "forward"),
            "out/r.pass-forward.svg");
  EXPECT_EQ(roofline::programSVGPath("r.SVG", "ns::forward"),
            "r.pass-ns__forward.svg");
  EXPECT_EQ(roofline::programSVGPath("a.b/r.svg", "f-1.x_y"),
            "a.b/r.pass-f-1.x_y.svg");
}
