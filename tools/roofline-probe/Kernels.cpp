//===- Kernels.cpp - The probe's compute and bandwidth loops --------------===//
//
// Compute loops keep many independent accumulator chains (more than FMA
// latency x FMA units on current cores: 16 zmm, 12 ymm), so the loop is
// limited by issue throughput, not by latency. The loops are written once,
// in KernelLoops.inc, and compiled once per ISA; a traits struct per ISA
// names the vector type, the chain count and the one intrinsic that differs.
//
//===----------------------------------------------------------------------===//

#include "Kernels.h"

#include <chrono>
#include <cmath>
#include <cstring>

#if defined(__x86_64__) || defined(__i386__)
// GCC 12's _mm512_undefined_* (behind the reductions and setzero) trip
// -Wuninitialized by design: the value is meant to be undefined.
#pragma GCC diagnostic ignored "-Wuninitialized"
#pragma GCC diagnostic ignored "-Wmaybe-uninitialized"
#include <immintrin.h>
#define PROBE_X86 1
#if defined(__linux__)
#include <cpuid.h>
#include <sys/syscall.h>
#include <unistd.h>
#define PROBE_AMX 1
#endif
#endif

using namespace probe;

std::string CpuFeatures::list() const {
  std::string S;
  auto Add = [&](bool B, const char *N) {
    if (B)
      S += (S.empty() ? "" : " ") + std::string(N);
  };
  Add(SSE2, "sse2");
  Add(AVX, "avx");
  Add(FMA, "fma");
  Add(AVX2, "avx2");
  Add(AVX512F, "avx512f");
  Add(AVX512BW, "avx512bw");
  Add(AVX512VNNI, "avx512vnni");
  Add(AVXVNNI, "avxvnni");
  Add(AVX512BF16, "avx512bf16");
  Add(AMX, "amx");
  return S.empty() ? "none" : S;
}

CpuFeatures probe::detectCpuFeatures() {
  CpuFeatures F;
#ifdef PROBE_X86
  __builtin_cpu_init();
  // libgcc/compiler-rt also check that the OS saves the wide registers.
  F.SSE2 = __builtin_cpu_supports("sse2");
  F.AVX = __builtin_cpu_supports("avx");
  F.FMA = __builtin_cpu_supports("fma");
  F.AVX2 = __builtin_cpu_supports("avx2");
  F.AVX512F = __builtin_cpu_supports("avx512f");
  F.AVX512BW = __builtin_cpu_supports("avx512bw");
  F.AVX512VNNI = __builtin_cpu_supports("avx512vnni");
  F.AVXVNNI = __builtin_cpu_supports("avxvnni");
  F.AVX512BF16 = __builtin_cpu_supports("avx512bf16");
#endif
#ifdef PROBE_AMX
  // AMX-BF16, -TILE, -INT8: CPUID 7.0 EDX bits 22, 24, 25; Linux hands out
  // the tile state on request (ARCH_REQ_XCOMP_PERM, XFEATURE_XTILEDATA).
  unsigned A = 0, B = 0, C = 0, D = 0;
  const unsigned Bits = 1u << 22 | 1u << 24 | 1u << 25;
  F.AMX = __get_cpuid_count(7, 0, &A, &B, &C, &D) && (D & Bits) == Bits &&
          syscall(SYS_arch_prctl, 0x1023, 18) == 0;
#endif
  return F;
}

namespace {

// Portable fallbacks: the compiler vectorizes what it can for the baseline.
double fmaF64Scalar(uint64_t Iters) {
  double V[8];
  for (int I = 0; I < 8; ++I)
    V[I] = 1.0 + I * 1e-3;
  for (uint64_t K = 0; K < Iters; ++K)
    for (int I = 0; I < 8; ++I)
      V[I] = V[I] * 0.9999999 + 1e-8;
  double S = 0;
  for (double X : V)
    S += X;
  return S;
}

double readScalar(double *const *A, size_t N, uint64_t Reps) {
  double S[8] = {};
  for (uint64_t R = 0; R < Reps; ++R)
    for (size_t I = 0; I < N; I += 8)
      for (int J = 0; J < 8; ++J)
        S[J] += A[0][I + J];
  double T = 0;
  for (double X : S)
    T += X;
  return T;
}

double triadScalar(double *const *A, size_t N, uint64_t Reps) {
  for (uint64_t R = 0; R < Reps; ++R) {
    for (size_t I = 0; I < N; ++I)
      A[0][I] = A[1][I] + 3.0 * A[2][I];
    asm volatile("" ::: "memory"); // every pass stores again
  }
  return A[0][N / 2];
}

} // namespace

#ifdef PROBE_X86

namespace {

/// A function compiled for \p ISA and inlined into the loops that call it
/// (their region's ISA includes \p ISA).
#define PROBE_ISA(ISA) __attribute__((always_inline, target(ISA))) inline

typedef double F64x8 __attribute__((vector_size(64)));
typedef float F32x16 __attribute__((vector_size(64)));
// Integer chains wrap by design: unsigned lanes keep that defined (a signed
// reduction is undefined behaviour, which UBSan reports).
typedef uint32_t U32x16 __attribute__((vector_size(64)));
typedef uint32_t U32x8 __attribute__((vector_size(32)));

//--- The instructions that differ between the ISAs' loops -------------------
// f64/f32 peaks and the triad: one FMA per lane, 2 FLOPs. SSE2 has no FMA:
// a multiply and an add.
PROBE_ISA("avx512f") __m512d mulAdd(__m512d X, __m512d M, __m512d A) {
  return _mm512_fmadd_pd(X, M, A);
}
PROBE_ISA("avx512f") __m512 mulAdd(__m512 X, __m512 M, __m512 A) {
  return _mm512_fmadd_ps(X, M, A);
}
PROBE_ISA("avx2,fma") __m256d mulAdd(__m256d X, __m256d M, __m256d A) {
  return _mm256_fmadd_pd(X, M, A);
}
PROBE_ISA("avx2,fma") __m256 mulAdd(__m256 X, __m256 M, __m256 A) {
  return _mm256_fmadd_ps(X, M, A);
}
PROBE_ISA("sse2") __m128d mulAdd(__m128d X, __m128d M, __m128d A) {
  return _mm_add_pd(_mm_mul_pd(X, M), A);
}
PROBE_ISA("sse2") __m128 mulAdd(__m128 X, __m128 M, __m128 A) {
  return _mm_add_ps(_mm_mul_ps(X, M), A);
}

// VDPBF16PS: 32 bf16 pairs multiplied and accumulated into 16 fp32 lanes, 64
// FLOPs an instruction (here 1.0 x 2^-7). Without it a bf16 variant's
// "% roof" was taken against the f32 peak and could pass 100%.
PROBE_ISA("avx512f,avx512bf16") F32x16 dotBf16(F32x16 X) {
  return _mm512_dpbf16_ps(X, (__m512bh)_mm512_set1_epi16(0x3f80),
                          (__m512bh)_mm512_set1_epi16(0x3c00));
}

// int8: one u8 x s8 multiply accumulated into i32 is a MAC = 2 OPs.
PROBE_ISA("avx512f,avx512vnni") U32x16 dotI8(U32x16 X) {
  return (U32x16)_mm512_dpbusd_epi32((__m512i)X, _mm512_set1_epi8(3),
                                     _mm512_set1_epi8(-2));
}
PROBE_ISA("avx2,avxvnni") U32x8 dotI8(U32x8 X) {
  return (U32x8)_mm256_dpbusd_avx_epi32((__m256i)X, _mm256_set1_epi8(3),
                                        _mm256_set1_epi8(-2));
}
// Without VNNI: VPMADDUBSW (u8 x s8 pairs into i16) + VPMADDWD by ones
// (into i32) + VPADDD, three instructions for the MACs VPDPBUSD does in one.
// The chain feeds its own bytes back in, so nothing is loop-invariant.
PROBE_ISA("avx512f,avx512bw") U32x16 maddubsI8(U32x16 X) {
  __m512i P = _mm512_maddubs_epi16((__m512i)X, _mm512_set1_epi8(-2));
  return X + (U32x16)_mm512_madd_epi16(P, _mm512_set1_epi16(1));
}
PROBE_ISA("avx2") U32x8 maddubsI8(U32x8 X) {
  __m256i P = _mm256_maddubs_epi16((__m256i)X, _mm256_set1_epi8(-2));
  return X + (U32x8)_mm256_madd_epi16(P, _mm256_set1_epi16(1));
}

//--- The loops, once per ISA --------------------------------------------------
// Every function defined between PROBE_TARGET_BEGIN(ISA) and PROBE_TARGET_END
// is compiled for ISA, as if it carried __attribute__((target(ISA))): the
// templates of KernelLoops.inc, included once in each region, become that
// ISA's kernels. 16 zmm or 12 ymm/xmm chains: more than FMA latency x FMA
// units on current cores.
#define PROBE_PRAGMA(X) _Pragma(#X)
#if defined(__clang__)
#define PROBE_TARGET_BEGIN(ISA)                                                \
  PROBE_PRAGMA(clang attribute push(__attribute__((target(ISA))),             \
                                    apply_to = function))
#define PROBE_TARGET_END PROBE_PRAGMA(clang attribute pop)
#else
#define PROBE_TARGET_BEGIN(ISA)                                                \
  PROBE_PRAGMA(GCC push_options) PROBE_PRAGMA(GCC target(ISA))
#define PROBE_TARGET_END PROBE_PRAGMA(GCC pop_options)
#endif

PROBE_TARGET_BEGIN("avx512f")
namespace avx512 {
#include "KernelLoops.inc"
}
PROBE_TARGET_END
PROBE_TARGET_BEGIN("avx2,fma")
namespace avx2fma {
#include "KernelLoops.inc"
}
PROBE_TARGET_END
PROBE_TARGET_BEGIN("sse2")
namespace sse2 {
#include "KernelLoops.inc"
}
PROBE_TARGET_END
PROBE_TARGET_BEGIN("avx2")
namespace avx2 {
#include "KernelLoops.inc"
}
PROBE_TARGET_END
PROBE_TARGET_BEGIN("avx512f,avx512bf16")
namespace avx512bf16 {
#include "KernelLoops.inc"
}
PROBE_TARGET_END
PROBE_TARGET_BEGIN("avx512f,avx512vnni")
namespace avx512vnni {
#include "KernelLoops.inc"
}
PROBE_TARGET_END
PROBE_TARGET_BEGIN("avx2,avxvnni")
namespace avxvnni {
#include "KernelLoops.inc"
}
PROBE_TARGET_END
PROBE_TARGET_BEGIN("avx512f,avx512bw")
namespace avx512bw {
#include "KernelLoops.inc"
}
PROBE_TARGET_END

} // namespace

#endif // PROBE_X86

#ifdef PROBE_AMX
namespace {

/// Palette 1, every tile 16 rows of 64 bytes.
struct alignas(64) TileConfig {
  uint8_t Palette = 1, StartRow = 0;
  uint8_t Reserved[14] = {};
  uint16_t ColsBytes[16] = {64, 64, 64, 64, 64, 64, 64, 64};
  uint8_t Rows[16] = {16, 16, 16, 16, 16, 16, 16, 16};
};

/// Six independent 16 x 16 accumulator tiles, one A and one B tile loaded
/// once: TDPBF16PS (16 x 16 x 32 bf16 pairs, 16,384 FLOPs) or TDPBSSD
/// (16 x 16 x 64 int8 products, 32,768 OPs) an instruction.
template <bool Int8>
__attribute__((target("amx-tile,amx-int8,amx-bf16"))) double amxChains(uint64_t Iters) {
  alignas(64) uint16_t Src[512];
  for (uint16_t &X : Src)
    X = Int8 ? 0x0101 : 0x3c00; // int8 ones, bf16 1 x 2^-7
  const TileConfig Cfg;
  _tile_loadconfig(&Cfg);
  _tile_loadd(6, Src, 64);
  _tile_loadd(7, Src, 64);
  _tile_zero(0);
  _tile_zero(1);
  _tile_zero(2);
  _tile_zero(3);
  _tile_zero(4);
  _tile_zero(5);
  for (uint64_t I = 0; I < Iters; ++I) {
    if constexpr (Int8) {
      _tile_dpbssd(0, 6, 7);
      _tile_dpbssd(1, 6, 7);
      _tile_dpbssd(2, 6, 7);
      _tile_dpbssd(3, 6, 7);
      _tile_dpbssd(4, 6, 7);
      _tile_dpbssd(5, 6, 7);
    } else {
      _tile_dpbf16ps(0, 6, 7);
      _tile_dpbf16ps(1, 6, 7);
      _tile_dpbf16ps(2, 6, 7);
      _tile_dpbf16ps(3, 6, 7);
      _tile_dpbf16ps(4, 6, 7);
      _tile_dpbf16ps(5, 6, 7);
    }
  }
  alignas(64) float Out[256];
  _tile_stored(5, Out, 64);
  _tile_release();
  return Out[0];
}

} // namespace
#endif

std::vector<ComputeKernel> probe::computeKernels(const CpuFeatures &F) {
  std::vector<ComputeKernel> K;
#ifdef PROBE_X86
  if (F.AVX512F) {
    K.push_back({"f64", "AVX-512 FMA", 512, 16, 16 * 8 * 2.0,
                 avx512::chains<avx512::MulAddChain<double, 64, 16>>});
    K.push_back({"f32", "AVX-512 FMA", 512, 16, 16 * 16 * 2.0,
                 avx512::chains<avx512::MulAddChain<float, 64, 16>>});
  } else if (F.AVX2 && F.FMA) {
    K.push_back({"f64", "AVX2 FMA", 256, 12, 12 * 4 * 2.0,
                 avx2fma::chains<avx2fma::MulAddChain<double, 32, 12>>});
    K.push_back({"f32", "AVX2 FMA", 256, 12, 12 * 8 * 2.0,
                 avx2fma::chains<avx2fma::MulAddChain<float, 32, 12>>});
  } else if (F.SSE2) {
    K.push_back({"f64", "SSE2 mul+add", 128, 12, 12 * 2 * 2.0,
                 sse2::chains<sse2::MulAddChain<double, 16, 12>>});
    K.push_back({"f32", "SSE2 mul+add", 128, 12, 12 * 4 * 2.0,
                 sse2::chains<sse2::MulAddChain<float, 16, 12>>});
  }
#ifdef PROBE_AMX
  // The int8 and bf16 variants run on tiles where these exist (roofline_gemm.h).
  if (F.AMX) {
    K.push_back({"bf16", "AMX-BF16", 0, 6, 6 * 16 * 16 * 32 * 2.0, amxChains<false>});
    K.push_back({"i8", "AMX-INT8", 0, 6, 6 * 16 * 16 * 64 * 2.0, amxChains<true>});
    return K;
  }
#endif
  if (F.AVX512F && F.AVX512BF16)
    K.push_back({"bf16", "AVX-512 BF16", 512, 16, 16 * 32 * 2.0,
                 avx512bf16::chains<avx512bf16::Chain<F32x16, 16, dotBf16>>});
  if (F.AVX512F && F.AVX512VNNI)
    K.push_back({"i8", "AVX-512 VNNI", 512, 16, 16 * 64 * 2.0,
                 avx512vnni::chains<avx512vnni::Chain<U32x16, 16, dotI8>>});
  else if (F.AVX2 && F.AVXVNNI)
    K.push_back({"i8", "AVX-VNNI", 256, 12, 12 * 32 * 2.0,
                 avxvnni::chains<avxvnni::Chain<U32x8, 12, dotI8>>});
  else if (F.AVX512F && F.AVX512BW)
    K.push_back({"i8", "AVX-512BW maddubs", 512, 16, 16 * 64 * 2.0,
                 avx512bw::chains<avx512bw::Chain<U32x16, 16, maddubsI8>>});
  else if (F.AVX2)
    K.push_back({"i8", "AVX2 maddubs", 256, 12, 12 * 32 * 2.0,
                 avx2::chains<avx2::Chain<U32x8, 12, maddubsI8>>});
#endif
  if (K.empty())
    K.push_back({"f64", "scalar", 64, 8, 8 * 2.0, fmaF64Scalar});
  return K;
}

std::vector<BandwidthKernel> probe::bandwidthKernels(const CpuFeatures &F) {
#ifdef PROBE_X86
  if (F.AVX512F)
    return {{"read", "AVX-512", 1, 8, avx512::readStream<64>},
            {"triad", "AVX-512", 3, 24, avx512::triad<64>}};
  if (F.AVX2 && F.FMA)
    return {{"read", "AVX2", 1, 8, avx2::readStream<32>},
            {"triad", "AVX2", 3, 24, avx2fma::triad<32>}};
  if (F.SSE2)
    return {{"read", "SSE2", 1, 8, sse2::readStream<16>},
            {"triad", "scalar", 3, 24, triadScalar}};
#endif
  (void)F;
  return {{"read", "scalar", 1, 8, readScalar},
          {"triad", "scalar", 3, 24, triadScalar}};
}

double probe::measureClockHz(double Seconds) {
#if defined(__x86_64__)
  using Clock = std::chrono::steady_clock;
  uint64_t Iters = 1 << 16;
  for (;;) {
    uint64_t X = 0, Count = Iters;
    auto T0 = Clock::now();
    // Eight dependent adds per iteration: eight cycles; the loop counter
    // runs on another port in parallel.
    asm volatile("1:\n\t"
                 "add $1, %0\n\tadd $1, %0\n\tadd $1, %0\n\tadd $1, %0\n\t"
                 "add $1, %0\n\tadd $1, %0\n\tadd $1, %0\n\tadd $1, %0\n\t"
                 "dec %1\n\t"
                 "jnz 1b\n\t"
                 : "+r"(X), "+r"(Count)
                 :
                 : "cc");
    double S = std::chrono::duration<double>(Clock::now() - T0).count();
    if (S >= Seconds || Iters > (uint64_t(1) << 40))
      return S > 0 ? static_cast<double>(Iters) * 8 / S : 0;
    Iters = static_cast<uint64_t>(
        static_cast<double>(Iters) * std::max(2.0, 1.2 * Seconds / std::max(S, 1e-9)));
  }
#else
  (void)Seconds;
  return 0;
#endif
}
