//===- CudaEmitter.h - IR' to CUDA kernel variants and launchers ----------===//
//
// The CUDA backend of --emit (--target=cuda|all, docs/cuda.md). For each
// unit the CPU side planned, it writes cuda_<variant>.cu files:
//
//   contractions (f32 gemm): naive (the seed's one thread per output),
//     coalesced, smem-tiled, blocktiled (register tiles, float4 loads),
//     warptiled (warp tiles, cp.async double buffering, tiles per
//     architecture), int8 (dp4a) and int8-mma (mma.sync m16n8k32), both
//     int32 accumulation with per-row/per-column scales, bf16 (mma.sync
//     m16n8k16, f32 accumulation), wgmma (bf16: wgmma and TMA for sm_90a);
//     a fusion group that fuses into a gemm with an elementwise epilogue:
//     the same ladder applying the epilogue in its store (fused: the
//     blocktiled one; no int8);
//   gemv (f32): naive (a thread per row), warp (a warp per row), vectorized
//     (a warp per row, float4), int8 (dp4a over int4 loads), bf16 (16-byte
//     loads);
//   other nests whose outer loops carry no dependence (elementwise chains):
//     naive (a grid-stride kernel per nest) and fused (one kernel for the
//     fused program, temporaries in registers).
//
// Kernels come from roofline_cuda.h; what the emitter writes per variant is
// the store functor (the output access and epilogue, from the IR), the
// generic kernels' bodies, and two entries with the manifest's C ABI:
//   rl_<unit>_cuda_<variant>(args, sizes)      host pointers: copies in,
//                                               launches, copies out
//   rl_<unit>_cuda_<variant>_dev(args, sizes)  device pointers, no copies,
//                                               asynchronous (timing)
// and a _prepare/_prepare_dev pair where the variant keeps a quantized copy
// of the weights (as the CPU int8/bf16 variants do).
//
//===----------------------------------------------------------------------===//

#ifndef ROOFLINE_CODEGEN_CUDAEMITTER_H
#define ROOFLINE_CODEGEN_CUDAEMITTER_H

#include "roofline/CodeGen/Units.h"

#include "llvm/Support/JSON.h"

#include <string>
#include <vector>

namespace roofline {

/// The CUDA variant kinds, in emission order.
const std::vector<std::string> &allCudaVariantNames();

struct CudaVariantOut {
  std::string Name;    ///< "naive", "blocktiled", ...
  std::string Skipped; ///< why not emitted; empty if it was
  std::string Kernel;  ///< the kernel family, e.g. "gemm_blocktiled<128,128,8,8,8>"
  std::string Map;     ///< the launch map of roofline_cuda.h it uses
  /// An architecture with features the variant uses when compiled for it
  /// ("sm_90a": wgmma, TMA); the manifest's "feature_arch".
  std::string FeatureArch;
  std::string Code;    ///< the .cu file
  std::vector<ArgInfo> Extra; ///< device buffers after the unit's args
  /// Per extra buffer: the unit argument it is made from (the manifest's
  /// "from": a prepared copy replaces it in the timed entry's traffic).
  std::vector<std::string> ExtraFrom;
  bool HasPrepare = false;
  std::vector<std::string> SkipCompare;
  Tolerance Tol;
  llvm::json::Object Predicted; ///< the counts of the IR' it implements
  std::vector<std::string> Notes; ///< legality and layout checks made
};

struct CudaUnitOut {
  std::vector<CudaVariantOut> Variants;
};

/// The CUDA variants of \p U (those \p O asks for; all when empty).
CudaUnitOut emitCudaUnit(const UnitOut &U, const GenOptions &O);

/// The manifest entry of one CUDA variant ("target": "cuda").
llvm::json::Object cudaVariantJSON(const UnitOut &U, const CudaVariantOut &V);

/// The "cuda" build section of the manifest.
llvm::json::Object cudaBuildJSON();

/// Writes cuda_<variant>.cu, cuda_driver.cpp and Makefile.cuda into \p Dir.
llvm::Error writeCudaUnit(const UnitOut &U, const CudaUnitOut &C,
                          const std::string &Dir);

} // namespace roofline

#endif // ROOFLINE_CODEGEN_CUDAEMITTER_H
