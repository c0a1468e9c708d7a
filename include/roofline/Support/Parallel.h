//===- Parallel.h - Few-task parallel loops ---------------------------------===//
//
// llvm::parallelFor spawns one task per item below 1024 items, and a task
// may wake a sleeping worker thread. These loops hand each thread a few
// contiguous chunks instead, and use threads only for enough work: on the
// 200-function speed file, two threads measured no faster than one
// (docs/results/speed.txt, the -j 2 row).
//
//===----------------------------------------------------------------------===//

#ifndef ROOFLINE_SUPPORT_PARALLEL_H
#define ROOFLINE_SUPPORT_PARALLEL_H

#include "llvm/ADT/STLFunctionalExtras.h"

#include <cstddef>

namespace roofline {

/// Fn(0) ... Fn(N - 1) on llvm::parallel::strategy's threads, in a few
/// contiguous chunks per thread; in order on the calling thread when the
/// strategy has one thread or N is below the minimum.
void parallelForChunks(size_t N, llvm::function_ref<void(size_t)> Fn);

/// The fewest items parallelForChunks spreads over threads (default 2).
/// roofline-lint raises it when -j is not given: a few hundred nests take
/// a few milliseconds, too little to gain from a second thread in our
/// measurements (docs/results/speed.txt).
void setMinParallelItems(size_t N);

} // namespace roofline

#endif // ROOFLINE_SUPPORT_PARALLEL_H
