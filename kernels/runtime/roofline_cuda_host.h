// roofline_cuda_host.h - the host side of the CUDA runtime (docs/cuda.md):
// error checks, the host-pointer entry (copies in and out) and the
// device-resident timer, with cudaEvents.
//
// Only the CUDA runtime API is used, so a C++ file compiled by the host
// compiler (roofline-run's cuBLAS baseline) includes it as well as the .cu
// variants do (through roofline_cuda.h).

#ifndef ROOFLINE_CUDA_HOST_H
#define ROOFLINE_CUDA_HOST_H

#if defined(RL_CUDA_SHIM)
#include "roofline_cuda_shim.h" // the runtime API on the CPU
#else
#include <cuda_runtime.h>
#endif

#include <algorithm>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <vector>

#ifndef RL_EXPORT
#define RL_EXPORT extern "C" __attribute__((visibility("default")))
#endif

namespace rl {
namespace cuda {

inline void check(cudaError_t E, const char *What, const char *File, int Line) {
  if (E == cudaSuccess)
    return;
  std::fprintf(stderr, "rl-cuda: %s:%d: %s: %s\n", File, Line, What,
               cudaGetErrorString(E));
  std::exit(3);
}
#define RL_CUDA(call) ::rl::cuda::check((call), #call, __FILE__, __LINE__)

typedef void (*entry)(void *const *, const int64_t *);

/// The host-pointer entry of a variant: every argument copied to the
/// device, \p Dev run, the arguments it may write copied back.
inline void host_call(int N, void *const *Args, const size_t *Bytes,
                      const bool *Back, const int64_t *Sizes, entry Dev) {
  std::vector<void *> D(static_cast<size_t>(N), nullptr);
  for (int I = 0; I < N; ++I) {
    RL_CUDA(cudaMalloc(&D[I], Bytes[I] ? Bytes[I] : 16));
    if (Bytes[I])
      RL_CUDA(cudaMemcpy(D[I], Args[I], Bytes[I], cudaMemcpyHostToDevice));
  }
  Dev(D.data(), Sizes);
  RL_CUDA(cudaDeviceSynchronize());
  for (int I = 0; I < N; ++I) {
    if (Back[I] && Bytes[I])
      RL_CUDA(cudaMemcpy(Args[I], D[I], Bytes[I], cudaMemcpyDeviceToHost));
    RL_CUDA(cudaFree(D[I]));
  }
}

/// How many device copies of a working set of \p Bytes to rotate among so
/// that the timed runs do not find their data in L2 (the rule the CPU side
/// applies to the last-level cache): enough to cover twice L2, at most 64
/// and half the free device memory; at least \p HostSets.
inline int device_copies(size_t Bytes, int HostSets) {
  int Dev = 0, L2 = 0;
  size_t Free = 0, Total = 0;
  RL_CUDA(cudaGetDevice(&Dev));
  RL_CUDA(cudaDeviceGetAttribute(&L2, cudaDevAttrL2CacheSize, Dev));
  RL_CUDA(cudaMemGetInfo(&Free, &Total));
  size_t W = std::max<size_t>(Bytes, 1);
  size_t C = W >= size_t(L2) ? 1 : (2 * size_t(L2)) / W + 1;
  C = std::min<size_t>(C, 64);
  C = std::min<size_t>(C, std::max<size_t>(1, (Free / 2) / W));
  return static_cast<int>(std::max<size_t>(C, size_t(std::max(HostSets, 1))));
}

/// Times \p Dev with its data resident on the device: the \p NSets host
/// argument sets (already prepared) are copied to the device once (into
/// device_copies() copies, rotated between runs), then two warm-up runs,
/// then runs each bracketed by cudaEvents until both \p Reps runs and
/// \p MinTime seconds. Writes the seconds of each run into \p Times (at
/// most \p Cap) and the number of copies into \p Copies; returns the count.
inline int host_time(int N, void *const *const *Sets, int NSets,
                     const size_t *Bytes, const int64_t *Sizes, entry Dev,
                     int Reps, double MinTime, double *Times, int Cap,
                     int *Copies) {
  size_t W = 0;
  for (int I = 0; I < N; ++I)
    W += Bytes[I];
  int C = device_copies(W, NSets);
  std::vector<std::vector<void *>> D(static_cast<size_t>(C));
  for (int K = 0; K < C; ++K) {
    D[K].assign(static_cast<size_t>(N), nullptr);
    for (int I = 0; I < N; ++I) {
      RL_CUDA(cudaMalloc(&D[K][I], Bytes[I] ? Bytes[I] : 16));
      if (Bytes[I])
        RL_CUDA(cudaMemcpy(D[K][I], Sets[K % NSets][I], Bytes[I],
                           cudaMemcpyHostToDevice));
    }
  }
  // The first call loads the module and may create library handles: never
  // timed.
  for (int K = 0; K < 2; ++K)
    Dev(D[K % C].data(), Sizes);
  RL_CUDA(cudaDeviceSynchronize());
  cudaEvent_t A, B;
  RL_CUDA(cudaEventCreate(&A));
  RL_CUDA(cudaEventCreate(&B));
  int Count = 0;
  double Total = 0;
  for (int K = 0; Count < Cap && (Count < Reps || Total < MinTime); ++K) {
    RL_CUDA(cudaEventRecord(A));
    Dev(D[K % C].data(), Sizes);
    RL_CUDA(cudaEventRecord(B));
    RL_CUDA(cudaEventSynchronize(B));
    float Ms = 0;
    RL_CUDA(cudaEventElapsedTime(&Ms, A, B));
    Times[Count++] = double(Ms) * 1e-3;
    Total += double(Ms) * 1e-3;
  }
  RL_CUDA(cudaGetLastError());
  RL_CUDA(cudaEventDestroy(A));
  RL_CUDA(cudaEventDestroy(B));
  for (std::vector<void *> &X : D)
    for (void *P : X)
      RL_CUDA(cudaFree(P));
  if (Copies)
    *Copies = C;
  return Count;
}

} // namespace cuda
} // namespace rl

#endif // ROOFLINE_CUDA_HOST_H
