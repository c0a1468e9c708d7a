//===- Parallel.cpp - Few-task parallel loops -------------------------------===//

#include "roofline/Support/Parallel.h"

#include "llvm/Support/Parallel.h"

#include <algorithm>
#include <atomic>

using namespace roofline;

static std::atomic<size_t> MinParallelItems{2};

void roofline::setMinParallelItems(size_t N) { MinParallelItems = N; }

void roofline::parallelForChunks(size_t N,
                                 llvm::function_ref<void(size_t)> Fn) {
  unsigned Threads = llvm::parallel::strategy.compute_thread_count();
  if (Threads <= 1 || N < std::max<size_t>(2, MinParallelItems)) {
    for (size_t I = 0; I < N; ++I)
      Fn(I);
    return;
  }
  // A few chunks per thread even out nests of different cost.
  constexpr size_t ChunksPerThread = 4;
  size_t Chunks = std::min<size_t>(N, size_t(Threads) * ChunksPerThread);
  llvm::parallelFor(0, Chunks, [&](size_t C) {
    for (size_t I = N * C / Chunks, E = N * (C + 1) / Chunks; I < E; ++I)
      Fn(I);
  });
}
