//===- Program.cpp - Applying schedules to programs -----------------------===//

#include "LoopTransforms.h"
#include "TransformUtil.h"

#include "roofline/Analysis/Dependence.h"

#include "llvm/ADT/StringExtras.h"

#include <algorithm>

using namespace roofline;

Program roofline::makeProgram(const LoopNest &N) {
  return makeProgram(std::vector<LoopNest>{N});
}

Program roofline::makeProgram(const std::vector<LoopNest> &Group,
                              const ProgramOptions &O) {
  Program P;
  P.Quantize = O.Quantize;
  for (const LoopNest &N : Group) {
    KernelNest K;
    K.Nest = N;
    if (O.PromoteAccumulators)
      promoteAccumulators(K.Nest, &P.Log);
    for (const Array &A : N.Arrays)
      if (std::none_of(P.SourceArrays.begin(), P.SourceArrays.end(),
                       [&](const Array &X) { return X.Name == A.Name; }))
        P.SourceArrays.push_back(A);
    P.Nests.push_back(std::move(K));
  }
  if (P.Nests.size() == 1)
    P.Source = recognizeContraction(P.Nests.front().Nest);
  return P;
}

std::vector<std::string> roofline::bandLoops(const LoopNest &N) {
  std::vector<std::string> Out;
  for (const Loop *L : permutableBand(N))
    Out.push_back(L->IV);
  return Out;
}

namespace {

size_t countLoops(const Loop &L) {
  size_t C = 0;
  forEachLoopIn(L, [&](const Loop &) { ++C; });
  return C;
}

/// The nest a loop record applies to: among those having every named loop,
/// the one with the most loops (the main computation, not an init that
/// distribution split off); the last on a tie.
std::optional<size_t> mainNest(Program &P,
                               const std::vector<std::string> &Loops) {
  std::optional<size_t> Best;
  size_t BestCount = 0;
  for (size_t I = 0; I < P.Nests.size(); ++I) {
    bool All = true;
    for (const std::string &IV : Loops)
      All &= findLoop(P.Nests[I].Nest.Root, IV) != nullptr;
    size_t C = countLoops(P.Nests[I].Nest.Root);
    if (All && (!Best || C >= BestCount)) {
      Best = I;
      BestCount = C;
    }
  }
  return Best;
}

/// The loop chain through \p IV: its path from the root and the loops below
/// it while each body holds one loop.
std::vector<std::string> chainThrough(LoopNest &N, const std::string &IV) {
  std::vector<Loop *> Path;
  Loop *L = findLoop(N.Root, IV, &Path);
  std::vector<std::string> Out;
  if (!L)
    return Out;
  for (Loop *X : Path)
    Out.push_back(X->IV);
  while (true) {
    Loop *Only = nullptr;
    unsigned Count = 0;
    for (Node &C : L->Body)
      if (C.isLoop()) {
        Only = &C.loop();
        ++Count;
      }
    if (Count != 1)
      break;
    Out.push_back(Only->IV);
    L = Only;
  }
  return Out;
}

llvm::Error recordError(const TransformRecord &R, llvm::Error E) {
  return transformError(R.str() + ": " + llvm::toString(std::move(E)));
}

/// Orders \p Names by their depth on the chain through the deepest one, or
/// fails when they are not on one chain.
llvm::Expected<std::vector<std::string>>
chainOrder(LoopNest &N, const std::vector<std::string> &Names) {
  std::vector<std::string> Best;
  for (const std::string &IV : Names) {
    std::vector<std::string> C = chainThrough(N, IV);
    if (C.empty())
      return transformError("no loop '" + IV + "'");
    if (C.size() > Best.size())
      Best = C;
  }
  std::vector<std::string> Out;
  for (const std::string &IV : Best)
    if (std::find(Names.begin(), Names.end(), IV) != Names.end())
      Out.push_back(IV);
  if (Out.size() != Names.size())
    return transformError("loops " + llvm::join(Names, ", ") +
                          " are not on one chain of the nest");
  return Out;
}

llvm::Expected<std::string> applyLoopRecord(Program &P,
                                            const TransformRecord &R,
                                            const ParamValues &V) {
  std::optional<size_t> Idx = mainNest(P, R.Names);
  if (!Idx)
    return transformError("no nest has loop" +
                          std::string(R.Names.size() > 1 ? "s " : " ") +
                          llvm::join(R.Names, ", "));
  KernelNest &K = P.Nests[*Idx];
  switch (R.Kind) {
  case TransformRecord::Interchange: {
    llvm::Expected<std::vector<std::string>> Ord = chainOrder(K.Nest, R.Names);
    if (!Ord)
      return Ord.takeError();
    std::vector<std::string> C = chainThrough(K.Nest, (*Ord)[1]);
    auto A = std::find(C.begin(), C.end(), (*Ord)[0]);
    auto B = std::find(C.begin(), C.end(), (*Ord)[1]);
    std::vector<std::string> Seg(A, B + 1);
    std::swap(Seg.front(), Seg.back());
    return permuteLoops(P, *Idx, Seg, V);
  }
  case TransformRecord::Permute:
    return permuteLoops(P, *Idx, R.Names, V);
  case TransformRecord::StripMine: {
    llvm::Expected<std::string> T = stripMine(K, R.Names[0], R.Sizes[0], V);
    if (!T)
      return T.takeError();
    return "always legal (the iteration order is unchanged); tile loop '" +
           *T + "'";
  }
  case TransformRecord::Tile: {
    llvm::Expected<std::vector<std::string>> Ord = chainOrder(K.Nest, R.Names);
    if (!Ord)
      return Ord.takeError();
    std::vector<std::string> C = chainThrough(K.Nest, Ord->back());
    auto First = std::find(C.begin(), C.end(), Ord->front());
    if (std::vector<std::string>(First, First + Ord->size()) != *Ord)
      return transformError("loops " + llvm::join(R.Names, ", ") +
                            " are not contiguous");
    // Distribute what sits beside the band while the dependences can still
    // be read exactly (before strip-mining hides the tile/point relation).
    if (llvm::Error E = distributeChain(P, *Idx, Ord->front(), Ord->back(), V))
      return std::move(E);
    Idx = mainNest(P, R.Names);
    KernelNest &KT = P.Nests[*Idx];
    std::map<std::string, std::string> TileOf;
    for (size_t I = 0; I < R.Names.size(); ++I) {
      llvm::Expected<std::string> T = stripMine(KT, R.Names[I], R.Sizes[I], V);
      if (!T)
        return T.takeError();
      TileOf[R.Names[I]] = *T;
    }
    std::vector<std::string> Order;
    for (const std::string &N : R.Names)
      Order.push_back(TileOf[N]);
    for (const std::string &N : *Ord)
      Order.push_back(N);
    return permuteLoops(P, *Idx, Order, V);
  }
  case TransformRecord::UnrollJam:
  case TransformRecord::RegBlock: {
    llvm::Expected<std::vector<std::string>> Ord = chainOrder(K.Nest, R.Names);
    if (!Ord)
      return Ord.takeError();
    {
      std::vector<std::string> C0 = chainThrough(K.Nest, Ord->front());
      if (llvm::Error E =
              distributeChain(P, *Idx, Ord->front(), C0.back(), V))
        return std::move(E);
    }
    Idx = mainNest(P, R.Names);
    KernelNest &KR = P.Nests[*Idx];
    std::vector<std::string> Tiles;
    for (size_t I = 0; I < R.Names.size(); ++I) {
      llvm::Expected<std::string> T = stripMine(KR, R.Names[I], R.Sizes[I], V);
      if (!T)
        return T.takeError();
      Tiles.push_back(*T);
    }
    // From the outermost new tile loop to the bottom of the chain; the
    // points go innermost in the listed order.
    std::vector<std::string> C = chainThrough(KR.Nest, R.Names.back());
    size_t From = C.size();
    for (const std::string &T : Tiles)
      From = std::min<size_t>(From, std::find(C.begin(), C.end(), T) - C.begin());
    std::vector<std::string> Order;
    for (size_t I = From; I < C.size(); ++I)
      if (std::find(R.Names.begin(), R.Names.end(), C[I]) == R.Names.end())
        Order.push_back(C[I]);
    for (const std::string &N : R.Names)
      Order.push_back(N);
    llvm::Expected<std::string> Why = permuteLoops(P, *Idx, Order, V);
    if (!Why)
      return Why.takeError();
    KernelNest &K2 = *mainNest(P, R.Names) < P.Nests.size()
                         ? P.Nests[*mainNest(P, R.Names)]
                         : P.Nests[*Idx];
    for (size_t I = 0; I < R.Names.size(); ++I)
      K2.Attrs[R.Names[I]].Unroll = static_cast<unsigned>(R.Sizes[I]);
    return *Why;
  }
  case TransformRecord::Parallel:
  case TransformRecord::Vectorize: {
    bool Vec = R.Kind == TransformRecord::Vectorize;
    llvm::Expected<std::string> Why = markParallel(K, R.Names[0], Vec, V);
    if (!Why)
      return Why.takeError();
    // Other nests with the same loop (a distributed init) follow if they
    // may; they are not required to.
    for (size_t I = 0; I < P.Nests.size(); ++I)
      if (I != *Idx && findLoop(P.Nests[I].Nest.Root, R.Names[0])) {
        llvm::Expected<std::string> W =
            markParallel(P.Nests[I], R.Names[0], Vec, V);
        if (!W) // that nest keeps its loop serial: not an error of R's
          llvm::consumeError(W.takeError());
      }
    return *Why;
  }
  default:
    return transformError("not a loop transform");
  }
}

/// The BLIS form: the source is an f32 gemm (or batched gemm), and the
/// schedule tiled its M, N and K loops once, register-blocked M and N,
/// optionally packed its operands and marked the M block loop parallel.
/// A gemv takes a register block of its rows and no tiles.
void detectMicroKernel(Program &P) {
  P.Micro.reset();
  if (!P.Source || P.Quant || P.Source->Elem != Precision::F32 ||
      P.Nests.empty())
    return;
  const ContractionInfo &C = *P.Source;
  MicroKernelPlan M;
  M.C = C;
  std::map<std::string, int64_t> TileSize, RegSize;
  std::string Parallel;
  for (const TransformRecord &R : P.Applied.Records) {
    switch (R.Kind) {
    case TransformRecord::Fuse:
    case TransformRecord::Contract:
      // Before the loop records only: they made the nest P.Source is.
      if (!TileSize.empty() || !RegSize.empty())
        return;
      break;
    case TransformRecord::Tile:
      for (size_t I = 0; I < R.Names.size(); ++I)
        if (!TileSize.emplace(R.Names[I], R.Sizes[I]).second)
          return;
      break;
    case TransformRecord::RegBlock:
      for (size_t I = 0; I < R.Names.size(); ++I)
        if (!RegSize.emplace(R.Names[I], R.Sizes[I]).second)
          return;
      break;
    case TransformRecord::Pack:
      for (const std::string &A : R.Names) {
        if (A == C.L.Array)
          M.PackA = true;
        else if (A == C.R.Array)
          M.PackB = true;
        else
          return;
      }
      break;
    case TransformRecord::Parallel:
      Parallel = R.Names[0];
      break;
    default:
      return;
    }
  }
  if (C.isGemm()) {
    if (TileSize.size() != 3 || !TileSize.count(C.M) || !TileSize.count(C.N) ||
        !TileSize.count(C.K) || RegSize.size() != 2 || !RegSize.count(C.M) ||
        !RegSize.count(C.N))
      return;
    M.MC = TileSize[C.M];
    M.NC = TileSize[C.N];
    M.KC = TileSize[C.K];
    M.MR = RegSize[C.M];
    M.NR = RegSize[C.N];
    if (!Parallel.empty() && Parallel != C.M + "_1")
      return;
  } else if (C.isGemv()) {
    if (!TileSize.empty() || RegSize.size() != 1 || !RegSize.count(C.M) ||
        M.PackA || M.PackB)
      return;
    M.MR = RegSize[C.M];
    if (!Parallel.empty() && Parallel != C.M + "_1")
      return;
  } else {
    return;
  }
  M.Parallel = !Parallel.empty();
  P.Micro = std::move(M);
}

} // namespace

llvm::Error roofline::applyRecord(Program &P, const TransformRecord &R,
                                  const ParamValues &V) {
  // The implicit gemm keeps the source nest: only its M loop may follow.
  // A quantized convolution's driver runs on one thread: nothing follows.
  if (P.Conv && P.Quant)
    return recordError(R, transformError("no record may follow quantize(" +
                                         P.Quant->Precision +
                                         ") of a convolution"));
  if (P.Conv &&
      !(R.Kind == TransformRecord::Parallel && R.Names[0] == P.Conv->C.M))
    return recordError(R, transformError("only parallel(" + P.Conv->C.M +
                                         ") may follow implicit_gemm"));
  // The exit is no statement of the IR: a transformed nest would run on.
  for (const KernelNest &K : P.Nests)
    if (const Loop *L = earlyExitLoop(K.Nest.Root))
      return recordError(R, transformError(
                                "the loop at line " +
                                std::to_string(L->Loc.Line) +
                                " stops early on the data"));
  Program Work = P;
  llvm::Expected<std::string> Why = std::string();
  switch (R.Kind) {
  case TransformRecord::Fuse:
    Why = fuseAll(Work, V);
    break;
  case TransformRecord::Contract:
    Why = contractArrays(Work, R.Names);
    break;
  case TransformRecord::Quantize:
    Why = quantize(Work, R);
    break;
  case TransformRecord::ImplicitGemm:
    Why = implicitGemm(Work, R);
    break;
  case TransformRecord::Pack: {
    std::string Reasons;
    for (const std::string &A : R.Names) {
      bool Done = false;
      for (KernelNest &K : Work.Nests) {
        if (!K.Nest.findArray(A))
          continue;
        llvm::Expected<std::string> W = packArray(K, A);
        if (!W)
          return recordError(R, W.takeError());
        Reasons += (Reasons.empty() ? "" : "; ") + *W;
        Done = true;
        break;
      }
      if (!Done)
        return recordError(R, transformError("no nest reads '" + A + "'"));
    }
    Why = Reasons;
    break;
  }
  default:
    Why = applyLoopRecord(Work, R, V);
    if (Why && Work.Conv)
      Work.Conv->Parallel = true;
    break;
  }
  if (!Why)
    return recordError(R, Why.takeError());
  // A fused group that became one nest is a source of its own: a gemm
  // with the later nests as its epilogue takes the micro-kernel path.
  if ((R.Kind == TransformRecord::Fuse || R.Kind == TransformRecord::Contract) &&
      Work.Nests.size() == 1)
    Work.Source = recognizeContraction(Work.Nests.front().Nest);
  Work.Applied.Records.push_back(R);
  Work.Log.push_back(R.str() + ": " + *Why);
  detectMicroKernel(Work);
  P = std::move(Work);
  return llvm::Error::success();
}

std::vector<std::string>
roofline::contractWhereLegal(Program &P, const std::vector<std::string> &Arrays,
                             const ParamValues &Values) {
  std::vector<std::string> Kept;
  for (const std::string &A : Arrays) {
    TransformRecord C = TransformRecord::make(TransformRecord::Contract, {A});
    if (llvm::Error E = applyRecord(P, C, Values)) {
      llvm::consumeError(std::move(E)); // not legal for A: A stays stored
      continue;
    }
    Kept.push_back(A);
  }
  return Kept;
}

llvm::Error roofline::applySchedule(Program &P, const Schedule &S,
                                    const ParamValues &V) {
  for (const TransformRecord &R : S.Records)
    if (llvm::Error E = applyRecord(P, R, V))
      return E;
  return llvm::Error::success();
}

std::string roofline::printProgram(const Program &P) {
  std::string S = "schedule: " +
                  (P.Applied.empty() ? std::string("(none)") : P.Applied.str()) +
                  "\n";
  for (const std::string &L : P.Log)
    S += "legality: " + L + "\n";
  if (P.Micro) {
    const MicroKernelPlan &M = P.Micro->C.isGemm()
                                   ? *P.Micro
                                   : *P.Micro;
    S += "micro-kernel: " + M.C.kind() + " " + M.C.Out.Array + " += " +
         M.C.L.Array + " * " + M.C.R.Array;
    if (M.C.isGemm())
      S += ", MC=" + std::to_string(M.MC) + " NC=" + std::to_string(M.NC) +
           " KC=" + std::to_string(M.KC) + " MR=" + std::to_string(M.MR) +
           " NR=" + std::to_string(M.NR) +
           (M.PackA ? " pack " + M.C.L.Array : std::string()) +
           (M.PackB ? " pack " + M.C.R.Array : std::string());
    else
      S += ", rows per block " + std::to_string(M.MR);
    S += M.Parallel ? ", parallel\n" : "\n";
  }
  if (P.Conv) {
    S += "implicit gemm: " + P.Conv->C.kind() + " " + P.Conv->C.Out.Array +
         " += " + P.Conv->C.W.Array + " * im2col(" + P.Conv->C.In.Array +
         "), M=" + P.Conv->C.M + " N=(" + llvm::join(P.Conv->C.N, ",") +
         ") K=(" + llvm::join(P.Conv->C.K, ",") + ")";
    if (P.Quant)
      S += ", the " + P.Quant->Precision + " gemm on an im2col copy\n";
    else
      S += ", MC=" + std::to_string(P.Conv->MC) + " NC=" +
           std::to_string(P.Conv->NC) + " KC=" + std::to_string(P.Conv->KC) +
           " MR=" + std::to_string(P.Conv->MR) + " NR=" +
           std::to_string(P.Conv->NR) +
           (P.Conv->Parallel ? ", parallel\n" : "\n");
  }
  if (P.Quant)
    S += "quantized: " + P.Quant->Precision +
         (P.Quant->LGran.empty()
              ? std::string()
              : " (" + P.Quant->C.L.Array + ":" + P.Quant->LGran + ", " +
                    P.Quant->C.R.Array + ":" + P.Quant->RGran + ")") +
         ", prepared: " + llvm::join(P.Quant->Prepared, ", ") + "\n";
  PrintOptions O;
  O.Values = true;
  for (const KernelNest &K : P.Nests) {
    S += printNest(K.Nest, O);
    for (const auto &[IV, A] : K.Attrs) {
      std::string Marks;
      if (A.Parallel)
        Marks += " parallel";
      if (A.Vector)
        Marks += " simd";
      if (A.Unroll)
        Marks += " unroll " + std::to_string(A.Unroll);
      if (!Marks.empty())
        S += "loop " + IV + ":" + Marks + "\n";
    }
  }
  return S;
}

//===----------------------------------------------------------------------===//
// Choosing the unit-stride order
//===----------------------------------------------------------------------===//

std::optional<TransformRecord> roofline::unitStrideOrder(const LoopNest &N,
                                                         std::string *Why) {
  std::vector<const Loop *> Band = permutableBand(N);
  if (Band.size() < 2) {
    if (Why)
      *Why = "the band has one loop";
    return std::nullopt;
  }
  // Accesses executed in the innermost band loop's body.
  std::vector<const Access *> Inner;
  forEachStmt(*Band.back(), [&](const Stmt &S, const std::vector<const Loop *> &) {
    for (const Access &A : S.Accesses)
      Inner.push_back(&A);
  });
  auto Score = [&](const std::string &IV) {
    int S = 0;
    for (const Access *A : Inner) {
      bool Uses = false, UnitLast = false;
      for (size_t D = 0; D < A->Subscripts.size(); ++D) {
        const auto &Sub = A->Subscripts[D];
        if (!Sub) {
          Uses = true;
          continue;
        }
        int64_t C = Sub->coeff(IV);
        if (!C)
          continue;
        if (D + 1 == A->Subscripts.size() && (C == 1 || C == -1) && !Uses)
          UnitLast = true;
        else
          UnitLast = false;
        Uses = true;
      }
      S += !Uses ? 1 : UnitLast ? 1 : -1;
    }
    return S;
  };
  std::vector<std::pair<int, size_t>> Cands;
  for (size_t I = 0; I < Band.size(); ++I)
    Cands.push_back({-Score(Band[I]->IV), I});
  std::stable_sort(Cands.begin(), Cands.end());
  int Current = Score(Band.back()->IV);
  std::string Last;
  for (const auto &[NegScore, I] : Cands) {
    if (-NegScore <= Current) {
      if (Why)
        *Why = Last.empty() ? "the innermost loop '" + Band.back()->IV +
                                  "' already gives the most unit-stride "
                                  "accesses"
                            : Last;
      return std::nullopt;
    }
    std::vector<std::string> Order;
    for (size_t J = 0; J < Band.size(); ++J)
      if (J != I)
        Order.push_back(Band[J]->IV);
    Order.push_back(Band[I]->IV);
    Legality L = isInterchangeLegal(N, Order);
    if (!L.Legal) {
      Last = "loop order " + llvm::join(Order, ", ") + " is illegal: " +
             L.Reason;
      continue;
    }
    TransformRecord R;
    R.Kind = TransformRecord::Permute;
    R.Names = Order;
    if (Why)
      *Why = L.Reason;
    return R;
  }
  if (Why)
    *Why = Last;
  return std::nullopt;
}
