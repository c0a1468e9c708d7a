//===- AdviceReport.h - The advice and the cache model in the reports -----===//
//
// Text (messages and notes) and JSON for what Roofline/Advice.h finds:
// [roofline-strided-access], [roofline-memory-bound] with its what-if table,
// [roofline-fusion-opportunity]; and the cache model's per-access and
// per-level numbers (JSON `cache`). The findings themselves are made in
// AdviceFindings.h, for the CI layer's checks, NOLINT and SARIF.
//
//===----------------------------------------------------------------------===//

#ifndef ROOFLINE_REPORT_ADVICEREPORT_H
#define ROOFLINE_REPORT_ADVICEREPORT_H

#include "roofline/Report/Report.h"
#include "roofline/Roofline/Advice.h"

#include "llvm/Support/JSON.h"

#include <string>
#include <vector>

namespace roofline {

class JsonWriter;

/// "'B[k][j]' is walked down a column in the innermost loop (stride
/// 2048 B): 4 of 64 bytes per cache line used".
std::string stridedMessage(const StridedAccess &S);
/// Where the rest of each line is used, the loop order that fixes it (or
/// why none is legal), and the unit-stride neighbours.
std::vector<std::string> stridedNotes(const StridedAccess &S, const Machine &M);

/// "gemv_f32: memory-bound on rtx-a6000 (compulsory traffic): AI 0.499
/// FLOP/B is below the ridge 50.4; the data takes 5.47 us, the math 54.2 ns".
std::string memoryBoundMessage(const AnalyzedNest &A, const Machine &M);
/// The what-if table, one note per row, best first; illegal transforms
/// listed as not offered.
std::vector<std::string> whatIfNotes(const AnalyzedNest &A, const Machine &M);

std::string fusionMessage(const FusionOpportunity &F);
std::vector<std::string> fusionNotes(const FusionOpportunity &F);

/// The nest's JSON additions, written (keys in byte order): `advice` (best
/// first), `rejected_advice`, `strided_access`, `fusion_opportunity`; and
/// `tiled` when the verdict used it.
void writeAdviceJSON(JsonWriter &W, const NestAdvice &Adv);
void writeRejectedJSON(JsonWriter &W, const NestAdvice &Adv);
void writeStridedJSON(JsonWriter &W, const NestAdvice &Adv);
void writeFusionJSON(JsonWriter &W, const FusionOpportunity &F);
void writeTiledJSON(JsonWriter &W, const TiledTraffic &T);

/// The nest's JSON `cache` (per access and level), written without
/// building it; and as a json::Value (parsed back from that text).
void writeCacheJSON(JsonWriter &W, const NestVerdict &J);
llvm::json::Value cacheJSON(const NestVerdict &J);

/// "16.8 MB" (decimal) or "24 MiB" when the bytes are a whole number of
/// MiB or KiB.
std::string bytesText(double B);

} // namespace roofline

#endif // ROOFLINE_REPORT_ADVICEREPORT_H
