// roofline_harness.h - the check and timing driver of an emitted unit.
//
// A unit's driver.cpp describes its sizes, arguments and variants and calls
// rl::harness::run(). Entry points are weak symbols: a variant whose file
// did not build is reported as absent and the others still run.
//
//   driver check [--seed=S] [--only=a,b] [NAME=VALUE ...]
//     random non-zero inputs, outputs poisoned (NaN, or a pattern for
//     integers), every variant against the reference in double precision:
//     |out - ref| <= atol + (rtol + rtol_per_term * terms) * magnitude, per
//     element, plus an int8 variant's quantization bound (struct
//     tolerance); NaN never passes. One JSON line per variant.
//   driver time VARIANT [--reps=R] [--min-time=SECONDS] [--buffers=B]
//                [NAME=VALUE ...]
//     warm-up, then repetitions until both R and the minimum time are
//     reached, rotating among B copies of the arguments; one JSON line with
//     the median, minimum and maximum seconds. A variant with its own timer
//     (CUDA: cudaEvents around the device entry, data resident on the
//     device) is timed by it instead ("clock": "device").

#ifndef ROOFLINE_HARNESS_H
#define ROOFLINE_HARNESS_H

#include "roofline_kernel.h"

#include <chrono>
#include <cinttypes>
#include <cmath>
#include <cstdio>
#include <cstring>
#include <limits>
#include <random>
#include <string>
#include <vector>

namespace rl {
namespace harness {

typedef void (*entry)(void *const *, const int64_t *);
/// A variant's own timer (CUDA: the device entry on device-resident data,
/// cudaEvents; roofline_cuda_host.h host_time): NSets prepared argument
/// sets, the sizes, at least Reps runs and MinTime seconds; writes each
/// run's seconds into Times (at most Cap) and the argument copies it
/// rotated among into Copies; returns the count (<= 0: failed).
typedef int (*timer_entry)(void *const *const *Sets, int NSets,
                           const int64_t *Sizes, int Reps, double MinTime,
                           double *Times, int Cap, int *Copies);

enum type { f64, f32, bf16, f16, i8, u8, i16, i32, u32, i64, u64 };
enum intent { in, out, inout, temp };

inline size_t type_size(type T) {
  switch (T) {
  case f64: case i64: case u64: return 8;
  case f32: case i32: case u32: return 4;
  case bf16: case f16: case i16: return 2;
  case i8: case u8: return 1;
  }
  return 1;
}
inline bool is_float(type T) { return T == f64 || T == f32 || T == bf16 || T == f16; }

inline double load(type T, const void *P, size_t I) {
  switch (T) {
  case f64: return static_cast<const double *>(P)[I];
  case f32: return static_cast<const float *>(P)[I];
  case bf16: return float(static_cast<const rl::bf16 *>(P)[I]);
  case f16: return static_cast<double>(static_cast<const _Float16 *>(P)[I]);
  case i8: return static_cast<const signed char *>(P)[I];
  case u8: return static_cast<const unsigned char *>(P)[I];
  case i16: return static_cast<const int16_t *>(P)[I];
  case i32: return static_cast<const int32_t *>(P)[I];
  case u32: return static_cast<const uint32_t *>(P)[I];
  case i64: return static_cast<double>(static_cast<const int64_t *>(P)[I]);
  case u64: return static_cast<double>(static_cast<const uint64_t *>(P)[I]);
  }
  return 0;
}

inline void store(type T, void *P, size_t I, double V) {
  switch (T) {
  case f64: static_cast<double *>(P)[I] = V; break;
  case f32: static_cast<float *>(P)[I] = static_cast<float>(V); break;
  case bf16: static_cast<rl::bf16 *>(P)[I] = rl::bf16(static_cast<float>(V)); break;
  case f16: static_cast<_Float16 *>(P)[I] = static_cast<_Float16>(V); break;
  case i8: static_cast<signed char *>(P)[I] = static_cast<signed char>(V); break;
  case u8: static_cast<unsigned char *>(P)[I] = static_cast<unsigned char>(V); break;
  case i16: static_cast<int16_t *>(P)[I] = static_cast<int16_t>(V); break;
  case i32: static_cast<int32_t *>(P)[I] = static_cast<int32_t>(V); break;
  case u32: static_cast<uint32_t *>(P)[I] = static_cast<uint32_t>(V); break;
  case i64: static_cast<int64_t *>(P)[I] = static_cast<int64_t>(V); break;
  case u64: static_cast<uint64_t *>(P)[I] = static_cast<uint64_t>(V); break;
  }
}

struct size_desc {
  const char *name;
  int64_t value;
  bool fixed;
};

struct arg_desc {
  const char *name;
  type t;
  intent i;
  bool scalar;
  std::vector<int64_t> (*shape)(const int64_t *sizes);
};

/// An int8 variant's operands (docs/codegen.md, `quantization`): L and R
/// are quantized symmetrically, x ~ q * s with s = max|x| / 127 over the
/// scale's group and q = round(x / s), so |x - q s| <= s / 2. The groups
/// of an operand: the elements that agree on every axis marked in its
/// mask (row: all but the reduction axis; tensor: none).
struct quant_desc {
  int l = -1, r = -1;             ///< argument indices; -1: not quantized
  std::vector<bool> l_axes, r_axes; ///< per axis: the scale varies along it
};

/// |out - ref| <= atol + (rtol + rtol_per_term * terms) * (magnitude + Q)
///                + Q,
/// Q = 0 unless quant names operands; then Q is the quantization bound of
/// the element: sum over the terms of (|l| s_r + |r| s_l) / 2 + s_l s_r / 4.
struct tolerance {
  double rtol, rtol_per_term, atol;
  quant_desc quant = {};
};

struct variant_desc {
  const char *name;
  entry fn;
  entry prepare;
  std::vector<arg_desc> extra; ///< the variant's own arrays, after the unit's
  std::vector<const char *> skip; ///< outputs it does not produce
  tolerance tol;
  timer_entry timer = nullptr; ///< else timed here, around fn
  /// A library baseline's own account of how it runs (the kernel OpenBLAS
  /// or BLIS picked for this CPU), printed with its check result.
  std::string library;
};

struct unit_desc {
  const char *name;
  std::vector<size_desc> sizes;
  std::vector<arg_desc> args;
  std::vector<variant_desc> variants;
  entry reference;  ///< double precision (floating arrays as double)
  entry magnitude;  ///< |.| form, same arguments as the reference
};

/// Variants linked in from outside the unit (roofline-run's library
/// baselines, e.g. OpenBLAS) add themselves here. Weak: a driver linked
/// without them has none.
extern "C" void rl_harness_extra_variants(unit_desc *U) __attribute__((weak));

inline size_t elements(const arg_desc &A, const int64_t *S) {
  if (A.scalar)
    return 1;
  size_t N = 1;
  for (int64_t E : A.shape(S))
    N *= static_cast<size_t>(E > 0 ? E : 0);
  return N;
}

/// One argument's storage, in its own type or as doubles.
struct buf {
  type t;
  std::vector<unsigned char> bytes;
  size_t n = 0;
  void alloc(type T, size_t N) {
    t = T;
    n = N;
    bytes.assign(std::max<size_t>(N, 1) * type_size(T) + 64, 0);
  }
  void *data() { return bytes.data(); }
  double get(size_t I) const { return load(t, bytes.data(), I); }
  void set(size_t I, double V) { store(t, bytes.data(), I, V); }
};

inline double poison_value(type T) {
  return is_float(T) ? std::numeric_limits<double>::quiet_NaN() : 91.0;
}

struct rng {
  std::mt19937_64 g;
  explicit rng(uint64_t S) : g(S) {}
  /// Non-zero: +-[0.1, 1] for floating data, +-[1, 9] for integers.
  double value(type T) {
    std::uniform_real_distribution<double> U(0.1, 1.0);
    double Sign = (g() & 1) ? 1.0 : -1.0;
    if (is_float(T))
      return Sign * U(g);
    return Sign * static_cast<double>(1 + g() % 9);
  }
};

inline bool parse_sizes(const unit_desc &U, int Argc, char **Argv, int First,
                        std::vector<int64_t> &S) {
  for (const size_desc &D : U.sizes)
    S.push_back(D.value);
  for (int I = First; I < Argc; ++I) {
    const char *Eq = std::strchr(Argv[I], '=');
    if (!Eq || Argv[I][0] == '-')
      continue;
    std::string Name(Argv[I], static_cast<size_t>(Eq - Argv[I]));
    bool Found = false;
    for (size_t K = 0; K < U.sizes.size(); ++K)
      if (Name == U.sizes[K].name) {
        int64_t V = std::strtoll(Eq + 1, nullptr, 10);
        if (U.sizes[K].fixed && V != U.sizes[K].value) {
          std::fprintf(stderr, "size %s is fixed at %" PRId64 "\n",
                       U.sizes[K].name, U.sizes[K].value);
          return false;
        }
        S[K] = V;
        Found = true;
      }
    if (!Found) {
      std::fprintf(stderr, "unknown size '%s'\n", Name.c_str());
      return false;
    }
  }
  return true;
}

inline const char *option(int Argc, char **Argv, const char *Name) {
  size_t L = std::strlen(Name);
  for (int I = 1; I < Argc; ++I)
    if (std::strncmp(Argv[I], Name, L) == 0 && Argv[I][L] == '=')
      return Argv[I] + L + 1;
  return nullptr;
}

inline void print_sizes(const unit_desc &U, const std::vector<int64_t> &S) {
  std::printf("\"sizes\": {");
  for (size_t K = 0; K < S.size(); ++K)
    std::printf("%s\"%s\": %" PRId64, K ? ", " : "", U.sizes[K].name, S[K]);
  std::printf("}");
}

/// Arguments for a run: the unit's, then \p Extra.
struct arg_set {
  std::vector<buf> b;
  std::vector<void *> p;
  void finish() {
    p.clear();
    for (buf &X : b)
      p.push_back(X.data());
  }
};

inline void fill_inputs(const std::vector<arg_desc> &Args, const int64_t *S,
                        uint64_t Seed, arg_set &A) {
  rng R(Seed);
  A.b.resize(Args.size());
  for (size_t K = 0; K < Args.size(); ++K) {
    const arg_desc &D = Args[K];
    A.b[K].alloc(D.t, elements(D, S));
    for (size_t I = 0; I < A.b[K].n; ++I) {
      double V = R.value(D.t);
      A.b[K].set(I, (D.i == out || D.i == temp) ? poison_value(D.t) : V);
    }
  }
  A.finish();
}

/// \p From with floating arrays as double (integers keep their type);
/// \p Ones: floating values replaced by 1 (NaN kept).
inline arg_set as_double(const unit_desc &U, const arg_set &From, bool Ones) {
  arg_set D;
  D.b.resize(U.args.size());
  for (size_t K = 0; K < U.args.size(); ++K) {
    type T = is_float(U.args[K].t) ? f64 : U.args[K].t;
    D.b[K].alloc(T, From.b[K].n);
    for (size_t I = 0; I < From.b[K].n; ++I) {
      double V = From.b[K].get(I);
      D.b[K].set(I, Ones && is_float(U.args[K].t) && !std::isnan(V) ? 1.0 : V);
    }
  }
  D.finish();
  return D;
}

/// Each element's int8 scale, max|x| / 127 over its group, as the kernel
/// computes it from \p In (a mask that does not fit the shape: one group,
/// whose scale is at least every finer group's, so the bound stays sound).
/// Rounded up by 2^-14: the kernel's scale is an f32 quotient (2^-24 off),
/// and round(x / s) sees the f32 rounding of x / s, at most 127 * 2^-24,
/// so |x - q s| <= (1/2 + 2^-17) s.
inline std::vector<double> quant_scales(const unit_desc &U, const arg_set &In,
                                        const int64_t *S, int K,
                                        const std::vector<bool> &Axes) {
  const buf &B = In.b[static_cast<size_t>(K)];
  std::vector<int64_t> Shape = U.args[static_cast<size_t>(K)].scalar
                                   ? std::vector<int64_t>{}
                                   : U.args[static_cast<size_t>(K)].shape(S);
  bool Fits = Axes.size() == Shape.size();
  std::vector<size_t> Group(B.n, 0);
  size_t Groups = 1;
  if (Fits) {
    for (size_t I = 0; I < B.n; ++I) {
      size_t Rest = I, G = 0, Radix = 1;
      for (size_t P = Shape.size(); P-- > 0;) {
        size_t E = static_cast<size_t>(std::max<int64_t>(Shape[P], 1));
        size_t C = Rest % E;
        Rest /= E;
        if (Axes[P]) {
          G += C * Radix;
          Radix *= E;
        }
      }
      Group[I] = G;
      Groups = std::max(Groups, Radix);
    }
  }
  std::vector<double> Max(Groups, 0.0);
  for (size_t I = 0; I < B.n; ++I)
    Max[Group[I]] = std::max(Max[Group[I]], std::fabs(B.get(I)));
  std::vector<double> Scale(B.n);
  const double Up = 1 + std::ldexp(1.0, -14);
  for (size_t I = 0; I < B.n; ++I)
    Scale[I] = std::max(Max[Group[I]], 1e-30) / 127 * Up;
  return Scale;
}

/// Q of every output element (struct tolerance), per argument: the
/// magnitude form run with (|l|, s_r), (s_l, |r|) and (s_l, s_r) in place
/// of the operands, less its value with both operands zero (what the
/// other arguments, an accumulated output or an epilogue, contribute).
/// Empty when it cannot be computed.
inline std::vector<std::vector<double>>
quant_bound(const unit_desc &U, const quant_desc &Q, const arg_set &In,
            const int64_t *S) {
  std::vector<std::vector<double>> Out;
  int NArgs = static_cast<int>(U.args.size());
  if (!U.magnitude || Q.l < 0 || Q.r < 0 || Q.l >= NArgs || Q.r >= NArgs ||
      Q.l == Q.r)
    return Out;
  std::vector<double> SL = quant_scales(U, In, S, Q.l, Q.l_axes),
                      SR = quant_scales(U, In, S, Q.r, Q.r_axes);
  auto Run = [&](const std::vector<double> *L, const std::vector<double> *R) {
    arg_set A = as_double(U, In, false);
    buf &BL = A.b[static_cast<size_t>(Q.l)], &BR = A.b[static_cast<size_t>(Q.r)];
    for (size_t I = 0; I < BL.n; ++I)
      BL.set(I, L ? (*L)[I] : 0.0);
    for (size_t I = 0; I < BR.n; ++I)
      BR.set(I, R ? (*R)[I] : 0.0);
    U.magnitude(A.p.data(), S);
    return A;
  };
  std::vector<double> AL(SL.size()), AR(SR.size());
  for (size_t I = 0; I < AL.size(); ++I)
    AL[I] = std::fabs(In.b[static_cast<size_t>(Q.l)].get(I));
  for (size_t I = 0; I < AR.size(); ++I)
    AR[I] = std::fabs(In.b[static_cast<size_t>(Q.r)].get(I));
  arg_set G0 = Run(nullptr, nullptr), G1 = Run(&AL, &SR), G2 = Run(&SL, &AR),
          G3 = Run(&SL, &SR);
  Out.resize(U.args.size());
  for (size_t K = 0; K < U.args.size(); ++K) {
    if (U.args[K].i == in || U.args[K].i == temp || !is_float(U.args[K].t))
      continue;
    Out[K].resize(G0.b[K].n);
    for (size_t I = 0; I < G0.b[K].n; ++I) {
      double Z = G0.b[K].get(I);
      auto D = [&](const arg_set &G) {
        double V = G.b[K].get(I) - Z;
        return std::isnan(V) || V < 0 ? 0.0 : V;
      };
      // Each difference is a sum of non-negative terms computed in double:
      // 2^-40 of it covers its rounding.
      Out[K][I] = (0.5 * (D(G1) + D(G2)) + 0.25 * D(G3)) *
                  (1 + std::ldexp(1.0, -40));
    }
  }
  return Out;
}

inline int check(const unit_desc &U, int Argc, char **Argv) {
  std::vector<int64_t> S;
  if (!parse_sizes(U, Argc, Argv, 2, S))
    return 2;
  const char *SeedOpt = option(Argc, Argv, "--seed");
  uint64_t Seed = SeedOpt ? std::strtoull(SeedOpt, nullptr, 10) : 1;
  const char *Only = option(Argc, Argv, "--only");
  if (!U.reference) {
    std::fprintf(stderr, "the reference is missing\n");
    return 2;
  }
  arg_set In;
  fill_inputs(U.args, S.data(), Seed, In);
  // The reference and the magnitudes in double (integers keep their type).
  arg_set Ref = as_double(U, In, false);
  U.reference(Ref.p.data(), S.data());
  arg_set Mag = as_double(U, In, false), Terms = as_double(U, In, true);
  if (U.magnitude) {
    U.magnitude(Mag.p.data(), S.data());
    U.magnitude(Terms.p.data(), S.data());
  }
  int Failed = 0;
  for (const variant_desc &V : U.variants) {
    if (Only && !std::strstr(Only, V.name))
      continue;
    std::printf("{\"unit\": \"%s\", \"variant\": \"%s\", ", U.name, V.name);
    print_sizes(U, S);
    if (!V.fn) {
      std::printf(", \"ok\": false, \"error\": \"not built\"}\n");
      ++Failed;
      continue;
    }
    std::vector<std::vector<double>> QB;
    if (V.tol.quant.l >= 0 || V.tol.quant.r >= 0) {
      QB = quant_bound(U, V.tol.quant, In, S.data());
      if (QB.empty()) {
        std::printf(", \"ok\": false, \"error\": \"no int8 bound (the "
                    "magnitude form or an operand is missing)\"}\n");
        ++Failed;
        continue;
      }
    }
    arg_set A;
    fill_inputs(U.args, S.data(), Seed, A);
    for (const arg_desc &E : V.extra) {
      buf X;
      X.alloc(E.t, elements(E, S.data()));
      for (size_t I = 0; I < X.n; ++I)
        X.set(I, poison_value(E.t));
      A.b.push_back(std::move(X));
    }
    A.finish();
    if (V.prepare)
      V.prepare(A.p.data(), S.data());
    V.fn(A.p.data(), S.data());
    double Worst = 0;
    size_t Checked = 0, Bad = 0;
    std::string First;
    for (size_t K = 0; K < U.args.size(); ++K) {
      const arg_desc &D = U.args[K];
      if (D.i == in || D.i == temp)
        continue;
      bool Skip = false;
      for (const char *X : V.skip)
        Skip |= std::strcmp(X, D.name) == 0;
      if (Skip)
        continue;
      for (size_t I = 0; I < A.b[K].n; ++I) {
        double Got = A.b[K].get(I), Want = Ref.b[K].get(I);
        double M = U.magnitude ? Mag.b[K].get(I) : std::fabs(Want);
        double T = U.magnitude ? std::max(1.0, Terms.b[K].get(I)) : 1.0;
        double Q = K < QB.size() && I < QB[K].size() ? QB[K][I] : 0.0;
        double Bound =
            V.tol.atol + (V.tol.rtol + V.tol.rtol_per_term * T) * (M + Q) + Q;
        double Err = std::fabs(Got - Want);
        ++Checked;
        // NaN fails, except an element the reference leaves poisoned (the
        // nest never writes it) that the variant leaves poisoned too.
        bool Untouched = std::isnan(Want) && std::isnan(Got) &&
                         std::isnan(In.b[K].get(I));
        bool Ok = Err <= Bound || Untouched;
        if (Untouched)
          Err = 0;
        if (!Ok) {
          if (!Bad) {
            char Msg[256];
            std::snprintf(Msg, sizeof Msg, "%s[%zu] = %.9g, want %.9g (bound %.3g)",
                          D.name, I, Got, Want, Bound);
            First = Msg;
          }
          ++Bad;
        }
        double Ratio = Bound > 0 ? Err / Bound : (Err > 0 ? 1e30 : 0);
        if (Ok && Ratio > Worst)
          Worst = Ratio;
      }
    }
    std::printf(", \"ok\": %s, \"checked\": %zu, \"bad\": %zu, \"max_ratio\": "
                "%.3g, \"seed\": %" PRIu64,
                Bad ? "false" : "true", Checked, Bad, Worst, Seed);
    if (Bad)
      std::printf(", \"first\": \"%s\"", First.c_str());
    if (!V.library.empty())
      std::printf(", \"library\": \"%s\"", V.library.c_str());
    std::printf("}\n");
    Failed += Bad != 0;
  }
  std::fflush(stdout);
  return Failed ? 1 : 0;
}

inline int time(const unit_desc &U, int Argc, char **Argv) {
  if (Argc < 3) {
    std::fprintf(stderr, "usage: driver time VARIANT [options] [NAME=VALUE]\n");
    return 2;
  }
  const variant_desc *V = nullptr;
  for (const variant_desc &X : U.variants)
    if (std::strcmp(X.name, Argv[2]) == 0)
      V = &X;
  if (!V || !V->fn) {
    std::fprintf(stderr, "no variant '%s' built\n", Argv[2]);
    return 2;
  }
  std::vector<int64_t> S;
  if (!parse_sizes(U, Argc, Argv, 3, S))
    return 2;
  const char *R = option(Argc, Argv, "--reps"), *T = option(Argc, Argv, "--min-time"),
             *B = option(Argc, Argv, "--buffers");
  int Reps = R ? std::atoi(R) : 5;
  double MinTime = T ? std::atof(T) : 0.2;
  int Buffers = B ? std::max(1, std::atoi(B)) : 1;
  std::vector<arg_set> Sets(static_cast<size_t>(Buffers));
  for (int K = 0; K < Buffers; ++K) {
    fill_inputs(U.args, S.data(), 1 + K, Sets[K]);
    for (const arg_desc &E : V->extra) {
      buf X;
      X.alloc(E.t, elements(E, S.data()));
      Sets[K].b.push_back(std::move(X));
    }
    Sets[K].finish();
    if (V->prepare)
      V->prepare(Sets[K].p.data(), S.data());
  }
  std::vector<double> Times;
  const char *Clock = "host";
  if (V->timer) {
    std::vector<void *const *> P;
    for (arg_set &A : Sets)
      P.push_back(A.p.data());
    Times.resize(100000);
    int Copies = Buffers;
    int N = V->timer(P.data(), Buffers, S.data(), Reps, MinTime, Times.data(),
                     static_cast<int>(Times.size()), &Copies);
    if (N <= 0) {
      std::fprintf(stderr, "the timer of '%s' failed\n", V->name);
      return 1;
    }
    Times.resize(static_cast<size_t>(N));
    Buffers = Copies;
    Clock = "device";
  } else {
    V->fn(Sets[0].p.data(), S.data()); // warm-up
  }
  double Total = 0;
  for (int K = 0; !V->timer && (static_cast<int>(Times.size()) < Reps || Total < MinTime); ++K) {
    arg_set &A = Sets[static_cast<size_t>(K % Buffers)];
    auto T0 = std::chrono::steady_clock::now();
    V->fn(A.p.data(), S.data());
    auto T1 = std::chrono::steady_clock::now();
    double Sec = std::chrono::duration<double>(T1 - T0).count();
    Times.push_back(Sec);
    Total += Sec;
    if (Times.size() > 100000)
      break;
  }
  std::vector<double> Sorted = Times;
  std::sort(Sorted.begin(), Sorted.end());
  double Median = Sorted[Sorted.size() / 2];
  if (Sorted.size() % 2 == 0)
    Median = 0.5 * (Sorted[Sorted.size() / 2 - 1] + Sorted[Sorted.size() / 2]);
  std::printf("{\"unit\": \"%s\", \"variant\": \"%s\", ", U.name, V->name);
  print_sizes(U, S);
  std::printf(", \"reps\": %zu, \"median_s\": %.9g, \"min_s\": %.9g, \"max_s\": "
              "%.9g, \"q1_s\": %.9g, \"q3_s\": %.9g, \"buffers\": %d, \"clock\": \"%s\"}\n",
              Sorted.size(), Median, Sorted.front(), Sorted.back(),
              Sorted[Sorted.size() / 4], Sorted[(3 * Sorted.size()) / 4], Buffers,
              Clock);
  return 0;
}

inline int run(const unit_desc &Unit, int Argc, char **Argv) {
  unit_desc U = Unit;
  if (rl_harness_extra_variants)
    rl_harness_extra_variants(&U);
  if (Argc >= 2 && std::strcmp(Argv[1], "check") == 0)
    return check(U, Argc, Argv);
  if (Argc >= 2 && std::strcmp(Argv[1], "time") == 0)
    return time(U, Argc, Argv);
  if (Argc >= 2 && std::strcmp(Argv[1], "list") == 0) {
    for (const variant_desc &V : U.variants)
      std::printf("%s%s\n", V.name, V.fn ? "" : " (not built)");
    return 0;
  }
  std::fprintf(stderr, "usage: %s check|time|list ...\n", Argv[0]);
  return 2;
}

} // namespace harness
} // namespace rl

#endif // ROOFLINE_HARNESS_H
