//===- LevelReport.h - Per-level roofline and capacity in the reports -----===//
//
// The text note and JSON array of the hierarchical verdict (verdict.levels),
// and the [roofline-capacity] error for a nest whose data does not fit.
//
//===----------------------------------------------------------------------===//

#ifndef ROOFLINE_REPORT_LEVELREPORT_H
#define ROOFLINE_REPORT_LEVELREPORT_H

#include "roofline/Roofline/LevelVerdict.h"


#include <string>

namespace roofline {

class JsonWriter;

/// "per level: DRAM 2.1 MB, AI 64 compute-bound, 2.73 us; ...; bottleneck
/// L1" — one note, the rule of every cache spelled out.
std::string levelsNote(const HierarchicalVerdict &H, const Machine &M);

/// Writes [{name, bytes, bandwidth, intensity, ridge, time_s, bound,
/// rule}, ...] (keys in byte order).
void writeLevelsJSON(JsonWriter &W, const HierarchicalVerdict &H);

/// "gemm: footprint 120 GB does not fit in the 51.5 GB memory of
/// rtx-a6000" (the caller appends the check name).
std::string capacityMessage(const std::string &Function, const Verdict &V,
                            const Machine &M);

} // namespace roofline

#endif // ROOFLINE_REPORT_LEVELREPORT_H
