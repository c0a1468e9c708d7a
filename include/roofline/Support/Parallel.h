//===- Parallel.h - Few-task parallel loops ---------------------------------===//
//
// llvm::parallelFor spawns one task per item below 1024 items, and each task
// wakes a sleeping worker thread. On the small virtual machines CI runs on,
// those wake-ups cost more than counting or printing a small nest: a
// 200-nest file ran 10-20% slower on two threads than on one
// (docs/results/speed.txt). These loops hand each thread a few contiguous
// chunks instead, and only for enough work to be worth a thread.
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
/// milliseconds, and on a shared two-vCPU VM waking the second vCPU often
/// costs more than that (docs/results/speed.txt).
void setMinParallelItems(size_t N);

} // namespace roofline

#endif // ROOFLINE_SUPPORT_PARALLEL_H
