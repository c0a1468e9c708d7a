//===- GuardLoopTest.cpp - Loop::IsGuard from the Frontend to IR' --------===//
//
// A guard loop (an affine `if` the Frontend turns into a loop of at most one
// iteration, GuardLoop.h) is marked by Loop::IsGuard where it is made. The
// mark, not the loop's name, is what isGuardLoop reads, so every path that
// copies a loop or rebuilds its header must keep it: these tests take the
// Frontend's guard loop through the transforms that do.
//
//===----------------------------------------------------------------------===//

#include "roofline/Frontend/Runner.h"
#include "roofline/IR/GuardLoop.h"
#include "roofline/Transform/Transforms.h"

#include "LoopTransforms.h" // lib/Transform: distributeChain

#include "gtest/gtest.h"

using namespace roofline;

namespace {

std::vector<LoopNest> parse(const std::string &Code) {
  const std::string Path = "/rl-unit/guard.c";
  clang::tooling::CompileCommand Cmd("/", Path,
                                     {"clang", "-fsyntax-only", Path}, "");
  TUResult R = runFrontendOnFile(Cmd, FrontendOptions(), nullptr,
                                 {{Path, Code}});
  EXPECT_TRUE(R.Compiled) << R.Diagnostics;
  return R.Nests.Nests;
}

/// Every loop of \p L, outermost first.
void loopsOf(const Loop &L, std::vector<const Loop *> &Out) {
  Out.push_back(&L);
  for (const Node &N : L.Body)
    if (N.isLoop())
      loopsOf(N.loop(), Out);
}

/// "IV:g" for a guard loop, "IV" for another, in walk order.
std::string marks(const LoopNest &N) {
  std::vector<const Loop *> Ls;
  loopsOf(N.Root, Ls);
  std::string S;
  for (const Loop *L : Ls)
    S += (S.empty() ? "" : " ") + L->IV + (isGuardLoop(*L) ? ":g" : "");
  return S;
}

// The `if` around part of the j loop's body becomes a guard loop.
const char *const Lower = R"(
void lower(float A[64][64], float B[64][64], float C[64]) {
  for (int i = 0; i < 64; ++i)
    for (int j = 0; j < 64; ++j) {
      C[i] += A[i][j];
      if (j <= i) {
        C[j] += A[j][i];
        for (int k = 0; k < 64; ++k)
          B[i][k] += A[i][j];
      }
    }
}
)";

Program programOf(const char *Code) {
  std::vector<LoopNest> Nests = parse(Code);
  EXPECT_EQ(Nests.size(), 1u);
  return makeProgram(Nests, ProgramOptions());
}

TEST(GuardLoopTest, FrontendSetsTheFlag) {
  std::vector<LoopNest> Nests = parse(Lower);
  ASSERT_EQ(Nests.size(), 1u);
  EXPECT_EQ(marks(Nests[0]), "i j __if1:g k");
}

TEST(GuardLoopTest, CopiesKeepTheFlag) {
  std::vector<LoopNest> Nests = parse(Lower);
  ASSERT_EQ(Nests.size(), 1u);
  LoopNest Copy = Nests[0];
  EXPECT_EQ(marks(Copy), "i j __if1:g k");
  Program P = makeProgram(Nests, ProgramOptions());
  ASSERT_EQ(P.Nests.size(), 1u);
  EXPECT_EQ(marks(P.Nests[0].Nest), "i j __if1:g k");
}

// The name is not what marks a guard: a loop named like one is a loop.
TEST(GuardLoopTest, TheNameAloneIsNoGuard) {
  std::vector<LoopNest> Nests = parse(Lower);
  ASSERT_EQ(Nests.size(), 1u);
  Loop L = Nests[0].Root;
  L.IV = guardLoopIV(7);
  EXPECT_FALSE(isGuardLoop(L));
  L.IsGuard = true;
  L.IV = "renamed";
  EXPECT_TRUE(isGuardLoop(L));
}

// Tiling the guard loop rebuilds its header for the tile loop (headerOf):
// both loops it becomes are guards.
TEST(GuardLoopTest, TilingAGuardKeepsTheFlag) {
  Program P = programOf(Lower);
  llvm::Expected<Schedule> S = Schedule::parse("tile(__if1:1)");
  ASSERT_TRUE(bool(S)) << llvm::toString(S.takeError());
  llvm::Error E = applySchedule(P, *S);
  ASSERT_FALSE(bool(E)) << llvm::toString(std::move(E));
  ASSERT_EQ(P.Nests.size(), 1u);
  EXPECT_EQ(marks(P.Nests[0].Nest), "i j __if1_1:g __if1:g k");
}

// Distributing the chain __if1 -> k wraps the statement beside k in a copy
// of the guard's header (takeBesideNodes, renamed __if1_d): the copy is a
// guard too.
TEST(GuardLoopTest, DistributionKeepsTheFlag) {
  Program P = programOf(Lower);
  ASSERT_EQ(P.Nests.size(), 1u);
  llvm::Error E = distributeChain(P, 0, guardLoopIV(1), "k", ParamValues());
  ASSERT_FALSE(bool(E)) << llvm::toString(std::move(E));
  ASSERT_EQ(P.Nests.size(), 1u);
  EXPECT_EQ(marks(P.Nests[0].Nest), "i j __if1_d:g __if1:g k");
}

} // namespace
