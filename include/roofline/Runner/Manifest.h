//===- Manifest.h - Reading the directories roofline-lint --emit writes ---===//
//
// roofline-run works from the files alone: DIR/units.json lists the units,
// DIR/<unit>/manifest.json describes one (docs/codegen.md). Only what the
// runner needs is read; unknown keys are ignored, so the format can grow.
//
//===----------------------------------------------------------------------===//

#ifndef ROOFLINE_RUNNER_MANIFEST_H
#define ROOFLINE_RUNNER_MANIFEST_H

#include "llvm/ADT/StringRef.h"
#include "llvm/Support/Error.h"
#include "llvm/Support/JSON.h"

#include <cstdint>
#include <map>
#include <optional>
#include <string>
#include <vector>

namespace roofline {

struct ManifestSize {
  std::string Name;
  std::optional<int64_t> Value;
  bool Fixed = false;
};

struct ManifestArg {
  std::string Name, Type, Elem, Intent;
  std::vector<std::string> Shape; ///< C expressions in the sizes
  bool Scalar = false;
};

/// What the emitter predicted for a variant (its IR' counts).
struct VariantPrediction {
  bool Known = false;
  std::string WhyNot;
  double Flops = 0, BytesCompulsory = 0, BytesNoReuse = 0;
  std::map<std::string, double> FlopsByType; ///< "f32" -> FLOPs
};

struct ManifestVariant {
  std::string Name;
  std::string Skipped; ///< not emitted: why
  std::string File, Symbol, Schedule, Path, Threads;
  std::string Target = "cpu"; ///< "cpu" or "cuda"
  /// CUDA: the entry that times the device entry on device-resident data
  /// (cudaEvents); empty: timed around the host entry, copies included.
  std::string Timer;
  /// The name the unit's driver knows it by: the symbol without
  /// "rl_<unit>_" ("tiled", "cuda_naive").
  std::string DriverName;
  double RTol = 0, RTolPerTerm = 0, ATol = 0;
  VariantPrediction Predicted;
  bool isCuda() const {
    return Target == "cuda" || llvm::StringRef(File).ends_with(".cu");
  }
  bool parallel() const { return Threads != "1"; }
};

/// One operand of a contraction: its array and the element stride of each
/// role's loop ("m", "n", "k"), as C expressions ("" when unknown).
struct ContractionOperand {
  std::string Array;
  std::map<std::string, std::string> Strides;
};

struct ManifestContraction {
  std::string Kind, Elem;
  int64_t Batch = 0, Epilogue = 0;
  bool InitZero = false;
  std::map<std::string, std::string> Extent, First; ///< by role
  ContractionOperand Out, L, R;
};

struct UnitManifest {
  std::string Dir; ///< the unit's directory
  std::string Unit, Kind, Function, File;
  std::vector<int64_t> Lines;
  std::vector<ManifestSize> Sizes;
  std::vector<ManifestArg> Args;
  std::vector<ManifestVariant> Variants;
  std::string Cxx = "c++";
  std::vector<std::string> Flags, LdFlags;
  std::string ReferenceFile = "reference.cpp", DriverFile = "driver.cpp";
  /// CUDA variants (--target=cuda): their own driver and nvcc flags.
  std::string CudaDriverFile;
  std::vector<std::string> CudaFlags, CudaLdFlags;
  std::string Machine; ///< the machine of the predicted bounds, if any
  std::optional<ManifestContraction> Contraction;

  /// By manifest name (a CPU variant first) or by driver name.
  const ManifestVariant *find(llvm::StringRef Name) const;
  /// "N=64 K=64 M=64".
  std::string sizesText() const;
};

/// Parses manifest.json text; \p Dir is the unit directory it came from.
llvm::Expected<UnitManifest> parseManifest(llvm::StringRef Text,
                                           llvm::StringRef Dir);
/// Reads DIR/manifest.json.
llvm::Expected<UnitManifest> loadManifest(llvm::StringRef UnitDir);
/// The unit names of DIR/units.json, in order.
llvm::Expected<std::vector<std::string>> loadUnitIndex(llvm::StringRef Dir);

} // namespace roofline

#endif // ROOFLINE_RUNNER_MANIFEST_H
