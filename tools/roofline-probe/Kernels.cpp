//===- Kernels.cpp - The probe's compute and bandwidth loops --------------===//
//
// Compute loops keep many independent accumulator chains (more than FMA
// latency x FMA units on current cores: 16 zmm, 12 ymm), so the loop is
// limited by issue throughput, not by latency. The chains are spelled out
// with macros: the compiler must keep every chain in its own register.
//
//===----------------------------------------------------------------------===//

#include "Kernels.h"

#include <chrono>
#include <cmath>

#if defined(__x86_64__) || defined(__i386__)
// GCC 12's _mm512_undefined_* (behind the reductions and setzero) trip
// -Wuninitialized by design: the value is meant to be undefined.
#pragma GCC diagnostic ignored "-Wuninitialized"
#pragma GCC diagnostic ignored "-Wmaybe-uninitialized"
#include <immintrin.h>
#define PROBE_X86 1
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
  return F;
}

#define R8(X) X(0) X(1) X(2) X(3) X(4) X(5) X(6) X(7)
#define R12(X) R8(X) X(8) X(9) X(10) X(11)
#define R16(X) R12(X) X(12) X(13) X(14) X(15)

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

#ifdef PROBE_X86

//--- f64 / f32 FMA ----------------------------------------------------------

/// The lanes of \p S summed as unsigned: the result only keeps the chains
/// alive, and their int32 values overflow long runs (a signed reduction
/// would be undefined behaviour, which UBSan reports).
static __attribute__((target("avx512f"))) double sumLanes(__m512i S) {
  alignas(64) uint32_t Lanes[16];
  _mm512_store_si512(reinterpret_cast<__m512i *>(Lanes), S);
  uint64_t Sum = 0;
  for (uint32_t L : Lanes)
    Sum += L;
  return static_cast<double>(Sum);
}

__attribute__((target("avx512f"))) double fmaF64Avx512(uint64_t Iters) {
  const __m512d M = _mm512_set1_pd(0.9999999), A = _mm512_set1_pd(1e-8);
#define DECL(I) __m512d V##I = _mm512_set1_pd(1.0 + I * 1e-3);
  R16(DECL)
#undef DECL
  for (uint64_t K = 0; K < Iters; ++K) {
#define STEP(I) V##I = _mm512_fmadd_pd(V##I, M, A);
    R16(STEP)
#undef STEP
  }
  __m512d S = _mm512_setzero_pd();
#define SUM(I) S = _mm512_add_pd(S, V##I);
  R16(SUM)
#undef SUM
  return _mm512_reduce_add_pd(S);
}

__attribute__((target("avx512f"))) double fmaF32Avx512(uint64_t Iters) {
  const __m512 M = _mm512_set1_ps(0.99999f), A = _mm512_set1_ps(1e-6f);
#define DECL(I) __m512 V##I = _mm512_set1_ps(1.0f + I * 1e-3f);
  R16(DECL)
#undef DECL
  for (uint64_t K = 0; K < Iters; ++K) {
#define STEP(I) V##I = _mm512_fmadd_ps(V##I, M, A);
    R16(STEP)
#undef STEP
  }
  __m512 S = _mm512_setzero_ps();
#define SUM(I) S = _mm512_add_ps(S, V##I);
  R16(SUM)
#undef SUM
  return _mm512_reduce_add_ps(S);
}

__attribute__((target("avx2,fma"))) double fmaF64Avx2(uint64_t Iters) {
  const __m256d M = _mm256_set1_pd(0.9999999), A = _mm256_set1_pd(1e-8);
#define DECL(I) __m256d V##I = _mm256_set1_pd(1.0 + I * 1e-3);
  R12(DECL)
#undef DECL
  for (uint64_t K = 0; K < Iters; ++K) {
#define STEP(I) V##I = _mm256_fmadd_pd(V##I, M, A);
    R12(STEP)
#undef STEP
  }
  __m256d S = _mm256_setzero_pd();
#define SUM(I) S = _mm256_add_pd(S, V##I);
  R12(SUM)
#undef SUM
  alignas(32) double Out[4];
  _mm256_store_pd(Out, S);
  return Out[0] + Out[1] + Out[2] + Out[3];
}

__attribute__((target("avx2,fma"))) double fmaF32Avx2(uint64_t Iters) {
  const __m256 M = _mm256_set1_ps(0.99999f), A = _mm256_set1_ps(1e-6f);
#define DECL(I) __m256 V##I = _mm256_set1_ps(1.0f + I * 1e-3f);
  R12(DECL)
#undef DECL
  for (uint64_t K = 0; K < Iters; ++K) {
#define STEP(I) V##I = _mm256_fmadd_ps(V##I, M, A);
    R12(STEP)
#undef STEP
  }
  __m256 S = _mm256_setzero_ps();
#define SUM(I) S = _mm256_add_ps(S, V##I);
  R12(SUM)
#undef SUM
  alignas(32) float Out[8];
  _mm256_store_ps(Out, S);
  double T = 0;
  for (float X : Out)
    T += X;
  return T;
}

// SSE2 has no FMA: a multiply and an add per lane, 2 FLOPs.
__attribute__((target("sse2"))) double mulAddF64Sse2(uint64_t Iters) {
  const __m128d M = _mm_set1_pd(0.9999999), A = _mm_set1_pd(1e-8);
#define DECL(I) __m128d V##I = _mm_set1_pd(1.0 + I * 1e-3);
  R12(DECL)
#undef DECL
  for (uint64_t K = 0; K < Iters; ++K) {
#define STEP(I) V##I = _mm_add_pd(_mm_mul_pd(V##I, M), A);
    R12(STEP)
#undef STEP
  }
  __m128d S = _mm_setzero_pd();
#define SUM(I) S = _mm_add_pd(S, V##I);
  R12(SUM)
#undef SUM
  alignas(16) double Out[2];
  _mm_store_pd(Out, S);
  return Out[0] + Out[1];
}

__attribute__((target("sse2"))) double mulAddF32Sse2(uint64_t Iters) {
  const __m128 M = _mm_set1_ps(0.99999f), A = _mm_set1_ps(1e-6f);
#define DECL(I) __m128 V##I = _mm_set1_ps(1.0f + I * 1e-3f);
  R12(DECL)
#undef DECL
  for (uint64_t K = 0; K < Iters; ++K) {
#define STEP(I) V##I = _mm_add_ps(_mm_mul_ps(V##I, M), A);
    R12(STEP)
#undef STEP
  }
  __m128 S = _mm_setzero_ps();
#define SUM(I) S = _mm_add_ps(S, V##I);
  R12(SUM)
#undef SUM
  alignas(16) float Out[4];
  _mm_store_ps(Out, S);
  return double(Out[0]) + Out[1] + Out[2] + Out[3];
}

//--- bf16 dot products ------------------------------------------------------
// VDPBF16PS: 32 bf16 pairs multiplied and accumulated into 16 fp32 lanes, 64
// FLOPs an instruction. Without it a bf16 variant's "% roof" was taken
// against the f32 peak and could pass 100%.

__attribute__((target("avx512f,avx512bf16"))) double dotBf16Avx512(
    uint64_t Iters) {
  const __m512bh A = (__m512bh)_mm512_set1_epi16(0x3f80); // 1.0
  const __m512bh B = (__m512bh)_mm512_set1_epi16(0x3c00); // 2^-7
#define DECL(I) __m512 V##I = _mm512_set1_ps(float(I));
  R16(DECL)
#undef DECL
  for (uint64_t K = 0; K < Iters; ++K) {
#define STEP(I) V##I = _mm512_dpbf16_ps(V##I, A, B);
    R16(STEP)
#undef STEP
  }
  __m512 S = _mm512_setzero_ps();
#define SUM(I) S = _mm512_add_ps(S, V##I);
  R16(SUM)
#undef SUM
  return _mm512_reduce_add_ps(S);
}

//--- int8 dot products ------------------------------------------------------
// One u8 x s8 multiply accumulated into i32 is a MAC = 2 OPs.

__attribute__((target("avx512f,avx512vnni"))) double dotI8Avx512Vnni(
    uint64_t Iters) {
  const __m512i A = _mm512_set1_epi8(3), B = _mm512_set1_epi8(-2);
#define DECL(I) __m512i V##I = _mm512_set1_epi32(I);
  R16(DECL)
#undef DECL
  for (uint64_t K = 0; K < Iters; ++K) {
#define STEP(I) V##I = _mm512_dpbusd_epi32(V##I, A, B);
    R16(STEP)
#undef STEP
  }
  __m512i S = _mm512_setzero_si512();
#define SUM(I) S = _mm512_add_epi32(S, V##I);
  R16(SUM)
#undef SUM
  return sumLanes(S);
}

__attribute__((target("avx2,avxvnni"))) double dotI8AvxVnni(uint64_t Iters) {
  const __m256i A = _mm256_set1_epi8(3), B = _mm256_set1_epi8(-2);
#define DECL(I) __m256i V##I = _mm256_set1_epi32(I);
  R12(DECL)
#undef DECL
  for (uint64_t K = 0; K < Iters; ++K) {
#define STEP(I) V##I = _mm256_dpbusd_avx_epi32(V##I, A, B);
    R12(STEP)
#undef STEP
  }
  __m256i S = _mm256_setzero_si256();
#define SUM(I) S = _mm256_add_epi32(S, V##I);
  R12(SUM)
#undef SUM
  alignas(32) int32_t Out[8];
  _mm256_store_si256(reinterpret_cast<__m256i *>(Out), S);
  double T = 0;
  for (int32_t X : Out)
    T += X;
  return T;
}

// Without VNNI: VPMADDUBSW (u8 x s8 pairs into i16) + VPMADDWD by ones
// (into i32) + VPADDD, three instructions for the MACs VPDPBUSD does in one.
// The chain feeds its own bytes back in, so nothing is loop-invariant.
__attribute__((target("avx512f,avx512bw"))) double dotI8Avx512Bw(
    uint64_t Iters) {
  const __m512i B = _mm512_set1_epi8(-2), One = _mm512_set1_epi16(1);
#define DECL(I) __m512i V##I = _mm512_set1_epi32(I);
  R16(DECL)
#undef DECL
  for (uint64_t K = 0; K < Iters; ++K) {
#define STEP(I)                                                                \
  V##I = _mm512_add_epi32(                                                     \
      V##I, _mm512_madd_epi16(_mm512_maddubs_epi16(V##I, B), One));
    R16(STEP)
#undef STEP
  }
  __m512i S = _mm512_setzero_si512();
#define SUM(I) S = _mm512_add_epi32(S, V##I);
  R16(SUM)
#undef SUM
  return sumLanes(S);
}

__attribute__((target("avx2"))) double dotI8Avx2(uint64_t Iters) {
  const __m256i B = _mm256_set1_epi8(-2), One = _mm256_set1_epi16(1);
#define DECL(I) __m256i V##I = _mm256_set1_epi32(I);
  R12(DECL)
#undef DECL
  for (uint64_t K = 0; K < Iters; ++K) {
#define STEP(I)                                                                \
  V##I = _mm256_add_epi32(                                                     \
      V##I, _mm256_madd_epi16(_mm256_maddubs_epi16(V##I, B), One));
    R12(STEP)
#undef STEP
  }
  __m256i S = _mm256_setzero_si256();
#define SUM(I) S = _mm256_add_epi32(S, V##I);
  R12(SUM)
#undef SUM
  alignas(32) int32_t Out[8];
  _mm256_store_si256(reinterpret_cast<__m256i *>(Out), S);
  double T = 0;
  for (int32_t X : Out)
    T += X;
  return T;
}

//--- bandwidth ----------------------------------------------------------------
// Read: eight accumulators, two cache lines per step. Triad: STREAM's
// a = b + s*c with ordinary (write-allocating) stores, counted as STREAM
// counts it, 24 bytes per element.

__attribute__((target("avx512f"))) double readAvx512(double *const *Arr,
                                                     size_t N, uint64_t Reps) {
  const double *P = Arr[0];
#define DECL(I) __m512d S##I = _mm512_setzero_pd();
  R8(DECL)
#undef DECL
  for (uint64_t R = 0; R < Reps; ++R) {
    for (size_t I = 0; I < N; I += 64) {
#define STEP(J) S##J = _mm512_add_pd(S##J, _mm512_load_pd(P + I + 8 * J));
      R8(STEP)
#undef STEP
    }
    asm volatile("" ::: "memory");
  }
#define SUM(I) S0 = _mm512_add_pd(S0, S##I);
  R8(SUM)
#undef SUM
  return _mm512_reduce_add_pd(S0);
}

__attribute__((target("avx512f"))) double triadAvx512(double *const *Arr,
                                                      size_t N, uint64_t Reps) {
  double *A = Arr[0];
  const double *B = Arr[1], *C = Arr[2];
  const __m512d S = _mm512_set1_pd(3.0);
  for (uint64_t R = 0; R < Reps; ++R) {
    for (size_t I = 0; I < N; I += 32) {
#define STEP(J)                                                                \
  _mm512_store_pd(A + I + 8 * J, _mm512_fmadd_pd(S, _mm512_load_pd(C + I + 8 * J), \
                                                 _mm512_load_pd(B + I + 8 * J)));
      STEP(0) STEP(1) STEP(2) STEP(3)
#undef STEP
    }
    asm volatile("" ::: "memory");
  }
  return A[N / 2];
}

__attribute__((target("avx2"))) double readAvx2(double *const *Arr, size_t N,
                                                uint64_t Reps) {
  const double *P = Arr[0];
#define DECL(I) __m256d S##I = _mm256_setzero_pd();
  R8(DECL)
#undef DECL
  for (uint64_t R = 0; R < Reps; ++R) {
    for (size_t I = 0; I < N; I += 32) {
#define STEP(J) S##J = _mm256_add_pd(S##J, _mm256_load_pd(P + I + 4 * J));
      R8(STEP)
#undef STEP
    }
    asm volatile("" ::: "memory");
  }
#define SUM(I) S0 = _mm256_add_pd(S0, S##I);
  R8(SUM)
#undef SUM
  alignas(32) double Out[4];
  _mm256_store_pd(Out, S0);
  return Out[0] + Out[1] + Out[2] + Out[3];
}

__attribute__((target("avx2,fma"))) double triadAvx2(double *const *Arr,
                                                     size_t N, uint64_t Reps) {
  double *A = Arr[0];
  const double *B = Arr[1], *C = Arr[2];
  const __m256d S = _mm256_set1_pd(3.0);
  for (uint64_t R = 0; R < Reps; ++R) {
    for (size_t I = 0; I < N; I += 16) {
#define STEP(J)                                                                \
  _mm256_store_pd(A + I + 4 * J, _mm256_fmadd_pd(S, _mm256_load_pd(C + I + 4 * J), \
                                                 _mm256_load_pd(B + I + 4 * J)));
      STEP(0) STEP(1) STEP(2) STEP(3)
#undef STEP
    }
    asm volatile("" ::: "memory");
  }
  return A[N / 2];
}

__attribute__((target("sse2"))) double readSse2(double *const *Arr, size_t N,
                                                uint64_t Reps) {
  const double *P = Arr[0];
#define DECL(I) __m128d S##I = _mm_setzero_pd();
  R8(DECL)
#undef DECL
  for (uint64_t R = 0; R < Reps; ++R) {
    for (size_t I = 0; I < N; I += 16) {
#define STEP(J) S##J = _mm_add_pd(S##J, _mm_load_pd(P + I + 2 * J));
      R8(STEP)
#undef STEP
    }
    asm volatile("" ::: "memory");
  }
#define SUM(I) S0 = _mm_add_pd(S0, S##I);
  R8(SUM)
#undef SUM
  alignas(16) double Out[2];
  _mm_store_pd(Out, S0);
  return Out[0] + Out[1];
}

#endif // PROBE_X86

} // namespace

std::vector<ComputeKernel> probe::computeKernels(const CpuFeatures &F) {
  std::vector<ComputeKernel> K;
#ifdef PROBE_X86
  if (F.AVX512F) {
    K.push_back({"f64", "AVX-512 FMA", 512, 16, 16 * 8 * 2.0, fmaF64Avx512});
    K.push_back({"f32", "AVX-512 FMA", 512, 16, 16 * 16 * 2.0, fmaF32Avx512});
  } else if (F.AVX2 && F.FMA) {
    K.push_back({"f64", "AVX2 FMA", 256, 12, 12 * 4 * 2.0, fmaF64Avx2});
    K.push_back({"f32", "AVX2 FMA", 256, 12, 12 * 8 * 2.0, fmaF32Avx2});
  } else if (F.SSE2) {
    K.push_back({"f64", "SSE2 mul+add", 128, 12, 12 * 2 * 2.0, mulAddF64Sse2});
    K.push_back({"f32", "SSE2 mul+add", 128, 12, 12 * 4 * 2.0, mulAddF32Sse2});
  }
  if (F.AVX512F && F.AVX512BF16)
    K.push_back({"bf16", "AVX-512 BF16", 512, 16, 16 * 32 * 2.0, dotBf16Avx512});
  if (F.AVX512F && F.AVX512VNNI)
    K.push_back({"i8", "AVX-512 VNNI", 512, 16, 16 * 64 * 2.0, dotI8Avx512Vnni});
  else if (F.AVX2 && F.AVXVNNI)
    K.push_back({"i8", "AVX-VNNI", 256, 12, 12 * 32 * 2.0, dotI8AvxVnni});
  else if (F.AVX512F && F.AVX512BW)
    K.push_back({"i8", "AVX-512BW maddubs", 512, 16, 16 * 64 * 2.0,
                 dotI8Avx512Bw});
  else if (F.AVX2)
    K.push_back({"i8", "AVX2 maddubs", 256, 12, 12 * 32 * 2.0, dotI8Avx2});
#endif
  if (K.empty())
    K.push_back({"f64", "scalar", 64, 8, 8 * 2.0, fmaF64Scalar});
  return K;
}

std::vector<BandwidthKernel> probe::bandwidthKernels(const CpuFeatures &F) {
#ifdef PROBE_X86
  if (F.AVX512F)
    return {{"read", "AVX-512", 1, 8, readAvx512},
            {"triad", "AVX-512", 3, 24, triadAvx512}};
  if (F.AVX2 && F.FMA)
    return {{"read", "AVX2", 1, 8, readAvx2},
            {"triad", "AVX2", 3, 24, triadAvx2}};
  if (F.SSE2)
    return {{"read", "SSE2", 1, 8, readSse2},
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
