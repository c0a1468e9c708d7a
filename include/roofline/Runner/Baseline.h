//===- Baseline.h - Library baselines timed beside the variants -----------===//
//
// A contraction (gemm, gemv) is also run through OpenBLAS's CBLAS on the
// unit's own arguments, so each variant's speed can be read against a tuned
// library measured in the same run. The baseline is a C++ file that links
// into the unit's driver and registers one more variant ("openblas")
// through the harness's rl_harness_extra_variants hook, so it is checked
// and timed by exactly the code that checks and times the variants.
//
//===----------------------------------------------------------------------===//

#ifndef ROOFLINE_RUNNER_BASELINE_H
#define ROOFLINE_RUNNER_BASELINE_H

#include "roofline/Runner/Manifest.h"

#include <string>

namespace roofline {

struct BaselineSource {
  std::string Name; ///< the variant name it registers: "openblas", "cublas"
  std::string Call; ///< "cblas_sgemm(RowMajor, NoTrans, NoTrans)"
  std::string Code; ///< the .cpp; empty when there is none
  std::string WhyNot;
};

/// The OpenBLAS baseline of \p M, or why it has none (not a contraction,
/// batched, an epilogue, a layout BLAS cannot take, not f32/f64).
BaselineSource blasBaseline(const UnitManifest &M);

/// The BLIS baseline of \p M: the same contractions as OpenBLAS through
/// BLIS's typed API (bli_sgemm, bli_sgemv; d for f64), which takes each
/// operand's two strides as they are, or why it has none.
BaselineSource blisBaseline(const UnitManifest &M);

/// The cuBLAS baseline of \p M (the same call, column-major: cublasSgemm,
/// cublasSgemv; D for f64), or why it has none. A C++ file for the host
/// compiler (nvcc -c): host entry for the check, copies included; a
/// device timer (cudaEvents, data resident) for the timing.
BaselineSource cublasBaseline(const UnitManifest &M);

} // namespace roofline

#endif // ROOFLINE_RUNNER_BASELINE_H
