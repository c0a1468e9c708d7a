//===- PointGather.cpp - The gathers of a nest ----------------------------===//

#include "roofline/IR/PointGather.h"

using namespace roofline;

static const Access *firstIn(const Loop &L, bool RowsOnly) {
  for (const Node &N : L.Body) {
    if (N.isLoop()) {
      if (const Access *G = firstIn(N.loop(), RowsOnly))
        return G;
      continue;
    }
    for (const Access &A : N.S.Accesses)
      if (!A.GatherIndex.empty() && (!RowsOnly || !A.GatherLoop.empty()))
        return &A;
  }
  return nullptr;
}

const Access *roofline::firstGather(const LoopNest &N) {
  return firstIn(N.Root, false);
}

const Access *roofline::firstRowGather(const LoopNest &N) {
  return firstIn(N.Root, true);
}
