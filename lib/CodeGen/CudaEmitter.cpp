//===- CudaEmitter.cpp - CUDA variants, launchers and the CUDA driver -----===//

#include "roofline/CodeGen/CudaEmitter.h"

#include "roofline/Transform/Contraction.h"
#include "roofline/Transform/Transforms.h"
#include "roofline/Support/Error.h"

#include "llvm/ADT/StringExtras.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/FormatVariadic.h"
#include "llvm/Support/raw_ostream.h"

#include <algorithm>
#include <cassert>
#include <set>

using namespace roofline;

namespace {


/// A bound as host/device C (rl::min, rl::max, rl::floordiv of
/// roofline_cuda.h): the CPU emitter's spelling.
std::string boundC(const Bound &B) { return cBound(B); }

/// Variant names as C identifiers ("smem-tiled" -> "smem_tiled").
std::string symbolPart(const std::string &Name) {
  std::string S = Name;
  std::replace(S.begin(), S.end(), '-', '_');
  return S;
}

std::string deviceType(const ArgInfo &A) {
  return cTypeFor(A.CType, EmitMode::AsWritten);
}

std::string elementsOf(const ArgInfo &A) {
  if (A.IsScalar || A.Shape.empty())
    return "1";
  std::string S;
  for (const AffineExpr &E : A.Shape)
    S += (S.empty() ? "" : " * ") + parenthesized(cExpr(E));
  return S;
}

/// Everything a variant file needs about the unit: sizes and arguments.
struct Context {
  const UnitOut &U;
  std::vector<ArgInfo> Args; ///< the unit's args, then the variant's extras

  std::string sizeDecls() const {
    std::string S;
    for (size_t I = 0; I < U.Layout.Sizes.size(); ++I)
      S += "  const int64_t " + U.Layout.Sizes[I].Name + " = rl_sizes[" +
           std::to_string(I) + "]; (void)" + U.Layout.Sizes[I].Name + ";\n";
    return S;
  }
  std::string argDecls() const {
    std::string S;
    for (size_t I = 0; I < Args.size(); ++I)
      S += "  " + deviceType(Args[I]) + " *" + Args[I].Name + " = static_cast<" +
           deviceType(Args[I]) + " *>(rl_args[" + std::to_string(I) +
           "]); (void)" + Args[I].Name + ";\n";
    return S;
  }
  /// The host entry: copies every argument to the device, calls \p Dev,
  /// copies back what it may write.
  std::string hostEntry(const std::string &Sym, const std::string &Dev) const {
    std::string S = "RL_EXPORT void " + Sym +
                    "(void *const *rl_args, const int64_t *rl_sizes) {\n" +
                    sizeDecls() + "  const size_t rl_bytes[] = {";
    for (size_t I = 0; I < Args.size(); ++I)
      S += std::string(I ? ", " : "") + "sizeof(" + deviceType(Args[I]) +
           ") * size_t(" + elementsOf(Args[I]) + ")";
    S += "};\n  const bool rl_back[] = {";
    for (size_t I = 0; I < Args.size(); ++I)
      S += std::string(I ? ", " : "") +
           (Args[I].Intent == ArgInfo::In && !Args[I].Prepared ? "false"
                                                               : "true");
    S += "};\n  rl::cuda::host_call(" + std::to_string(Args.size()) +
         ", rl_args, rl_bytes, rl_back, rl_sizes, " + Dev + ");\n}\n";
    return S;
  }
  /// The timer (the harness's timer_entry): \p Dev on device-resident
  /// copies of the host argument sets, cudaEvents around each call, so
  /// the copies are not timed.
  std::string timerEntry(const std::string &Sym, const std::string &Dev) const {
    std::string S = "RL_EXPORT int " + Sym +
                    "(void *const *const *rl_sets, int rl_nsets, const int64_t "
                    "*rl_sizes, int rl_reps, double rl_min_time, double *rl_times, "
                    "int rl_cap, int *rl_copies) {\n" +
                    sizeDecls() + "  const size_t rl_bytes[] = {";
    for (size_t I = 0; I < Args.size(); ++I)
      S += std::string(I ? ", " : "") + "sizeof(" + deviceType(Args[I]) +
           ") * size_t(" + elementsOf(Args[I]) + ")";
    S += "};\n  return rl::cuda::host_time(" + std::to_string(Args.size()) +
         ", rl_sets, rl_nsets, rl_bytes, rl_sizes, " + Dev +
         ", rl_reps, rl_min_time, rl_times, rl_cap, rl_copies);\n}\n";
    return S;
  }
};

/// The store functor: the output access of the contraction (overwrite, or
/// accumulate when the source does not clear it first), then the epilogue
/// statements of a fused nest, from the IR.
llvm::Expected<std::string> storeFunctor(const Context &X,
                                         const ContractionInfo &C,
                                         const LoopNest &Nest) {
  const ArgInfo *Out = X.U.Layout.find(C.Out.Array);
  if (!Out || deviceType(*Out) != "float")
    return makeError("the output '" + C.Out.Array + "' is not a float array");
  std::optional<AffineExpr> SM = C.Out.strideOf(Nest, C.M);
  std::optional<AffineExpr> SN =
      C.N.empty() ? AffineExpr(0) : C.Out.strideOf(Nest, C.N);
  if (!SM || !SN)
    return makeError("the output's strides are not affine in the sizes");
  // File-local (anonymous namespace): the kernel templates instantiated
  // with it differ per variant, and variants link into one driver.
  std::string S = "namespace {\nstruct rl_store {\n";
  for (const Param &P : X.U.Layout.Sizes)
    S += "  int64_t " + P.Name + ";\n";
  for (const ArgInfo &A : X.U.Layout.Args)
    S += "  " + deviceType(A) + " *" + A.Name + ";\n";
  S += "  __device__ __forceinline__ void operator()(int64_t rl_i, int64_t rl_j, "
       "float rl_acc) const {\n    (void)rl_j;\n";
  S += "    " + C.Out.Array + "[rl_i * " + parenthesized(cExpr(*SM)) + " + rl_j * " +
       parenthesized(cExpr(*SN)) + "] " + (C.InitZero ? "=" : "+=") + " rl_acc;\n";
  if (!C.Epilogue.empty()) {
    // The epilogue runs at the output's (i, j): single-iteration loops over
    // the source's own loop variables let the CPU emitter write it.
    KernelNest K;
    K.Nest = Nest;
    Loop Li;
    Li.IV = C.M;
    Li.First = Li.Last = Bound::single(AffineExpr::var("rl_i"));
    Loop Lj;
    if (!C.N.empty()) {
      Lj.IV = C.N;
      Lj.First = Lj.Last = Bound::single(AffineExpr::var("rl_j"));
      for (const Stmt &St : C.Epilogue)
        Lj.Body.push_back(Node::stmt(St));
      Li.Body.push_back(Node::loop(std::move(Lj)));
    } else {
      for (const Stmt &St : C.Epilogue)
        Li.Body.push_back(Node::stmt(St));
    }
    K.Nest.Root = std::move(Li);
    llvm::Expected<std::string> Code = emitLoopCode(K, X.U.Layout, {}, 2);
    if (!Code)
      return Code.takeError();
    S += "    // epilogue (fused from the next nest)\n" + *Code;
  }
  S += "  }\n};\n} // namespace\n\n";
  return S;
}

std::string storeInit(const Context &X) {
  std::string S = "  rl_store rl_st{";
  std::vector<std::string> F;
  for (const Param &P : X.U.Layout.Sizes)
    F.push_back(P.Name);
  for (const ArgInfo &A : X.U.Layout.Args)
    F.push_back(A.Name);
  return S + llvm::join(F, ", ") + "};\n";
}

std::string header(const UnitOut &U, const std::string &V,
                   const std::vector<std::string> &Notes) {
  std::string S = "// " + U.Name + ", CUDA variant " + V +
                  " (generated by roofline-lint --emit --target=cuda; do not "
                  "edit).\n";
  for (const std::string &N : Notes)
    S += "// " + N + "\n";
  return S + "#include \"roofline_cuda.h\"\n\n";
}

/// Contraction facts the gemm/gemv variants need, checked once.
struct Plan {
  ContractionInfo C;
  LoopNest Nest;
  std::string DimM, DimN, DimK;        ///< extents, C expressions
  std::string SAM, SAK, SBK, SBN;      ///< operand strides
  std::vector<std::string> Notes;
};

std::optional<Plan> planContraction(const LoopNest &Nest, std::string &Why) {
  std::optional<ContractionInfo> C = recognizeContraction(Nest, &Why);
  if (!C)
    return std::nullopt;
  if (C->Elem != Precision::F32) {
    Why = "the contraction is not f32";
    return std::nullopt;
  }
  if (!C->Batch.empty()) {
    Why = "batched contractions have no CUDA variant yet";
    return std::nullopt;
  }
  Plan P;
  P.Nest = Nest;
  for (const std::string &IV : {C->M, C->N, C->K}) {
    if (IV.empty())
      continue;
    auto F = C->First.find(IV);
    if (F == C->First.end() || !F->second.isConstant() ||
        F->second.constant() != 0) {
      Why = "loop '" + IV + "' does not start at 0";
      return std::nullopt;
    }
  }
  auto Ext = [&](const std::string &IV) {
    return IV.empty() ? std::string("1") : cExpr(C->Extent.at(IV));
  };
  P.DimM = Ext(C->M);
  P.DimN = Ext(C->N);
  P.DimK = Ext(C->K);
  auto Str = [&](const Operand &O, const std::string &IV,
                 std::string &Into) -> bool {
    std::optional<AffineExpr> S =
        IV.empty() ? AffineExpr(0) : O.strideOf(Nest, IV);
    if (!S)
      return false;
    Into = parenthesized(cExpr(*S));
    return true;
  };
  if (!Str(C->L, C->M, P.SAM) || !Str(C->L, C->K, P.SAK) ||
      !Str(C->R, C->K, P.SBK) || !Str(C->R, C->N, P.SBN)) {
    Why = "an operand's strides are not affine in the sizes";
    return std::nullopt;
  }
  P.Notes.push_back("contraction: " + C->Out.Array + "(" + C->M +
                    (C->N.empty() ? "" : "," + C->N) + ") " +
                    (C->InitZero ? "=" : "+=") + " sum_" + C->K + " " +
                    C->L.Array + " * " + C->R.Array + "; A(i,k) = " +
                    C->L.Array + "[i*" + P.SAM + " + k*" + P.SAK +
                    "], B(k,j) = " + C->R.Array + "[k*" + P.SBK + " + j*" +
                    P.SBN + "]");
  P.C = std::move(*C);
  return P;
}

std::string entryHead(const std::string &Sym, const Context &X) {
  return "RL_EXPORT void " + Sym +
         "(void *const *rl_args, const int64_t *rl_sizes) {\n" + X.sizeDecls() +
         X.argDecls();
}

std::string dimsDecl(const Plan &P) {
  return "  const rl::cuda::dims rl_d{" + P.DimM + ", " + P.DimN + ", " +
         P.DimK + "};\n  const rl::cuda::strides rl_s{" + P.SAM + ", " +
         P.SAK + ", " + P.SBK + ", " + P.SBN +
         "};\n  (void)rl_s;\n  if (rl_d.M <= 0 || rl_d.N <= 0)\n    return;\n";
}

ArgInfo extraArg(const std::string &Name, const std::string &CType,
                 Precision Elem, std::vector<AffineExpr> Shape, bool Prepared) {
  ArgInfo A;
  A.Name = Name;
  A.CType = CType;
  A.Elem = Elem;
  A.Shape = std::move(Shape);
  A.Intent = ArgInfo::Temp;
  A.Prepared = Prepared;
  return A;
}

/// A launch of to_bf16: the Rows x Cols matrix \p Src (strides SR, SC)
/// into the dense bf16 buffer \p Dst.
std::string toBf16(const std::string &Rows, const std::string &Cols, const std::string &Src,
                   const std::string &SR, const std::string &SC, const std::string &Dst) {
  return "  {\n    const rl::cuda::launch rl_c{{unsigned(rl::min(rl::cuda::cdiv(" + Rows +
         " * " + Cols + ", 256), int64_t(65535))), 1, 1}, {256, 1, 1}};\n"
         "    RL_LAUNCH(rl_c, rl::cuda::to_bf16<>, 0, " + Rows + ", " + Cols + ", " + Src + ", " +
         SR + ", " + SC + ", reinterpret_cast<__nv_bfloat16 *>(" + Dst + "));\n  }\n";
}

/// The prepared copies a low-precision variant \p Name of \p C takes as
/// extra arguments (quantized, bf16, transposed operands); none for f32.
std::vector<ArgInfo> extraOperands(const ContractionInfo &C,
                                   const std::string &Name) {
  bool Gemv = C.isGemv();
  std::string LA = C.L.Array, RB = C.R.Array;
  AffineExpr EM = C.Extent.at(C.M), EK = C.Extent.at(C.K);
  AffineExpr EN = Gemv ? AffineExpr(1) : C.Extent.at(C.N);
  if (Name == "int8" || Name == "int8-mma")
    return {extraArg(LA + "_i8", "signed char", Precision::I8, {EM, EK}, true),
            extraArg(LA + "_scale", "float", Precision::F32, {EM}, true),
            extraArg(RB + "_i8", "signed char", Precision::I8,
                     Gemv ? std::vector<AffineExpr>{EK}
                          : std::vector<AffineExpr>{EN, EK},
                     false),
            extraArg(RB + "_scale", "float", Precision::F32,
                     {Gemv ? AffineExpr(1) : EN}, false)};
  if (Name == "wgmma")
    // B transposed (N x K): both operands K-major, as wgmma reads them.
    return {extraArg(LA + "_bf16", "rl::bf16", Precision::BF16, {EM, EK}, true),
            extraArg(RB + "_bf16t", "rl::bf16", Precision::BF16, {EN, EK}, false)};
  if (Name == "bf16")
    return {extraArg(LA + "_bf16", "rl::bf16", Precision::BF16, {EM, EK}, true),
            extraArg(RB + "_bf16", "rl::bf16", Precision::BF16,
                     Gemv ? std::vector<AffineExpr>{EK}
                          : std::vector<AffineExpr>{EK, EN},
                     false)};
  return {};
}

/// What the kernel builders below need to know of one variant.
struct VariantInputs {
  std::string Name;
  std::string LA, RB; ///< the left and right operands' arrays
  std::string AB;     ///< the f32 kernels' arguments
  bool Gemv;
  bool Fused;
};

/// The code of one variant: its kernel launches, and the launches that
/// prepare the weights' copy once (empty for f32).
struct KernelCode {
  std::string Body;
  std::string Prep;
};

/// The launch of \p Kernel with the thread map \p Map on \p Args.
std::string launchWith(const std::string &Map, const std::string &Kernel,
                       const std::string &Args) {
  return "    const rl::cuda::launch rl_l = " + Map +
         "::config(rl_d);\n    RL_LAUNCH(rl_l, (" + Kernel + "), 0, " + Args +
         ");\n";
}

/// The runtime test for the float4 path of the blocktiled and warptiled
/// gemms: A k-contiguous, B j-contiguous, rows of 4n elements, aligned.
std::string float4Condition(const VariantInputs &In) {
  return "  const bool rl_vec = rl_s.sak == 1 && rl_s.sbn == 1 && rl_s.sam % 4 == 0 "
         "&& rl_s.sbk % 4 == 0 && rl_d.K % 4 == 0 && rl_d.N % 4 == 0 && "
         "rl::cuda::aligned16(" + In.LA + ") && rl::cuda::aligned16(" + In.RB + ");\n";
}

/// The f32 kernels whose launch is one map and one kernel (naive,
/// coalesced, smem-tiled, warp); false for any other variant.
bool simpleF32Kernel(const VariantInputs &In, CudaVariantOut &V,
                     KernelCode &K) {
  // Gemv: 0 for a gemm only, 1 for a gemv only, -1 for either; the map and
  // the kernel as the manifest names them, then as the launch does.
  static const struct {
    const char *Name;
    int Gemv;
    const char *Map, *Kernel, *LaunchMap, *LaunchKernel;
  } Simple[] = {
      {"naive", 0, "naive_map", "gemm_simple<naive_map>", "rl::cuda::naive_map",
       "rl::cuda::gemm_simple<rl::cuda::naive_map, rl_store>"},
      {"naive", 1, "gemv_thread_map", "gemm_simple<gemv_thread_map>",
       "rl::cuda::gemv_thread_map",
       "rl::cuda::gemm_simple<rl::cuda::gemv_thread_map, rl_store>"},
      {"coalesced", -1, "coalesced_map", "gemm_simple<coalesced_map>",
       "rl::cuda::coalesced_map",
       "rl::cuda::gemm_simple<rl::cuda::coalesced_map, rl_store>"},
      {"smem-tiled", -1, "smem_map<32>", "gemm_smem<32>",
       "rl::cuda::smem_map<32>", "rl::cuda::gemm_smem<32, rl_store>"},
      {"warp", -1, "gemv_warp_map", "gemv_warp<scalar>",
       "rl::cuda::gemv_warp_map", "rl::cuda::gemv_warp<false, rl_store>"},
  };
  for (const auto &S : Simple) {
    if (In.Name != S.Name || (S.Gemv >= 0 && S.Gemv != int(In.Gemv)))
      continue;
    V.Map = S.Map;
    V.Kernel = S.Kernel;
    K.Body = "  {\n" + launchWith(S.LaunchMap, S.LaunchKernel, In.AB) + "  }\n";
    return true;
  }
  return false;
}

/// The f32 kernels that pick a float4 or a scalar path at run time
/// (blocktiled, fused, warptiled, vectorized); false for any other.
bool vectorF32Kernel(const VariantInputs &In, CudaVariantOut &V,
                     KernelCode &K) {
  const std::string &AB = In.AB;
  if (In.Name == "blocktiled" || In.Name == "fused") {
    V.Map = "blocktile_map<128,128,8,8,8>";
    V.Kernel = "gemm_blocktiled<128,128,8,8,8>";
    K.Body = float4Condition(In) +
             "  using rl_map = rl::cuda::blocktile_map<128, 128, 8, 8, 8>;\n"
             "  const rl::cuda::launch rl_l = rl_map::config(rl_d);\n"
             "  if (rl_vec)\n"
             "    RL_LAUNCH(rl_l, (rl::cuda::gemm_blocktiled<128, 128, 8, 8, 8, true, rl_store>), 0, " + AB + ");\n"
             "  else\n"
             "    RL_LAUNCH(rl_l, (rl::cuda::gemm_blocktiled<128, 128, 8, 8, 8, false, rl_store>), 0, " + AB + ");\n";
    V.Notes.push_back("float4 path when A is k-contiguous, B j-contiguous, K "
                      "and N multiples of 4 and the bases 16-byte aligned; "
                      "else the scalar path, same tiles");
  } else if (In.Name == "warptiled") {
    V.Map = "warptile_map (per architecture: run_warptiled)";
    V.Kernel = "gemm_warptiled";
    K.Body = float4Condition(In) + "  rl::cuda::run_warptiled(rl_d, " + In.LA +
             ", " + In.RB + ", rl_s, rl_st, rl_vec);\n";
    V.Notes.push_back("warptiled: block 128x128 (sm_75: 64x128) -> warp 64x64 (32x64) "
                      "-> thread 8x16 (4x16), K steps of 16 (sm_90: 32), two shared-memory "
                      "stages filled by cp.async from sm_80; float4 chunks under the "
                      "blocktiled condition, else the scalar path, same tiles");
  } else if (In.Name == "vectorized") {
    V.Map = "gemv_warp_map";
    V.Kernel = "gemv_warp<float4>";
    K.Body = "  const bool rl_vec = rl_s.sak == 1 && rl_s.sbk == 1 && rl_s.sam % 4 == 0 && "
             "rl::cuda::aligned16(" + In.LA + ") && rl::cuda::aligned16(" + In.RB + ");\n"
             "  const rl::cuda::launch rl_l = rl::cuda::gemv_warp_map::config(rl_d);\n"
             "  if (rl_vec)\n"
             "    RL_LAUNCH(rl_l, (rl::cuda::gemv_warp<true, rl_store>), 0, " + AB + ");\n"
             "  else\n"
             "    RL_LAUNCH(rl_l, (rl::cuda::gemv_warp<false, rl_store>), 0, " + AB + ");\n";
    return true;
  } else {
    return false;
  }
  if (In.Fused)
    V.Notes.push_back("fused: the epilogue runs in the store of each output");
  return true;
}

/// The int8 variants (dp4a; int8-mma: mma.sync): the weights quantized
/// per row once, the other operand at every call; false for any other.
bool int8Kernel(const VariantInputs &In, CudaVariantOut &V, KernelCode &K) {
  if (In.Name != "int8" && In.Name != "int8-mma")
    return false;
  const std::string &LA = In.LA, &RB = In.RB;
  std::string Aq = LA + "_i8", As = LA + "_scale", Bq = RB + "_i8",
              Bs = RB + "_scale";
  // The weights (A) are quantized once by the prepare entry, per row; the
  // other operand per column (gemv: per tensor) at every call.
  K.Prep = "  const rl::cuda::launch rl_q{{unsigned(rl_d.M), 1, 1}, {256, 1, 1}};\n"
           "  RL_LAUNCH(rl_q, rl::cuda::quantize_rows<>, 0, rl_d.M, rl_d.K, " + LA +
           ", rl_s.sam, rl_s.sak, " + Aq + ", " + As + ");\n";
  std::string Q = "reinterpret_cast<const int8_t *>(" + Aq + "), " + As +
                  ", reinterpret_cast<const int8_t *>(" + Bq + "), " + Bs;
  if (In.Gemv) {
    V.Map = "gemv_warp_map";
    V.Kernel = "gemv_dp4a";
    K.Body = "  const rl::cuda::launch rl_q{{1, 1, 1}, {256, 1, 1}};\n"
             "  RL_LAUNCH(rl_q, rl::cuda::quantize_rows<>, 0, int64_t(1), rl_d.K, " + RB +
             ", int64_t(0), rl_s.sbk, " + Bq + ", " + Bs + ");\n"
             "  const bool rl_al = rl_d.K % 16 == 0 && rl::cuda::aligned16(" + Aq +
             ") && rl::cuda::aligned16(" + Bq + ");\n"
             "  const rl::cuda::launch rl_l = rl::cuda::gemv_warp_map::config(rl_d);\n"
             "  if (rl_al)\n"
             "    RL_LAUNCH(rl_l, (rl::cuda::gemv_dp4a<true, rl_store>), 0, rl_d, " + Aq + ", " + As + ", " + Bq + ", " + Bs + ", rl_st);\n"
             "  else\n"
             "    RL_LAUNCH(rl_l, (rl::cuda::gemv_dp4a<false, rl_store>), 0, rl_d, " + Aq + ", " + As + ", " + Bq + ", " + Bs + ", rl_st);\n";
  } else {
    bool Mma = In.Name == "int8-mma";
    V.Map = Mma ? "mma_map<128,128,64,2,4,1>" : "dp4a_map<64,64,8>";
    V.Kernel = Mma ? "gemm_mma_s8" : "gemm_dp4a<64,64,8>";
    K.Body = "  const rl::cuda::launch rl_q{{unsigned(rl_d.N), 1, 1}, {256, 1, 1}};\n"
             "  RL_LAUNCH(rl_q, rl::cuda::quantize_rows<>, 0, rl_d.N, rl_d.K, " + RB +
             ", rl_s.sbn, rl_s.sbk, " + Bq + ", " + Bs + ");\n"
             "  rl::cuda::" + (Mma ? "run_mma_s8_gemm" : "run_dp4a_gemm") +
             "(rl_d, " + Q + ", rl_st);\n";
    if (Mma)
      V.Notes.push_back("int8-mma: mma.sync m16n8k32 (s8 x s8 -> s32) on 128x128x64 "
                        "tiles, fragments by ldmatrix, cp.async double buffering; "
                        "dp4a before sm_80");
  }
  V.Notes.push_back("int8: " + LA + " per-row scales (prepared once), " + RB +
                    (In.Gemv ? " one scale" : " per-column scales") +
                    " (each call); int32 accumulation");
  return true;
}

/// \p X as a bf16 device pointer.
std::string bf16Ptr(const std::string &X) {
  return "reinterpret_cast<const __nv_bfloat16 *>(" + X + ")";
}

/// The bf16 variants (bf16: mma.sync or a warp per row; wgmma: Hopper
/// warpgroups), the weights converted once; false for any other.
bool bf16Kernel(const VariantInputs &In, CudaVariantOut &V, KernelCode &K) {
  const std::string &LA = In.LA, &RB = In.RB;
  if (In.Name == "bf16") {
    std::string Ab = LA + "_bf16", Bb = RB + "_bf16";
    K.Prep = toBf16("rl_d.M", "rl_d.K", LA, "rl_s.sam", "rl_s.sak", Ab);
    if (In.Gemv) {
      V.Map = "gemv_warp_map";
      V.Kernel = "gemv_bf16";
      K.Body = toBf16("int64_t(1)", "rl_d.K", RB, "int64_t(0)", "rl_s.sbk", Bb) +
               "  rl::cuda::run_bf16_gemv(rl_d, " + bf16Ptr(Ab) + ", " + bf16Ptr(Bb) + ", rl_st);\n";
      V.Notes.push_back("bf16 gemv: a warp per row, 16-byte loads (8 bf16) when K is a "
                        "multiple of 8; f32 accumulation");
    } else {
      V.Map = "mma_map<128,128,32,2,4,2>";
      V.Kernel = "gemm_mma_bf16";
      K.Body = toBf16("rl_d.K", "rl_d.N", RB, "rl_s.sbk", "rl_s.sbn", Bb) +
               "  rl::cuda::run_bf16_gemm(rl_d, " + bf16Ptr(Ab) + ", " + bf16Ptr(Bb) + ", rl_st);\n";
      V.Notes.push_back("bf16: mma.sync m16n8k16 with f32 accumulation on 128x128x32 "
                        "tiles, fragments by ldmatrix, cp.async double buffering (sm_80 "
                        "and later); the smem-tiled kernel in f32 FMA before sm_80");
    }
    return true;
  }
  if (In.Name != "wgmma")
    return false;
  std::string Ab = LA + "_bf16", Bt = RB + "_bf16t";
  V.Map = "wgmma_map";
  V.Kernel = "gemm_wgmma";
  V.FeatureArch = "sm_90a";
  K.Prep = toBf16("rl_d.M", "rl_d.K", LA, "rl_s.sam", "rl_s.sak", Ab);
  K.Body = toBf16("rl_d.N", "rl_d.K", RB, "rl_s.sbn", "rl_s.sbk", Bt) +
           "  rl::cuda::run_wgmma_gemm(rl_d, " + bf16Ptr(Ab) + ", " + bf16Ptr(Bt) + ", rl_st);\n";
  V.Notes.push_back("wgmma: bf16, 128x128x64 tiles of two warpgroups; compiled for sm_90a, "
                    "wgmma m64n128k16 fed by TMA (K a multiple of 8, aligned) or cp.async; "
                    "otherwise the same tiles on mma.sync m16n8k16 (sm_80 and later), the "
                    "SIMT kernel before sm_80; B converted transposed (N x K)");
  return true;
}

/// One gemm or gemv variant of a contraction \p P.
llvm::Error emitContraction(const UnitOut &U, const Plan &P, CudaVariantOut &V,
                            bool Fused) {
  const ContractionInfo &C = P.C;
  const std::string &Name = V.Name;
  std::string LA = C.L.Array, RB = C.R.Array;
  V.Extra = extraOperands(C, Name);
  for (ArgInfo &A : V.Extra)
    V.ExtraFrom.push_back(A.Prepared ? LA : RB);
  Context X{U, U.Layout.Args};
  for (const ArgInfo &A : V.Extra)
    X.Args.push_back(A);
  llvm::Expected<std::string> Store = storeFunctor(X, C, P.Nest);
  if (!Store)
    return Store.takeError();
  std::string Sym = "rl_" + U.Name + "_cuda_" + symbolPart(Name);
  VariantInputs In{Name, LA, RB, "rl_d, " + LA + ", " + RB + ", rl_s, rl_st",
                   C.isGemv(), Fused};
  KernelCode K;
  if (!simpleF32Kernel(In, V, K) && !vectorF32Kernel(In, V, K) &&
      !int8Kernel(In, V, K) && !bf16Kernel(In, V, K))
    return makeError("no " + Name + " variant for a " + C.kind());
  std::vector<std::string> Notes = P.Notes;
  Notes.insert(Notes.end(), V.Notes.begin(), V.Notes.end());
  std::string Code = header(U, Name, Notes) + *Store;
  Code += entryHead(Sym + "_dev", X) + dimsDecl(P) + storeInit(X) + K.Body + "}\n\n";
  Code += X.hostEntry(Sym, Sym + "_dev") + "\n" +
          X.timerEntry(Sym + "_time", Sym + "_dev");
  if (!K.Prep.empty()) {
    Code += "\n// The weights' " + Name + " copy, made once before the kernel runs.\n" +
            entryHead(Sym + "_prepare_dev", X) + dimsDecl(P) + K.Prep + "}\n\n" +
            X.hostEntry(Sym + "_prepare", Sym + "_prepare_dev");
    V.HasPrepare = true;
  }
  V.Code = std::move(Code);
  return llvm::Error::success();
}

/// Grid-stride kernels for each nest of \p P whose outer one or two loops
/// carry no dependence (checked by the parallel() transform's legality).
llvm::Error emitGeneric(const UnitOut &U, const Program &P0, CudaVariantOut &V) {
  Context X{U, U.Layout.Args};
  std::string Kernels, Launches;
  std::vector<std::string> Notes;
  for (size_t NI = 0; NI < P0.Nests.size(); ++NI) {
    const LoopNest &N = P0.Nests[NI].Nest;
    // Collapse the two outer loops when perfectly nested, rectangular and
    // both parallel; else the outer one alone.
    std::vector<const Loop *> Par{&N.Root};
    auto Legal = [&](const std::string &IV) {
      Program Q;
      Q.Nests.push_back(P0.Nests[NI]);
      Q.Nests.back().Attrs.clear();
      TransformRecord R;
      R.Kind = TransformRecord::Parallel;
      R.Names = {IV};
      llvm::Error E = applyRecord(Q, R);
      if (E) {
        std::string W = llvm::toString(std::move(E));
        return W;
      }
      return std::string();
    };
    std::string Missing;
    forEachStmt(N.Root, [&](const Stmt &S, const std::vector<const Loop *> &) {
      for (const Access &A : S.Accesses)
        if (!U.Layout.find(A.ArrayName))
          Missing = A.ArrayName;
    });
    if (!Missing.empty())
      return makeError("'" + Missing + "' is not an argument of the unit");
    std::string Why = Legal(N.Root.IV);
    if (!Why.empty())
      return makeError("nest " + std::to_string(NI + 1) + ": " + Why);
    if (N.Root.Body.size() == 1 && N.Root.Body.front().isLoop()) {
      const Loop &In = N.Root.Body.front().loop();
      bool Rect = true;
      for (const Bound *B : {&In.First, &In.Last})
        for (const BoundTerm &T : B->Terms)
          Rect &= T.Expr.coeff(N.Root.IV) == 0;
      if (Rect && Legal(In.IV).empty())
        Par.push_back(&In);
    }
    for (const Loop *L : Par)
      if (L->Step == 0)
        return makeError("loop '" + L->IV + "' has step 0");
    std::string K = "rl_k" + std::to_string(NI);
    // The kernel: every unit argument and size by its own name, so that the
    // CPU emitter's statement text applies unchanged.
    std::vector<std::string> Params, Pass;
    for (const Param &S : U.Layout.Sizes) {
      Params.push_back("const int64_t " + S.Name);
      Pass.push_back(S.Name);
    }
    for (const ArgInfo &A : U.Layout.Args) {
      if (A.IsScalar) {
        if (A.Intent != ArgInfo::In)
          return makeError("scalar '" + A.Name + "' is written: a reduction");
        Params.push_back("const " + deviceType(A) + " *" + A.Name + "_p");
      } else {
        Params.push_back(deviceType(A) + " *__restrict__ " + A.Name);
      }
      Pass.push_back(A.Name);
    }
    KernelNest Inner = P0.Nests[NI];
    Inner.Attrs.clear();
    Inner.Packed.clear();
    Loop *Deep = &Inner.Nest.Root;
    Deep->First = Deep->Last = Bound::single(AffineExpr::var("rl_x0"));
    Deep->Step = 1;
    if (Par.size() == 2) {
      Deep = &Deep->Body.front().loop();
      Deep->First = Deep->Last = Bound::single(AffineExpr::var("rl_x1"));
      Deep->Step = 1;
    }
    llvm::Expected<std::string> Code = emitLoopCode(Inner, U.Layout, {}, 2);
    if (!Code)
      return Code.takeError();
    if (Code->find("rl::bf16") != std::string::npos ||
        Code->find("RL_OMP") != std::string::npos)
      return makeError("the nest uses host-only constructs (bf16 storage, OpenMP)");
    auto Trip = [](const Loop *L) {
      std::string F = boundC(L->First), La = boundC(L->Last);
      std::string D = L->Step > 0 ? parenthesized(La) + " - " + parenthesized(F)
                                  : parenthesized(F) + " - " + parenthesized(La);
      int64_t S = L->Step > 0 ? L->Step : -L->Step;
      return "rl::max(int64_t(0), (" + D + ") / " + std::to_string(S) + " + 1)";
    };
    std::string Scalars;
    for (const ArgInfo &A : U.Layout.Args)
      if (A.IsScalar)
        Scalars += "  const " + deviceType(A) + " " + A.Name + " = *" + A.Name +
                   "_p;\n";
    std::string Iv = "    const int64_t rl_x0 = " + boundC(Par[0]->First) +
                     " + (rl_x" + (Par.size() == 2 ? " / rl_n1" : "") + ") * " +
                     std::to_string(Par[0]->Step) + ";\n";
    if (Par.size() == 2)
      Iv += "    const int64_t rl_x1 = " + boundC(Par[1]->First) +
            " + (rl_x % rl_n1) * " + std::to_string(Par[1]->Step) + ";\n";
    Kernels += "__global__ void " + K + "(" + llvm::join(Params, ", ") +
               ", const int64_t rl_n0, const int64_t rl_n1) {\n" + Scalars +
               "  rl::cuda::grid_stride_map::iterations(rl_n0 * rl_n1, "
               "rl::cuda::gdim(), rl::cuda::bid(), rl::cuda::tid(), "
               "[&](int64_t rl_x) {\n" + Iv + *Code + "  });\n}\n\n";
    Launches += "  {\n    const int64_t rl_n0 = " + Trip(Par[0]) +
                ", rl_n1 = " + (Par.size() == 2 ? Trip(Par[1]) : std::string("1")) +
                ";\n    const rl::cuda::launch rl_l = "
                "rl::cuda::grid_stride_map::config(rl_n0 * rl_n1);\n"
                "    if (rl_n0 * rl_n1 > 0)\n      RL_LAUNCH(rl_l, " + K + ", 0, " +
                llvm::join(Pass, ", ") + ", rl_n0, rl_n1);\n  }\n";
    std::vector<std::string> Ivs;
    for (const Loop *L : Par)
      Ivs.push_back(L->IV);
    Notes.push_back("kernel " + K + ": a thread per iteration of " +
                    llvm::join(Ivs, ", ") + " (no dependence carried: " +
                    "parallel() legal)");
  }
  std::string Sym = "rl_" + U.Name + "_cuda_" + symbolPart(V.Name);
  V.Map = "grid_stride_map";
  V.Kernel = std::to_string(P0.Nests.size()) + " grid-stride kernel(s)";
  V.Notes = Notes;
  V.Code = header(U, V.Name, Notes) + "namespace {\n" + Kernels +
           "} // namespace\n\n" + entryHead(Sym + "_dev", X) +
           Launches + "}\n\n" + X.hostEntry(Sym, Sym + "_dev") + "\n" +
           X.timerEntry(Sym + "_time", Sym + "_dev");
  return llvm::Error::success();
}

const VariantOut *cpuVariant(const UnitOut &U, VariantKind Kind) {
  for (const VariantOut &V : U.Variants)
    if (V.Kind == Kind && V.Skipped.empty())
      return &V;
  return nullptr;
}

/// The CPU variant a CUDA variant takes its plan and tolerance from: the
/// one of the same name, or of its precision (int8-mma, wgmma).
const VariantOut *cpuVariantFor(const UnitOut &U, const std::string &CudaName) {
  std::optional<VariantKind> K =
      CudaName == "int8-mma" ? VariantKind::Int8
      : CudaName == "wgmma"  ? std::optional<VariantKind>(VariantKind::Bf16)
                             : variantNamed(CudaName);
  return K ? cpuVariant(U, *K) : nullptr;
}

bool wantedCuda(const GenOptions &O, const std::string &V) {
  return O.CudaVariants.empty() || O.CudaVariants.count(V);
}

/// The fused program of a fusion group: the CPU fused variant's fusion
/// (and contraction) records, without its CPU tiling.
llvm::Expected<Program> fusedProgram(const UnitOut &U, const VariantOut &Fused) {
  Program FP0 = makeProgram(U.Sources);
  for (const TransformRecord &R : Fused.P.Applied.Records) {
    if (R.Kind != TransformRecord::Fuse && R.Kind != TransformRecord::Contract)
      break;
    if (llvm::Error E = applyRecord(FP0, R))
      return std::move(E);
  }
  return FP0;
}

} // namespace

const std::vector<std::string> &roofline::allCudaVariantNames() {
  static const std::vector<std::string> Names = {
      "naive", "coalesced", "smem-tiled", "blocktiled", "warptiled", "warp",
      "vectorized", "fused", "int8", "int8-mma", "bf16", "wgmma"};
  return Names;
}

CudaUnitOut roofline::emitCudaUnit(const UnitOut &U, const GenOptions &O) {
  CudaUnitOut Out;
  const VariantOut *Naive = cpuVariant(U, VariantKind::Naive);
  const VariantOut *Fused = cpuVariant(U, VariantKind::Fused);
  bool Group = U.Sources.size() > 1;
  std::string Why;
  std::optional<Plan> P;
  if (!Group)
    P = planContraction(makeProgram(U.Sources.front()).Nests.front().Nest, Why);
  // A group that fuses into one gemm with an elementwise epilogue: every
  // gemm variant of the ladder applies the epilogue in its store.
  std::optional<Program> FusedProg;
  std::optional<Plan> FusedGemm;
  std::string FusedWhy;
  if (Group && Fused) {
    llvm::Expected<Program> FP = fusedProgram(U, *Fused);
    if (FP) {
      FusedProg = std::move(*FP);
      std::string W;
      if (FusedProg->Nests.size() == 1)
        FusedGemm = planContraction(FusedProg->Nests.front().Nest, W);
      if (FusedGemm && !FusedGemm->C.isGemm())
        FusedGemm.reset();
    } else {
      FusedWhy = llvm::toString(FP.takeError());
    }
  }
  static const std::set<std::string> GemmOnly = {"coalesced", "smem-tiled", "blocktiled",
                                                 "warptiled", "int8-mma", "wgmma"};
  static const std::set<std::string> GemvOnly = {"warp", "vectorized"};
  for (const std::string &Name : allCudaVariantNames()) {
    if (!wantedCuda(O, Name))
      continue;
    CudaVariantOut V;
    V.Name = Name;
    const VariantOut *Like = Naive;
    llvm::Error E = llvm::Error::success();
    if (Group && Name != "naive") {
      if (Name == "fused" && !Fused) {
        V.Skipped = "the CPU side found no legal fusion";
      } else if (Name == "fused" && !FusedProg) {
        V.Skipped = FusedWhy;
      } else if (Name == "fused") {
        Like = Fused;
        // A gemm with an epilogue: the blocktiled kernel; else one
        // grid-stride kernel per nest of the fused program.
        E = FusedGemm ? emitContraction(U, *FusedGemm, V, /*Fused=*/true)
                      : emitGeneric(U, *FusedProg, V);
      } else if (!FusedGemm || Name == "blocktiled" || GemvOnly.count(Name)) {
        continue; // the ladder is for gemms; blocktiled is "fused" here
      } else if (Name == "int8" || Name == "int8-mma") {
        V.Skipped = "a fused epilogue: the int8 check bound (tolerance.quantization) "
                    "covers the contraction, not what the epilogue makes of it";
      } else {
        Like = Fused;
        E = emitContraction(U, *FusedGemm, V, /*Fused=*/true);
      }
    } else if (Name == "fused") {
      continue; // single nests have nothing to fuse
    } else if (P) {
      bool Gemv = P->C.isGemv();
      if ((Gemv && GemmOnly.count(Name)) || (!Gemv && GemvOnly.count(Name)))
        continue;
      if (Name == "int8" || Name == "int8-mma" || Name == "bf16" || Name == "wgmma") {
        Like = cpuVariantFor(U, Name);
        if (!Like)
          Like = Naive;
      }
      E = emitContraction(U, *P, V, false);
    } else if (Name == "naive") {
      if (!Naive)
        continue;
      E = emitGeneric(U, Naive->P, V);
    } else {
      continue; // the ladder is for contractions
    }
    if (E)
      V.Skipped = llvm::toString(std::move(E));
    if (V.Skipped.empty() && Like) {
      V.Tol = Like->Tol;
      V.SkipCompare = Like->SkipCompare;
      V.Predicted = llvm::json::Object(Like->Predicted);
    }
    if (V.Skipped.empty() && (Name == "int8" || Name == "int8-mma")) {
      // The CUDA kernel's own scales (emitContraction): the weights per
      // row, the other operand per column (gemv: one scale).
      V.Tol = int8Tolerance(P->C, "row", P->C.isGemv() ? "tensor" : "col",
                            Naive ? Naive->Tol : V.Tol);
    } else if (V.Skipped.empty() && (Name == "bf16" || Name == "wgmma") &&
               (Like == Naive || Like == Fused)) {
      // No CPU bf16 variant to copy from: the same rule as the CPU's (the
      // magnitude carries it through a fused epilogue).
      V.Tol.RTol = 0.01;
      V.Tol.Why = "bf16 operands: 1% of the magnitude, plus f32 rounding "
                  "per term";
    }
    Out.Variants.push_back(std::move(V));
  }
  return Out;
}

//===----------------------------------------------------------------------===//
// Manifest and files
//===----------------------------------------------------------------------===//

llvm::json::Object roofline::cudaVariantJSON(const UnitOut &U,
                                             const CudaVariantOut &V) {
  llvm::json::Object J{{"name", V.Name}, {"target", "cuda"}};
  if (!V.Skipped.empty()) {
    J["skipped"] = V.Skipped;
    return J;
  }
  std::string Sym = "rl_" + U.Name + "_cuda_" + symbolPart(V.Name);
  J["file"] = "cuda_" + V.Name + ".cu";
  J["symbol"] = Sym;
  J["device_symbol"] = Sym + "_dev";
  J["timer"] = Sym + "_time";
  if (V.HasPrepare) {
    J["prepare"] = Sym + "_prepare";
    J["device_prepare"] = Sym + "_prepare_dev";
  }
  J["path"] = "cuda " + V.Kernel;
  if (!V.FeatureArch.empty())
    J["feature_arch"] = V.FeatureArch;
  J["map"] = V.Map;
  J["threads"] = "GPU";
  llvm::json::Array Extra;
  for (size_t I = 0; I < V.Extra.size(); ++I) {
    const ArgInfo &A = V.Extra[I];
    assert(!A.IsScalar && "a variant's own arguments are arrays");
    llvm::json::Object AJ = argJSON(A);
    AJ["intent"] = "temp"; // the variant's own buffer, whatever it holds
    if (I < V.ExtraFrom.size())
      AJ["from"] = V.ExtraFrom[I];
    Extra.push_back(std::move(AJ));
  }
  addCheckFields(J, std::move(Extra), V.SkipCompare, V.Notes, V.Tol,
                 V.Predicted);
  return J;
}

llvm::json::Object roofline::cudaBuildJSON() {
  return llvm::json::Object{
      {"nvcc", "nvcc"},
      {"flags", llvm::json::Array{"-std=c++17", "-O3", "-I../runtime"}},
      {"arch_flag", "-arch=sm_XX (sm_75, sm_86, sm_90 checked)"},
      {"ldflags", llvm::json::Array{"-lcudart"}},
      {"makefile", "Makefile.cuda"},
      {"driver", "cuda_driver.cpp"},
      {"memory", "symbol: host pointers (copied in and out); device_symbol: "
                 "device pointers, asynchronous on the default stream; timer: "
                 "device_symbol timed with cudaEvents on device-resident "
                 "copies of host argument sets"}};
}

llvm::Error roofline::writeCudaUnit(const UnitOut &U, const CudaUnitOut &C,
                                    const std::string &Dir) {
  // The check driver is the CPU one (roofline_harness.h) over the host
  // entries: a unit with the CUDA variants in place of the CPU ones.
  UnitOut D = U;
  D.Variants.clear();
  std::string Objs;
  for (const CudaVariantOut &V : C.Variants) {
    if (!V.Skipped.empty())
      continue;
    if (llvm::Error E = writeFile(Dir + "/cuda_" + V.Name + ".cu", V.Code))
      return E;
    VariantOut H;
    H.OtherName = "cuda_" + symbolPart(V.Name);
    H.Extra = V.Extra;
    H.HasPrepare = V.HasPrepare;
    H.SkipCompare = V.SkipCompare;
    H.Tol = V.Tol;
    D.Variants.push_back(std::move(H));
    Objs += " cuda_" + V.Name + ".o";
  }
  // The CPU driver's text, each CUDA variant given its device timer
  // (weak, like its entries: a file that did not build leaves it null).
  std::string Driver = unitDriverCode(D), Timers;
  for (const VariantOut &H : D.Variants) {
    std::string Sym = "rl_" + U.Name + "_" + H.name();
    std::string At = "    V.fn = " + Sym + ";\n";
    size_t Pos = Driver.find(At);
    if (Pos == std::string::npos)
      return makeError("the check driver of '" + U.Name +
                       "' does not set the entry of " + H.name());
    Driver.insert(Pos + At.size(), "    V.timer = " + Sym + "_time;\n");
    Timers += "extern \"C\" int " + Sym +
              "_time(void *const *const *, int, const int64_t *, int, double, "
              "double *, int, int *) __attribute__((weak));\n";
  }
  size_t Main = Driver.find("\nint main(");
  if (Main == std::string::npos)
    return makeError("the check driver of '" + U.Name + "' has no main");
  Driver.insert(Main, Timers);
  if (llvm::Error E = writeFile(Dir + "/cuda_driver.cpp", Driver))
    return E;
  std::string Mk =
      "# Builds the unit's CUDA check driver (generated). ARCH=sm_90 etc.\n"
      "NVCC ?= nvcc\nCXX ?= c++\nARCH ?= sm_90\n"
      "NVCCFLAGS ?= -std=c++17 -O3 -arch=$(ARCH)\n"
      "CXXFLAGS ?= -std=c++17 -O2\nCPPFLAGS += -I../runtime\n\n"
      "cuda_driver: cuda_driver.o reference.o" + Objs +
      "\n\t$(NVCC) -arch=$(ARCH) -o $@ $^ -lcudart\n\n"
      "cuda_%.o: cuda_%.cu ../runtime/roofline_cuda.h\n"
      "\t$(NVCC) $(CPPFLAGS) $(NVCCFLAGS) -c -o $@ $<\n\n"
      "%.o: %.cpp\n\t$(CXX) $(CPPFLAGS) $(CXXFLAGS) -c -o $@ $<\n\n"
      "clean:\n\trm -f cuda_driver *.o\n";
  return writeFile(Dir + "/Makefile.cuda", Mk);
}
