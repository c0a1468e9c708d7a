// roofline_gemm.h - the contraction path of emitted CPU variants.
//
// What a `tiled`, `parallel`, `fused`, `int8` or `bf16` variant of a gemm
// (or a convolution's implicit gemm) instantiates: register-blocked
// micro-kernels for AVX-512, AVX2+FMA and portable C++, the BLIS-style
// blocked drivers around them (pack B per KC x NC block, A per MC x KC
// block), a small-matrix path that packs nothing, and the epilogues a
// variant applies to C while it is still in registers. The emitted file
// fixes the blocks, the register tile, the operands' strides and the
// epilogue; docs/codegen.md describes the whole path.
//
//   f32:  C (+)= A B, FMA on f32 (AVX-512: any MR x NR with NR a multiple
//         of 16; AVX2: 6 x 16; portable: MR x NR plain loops);
//   int8: C (+)= dequant(Aq Bq): A the prepared int8 weights (a scale per
//         row or tensor), B quantized by the kernel on each call (per tensor
//         or column, round to nearest even), products summed exactly in
//         int32. AVX512-VNNI: vpdpbusd on B + 128 (u8) times A (s8), less
//         128 * sum A per row; AMX: tdpbsud on tiles, the same operands;
//         AVX512BW, AVX2, portable: pairs of int16 (vpmaddwd), no offset;
//   bf16: C (+)= A B on bf16 operands, f32 sums. AVX512-BF16: vdpbf16ps;
//         AVX-512: widened to f32 and FMA; portable: plain loops.
// Partial tiles: the packed panels are zero padded, so the micro-kernels
// compute whole MR x NR tiles and store only the mr x nr that exist
// (masked stores); a C that is not contiguous along N goes through a tile
// buffer. Packing buffers are per thread and reused across calls.
//
// C++17, no dependencies beyond roofline_kernel.h; warning-free with
// -Wall -Wextra on g++ and clang++.

#ifndef ROOFLINE_GEMM_H
#define ROOFLINE_GEMM_H

#include "roofline_kernel.h"

#include <climits>
#include <limits>

#ifdef _OPENMP
// Declared here rather than from <omp.h>: clang has -fopenmp without the
// header on machines where only GCC's runtime is installed.
extern "C" int omp_get_max_threads(void);
#endif

#if RL_X86
#define RL_AVX2 __attribute__((target("avx2,fma")))
#define RL_AVX512 __attribute__((target("avx512f,avx512dq,avx512bw,avx512vl,fma")))
#define RL_AVX512VNNI                                                          \
  __attribute__((target("avx512f,avx512dq,avx512bw,avx512vl,avx512vnni,fma")))
#if defined(__clang__) || __GNUC__ >= 12
#define RL_HAVE_BF16 1
#define RL_AVX512BF16                                                          \
  __attribute__((target("avx512f,avx512dq,avx512bw,avx512vl,avx512bf16,fma")))
#else
#define RL_HAVE_BF16 0
#endif
#endif

namespace rl {

/// A per-thread buffer of at least \p N elements that lives until the
/// thread ends: packing buffers are not allocated (and faulted in) on
/// every call. Slot tells buffers of one thread apart. Not cleared: every
/// element a kernel reads is written by the packing first.
template <typename T, int Slot> T *scratch(size_t N) {
  struct Holder {
    T *P = nullptr;
    size_t N = 0;
    ~Holder() { std::free(P); }
  };
  thread_local Holder H;
  if (H.N < N) {
    std::free(H.P);
    size_t Bytes = ((N ? N : 1) * sizeof(T) + 63) / 64 * 64;
    H.P = static_cast<T *>(std::aligned_alloc(64, Bytes));
    if (!H.P)
      std::abort();
    H.N = N;
  }
  return H.P;
}

//===----------------------------------------------------------------------===//
// Vector operations of the epilogues, one struct per instruction set: V a
// vector of floats, M a mask of the lanes that exist (loads of an edge
// tile), B a comparison's result. An emitted epilogue is written once in
// these operations and instantiated for each.
//===----------------------------------------------------------------------===//

namespace v {

/// One lane: the portable micro-kernels, and tiles merged element-wise.
struct f32x1 {
  typedef float V;
  typedef bool M;
  typedef bool B;
  static V zero() { return 0.0f; }
  static V set1(float X) { return X; }
  static V load(const float *P, M) { return *P; }
  static V add(V A, V C) { return A + C; }
  static V sub(V A, V C) { return A - C; }
  static V mul(V A, V C) { return A * C; }
  static V div(V A, V C) { return A / C; }
  static V neg(V A) { return -A; }
  static V max(V A, V C) { return std::fmax(A, C); }
  static V min(V A, V C) { return std::fmin(A, C); }
  static V abs(V A) { return std::fabs(A); }
  static V sqrt(V A) { return std::sqrt(A); }
  static V exp(V A) { return std::exp(A); }
  static V tanh(V A) { return std::tanh(A); }
  static B lt(V A, V C) { return A < C; }
  static B le(V A, V C) { return A <= C; }
  static B gt(V A, V C) { return A > C; }
  static B ge(V A, V C) { return A >= C; }
  static B eq(V A, V C) { return A == C; }
  static B ne(V A, V C) { return A != C; }
  static V select(B C, V T, V F) { return C ? T : F; }
};

#if RL_X86
/// AVX2: 8 lanes; masks are lanes of all ones.
struct f32x8 {
  typedef __m256 V;
  typedef __m256i M;
  typedef __m256 B;
  RL_AVX2 static M mask(int N) {
    const __m256i Lane = _mm256_setr_epi32(0, 1, 2, 3, 4, 5, 6, 7);
    return _mm256_cmpgt_epi32(_mm256_set1_epi32(N), Lane);
  }
  RL_AVX2 static V zero() { return _mm256_setzero_ps(); }
  RL_AVX2 static V set1(float X) { return _mm256_set1_ps(X); }
  RL_AVX2 static V load(const float *P, M K) { return _mm256_maskload_ps(P, K); }
  RL_AVX2 static V add(V A, V C) { return _mm256_add_ps(A, C); }
  RL_AVX2 static V sub(V A, V C) { return _mm256_sub_ps(A, C); }
  RL_AVX2 static V mul(V A, V C) { return _mm256_mul_ps(A, C); }
  RL_AVX2 static V div(V A, V C) { return _mm256_div_ps(A, C); }
  RL_AVX2 static V neg(V A) { return _mm256_xor_ps(A, _mm256_set1_ps(-0.0f)); }
  // fmax/fmin: a NaN operand gives the other one, as in C.
  RL_AVX2 static V max(V A, V C) {
    return _mm256_blendv_ps(_mm256_max_ps(A, C), C, _mm256_cmp_ps(A, A, _CMP_UNORD_Q));
  }
  RL_AVX2 static V min(V A, V C) {
    return _mm256_blendv_ps(_mm256_min_ps(A, C), C, _mm256_cmp_ps(A, A, _CMP_UNORD_Q));
  }
  RL_AVX2 static V abs(V A) { return _mm256_andnot_ps(_mm256_set1_ps(-0.0f), A); }
  RL_AVX2 static V sqrt(V A) { return _mm256_sqrt_ps(A); }
  /// e^x: x = n ln2 + r, |r| <= ln2/2, a degree-6 polynomial in r, times
  /// 2^n (under 2 ulp on [-87, 88]; beyond: 0 or inf).
  RL_AVX2 static V exp(V X) {
    V A = _mm256_min_ps(_mm256_max_ps(X, _mm256_set1_ps(-88.0f)), _mm256_set1_ps(88.5f));
    V N = _mm256_round_ps(_mm256_mul_ps(A, _mm256_set1_ps(1.44269504088896341f)),
                          _MM_FROUND_TO_NEAREST_INT | _MM_FROUND_NO_EXC);
    V R = _mm256_fnmadd_ps(N, _mm256_set1_ps(0.693359375f), A);
    R = _mm256_fnmadd_ps(N, _mm256_set1_ps(-2.12194440e-4f), R);
    V P = _mm256_set1_ps(1.9875691500e-4f);
    P = _mm256_fmadd_ps(P, R, _mm256_set1_ps(1.3981999507e-3f));
    P = _mm256_fmadd_ps(P, R, _mm256_set1_ps(8.3334519073e-3f));
    P = _mm256_fmadd_ps(P, R, _mm256_set1_ps(4.1665795894e-2f));
    P = _mm256_fmadd_ps(P, R, _mm256_set1_ps(1.6666665459e-1f));
    P = _mm256_fmadd_ps(P, R, _mm256_set1_ps(5.0000001201e-1f));
    P = _mm256_fmadd_ps(P, _mm256_mul_ps(R, R), _mm256_add_ps(R, _mm256_set1_ps(1.0f)));
    // 2^n in two halves, so that n = 128 does not overflow the exponent.
    __m256i E = _mm256_cvtps_epi32(N);
    __m256i H = _mm256_srai_epi32(E, 1);
    V S1 = _mm256_castsi256_ps(_mm256_slli_epi32(_mm256_add_epi32(H, _mm256_set1_epi32(127)), 23));
    V S2 = _mm256_castsi256_ps(_mm256_slli_epi32(
        _mm256_add_epi32(_mm256_sub_epi32(E, H), _mm256_set1_epi32(127)), 23));
    V Y = _mm256_mul_ps(_mm256_mul_ps(P, S1), S2);
    // Below -88 the true value is below FLT_MIN: 0 (as exp does, within
    // the denormals it would give).
    return _mm256_and_ps(Y, _mm256_cmp_ps(X, _mm256_set1_ps(-88.0f), _CMP_GE_OQ));
  }
  /// tanh x = sign(x) (1 - 2 / (e^{2|x|} + 1)): absolute error below 2^-23.
  RL_AVX2 static V tanh(V X) {
    V A = _mm256_min_ps(abs(X), _mm256_set1_ps(9.0f));
    V E = exp(_mm256_add_ps(A, A));
    V T = _mm256_sub_ps(_mm256_set1_ps(1.0f),
                        _mm256_div_ps(_mm256_set1_ps(2.0f), _mm256_add_ps(E, _mm256_set1_ps(1.0f))));
    return _mm256_or_ps(T, _mm256_and_ps(X, _mm256_set1_ps(-0.0f)));
  }
  RL_AVX2 static B lt(V A, V C) { return _mm256_cmp_ps(A, C, _CMP_LT_OQ); }
  RL_AVX2 static B le(V A, V C) { return _mm256_cmp_ps(A, C, _CMP_LE_OQ); }
  RL_AVX2 static B gt(V A, V C) { return _mm256_cmp_ps(A, C, _CMP_GT_OQ); }
  RL_AVX2 static B ge(V A, V C) { return _mm256_cmp_ps(A, C, _CMP_GE_OQ); }
  RL_AVX2 static B eq(V A, V C) { return _mm256_cmp_ps(A, C, _CMP_EQ_OQ); }
  RL_AVX2 static B ne(V A, V C) { return _mm256_cmp_ps(A, C, _CMP_NEQ_UQ); }
  RL_AVX2 static V select(B C, V T, V F) { return _mm256_blendv_ps(F, T, C); }
};

/// AVX-512: 16 lanes, mask registers.
struct f32x16 {
  // maskz forms with all lanes (K1): GCC 12's plain min, max, roundscale,
  // scalef and sqrt warn inside its own headers (-Wmaybe-uninitialized).
  static constexpr __mmask16 K1 = 0xffff;
  typedef __m512 V;
  typedef __mmask16 M;
  typedef __mmask16 B;
  static M mask(int N) {
    return N >= 16 ? M(0xffff) : N <= 0 ? M(0) : M((1u << N) - 1);
  }
  RL_AVX512 static V zero() { return _mm512_setzero_ps(); }
  RL_AVX512 static V set1(float X) { return _mm512_set1_ps(X); }
  RL_AVX512 static V load(const float *P, M K) { return _mm512_maskz_loadu_ps(K, P); }
  RL_AVX512 static V add(V A, V C) { return _mm512_add_ps(A, C); }
  RL_AVX512 static V sub(V A, V C) { return _mm512_sub_ps(A, C); }
  RL_AVX512 static V mul(V A, V C) { return _mm512_mul_ps(A, C); }
  RL_AVX512 static V div(V A, V C) { return _mm512_div_ps(A, C); }
  RL_AVX512 static V neg(V A) {
    return _mm512_castsi512_ps(_mm512_xor_si512(_mm512_castps_si512(A),
                                                _mm512_set1_epi32(INT_MIN)));
  }
  RL_AVX512 static V max(V A, V C) {
    return _mm512_mask_blend_ps(_mm512_cmp_ps_mask(A, A, _CMP_UNORD_Q), _mm512_maskz_max_ps(K1, A, C), C);
  }
  RL_AVX512 static V min(V A, V C) {
    return _mm512_mask_blend_ps(_mm512_cmp_ps_mask(A, A, _CMP_UNORD_Q), _mm512_maskz_min_ps(K1, A, C), C);
  }
  RL_AVX512 static V abs(V A) {
    return _mm512_castsi512_ps(_mm512_and_si512(_mm512_castps_si512(A),
                                                _mm512_set1_epi32(INT_MAX)));
  }
  RL_AVX512 static V sqrt(V A) { return _mm512_maskz_sqrt_ps(K1, A); }
  /// As f32x8::exp; 2^n by vscalefps.
  RL_AVX512 static V exp(V X) {
    V A = _mm512_maskz_min_ps(K1, _mm512_maskz_max_ps(K1, X, _mm512_set1_ps(-88.0f)), _mm512_set1_ps(88.5f));
    V N = _mm512_maskz_roundscale_ps(K1, _mm512_mul_ps(A, _mm512_set1_ps(1.44269504088896341f)),
                               _MM_FROUND_TO_NEAREST_INT | _MM_FROUND_NO_EXC);
    V R = _mm512_fnmadd_ps(N, _mm512_set1_ps(0.693359375f), A);
    R = _mm512_fnmadd_ps(N, _mm512_set1_ps(-2.12194440e-4f), R);
    V P = _mm512_set1_ps(1.9875691500e-4f);
    P = _mm512_fmadd_ps(P, R, _mm512_set1_ps(1.3981999507e-3f));
    P = _mm512_fmadd_ps(P, R, _mm512_set1_ps(8.3334519073e-3f));
    P = _mm512_fmadd_ps(P, R, _mm512_set1_ps(4.1665795894e-2f));
    P = _mm512_fmadd_ps(P, R, _mm512_set1_ps(1.6666665459e-1f));
    P = _mm512_fmadd_ps(P, R, _mm512_set1_ps(5.0000001201e-1f));
    P = _mm512_fmadd_ps(P, _mm512_mul_ps(R, R), _mm512_add_ps(R, _mm512_set1_ps(1.0f)));
    V Y = _mm512_maskz_scalef_ps(K1, P, N);
    return _mm512_maskz_mov_ps(_mm512_cmp_ps_mask(X, _mm512_set1_ps(-88.0f), _CMP_GE_OQ), Y);
  }
  RL_AVX512 static V tanh(V X) {
    V A = _mm512_maskz_min_ps(K1, abs(X), _mm512_set1_ps(9.0f));
    V E = exp(_mm512_add_ps(A, A));
    V T = _mm512_sub_ps(_mm512_set1_ps(1.0f),
                        _mm512_div_ps(_mm512_set1_ps(2.0f), _mm512_add_ps(E, _mm512_set1_ps(1.0f))));
    return _mm512_castsi512_ps(_mm512_or_si512(
        _mm512_castps_si512(T),
        _mm512_and_si512(_mm512_castps_si512(X), _mm512_set1_epi32(INT_MIN))));
  }
  RL_AVX512 static B lt(V A, V C) { return _mm512_cmp_ps_mask(A, C, _CMP_LT_OQ); }
  RL_AVX512 static B le(V A, V C) { return _mm512_cmp_ps_mask(A, C, _CMP_LE_OQ); }
  RL_AVX512 static B gt(V A, V C) { return _mm512_cmp_ps_mask(A, C, _CMP_GT_OQ); }
  RL_AVX512 static B ge(V A, V C) { return _mm512_cmp_ps_mask(A, C, _CMP_GE_OQ); }
  RL_AVX512 static B eq(V A, V C) { return _mm512_cmp_ps_mask(A, C, _CMP_EQ_OQ); }
  RL_AVX512 static B ne(V A, V C) { return _mm512_cmp_ps_mask(A, C, _CMP_NEQ_UQ); }
  RL_AVX512 static V select(B C, V T, V F) { return _mm512_mask_blend_ps(C, F, T); }
};
#endif

} // namespace v

namespace gemm {

/// No epilogue.
struct no_epi {
  static constexpr bool active = false;
  template <typename T>
  typename T::V apply(typename T::V X, int64_t, int64_t, typename T::M) const {
    return X;
  }
};

/// No epilogue over a block (the scalar fallback of an epilogue the vector
/// operations cannot express, run on each finished MC x NC block).
struct no_block_epi {
  void operator()(int64_t, int64_t, int64_t, int64_t) const {}
};

/// The cache blocks of the driver, in elements.
struct blocks {
  int64_t MC, NC, KC;
};

/// The instruction sets a gemm runs on (quantized: avx512 is AVX512BW
/// without VNNI or BF16; vnni and bf16 the dot-product instructions).
enum class path { portable, avx2, avx512, vnni, bf16, amx };

/// The driver path of an instruction set rl::pick chose.
inline path path_of(isa I) {
  switch (I) {
  case isa::avx2:
    return path::avx2;
  case isa::avx512:
    return path::avx512;
  case isa::avx512vnni:
    return path::vnni;
  case isa::avx512bf16:
    return path::bf16;
  case isa::amx:
    return path::amx;
  default:
    return path::portable;
  }
}

/// beta: C is read and added; last: the K block is the last, so the
/// epilogue runs.
struct store_flags {
  int beta;
  bool last;
};

inline int64_t round_up(int64_t X, int64_t To) { return (X + To - 1) / To * To; }

#if RL_X86
/// All 16 lanes: GCC 12's unmasked shifts and conversions warn inside its
/// own headers (-Wmaybe-uninitialized), the maskz forms do not.
constexpr __mmask16 all16 = 0xffff;
#endif

//===----------------------------------------------------------------------===//
// f32 micro-kernels: c[0..mr)[0..nr) (+)= a b over kc. a: a packed panel of
// MR values per k; b: a packed panel of NR values per k (NV of them used:
// a partial panel at the N edge computes only the vectors it has); c: the
// tile's first element, rows ldc apart and contiguous along N. i0, j0: the
// tile's row and column in the gemm (for the epilogue).
//===----------------------------------------------------------------------===//

template <int MR, int NR, typename Epi>
void ukr_portable(int64_t kc, const float *RL_RESTRICT a, const float *RL_RESTRICT b,
                  float *RL_RESTRICT c, int64_t ldc, int mr, int nr, store_flags F,
                  const Epi &epi, int64_t i0, int64_t j0) {
  float acc[MR][NR] = {};
  for (int64_t p = 0; p < kc; ++p, a += MR, b += NR)
    for (int i = 0; i < MR; ++i)
      for (int j = 0; j < NR; ++j)
        acc[i][j] += a[i] * b[j];
  for (int i = 0; i < mr; ++i)
    for (int j = 0; j < nr; ++j) {
      float X = acc[i][j];
      if (F.beta)
        X += c[i * ldc + j];
      if (Epi::active && F.last)
        X = epi.template apply<v::f32x1>(X, i0 + i, j0 + j, true);
      c[i * ldc + j] = X;
    }
}

#if RL_X86
template <int MR, int NR, int NV, typename Epi>
RL_AVX512 void ukr_avx512(int64_t kc, const float *RL_RESTRICT a,
                          const float *RL_RESTRICT b, float *RL_RESTRICT c,
                          int64_t ldc, int mr, int nr, store_flags F,
                          const Epi &epi, int64_t i0, int64_t j0) {
  __m512 acc[MR][NV];
  RL_UNROLL(32)
  for (int r = 0; r < MR; ++r)
    RL_UNROLL(8)
    for (int q = 0; q < NV; ++q)
      acc[r][q] = _mm512_setzero_ps();
  // Every line of the tile: it arrives while the products are summed.
  RL_UNROLL(32)
  for (int r = 0; r < MR; ++r)
    if (r < mr)
      RL_UNROLL(8)
      for (int q = 0; q < NV; ++q)
        _mm_prefetch(reinterpret_cast<const char *>(c + r * ldc + 16 * q), _MM_HINT_T0);
  // B's panel (NR x KC: 128 KB at 64 x 512) does not fit L1 (a new one
  // for each tile of a row); its lines four k ahead, requested here, arrive from
  // L2 in time (5-8% at N=1024 and 2048 on an AMX Xeon, where the hardware
  // prefetcher alone left the loads waiting; distances 2-8 measured alike).
  for (int64_t p = 0; p < kc; ++p, a += MR, b += NR) {
    _mm_prefetch(reinterpret_cast<const char *>(a + 8 * MR), _MM_HINT_T0);
    RL_UNROLL(8)
    for (int q = 0; q < NV; ++q)
      _mm_prefetch(reinterpret_cast<const char *>(b + 4 * NR + 16 * q), _MM_HINT_T0);
    __m512 bv[NV];
    RL_UNROLL(8)
    for (int q = 0; q < NV; ++q)
      bv[q] = _mm512_load_ps(b + 16 * q);
    RL_UNROLL(32)
    for (int r = 0; r < MR; ++r) {
      const __m512 x = _mm512_set1_ps(a[r]);
      RL_UNROLL(8)
      for (int q = 0; q < NV; ++q)
        acc[r][q] = _mm512_fmadd_ps(x, bv[q], acc[r][q]);
    }
  }
  __mmask16 K[NV];
  RL_UNROLL(8)
  for (int q = 0; q < NV; ++q)
    K[q] = v::f32x16::mask(nr - 16 * q);
  RL_UNROLL(32)
  for (int r = 0; r < MR; ++r) {
    if (r >= mr)
      break;
    RL_UNROLL(8)
    for (int q = 0; q < NV; ++q) {
      float *P = c + r * ldc + 16 * q;
      __m512 X = acc[r][q];
      if (F.beta)
        X = _mm512_add_ps(X, _mm512_maskz_loadu_ps(K[q], P));
      if (Epi::active && F.last)
        X = epi.template apply<v::f32x16>(X, i0 + r, j0 + 16 * q, K[q]);
      _mm512_mask_storeu_ps(P, K[q], X);
    }
  }
}

template <int NV, typename Epi>
RL_AVX2 void ukr_avx2(int64_t kc, const float *RL_RESTRICT a, const float *RL_RESTRICT b,
                      float *RL_RESTRICT c, int64_t ldc, int mr, int nr, store_flags F,
                      const Epi &epi, int64_t i0, int64_t j0) {
  constexpr int MR = 6, NR = 16;
  __m256 acc[MR][NV];
  RL_UNROLL(8)
  for (int r = 0; r < MR; ++r)
    RL_UNROLL(2)
    for (int q = 0; q < NV; ++q)
      acc[r][q] = _mm256_setzero_ps();
  for (int64_t p = 0; p < kc; ++p, a += MR, b += NR) {
    __m256 bv[NV];
    RL_UNROLL(2)
    for (int q = 0; q < NV; ++q)
      bv[q] = _mm256_load_ps(b + 8 * q);
    RL_UNROLL(8)
    for (int r = 0; r < MR; ++r) {
      const __m256 x = _mm256_set1_ps(a[r]);
      RL_UNROLL(2)
      for (int q = 0; q < NV; ++q)
        acc[r][q] = _mm256_fmadd_ps(x, bv[q], acc[r][q]);
    }
  }
  __m256i K[NV];
  RL_UNROLL(2)
  for (int q = 0; q < NV; ++q)
    K[q] = v::f32x8::mask(nr - 8 * q);
  RL_UNROLL(8)
  for (int r = 0; r < MR; ++r) {
    if (r >= mr)
      break;
    RL_UNROLL(2)
    for (int q = 0; q < NV; ++q) {
      float *P = c + r * ldc + 8 * q;
      __m256 X = acc[r][q];
      if (F.beta)
        X = _mm256_add_ps(X, _mm256_maskload_ps(P, K[q]));
      if (Epi::active && F.last)
        X = epi.template apply<v::f32x8>(X, i0 + r, j0 + 8 * q, K[q]);
      _mm256_maskstore_ps(P, K[q], X);
    }
  }
}
#endif

/// The vectors of width W a tile of nr columns needs, from 1 to NV: a call
/// of F<that many>(...).
template <int NV, int W, typename Fn> inline void by_vectors(int nr, Fn &&F) {
  if constexpr (NV > 1)
    if (nr <= (NV - 1) * W)
      return by_vectors<NV - 1, W>(nr, F);
  F(std::integral_constant<int, NV>());
}

/// The f32 micro-kernels as policies of the drivers: the register tile
/// (MR x NR) and a run() that picks the variant for a tile's width.
template <int MR_, int NR_> struct f32_portable {
  static constexpr int MR = MR_, NR = NR_;
  template <typename Epi>
  static void run(int64_t kc, const float *a, const float *b, float *c, int64_t ldc,
                  int mr, int nr, store_flags F, const Epi &epi, int64_t i0, int64_t j0) {
    ukr_portable<MR, NR>(kc, a, b, c, ldc, mr, nr, F, epi, i0, j0);
  }
};

#if RL_X86
template <int MR_, int NR_> struct f32_avx512 {
  static_assert(NR_ % 16 == 0, "NR is a multiple of 16 lanes");
  static constexpr int MR = MR_, NR = NR_;
  template <typename Epi>
  static void run(int64_t kc, const float *a, const float *b, float *c, int64_t ldc,
                  int mr, int nr, store_flags F, const Epi &epi, int64_t i0, int64_t j0) {
    by_vectors<NR / 16, 16>(nr, [&](auto NV) {
      ukr_avx512<MR, NR, decltype(NV)::value>(kc, a, b, c, ldc, mr, nr, F, epi, i0, j0);
    });
  }
};

struct f32_avx2 {
  static constexpr int MR = 6, NR = 16;
  template <typename Epi>
  static void run(int64_t kc, const float *a, const float *b, float *c, int64_t ldc,
                  int mr, int nr, store_flags F, const Epi &epi, int64_t i0, int64_t j0) {
    by_vectors<2, 8>(nr, [&](auto NV) {
      ukr_avx2<decltype(NV)::value>(kc, a, b, c, ldc, mr, nr, F, epi, i0, j0);
    });
  }
};
#endif

//===----------------------------------------------------------------------===//
// Packing A when its rows are contiguous in K: the panel is A's transpose
// (MR values per k), made by 8 x 8 transposes instead of one element at a
// time.
//===----------------------------------------------------------------------===//

#if RL_X86
/// Eight rows of eight floats -> eight columns.
RL_AVX2 inline void transpose8(__m256 &r0, __m256 &r1, __m256 &r2, __m256 &r3,
                               __m256 &r4, __m256 &r5, __m256 &r6, __m256 &r7) {
  __m256 t0 = _mm256_unpacklo_ps(r0, r1), t1 = _mm256_unpackhi_ps(r0, r1);
  __m256 t2 = _mm256_unpacklo_ps(r2, r3), t3 = _mm256_unpackhi_ps(r2, r3);
  __m256 t4 = _mm256_unpacklo_ps(r4, r5), t5 = _mm256_unpackhi_ps(r4, r5);
  __m256 t6 = _mm256_unpacklo_ps(r6, r7), t7 = _mm256_unpackhi_ps(r6, r7);
  __m256 u0 = _mm256_shuffle_ps(t0, t2, 0x44), u1 = _mm256_shuffle_ps(t0, t2, 0xEE);
  __m256 u2 = _mm256_shuffle_ps(t1, t3, 0x44), u3 = _mm256_shuffle_ps(t1, t3, 0xEE);
  __m256 u4 = _mm256_shuffle_ps(t4, t6, 0x44), u5 = _mm256_shuffle_ps(t4, t6, 0xEE);
  __m256 u6 = _mm256_shuffle_ps(t5, t7, 0x44), u7 = _mm256_shuffle_ps(t5, t7, 0xEE);
  r0 = _mm256_permute2f128_ps(u0, u4, 0x20);
  r1 = _mm256_permute2f128_ps(u1, u5, 0x20);
  r2 = _mm256_permute2f128_ps(u2, u6, 0x20);
  r3 = _mm256_permute2f128_ps(u3, u7, 0x20);
  r4 = _mm256_permute2f128_ps(u0, u4, 0x31);
  r5 = _mm256_permute2f128_ps(u1, u5, 0x31);
  r6 = _mm256_permute2f128_ps(u2, u6, 0x31);
  r7 = _mm256_permute2f128_ps(u3, u7, 0x31);
}

/// Dst[k*ldd + j] = Src[j*lds + k] for whole 8 x 8 blocks of n x k; returns
/// the columns done (a multiple of 8; the rest, and k past the last whole
/// block, are the caller's).
RL_AVX2 inline int64_t transpose_blocks_avx2(int64_t n, int64_t k, const float *Src,
                                             int64_t lds, float *Dst, int64_t ldd) {
  int64_t j = 0;
  for (; j + 8 <= n; j += 8)
    for (int64_t p = 0; p + 8 <= k; p += 8) {
      __m256 x[8];
      for (int t = 0; t < 8; ++t)
        x[t] = _mm256_loadu_ps(Src + (j + t) * lds + p);
      transpose8(x[0], x[1], x[2], x[3], x[4], x[5], x[6], x[7]);
      for (int t = 0; t < 8; ++t)
        _mm256_storeu_ps(Dst + (p + t) * ldd + j, x[t]);
    }
  return j;
}

/// A(i, k) = A[i*lda + k] into MR-row panels. Each group of eight rows is
/// transposed eight k at a time and stored as eight values per k. A last
/// group of fewer rows stores past the panel's MR values of that k into the
/// first values of the next k: it is stored first (groups in descending
/// order), so the first group's stores overwrite those; past the panel's
/// last k they land in the next panel (packed later) or in the spare
/// elements the buffers have (pack_slack).
template <int MR>
RL_AVX2 void pack_a_rows_avx2(int64_t m, int64_t k, const float *A, int64_t lda,
                              float *Ap) {
  const __m256 Z = _mm256_setzero_ps();
  for (int64_t ip = 0; ip < m; ip += MR, Ap += MR * k) {
    const int64_t r = std::min<int64_t>(MR, m - ip);
    const float *S = A + ip * lda;
    int64_t p = 0;
    for (; p + 8 <= k; p += 8) {
      for (int g = (MR - 1) / 8 * 8; g >= 0; g -= 8) {
        __m256 x[8];
        RL_UNROLL(8)
        for (int t = 0; t < 8; ++t)
          x[t] = g + t < r ? _mm256_loadu_ps(S + (g + t) * lda + p) : Z;
        transpose8(x[0], x[1], x[2], x[3], x[4], x[5], x[6], x[7]);
        RL_UNROLL(8)
        for (int t = 0; t < 8; ++t)
          _mm256_storeu_ps(Ap + (p + t) * MR + g, x[t]);
      }
    }
    for (; p < k; ++p) {
      for (int64_t i = 0; i < r; ++i)
        Ap[p * MR + i] = S[i * lda + p];
      for (int64_t i = r; i < MR; ++i)
        Ap[p * MR + i] = 0.0f;
    }
  }
}
#endif

/// Spare elements a packing buffer has past its panels (pack_a_rows_avx2).
constexpr int64_t pack_slack = 16;

//===----------------------------------------------------------------------===//
// The problems: how the drivers reach the operands. A strided gemm reads
// A(i, k) = A[i*am + k*ak] and so on; an implicit gemm (a convolution)
// gathers its B panels from the input through offset tables.
//===----------------------------------------------------------------------===//

/// One f32 gemm: C(i, j) = C[i*cm + j*cn]; beta0: C is cleared first (the
/// source sets Out = 0 before the reduction), else accumulated into.
struct strided {
  int64_t M, N, K;
  const float *A;
  int64_t am, ak;
  const float *B;
  int64_t bk, bn;
  float *C;
  int64_t cm, cn;
  bool beta0;

  template <int MR>
  void pack_a(path P, int64_t ic, int64_t mc, int64_t pc, int64_t kc, float *Ap) const {
#if RL_X86
    if (P != path::portable && ak == 1)
      return pack_a_rows_avx2<MR>(mc, kc, A + ic * am + pc, am, Ap);
#endif
    (void)P;
    rl::pack_a<MR>(mc, kc, A + ic * am + pc * ak, am, ak, Ap);
  }
  template <int NR>
  void pack_b(path P, int64_t pc, int64_t kc, int64_t jc, int64_t nc, float *Bp) const {
#if RL_X86
    // B stored transposed (columns contiguous in K, a layer's weights
    // w[n][k]): its panels are the transposes of NR-row blocks, as A's
    // (whole groups of eight: nothing is stored past a panel, which the
    // parallel driver's threads pack side by side).
    if (P != path::portable && bk == 1 && bn != 1 && NR % 8 == 0)
      return pack_a_rows_avx2<NR>(nc, kc, B + pc + jc * bn, bn, Bp);
#endif
    (void)P;
    rl::pack_b<NR>(kc, nc, B + pc * bk + jc * bn, bk, bn, Bp);
  }
  /// The tile at (i, j) with nr columns when they are contiguous, else null.
  float *tile(int64_t i, int64_t j, int64_t) const {
    return cn == 1 ? C + i * cm + j : nullptr;
  }
  float &at(int64_t i, int64_t j) const { return C[i * cm + j * cn]; }
};

/// The implicit gemm: C(i, j) = C[i*cm + cn[j]], A(i, k) = A[i*am + ak[k]],
/// B(k, j) = B[bk[k] + bn[j]] (the input's im2col view, no buffer).
struct gathered {
  int64_t M, N, K;
  const float *A;
  int64_t am;
  const int64_t *ak;
  const float *B;
  const int64_t *bk, *bn;
  float *C;
  int64_t cm;
  const int64_t *cn;
  bool beta0;
  /// Zero padding: B(k, j) is 0 unless 0 <= pk[k*D + d] + pn[j*D + d] <
  /// lim[d] in each of the D padded dimensions (none when D == 0).
  int D = 0;
  const int64_t *pk = nullptr, *pn = nullptr, *lim = nullptr;

  template <int MR>
  void pack_a(path, int64_t ic, int64_t mc, int64_t pc, int64_t kc, float *Ap) const {
    rl::pack_a_gather<MR>(mc, kc, A + ic * am, am, ak + pc, Ap);
  }
  template <int NR>
  void pack_b(path, int64_t pc, int64_t kc, int64_t jc, int64_t nc, float *Bp) const {
    if (D == 0)
      return rl::pack_b_gather<NR>(kc, nc, B, bk + pc, bn + jc, Bp);
    // Padded: each element checked once here, none in the micro-kernel.
    for (int64_t jp = 0; jp < nc; jp += NR, Bp += NR * kc) {
      const int64_t c = std::min<int64_t>(NR, nc - jp), j0 = jc + jp;
      for (int64_t p = 0; p < kc; ++p) {
        const int64_t k = pc + p;
        const int64_t *Pk = pk + k * D;
        float *Dst = Bp + p * NR;
        for (int64_t j = 0; j < c; ++j) {
          bool In = true;
          for (int d = 0; d < D; ++d)
            In &= uint64_t(Pk[d] + pn[(j0 + j) * D + d]) < uint64_t(lim[d]);
          const float X = B[In ? bk[k] + bn[j0 + j] : 0];
          Dst[j] = In ? X : 0.0f;
        }
        for (int64_t j = c; j < NR; ++j)
          Dst[j] = 0.0f;
      }
    }
  }
  float *tile(int64_t i, int64_t j, int64_t nr) const {
    return rl::contiguous(cn + j, nr) ? C + i * cm + cn[j] : nullptr;
  }
  float &at(int64_t i, int64_t j) const { return C[i * cm + cn[j]]; }
};

/// One register tile: straight into C when its columns are contiguous,
/// else through a tile buffer merged element by element. \p Run is the
/// micro-kernel's run(); its packed operands are whatever it takes.
template <int MR, int NR, typename Problem, typename Run, typename Epi>
inline void tile(const Problem &g, Run run, int64_t i, int64_t j, int64_t mr, int64_t nr,
                 store_flags F, const Epi &epi) {
  if (float *c = g.tile(i, j, nr)) {
    run(c, g.cm, int(mr), int(nr), F);
    return;
  }
  alignas(64) float t[MR * NR];
  run(t, int64_t(NR), MR, NR, store_flags{0, false});
  for (int64_t r = 0; r < mr; ++r)
    for (int64_t q = 0; q < nr; ++q) {
      float &x = g.at(i + r, j + q);
      float X = F.beta ? x + t[r * NR + q] : t[r * NR + q];
      if (Epi::active && F.last)
        X = epi.template apply<v::f32x1>(X, i + r, j + q, true);
      x = X;
    }
}

/// K == 0: Out is cleared (if the source clears it) and finished.
template <typename Problem, typename Epi, typename BlockEpi>
void empty_k(const Problem &g, const Epi &epi, const BlockEpi &blk) {
  for (int64_t i = 0; i < g.M; ++i)
    for (int64_t j = 0; j < g.N; ++j) {
      float &x = g.at(i, j);
      float X = g.beta0 ? 0.0f : x;
      if (Epi::active)
        X = epi.template apply<v::f32x1>(X, i, j, true);
      x = X;
    }
  blk(int64_t(0), g.M, int64_t(0), g.N);
}

/// The register tiles of one (mc x nc) block of packed panels, a row of
/// tiles at a time: A's MR x KC panel (12 KB at 6 x 512) stays in L1 across
/// the row while B's block (KC x NC, 1 MB at 512 x 512) streams from L2. The
/// other order (each B panel down the rows of tiles) read both from L2, B's
/// 128 KB panel not fitting L1: 4-5% slower at N=2048 (docs/codegen.md).
template <typename Kern, typename Problem, typename Epi>
inline void macro(const Problem &g, int64_t ic, int64_t mc, int64_t jc, int64_t nc,
                  int64_t kc, store_flags F, const float *Ap, const float *Bp,
                  const Epi &epi) {
  constexpr int MR = Kern::MR, NR = Kern::NR;
  for (int64_t ir = 0; ir < mc; ir += MR) {
    const int64_t mr = std::min<int64_t>(MR, mc - ir);
    for (int64_t jr = 0; jr < nc; jr += NR) {
      const int64_t nr = std::min<int64_t>(NR, nc - jr);
      const float *a = Ap + ir * kc, *b = Bp + jr * kc;
      const int64_t i = ic + ir, j = jc + jr;
      tile<MR, NR>(
          g,
          [&](float *c, int64_t ldc, int m, int n, store_flags G) {
            Kern::run(kc, a, b, c, ldc, m, n, G, epi, i, j);
          },
          i, j, mr, nr, F, epi);
    }
  }
}

/// Packed A (floats) that one pass of columns() keeps: 8 MB.
constexpr int64_t packed_a_cap = int64_t(1) << 21;

/// Loop order: rows of C in chunks whose packed A fits packed_a_cap >
/// pc (KC) > jc (NC, pack B) > ic (MC; A packed at the first NC block only)
/// > ir > jr, over the columns [j0, j1) of C, in this thread's packing
/// buffers. A's KC-wide panel is packed once and reused by every NC block
/// (with NC 512, BLIS's jc > pc > ic order packed A 4 times at N=2048: 4.5%
/// slower there, docs/results/cpu-variants.txt); each C element still sums
/// its K blocks in order.
template <typename Kern, typename Problem, typename Epi, typename BlockEpi>
void columns(path P, const Problem &g, const blocks &Bl, const Epi &epi,
             const BlockEpi &blk, int64_t j0, int64_t j1) {
  constexpr int MR = Kern::MR, NR = Kern::NR;
  const int64_t KC = std::max<int64_t>(std::min(Bl.KC, g.K), 1);
  // A block packs round_up(MC, MR) rows (zero padded): blocks sit that far
  // apart, so that none overwrites another's padding while it is reused.
  const int64_t Chunk = std::max(Bl.MC, packed_a_cap / KC / Bl.MC * Bl.MC),
                MCp = round_up(Bl.MC, MR);
  float *Ap = scratch<float, 0>(
      size_t((std::min(Chunk, g.M) + Bl.MC - 1) / Bl.MC * MCp * KC + pack_slack));
  float *Bp = scratch<float, 1>(size_t(round_up(std::min(Bl.NC, g.N), NR) * Bl.KC + pack_slack));
  for (int64_t i0 = 0; i0 < g.M; i0 += Chunk) {
    const int64_t i1 = std::min(g.M, i0 + Chunk);
    for (int64_t pc = 0; pc < g.K; pc += Bl.KC) {
      const int64_t kc = std::min(Bl.KC, g.K - pc);
      const store_flags F{g.beta0 && pc == 0 ? 0 : 1, pc + kc >= g.K};
      for (int64_t jc = j0; jc < j1; jc += Bl.NC) {
        const int64_t nc = std::min(Bl.NC, j1 - jc);
        g.template pack_b<NR>(P, pc, kc, jc, nc, Bp);
        for (int64_t ic = i0; ic < i1; ic += Bl.MC) {
          const int64_t mc = std::min(Bl.MC, i1 - ic);
          float *A = Ap + (ic - i0) / Bl.MC * MCp * kc;
          if (jc == j0)
            g.template pack_a<MR>(P, ic, mc, pc, kc, A);
          macro<Kern>(g, ic, mc, jc, nc, kc, F, A, Bp, epi);
          if (F.last)
            blk(ic, mc, jc, nc);
        }
      }
    }
  }
}

template <typename Kern, typename Problem, typename Epi, typename BlockEpi>
void serial(path P, const Problem &g, const blocks &Bl, const Epi &epi,
            const BlockEpi &blk) {
  if (g.K == 0)
    return empty_k(g, epi, blk);
  columns<Kern>(P, g, Bl, epi, blk, 0, g.N);
}

/// Whether parallel() gives each thread its own columns: at least four
/// register-tile widths each (below, the M blocks are shared instead).
inline bool split_columns(int64_t N, int NR, int64_t Threads) {
  return Threads > 1 && N >= 4 * int64_t(NR) * Threads;
}

/// The M blocks (at least four a thread) shared among the threads, for
/// each (jc, pc) block: B is packed by all of them (a panel each), then
/// each packs and computes its own A blocks.
template <typename Kern, typename Problem, typename Epi, typename BlockEpi>
void parallel(path P, const Problem &g, const blocks &Bl, const Epi &epi,
              const BlockEpi &blk) {
  constexpr int MR = Kern::MR, NR = Kern::NR;
  if (g.K == 0)
    return empty_k(g, epi, blk);
  float *Bp = scratch<float, 1>(size_t(round_up(std::min(Bl.NC, g.N), NR) * Bl.KC + pack_slack));
  int64_t MC = Bl.MC;
#ifdef _OPENMP
  const int64_t T = omp_get_max_threads();
  // Each thread its own columns (whole register-tile widths, as many for
  // each) with its own packed B: no barrier at all, where sharing B costs
  // two per (jc, pc) block, each waiting for the slowest thread. What it
  // costs instead is A packed by every thread, M x K per NC columns it owns
  // (with N / T a multiple of NC no more than when shared).
  if (split_columns(g.N, NR, T)) {
    const int64_t Panels = (g.N + NR - 1) / NR;
    RL_OMP(parallel for schedule(static, 1))
    for (int64_t t = 0; t < T; ++t)
      columns<Kern>(P, g, Bl, epi, blk, std::min(g.N, Panels * t / T * NR),
                    std::min(g.N, Panels * (t + 1) / T * NR));
    return;
  }
  while (MC > 4 * MR && (g.M + MC - 1) / MC < 4 * T)
    MC = std::max<int64_t>(round_up(MC / 2, MR), MR);
  // As many blocks for each thread, of (nearly) one size: 2048 rows in 120-row
  // blocks are 17 blocks of 120 and one of 8, so one of two threads computes
  // 1080 rows while the other waits at the barrier after 968; in 18 blocks of
  // 114 (the last 110) each computes 1026 or 1022.
  if (T > 1) {
    const int64_t Blocks = round_up((g.M + MC - 1) / MC, T);
    MC = std::min(MC, std::max<int64_t>(round_up((g.M + Blocks - 1) / Blocks, MR), MR));
  }
#endif
  RL_OMP(parallel)
  {
    float *Ap = scratch<float, 0>(size_t(round_up(std::min(MC, g.M), MR) * Bl.KC + pack_slack));
    for (int64_t jc = 0; jc < g.N; jc += Bl.NC) {
      const int64_t nc = std::min(Bl.NC, g.N - jc);
      for (int64_t pc = 0; pc < g.K; pc += Bl.KC) {
        const int64_t kc = std::min(Bl.KC, g.K - pc);
        const store_flags F{g.beta0 && pc == 0 ? 0 : 1, pc + kc >= g.K};
        RL_OMP(for schedule(static))
        for (int64_t jp = 0; jp < nc; jp += NR)
          g.template pack_b<NR>(P, pc, kc, jc + jp, std::min<int64_t>(NR, nc - jp),
                                Bp + jp * kc);
        RL_OMP(for schedule(dynamic, 1))
        for (int64_t ic = 0; ic < g.M; ic += MC) {
          const int64_t mc = std::min(MC, g.M - ic);
          g.template pack_a<MR>(P, ic, mc, pc, kc, Ap);
          macro<Kern>(g, ic, mc, jc, nc, kc, F, Ap, Bp, epi);
          if (F.last)
            blk(ic, mc, jc, nc);
        }
      }
    }
  }
}

//===----------------------------------------------------------------------===//
// The small-matrix path (libxsmm-like): no packing, A broadcast from its
// rows, B read along its rows, the whole K in one pass, C in registers.
// For problems whose operands stay in the first cache levels, where copying
// them costs more than it saves. When they are not there yet (a call on
// operands that left the cache: roofline-run rotates among argument copies),
// the first row of tiles brings B in with software prefetches a few rows
// ahead (the later rows of tiles find it in L1, where the prefetches would
// only take load slots), each tile (AVX-512) prefetches the rows of A of the
// tile after it during its first iterations, and (AVX-512, AVX2) its own C
// lines for writing, one an iteration, during its last ones; unhidden, those
// misses cost a 64^3 gemm about a fifth of its time. The C lines were once
// prefetched all at once before the K loop: a burst of write prefetches that
// cost 1-2% in L1 and 2-4% with cold operands (the bf16 small path keeps
// it: there the tail measured slower; docs/codegen.md, "The gemm runtime":
// Small path).
//===----------------------------------------------------------------------===//

/// Rows of B the first row of tiles prefetches ahead of the row it reads.
constexpr int64_t small_prefetch_rows = 8;

template <int MR, int NR, typename Epi>
void direct_portable(int64_t K, const float *a, int64_t am, int64_t ak, const float *b,
                     int64_t bk, float *c, int64_t ldc, int mr, int nr, store_flags F,
                     const Epi &epi, int64_t i0, int64_t j0, const float *) {
  float acc[MR][NR] = {};
  for (int64_t p = 0; p < K; ++p)
    for (int i = 0; i < mr; ++i) {
      const float x = a[i * am + p * ak];
      for (int j = 0; j < nr; ++j)
        acc[i][j] += x * b[p * bk + j];
    }
  for (int i = 0; i < mr; ++i)
    for (int j = 0; j < nr; ++j) {
      float X = acc[i][j];
      if (F.beta)
        X += c[i * ldc + j];
      if (Epi::active)
        X = epi.template apply<v::f32x1>(X, i0 + i, j0 + j, true);
      c[i * ldc + j] = X;
    }
}

#if RL_X86
/// The write prefetch of the small path's tiles: line \p t of an MR x NV
/// tile of C (row t / NV, vector t % NV, of \p W floats), for the iteration
/// \p t of the tile's last MR * NV ones; a line past the tile's edge (mr x
/// nr) is skipped.
template <int NV, int W>
__attribute__((always_inline)) inline void prefetch_c_line(float *c, int64_t ldc, int mr,
                                                           int nr, int64_t t) {
  const int r = int(t / NV), q = int(t % NV);
  if (r < mr && W * q < nr)
    __builtin_prefetch(c + r * ldc + W * q, 1, 3);
}

/// One step along K of the small path's AVX-512 tile: a row of B, a column
/// of A broadcast, MR x NV FMAs.
template <int MR, int NV, bool PrefetchB>
RL_AVX512 __attribute__((always_inline)) inline void
direct_step(__m512 (&acc)[MR][NV], const float *const (&ar)[MR], const __mmask16 (&Kq)[NV],
            const float *b, int64_t bk, int64_t pk) {
  __m512 bv[NV];
  RL_UNROLL(8)
  for (int q = 0; q < NV; ++q)
    bv[q] = _mm512_maskz_loadu_ps(Kq[q], b + 16 * q);
  if constexpr (PrefetchB) {
    RL_UNROLL(8)
    for (int q = 0; q < NV; ++q)
      _mm_prefetch(reinterpret_cast<const char *>(b + small_prefetch_rows * bk + 16 * q),
                   _MM_HINT_T0);
  }
  RL_UNROLL(32)
  for (int r = 0; r < MR; ++r) {
    const __m512 x = _mm512_set1_ps(ar[r][pk]);
    RL_UNROLL(8)
    for (int q = 0; q < NV; ++q)
      acc[r][q] = _mm512_fmadd_ps(x, bv[q], acc[r][q]);
  }
}

template <int MR, int NV, bool PrefetchB, typename Epi>
RL_AVX512 __attribute__((noinline)) void direct_avx512(int64_t K, const float *a, int64_t am, int64_t ak,
                             const float *b, int64_t bk, float *c, int64_t ldc, int mr,
                             int nr, store_flags F, const Epi &epi, int64_t i0,
                             int64_t j0, const float *an) {
  __m512 acc[MR][NV];
  const float *ar[MR];
  RL_UNROLL(32)
  for (int r = 0; r < MR; ++r) {
    // Rows past the edge read the last row again (their sums are dropped).
    ar[r] = a + (r < mr ? r : mr - 1) * am;
    RL_UNROLL(8)
    for (int q = 0; q < NV; ++q)
      acc[r][q] = _mm512_setzero_ps();
  }
  __mmask16 Kq[NV];
  RL_UNROLL(8)
  for (int q = 0; q < NV; ++q)
    Kq[q] = v::f32x16::mask(nr - 16 * q);
  // The first iterations also prefetch the rows of A of the tile after
  // this one (an), one line each, row by row: all of them in the first
  // MR * K / 16 iterations, served while this tile computes.
  int64_t p = 0;
  if (an)
    for (int64_t l = 0; l < K; l += 16) {
      const float *Pf = an + l;
      RL_UNROLL(32)
      for (int r = 0; r < MR; ++r, Pf += am) {
        if (p == K)
          break;
        _mm_prefetch(reinterpret_cast<const char *>(Pf), _MM_HINT_T0);
        direct_step<MR, NV, PrefetchB>(acc, ar, Kq, b, bk, p * ak);
        ++p;
        b += bk;
      }
    }
  // The last MR * NV iterations write-prefetch C, one line each; where
  // the prologue above runs into them (K under about 40 on 6 x 64 tiles),
  // the lines of its iterations go without.
  const int64_t Tail = K - std::min<int64_t>(K, MR * NV);
  for (; p < Tail; ++p, b += bk)
    direct_step<MR, NV, PrefetchB>(acc, ar, Kq, b, bk, p * ak);
  for (; p < K; ++p, b += bk) {
    prefetch_c_line<NV, 16>(c, ldc, mr, nr, p - Tail);
    direct_step<MR, NV, PrefetchB>(acc, ar, Kq, b, bk, p * ak);
  }
  RL_UNROLL(32)
  for (int r = 0; r < MR; ++r) {
    if (r >= mr)
      break;
    RL_UNROLL(8)
    for (int q = 0; q < NV; ++q) {
      float *P = c + r * ldc + 16 * q;
      __m512 X = acc[r][q];
      if (F.beta)
        X = _mm512_add_ps(X, _mm512_maskz_loadu_ps(Kq[q], P));
      if (Epi::active)
        X = epi.template apply<v::f32x16>(X, i0 + r, j0 + 16 * q, Kq[q]);
      _mm512_mask_storeu_ps(P, Kq[q], X);
    }
  }
}

template <int NV, typename Epi>
RL_AVX2 void direct_avx2(int64_t K, const float *a, int64_t am, int64_t ak,
                         const float *b, int64_t bk, float *c, int64_t ldc, int mr,
                         int nr, store_flags F, const Epi &epi, int64_t i0, int64_t j0,
                         const float *) {
  constexpr int MR = 6;
  __m256 acc[MR][NV];
  const float *ar[MR];
  RL_UNROLL(8)
  for (int r = 0; r < MR; ++r) {
    ar[r] = a + (r < mr ? r : mr - 1) * am;
    RL_UNROLL(2)
    for (int q = 0; q < NV; ++q)
      acc[r][q] = _mm256_setzero_ps();
  }
  __m256i Kq[NV];
  RL_UNROLL(2)
  for (int q = 0; q < NV; ++q)
    Kq[q] = v::f32x8::mask(nr - 8 * q);
  // The last MR * NV iterations write-prefetch C, one line (vector) each.
  const int64_t Tail = K - std::min<int64_t>(K, MR * NV);
  for (int64_t p = 0; p < K; ++p, b += bk) {
    if (p >= Tail)
      prefetch_c_line<NV, 8>(c, ldc, mr, nr, p - Tail);
    __m256 bv[NV];
    RL_UNROLL(2)
    for (int q = 0; q < NV; ++q)
      bv[q] = _mm256_maskload_ps(b + 8 * q, Kq[q]);
    RL_UNROLL(8)
    for (int r = 0; r < MR; ++r) {
      const __m256 x = _mm256_set1_ps(ar[r][p * ak]);
      RL_UNROLL(2)
      for (int q = 0; q < NV; ++q)
        acc[r][q] = _mm256_fmadd_ps(x, bv[q], acc[r][q]);
    }
  }
  RL_UNROLL(8)
  for (int r = 0; r < MR; ++r) {
    if (r >= mr)
      break;
    RL_UNROLL(2)
    for (int q = 0; q < NV; ++q) {
      float *P = c + r * ldc + 8 * q;
      __m256 X = acc[r][q];
      if (F.beta)
        X = _mm256_add_ps(X, _mm256_maskload_ps(P, Kq[q]));
      if (Epi::active)
        X = epi.template apply<v::f32x8>(X, i0 + r, j0 + 8 * q, Kq[q]);
      _mm256_maskstore_ps(P, Kq[q], X);
    }
  }
}
#endif

/// Whether the small path takes a problem: C and B contiguous along N,
/// about 128 or less in every size (all operands in L1 and L2).
inline bool small_enough(const strided &g) {
  return g.cn == 1 && (g.bn == 1 || g.bk == 1) && g.K > 0 && g.M <= 160 &&
         g.N <= 160 && g.K <= 320 && g.M * g.N * g.K <= int64_t(128) * 128 * 128;
}

/// \p g with B stored transposed (a layer's w[n][k]) copied row-major into
/// a per-thread buffer, so the small path reads B along its rows: K x N
/// elements, a fraction of the M x N x K products.
inline strided with_rows_of_b(path P, const strided &g) {
  if (g.bn == 1)
    return g;
  strided T = g;
  float *Bt = scratch<float, 6>(size_t(g.K * g.N + pack_slack));
  int64_t j = 0;
#if RL_X86
  if (P != path::portable)
    j = transpose_blocks_avx2(g.N, g.K, g.B, g.bn, Bt, g.N);
#endif
  (void)P;
  for (int64_t k = 0; k < g.K; ++k)
    for (int64_t c = (k < g.K / 8 * 8 ? j : 0); c < g.N; ++c)
      Bt[k * g.N + c] = g.B[c * g.bn + k];
  T.B = Bt;
  T.bk = g.N;
  T.bn = 1;
  return T;
}

/// The rows of a tile, 1 to R, as an integral constant: a call of F<mr>.
template <int R, typename Fn> inline void by_rows(int mr, Fn &&F) {
  if constexpr (R > 1)
    if (mr < R)
      return by_rows<R - 1>(mr, F);
  F(std::integral_constant<int, R>());
}

/// The small path: tiles of MR x NR straight from the operands. \p direct
/// takes, as integral constants, the tile's rows (MR, or with ExactRows the
/// rows of the last tile: a 64-row problem on 6-row tiles would otherwise
/// compute 66), its vectors, and whether it prefetches B (the first row of
/// tiles of each column block; not the last tile, whose B is in L1 by then).
template <int MR, int NR, int W, bool ExactRows, typename Epi, typename Direct>
void small(const strided &g, const Epi &epi, Direct direct) {
  const store_flags F{g.beta0 ? 0 : 1, true};
  for (int64_t j = 0; j < g.N; j += NR)
    for (int64_t i = 0; i < g.M; i += MR) {
      const int mr = int(std::min<int64_t>(MR, g.M - i)),
                nr = int(std::min<int64_t>(NR, g.N - j));
      float *c = g.C + i * g.cm + j;
      // The A rows of the tile after this one (the next column block's
      // first after the last), where they are contiguous. A last tile
      // with fewer rows has rows past A's end prefetched: harmless, a
      // prefetch never faults.
      const float *an = g.ak != 1                ? nullptr
                        : i + MR < g.M            ? g.A + (i + MR) * g.am
                        : j + NR < g.N            ? g.A
                                                  : nullptr;
      by_vectors<(NR + W - 1) / W, W>(nr, [&](auto NV) {
        auto run = [&](auto Rows, auto Pf) {
          direct(Rows, NV, Pf, g.K, g.A + i * g.am, g.am, g.ak, g.B + j, g.bk, c, g.cm,
                 mr, nr, F, epi, i, j, an);
        };
        if (mr == MR && i == 0)
          run(std::integral_constant<int, MR>(), std::true_type());
        else if (mr == MR || !ExactRows)
          run(std::integral_constant<int, MR>(), std::false_type());
        else if constexpr (ExactRows)
          by_rows<MR - 1>(mr, [&](auto Rows) { run(Rows, std::false_type()); });
      });
    }
}

/// One f32 gemm on path \p P with the AVX-512 and portable register tile
/// MR x NR (AVX2: 6 x 16): the small path for a strided problem that takes
/// it (and has no block epilogue), else the blocked driver, with the M
/// blocks in parallel when \p Par.
template <int MR, int NR, typename Problem, typename Epi, typename BlockEpi>
void sgemm(path P, const Problem &g, const blocks &Bl, bool Par, const Epi &epi,
           const BlockEpi &blk, bool HasBlockEpi = false) {
  if constexpr (std::is_same<Problem, strided>::value) {
    if (!HasBlockEpi && small_enough(g)) {
      const strided G = with_rows_of_b(P, g);
      switch (P) {
#if RL_X86
      case path::avx512:
        if constexpr (NR % 16 == 0)
          return small<MR, NR, 16, true>(G, epi, [](auto R, auto NV, auto Pf, auto... X) {
            direct_avx512<decltype(R)::value, decltype(NV)::value, decltype(Pf)::value>(
                X...);
          });
        break;
      case path::avx2:
        return small<6, 16, 8, false>(G, epi, [](auto, auto NV, auto, auto... X) {
          direct_avx2<decltype(NV)::value>(X...);
        });
#endif
      default:
        break;
      }
      return small<MR, NR, NR, false>(G, epi, [](auto, auto, auto, auto... X) {
        direct_portable<MR, NR>(X...);
      });
    }
  }
  (void)HasBlockEpi;
  auto Run = [&](auto Kern) {
    if (Par)
      parallel<decltype(Kern)>(P, g, Bl, epi, blk);
    else
      serial<decltype(Kern)>(P, g, Bl, epi, blk);
  };
  switch (P) {
#if RL_X86
  case path::avx512:
    if constexpr (NR % 16 == 0)
      return Run(f32_avx512<MR, NR>());
    break;
  case path::avx2:
    return Run(f32_avx2());
#endif
  default:
    break;
  }
  Run(f32_portable<MR, NR>());
}

//===----------------------------------------------------------------------===//
// Quantized gemms: int8 (int32 sums, dequantized in the store) and bf16
// (f32 sums). Both pack G consecutive k of a row (A) or column (B) into one
// 32-bit word: four int8 for vpdpbusd (G = 4), two int16 or two bf16 for
// vpmaddwd and vdpbf16ps (G = 2); panels are then MR (NR) words per k
// group, and the micro-kernels have the f32 ones' shape.
//===----------------------------------------------------------------------===//

/// A quantized gemm: A the prepared operand (int8 with a scale per row or
/// one for the tensor, or bf16), B the f32 operand the kernel quantizes (or
/// rounds to bf16) on each call.
struct qproblem {
  int64_t M, N, K;
  const void *A; ///< signed char (int8) or rl::bf16 (bf16)
  int64_t am, ak;
  const float *as; ///< int8: the scale of A's row i at as[i * as_m]
  int64_t as_m;
  const float *B;
  int64_t bk, bn;
  bool bcol; ///< int8: B's scale per column, else one for the tensor
  float *C;
  int64_t cm, cn;
  bool beta0;
};

#if RL_X86
/// The largest |x| of each of B's columns (or of all of it, in S[0]), B's
/// rows contiguous along N: row by row, eight columns at a time.
RL_AVX2 inline void b_absmax_avx2(const qproblem &g, float *S) {
  const __m256 Abs = _mm256_castsi256_ps(_mm256_set1_epi32(0x7fffffff));
  if (g.bcol) {
    for (int64_t j = 0; j < g.N; ++j)
      S[j] = 0.0f;
    for (int64_t k = 0; k < g.K; ++k)
      for (int64_t j = 0; j < g.N; j += 8) {
        const __m256i K = v::f32x8::mask(int(g.N - j));
        const __m256 X = _mm256_and_ps(Abs, _mm256_maskload_ps(g.B + k * g.bk + j, K));
        _mm256_maskstore_ps(S + j, K, _mm256_max_ps(_mm256_maskload_ps(S + j, K), X));
      }
    return;
  }
  __m256 M0 = _mm256_setzero_ps(), M1 = _mm256_setzero_ps();
  for (int64_t k = 0; k < g.K; ++k) {
    const float *Row = g.B + k * g.bk;
    int64_t j = 0;
    for (; j + 16 <= g.N; j += 16) {
      M0 = _mm256_max_ps(M0, _mm256_and_ps(Abs, _mm256_loadu_ps(Row + j)));
      M1 = _mm256_max_ps(M1, _mm256_and_ps(Abs, _mm256_loadu_ps(Row + j + 8)));
    }
    for (; j < g.N; j += 8)
      M0 = _mm256_max_ps(M0, _mm256_and_ps(Abs, _mm256_maskload_ps(Row + j, v::f32x8::mask(int(g.N - j)))));
  }
  alignas(32) float T[8];
  _mm256_store_ps(T, _mm256_max_ps(M0, M1));
  S[0] = 0.0f;
  for (float X : T)
    S[0] = std::max(S[0], X);
}
#endif

/// B's int8 scales: max|x| / 127 over the tensor or each column, as the
/// source's quantize() computes them (f32, at least 1e-30 / 127).
inline void b_scales(path P, const qproblem &g, float *S) {
  const int64_t Cols = g.bcol ? g.N : 1;
#if RL_X86
  if (P != path::portable && g.bn == 1) {
    b_absmax_avx2(g, S);
  } else
#endif
  {
    (void)P;
    for (int64_t j = 0; j < Cols; ++j)
      S[j] = 0.0f;
    for (int64_t k = 0; k < g.K; ++k)
      for (int64_t j = 0; j < g.N; ++j) {
        float &X = S[g.bcol ? j : 0];
        X = std::fmax(X, std::fabs(g.B[k * g.bk + j * g.bn]));
      }
  }
  for (int64_t j = 0; j < Cols; ++j)
    S[j] = std::fmax(S[j], 1e-30f) / 127.0f;
}

/// round(x / s) to nearest even, as std::lrint in the default rounding.
inline int quantize8(float X, float S) {
  return static_cast<int>(std::nearbyint(X / S));
}

/// bf16 bits of \p X, rounded to nearest even (rl::bf16).
inline uint32_t bf16_bits(float X) { return rl::bf16(X).Bits; }

/// The packed word of G values (lowest k in the lowest bits).
enum class word { u8x4, i16x2, bf16x2 };

template <word W> inline uint32_t pack_word(const int *Q) {
  if constexpr (W == word::u8x4)
    return uint32_t(Q[0] + 128) | uint32_t(Q[1] + 128) << 8 | uint32_t(Q[2] + 128) << 16 |
           uint32_t(Q[3] + 128) << 24;
  else
    return (uint32_t(Q[0]) & 0xffffu) | uint32_t(Q[1]) << 16;
}
template <word W> constexpr int group() { return W == word::u8x4 ? 4 : 2; }

/// B's kc x nc block into NR-column panels of words: quantized with the
/// scales \p S (int8), or rounded to bf16. Past K and N: zero (int8: 128,
/// which multiplies A's zero padding or is not stored).
template <word W, int NR>
void pack_b_q(const qproblem &g, const float *S, int64_t pc, int64_t kc, int64_t jc,
              int64_t nc, uint32_t *Bp) {
  constexpr int G = group<W>();
  const int64_t Kg = (kc + G - 1) / G;
  for (int64_t jp = 0; jp < nc; jp += NR, Bp += NR * Kg)
    for (int64_t q = 0; q < Kg; ++q)
      for (int64_t j = 0; j < NR; ++j) {
        const int64_t Col = jc + jp + j;
        int Val[4] = {0, 0, 0, 0};
        uint32_t Bits[2] = {0, 0};
        for (int t = 0; t < G; ++t) {
          const int64_t k = q * G + t;
          if (k >= kc || jp + j >= nc)
            continue;
          const float X = g.B[(pc + k) * g.bk + Col * g.bn];
          if constexpr (W == word::bf16x2)
            Bits[t] = bf16_bits(X);
          else
            Val[t] = quantize8(X, S[g.bcol ? Col : 0]);
        }
        Bp[q * NR + j] = W == word::bf16x2 ? Bits[0] | Bits[1] << 16 : pack_word<W>(Val);
      }
}

#if RL_X86
/// pack_b_q for rows contiguous along N: G rows at a time, 16 columns a
/// vector.
template <word W, int NR>
RL_AVX512 void pack_b_q_avx512(const qproblem &g, const float *S, int64_t pc, int64_t kc,
                               int64_t jc, int64_t nc, uint32_t *Bp) {
  constexpr int G = group<W>(), NV = NR / 16;
  const int64_t Kg = (kc + G - 1) / G;
  const __m512i Off = _mm512_set1_epi32(128), Lo16 = _mm512_set1_epi32(0xffff);
  for (int64_t jp = 0; jp < nc; jp += NR, Bp += NR * Kg) {
    __mmask16 Cols[NV];
    __m512 Sv[NV];
    for (int q = 0; q < NV; ++q) {
      Cols[q] = v::f32x16::mask(int(nc - jp - 16 * q));
      Sv[q] = g.bcol && W != word::bf16x2
                  ? _mm512_mask_loadu_ps(_mm512_set1_ps(1.0f), Cols[q], S + jc + jp + 16 * q)
                  : _mm512_set1_ps(S[0]);
    }
    const float *Src = g.B + pc * g.bk + jc + jp;
    for (int64_t q = 0; q < Kg; ++q)
      for (int j = 0; j < NV; ++j) {
        __m512i Word = _mm512_setzero_si512();
        for (int t = 0; t < G; ++t) {
          const int64_t k = q * G + t;
          const __m512 X =
              _mm512_maskz_loadu_ps(k < kc ? Cols[j] : __mmask16(0), Src + k * g.bk + 16 * j);
          __m512i Part;
          if constexpr (W == word::bf16x2) {
            // Round to nearest even: add 0x7fff and the lowest kept bit.
            __m512i U = _mm512_castps_si512(X);
            U = _mm512_add_epi32(
                U, _mm512_add_epi32(_mm512_set1_epi32(0x7fff),
                                    _mm512_and_si512(_mm512_maskz_srli_epi32(all16, U, 16),
                                                     _mm512_set1_epi32(1))));
            Part = _mm512_maskz_srli_epi32(all16, U, 16);
          } else {
            __m512i Q = _mm512_maskz_cvtps_epi32(all16, _mm512_div_ps(X, Sv[j]));
            Part = W == word::u8x4 ? _mm512_add_epi32(Q, Off) : _mm512_and_si512(Q, Lo16);
          }
          Word = _mm512_or_si512(Word, _mm512_maskz_slli_epi32(all16, Part, (32 / G) * t));
        }
        _mm512_store_si512(reinterpret_cast<void *>(Bp + q * NR + 16 * j), Word);
      }
  }
}
#endif

/// pack_a_q for rows contiguous in K: whole words copied from the row.
template <word W, int MR>
void pack_a_q_rows(path P, const qproblem &g, int64_t ic, int64_t mc, int64_t pc,
                   int64_t kc, uint32_t *Ap, int32_t *Corr) {
  constexpr int G = group<W>();
  const int64_t Kg = (kc + G - 1) / G, Whole = kc / G;
  const size_t Elem = W == word::bf16x2 ? 2 : 1;
#if RL_X86
  // Words that are already A's (4 int8 or 2 bf16 in a row, rows a whole
  // number of words apart): the panels are the words' transposes, as for
  // f32 (pack_a_rows_avx2, bit for bit); the tail word and the int8 row
  // sums after.
  const unsigned char *Base = static_cast<const unsigned char *>(g.A);
  if (P != path::portable && W != word::i16x2 && kc % G == 0 &&
      (g.am * int64_t(Elem)) % 4 == 0 &&
      reinterpret_cast<uintptr_t>(Base + (ic * g.am + pc) * int64_t(Elem)) % 4 == 0) {
    pack_a_rows_avx2<MR>(mc, Whole,
                         reinterpret_cast<const float *>(Base + (ic * g.am + pc) * int64_t(Elem)),
                         g.am * int64_t(Elem) / 4, reinterpret_cast<float *>(Ap));
    for (int64_t ip = 0; ip < mc; ip += MR, Corr += MR)
      for (int r = 0; r < MR; ++r) {
        int32_t Sum = 0;
        if (W == word::u8x4 && ip + r < mc) {
          const signed char *Row =
              static_cast<const signed char *>(g.A) + (ic + ip + r) * g.am + pc;
          for (int64_t k = 0; k < kc; ++k)
            Sum += Row[k];
        }
        Corr[r] = 128 * Sum;
      }
    return;
  }
#endif
  (void)P;
  for (int64_t ip = 0; ip < mc; ip += MR, Ap += MR * Kg, Corr += MR)
    for (int r = 0; r < MR; ++r) {
      if (ip + r >= mc) {
        for (int64_t q = 0; q < Kg; ++q)
          Ap[q * MR + r] = 0;
        Corr[r] = 0;
        continue;
      }
      const unsigned char *Row = static_cast<const unsigned char *>(g.A) +
                                 ((ic + ip + r) * g.am + pc) * int64_t(Elem);
      const signed char *S8 = reinterpret_cast<const signed char *>(Row);
      for (int64_t q = 0; q < Whole; ++q) {
        uint32_t X;
        if constexpr (W == word::i16x2)
          X = (uint32_t(int32_t(S8[2 * q])) & 0xffffu) | uint32_t(int32_t(S8[2 * q + 1])) << 16;
        else
          std::memcpy(&X, Row + q * G * Elem, 4);
        Ap[q * MR + r] = X;
      }
      if (Whole < Kg) { // the last word, zero padded
        unsigned char Tail[4] = {0, 0, 0, 0};
        std::memcpy(Tail, Row + Whole * G * Elem, size_t(kc - Whole * G) * Elem);
        uint32_t X;
        if constexpr (W == word::i16x2)
          X = uint32_t(int32_t(static_cast<signed char>(Tail[0]))) & 0xffffu;
        else
          std::memcpy(&X, Tail, 4);
        Ap[Whole * MR + r] = X;
      }
      int32_t Sum = 0;
      if constexpr (W == word::u8x4)
        for (int64_t k = 0; k < kc; ++k)
          Sum += S8[k];
      Corr[r] = 128 * Sum;
    }
}

/// A's mc x kc block (prepared int8 or bf16) into MR-row panels of words;
/// int8 for vpdpbusd also gives 128 * the sum of each row's values in the
/// block (\p Corr), what B's offset adds to it.
template <word W, int MR>
void pack_a_q(path P, const qproblem &g, int64_t ic, int64_t mc, int64_t pc, int64_t kc,
              uint32_t *Ap, int32_t *Corr) {
  constexpr int G = group<W>();
  const int64_t Kg = (kc + G - 1) / G;
  if (g.ak == 1)
    return pack_a_q_rows<W, MR>(P, g, ic, mc, pc, kc, Ap, Corr);
  for (int64_t ip = 0; ip < mc; ip += MR, Ap += MR * Kg, Corr += MR) {
    for (int r = 0; r < MR; ++r) {
      const int64_t i = ic + ip + r;
      int32_t Sum = 0;
      for (int64_t q = 0; q < Kg; ++q) {
        int Val[4] = {0, 0, 0, 0};
        uint32_t Bits[2] = {0, 0};
        for (int t = 0; t < G; ++t) {
          const int64_t k = q * G + t;
          if (k >= kc || ip + r >= mc)
            continue;
          const int64_t At = i * g.am + (pc + k) * g.ak;
          if constexpr (W == word::bf16x2)
            Bits[t] = static_cast<const rl::bf16 *>(g.A)[At].Bits;
          else
            Val[t] = static_cast<const signed char *>(g.A)[At];
          Sum += Val[t];
        }
        uint32_t X;
        if constexpr (W == word::u8x4)
          X = (uint32_t(Val[0]) & 0xff) | (uint32_t(Val[1]) & 0xff) << 8 |
              (uint32_t(Val[2]) & 0xff) << 16 | (uint32_t(Val[3]) & 0xff) << 24;
        else if constexpr (W == word::i16x2)
          X = pack_word<W>(Val);
        else
          X = Bits[0] | Bits[1] << 16;
        Ap[q * MR + r] = X;
      }
      Corr[r] = W == word::u8x4 ? 128 * Sum : 0;
    }
  }
}

/// How a quantized tile is finished: int32 sums less the offset's share,
/// times A's row scale and B's scale (int8); f32 sums as they are (bf16).
struct dequant {
  const float *as;
  int64_t as_m;
  const float *bs; ///< B's scales: one, or one per column
  bool bcol;
  float row(int64_t i) const { return as ? as[i * as_m] : 1.0f; }
};

// Portable micro-kernels: pairs of int16 or bf16 words.
template <word W, int MR, int NR, typename Epi>
void ukr_q_portable(int64_t kg, const uint32_t *a, const uint32_t *b, const int32_t *,
                    float *c, int64_t ldc, int mr, int nr, store_flags F, const dequant &D,
                    const Epi &epi, int64_t i0, int64_t j0) {
  static_assert(W != word::u8x4, "portable kernels take pairs");
  typedef typename std::conditional<W == word::i16x2, int32_t, float>::type Acc;
  Acc acc[MR][NR] = {};
  auto Lo = [](uint32_t X) {
    if constexpr (W == word::i16x2)
      return int32_t(int16_t(X & 0xffff));
    else {
      rl::bf16 B;
      B.Bits = uint16_t(X & 0xffff);
      return float(B);
    }
  };
  auto Hi = [&](uint32_t X) { return Lo(X >> 16); };
  for (int64_t p = 0; p < kg; ++p, a += MR, b += NR)
    for (int i = 0; i < MR; ++i)
      for (int j = 0; j < NR; ++j)
        acc[i][j] += Lo(a[i]) * Lo(b[j]) + Hi(a[i]) * Hi(b[j]);
  for (int i = 0; i < mr; ++i)
    for (int j = 0; j < nr; ++j) {
      float X = static_cast<float>(acc[i][j]);
      if constexpr (W == word::i16x2)
        X = X * D.row(i0 + i) * D.bs[D.bcol ? j0 + j : 0];
      if (F.beta)
        X += c[i * ldc + j];
      if (Epi::active && F.last)
        X = epi.template apply<v::f32x1>(X, i0 + i, j0 + j, true);
      c[i * ldc + j] = X;
    }
}

#if RL_X86
/// The AVX-512 store of a quantized tile's row: dequantize (int8), add C
/// (beta), the epilogue (last), masked store.
template <bool Int, typename Epi>
RL_AVX512 inline void store_q(__m512 X, float *P, __mmask16 K, float RowScale,
                              const dequant &D, int64_t j, store_flags F, const Epi &epi,
                              int64_t i) {
  if (Int) {
    const __m512 Sb = D.bcol ? _mm512_maskz_loadu_ps(K, D.bs + j) : _mm512_set1_ps(D.bs[0]);
    X = _mm512_mul_ps(_mm512_mul_ps(X, _mm512_set1_ps(RowScale)), Sb);
  }
  if (F.beta)
    X = _mm512_add_ps(X, _mm512_maskz_loadu_ps(K, P));
  if (Epi::active && F.last)
    X = epi.template apply<v::f32x16>(X, i, j, K);
  _mm512_mask_storeu_ps(P, K, X);
}

/// acc += u (u8) . s (s8) in groups of four, and acc += x . y (bf16 pairs).
/// GCC 12 copies (and spills) every accumulator of the intrinsics' forms
/// on each step (half the speed of the instruction); the asm operand is
/// updated in place. vdpbf16ps is asm with every compiler, callable from
/// RL_AVX512 functions (the bf16 small path's tile, which has a widening
/// form for AVX-512 without BF16 too); it runs only on path bf16.
RL_AVX512VNNI inline __m512i dpbusd(__m512i Acc, __m512i U, __m512i S) {
#if defined(__GNUC__) && !defined(__clang__)
  __asm__("vpdpbusd %2, %1, %0" : "+v"(Acc) : "v"(U), "v"(S));
  return Acc;
#else
  return _mm512_dpbusd_epi32(Acc, U, S);
#endif
}
#if RL_HAVE_BF16
RL_AVX512 inline __m512 dpbf16(__m512 Acc, __m512i X, __m512i Y) {
  __asm__("vdpbf16ps %2, %1, %0" : "+v"(Acc) : "v"(X), "v"(Y));
  return Acc;
}
#endif

/// Every line of a tile of C: it arrives while the products are summed.
template <int MR, int NV>
inline void prefetch_tile(const float *c, int64_t ldc, int mr) {
  for (int r = 0; r < MR; ++r)
    if (r < mr)
      for (int q = 0; q < NV; ++q)
        _mm_prefetch(reinterpret_cast<const char *>(c + r * ldc + 16 * q), _MM_HINT_T0);
}

/// vpdpbusd: B + 128 (u8) times A (s8), four products a lane per step.
template <int MR, int NR, int NV, typename Epi>
RL_AVX512VNNI void ukr_vnni(int64_t kg, const uint32_t *RL_RESTRICT a,
                            const uint32_t *RL_RESTRICT b, const int32_t *corr, float *c,
                            int64_t ldc, int mr, int nr, store_flags F, const dequant &D,
                            const Epi &epi, int64_t i0, int64_t j0) {
  __m512i acc[MR][NV];
  RL_UNROLL(32)
  for (int r = 0; r < MR; ++r)
    RL_UNROLL(8)
    for (int q = 0; q < NV; ++q)
      acc[r][q] = _mm512_setzero_si512();
  prefetch_tile<MR, NV>(c, ldc, mr);
  for (int64_t p = 0; p < kg; ++p, a += MR, b += NR) {
    _mm_prefetch(reinterpret_cast<const char *>(a + 8 * MR), _MM_HINT_T0);
    __m512i bv[NV];
    RL_UNROLL(8)
    for (int q = 0; q < NV; ++q)
      bv[q] = _mm512_load_si512(reinterpret_cast<const void *>(b + 16 * q));
    RL_UNROLL(32)
    for (int r = 0; r < MR; ++r) {
      const __m512i x = _mm512_set1_epi32(int(a[r]));
      RL_UNROLL(8)
      for (int q = 0; q < NV; ++q)
        acc[r][q] = dpbusd(acc[r][q], bv[q], x);
    }
  }
  RL_UNROLL(32)
  for (int r = 0; r < MR; ++r) {
    if (r >= mr)
      break;
    const __m512i Cr = _mm512_set1_epi32(corr[r]);
    const float Rs = D.row(i0 + r);
    RL_UNROLL(8)
    for (int q = 0; q < NV; ++q)
      store_q<true>(_mm512_maskz_cvtepi32_ps(all16, _mm512_sub_epi32(acc[r][q], Cr)),
                    c + r * ldc + 16 * q, v::f32x16::mask(nr - 16 * q), Rs, D,
                    j0 + 16 * q, F, epi, i0 + r);
  }
}

/// vpmaddwd: pairs of int16, two products a lane per step (AVX512BW).
template <int MR, int NR, int NV, typename Epi>
RL_AVX512 void ukr_i16_avx512(int64_t kg, const uint32_t *RL_RESTRICT a,
                              const uint32_t *RL_RESTRICT b, const int32_t *, float *c,
                              int64_t ldc, int mr, int nr, store_flags F, const dequant &D,
                              const Epi &epi, int64_t i0, int64_t j0) {
  __m512i acc[MR][NV];
  RL_UNROLL(32)
  for (int r = 0; r < MR; ++r)
    RL_UNROLL(8)
    for (int q = 0; q < NV; ++q)
      acc[r][q] = _mm512_setzero_si512();
  prefetch_tile<MR, NV>(c, ldc, mr);
  for (int64_t p = 0; p < kg; ++p, a += MR, b += NR) {
    _mm_prefetch(reinterpret_cast<const char *>(a + 8 * MR), _MM_HINT_T0);
    __m512i bv[NV];
    RL_UNROLL(8)
    for (int q = 0; q < NV; ++q)
      bv[q] = _mm512_load_si512(reinterpret_cast<const void *>(b + 16 * q));
    RL_UNROLL(32)
    for (int r = 0; r < MR; ++r) {
      const __m512i x = _mm512_set1_epi32(int(a[r]));
      RL_UNROLL(8)
      for (int q = 0; q < NV; ++q)
        acc[r][q] = _mm512_add_epi32(acc[r][q], _mm512_madd_epi16(bv[q], x));
    }
  }
  RL_UNROLL(32)
  for (int r = 0; r < MR; ++r) {
    if (r >= mr)
      break;
    const float Rs = D.row(i0 + r);
    RL_UNROLL(8)
    for (int q = 0; q < NV; ++q)
      store_q<true>(_mm512_maskz_cvtepi32_ps(all16, acc[r][q]), c + r * ldc + 16 * q,
                    v::f32x16::mask(nr - 16 * q), Rs, D, j0 + 16 * q, F, epi, i0 + r);
  }
}

/// bf16 pairs widened to f32 (even k: the low half shifted up; odd k: the
/// high half), two FMAs per pair (AVX-512 without BF16).
template <int MR, int NR, int NV, typename Epi>
RL_AVX512 void ukr_bf16_avx512(int64_t kg, const uint32_t *RL_RESTRICT a,
                               const uint32_t *RL_RESTRICT b, const int32_t *, float *c,
                               int64_t ldc, int mr, int nr, store_flags F,
                               const dequant &D, const Epi &epi, int64_t i0, int64_t j0) {
  __m512 acc[MR][NV];
  RL_UNROLL(32)
  for (int r = 0; r < MR; ++r)
    RL_UNROLL(8)
    for (int q = 0; q < NV; ++q)
      acc[r][q] = _mm512_setzero_ps();
  const __m512i Hi = _mm512_set1_epi32(int(0xffff0000u));
  prefetch_tile<MR, NV>(c, ldc, mr);
  for (int64_t p = 0; p < kg; ++p, a += MR, b += NR) {
    _mm_prefetch(reinterpret_cast<const char *>(a + 8 * MR), _MM_HINT_T0);
    __m512 be[NV], bo[NV];
    RL_UNROLL(8)
    for (int q = 0; q < NV; ++q) {
      const __m512i w = _mm512_load_si512(reinterpret_cast<const void *>(b + 16 * q));
      be[q] = _mm512_castsi512_ps(_mm512_maskz_slli_epi32(all16, w, 16));
      bo[q] = _mm512_castsi512_ps(_mm512_and_si512(w, Hi));
    }
    RL_UNROLL(32)
    for (int r = 0; r < MR; ++r) {
      const __m512i w = _mm512_set1_epi32(int(a[r]));
      const __m512 xe = _mm512_castsi512_ps(_mm512_maskz_slli_epi32(all16, w, 16)),
                   xo = _mm512_castsi512_ps(_mm512_and_si512(w, Hi));
      RL_UNROLL(8)
      for (int q = 0; q < NV; ++q)
        acc[r][q] = _mm512_fmadd_ps(xo, bo[q], _mm512_fmadd_ps(xe, be[q], acc[r][q]));
    }
  }
  RL_UNROLL(32)
  for (int r = 0; r < MR; ++r) {
    if (r >= mr)
      break;
    RL_UNROLL(8)
    for (int q = 0; q < NV; ++q)
      store_q<false>(acc[r][q], c + r * ldc + 16 * q, v::f32x16::mask(nr - 16 * q), 1.0f,
                     D, j0 + 16 * q, F, epi, i0 + r);
  }
}

#if RL_HAVE_BF16
/// vdpbf16ps: two bf16 products a lane per step, f32 sums.
template <int MR, int NR, int NV, typename Epi>
RL_AVX512BF16 void ukr_bf16(int64_t kg, const uint32_t *RL_RESTRICT a,
                            const uint32_t *RL_RESTRICT b, const int32_t *, float *c,
                            int64_t ldc, int mr, int nr, store_flags F, const dequant &D,
                            const Epi &epi, int64_t i0, int64_t j0) {
  __m512 acc[MR][NV];
  RL_UNROLL(32)
  for (int r = 0; r < MR; ++r)
    RL_UNROLL(8)
    for (int q = 0; q < NV; ++q)
      acc[r][q] = _mm512_setzero_ps();
  prefetch_tile<MR, NV>(c, ldc, mr);
  for (int64_t p = 0; p < kg; ++p, a += MR, b += NR) {
    _mm_prefetch(reinterpret_cast<const char *>(a + 8 * MR), _MM_HINT_T0);
    __m512i bv[NV];
    RL_UNROLL(8)
    for (int q = 0; q < NV; ++q)
      bv[q] = _mm512_load_si512(reinterpret_cast<const void *>(b + 16 * q));
    RL_UNROLL(32)
    for (int r = 0; r < MR; ++r) {
      const __m512i x = _mm512_set1_epi32(int(a[r]));
      RL_UNROLL(8)
      for (int q = 0; q < NV; ++q)
        acc[r][q] = dpbf16(acc[r][q], x, bv[q]);
    }
  }
  RL_UNROLL(32)
  for (int r = 0; r < MR; ++r) {
    if (r >= mr)
      break;
    RL_UNROLL(8)
    for (int q = 0; q < NV; ++q)
      store_q<false>(acc[r][q], c + r * ldc + 16 * q, v::f32x16::mask(nr - 16 * q), 1.0f,
                     D, j0 + 16 * q, F, epi, i0 + r);
  }
}
#endif

/// vpmaddwd on AVX2: 6 x 16 tiles of int16 pairs.
template <int NV, typename Epi>
RL_AVX2 void ukr_i16_avx2(int64_t kg, const uint32_t *RL_RESTRICT a,
                          const uint32_t *RL_RESTRICT b, const int32_t *, float *c,
                          int64_t ldc, int mr, int nr, store_flags F, const dequant &D,
                          const Epi &epi, int64_t i0, int64_t j0) {
  constexpr int MR = 6, NR = 16;
  __m256i acc[MR][NV];
  RL_UNROLL(8)
  for (int r = 0; r < MR; ++r)
    RL_UNROLL(2)
    for (int q = 0; q < NV; ++q)
      acc[r][q] = _mm256_setzero_si256();
  for (int64_t p = 0; p < kg; ++p, a += MR, b += NR) {
    __m256i bv[NV];
    RL_UNROLL(2)
    for (int q = 0; q < NV; ++q)
      bv[q] = _mm256_load_si256(reinterpret_cast<const __m256i *>(b + 8 * q));
    RL_UNROLL(8)
    for (int r = 0; r < MR; ++r) {
      const __m256i x = _mm256_set1_epi32(int(a[r]));
      RL_UNROLL(2)
      for (int q = 0; q < NV; ++q)
        acc[r][q] = _mm256_add_epi32(acc[r][q], _mm256_madd_epi16(bv[q], x));
    }
  }
  RL_UNROLL(8)
  for (int r = 0; r < MR; ++r) {
    if (r >= mr)
      break;
    const float Rs = D.row(i0 + r);
    RL_UNROLL(2)
    for (int q = 0; q < NV; ++q) {
      const __m256i K = v::f32x8::mask(nr - 8 * q);
      float *P = c + r * ldc + 8 * q;
      const __m256 Sb =
          D.bcol ? _mm256_maskload_ps(D.bs + j0 + 8 * q, K) : _mm256_set1_ps(D.bs[0]);
      __m256 X = _mm256_mul_ps(_mm256_mul_ps(_mm256_cvtepi32_ps(acc[r][q]),
                                             _mm256_set1_ps(Rs)),
                               Sb);
      if (F.beta)
        X = _mm256_add_ps(X, _mm256_maskload_ps(P, K));
      if (Epi::active && F.last)
        X = epi.template apply<v::f32x8>(X, i0 + r, j0 + 8 * q, K);
      _mm256_maskstore_ps(P, K, X);
    }
  }
}
#endif

//===----------------------------------------------------------------------===//
// The bf16 small path: for problems the f32 small path would take. B is
// rounded to bf16 once per call into words of two rows (row 2q in the low
// half, 2q + 1 in the high half, the layout vdpbf16ps pairs with A's
// consecutive k), A (prepared bf16, rows contiguous in K) is read straight
// from its rows, a word broadcast per row and k pair, and C stays in
// registers for the whole K. Nothing else is packed: at 64^3 the blocked
// path's per-call A panels and its driver cost more than the products
// (docs/codegen.md, "The gemm runtime": bf16 small path).
//===----------------------------------------------------------------------===//

/// Whether the bf16 small path takes a problem: A's rows contiguous in K,
/// B's and C's along N, the f32 small path's sizes.
inline bool small_enough(const qproblem &g) {
  return g.ak == 1 && g.bn == 1 && g.cn == 1 && g.K > 0 && g.M <= 160 && g.N <= 160 &&
         g.K <= 320 && g.M * g.N * g.K <= int64_t(128) * 128 * 128;
}

/// B's words for the bf16 small path: ceil(K / 2) rows of \p ldw words
/// (ldw: N rounded up to 16), zero past K and N.
struct bf16_words {
  const uint32_t *W;
  int64_t ldw;
};

/// The word of bf16(x0) (low half) and bf16(x1), rounded to nearest even.
inline uint32_t bf16_word(float X0, float X1) { return bf16_bits(X0) | bf16_bits(X1) << 16; }

#if RL_X86
/// 16 words of two rows of B (x0 the low halves), rounded to nearest even
/// in integer arithmetic (AVX-512 without BF16; as pack_b_q_avx512).
/// X's bits plus the rounding to nearest even of its low 16 bits (the bf16
/// in the high half). A function, not a lambda: GCC's lambdas do not take
/// the target of the function around them.
RL_AVX512 inline __m512i bf16_rounded(__m512 X) {
  const __m512i U = _mm512_castps_si512(X);
  return _mm512_add_epi32(
      U, _mm512_add_epi32(_mm512_set1_epi32(0x7fff),
                          _mm512_and_si512(_mm512_maskz_srli_epi32(all16, U, 16),
                                           _mm512_set1_epi32(1))));
}
RL_AVX512 inline __m512i bf16_words_avx512(__m512 X0, __m512 X1) {
  return _mm512_or_si512(_mm512_maskz_srli_epi32(all16, bf16_rounded(X0), 16),
                         _mm512_and_si512(bf16_rounded(X1), _mm512_set1_epi32(int(0xffff0000u))));
}
#if RL_HAVE_BF16
/// The same with vcvtne2ps2bf16 (round to nearest even; denormals to zero,
/// as vdpbf16ps reads them anyway) and one word interleave. As asm, like
/// dpbf16: callable from the RL_AVX512 functions, run only on path bf16.
RL_AVX512 inline __m512i bf16_words_bf16(__m512 X0, __m512 X1) {
  __m512i Halves; // X0's 16 values in the low 256 bits, X1's in the high
  __asm__("vcvtne2ps2bf16 %2, %1, %0" : "=v"(Halves) : "v"(X1), "v"(X0));
  // The word of column j takes value j of each half.
  const __m512i Interleave = _mm512_set_epi16(
      31, 15, 30, 14, 29, 13, 28, 12, 27, 11, 26, 10, 25, 9, 24, 8, 23, 7, 22, 6, 21, 5, 20, 4,
      19, 3, 18, 2, 17, 1, 16, 0);
  return _mm512_permutexvar_epi16(Interleave, Halves);
}
#endif

/// bf16_words_of, 16 columns a vector: vcvtne2ps2bf16 when \p Native.
template <bool Native>
RL_AVX512 void bf16_words_vec(const qproblem &g, uint32_t *W, int64_t ldw) {
  for (int64_t k = 0; k < g.K; k += 2, W += ldw) {
    const float *R0 = g.B + k * g.bk, *R1 = R0 + g.bk;
    const bool Odd = k + 1 == g.K;
    for (int64_t j = 0; j < ldw; j += 16) {
      const __mmask16 Cols = v::f32x16::mask(int(g.N - j));
      const __m512 X0 = _mm512_maskz_loadu_ps(Cols, R0 + j),
                   X1 = _mm512_maskz_loadu_ps(Odd ? __mmask16(0) : Cols, R1 + j);
      __m512i Words;
#if RL_HAVE_BF16
      if constexpr (Native)
        Words = bf16_words_bf16(X0, X1);
      else
#endif
        Words = bf16_words_avx512(X0, X1);
      _mm512_store_si512(reinterpret_cast<void *>(W + j), Words);
    }
  }
}
#endif

/// B (f32, rows contiguous along N) as bf16 words in a per-thread buffer.
inline bf16_words bf16_words_of(path P, const qproblem &g) {
  const int64_t Ldw = round_up(g.N, 16), Kg = (g.K + 1) / 2;
  uint32_t *W = scratch<uint32_t, 7>(size_t(Kg * Ldw));
#if RL_X86
  if (P == path::bf16 || P == path::avx512) {
    if (P == path::bf16)
      bf16_words_vec<true>(g, W, Ldw);
    else
      bf16_words_vec<false>(g, W, Ldw);
    return {W, Ldw};
  }
#endif
  for (int64_t q = 0; q < Kg; ++q)
    for (int64_t j = 0; j < Ldw; ++j) {
      const int64_t k = 2 * q;
      const float X0 = j < g.N ? g.B[k * g.bk + j] : 0.0f,
                  X1 = j < g.N && k + 1 < g.K ? g.B[(k + 1) * g.bk + j] : 0.0f;
      W[q * Ldw + j] = bf16_word(X0, X1);
    }
  return {W, Ldw};
}

/// A's word of k pair \p q of a row: two bf16, or the last k alone (its
/// pair's high half zero, not the next row's first value).
inline uint32_t a_word(const rl::bf16 *Row, int64_t q, bool Half) {
  if (Half)
    return Row[2 * q].Bits;
  uint32_t X;
  std::memcpy(&X, Row + 2 * q, 4);
  return X;
}

#if RL_X86
/// One k pair of the bf16 small path's tile: a row of B's words, a word of
/// each row of A broadcast (Half: the last k alone), MR x NV dot products.
/// Native: vdpbf16ps; else (AVX-512 without BF16) both halves widened to
/// f32 and two FMAs.
template <int MR, int NV, bool Native>
RL_AVX512 __attribute__((always_inline)) inline void
direct_bf16_step(__m512 (&acc)[MR][NV], const rl::bf16 *const (&ar)[MR], const uint32_t *w,
                 int64_t p, bool Half) {
  const __m512i Hi = _mm512_set1_epi32(int(0xffff0000u));
  __m512i bv[NV];
  RL_UNROLL(8)
  for (int q = 0; q < NV; ++q)
    bv[q] = _mm512_load_si512(reinterpret_cast<const void *>(w + 16 * q));
  RL_UNROLL(32)
  for (int r = 0; r < MR; ++r) {
    const __m512i x = _mm512_set1_epi32(int(a_word(ar[r], p, Half)));
    if constexpr (Native) {
#if RL_HAVE_BF16
      RL_UNROLL(8)
      for (int q = 0; q < NV; ++q)
        acc[r][q] = dpbf16(acc[r][q], x, bv[q]);
#endif
    } else {
      const __m512 xe = _mm512_castsi512_ps(_mm512_maskz_slli_epi32(all16, x, 16)),
                   xo = _mm512_castsi512_ps(_mm512_and_si512(x, Hi));
      RL_UNROLL(8)
      for (int q = 0; q < NV; ++q) {
        const __m512 be = _mm512_castsi512_ps(_mm512_maskz_slli_epi32(all16, bv[q], 16)),
                     bo = _mm512_castsi512_ps(_mm512_and_si512(bv[q], Hi));
        acc[r][q] = _mm512_fmadd_ps(xo, bo, _mm512_fmadd_ps(xe, be, acc[r][q]));
      }
    }
  }
}

/// One tile of the bf16 small path: rows [i0, i0 + mr) of A (a: row i0),
/// NV vectors of B's words (w: the tile's first column), C (+)= A B.
template <int MR, int NV, bool Native, typename Epi>
RL_AVX512 __attribute__((noinline)) void
direct_bf16(int64_t K, const rl::bf16 *a, int64_t am, const uint32_t *w, int64_t ldw,
            float *c, int64_t ldc, int mr, int nr, store_flags F, const Epi &epi, int64_t i0,
            int64_t j0) {
  __m512 acc[MR][NV];
  const rl::bf16 *ar[MR];
  RL_UNROLL(32)
  for (int r = 0; r < MR; ++r) {
    // Rows past the edge read the last row again (their sums are dropped).
    ar[r] = a + (r < mr ? r : mr - 1) * am;
    RL_UNROLL(8)
    for (int q = 0; q < NV; ++q)
      acc[r][q] = _mm512_setzero_ps();
  }
  const int64_t Whole = K / 2;
  for (int64_t p = 0; p < Whole; ++p)
    direct_bf16_step<MR, NV, Native>(acc, ar, w + p * ldw, p, false);
  if (K % 2)
    direct_bf16_step<MR, NV, Native>(acc, ar, w + Whole * ldw, Whole, true);
  const dequant D{nullptr, 0, nullptr, false};
  RL_UNROLL(32)
  for (int r = 0; r < MR; ++r) {
    if (r >= mr)
      break;
    RL_UNROLL(8)
    for (int q = 0; q < NV; ++q)
      store_q<false>(acc[r][q], c + r * ldc + 16 * q, v::f32x16::mask(nr - 16 * q), 1.0f, D,
                     j0 + 16 * q, F, epi, i0 + r);
  }
}
#endif

/// The bf16 small path's portable tile (and the reference for the others:
/// the same words, f32 sums in the same order per k pair).
template <int MR, int NR, typename Epi>
void direct_bf16_portable(int64_t K, const rl::bf16 *a, int64_t am, const uint32_t *w,
                          int64_t ldw, float *c, int64_t ldc, int mr, int nr, store_flags F,
                          const Epi &epi, int64_t i0, int64_t j0) {
  float acc[MR][NR] = {};
  auto Half = [](uint32_t X) {
    rl::bf16 B;
    B.Bits = uint16_t(X & 0xffff);
    return float(B);
  };
  for (int64_t p = 0; p < (K + 1) / 2; ++p)
    for (int i = 0; i < mr; ++i) {
      const uint32_t x = a_word(a + i * am, p, 2 * p + 1 == K);
      for (int j = 0; j < nr; ++j) {
        const uint32_t y = w[p * ldw + j];
        acc[i][j] += Half(x) * Half(y) + Half(x >> 16) * Half(y >> 16);
      }
    }
  for (int i = 0; i < mr; ++i)
    for (int j = 0; j < nr; ++j) {
      float X = acc[i][j];
      if (F.beta)
        X += c[i * ldc + j];
      if (Epi::active)
        X = epi.template apply<v::f32x1>(X, i0 + i, j0 + j, true);
      c[i * ldc + j] = X;
    }
}

/// The bf16 small path: tiles of MR x NR over B's words \p Bw. \p direct
/// takes the tile's rows (exact for the last tile) and vectors as integral
/// constants.
template <int MR, int NR, int W, typename Epi, typename Direct>
void small_bf16(const qproblem &g, const bf16_words &Bw, const Epi &epi, Direct direct) {
  const store_flags F{g.beta0 ? 0 : 1, true};
  const rl::bf16 *A = static_cast<const rl::bf16 *>(g.A);
  for (int64_t j = 0; j < g.N; j += NR)
    for (int64_t i = 0; i < g.M; i += MR) {
      const int mr = int(std::min<int64_t>(MR, g.M - i)),
                nr = int(std::min<int64_t>(NR, g.N - j));
      float *c = g.C + i * g.cm + j;
      for (int r = 0; r < mr; ++r)
        for (int q = 0; q < nr; q += 16)
          __builtin_prefetch(c + r * g.cm + q, 1, 3);
      by_vectors<(NR + W - 1) / W, W>(nr, [&](auto NV) {
        by_rows<MR>(mr, [&](auto Rows) {
          direct(Rows, NV, g.K, A + i * g.am, g.am, Bw.W + j, Bw.ldw, c, g.cm, mr, nr, F, epi,
                 i, j);
        });
      });
    }
}

/// A quantized micro-kernel family as a policy of qgemm: its word, register
/// tile and run(); Kern<NV> is the kernel for NV vectors of W lanes.
template <word Wd, int MR_, int NR_, int W, template <int> class Kern> struct qfamily {
  static constexpr word Word = Wd;
  static constexpr int MR = MR_, NR = NR_;
  template <typename Epi>
  static void run(int64_t kg, const uint32_t *a, const uint32_t *b, const int32_t *corr,
                  float *c, int64_t ldc, int mr, int nr, store_flags F, const dequant &D,
                  const Epi &epi, int64_t i0, int64_t j0) {
    by_vectors<NR / W, W>(nr, [&](auto NV) {
      Kern<decltype(NV)::value>::template run<Epi>(kg, a, b, corr, c, ldc, mr, nr, F, D,
                                                   epi, i0, j0);
    });
  }
};

// The kernels as templates of NV alone, for qfamily.
#define RL_QKERNEL(NAME, CALL)                                                 \
  template <int NV> struct NAME {                                              \
    template <typename Epi>                                                    \
    static void run(int64_t kg, const uint32_t *a, const uint32_t *b,          \
                    const int32_t *corr, float *c, int64_t ldc, int mr, int nr, \
                    store_flags F, const dequant &D, const Epi &epi,           \
                    int64_t i0, int64_t j0) {                                  \
      CALL(kg, a, b, corr, c, ldc, mr, nr, F, D, epi, i0, j0);                 \
    }                                                                          \
  };
constexpr int qMR = 6, qNR = 64, qNRp = 16;
RL_QKERNEL(k_i16_portable, (ukr_q_portable<word::i16x2, qMR, qNRp, Epi>))
RL_QKERNEL(k_bf16_portable, (ukr_q_portable<word::bf16x2, qMR, qNRp, Epi>))
#if RL_X86
RL_QKERNEL(k_vnni, (ukr_vnni<qMR, qNR, NV, Epi>))
RL_QKERNEL(k_i16_avx512, (ukr_i16_avx512<qMR, qNR, NV, Epi>))
RL_QKERNEL(k_i16_avx2, (ukr_i16_avx2<NV, Epi>))
RL_QKERNEL(k_bf16_avx512, (ukr_bf16_avx512<qMR, qNR, NV, Epi>))
#if RL_HAVE_BF16
RL_QKERNEL(k_bf16, (ukr_bf16<qMR, qNR, NV, Epi>))
#endif
#endif
#undef RL_QKERNEL

/// The quantized blocked driver (serial; BLIS order as serial()). \p Bs
/// holds B's int8 scales (bf16: unused).
template <typename Fam, typename Epi, typename BlockEpi>
void qgemm_blocked(path P, const qproblem &g, const blocks &Bl, const float *Bs,
                   const Epi &epi, const BlockEpi &blk) {
  constexpr int MR = Fam::MR, NR = Fam::NR, G = group<Fam::Word>();
  const int64_t KC = round_up(Bl.KC, G);
  const int64_t KgMax = KC / G;
  uint32_t *Ap = scratch<uint32_t, 2>(size_t(round_up(std::min(Bl.MC, g.M), MR) * KgMax + pack_slack));
  int32_t *Corr = scratch<int32_t, 3>(size_t(round_up(std::min(Bl.MC, g.M), MR)));
  uint32_t *Bp = scratch<uint32_t, 4>(size_t(round_up(std::min(Bl.NC, g.N), NR) * KgMax));
  const dequant D{g.as, g.as_m, Bs, g.bcol};
  for (int64_t jc = 0; jc < g.N; jc += Bl.NC) {
    const int64_t nc = std::min(Bl.NC, g.N - jc);
    for (int64_t pc = 0; pc < g.K; pc += KC) {
      const int64_t kc = std::min(KC, g.K - pc), kg = (kc + G - 1) / G;
      const store_flags F{g.beta0 && pc == 0 ? 0 : 1, pc + kc >= g.K};
#if RL_X86
      if ((P == path::avx512 || P == path::vnni || P == path::bf16) && g.bn == 1 &&
          NR % 16 == 0)
        pack_b_q_avx512<Fam::Word, NR>(g, Bs, pc, kc, jc, nc, Bp);
      else
#endif
        pack_b_q<Fam::Word, NR>(g, Bs, pc, kc, jc, nc, Bp);
      for (int64_t ic = 0; ic < g.M; ic += Bl.MC) {
        const int64_t mc = std::min(Bl.MC, g.M - ic);
        pack_a_q<Fam::Word, MR>(P, g, ic, mc, pc, kc, Ap, Corr);
        for (int64_t jr = 0; jr < nc; jr += NR) {
          const int64_t nr = std::min<int64_t>(NR, nc - jr);
          for (int64_t ir = 0; ir < mc; ir += MR) {
            const int64_t mr = std::min<int64_t>(MR, mc - ir);
            const uint32_t *a = Ap + ir * kg, *b = Bp + jr * kg;
            const int32_t *cr = Corr + ir;
            const int64_t i = ic + ir, j = jc + jr;
            if (g.cn == 1) {
              Fam::run(kg, a, b, cr, g.C + i * g.cm + j, g.cm, int(mr), int(nr), F, D, epi,
                       i, j);
              continue;
            }
            // C not contiguous along N: finish the tile in a buffer (with
            // its dequantization), then add it element by element.
            alignas(64) float t[MR * NR];
            Fam::run(kg, a, b, cr, t, int64_t(NR), MR, NR, store_flags{0, false}, D, epi, i, j);
            for (int64_t r = 0; r < mr; ++r)
              for (int64_t q = 0; q < nr; ++q) {
                float &x = g.C[(i + r) * g.cm + (j + q) * g.cn];
                float X = F.beta ? x + t[r * NR + q] : t[r * NR + q];
                if (Epi::active && F.last)
                  X = epi.template apply<v::f32x1>(X, i + r, j + q, true);
                x = X;
              }
          }
        }
        if (F.last)
          blk(ic, mc, jc, nc);
      }
    }
  }
}

//===----------------------------------------------------------------------===//
// int8 and bf16 on AMX tiles (AMX-TILE, AMX-INT8, AMX-BF16): one tile
// instruction does 16 x 16 sums of 64 bytes of k, where vpdpbusd and
// vdpbf16ps do 16 of 4 bytes. A C block of 32 x 32 is four tiles (int32
// sums for int8, f32 for bf16), fed per step by two tiles of A (16 rows of
// 64 bytes: A's MC x KC block packed as rows, KC rounded up to the step
// and zero padded) and two of B (16 k groups of 16 columns: the four-byte
// words of the VNNI and BF16 panels, B + 128 or B's bf16 pairs, 32 columns
// a panel, one k group a tile row, zero past K). int8: tdpbsud takes A's
// bytes as signed and B's as unsigned, so the 128 * sum of each A row is
// taken off as on the VNNI path; the sums go through a buffer to the same
// dequantizing store. Where A's rows are not contiguous in K, or B's or
// C's are not along N, the VNNI or BF16 driver runs instead.
//===----------------------------------------------------------------------===//

#if RL_X86 && defined(RL_AMX_OS)
#define RL_AMX                                                                 \
  __attribute__((target("avx512f,avx512dq,avx512bw,avx512vl,avx512vnni,fma,"  \
                        "amx-tile,amx-int8,amx-bf16")))

namespace amx {

constexpr int MR = 32, NR = 32;

/// The k a tile step takes: 64 bytes of A's row.
template <word W> constexpr int64_t kstep() { return 16 * group<W>(); }

/// A's element: signed bytes (int8) or bf16 bits.
template <word W>
using elem = typename std::conditional<W == word::u8x4, signed char, uint16_t>::type;

/// The tile configuration (palette 1): every tile 16 rows of 64 bytes.
struct alignas(64) tile_config {
  uint8_t Palette = 1, StartRow = 0;
  uint8_t Reserved[14] = {};
  uint16_t ColsBytes[16] = {64, 64, 64, 64, 64, 64, 64, 64};
  uint8_t Rows[16] = {16, 16, 16, 16, 16, 16, 16, 16};
};

/// A's mc x kc block as rows of kp elements (rows past mc and elements past
/// kc zero, so whatever B holds there adds nothing); int8: 128 * each row's
/// sum, what B's offset adds to it.
template <word W>
void pack_a(const qproblem &g, int64_t ic, int64_t mc, int64_t pc, int64_t kc, int64_t kp,
            elem<W> *Ap, int32_t *Corr) {
  const int64_t Rows = round_up(mc, MR);
  for (int64_t r = 0; r < Rows; ++r, Ap += kp) {
    int32_t Sum = 0;
    int64_t k = 0;
    if (r < mc) {
      const elem<W> *Src = static_cast<const elem<W> *>(g.A) + (ic + r) * g.am + pc;
      std::memcpy(Ap, Src, size_t(kc) * sizeof(elem<W>));
      if constexpr (W == word::u8x4)
        for (; k < kc; ++k)
          Sum += Src[k];
      k = kc;
    }
    std::memset(Ap + k, 0, size_t(kp - k) * sizeof(elem<W>));
    Corr[r] = 128 * Sum;
  }
}

/// C's 32 x 32 block at \p c from A's 32 packed rows \p a (kp elements
/// each) and B's panel \p b (kp / G words of 32 columns), finished by the
/// quantized store (dequantized for int8).
template <word W, typename Epi>
RL_AMX void ukr(int64_t kp, const elem<W> *a, const uint32_t *b, const int32_t *corr, float *c,
                int64_t ldc, int mr, int nr, store_flags F, const dequant &D, const Epi &epi,
                int64_t i0, int64_t j0) {
  constexpr int G = group<W>();
  const int64_t RowBytes = kp * int64_t(sizeof(elem<W>));
  _tile_zero(0);
  _tile_zero(1);
  _tile_zero(2);
  _tile_zero(3);
  for (int64_t k = 0; k < kp; k += kstep<W>()) {
    const uint32_t *bk = b + k / G * NR;
    _tile_loadd(4, a + k, RowBytes);
    _tile_loadd(5, a + 16 * kp + k, RowBytes);
    _tile_loadd(6, bk, NR * 4);
    _tile_loadd(7, bk + 16, NR * 4);
    if constexpr (W == word::u8x4) {
      _tile_dpbsud(0, 4, 6);
      _tile_dpbsud(1, 4, 7);
      _tile_dpbsud(2, 5, 6);
      _tile_dpbsud(3, 5, 7);
    } else {
      _tile_dpbf16ps(0, 4, 6);
      _tile_dpbf16ps(1, 4, 7);
      _tile_dpbf16ps(2, 5, 6);
      _tile_dpbf16ps(3, 5, 7);
    }
  }
  alignas(64) int32_t t[MR * NR]; // int32 or f32 sums
  _tile_stored(0, t, NR * 4);
  _tile_stored(1, t + 16, NR * 4);
  _tile_stored(2, t + 16 * NR, NR * 4);
  _tile_stored(3, t + 16 * NR + 16, NR * 4);
  for (int r = 0; r < mr; ++r) {
    const __m512i Cr = _mm512_set1_epi32(corr[r]);
    const float Rs = D.row(i0 + r);
    for (int q = 0; q < 2 && 16 * q < nr; ++q) {
      const __m512i X = _mm512_load_si512(reinterpret_cast<const void *>(t + r * NR + 16 * q));
      // maskz: GCC 12's _mm512_cvtepi32_ps trips -Wmaybe-uninitialized.
      const __m512 Sums = W == word::u8x4
                              ? _mm512_maskz_cvtepi32_ps(all16, _mm512_sub_epi32(X, Cr))
                              : _mm512_castsi512_ps(X);
      store_q<W == word::u8x4>(Sums, c + r * ldc + 16 * q, v::f32x16::mask(nr - 16 * q), Rs,
                               D, j0 + 16 * q, F, epi, i0 + r);
    }
  }
}

/// Whether the AMX driver takes \p g: A's rows contiguous in K, B's and
/// C's along N.
inline bool takes(const qproblem &g) { return g.ak == 1 && g.bn == 1 && g.cn == 1; }

/// The blocked driver (serial; BLIS order as qgemm_blocked): B's KC x NC
/// block packed per 32-column panel, A's MC x KC block as rows. \p Bs:
/// B's int8 scales (bf16: unused).
template <word W, typename Epi, typename BlockEpi>
RL_AMX void gemm(const qproblem &g, const blocks &Bl, const float *Bs, const Epi &epi,
                 const BlockEpi &blk) {
  constexpr int G = group<W>();
  const int64_t KC = round_up(Bl.KC, kstep<W>()), MCr = round_up(std::min(Bl.MC, g.M), MR);
  elem<W> *Ap = scratch<elem<W>, 8>(size_t(MCr * KC));
  int32_t *Corr = scratch<int32_t, 3>(size_t(MCr));
  uint32_t *Bp = scratch<uint32_t, 4>(size_t(round_up(std::min(Bl.NC, g.N), NR) * KC / G));
  const dequant D{g.as, g.as_m, Bs, g.bcol};
  const tile_config Cfg;
  _tile_loadconfig(&Cfg);
  for (int64_t jc = 0; jc < g.N; jc += Bl.NC) {
    const int64_t nc = std::min(Bl.NC, g.N - jc);
    for (int64_t pc = 0; pc < g.K; pc += KC) {
      const int64_t kc = std::min(KC, g.K - pc), kp = round_up(kc, kstep<W>());
      const int64_t kg = (kc + G - 1) / G, kgp = kp / G;
      const store_flags F{g.beta0 && pc == 0 ? 0 : 1, pc + kc >= g.K};
      for (int64_t jp = 0; jp < nc; jp += NR) {
        uint32_t *Panel = Bp + jp * kgp;
        pack_b_q_avx512<W, NR>(g, Bs, pc, kc, jc + jp, std::min<int64_t>(NR, nc - jp), Panel);
        std::memset(Panel + kg * NR, 0, size_t((kgp - kg) * NR) * 4);
      }
      for (int64_t ic = 0; ic < g.M; ic += Bl.MC) {
        const int64_t mc = std::min(Bl.MC, g.M - ic);
        pack_a<W>(g, ic, mc, pc, kc, kp, Ap, Corr);
        for (int64_t jr = 0; jr < nc; jr += NR)
          for (int64_t ir = 0; ir < mc; ir += MR) {
            const int64_t i = ic + ir, j = jc + jr;
            ukr<W>(kp, Ap + ir * kp, Bp + jr * kgp, Corr + ir, g.C + i * g.cm + j, g.cm,
                   int(std::min<int64_t>(MR, mc - ir)), int(std::min<int64_t>(NR, nc - jr)), F,
                   D, epi, i, j);
          }
        if (F.last)
          blk(ic, mc, jc, nc);
      }
    }
  }
  _tile_release();
}

} // namespace amx
#endif

/// The cache blocks of the quantized path: K blocks of twice the f32 ones'
/// elements (half the bytes or less: the panels of a K block stay in
/// the caches they are sized for, and C is read and written half as often).
inline blocks qblocks(const blocks &F32) { return blocks{F32.MC, F32.NC, 2 * F32.KC}; }

/// An int8 gemm (A: prepared int8 with its scales; B quantized here) on
/// path amx, vnni, avx512 (AVX512BW), avx2 or portable.
template <typename Epi, typename BlockEpi>
void i8gemm(path P, const qproblem &g, const blocks &Bl, const Epi &epi,
            const BlockEpi &blk) {
  if (g.K == 0) {
    strided Z{g.M, g.N, 0, nullptr, 0, 0, nullptr, 0, 0, g.C, g.cm, g.cn, g.beta0};
    return empty_k(Z, epi, blk);
  }
  float *Bs = scratch<float, 5>(size_t(g.bcol ? g.N : 1));
  b_scales(P, g, Bs);
  const blocks Q = qblocks(Bl);
  switch (P) {
#if RL_X86
  case path::amx:
#ifdef RL_AMX_OS
    if (amx::takes(g))
      return amx::gemm<word::u8x4>(g, Q, Bs, epi, blk);
#endif
    return qgemm_blocked<qfamily<word::u8x4, qMR, qNR, 16, k_vnni>>(path::vnni, g, Q, Bs, epi,
                                                                    blk);
  case path::vnni:
    return qgemm_blocked<qfamily<word::u8x4, qMR, qNR, 16, k_vnni>>(P, g, Q, Bs, epi, blk);
  case path::avx512:
    return qgemm_blocked<qfamily<word::i16x2, qMR, qNR, 16, k_i16_avx512>>(P, g, Q, Bs, epi,
                                                                          blk);
  case path::avx2:
    return qgemm_blocked<qfamily<word::i16x2, 6, 16, 8, k_i16_avx2>>(P, g, Q, Bs, epi, blk);
#endif
  default:
    return qgemm_blocked<qfamily<word::i16x2, qMR, qNRp, qNRp, k_i16_portable>>(
        path::portable, g, Q, Bs, epi, blk);
  }
}

/// A bf16 gemm (A: prepared bf16; B rounded here) on path amx, bf16,
/// avx512 or portable.
template <typename Epi, typename BlockEpi>
void bf16gemm(path P, const qproblem &g, const blocks &Bl, const Epi &epi,
              const BlockEpi &blk) {
  if (g.K == 0) {
    strided Z{g.M, g.N, 0, nullptr, 0, 0, nullptr, 0, 0, g.C, g.cm, g.cn, g.beta0};
    return empty_k(Z, epi, blk);
  }
  if (P == path::amx) {
    // Small problems too: on AMX CPUs vdpbf16ps is slow (Sapphire Rapids:
    // the 64^3 small path at 0.7x fp32, AMX at 1.5x). AMX CPUs have
    // AVX512-BF16 for the rest (rl::amx_usable checks).
#ifdef RL_AMX_OS
    const float One = 1.0f;
    if (amx::takes(g))
      return amx::gemm<word::bf16x2>(g, qblocks(Bl), &One, epi, blk);
#endif
    P = path::bf16;
  }
  if (small_enough(g)) {
    const bf16_words Bw = bf16_words_of(P, g);
    switch (P) {
#if RL_X86
#if RL_HAVE_BF16
    case path::bf16:
      return small_bf16<qMR, qNR, 16>(g, Bw, epi, [](auto R, auto NV, auto... X) {
        direct_bf16<decltype(R)::value, decltype(NV)::value, true>(X...);
      });
#endif
    case path::avx512: // 4 rows: 16 sums, 8 widened B vectors and 2 of A
      return small_bf16<4, qNR, 16>(g, Bw, epi, [](auto R, auto NV, auto... X) {
        direct_bf16<decltype(R)::value, decltype(NV)::value, false>(X...);
      });
#endif
    default:
      return small_bf16<qMR, qNRp, qNRp>(g, Bw, epi, [](auto, auto, auto... X) {
        direct_bf16_portable<qMR, qNRp>(X...);
      });
    }
  }
  const float One = 1.0f;
  const blocks Q = qblocks(Bl);
  switch (P) {
#if RL_X86
#if RL_HAVE_BF16
  case path::bf16:
    return qgemm_blocked<qfamily<word::bf16x2, qMR, qNR, 16, k_bf16>>(P, g, Q, &One, epi, blk);
#endif
  case path::avx512:
    return qgemm_blocked<qfamily<word::bf16x2, qMR, qNR, 16, k_bf16_avx512>>(P, g, Q, &One,
                                                                            epi, blk);
#endif
  default:
    return qgemm_blocked<qfamily<word::bf16x2, qMR, qNRp, qNRp, k_bf16_portable>>(
        path::portable, g, Q, &One, epi, blk);
  }
}

//===----------------------------------------------------------------------===//
// Quantized convolutions: the int8 and bf16 gemms above on an im2col copy
// of the input made on each call (docs/codegen.md, "Convolutions"). The f32
// implicit gemm gathers its B panels through offset tables; the quantized
// drivers quantize (or round) B while they pack it from a strided matrix,
// and the im2col copy is that matrix: zero where a window leaves the input
// (zero padding is applied here, once per element, not per MAC).
//===----------------------------------------------------------------------===//

/// A quantized implicit gemm: C(i, j) = C[i*cm + cn[j]], A(i, k) =
/// A[i*am + ak[k]] (the prepared weights: int8 with a scale per row, or
/// bf16), B(k, j) = B[bk[k] + bn[j]] where every padded coordinate
/// pk[k*D + d] + pn[j*D + d] is in [0, lim[d]), else 0.
struct qconv {
  int64_t M, N, K;
  const void *A;
  int64_t am;
  const int64_t *ak;
  const float *as; ///< int8: the scale of row i at as[i * as_m]
  int64_t as_m;
  const float *B;
  const int64_t *bk, *bn;
  float *C;
  int64_t cm;
  const int64_t *cn;
  bool beta0;
  int D; ///< padded window dimensions (0: none)
  const int64_t *pk, *pn, *lim;
};

/// The common stride of \p T[0..n) (T[x] == x * stride) in \p Stride, or
/// false when the offsets are not affine.
inline bool affine_offsets(const int64_t *T, int64_t n, int64_t &Stride) {
  Stride = n > 1 ? T[1] - T[0] : 1;
  if (n > 0 && T[0] != 0)
    return false;
  for (int64_t x = 0; x < n; ++x)
    if (T[x] != x * Stride)
      return false;
  return true;
}

/// Whether B(k, j) is inside the input: each padded coordinate in
/// [0, lim) (one unsigned compare each; D a constant where it is 1 or 2).
template <int D>
inline bool inside(const int64_t *Pk, const int64_t *Pn, const int64_t *Lim, int Dyn) {
  bool In = true;
  const int N = D > 0 ? D : Dyn;
  for (int d = 0; d < N; ++d)
    In &= uint64_t(Pk[d] + Pn[d]) < uint64_t(Lim[d]);
  return In;
}

/// One row k of the padded im2col view: a load only where B(k, j) is
/// inside (the row's base, B itself, is read in its place), zero elsewhere.
template <int D> inline void im2col_row(const qconv &g, int64_t k, float *Row) {
  const float *Src = g.B + g.bk[k];
  const int64_t *Pk = g.pk + k * g.D;
  for (int64_t j = 0; j < g.N; ++j) {
    const bool In = inside<D>(Pk, g.pn + j * g.D, g.lim, g.D);
    const float X = Src[In ? g.bn[j] : -g.bk[k]];
    Row[j] = In ? X : 0.0f;
  }
}

/// The input's K x N im2col view, rows contiguous, zero where a padded
/// coordinate leaves the input.
inline void im2col(const qconv &g, float *Bf) {
  for (int64_t k = 0; k < g.K; ++k) {
    float *Row = Bf + k * g.N;
    const float *Src = g.B + g.bk[k];
    if (g.D == 0) {
      for (int64_t j = 0; j < g.N; ++j)
        Row[j] = Src[g.bn[j]];
    } else if (g.D == 2) {
      im2col_row<2>(g, k, Row);
    } else if (g.D == 1) {
      im2col_row<1>(g, k, Row);
    } else {
      im2col_row<0>(g, k, Row);
    }
  }
}

/// An int8 (\p Int8) or bf16 convolution on path \p P: the input's im2col
/// copy quantized (or rounded) by i8gemm / bf16gemm as their B, the
/// weights as their A (copied dense first when their offsets are not a
/// stride), C straight when its offsets are a stride, else through a
/// buffer merged after.
inline void qconvolve(path P, const qconv &g, const blocks &Bl, bool Int8) {
  float *Bf = scratch<float, 10>(size_t(std::max<int64_t>(g.K * g.N, 1)));
  im2col(g, Bf);
  const void *A = g.A;
  int64_t ak = 1;
  if (!affine_offsets(g.ak, g.K, ak)) {
    const size_t E = Int8 ? 1 : 2;
    unsigned char *Dense =
        scratch<unsigned char, 11>(size_t(std::max<int64_t>(g.M * g.K, 1)) * E);
    for (int64_t i = 0; i < g.M; ++i)
      for (int64_t k = 0; k < g.K; ++k)
        std::memcpy(Dense + (i * g.K + k) * E,
                    static_cast<const unsigned char *>(g.A) + (i * g.am + g.ak[k]) * int64_t(E),
                    E);
    A = Dense;
    ak = 1;
  }
  const int64_t am = A == g.A ? g.am : g.K;
  int64_t cn = 1;
  const bool Direct = affine_offsets(g.cn, g.N, cn);
  float *C = Direct ? g.C : scratch<float, 12>(size_t(std::max<int64_t>(g.M * g.N, 1)));
  const qproblem q{g.M, g.N, g.K, A, am, ak, g.as, g.as_m, Bf, g.N, 1, false,
                   C, Direct ? g.cm : g.N, Direct ? cn : 1, Direct ? g.beta0 : true};
  if (Int8)
    i8gemm(P, q, Bl, no_epi(), no_block_epi());
  else
    bf16gemm(P, q, Bl, no_epi(), no_block_epi());
  if (Direct)
    return;
  for (int64_t i = 0; i < g.M; ++i)
    for (int64_t j = 0; j < g.N; ++j) {
      float &X = g.C[i * g.cm + g.cn[j]];
      X = (g.beta0 ? 0.0f : X) + C[i * g.N + j];
    }
}

} // namespace gemm
} // namespace rl

#endif // ROOFLINE_GEMM_H
