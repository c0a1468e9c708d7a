//===- ImageCountTest.cpp - Exact footprints by images vs brute force -----===//
//
// lib/Analysis/ImageCount.cpp counts an array's footprint by walking only
// the loops each reference depends on. Here it is called directly on every
// array of random nests (RandomNest.h: triangular, strided, min/max, up and
// down loops, several references per array) and compared with a brute-force
// run, also where the order of reads and writes decides which elements are
// first read (the writes not covered by a read in their statement: ranked
// in execution order).
//
//===----------------------------------------------------------------------===//

#include "ImageCount.h"

#include "BruteForce.h"
#include "RandomNest.h"

#include <gtest/gtest.h>

#include <random>

using namespace roofline;
using namespace roofline::detail;

namespace {

void collectSites(const Loop &L, Chain &Stack, std::vector<StmtSite> &Out) {
  Stack.push_back(&L);
  for (const Node &N : L.Body) {
    if (N.isLoop())
      collectSites(N.loop(), Stack, Out);
    else
      Out.push_back({&N.S, Stack});
  }
  Stack.pop_back();
}

struct Tally {
  int Counted = 0, Declined = 0, Mismatches = 0;
  int InOrder = 0; ///< counted arrays whose first reads depend on the order
};

/// Whether some write of \p Name is not covered by a read of the same
/// element in its statement while the array is also read (ImageCount.h).
bool needsOrder(const std::vector<StmtSite> &Sites, const std::string &Name) {
  bool Read = false, Uncovered = false;
  for (const StmtSite &S : Sites)
    for (const Access &A : S.S->Accesses) {
      if (A.ArrayName != Name)
        continue;
      Read |= A.IsRead;
      if (!A.IsWrite || A.IsRead)
        continue;
      bool Covered = false;
      for (const Access &B : S.S->Accesses)
        Covered |= B.IsRead && B.ArrayName == Name &&
                   B.Subscripts == A.Subscripts;
      Uncovered |= !Covered;
    }
  return Read && Uncovered;
}

bool affine(const std::vector<StmtSite> &Sites, const std::string &Name) {
  for (const StmtSite &S : Sites)
    for (const Access &A : S.S->Accesses)
      for (const auto &Sub : A.Subscripts)
        if (A.ArrayName == Name && !Sub)
          return false;
  return true;
}

void checkNest(const LoopNest &N, const ParamValues &Overrides, int Seed,
               Tally &T, const ImageCountOptions &Opts = ImageCountOptions()) {
  brute::Counts B = brute::run(N, Overrides);
  Env Known;
  for (const Param &P : N.Params)
    if (P.Value)
      Known[P.Name] = *P.Value;
  for (const auto &[Name, V] : Overrides)
    Known[Name] = V;
  std::vector<StmtSite> Sites;
  Chain Stack;
  collectSites(N.Root, Stack, Sites);
  for (const auto &[Name, BA] : B.Arrays) {
    if (!BA.FootprintKnown)
      continue;
    std::string Why;
    bool OverBudget = false;
    std::optional<ImageCountResult> R = countArrayImages(
        Name, Sites, Known, Opts, Why, OverBudget);
    if (!R) {
      ++T.Declined;
      EXPECT_FALSE(Why.empty()) << "declined without a reason";
      continue;
    }
    ++T.Counted;
    T.InOrder += needsOrder(Sites, Name);
    if (R->Read != BA.Read || R->Written != BA.Written) {
      ++T.Mismatches;
      ADD_FAILURE() << "seed " << Seed << ", array " << Name << ": read "
                    << static_cast<long long>(R->Read) << " (brute force "
                    << static_cast<long long>(BA.Read) << "), written "
                    << static_cast<long long>(R->Written) << " (brute force "
                    << static_cast<long long>(BA.Written) << ")\n"
                    << printNest(N);
    }
  }
}

TEST(ImageCountTest, RandomNestsMatchBruteForce) {
  Tally T;
  for (int Seed = 1; Seed <= 400; ++Seed)
    checkNest(unittest::NestGen(Seed).make(), {}, Seed, T);
  EXPECT_EQ(T.Mismatches, 0);
  // Every array with affine subscripts is counted, and many of them need
  // the order of their accesses.
  EXPECT_EQ(T.Declined, 0);
  EXPECT_GE(T.InOrder, 100);
  std::printf("arrays counted by images: %d (in access order: %d), "
              "declined: %d\n",
              T.Counted, T.InOrder, T.Declined);
}

TEST(ImageCountTest, RandomNestsAtLargerSizes) {
  Tally T;
  for (int Seed = 2001; Seed <= 2150; ++Seed) {
    LoopNest N = unittest::NestGen(Seed).make();
    std::mt19937_64 R(Seed);
    ParamValues O{{"N", 20 + static_cast<int64_t>(R() % 41)},
                  {"M", 10 + static_cast<int64_t>(R() % 31)}};
    if (printNest(N).find("i3") != std::string::npos)
      O = {{"N", 12}, {"M", 9}}; // keep depth-4 nests cheap for brute force
    checkNest(N, O, Seed, T);
  }
  EXPECT_EQ(T.Mismatches, 0);
  EXPECT_EQ(T.Declined, 0);
  EXPECT_GE(T.InOrder, 40);
}

// The order-dependent count refuses, with its reason, rather than exceed
// its limits; then it declines and never returns a number.
TEST(ImageCountTest, InAccessOrderRefusesBeyondItsLimits) {
  ImageCountOptions Small;
  Small.MaxOrderedElements = 4;
  Small.StepBudget = 200;
  Tally T;
  int Refused = 0;
  for (int Seed = 1; Seed <= 200; ++Seed) {
    LoopNest N = unittest::NestGen(Seed).make();
    Env Known;
    for (const Param &P : N.Params)
      Known[P.Name] = *P.Value;
    std::vector<StmtSite> Sites;
    Chain Stack;
    collectSites(N.Root, Stack, Sites);
    for (const char *Name : {"A", "B", "x", "y"}) {
      if (!needsOrder(Sites, Name) || !affine(Sites, Name))
        continue;
      std::string Why;
      bool OverBudget = false;
      if (countArrayImages(Name, Sites, Known, Small, Why, OverBudget))
        continue;
      ++Refused;
      EXPECT_TRUE(Why.find("rank per element") != std::string::npos ||
                  Why.find("in the order of its accesses") !=
                      std::string::npos ||
                  Why.find("span a box") != std::string::npos)
          << Why;
    }
    checkNest(N, {}, Seed, T, Small); // whatever is counted is still exact
  }
  EXPECT_EQ(T.Mismatches, 0);
  EXPECT_GE(Refused, 20);
}

// W written at i + j and read at j + k (test/Report/compulsory-why.c at a
// size brute force runs): element 0 is first written, 1 .. 2N-2 first read.
TEST(ImageCountTest, FirstReadDependsOnOrder) {
  using namespace roofline::testing;
  for (int64_t Size : {1, 2, 7, 30}) {
    LoopNest N = nest(
        "ordered", {{"N", Size}},
        {arr("W", Precision::F64, {2 * v("N")}),
         arr("X", Precision::F64, {v("N")}), arr("S", Precision::F64, {v("N")})},
        upto("i", v("N"),
             {upto("j", v("N"),
                   {upto("k", v("N"),
                         {stmt({wr("W", {v("i") + v("j")}), rd("X", {v("k")})}),
                          stmt({rw("S", {v("k")}),
                                rd("W", {v("j") + v("k")})})})})}));
    Tally T;
    checkNest(N, {}, static_cast<int>(Size), T);
    EXPECT_EQ(T.Mismatches, 0);
    EXPECT_EQ(T.Declined, 0);
    std::vector<StmtSite> Sites;
    Chain Stack;
    collectSites(N.Root, Stack, Sites);
    std::string Why;
    bool OverBudget = false;
    std::optional<ImageCountResult> R = countArrayImages(
        "W", Sites, {{"N", Size}}, ImageCountOptions(), Why, OverBudget);
    ASSERT_TRUE(R) << Why;
    EXPECT_EQ(static_cast<int64_t>(R->Read), 2 * Size - 2);
    EXPECT_EQ(static_cast<int64_t>(R->Written), 2 * Size - 1);
  }
}

} // namespace
