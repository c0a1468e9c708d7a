//===- ProgramWhatIf.cpp - What batching, quantizing, fusing buy a pass ---===//
//
// docs/network-report.md, "What-ifs", says what each prediction assumes.
//
//===----------------------------------------------------------------------===//

#include "roofline/Report/ProgramWhatIf.h"
#include "roofline/Analysis/Counts.h"
#include "roofline/Report/AdviceReport.h"
#include "roofline/Report/Report.h"
#include "roofline/Roofline/Advice.h"
#include "roofline/Roofline/NestVerdict.h"
#include "roofline/Transform/Batch.h"
#include "roofline/Transform/Contraction.h"
#include "roofline/Transform/Quantize.h"
#include "roofline/Transform/WhatIf.h"

#include "llvm/ADT/STLExtras.h"
#include "llvm/ADT/StringExtras.h"
#include "llvm/Support/FormatVariadic.h"

#include <cmath>
#include <set>
#include <tuple>

using namespace llvm;
using namespace roofline;

namespace {

/// A nest of the pass with its counts and the verdict of one execution.
struct Judged {
  const ProgramNest *PN = nullptr;
  NestCounts C;
  Verdict V;
  double Runs = 0;
  /// Compulsory bytes of one execution in arrays the pass only reads.
  double WeightBytes = 0;
};

/// One execution's times, and how often it runs.
struct Cost {
  double Flops = 0, Bytes = 0, TimeCompute = 0, TimeMemory = 0, Runs = 0;
};

void add(PassPrediction &P, const Cost &C) {
  double T = std::max(C.TimeCompute, C.TimeMemory) * C.Runs;
  P.Flops += C.Flops * C.Runs;
  P.Bytes += C.Bytes * C.Runs;
  P.Time += T;
  if (C.TimeMemory > C.TimeCompute)
    P.MemoryTime += T;
}

Cost costOf(const Judged &J) {
  return {J.V.Flops, J.V.Bytes, J.V.TimeCompute, J.V.TimeMemory, J.Runs};
}

std::string rootOf(const std::string &Buf) {
  return Buf.substr(0, Buf.find('+'));
}

/// The buffers \p Array of \p PN points into over its executions, or null
/// when some execution does not know (ProgramNest::Buffers).
const std::set<std::string> *buffersOf(const ProgramNest &PN,
                                       const std::string &Array) {
  auto It = PN.Buffers.find(Array);
  if (It == PN.Buffers.end() || It->second.empty() || It->second.count(""))
    return nullptr;
  return &It->second;
}

double elements(const Count &C) { return C.Value ? double(*C.Value) : -1; }

/// Roots some nest of the pass writes into, or that are inputs: the rest
/// (weights, biases, scales) the pass only reads. A write whose buffer the walk does not
/// know could be anywhere: it adds "*" (no array is only read) and is
/// described in \p Unknown.
std::set<std::string> writtenRoots(const std::vector<Judged> &Js,
                                   std::string &Unknown) {
  std::set<std::string> W;
  for (const Judged &J : Js)
    for (const ArrayTraffic &A : J.C.Arrays) {
      if (elements(A.ElementsWritten) == 0)
        continue;
      const std::set<std::string> *Bufs = buffersOf(*J.PN, A.Name);
      if (!Bufs) {
        if (Unknown.empty())
          Unknown = "'" + A.Name + "' of '" + J.PN->Nest.Function +
                    "' (line " + std::to_string(J.PN->Nest.Loc.Line) + ")";
        W.insert("*");
        continue;
      }
      for (const std::string &B : *Bufs)
        W.insert(rootOf(B));
    }
  // An array the batch transform gives one copy per input (the x of a gemv)
  // is an input even where nothing writes it: not a weight.
  for (const Judged &J : Js)
    if (std::optional<BatchPlan> Plan = batchPlan(J.PN->Nest))
      for (const std::string &A : Plan->Batched)
        if (const std::set<std::string> *Bufs = buffersOf(*J.PN, A))
          for (const std::string &B : *Bufs)
            W.insert(rootOf(B));
  return W;
}

/// Whether \p A of \p J is only read by the whole pass: every buffer it
/// points into has a root no nest writes.
bool isReadOnly(const Judged &J, const ArrayTraffic &A,
                const std::set<std::string> &Written) {
  if (Written.count("*") || elements(A.ElementsWritten) != 0)
    return false;
  const std::set<std::string> *Bufs = buffersOf(*J.PN, A.Name);
  return Bufs && llvm::none_of(*Bufs, [&](const std::string &B) {
           return Written.count(rootOf(B));
         });
}

//===----------------------------------------------------------------------===//
// Batching
//===----------------------------------------------------------------------===//

/// One execution of \p J for \p B inputs: the arrays the pass only reads
/// once, every other array and all the work B times.
Cost batchedCost(const Judged &J, double B) {
  Cost C = costOf(J);
  double Other = C.Bytes - J.WeightBytes;
  C.Flops *= B;
  C.TimeCompute *= B;
  C.Bytes = J.WeightBytes + B * Other;
  C.TimeMemory = J.V.Bandwidth > 0 ? C.Bytes / J.V.Bandwidth : 0;
  return C;
}

PassPrediction batchedPass(const std::vector<Judged> &Js, double B) {
  PassPrediction P;
  for (const Judged &J : Js)
    add(P, batchedCost(J, B));
  return P;
}

/// Where batchNest applies to a nest whose shared array is one the pass
/// only reads, its counts at \p B must be what batchedCost says: the
/// transform checks the model. Returns why not, or "".
std::string checkAgainstTransform(const Judged &J, int64_t B,
                                  const std::set<std::string> &Written) {
  std::optional<BatchPlan> Plan = batchPlan(J.PN->Nest);
  if (!Plan)
    return "";
  const ArrayTraffic *W = nullptr;
  for (const ArrayTraffic &A : J.C.Arrays)
    if (A.Name == Plan->Weights)
      W = &A;
  if (!W || !isReadOnly(J, *W, Written))
    return "";
  LoopNest NB = batchNest(J.PN->Nest, *Plan, B);
  Expected<NestCounts> C = analyzeNest(NB);
  if (!C) { // the batched nest is not countable: no batching what-if
    consumeError(C.takeError());
    return "";
  }
  if (!C->Flops.Value || !C->BytesCompulsory.Value)
    return "";
  Cost Want = batchedCost(J, double(B));
  double F = double(*C->Flops.Value), By = double(*C->BytesCompulsory.Value);
  auto Near = [](double X, double Y) {
    return std::fabs(X - Y) <= 1e-9 * std::max(1.0, std::fabs(Y));
  };
  if (Near(F, Want.Flops) && Near(By, Want.Bytes))
    return "";
  return "the batch transform of '" + J.PN->Nest.Function + "' at line " +
         std::to_string(J.PN->Nest.Loc.Line) + " counts " + formatG(F) +
         " FLOP, " + formatG(By) + " B where the pass model says " +
         formatG(Want.Flops) + " FLOP, " + formatG(Want.Bytes) + " B";
}

PassBatch predictBatch(const std::vector<Judged> &Js, int64_t B,
                       const std::set<std::string> &Written,
                       std::string &WhyNot) {
  PassBatch R;
  R.Inputs = B;
  // The transform checks the model once per loop of the source: the model
  // is the same formula at every size (and a check costs a count).
  std::set<std::tuple<std::string, unsigned, unsigned>> Checked;
  for (const Judged &J : Js) {
    if (J.WeightBytes > 0)
      ++R.BatchedNests;
    else {
      ++R.OncePerInput;
      R.OncePerInputTime += J.V.Time * J.Runs;
    }
    const SourceLoc &L = J.PN->Nest.Loc;
    if (WhyNot.empty() && Checked.insert({L.File, L.Line, L.Column}).second)
      WhyNot = checkAgainstTransform(J, B, Written);
  }
  R.At = batchedPass(Js, double(B));
  // The smallest compute-bound B by doubling then bisection. Each nest's
  // FLOPs per byte, B F / (W + B R), only grows with B, so a nest once
  // compute-bound stays so, and the memory-bound share of the pass only
  // falls: past the crossing the pass stays compute-bound.
  constexpr int64_t MaxB = int64_t(1) << 30;
  if (!batchedPass(Js, 1).memoryBound()) {
    R.Crossover = 1;
    return R;
  }
  int64_t Hi = 2;
  while (Hi <= MaxB && batchedPass(Js, double(Hi)).memoryBound())
    Hi *= 2;
  if (Hi > MaxB) {
    R.CrossoverWhyNot = "still memory-bound at " + std::to_string(MaxB) +
                        " inputs: the nests with nothing to share stay "
                        "memory-bound at any batch";
    return R;
  }
  int64_t Lo = Hi / 2; // memory-bound
  while (Hi - Lo > 1) {
    int64_t Mid = Lo + (Hi - Lo) / 2;
    (batchedPass(Js, double(Mid)).memoryBound() ? Lo : Hi) = Mid;
  }
  R.Crossover = Hi;
  return R;
}

//===----------------------------------------------------------------------===//
// Quantizing
//===----------------------------------------------------------------------===//

bool narrows(Precision From, Precision To) {
  return isFloating(From) && precisionBytes(From) > precisionBytes(To);
}

/// The arrays the pass only reads stored in \p To, widened in registers:
/// their bytes shrink, the arithmetic stays as written.
PassQuantized quantizeWeights(const std::vector<Judged> &Js, Precision To,
                              const std::set<std::string> &Written) {
  PassQuantized Q;
  Q.To = To;
  Q.WeightsOnly = true;
  for (const Judged &J : Js) {
    Cost C = costOf(J);
    double Saved = 0;
    for (const ArrayTraffic &A : J.C.Arrays)
      if (narrows(A.Elem, To) && isReadOnly(J, A, Written) &&
          elements(A.ElementsRead) > 0)
        Saved += elements(A.ElementsRead) *
                 double(A.ElemBytes - precisionBytes(To));
    if (Saved > 0) {
      ++Q.Nests;
      C.Bytes -= Saved;
      C.TimeMemory = J.V.Bandwidth > 0 ? C.Bytes / J.V.Bandwidth : 0;
    }
    add(Q.At, C);
  }
  return Q;
}

/// Every floating array and operation in \p To: the per-nest `quantize`
/// what-if (Transform/WhatIf.h) on every nest.
PassQuantized quantizeAll(const std::vector<Judged> &Js, const Machine &M,
                          Precision To) {
  PassQuantized Q;
  Q.To = To;
  Q.WeightsOnly = false;
  for (const Judged &J : Js) {
    Cost C = costOf(J);
    if (std::optional<LoopNest> QN = quantizedNest(J.PN->Nest, To)) {
      NestVerdict V = judgeNest(*QN, quantizeCounts(J.C, To), M,
                                TrafficModel::Compulsory, {},
                                JudgeDetail::VerdictOnly);
      if (V.V) {
        ++Q.Nests;
        C = {V.V->Flops, V.V->Bytes, V.V->TimeCompute, V.V->TimeMemory,
             J.Runs};
      }
    }
    add(Q.At, C);
  }
  return Q;
}

//===----------------------------------------------------------------------===//
// Fusing
//===----------------------------------------------------------------------===//

/// A contraction the transforms recognize, or a nest doing at least two
/// MACs per element it writes (a reduction loop inside: `val = bias[o];
/// for (i) val += x[i] * w[o][i];`, which recognizeContraction declines).
bool isMatmul(const Judged &J) {
  LoopNest P = J.PN->Nest;
  promoteAccumulators(P);
  if (recognizeContraction(P))
    return true;
  double Written = 0;
  for (const ArrayTraffic &A : J.C.Arrays)
    Written += std::max(0.0, elements(A.ElementsWritten));
  return J.C.Macs.Value && Written > 0 && double(*J.C.Macs.Value) >= 2 * Written;
}

std::string callerOf(const std::string &Path) {
  size_t Cut = Path.rfind(" > ");
  return Cut == std::string::npos ? "" : Path.substr(0, Cut);
}

/// The one buffer (root and offset) \p A of \p PN points into in every
/// execution, or "".
std::string bufferOf(const ProgramNest &PN, const std::string &A) {
  const std::set<std::string> *Bufs = buffersOf(PN, A);
  if (!Bufs || Bufs->size() != 1 || Bufs->begin()->back() == '?')
    return "";
  return *Bufs->begin();
}

/// Buffers written by [First, Last) of the chain and read only by nests in
/// (First, Last): the epilogue keeps them on chip. Only a buffer every
/// access reaches exactly (one buffer per array, the only one of its root)
/// qualifies; an access the walk cannot place keeps every buffer in memory.
std::vector<std::string> onChip(const std::vector<Judged> &Js, size_t First,
                                size_t Last) {
  std::map<std::string, std::set<size_t>> Readers, Writers;
  std::map<std::string, std::set<std::string>> OfRoot;
  std::set<std::string> Inexact; // roots some array reaches not exactly
  for (size_t I = 0; I < Js.size(); ++I)
    for (const ArrayTraffic &A : Js[I].C.Arrays) {
      const std::set<std::string> *Bufs = buffersOf(*Js[I].PN, A.Name);
      if (!Bufs)
        return {};
      bool Exact = !bufferOf(*Js[I].PN, A.Name).empty();
      for (const std::string &B : *Bufs) {
        OfRoot[rootOf(B)].insert(B);
        if (!Exact)
          Inexact.insert(rootOf(B));
        if (elements(A.ElementsRead) != 0)
          Readers[B].insert(I);
        if (elements(A.ElementsWritten) != 0)
          Writers[B].insert(I);
      }
    }
  std::vector<std::string> Kept;
  for (const auto &[B, Ws] : Writers) {
    if (Inexact.count(rootOf(B)) || OfRoot[rootOf(B)].size() != 1)
      continue;
    bool Inside = llvm::all_of(Ws, [&](size_t W) {
      return W >= First && W < Last;
    });
    auto R = Readers.find(B);
    bool ReadInside =
        R != Readers.end() && llvm::all_of(R->second, [&](size_t X) {
          return X > First && X < Last;
        });
    if (Inside && ReadInside)
      Kept.push_back(B);
  }
  return Kept;
}

/// Chains matmul, elementwise..., matmul of consecutive nests called from
/// one function as often, in the order the pass first runs them.
std::vector<FusedChain> findChains(const std::vector<Judged> &Js,
                                   PassPrediction &Fused) {
  std::vector<FusedChain> Chains;
  std::vector<bool> IsMatmul, IsElementwise;
  for (const Judged &J : Js) {
    IsMatmul.push_back(isMatmul(J));
    IsElementwise.push_back(!IsMatmul.back() && isElementwise(J.PN->Nest));
  }
  std::vector<bool> InChain(Js.size(), false);
  for (size_t A = 0; A < Js.size(); ++A) {
    if (!IsMatmul[A])
      continue;
    size_t B = A + 1;
    auto Together = [&](size_t K) {
      return K < Js.size() && Js[K].Runs == Js[A].Runs &&
             callerOf(Js[K].PN->Path) == callerOf(Js[A].PN->Path);
    };
    while (Together(B) && IsElementwise[B])
      ++B;
    if (B == A + 1 || !Together(B) || !IsMatmul[B])
      continue;
    std::vector<std::string> Kept = onChip(Js, A, B);
    if (Kept.empty())
      continue;
    FusedChain F;
    F.First = Js[A].PN->Nest.Function;
    F.Last = Js[B].PN->Nest.Function;
    F.Executions = int64_t(Js[A].Runs);
    F.OnChip = Kept;
    std::set<std::string> K(Kept.begin(), Kept.end());
    double TimeCompute = 0, Saved = 0;
    for (size_t I = A; I < B; ++I) {
      const Judged &J = Js[I];
      if (I > A)
        F.Chain.push_back(J.PN->Nest.Function);
      F.Lines.push_back(J.PN->Nest.Loc.Line);
      F.BytesBefore += J.V.Bytes * J.Runs;
      F.TimeBefore += J.V.Time * J.Runs;
      TimeCompute += J.V.TimeCompute;
      for (const ArrayTraffic &X : J.C.Arrays)
        if (K.count(bufferOf(*J.PN, X.Name)))
          Saved += (elements(X.ElementsRead) + elements(X.ElementsWritten)) *
                   double(X.ElemBytes);
      InChain[I] = true;
    }
    F.Lines.push_back(Js[B].PN->Nest.Loc.Line);
    double Bytes = F.BytesBefore / Js[A].Runs - Saved;
    double Bw = Js[A].V.Bandwidth;
    F.BytesAfter = Bytes * Js[A].Runs;
    double TimeMemory = Bw > 0 ? Bytes / Bw : 0;
    F.TimeAfter = std::max(TimeCompute, TimeMemory) * Js[A].Runs;
    double Flops = 0;
    for (size_t I = A; I < B; ++I)
      Flops += Js[I].V.Flops;
    add(Fused, {Flops, Bytes, TimeCompute, TimeMemory, Js[A].Runs});
    Chains.push_back(std::move(F));
    A = B - 1; // the second matmul may start the next chain
  }
  for (size_t I = 0; I < Js.size(); ++I)
    if (!InChain[I])
      add(Fused, costOf(Js[I]));
  return Chains;
}

} // namespace

ProgramWhatIfs roofline::predictProgramWhatIfs(const ProgramResult &P,
                                               const Machine &M,
                                               int64_t Batch) {
  ProgramWhatIfs W;
  std::vector<Judged> Js;
  for (const ProgramNest &PN : P.Nests) {
    Expected<NestCounts> C = analyzeNest(PN.Nest);
    if (!C) {
      consumeError(C.takeError()); // the report's rows say why
      continue;
    }
    if (!C->Flops.Value || !C->BytesCompulsory.Value)
      continue;
    NestVerdict V = judgeNest(PN.Nest, *C, M, TrafficModel::Compulsory, {},
                              JudgeDetail::VerdictOnly);
    if (!V.V)
      continue;
    Judged J;
    J.PN = &PN;
    J.C = std::move(*C);
    J.V = *V.V;
    J.Runs = double(PN.Executions);
    Js.push_back(std::move(J));
  }
  if (Js.empty())
    return W;
  W.Computed = true;
  std::set<std::string> Written = writtenRoots(Js, W.WeightsWhyNot);
  for (Judged &J : Js) {
    for (const ArrayTraffic &A : J.C.Arrays)
      if (isReadOnly(J, A, Written) && elements(A.ElementsRead) > 0)
        J.WeightBytes += elements(A.ElementsRead) * double(A.ElemBytes);
    add(W.AsWritten, costOf(J));
  }
  std::string WhyNot;
  W.Batch = predictBatch(Js, std::max<int64_t>(Batch, 1), Written, WhyNot);
  W.BatchWhyNot = WhyNot;
  for (Precision To : {Precision::BF16, Precision::I8})
    W.Quantized.push_back(quantizeWeights(Js, To, Written));
  for (Precision To : {Precision::BF16, Precision::I8})
    W.Quantized.push_back(quantizeAll(Js, M, To));
  W.Chains = findChains(Js, W.Fused);
  return W;
}

//===----------------------------------------------------------------------===//
// Text and JSON
//===----------------------------------------------------------------------===//

namespace {

std::string speedup(double Before, double After) {
  return After > 0 ? formatG(Before / After, 3) + "x" : "-";
}

std::string boundOf(const PassPrediction &P) {
  return P.memoryBound() ? "memory-bound" : "compute-bound";
}

std::string precisionWord(Precision P) {
  return P == Precision::I8 ? "int8" : "bf16";
}

json::Object predictionJson(const PassPrediction &P) {
  return json::Object{{"flops", P.Flops},
                      {"bytes", P.Bytes},
                      {"time_floor_s", P.Time},
                      {"memory_bound_time_s", P.MemoryTime},
                      {"bound", boundOf(P)}};
}

} // namespace

void roofline::printProgramWhatIfs(raw_ostream &OS, const ProgramWhatIfs &W) {
  if (!W.Computed)
    return;
  const PassPrediction &A = W.AsWritten;
  OS << "  what-ifs for the pass (predicted from the counted nests, "
        "compulsory bytes; docs/network-report.md says what each assumes):\n";
  if (!W.WeightsWhyNot.empty())
    OS << "    note: no array is taken as weights: the walk does not know "
          "which buffer "
       << W.WeightsWhyNot << " writes into\n";
  const PassBatch &B = W.Batch;
  if (!W.BatchWhyNot.empty()) {
    OS << "    batch " << B.Inputs << " inputs: not predicted: "
       << W.BatchWhyNot << "\n";
  } else {
    OS << "    batch " << B.Inputs << " inputs: " << formatSeconds(B.At.Time)
       << " for all, " << formatSeconds(B.At.Time / double(B.Inputs))
       << " per input (" << speedup(A.Time, B.At.Time / double(B.Inputs))
       << " per input), " << bytesText(B.At.Bytes) << ", "
       << boundOf(B.At) << "; weights read once by " << B.BatchedNests
       << " nests, " << B.OncePerInput << " run once per input\n";
    OS << "    compute-bound from batch: ";
    if (B.Crossover)
      OS << *B.Crossover
         << (*B.Crossover == 1 ? " (already at one input)" : "") << "\n";
    else
      OS << "none (" << B.CrossoverWhyNot << ")\n";
  }
  for (const PassQuantized &Q : W.Quantized)
    OS << "    " << precisionWord(Q.To)
       << (Q.WeightsOnly ? " weights: " : " everything: ")
       << formatSeconds(Q.At.Time) << " (" << speedup(A.Time, Q.At.Time)
       << "), " << bytesText(Q.At.Bytes) << ", " << Q.Nests
       << " nests change\n";
  if (W.Chains.empty()) {
    OS << "    fuse elementwise chains between matmuls: none found\n";
    return;
  }
  for (const FusedChain &F : W.Chains)
    OS << "    fuse " << join(F.Chain, ", ") << " into " << F.First
       << "'s epilogue (lines " << join(map_range(F.Lines, [](unsigned L) {
            return std::to_string(L);
          }), ", ")
       << "), keep " << join(F.OnChip, ", ") << " on chip: "
       << bytesText(F.BytesBefore) << " -> " << bytesText(F.BytesAfter)
       << ", " << formatSeconds(F.TimeBefore) << " -> "
       << formatSeconds(F.TimeAfter) << " over " << F.Executions
       << (F.Executions == 1 ? " run\n" : " runs\n");
  OS << "    pass with the chains fused: " << formatSeconds(W.Fused.Time)
     << " (" << speedup(A.Time, W.Fused.Time) << "), "
     << bytesText(W.Fused.Bytes) << "\n";
}

json::Value roofline::programWhatIfJson(const ProgramWhatIfs &W) {
  if (!W.Computed)
    return nullptr;
  json::Object O;
  O["as_written"] = predictionJson(W.AsWritten);
  if (!W.WeightsWhyNot.empty())
    O["weights_why_not"] = "the walk does not know which buffer " +
                           W.WeightsWhyNot + " writes into";
  const PassBatch &B = W.Batch;
  json::Object Batch{{"inputs", B.Inputs},
                     {"batched_nests", B.BatchedNests},
                     {"once_per_input_nests", B.OncePerInput}};
  if (W.BatchWhyNot.empty()) {
    Batch["predicted"] = predictionJson(B.At);
    Batch["time_per_input_s"] = B.At.Time / double(B.Inputs);
    if (B.Crossover)
      Batch["crossover_batch"] = *B.Crossover;
    else
      Batch["crossover_why_not"] = B.CrossoverWhyNot;
  } else {
    Batch["why_not"] = W.BatchWhyNot;
  }
  O["batch"] = std::move(Batch);
  json::Array Q;
  for (const PassQuantized &X : W.Quantized) {
    json::Object J = predictionJson(X.At);
    J["precision"] = precisionName(X.To);
    J["arrays"] = X.WeightsOnly ? "weights" : "all";
    J["nests_changed"] = X.Nests;
    Q.push_back(std::move(J));
  }
  O["quantize"] = std::move(Q);
  json::Array C;
  for (const FusedChain &F : W.Chains) {
    json::Array Lines, Kept, Chain;
    for (unsigned L : F.Lines)
      Lines.push_back(int64_t(L));
    for (const std::string &K : F.OnChip)
      Kept.push_back(K);
    for (const std::string &K : F.Chain)
      Chain.push_back(K);
    C.push_back(json::Object{{"first", F.First},
                             {"last", F.Last},
                             {"chain", std::move(Chain)},
                             {"lines", std::move(Lines)},
                             {"on_chip", std::move(Kept)},
                             {"executions", F.Executions},
                             {"bytes_before", F.BytesBefore},
                             {"bytes_after", F.BytesAfter},
                             {"time_before_s", F.TimeBefore},
                             {"time_after_s", F.TimeAfter}});
  }
  O["fuse"] = json::Object{{"chains", std::move(C)},
                           {"predicted", predictionJson(W.Fused)}};
  return O;
}
