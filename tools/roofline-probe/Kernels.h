//===- Kernels.h - The probe's compute and bandwidth loops ----------------===//
//
// Each loop is compiled for one ISA (a target region in Kernels.cpp, as
// __attribute__((target(...))) would) and picked at run time with
// __builtin_cpu_supports, so the binary runs on any x86-64 (and falls back
// to portable C++ elsewhere).
//
//===----------------------------------------------------------------------===//

#ifndef ROOFLINE_PROBE_KERNELS_H
#define ROOFLINE_PROBE_KERNELS_H

#include <cstddef>
#include <cstdint>
#include <string>
#include <vector>

namespace probe {

struct CpuFeatures {
  bool SSE2 = false, AVX = false, FMA = false, AVX2 = false;
  bool AVX512F = false, AVX512BW = false, AVX512VNNI = false, AVXVNNI = false;
  bool AVX512BF16 = false;
  /// AMX-TILE, -INT8 and -BF16, and Linux granted the tile state.
  bool AMX = false;
  /// "avx512f avx512bw avx512vnni ..." as detected.
  std::string list() const;
};
CpuFeatures detectCpuFeatures();

/// Independent multiply-add chains on the widest unit for one precision.
struct ComputeKernel {
  std::string Precision; ///< "f64", "f32", "bf16", "i8" (machine-file peak keys)
  std::string Isa;       ///< "AVX-512 FMA", "AVX-512 VNNI", "AVX2 FMA", ...
  /// The chains' vector width; 0 for AMX, whose chains are 16 x 16 tiles.
  unsigned VectorBits = 0, Chains = 0;
  double OpsPerIter = 0; ///< FLOPs (OPs for i8) one call does per iteration
  /// Runs \p Iters iterations; the result keeps the work observable.
  double (*Run)(uint64_t Iters) = nullptr;
};
/// The best kernel per precision (f64, f32, bf16, i8) this CPU supports.
std::vector<ComputeKernel> computeKernels(const CpuFeatures &F);

/// Streams over arrays of doubles.
struct BandwidthKernel {
  std::string Name;        ///< "read" (sum of one array), "triad" (a = b + s*c)
  std::string Isa;
  unsigned Arrays = 1;     ///< arrays the kernel needs
  double BytesPerElem = 8; ///< counted STREAM-style: triad 24 (no write-allocate)
  /// \p N elements per array (a multiple of 64), \p Reps passes.
  double (*Run)(double *const *Arrays, size_t N, uint64_t Reps) = nullptr;
};
std::vector<BandwidthKernel> bandwidthKernels(const CpuFeatures &F);

/// Core clock from a chain of dependent integer adds (one per cycle on
/// every x86 core since the P6), over about \p Seconds; 0 when not x86.
double measureClockHz(double Seconds);

} // namespace probe

#endif // ROOFLINE_PROBE_KERNELS_H
