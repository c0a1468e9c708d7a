// gpu-bench.cu - times the CUDA variants' device entries against cuBLAS and
// a device-to-device copy (scripts/gpu-check.py builds it with a generated
// table of the emitted units, gpu-bench-table.h).
//
//   gpu-bench probe                      exit 3 with "no CUDA device: ..." when none
//   gpu-bench time UNIT NAME=VALUE ...   one JSON line per variant and baseline
//
// Device-resident random non-zero inputs; each variant's prepare runs once
// (the weights' quantized copy), then warm-up runs, then --reps timed runs
// with cudaEvents; the median is reported. cuBLAS runs with TF32 off
// (CUBLAS_PEDANTIC_MATH for SGEMM/SGEMV).

#include "roofline_cuda.h"

#include <cublas_v2.h>

#include <algorithm>
#include <cstring>
#include <functional>
#include <map>
#include <random>
#include <string>
#include <vector>

namespace bench {

typedef void (*entry)(void *const *, const int64_t *);
enum elem { f32, i8, i32, bf16, f64 };
struct arg {
  const char *name;
  elem type;
  std::vector<int64_t> (*shape)(const int64_t *);
  bool scalar;
  bool compulsory; ///< read or written from outside (not a temporary)
};
struct variant {
  const char *name;
  entry dev, prepare;
  std::vector<arg> extra;
};
struct unit {
  const char *name;
  const char *baseline; ///< "sgemm", "sgemv", "copy" or ""
  std::vector<const char *> sizes;
  std::vector<int64_t> defaults;
  std::vector<arg> args;
  std::vector<variant> variants;
  double flops_per_iteration; ///< 2 for a MAC nest
  std::string (*iterations)(const int64_t *);
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

void *randomDevice(const bench::arg &A, const int64_t *S, std::mt19937 &G) {
  size_t N = count(A, S), B = N * sizeOf(A.type);
  std::vector<unsigned char> H(std::max<size_t>(B, 16));
  std::uniform_real_distribution<float> U(0.1f, 1.0f);
  for (size_t I = 0; I < N; ++I) {
    float V = U(G) * (G() & 1 ? 1.f : -1.f);
    if (A.type == bench::f32)
      std::memcpy(&H[I * 4], &V, 4);
    else if (A.type == bench::i8)
      H[I] = (unsigned char)(int8_t(V * 100));
    else if (A.type == bench::i32) {
      int X = int(V * 100);
      std::memcpy(&H[I * 4], &X, 4);
    } else if (A.type == bench::bf16) {
      uint32_t X;
      std::memcpy(&X, &V, 4);
      uint16_t Hi = uint16_t(X >> 16);
      std::memcpy(&H[I * 2], &Hi, 2);
    } else {
      double D = V;
      std::memcpy(&H[I * 8], &D, 8);
    }
  }
  void *D = nullptr;
  RL_CUDA(cudaMalloc(&D, std::max<size_t>(B, 16)));
  RL_CUDA(cudaMemcpy(D, H.data(), B, cudaMemcpyHostToDevice));
  return D;
}

/// Median of Reps timed runs of Fn after Warm untimed ones (seconds).
double timeIt(const std::function<void()> &Fn, int Warm, int Reps) {
  for (int I = 0; I < Warm; ++I)
    Fn();
  RL_CUDA(cudaDeviceSynchronize());
  cudaEvent_t A, B;
  RL_CUDA(cudaEventCreate(&A));
  RL_CUDA(cudaEventCreate(&B));
  std::vector<double> T;
  for (int I = 0; I < Reps; ++I) {
    RL_CUDA(cudaEventRecord(A));
    Fn();
    RL_CUDA(cudaEventRecord(B));
    RL_CUDA(cudaEventSynchronize(B));
    float Ms = 0;
    RL_CUDA(cudaEventElapsedTime(&Ms, A, B));
    T.push_back(Ms * 1e-3);
  }
  RL_CUDA(cudaEventDestroy(A));
  RL_CUDA(cudaEventDestroy(B));
  std::sort(T.begin(), T.end());
  return T[T.size() / 2];
}

void report(const char *Unit, const char *Name, const char *Kind, double S,
            double Flops, double Bytes, const char *Note = "") {
  std::printf("{\"unit\": \"%s\", \"variant\": \"%s\", \"kind\": \"%s\", \"median_s\": %.9g, "
              "\"gflops\": %.6g, \"gbytes_per_s\": %.6g, \"note\": \"%s\"}\n",
              Unit, Name, Kind, S, S > 0 ? Flops / S * 1e-9 : 0.0,
              S > 0 ? Bytes / S * 1e-9 : 0.0, Note);
  std::fflush(stdout);
}

#define CUBLAS(call)                                                          \
  do {                                                                        \
    cublasStatus_t St_ = (call);                                              \
    if (St_ != CUBLAS_STATUS_SUCCESS) {                                       \
      std::fprintf(stderr, "cublas: %s: status %d\n", #call, int(St_));       \
      Ok = false;                                                             \
    }                                                                         \
  } while (0)

} // namespace

int main(int Argc, char **Argv) {
  int N = 0;
  cudaError_t E = cudaGetDeviceCount(&N);
  if (E != cudaSuccess || N == 0) {
    std::printf("no CUDA device: %s\n",
                E != cudaSuccess ? cudaGetErrorString(E) : "cudaGetDeviceCount found 0");
    return 3;
  }
  if (Argc >= 2 && std::strcmp(Argv[1], "probe") == 0) {
    cudaDeviceProp P;
    RL_CUDA(cudaGetDeviceProperties(&P, 0));
    std::printf("{\"device\": \"%s\", \"sm\": %d%d}\n", P.name, P.major, P.minor);
    return 0;
  }
  if (Argc < 3 || std::strcmp(Argv[1], "time") != 0) {
    std::fprintf(stderr, "usage: gpu-bench probe | time UNIT [NAME=VALUE ...] [--reps=R]\n");
    return 2;
  }
  const bench::unit *U = nullptr;
  for (const bench::unit &X : bench::units())
    if (std::strcmp(X.name, Argv[2]) == 0)
      U = &X;
  if (!U) {
    std::fprintf(stderr, "no unit '%s'\n", Argv[2]);
    return 2;
  }
  std::vector<int64_t> S = U->defaults;
  int Reps = 20, Warm = 3;
  for (int I = 3; I < Argc; ++I) {
    std::string A = Argv[I];
    if (A.rfind("--reps=", 0) == 0) {
      Reps = std::max(1, std::atoi(A.c_str() + 7));
      continue;
    }
    size_t Eq = A.find('=');
    for (size_t K = 0; Eq != std::string::npos && K < U->sizes.size(); ++K)
      if (A.substr(0, Eq) == U->sizes[K])
        S[K] = std::atoll(A.c_str() + Eq + 1);
  }
  std::mt19937 G(42);
  std::vector<void *> Args;
  double Bytes = 0;
  for (const bench::arg &A : U->args) {
    Args.push_back(randomDevice(A, S.data(), G));
    if (A.compulsory)
      Bytes += double(count(A, S.data())) * sizeOf(A.type);
  }
  double Flops = U->flops_per_iteration * std::atof(U->iterations(S.data()).c_str());
  for (const bench::variant &V : U->variants) {
    std::vector<void *> All = Args;
    for (const bench::arg &A : V.extra)
      All.push_back(randomDevice(A, S.data(), G));
    if (V.prepare) {
      V.prepare(All.data(), S.data());
      RL_CUDA(cudaDeviceSynchronize());
    }
    double T = timeIt([&] { V.dev(All.data(), S.data()); }, Warm, Reps);
    report(U->name, V.name, "variant", T, Flops, Bytes);
    for (size_t I = Args.size(); I < All.size(); ++I)
      RL_CUDA(cudaFree(All[I]));
  }
  // Baselines on the unit's own buffers (standard row-major layouts only).
  cublasHandle_t H;
  bool Ok = true;
  if (cublasCreate(&H) != CUBLAS_STATUS_SUCCESS) {
    std::fprintf(stderr, "cublasCreate failed\n");
    return 1;
  }
  std::string B = U->baseline;
  auto sz = [&](const char *Name) {
    for (size_t K = 0; K < U->sizes.size(); ++K)
      if (std::strcmp(U->sizes[K], Name) == 0)
        return int(S[K]);
    return 0;
  };
  if (B == "sgemm") {
    // C (MxN) = A (MxK) B (KxN), row-major: column-major C^T = B^T A^T.
    int M = sz("M"), Nn = sz("N"), K = sz("K");
    const float One = 1, Zero = 0;
    float *A = (float *)Args[1], *Bm = (float *)Args[2], *C = (float *)Args[0];
    CUBLAS(cublasSetMathMode(H, CUBLAS_PEDANTIC_MATH)); // no TF32
    double T = timeIt([&] {
      CUBLAS(cublasSgemm(H, CUBLAS_OP_N, CUBLAS_OP_N, Nn, M, K, &One, Bm, Nn, A, K, &Zero, C, Nn));
    }, Warm, Reps);
    report(U->name, "cublasSgemm", "baseline", T, Flops, Bytes, "TF32 off (CUBLAS_PEDANTIC_MATH)");
    CUBLAS(cublasSetMathMode(H, CUBLAS_DEFAULT_MATH));
    // int8 x int8 -> int32 and bf16 x bf16 -> f32 on copies of the same shapes.
    bench::arg A8{"A8", bench::i8, nullptr, false, false}, B8 = A8, C32{"C32", bench::i32, nullptr, false, false};
    void *Da, *Db, *Dc;
    RL_CUDA(cudaMalloc(&Da, size_t(M) * K * 2));
    RL_CUDA(cudaMalloc(&Db, size_t(K) * Nn * 2));
    RL_CUDA(cudaMalloc(&Dc, size_t(M) * Nn * 4));
    RL_CUDA(cudaMemset(Da, 1, size_t(M) * K * 2));
    RL_CUDA(cudaMemset(Db, 1, size_t(K) * Nn * 2));
    (void)A8, (void)B8, (void)C32;
    const int IOne = 1, IZero = 0;
    bool Ok8 = true;
    {
      bool Before = Ok;
      double T8 = timeIt([&] {
        CUBLAS(cublasGemmEx(H, CUBLAS_OP_N, CUBLAS_OP_N, Nn, M, K, &IOne, Db, CUDA_R_8I, Nn, Da,
                            CUDA_R_8I, K, &IZero, Dc, CUDA_R_32I, Nn, CUBLAS_COMPUTE_32I,
                            CUBLAS_GEMM_DEFAULT));
      }, 1, Reps);
      Ok8 = Ok;
      Ok = Before;
      if (Ok8)
        report(U->name, "cublasGemmEx-int8", "baseline", T8, Flops, Bytes, "int8 in, int32 out");
      else
        report(U->name, "cublasGemmEx-int8", "baseline", 0, 0, 0, "unsupported for these sizes");
    }
    double T16 = timeIt([&] {
      CUBLAS(cublasGemmEx(H, CUBLAS_OP_N, CUBLAS_OP_N, Nn, M, K, &One, Db, CUDA_R_16BF, Nn, Da,
                          CUDA_R_16BF, K, &Zero, Dc, CUDA_R_32F, Nn, CUBLAS_COMPUTE_32F,
                          CUBLAS_GEMM_DEFAULT));
    }, Warm, Reps);
    report(U->name, "cublasGemmEx-bf16", "baseline", T16, Flops, Bytes, "bf16 in, f32 out");
    RL_CUDA(cudaFree(Da));
    RL_CUDA(cudaFree(Db));
    RL_CUDA(cudaFree(Dc));
  } else if (B == "sgemv") {
    // y = A x, A row-major MxK: column-major A^T (KxM), op T.
    int M = sz("M"), K = sz("K");
    const float One = 1, Zero = 0;
    CUBLAS(cublasSetMathMode(H, CUBLAS_PEDANTIC_MATH));
    double T = timeIt([&] {
      CUBLAS(cublasSgemv(H, CUBLAS_OP_T, K, M, &One, (float *)Args[1], K, (float *)Args[2], 1,
                         &Zero, (float *)Args[0], 1));
    }, Warm, Reps);
    report(U->name, "cublasSgemv", "baseline", T, Flops, Bytes);
  }
  // The bandwidth bar: a device-to-device copy of the compulsory bytes
  // (half read, half written).
  {
    size_t Half = size_t(Bytes / 2);
    void *X, *Y;
    RL_CUDA(cudaMalloc(&X, std::max<size_t>(Half, 16)));
    RL_CUDA(cudaMalloc(&Y, std::max<size_t>(Half, 16)));
    double T = timeIt([&] { RL_CUDA(cudaMemcpyAsync(Y, X, Half, cudaMemcpyDeviceToDevice)); },
                      Warm, Reps);
    report(U->name, "cudaMemcpy-d2d", "baseline", T, 0, 2.0 * double(Half), "copy bandwidth");
    RL_CUDA(cudaFree(X));
    RL_CUDA(cudaFree(Y));
  }
  cublasDestroy(H);
  for (void *P : Args)
    RL_CUDA(cudaFree(P));
  return Ok ? 0 : 1;
}
