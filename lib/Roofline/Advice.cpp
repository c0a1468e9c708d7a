//===- Advice.cpp - What-if fixes for a nest, each checked for legality ---===//

#include "roofline/Roofline/Advice.h"
#include "roofline/Analysis/Dependence.h"
#include "roofline/Analysis/TiledModel.h"
#include "roofline/IR/PointGather.h"
#include "roofline/Transform/Batch.h"
#include "roofline/Transform/Quantize.h"
#include "roofline/Transform/WhatIf.h"
#include "roofline/Support/Parallel.h"

#include "llvm/ADT/StringExtras.h"

#include <algorithm>
#include <cassert>
#include <cmath>
#include <functional>
#include <numeric>
#include <set>

using namespace roofline;

namespace {

/// The slowest of the arithmetic and every memory level.
double levelTime(const std::vector<double> &Bytes, const Machine &M,
                 double Compute) {
  double T = Compute;
  for (size_t I = 0; I < Bytes.size() && I < M.Levels.size(); ++I)
    if (M.Levels[I].BandwidthBytesPerS > 0)
      T = std::max(T, Bytes[I] / M.Levels[I].BandwidthBytesPerS);
  return T;
}

Prediction fromVerdict(const Verdict &V) {
  Prediction P;
  P.Flops = V.Flops;
  P.Bytes = V.Bytes;
  P.Intensity = V.Intensity;
  P.Time = V.Time;
  P.Bound = V.Bound;
  P.Prec = V.Prec;
  P.Model = V.Model;
  return P;
}

/// The prediction of an analyzed nest, from its own verdict.
std::optional<Prediction> current(const AdvisedNest &A, const Machine &M) {
  const NestVerdict &J = *A.Verdict;
  if (!J.V)
    return std::nullopt;
  Prediction P = fromVerdict(*J.V);
  if (J.V->Model == trafficModelName(TrafficModel::Cache) && J.Cache &&
      A.Counts->BytesNoReuse.Value)
    P.LevelBytes = bytesPerMachineLevel(
        *J.Cache, M, static_cast<double>(*A.Counts->BytesNoReuse.Value));
  if (P.LevelBytes)
    P.LevelTime = levelTime(*P.LevelBytes, M, J.V->TimeCompute);
  return P;
}

std::string joinLines(const std::vector<unsigned> &L) {
  std::string S;
  for (size_t I = 0; I < L.size(); ++I)
    S += (I ? (I + 1 == L.size() ? " and " : ", ") : "") + std::to_string(L[I]);
  return S;
}

std::string quoted(const std::vector<std::string> &Names) {
  std::string S;
  for (size_t I = 0; I < Names.size(); ++I)
    S += (I ? ", " : "") + ("'" + Names[I] + "'");
  return S;
}

//===----------------------------------------------------------------------===//
// Fusion groups
//===----------------------------------------------------------------------===//

struct Group {
  std::vector<size_t> Members;
  bool Elementwise = true;
  std::string Legality;
};

/// Two adjacent nests over the same loops that may not be fused.
struct IllegalFusion {
  size_t First, Second;
  std::string Reason;
};

} // namespace

bool roofline::isElementwise(const LoopNest &N) {
  bool Ok = true;
  std::function<void(const Loop &, std::vector<std::string> &)> Walk =
      [&](const Loop &L, std::vector<std::string> &IVs) {
        IVs.push_back(L.IV);
        for (const Node &X : L.Body) {
          if (X.isLoop()) {
            Walk(X.loop(), IVs);
            continue;
          }
          for (const Access &A : X.S.Accesses) {
            if (A.Subscripts.size() != IVs.size()) {
              Ok = false;
              continue;
            }
            for (size_t D = 0; D < A.Subscripts.size(); ++D)
              Ok &= A.Subscripts[D] &&
                    *A.Subscripts[D] == AffineExpr::var(IVs[D]);
          }
        }
        IVs.pop_back();
      };
  std::vector<std::string> IVs;
  Walk(N.Root, IVs);
  return Ok;
}

namespace {

bool between(const SourceLoc &A, const SourceLoc &X, const SourceLoc &B) {
  auto Key = [](const SourceLoc &L) { return std::make_pair(L.Line, L.Column); };
  return A.File == X.File && Key(A) < Key(X) && Key(X) < Key(B);
}

/// \p Ns fused by the fuse record, with those of \p Contract that the
/// contract record takes kept in registers (the fused variant of --emit
/// keeps the same); \p Kept gets their names.
std::optional<LoopNest> fuseAndContract(const std::vector<LoopNest> &Ns,
                                        const std::vector<std::string> &Contract,
                                        std::vector<std::string> &Kept) {
  Program P = whatIfProgram(Ns);
  if (llvm::Error E =
          applyRecord(P, TransformRecord::make(TransformRecord::Fuse, {}))) {
    llvm::consumeError(std::move(E)); // they do not fuse: no fusion advice
    return std::nullopt;
  }
  Kept = contractWhereLegal(P, Contract);
  assert(P.Nests.size() == 1 && "fuse leaves one nest");
  return std::move(P.Nests.front().Nest);
}

std::optional<LoopNest> fuseOnly(const std::vector<LoopNest> &Ns) {
  std::vector<std::string> None;
  return fuseAndContract(Ns, {}, None);
}

std::vector<Group> fusionGroups(const std::vector<AdvisedNest> &Nests,
                                const std::vector<SourceLoc> &Skipped,
                                std::vector<IllegalFusion> &Illegal) {
  std::vector<Group> Out;
  for (size_t I = 0; I < Nests.size();) {
    Group G;
    G.Members.push_back(I);
    // The run fused so far; copied only once a second nest joins (most
    // nests are alone in their function: no copy of them).
    std::optional<LoopNest> Fused;
    size_t J = I + 1;
    for (; J < Nests.size(); ++J) {
      const LoopNest &A = *Nests[J - 1].Nest, &B = *Nests[J].Nest;
      if (A.Loc.File != B.Loc.File || A.Function != B.Function)
        break;
      const LoopNest &Run = Fused ? *Fused : *Nests[I].Nest;
      bool Barrier = std::any_of(Skipped.begin(), Skipped.end(),
                                 [&](const SourceLoc &S) {
                                   return between(A.Loc, S, B.Loc);
                                 });
      if (Barrier || fusableDepth(Run, B) == 0)
        break;
      Legality L = isFusionLegal(Run, B);
      if (!L.Legal) {
        Illegal.push_back({J - 1, J, L.Reason});
        break;
      }
      G.Legality = L.Reason;
      std::optional<LoopNest> F = fuseOnly({Run, B});
      if (!F)
        break;
      Fused = std::move(*F);
      G.Members.push_back(J);
    }
    I = J;
    if (G.Members.size() < 2)
      continue;
    for (size_t K : G.Members)
      G.Elementwise &= isElementwise(*Nests[K].Nest);
    Out.push_back(std::move(G));
  }
  return Out;
}

struct ArrayUse {
  bool FirstIsWrite = false; ///< in the group, written before read
  bool ReadLater = false;    ///< read by a later nest of the group
  bool Outside = false;      ///< used by a nest of the function not in it
  std::set<std::string> Subscripts;
};

void accessesOf(const Loop &L, std::vector<const Access *> &Out) {
  for (const Node &X : L.Body) {
    if (X.isLoop()) {
      accessesOf(X.loop(), Out);
      continue;
    }
    // Within a statement reads come first.
    for (const Access &A : X.S.Accesses)
      if (A.IsRead)
        Out.push_back(&A);
    for (const Access &A : X.S.Accesses)
      if (!A.IsRead)
        Out.push_back(&A);
  }
}

/// Arrays a group passes from one step to the next: written first, read by
/// a later nest, untouched by the function's other nests, and always at the
/// same subscripts (so the value is used in the iteration that makes it).
std::vector<std::string> intermediates(const Group &G,
                                       const std::vector<AdvisedNest> &Nests) {
  std::map<std::string, ArrayUse> Uses;
  std::map<std::string, size_t> FirstWriter;
  for (size_t K = 0; K < G.Members.size(); ++K) {
    std::vector<const Access *> Accs;
    accessesOf(Nests[G.Members[K]].Nest->Root, Accs);
    for (const Access *A : Accs) {
      auto [It, New] = Uses.try_emplace(A->ArrayName);
      ArrayUse &U = It->second;
      if (New) {
        U.FirstIsWrite = !A->IsRead;
        if (U.FirstIsWrite)
          FirstWriter[A->ArrayName] = K;
      } else if (A->IsRead && U.FirstIsWrite &&
                 FirstWriter[A->ArrayName] < K) {
        U.ReadLater = true;
      }
      std::string S;
      for (const auto &Sub : A->Subscripts)
        S += "[" + (Sub ? Sub->str() : std::string("?")) + "]";
      U.Subscripts.insert(S);
    }
  }
  const LoopNest &First = *Nests[G.Members.front()].Nest;
  for (size_t I = 0; I < Nests.size(); ++I) {
    const LoopNest &O = *Nests[I].Nest;
    if (O.Function != First.Function || O.Loc.File != First.Loc.File ||
        std::count(G.Members.begin(), G.Members.end(), I))
      continue;
    std::vector<const Access *> Accs;
    accessesOf(O.Root, Accs);
    for (const Access *A : Accs)
      if (Uses.count(A->ArrayName))
        Uses[A->ArrayName].Outside = true;
  }
  std::vector<std::string> Out;
  for (const auto &[Name, U] : Uses)
    if (U.FirstIsWrite && U.ReadLater && !U.Outside && U.Subscripts.size() == 1)
      Out.push_back(Name);
  return Out;
}

/// predictNests for nests whose counts are known.
std::optional<Prediction>
predictCounted(llvm::ArrayRef<std::pair<const LoopNest *, const NestCounts *>> Ns,
               const Machine &M, TrafficModel Model, const ModelOptions &MOpts) {
  if (Ns.empty())
    return std::nullopt;
  double Flops = 0, Bytes = 0, Foot = 0, BestFlops = -1;
  Precision Prec = Precision::F32;
  std::optional<std::vector<double>> Levels;
  bool HaveLevels = Model == TrafficModel::Cache;
  std::string ModelName;
  for (const auto &[N, C] : Ns) {
    NestVerdict J =
        judgeNest(*N, *C, M, Model, MOpts, JudgeDetail::VerdictOnly);
    if (!J.V)
      return std::nullopt;
    Flops += J.V->Flops;
    Bytes += J.V->Bytes;
    Foot += J.V->FootprintBytes;
    ModelName = J.V->Model;
    if (J.V->Flops > BestFlops) {
      BestFlops = J.V->Flops;
      Prec = J.V->Prec;
    }
    if (HaveLevels) {
      std::optional<std::vector<double>> L =
          J.Cache && C->BytesNoReuse.Value
              ? bytesPerMachineLevel(*J.Cache, M,
                                     static_cast<double>(*C->BytesNoReuse.Value))
              : std::nullopt;
      if (!L) {
        HaveLevels = false;
        Levels.reset();
      } else if (!Levels) {
        Levels = *L;
      } else {
        for (size_t K = 0; K < Levels->size() && K < L->size(); ++K)
          (*Levels)[K] += (*L)[K];
      }
    }
  }
  Verdict V = computeVerdict(M, Prec, Flops, Bytes, Foot, ModelName);
  Prediction P = fromVerdict(V);
  if (HaveLevels && Levels) {
    P.LevelBytes = Levels;
    P.LevelTime = levelTime(*Levels, M, V.TimeCompute);
  }
  return P;
}

//===----------------------------------------------------------------------===//
// The advisor
//===----------------------------------------------------------------------===//

class Advisor {
public:
  Advisor(const std::vector<AdvisedNest> &Nests, const Machine &M,
          TrafficModel Model, const ModelOptions &MOpts,
          const AdviceOptions &Opts)
      : Nests(Nests), M(M), Model(Model), MOpts(MOpts), Opts(Opts) {}

  std::vector<NestAdvice> run(const std::vector<SourceLoc> &Skipped);

private:
  const std::vector<AdvisedNest> &Nests;
  const Machine &M;
  TrafficModel Model;
  const ModelOptions &MOpts;
  const AdviceOptions &Opts;

  std::optional<Prediction> predict(const std::vector<LoopNest> &Ns) const {
    return predictNests(Ns, M, Model, MOpts);
  }
  /// The nest in precision \p To. The models counted from the IR alone
  /// take the quantized counts from the nest's own (no second analysis);
  /// the cache and tiled models look at the quantized nest.
  std::optional<Prediction> predictQuantized(const LoopNest &N,
                                             const NestCounts &C,
                                             Precision To) const {
    if (Model != TrafficModel::NoReuse && Model != TrafficModel::Compulsory) {
      std::optional<LoopNest> Q = quantizedNest(N, To);
      return Q ? predict({*Q}) : std::nullopt;
    }
    NestCounts Q = quantizeCounts(C, To);
    return predictCounted({{&N, &Q}}, M, Model, MOpts);
  }
  void strided(const AdvisedNest &A, NestAdvice &Out) const;
  void whatIfs(size_t I, const std::vector<Group> &Groups,
               NestAdvice &Out) const;
  // The what-ifs of a memory-bound nest, one transform each (whatIfs).
  void tileWhatIf(const AdvisedNest &A, const Prediction &Before,
                  NestAdvice &Out) const;
  void quantizeWhatIfs(const AdvisedNest &A, const Prediction &Before,
                       NestAdvice &Out) const;
  void batchWhatIf(const LoopNest &N, const Prediction &Before,
                   NestAdvice &Out) const;
  void fuseWhatIf(size_t I, const Group &G, const Prediction &Before,
                  NestAdvice &Out) const;
  /// Offers \p W when it is faster enough, else records it as rejected.
  void offer(WhatIf W, NestAdvice &Out) const;
};

void Advisor::offer(WhatIf W, NestAdvice &Out) const {
  if (W.After.Time > 0)
    W.Speedup = W.Before.Time / W.After.Time * W.Speedup;
  if (W.Speedup < Opts.MinSpeedup) {
    Out.Rejected.push_back(
        {W.Transform, W.Description, "predicted no faster than as written"});
    return;
  }
  Out.Advice.push_back(std::move(W));
}

/// The loop orders of \p Band (IV names), the original excluded, fewest
/// displaced loops first.
std::vector<std::vector<std::string>>
otherOrders(const std::vector<const Loop *> &Band) {
  std::vector<size_t> P(Band.size());
  std::iota(P.begin(), P.end(), 0);
  std::vector<std::pair<size_t, std::vector<std::string>>> All;
  while (std::next_permutation(P.begin(), P.end())) {
    size_t Moved = 0;
    std::vector<std::string> O;
    for (size_t K = 0; K < P.size(); ++K) {
      Moved += P[K] != K;
      O.push_back(Band[P[K]]->IV);
    }
    All.push_back({Moved, O});
  }
  std::stable_sort(All.begin(), All.end(), [](const auto &A, const auto &B) {
    return A.first < B.first;
  });
  std::vector<std::vector<std::string>> Out;
  for (auto &[Moved, O] : All)
    Out.push_back(std::move(O));
  return Out;
}

/// Why no what-if is predicted for \p N: a point gather is recorded at
/// element 0 of its row, a row gather within its row, where a rewrite (a
/// batch, a tiling, a fusion) and its legality would be counted, not at the
/// elements the index picks (docs/design.md, "Point gathers", "Row
/// gathers"). Empty where \p N has none.
std::string pointGatherWhyNot(const LoopNest &N) {
  const Access *G = firstGather(N);
  if (!G)
    return "";
  if (!G->GatherLoop.empty())
    return "'" + G->Text + "' is in a row that '" + G->GatherIndex +
           "' (loaded from memory) picks: a transform would be predicted and "
           "checked for legality within one row, not at the rows it picks";
  return "'" + G->Text +
         "' is a point gather, recorded at element 0 of its "
         "row: a transform would be predicted and checked for legality at "
         "that element, not at the one '" +
         G->GatherIndex + "' picks";
}

/// Whether \p A is walked with unit stride by loop \p IV.
bool unitIn(const Access &A, const std::string &IV) {
  size_t Dims = A.Subscripts.size();
  for (size_t D = 0; D < Dims; ++D) {
    if (!A.Subscripts[D])
      return false;
    int64_t C = A.Subscripts[D]->coeff(IV);
    if (D + 1 < Dims ? C != 0 : (C != 1 && C != -1))
      return false;
  }
  return Dims > 0;
}

void Advisor::strided(const AdvisedNest &A, NestAdvice &Out) const {
  const NestVerdict &J = *A.Verdict;
  if (Model != TrafficModel::Cache || !J.Cache)
    return;
  const LoopNest &N = *A.Nest;
  std::vector<const Loop *> Band = permutableBand(N);
  std::optional<Prediction> Before = current(A, M);
  // The statement of each access, to test unit stride after a reorder.
  std::vector<const Access *> Accs;
  std::vector<const Loop *> Inner;
  std::function<void(const Loop &)> Walk = [&](const Loop &L) {
    for (const Node &X : L.Body) {
      if (X.isLoop()) {
        Walk(X.loop());
        continue;
      }
      for (const Access &Acc : X.S.Accesses) {
        Accs.push_back(&Acc);
        Inner.push_back(&L);
      }
    }
  };
  Walk(N.Root);
  for (size_t I = 0; I < J.Cache->Accesses.size() && I < Accs.size(); ++I) {
    const AccessCacheInfo &Info = J.Cache->Accesses[I];
    if ((Info.Walk != "column" && Info.Walk != "strided") ||
        !Info.BytesUsedPerLine ||
        *Info.BytesUsedPerLine >= Info.LineBytes / 2.0 || Info.Loops.empty())
      continue;
    StridedAccess S;
    S.Access = Info;
    S.InnerLoop = Info.Loops.back();
    // The first loop outside the innermost one that reuses its lines.
    for (const ReuseInfo &R : Info.Reuse)
      if (R.Loop != Info.Loops.back()) {
        S.LineReuse = R;
        break;
      }
    for (size_t K = 0; K < J.Cache->Accesses.size(); ++K) {
      const AccessCacheInfo &O = J.Cache->Accesses[K];
      if (K != I && O.Walk == "unit" && O.Loc.Line == Info.Loc.Line &&
          O.Loops == Info.Loops)
        S.UnitNeighbours.push_back(O);
    }
    // The loop orders that walk it along a row: the statement must sit in
    // the band's innermost loop, whose new last loop then walks it.
    // Up to 4 loops (24 orders): each candidate is counted again.
    if (Inner[I] == Band.back() && Band.size() <= 4) {
      std::optional<WhatIf> Best;
      for (const std::vector<std::string> &Order : otherOrders(Band)) {
        if (!unitIn(*Accs[I], Order.back()))
          continue;
        std::string Desc = "loop order " + llvm::join(Order, ", ");
        Legality L = isInterchangeLegal(N, Order);
        if (!L.Legal) {
          if (!S.Blocked)
            S.Blocked = RejectedWhatIf{"interchange", Desc, L.Reason};
          continue;
        }
        WhatIf W;
        W.Transform = "interchange";
        W.Description = Desc;
        llvm::json::Array Ord;
        for (const std::string &IV : Order)
          Ord.push_back(IV);
        W.Params["order"] = std::move(Ord);
        W.Legality = L.Reason;
        if (!Before) { // no sizes: the closest legal order, unpredicted
          W.Predicted = false;
          if (!Best)
            Best = std::move(W);
          continue;
        }
        llvm::Expected<std::vector<LoopNest>> X = whatIfNests(
            {N}, Schedule().then(TransformRecord::make(
                     TransformRecord::Permute, Order)));
        if (!X) { // that order is illegal: the next one is tried
          llvm::consumeError(X.takeError());
          continue;
        }
        std::optional<Prediction> After = predict(*X);
        if (!After)
          continue;
        W.Before = *Before;
        W.After = *After;
        double TB = Before->LevelBytes ? Before->LevelTime : Before->Time;
        double TA = After->LevelBytes ? After->LevelTime : After->Time;
        W.Speedup = TA > 0 ? TB / TA : 1;
        if (!Best || W.Speedup > Best->Speedup * 1.0001)
          Best = std::move(W);
      }
      if (Best) {
        S.Fix = std::move(Best);
        S.Blocked.reset();
      }
    }
    Out.Strided.push_back(std::move(S));
  }
}

/// Tiling, predicted with tiled(T).
void Advisor::tileWhatIf(const AdvisedNest &A, const Prediction &Before,
                         NestAdvice &Out) const {
  const LoopNest &N = *A.Nest;
  std::vector<const Loop *> Band = permutableBand(N);
  if (Band.size() < 2)
    return;
  TiledTraffic T = tiledTraffic(N, *A.Counts, Opts.Tile, /*WithFormula=*/false);
  std::string Desc = "tile loops " + llvm::join(T.Loops, ", ") + " by " +
                     std::to_string(Opts.Tile);
  if (!T.Legal) {
    Out.Rejected.push_back({"tile", Desc, T.LegalityReason});
    return;
  }
  if (!T.Bytes)
    return;
  Verdict V = computeVerdict(M, Before.Prec, Before.Flops, *T.Bytes,
                             A.Verdict->V->FootprintBytes,
                             "tiled(" + std::to_string(Opts.Tile) + ")");
  WhatIf W;
  W.Transform = "tile";
  W.Description = Desc;
  W.Params["tile"] = static_cast<int64_t>(Opts.Tile);
  llvm::json::Array Loops;
  for (const std::string &L : T.Loops)
    Loops.push_back(L);
  W.Params["loops"] = std::move(Loops);
  W.Before = Before;
  W.After = fromVerdict(V);
  W.Legality = T.LegalityReason;
  W.Caveat = "assumes one tile of each array stays on chip";
  offer(std::move(W), Out);
}

/// Quantization: the same loops in bf16 and int8.
void Advisor::quantizeWhatIfs(const AdvisedNest &A, const Prediction &Before,
                              NestAdvice &Out) const {
  const LoopNest &N = *A.Nest;
  for (Precision To : {Precision::BF16, Precision::I8}) {
    if (!canQuantize(N, To))
      continue;
    std::optional<Prediction> After = predictQuantized(N, *A.Counts, To);
    if (!After)
      continue;
    WhatIf W;
    W.Transform = "quantize";
    W.Description =
        std::string("quantize to ") + (To == Precision::I8 ? "int8" : "bf16");
    W.Params["precision"] = precisionName(To);
    W.Before = Before;
    W.After = *After;
    W.Legality = "no iteration is reordered";
    W.Caveat = To == Precision::I8
                   ? "changes numerics: int8 needs scales and an accuracy check"
                   : "changes numerics: needs an accuracy check";
    offer(std::move(W), Out);
  }
}

/// Batching: B inputs through the same weights.
void Advisor::batchWhatIf(const LoopNest &N, const Prediction &Before,
                          NestAdvice &Out) const {
  std::optional<BatchPlan> P = batchPlan(N);
  if (!P)
    return;
  LoopNest B = batchNest(N, *P, Opts.Batch);
  std::optional<Prediction> After = predict({B});
  if (!After)
    return;
  WhatIf W;
  W.Transform = "batch";
  W.Description = "batch " + std::to_string(Opts.Batch) +
                  " inputs (gemv -> gemm: '" + P->Weights +
                  "' read once for all)";
  W.Params["inputs"] = Opts.Batch;
  W.Params["weights"] = P->Weights;
  llvm::json::Array Bat;
  for (const std::string &X : P->Batched)
    Bat.push_back(X);
  W.Params["batched"] = std::move(Bat);
  W.Before = Before;
  W.After = *After;
  W.Speedup = static_cast<double>(Opts.Batch); // same work: per input
  W.Legality = "'" + P->Weights + "' is only read: the inputs are independent";
  W.Caveat = "needs " + std::to_string(Opts.Batch) + " inputs available at once";
  offer(std::move(W), Out);
}

/// Fusion of nest \p I with the other nests of its group \p G.
void Advisor::fuseWhatIf(size_t I, const Group &G, const Prediction &Before,
                         NestAdvice &Out) const {
  std::vector<LoopNest> Ns;
  std::vector<unsigned> Others;
  Prediction Sum = Before;
  Sum.Flops = Sum.Bytes = Sum.Time = 0;
  for (size_t K : G.Members) {
    Ns.push_back(*Nests[K].Nest);
    if (K != I)
      Others.push_back(Nests[K].Nest->Loc.Line);
    std::optional<Prediction> P = current(Nests[K], M);
    if (!P)
      return;
    Sum.Flops += P->Flops;
    Sum.Bytes += P->Bytes;
    Sum.Time += P->Time;
  }
  Sum.Intensity = Sum.Bytes > 0 ? Sum.Flops / Sum.Bytes : 0;
  std::vector<std::string> Kept;
  std::optional<LoopNest> F =
      fuseAndContract(Ns, intermediates(G, Nests), Kept);
  if (!F)
    return;
  std::optional<Prediction> After = predict({*F});
  if (!After)
    return;
  WhatIf W;
  W.Transform = "fuse";
  W.Description = "fuse with the loop" + std::string(Others.size() > 1 ? "s" : "") +
                  " at line" + (Others.size() > 1 ? "s " : " ") +
                  joinLines(Others) +
                  (Kept.empty() ? "" : " and keep " + quoted(Kept) +
                                           " on chip");
  llvm::json::Array Lines, Keep;
  for (size_t K : G.Members)
    Lines.push_back(static_cast<int64_t>(Nests[K].Nest->Loc.Line));
  for (const std::string &X : Kept)
    Keep.push_back(X);
  W.Params["lines"] = std::move(Lines);
  W.Params["on_chip"] = std::move(Keep);
  W.Before = Sum;
  W.After = *After;
  W.Legality = G.Legality;
  std::vector<std::string> Live;
  for (const std::string &X : Kept)
    if (!Nests[I].Nest->Sem.LocalArrays.count(X))
      Live.push_back(X);
  if (!Live.empty())
    W.Caveat = "assumes nothing reads " + quoted(Live) + " after the loops";
  offer(std::move(W), Out);
}

void Advisor::whatIfs(size_t I, const std::vector<Group> &Groups,
                      NestAdvice &Out) const {
  const AdvisedNest &A = Nests[I];
  std::optional<Prediction> Before = current(A, M);
  if (!Before)
    return;
  Out.MemoryBound = Before->Bound == BoundKind::MemoryBound;
  if (!Out.MemoryBound)
    return;
  if (std::string Why = pointGatherWhyNot(*A.Nest); !Why.empty()) {
    Out.WhatIfWhyNot = std::move(Why);
    return;
  }
  tileWhatIf(A, *Before, Out);
  quantizeWhatIfs(A, *Before, Out);
  batchWhatIf(*A.Nest, *Before, Out);
  // Fusion with the nests beside it: the first group that holds it.
  for (const Group &G : Groups)
    if (std::count(G.Members.begin(), G.Members.end(), I)) {
      fuseWhatIf(I, G, *Before, Out);
      break;
    }
  std::stable_sort(Out.Advice.begin(), Out.Advice.end(),
                   [](const WhatIf &X, const WhatIf &Y) {
                     return X.Speedup > Y.Speedup;
                   });
}

std::vector<NestAdvice> Advisor::run(const std::vector<SourceLoc> &Skipped) {
  std::vector<NestAdvice> Out(Nests.size());
  std::vector<IllegalFusion> Illegal;
  std::vector<Group> Groups = fusionGroups(Nests, Skipped, Illegal);
  // Each nest's what-ifs read the others but write only its own advice.
  parallelForChunks(Nests.size(), [&](size_t I) {
    strided(Nests[I], Out[I]);
    whatIfs(I, Groups, Out[I]);
  });
  for (size_t I = 0; I < Nests.size(); ++I) {
    if (!Out[I].MemoryBound)
      continue;
    for (const IllegalFusion &F : Illegal)
      if (F.First == I || F.Second == I)
        Out[I].Rejected.push_back(
            {"fuse",
             "fuse with the loop at line " +
                 std::to_string(Nests[F.First == I ? F.Second : F.First]
                                    .Nest->Loc.Line),
             F.Reason});
  }
  // Runs of elementwise loops with intermediates to keep on chip.
  for (const Group &G : Groups) {
    if (!G.Elementwise)
      continue;
    std::vector<std::string> Candidates = intermediates(G, Nests);
    if (Candidates.empty())
      continue;
    std::vector<LoopNest> Ns;
    for (size_t K : G.Members)
      Ns.push_back(*Nests[K].Nest);
    std::vector<std::string> Kept;
    std::optional<LoopNest> Fused = fuseAndContract(Ns, Candidates, Kept);
    std::optional<LoopNest> Stored = fuseOnly(Ns);
    if (!Fused || !Stored || Kept.empty())
      continue;
    FusionOpportunity F;
    F.Nests = G.Members;
    F.Intermediates = Kept;
    F.Legality = G.Legality;
    F.Model = trafficModelName(Model);
    bool Ok = true;
    for (size_t K : G.Members) {
      F.Lines.push_back(Nests[K].Nest->Loc.Line);
      const NestVerdict &J = *Nests[K].Verdict;
      Ok &= J.V.has_value();
      if (J.V)
        F.BytesBefore += J.V->Bytes;
    }
    std::optional<Prediction> A = predict({*Fused}), B = predict({*Stored});
    if (!Ok || !A || !B)
      continue;
    F.BytesFused = A->Bytes;
    F.BytesFusedStored = B->Bytes;
    for (const std::string &X : Kept)
      if (!Nests[G.Members.front()].Nest->Sem.LocalArrays.count(X))
        F.MaybeLive.push_back(X);
    Out[G.Members.front()].Fusion = std::move(F);
  }
  return Out;
}

} // namespace

std::optional<Prediction>
roofline::predictNests(const std::vector<LoopNest> &Ns, const Machine &M,
                       TrafficModel Model, const ModelOptions &MOpts) {
  std::vector<NestCounts> Counts;
  Counts.reserve(Ns.size());
  for (const LoopNest &N : Ns) {
    llvm::Expected<NestCounts> C = analyzeNest(N);
    if (!C) { // no counts, no prediction: the advice is not given
      llvm::consumeError(C.takeError());
      return std::nullopt;
    }
    Counts.push_back(std::move(*C));
  }
  std::vector<std::pair<const LoopNest *, const NestCounts *>> Pairs;
  for (size_t I = 0; I < Ns.size(); ++I)
    Pairs.push_back({&Ns[I], &Counts[I]});
  return predictCounted(Pairs, M, Model, MOpts);
}

std::vector<NestAdvice> roofline::adviseNests(
    const std::vector<AdvisedNest> &Nests, const Machine &M,
    TrafficModel Model, const ModelOptions &MOpts, const AdviceOptions &Opts,
    const std::vector<SourceLoc> &Skipped) {
  Advisor A(Nests, M, Model, MOpts, Opts);
  return A.run(Skipped);
}
