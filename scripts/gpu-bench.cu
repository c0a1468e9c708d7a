// gpu-bench.cu - times the CUDA variants' device entries beside cuBLAS and
// measures the DRAM roof (docs/cuda.md). scripts/gpu-check.py builds it
// with a generated table of the emitted units (gpu-bench-table.h), with nvcc
// on a GPU machine, or with g++ under roofline_cuda_shim.h (RL_CUDA_SHIM,
// RL_SHIM_CUBLAS) to test the script on the CPU.
//
//   gpu-bench probe                       device JSON, or exit 3 "no CUDA device: ..."
//   gpu-bench list                        the table: one JSON line per unit
//   gpu-bench roof [--mib=N] [--reps=R]   DRAM roof: device-to-device copy of N MiB
//   gpu-bench time UNIT [NAME=VALUE ...] [--reps=R] [--only=a,b]
//
// Timing: each variant (and baseline) gets C copies of all its buffers,
// C = 1 when one set exceeds twice the L2, else enough sets to cover twice
// the L2 (at most 64, and half the free memory): the runs rotate through
// them, so that a working set that would fit in L2 (a 16 MB int8 gemv on a
// 50 MB L2) is still read from DRAM. Every copy is filled with random
// non-zero values and prepared once (a variant's prepare entry: the
// weights' int8/bf16 copy); then 2 warm-up runs, then R runs each between
// two cudaEvents; the median, minimum and maximum are reported. cuBLAS runs
// with TF32 off (CUBLAS_PEDANTIC_MATH for SGEMM/SGEMV); int8 as the TN
// gemm cuBLAS supports (B^T stored N x K, as the int8 variants keep it).

#if defined(RL_CUDA_SHIM)
#define RL_SHIM_CUBLAS // the shim's cuBLAS calls (roofline_cuda_shim.h)
#endif
#include "roofline_cuda.h"
#if !defined(RL_CUDA_SHIM)
#include <cublas_v2.h>
#endif

#include <algorithm>
#include <cstring>
#include <functional>
#include <random>
#include <string>
#include <vector>

namespace bench {

typedef void (*entry)(void *const *, const int64_t *);
typedef std::vector<int64_t> (*shape_fn)(const int64_t *);
typedef double (*count_fn)(const int64_t *);
enum elem { f32, i8, i32, bf16, f64 };

// Every field is a constructor argument: a table entry that leaves one out
// does not compile (an earlier table left two null, and the benchmark
// called a null function pointer).
struct arg {
  const char *name;
  elem type;
  shape_fn shape;
  bool scalar;
  bool compulsory; ///< read or written from outside (not a temporary)
  int replaces;    ///< a prepared copy of this unit argument (-1: none):
                   ///< the timed entry reads the copy instead
  arg(const char *N, elem T, shape_fn S, bool Sc, bool C, int R)
      : name(N), type(T), shape(S), scalar(Sc), compulsory(C), replaces(R) {}
};
struct variant {
  const char *name;
  entry dev, prepare;
  std::vector<arg> extra;
  variant(const char *N, entry D, entry P, std::vector<arg> E)
      : name(N), dev(D), prepare(P), extra(std::move(E)) {}
};
struct unit {
  const char *name;
  const char *baseline; ///< "sgemm", "sgemv" or "" (none)
  std::vector<const char *> sizes;
  std::vector<int64_t> defaults;
  std::vector<arg> args;
  std::vector<variant> variants;
  double flops_per_iteration; ///< 2 for a multiply-add nest; 0: not counted
  count_fn iterations;        ///< of the counted nest (the contraction)
  unit(const char *N, const char *B, std::vector<const char *> S, std::vector<int64_t> D,
       std::vector<arg> A, std::vector<variant> V, double F, count_fn I)
      : name(N), baseline(B), sizes(std::move(S)), defaults(std::move(D)), args(std::move(A)),
        variants(std::move(V)), flops_per_iteration(F), iterations(I) {}
};

} // namespace bench

#include "gpu-bench-table.h" // bench::units()

namespace {

size_t sizeOf(bench::elem E) {
  switch (E) {
  case bench::f32: case bench::i32: return 4;
  case bench::i8: return 1;
  case bench::bf16: return 2;
  case bench::f64: return 8;
  }
  return 4;
}

size_t count(const bench::arg &A, const int64_t *S) {
  if (A.scalar)
    return 1;
  size_t N = 1;
  for (int64_t E : A.shape(S))
    N *= size_t(std::max<int64_t>(E, 0));
  return N;
}

size_t bytesOf(const bench::arg &A, const int64_t *S) { return count(A, S) * sizeOf(A.type); }

/// Random non-zero values of \p A's type, on the host.
std::vector<unsigned char> randomHost(bench::elem T, size_t N, std::mt19937 &G) {
  std::vector<unsigned char> H(std::max<size_t>(N * sizeOf(T), 16));
  std::uniform_real_distribution<float> U(0.1f, 1.0f);
  for (size_t I = 0; I < N; ++I) {
    float V = U(G) * (G() & 1 ? 1.f : -1.f);
    if (T == bench::f32) {
      std::memcpy(&H[I * 4], &V, 4);
    } else if (T == bench::i8) {
      H[I] = (unsigned char)(int8_t(V * 100));
    } else if (T == bench::i32) {
      int X = int(V * 100);
      std::memcpy(&H[I * 4], &X, 4);
    } else if (T == bench::bf16) {
      uint32_t X;
      std::memcpy(&X, &V, 4);
      uint16_t Hi = uint16_t(X >> 16);
      std::memcpy(&H[I * 2], &Hi, 2);
    } else {
      double D = V;
      std::memcpy(&H[I * 8], &D, 8);
    }
  }
  return H;
}

/// Buffers of one argument set, C copies of each (the rotation).
struct sets {
  std::vector<std::vector<void *>> P; ///< [copy][buffer]
  ~sets() {
    for (auto &S : P)
      for (void *X : S)
        cudaFree(X);
  }
};

/// Copies of a working set of \p W bytes so that the rotation covers twice
/// the L2 (at most 64, and half the free device memory).
int copiesFor(size_t W) {
  int Dev = 0, L2 = 0;
  size_t Free = 0, Total = 0;
  RL_CUDA(cudaGetDevice(&Dev));
  RL_CUDA(cudaDeviceGetAttribute(&L2, cudaDevAttrL2CacheSize, Dev));
  RL_CUDA(cudaMemGetInfo(&Free, &Total));
  W = std::max<size_t>(W, 1);
  size_t C = W >= 2 * size_t(L2) ? 1 : (2 * size_t(L2)) / W + 1;
  C = std::min<size_t>(C, 64);
  C = std::min<size_t>(C, std::max<size_t>(1, (Free / 2) / W));
  return int(C);
}

/// C copies of buffers of these types and element counts, random.
void fill(sets &S, int C, const std::vector<std::pair<bench::elem, size_t>> &Bufs, unsigned Seed) {
  std::mt19937 G(Seed);
  S.P.assign(size_t(C), {});
  for (int K = 0; K < C; ++K)
    for (size_t B = 0; B < Bufs.size(); ++B) {
      size_t Bytes = std::max<size_t>(Bufs[B].second * sizeOf(Bufs[B].first), 16);
      void *D = nullptr;
      RL_CUDA(cudaMalloc(&D, Bytes));
      if (K == 0) {
        std::vector<unsigned char> H = randomHost(Bufs[B].first, Bufs[B].second, G);
        RL_CUDA(cudaMemcpy(D, H.data(), Bytes, cudaMemcpyHostToDevice));
      } else {
        RL_CUDA(cudaMemcpy(D, S.P[0][B], Bytes, cudaMemcpyDeviceToDevice));
      }
      S.P[size_t(K)].push_back(D);
    }
  RL_CUDA(cudaDeviceSynchronize());
}

struct timing {
  double median = 0, min = 0, max = 0;
  int reps = 0;
};

/// Fn(copy) timed: 2 warm-up runs, then Reps runs between cudaEvents,
/// rotating through C copies.
timing timeRotated(int C, const std::function<void(int)> &Fn, int Reps) {
  for (int K = 0; K < 2; ++K)
    Fn(K % C);
  RL_CUDA(cudaDeviceSynchronize());
  cudaEvent_t A, B;
  RL_CUDA(cudaEventCreate(&A));
  RL_CUDA(cudaEventCreate(&B));
  std::vector<double> T;
  for (int K = 0; K < Reps; ++K) {
    RL_CUDA(cudaEventRecord(A));
    Fn((K + 2) % C);
    RL_CUDA(cudaEventRecord(B));
    RL_CUDA(cudaEventSynchronize(B));
    float Ms = 0;
    RL_CUDA(cudaEventElapsedTime(&Ms, A, B));
    T.push_back(Ms * 1e-3);
  }
  RL_CUDA(cudaGetLastError());
  RL_CUDA(cudaEventDestroy(A));
  RL_CUDA(cudaEventDestroy(B));
  std::sort(T.begin(), T.end());
  return {T[T.size() / 2], T.front(), T.back(), Reps};
}

std::string sizesJSON(const bench::unit &U, const std::vector<int64_t> &S) {
  std::string J = "{";
  for (size_t K = 0; K < U.sizes.size(); ++K)
    J += std::string(K ? ", " : "") + "\"" + U.sizes[K] + "\": " + std::to_string(S[K]);
  return J + "}";
}

void report(const bench::unit &U, const std::vector<int64_t> &S, const char *Name,
            const char *Kind, const timing &T, int Copies, double Flops, double Bytes,
            const char *Note = "") {
  double M = T.median;
  std::printf("{\"unit\": \"%s\", \"variant\": \"%s\", \"kind\": \"%s\", \"sizes\": %s, "
              "\"median_s\": %.9g, \"min_s\": %.9g, \"max_s\": %.9g, \"reps\": %d, "
              "\"copies\": %d, \"flops\": %.9g, \"bytes\": %.9g, \"gflops\": %.6g, "
              "\"gbytes_per_s\": %.6g, \"note\": \"%s\"}\n",
              U.name, Name, Kind, sizesJSON(U, S).c_str(), M, T.min, T.max, T.reps, Copies,
              Flops, Bytes, M > 0 ? Flops / M * 1e-9 : 0.0, M > 0 ? Bytes / M * 1e-9 : 0.0,
              Note);
  std::fflush(stdout);
}

bool cublasOk(cublasStatus_t St, const char *What) {
  if (St == CUBLAS_STATUS_SUCCESS)
    return true;
  std::fprintf(stderr, "gpu-bench: %s: cuBLAS status %d\n", What, int(St));
  return false;
}

/// One variant: its own rotation of the unit's arguments and its extras.
bool timeVariant(const bench::unit &U, const bench::variant &V, const std::vector<int64_t> &S,
                 int Reps, double Flops) {
  std::vector<std::pair<bench::elem, size_t>> Bufs;
  std::vector<bool> Replaced(U.args.size(), false);
  size_t W = 0;
  double Traffic = 0;
  for (const bench::arg &A : U.args)
    Bufs.push_back({A.type, count(A, S.data())});
  for (const bench::arg &E : V.extra) {
    Bufs.push_back({E.type, count(E, S.data())});
    if (E.replaces >= 0 && size_t(E.replaces) < Replaced.size())
      Replaced[size_t(E.replaces)] = true;
  }
  for (size_t B = 0; B < Bufs.size(); ++B)
    W += Bufs[B].second * sizeOf(Bufs[B].first);
  // The timed entry's traffic: the unit's arguments it reads or writes (a
  // prepared copy instead of the argument it replaces), and its own.
  for (size_t K = 0; K < U.args.size(); ++K)
    if (U.args[K].compulsory && !Replaced[K])
      Traffic += double(bytesOf(U.args[K], S.data()));
  for (const bench::arg &E : V.extra)
    Traffic += double(bytesOf(E, S.data()));
  int C = copiesFor(W);
  sets Sets;
  fill(Sets, C, Bufs, 42);
  if (V.prepare)
    for (int K = 0; K < C; ++K)
      V.prepare(Sets.P[size_t(K)].data(), S.data());
  RL_CUDA(cudaDeviceSynchronize());
  timing T = timeRotated(C, [&](int K) { V.dev(Sets.P[size_t(K)].data(), S.data()); }, Reps);
  report(U, S, V.name, "variant", T, C, Flops, Traffic);
  return true;
}

int sizeNamed(const bench::unit &U, const std::vector<int64_t> &S, const char *Name) {
  for (size_t K = 0; K < U.sizes.size(); ++K)
    if (std::strcmp(U.sizes[K], Name) == 0)
      return int(S[K]);
  return 0;
}

/// cuBLAS beside the variants (row-major problems mapped onto column-major
/// calls): SGEMM, bf16 and int8 GemmEx at the unit's gemm shape; SGEMV.
bool timeBaselines(const bench::unit &U, const std::vector<int64_t> &S, int Reps, double Flops) {
  std::string B = U.baseline;
  if (B.empty())
    return true;
  cublasHandle_t H;
  if (!cublasOk(cublasCreate(&H), "cublasCreate"))
    return false;
  bool Ok = true;
  if (B == "sgemm") {
    int M = sizeNamed(U, S, "M"), N = sizeNamed(U, S, "N"), K = sizeNamed(U, S, "K");
    size_t Mn = size_t(M) * N, Mk = size_t(M) * K, Kn = size_t(K) * N;
    const float One = 1, Zero = 0;
    const int IOne = 1, IZero = 0;
    Ok &= cublasOk(cublasSetMathMode(H, CUBLAS_PEDANTIC_MATH), "cublasSetMathMode"); // no TF32
    {
      // C (M x N) = A (M x K) B (K x N), row-major: column-major C^T = B^T A^T.
      std::vector<std::pair<bench::elem, size_t>> Bufs = {
          {bench::f32, Mn}, {bench::f32, Mk}, {bench::f32, Kn}};
      int C = copiesFor(4 * (Mn + Mk + Kn));
      sets St;
      fill(St, C, Bufs, 7);
      timing T = timeRotated(C, [&](int X) {
        auto &P = St.P[size_t(X)];
        Ok &= cublasOk(cublasSgemm(H, CUBLAS_OP_N, CUBLAS_OP_N, N, M, K, &One, (float *)P[2], N,
                                   (float *)P[1], K, &Zero, (float *)P[0], N), "cublasSgemm");
      }, Reps);
      report(U, S, "cublasSgemm", "baseline", T, C, Flops, 4.0 * double(Mn + Mk + Kn),
             "TF32 off (CUBLAS_PEDANTIC_MATH)");
    }
    Ok &= cublasOk(cublasSetMathMode(H, CUBLAS_DEFAULT_MATH), "cublasSetMathMode");
    {
      std::vector<std::pair<bench::elem, size_t>> Bufs = {
          {bench::f32, Mn}, {bench::bf16, Mk}, {bench::bf16, Kn}};
      int C = copiesFor(4 * Mn + 2 * (Mk + Kn));
      sets St;
      fill(St, C, Bufs, 8);
      timing T = timeRotated(C, [&](int X) {
        auto &P = St.P[size_t(X)];
        Ok &= cublasOk(cublasGemmEx(H, CUBLAS_OP_N, CUBLAS_OP_N, N, M, K, &One, P[2], CUDA_R_16BF,
                                    N, P[1], CUDA_R_16BF, K, &Zero, P[0], CUDA_R_32F, N,
                                    CUBLAS_COMPUTE_32F, CUBLAS_GEMM_DEFAULT),
                       "cublasGemmEx bf16");
      }, Reps);
      report(U, S, "cublasGemmEx-bf16", "baseline", T, C, Flops,
             4.0 * double(Mn) + 2.0 * double(Mk + Kn), "bf16 in, f32 out");
    }
    {
      // int8 as the TN gemm: Bq = B^T (N x K) is column-major K x N, op T;
      // A (M x K) row-major is column-major K x M, op N.
      std::vector<std::pair<bench::elem, size_t>> Bufs = {
          {bench::i32, Mn}, {bench::i8, Mk}, {bench::i8, Kn}};
      int C = copiesFor(4 * Mn + Mk + Kn);
      sets St;
      fill(St, C, Bufs, 9);
      bool Supported = true;
      timing T = timeRotated(C, [&](int X) {
        auto &P = St.P[size_t(X)];
        Supported &= cublasOk(cublasGemmEx(H, CUBLAS_OP_T, CUBLAS_OP_N, N, M, K, &IOne, P[2],
                                           CUDA_R_8I, K, P[1], CUDA_R_8I, K, &IZero, P[0],
                                           CUDA_R_32I, N, CUBLAS_COMPUTE_32I,
                                           CUBLAS_GEMM_DEFAULT),
                              "cublasGemmEx int8");
      }, Reps);
      if (Supported)
        report(U, S, "cublasGemmEx-int8", "baseline", T, C, Flops,
               4.0 * double(Mn) + double(Mk + Kn), "int8 in (TN), int32 out");
      else
        std::fprintf(stderr, "gpu-bench: cublasGemmEx int8 is not supported at %d x %d x %d\n",
                     M, N, K);
      Ok &= Supported;
    }
  } else if (B == "sgemv") {
    // y = A x, A row-major M x K: column-major A^T (K x M), op T.
    int M = sizeNamed(U, S, "M"), K = sizeNamed(U, S, "K");
    const float One = 1, Zero = 0;
    Ok &= cublasOk(cublasSetMathMode(H, CUBLAS_PEDANTIC_MATH), "cublasSetMathMode");
    std::vector<std::pair<bench::elem, size_t>> Bufs = {
        {bench::f32, size_t(M)}, {bench::f32, size_t(M) * K}, {bench::f32, size_t(K)}};
    int C = copiesFor(4 * (size_t(M) + size_t(M) * K + K));
    sets St;
    fill(St, C, Bufs, 10);
    timing T = timeRotated(C, [&](int X) {
      auto &P = St.P[size_t(X)];
      Ok &= cublasOk(cublasSgemv(H, CUBLAS_OP_T, K, M, &One, (float *)P[1], K, (float *)P[2], 1,
                                 &Zero, (float *)P[0], 1), "cublasSgemv");
    }, Reps);
    report(U, S, "cublasSgemv", "baseline", T, C, Flops,
           4.0 * (double(M) + double(M) * K + K));
  }
  cublasDestroy(H);
  return Ok;
}

const char *option(int Argc, char **Argv, const char *Name) {
  size_t L = std::strlen(Name);
  for (int I = 2; I < Argc; ++I)
    if (std::strncmp(Argv[I], Name, L) == 0 && Argv[I][L] == '=')
      return Argv[I] + L + 1;
  return nullptr;
}

int list() {
  for (const bench::unit &U : bench::units()) {
    std::printf("{\"unit\": \"%s\", \"baseline\": \"%s\", \"sizes\": [", U.name, U.baseline);
    for (size_t K = 0; K < U.sizes.size(); ++K)
      std::printf("%s\"%s\"", K ? ", " : "", U.sizes[K]);
    std::printf("], \"args\": [");
    for (size_t K = 0; K < U.args.size(); ++K)
      std::printf("%s\"%s\"", K ? ", " : "", U.args[K].name);
    std::printf("], \"flops_at_defaults\": %.9g, \"variants\": [",
                U.flops_per_iteration * U.iterations(U.defaults.data()));
    for (size_t V = 0; V < U.variants.size(); ++V) {
      const bench::variant &X = U.variants[V];
      std::printf("%s{\"name\": \"%s\", \"prepare\": %s, \"extra\": [", V ? ", " : "", X.name,
                  X.prepare ? "true" : "false");
      for (size_t E = 0; E < X.extra.size(); ++E)
        std::printf("%s{\"name\": \"%s\", \"replaces\": %d}", E ? ", " : "", X.extra[E].name,
                    X.extra[E].replaces);
      std::printf("]}");
    }
    std::printf("]}\n");
  }
  return 0;
}

/// The DRAM roof: a device-to-device copy of \p MiB (read and written).
int roof(int Argc, char **Argv) {
  const char *Mib = option(Argc, Argv, "--mib");
  const char *R = option(Argc, Argv, "--reps");
  size_t Bytes = size_t(Mib ? std::atoll(Mib) : 1024) << 20;
  int Reps = R ? std::max(1, std::atoi(R)) : 20;
  void *X, *Y;
  RL_CUDA(cudaMalloc(&X, Bytes));
  RL_CUDA(cudaMalloc(&Y, Bytes));
  RL_CUDA(cudaMemset(X, 1, Bytes));
  timing T = timeRotated(1, [&](int) {
    RL_CUDA(cudaMemcpyAsync(Y, X, Bytes, cudaMemcpyDeviceToDevice));
  }, Reps);
  std::printf("{\"roof\": \"cudaMemcpy-d2d\", \"bytes\": %.9g, \"median_s\": %.9g, \"min_s\": "
              "%.9g, \"max_s\": %.9g, \"gbytes_per_s\": %.6g}\n",
              2.0 * double(Bytes), T.median, T.min, T.max, 2.0 * double(Bytes) / T.median * 1e-9);
  RL_CUDA(cudaFree(X));
  RL_CUDA(cudaFree(Y));
  return 0;
}

} // namespace

int main(int Argc, char **Argv) {
  int N = 0;
  cudaError_t E = cudaGetDeviceCount(&N);
  if (E != cudaSuccess || N == 0) {
    std::printf("no CUDA device: %s\n",
                E != cudaSuccess ? cudaGetErrorString(E) : "cudaGetDeviceCount found 0");
    return 3;
  }
  std::string Cmd = Argc >= 2 ? Argv[1] : "";
  if (Cmd == "probe") {
    cudaDeviceProp P;
    RL_CUDA(cudaGetDeviceProperties(&P, 0));
    std::printf("{\"device\": \"%s\", \"sm\": %d%d, \"sms\": %d, \"l2_bytes\": %d, "
                "\"memory_bytes\": %zu}\n",
                P.name, P.major, P.minor, P.multiProcessorCount, P.l2CacheSize,
                P.totalGlobalMem);
    return 0;
  }
  if (Cmd == "list")
    return list();
  if (Cmd == "roof")
    return roof(Argc, Argv);
  if (Cmd != "time" || Argc < 3) {
    std::fprintf(stderr, "usage: gpu-bench probe | list | roof [--mib=N] [--reps=R] | time "
                         "UNIT [NAME=VALUE ...] [--reps=R] [--only=a,b]\n");
    return 2;
  }
  const bench::unit *U = nullptr;
  for (const bench::unit &X : bench::units())
    if (std::strcmp(X.name, Argv[2]) == 0)
      U = &X;
  if (!U) {
    std::fprintf(stderr, "gpu-bench: no unit '%s'\n", Argv[2]);
    return 2;
  }
  std::vector<int64_t> S = U->defaults;
  const char *R = option(Argc, Argv, "--reps");
  const char *Only = option(Argc, Argv, "--only");
  int Reps = R ? std::max(1, std::atoi(R)) : 20;
  for (int I = 3; I < Argc; ++I) {
    std::string A = Argv[I];
    size_t Eq = A.find('=');
    if (A.rfind("--", 0) == 0 || Eq == std::string::npos)
      continue;
    bool Known = false;
    for (size_t K = 0; K < U->sizes.size(); ++K)
      if (A.substr(0, Eq) == U->sizes[K]) {
        S[K] = std::atoll(A.c_str() + Eq + 1);
        Known = true;
      }
    if (!Known) {
      std::fprintf(stderr, "gpu-bench: %s has no size '%s'\n", U->name, A.substr(0, Eq).c_str());
      return 2;
    }
  }
  auto Wanted = [&](const char *Name) {
    if (!Only)
      return true;
    std::string L = std::string(",") + Only + ",";
    return L.find(std::string(",") + Name + ",") != std::string::npos;
  };
  double Flops = U->flops_per_iteration * U->iterations(S.data());
  bool Ok = true;
  for (const bench::variant &V : U->variants)
    if (Wanted(V.name))
      Ok &= timeVariant(*U, V, S, Reps, Flops);
  if (Wanted("cublas"))
    Ok &= timeBaselines(*U, S, Reps, Flops);
  return Ok ? 0 : 1;
}
