//===- ImageCountTest.cpp - Exact footprints by images vs brute force -----===//
//
// lib/Analysis/ImageCount.cpp counts an array's footprint by walking only
// the loops each reference depends on. Here it is called directly on every
// array of random nests (RandomNest.h: triangular, strided, min/max, up and
// down loops, several references per array) and compared with a brute-force
// run; where it declines (the order of reads and writes matters), the nest
// analysis (its enumeration fallback) must still match.
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
};

void checkNest(const LoopNest &N, const ParamValues &Overrides, int Seed,
               Tally &T) {
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
        Name, Sites, Known, ImageCountOptions(), Why, OverBudget);
    if (!R) {
      ++T.Declined;
      EXPECT_FALSE(Why.empty()) << "declined without a reason";
      continue;
    }
    ++T.Counted;
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
  // Not vacuous: most arrays are counted.
  EXPECT_GE(T.Counted, 3 * T.Declined) << "counted " << T.Counted
                                        << ", declined " << T.Declined;
  std::printf("arrays counted by images: %d, declined: %d\n", T.Counted,
              T.Declined);
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
  EXPECT_GE(T.Counted, 3 * T.Declined);
}

} // namespace
