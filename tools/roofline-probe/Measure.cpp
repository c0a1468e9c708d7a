//===- Measure.cpp - Timing loops on one core or on all of them -----------===//

#include "Measure.h"

#include <algorithm>
#include <atomic>
#include <chrono>
#include <cmath>
#include <pthread.h>
#include <sched.h>
#include <thread>

using namespace probe;

double Stats::median() const {
  if (Samples.empty())
    return 0;
  std::vector<double> S = Samples;
  std::sort(S.begin(), S.end());
  size_t N = S.size();
  return N % 2 ? S[N / 2] : 0.5 * (S[N / 2 - 1] + S[N / 2]);
}
double Stats::min() const {
  return Samples.empty() ? 0 : *std::min_element(Samples.begin(), Samples.end());
}
double Stats::max() const {
  return Samples.empty() ? 0 : *std::max_element(Samples.begin(), Samples.end());
}
double Stats::spread() const {
  double M = median();
  return M > 0 ? (max() - min()) / M : 0;
}

namespace {

/// Sense-reversing spin barrier: the threads leave within nanoseconds of
/// each other, which a condition variable does not promise.
class SpinBarrier {
public:
  explicit SpinBarrier(unsigned N) : N(N) {}
  void wait() {
    unsigned G = Generation.load(std::memory_order_acquire);
    if (Arrived.fetch_add(1, std::memory_order_acq_rel) + 1 == N) {
      Arrived.store(0, std::memory_order_relaxed);
      Generation.fetch_add(1, std::memory_order_acq_rel);
      return;
    }
    while (Generation.load(std::memory_order_acquire) == G)
      std::this_thread::yield();
  }

private:
  unsigned N;
  std::atomic<unsigned> Arrived{0};
  std::atomic<unsigned> Generation{0};
};

void pinTo(int Cpu) {
  cpu_set_t Set;
  CPU_ZERO(&Set);
  CPU_SET(Cpu, &Set);
  // Best effort: a failed pin only costs accuracy.
  pthread_setaffinity_np(pthread_self(), sizeof(Set), &Set);
}

} // namespace

Stats probe::measureTeam(const std::vector<int> &Cpus, const MeasureOptions &O,
                         double UnitsPerRep,
                         const std::function<void(unsigned)> &Setup,
                         const std::function<void(unsigned, uint64_t)> &Work) {
  using Clock = std::chrono::steady_clock;
  unsigned T = std::max<size_t>(1, Cpus.size());
  SpinBarrier Barrier(T);
  std::atomic<uint64_t> Reps{1};
  std::atomic<bool> Done{false};
  Stats Out;
  Clock::time_point Start;

  auto Body = [&](unsigned Tid) {
    if (!Cpus.empty())
      pinTo(Cpus[Tid]);
    Setup(Tid);
    bool Calibrating = true;
    for (;;) {
      Barrier.wait();
      if (Done.load())
        break;
      uint64_t R = Reps.load();
      if (Tid == 0)
        Start = Clock::now();
      Work(Tid, R);
      Barrier.wait();
      if (Tid != 0)
        continue;
      double S = std::chrono::duration<double>(Clock::now() - Start).count();
      if (Calibrating && S < 0.8 * O.TargetSeconds) {
        // Grow towards the target round length, at most 16x at a time.
        double Grow = std::clamp(O.TargetSeconds / std::max(S, 1e-7), 2.0, 16.0);
        Reps.store(static_cast<uint64_t>(std::ceil(R * Grow)));
        continue;
      }
      Calibrating = false;
      Out.Samples.push_back(UnitsPerRep * static_cast<double>(R) * T / S);
      if (Out.Samples.size() >= O.Samples)
        Done.store(true);
    }
  };
  std::vector<std::thread> Threads;
  for (unsigned I = 1; I < T; ++I)
    Threads.emplace_back(Body, I);
  Body(0);
  for (std::thread &Th : Threads)
    Th.join();
  return Out;
}
