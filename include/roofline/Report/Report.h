//===- Report.h - Text diagnostics and JSON for analyzed nests ------------===//

#ifndef ROOFLINE_REPORT_REPORT_H
#define ROOFLINE_REPORT_REPORT_H

#include "roofline/Analysis/Counts.h"
#include "roofline/Roofline/Advice.h"
#include "roofline/Roofline/NestVerdict.h"
#include "roofline/Support/Format.h"

#include "llvm/ADT/ArrayRef.h"
#include "llvm/Support/JSON.h"
#include "llvm/Support/raw_ostream.h"

#include <vector>

namespace roofline {

struct AnalyzedNest {
  LoopNest Nest;
  NestCounts Counts;
  NestVerdict Judged;
  /// What-ifs and findings of Roofline/Advice.h (empty when not advised).
  NestAdvice Advice;
};

struct Report {
  const Machine *M = nullptr;
  TrafficModel Model = TrafficModel::Compulsory;
  std::vector<AnalyzedNest> Nests;
  std::vector<SkippedNest> Skipped;
};

/// "1,048,576".
std::string withThousands(Int128 V);

/// How much the text report says about each nest (--verbosity).
enum class Verbosity {
  Brief,  ///< one line per nest; one note per warning or error
  Normal, ///< every note and the source line under each remark
  Full,   ///< and where each size's value came from
};

/// clang-style diagnostics: a remark per nest with notes for the numbers,
/// a note per skipped nest, each tagged with its check name.
void printText(llvm::raw_ostream &OS, const Report &R, bool ShowSource = true);
/// As above, of the listed nests and skipped nests of \p R (each list in
/// source order) only: its machine and model judge them.
void printText(llvm::raw_ostream &OS, const Report &R,
               llvm::ArrayRef<const AnalyzedNest *> Nests,
               llvm::ArrayRef<const SkippedNest *> Skipped, bool ShowSource);

/// printText's output cut at its nests: the lines of one nest (or skipped
/// nest), all at its location, so that a caller can put other diagnostics
/// of the same place between them.
struct TextBlock {
  SourceLoc Loc;
  std::string Text;
};
std::vector<TextBlock> textBlocks(const Report &R,
                                  llvm::ArrayRef<const AnalyzedNest *> Nests,
                                  llvm::ArrayRef<const SkippedNest *> Skipped,
                                  bool ShowSource,
                                  Verbosity Level = Verbosity::Normal);

/// "sizes: N = 4096 (template), M = 512 (config)": each size's value and
/// where it came from (LoopNest's Param::Origin); empty without sizes.
std::string sizesNote(const LoopNest &N);

/// The docs/design.md output contract, version 1.
llvm::json::Value toJSON(const Report &R);
/// toJSON's parts for a caller that writes each nest as it builds it (and
/// frees it before the next, so the heap is reused): the report without
/// its "nests" member, and the element of "nests" for \p A.
llvm::json::Object toJSONWithoutNests(const Report &R);
llvm::json::Value nestToJSON(const AnalyzedNest &A, const Report &R);
/// nestToJSON(A, R)'s text (keys sorted, two-space indentation), every line
/// after the first indented \p Indent more columns; its `cache` member is
/// written without building a json::Value (writeCacheJSON).
std::string nestToJSONText(const AnalyzedNest &A, const Report &R,
                           unsigned Indent);

} // namespace roofline

#endif // ROOFLINE_REPORT_REPORT_H
