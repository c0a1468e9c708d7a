//===- AdviceFindings.cpp - The advice's diagnostics as CI findings -------===//

#include "roofline/Report/AdviceFindings.h"
#include "roofline/Report/AdviceReport.h"

using namespace roofline;

std::vector<Finding> roofline::adviceFindings(const Report &R,
                                              const NestOrdinals &Ord) {
  std::vector<Finding> Out;
  for (size_t I = 0; I < R.Nests.size(); ++I) {
    const AnalyzedNest &A = R.Nests[I];
    auto Make = [&](CheckId Check, const SourceLoc &Loc) {
      Finding F;
      F.Check = checkName(Check).str();
      F.Level = Severity::Warning;
      F.Loc = Loc;
      if (F.Loc.File.empty())
        F.Loc.File = A.Nest.Loc.File;
      F.Function = A.Nest.Function;
      F.Ordinal = I < Ord.Nests.size() ? Ord.Nests[I] : 0;
      F.NestIndex = static_cast<int>(I);
      return F;
    };
    for (const StridedAccess &S : A.Advice.Strided) {
      Finding F = Make(CheckId::StridedAccess, S.Access.Loc);
      F.Message = stridedMessage(S);
      F.Notes = stridedNotes(S, *R.M);
      Out.push_back(std::move(F));
    }
    if (const std::optional<FusionOpportunity> &FO = A.Advice.Fusion) {
      Finding F = Make(CheckId::FusionOpportunity, A.Nest.Loc);
      F.Message = fusionMessage(*FO);
      F.Notes = fusionNotes(*FO);
      Out.push_back(std::move(F));
    }
  }
  return Out;
}
