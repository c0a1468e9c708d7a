//===- CacheSim.cpp - The cache model over a function's nests -------------===//

#include "CacheSim.h"

#include "IterationSpace.h"
#include "PhaseModel.h"

#include "llvm/ADT/SmallVector.h"
#include "llvm/Support/Debug.h"

#include <algorithm>
#include <cmath>
#include <limits>
#include <memory>
#include <cstdio>
#include <cstdlib>

// -debug-only=roofline-cachesim: each phase's hits and cold misses.
#define DEBUG_TYPE "roofline-cachesim"

using namespace roofline;
using namespace roofline::detail;

namespace {

/// Cells per array: along the last dimension at most LastDimCells blocks
/// of whole lines; along the others a cell per index, from the first
/// dimension in, while the array has at most CellsPerArray cells (then the
/// next dimension in blocks). The outermost loops usually advance a row or
/// plane at a time, and a cell partly touched before counts as touched.
constexpr double LastDimCells = 64;
constexpr double CellsPerArray = 1 << 18;
/// Steps of a phase's outermost loop.
constexpr unsigned PhaseSteps = 64;
/// A sequencing loop with more iterations is sampled: the first few, then
/// strata each ending in a measured iteration after two unmeasured ones.
constexpr int64_t FullLoop = 12;
constexpr int64_t Strata = 8;
/// Strata of a sequencing loop whose body's bounds use its variable.
constexpr int64_t TriangleStrata = 32;

/// Bytes whose last use was at each step, with sums over later steps.
/// Allocated at the first add: a function whose one phase is not stepped
/// through (most: FunctionSim::needsAnySteps) never uses it, and zeroing
/// its 1,025 entries per function was a tenth of the simulation's cost.
class StepTree {
public:
  void add(int64_t Step, double V) {
    if (Tree.empty())
      Tree.assign(InitialSize, 0);
    grow(Step);
    Total += V;
    for (size_t I = static_cast<size_t>(Step) + 1; I < Tree.size();
         I += I & (~I + 1))
      Tree[I] += V;
  }
  /// Bytes last used after \p Step.
  double after(int64_t Step) const {
    if (Tree.empty())
      return Total;
    double Sum = 0;
    for (size_t I = std::min(static_cast<size_t>(Step) + 1, Tree.size() - 1);
         I > 0; I -= I & (~I + 1))
      Sum += Tree[I];
    return Total - Sum;
  }
  void clear() {
    std::fill(Tree.begin(), Tree.end(), 0);
    Total = 0;
  }

private:
  static constexpr size_t InitialSize = 1025;
  std::vector<double> Tree; ///< 1-based; empty until the first add
  double Total = 0;

  void grow(int64_t Step) {
    if (static_cast<size_t>(Step) + 1 < Tree.size())
      return;
    // Rebuild at a larger size from the per-step values.
    size_t Old = Tree.size() - 1;
    std::vector<double> Raw(Old, 0);
    for (size_t I = 0; I < Old; ++I)
      Raw[I] = rangeSum(I);
    size_t New = Old;
    while (New <= static_cast<size_t>(Step) + 1)
      New *= 2;
    Tree.assign(New + 1, 0);
    Total = 0;
    for (size_t I = 0; I < Old; ++I)
      if (Raw[I] != 0)
        add(static_cast<int64_t>(I), Raw[I]);
  }
  double prefix(size_t Step) const { // sum over [0, Step)
    double Sum = 0;
    for (size_t I = Step; I > 0; I -= I & (~I + 1))
      Sum += Tree[I];
    return Sum;
  }
  double rangeSum(size_t Step) const { return prefix(Step + 1) - prefix(Step); }
};

struct ArrayCells {
  const ArrayGeom *G = nullptr;
  std::vector<double> Width;  ///< elements per block, per dimension
  std::vector<int64_t> Count; ///< blocks per dimension
  size_t First = 0;           ///< index of its first cell
  double Bytes = 0;
};

struct Cell {
  int64_t Last = -1; ///< step of the last touch; -1: not in any cache
  double Weight = 0; ///< bytes it holds in the LRU stack
  bool Dirty = false; ///< written since it came in
};

struct Acc {
  std::vector<double> Fetch, Writeback, Carried;
  bool Numeric = true;
  std::string WhyNot;
};

/// One nest, renamed where loop variables shadow.
struct NestState {
  LoopNest Owned; ///< the nest with unique loop variables
  const LoopNest *N = nullptr;
  const NestCounts *C = nullptr;
  bool AfterUnknown = false;
  std::unique_ptr<PhaseModel> Model;
  std::map<const Loop *, bool> Branchy;
};

/// A cell a box covers, with the bytes it covers of it.
struct Touched {
  size_t Cell;
  double Bytes, Rank;
  const std::string *Array;
  unsigned Group = 0;
  bool Write = false;
};

/// Whether a loop of \p L's subtree has two loop children (FunctionSim's
/// branchy: then \p L is not one phase).
bool hasSiblingLoops(const Loop &L) {
  unsigned Kids = 0;
  for (const Node &N : L.Body)
    if (N.isLoop()) {
      if (++Kids >= 2 || hasSiblingLoops(N.loop()))
        return true;
    }
  return false;
}

/// The loops of \p L's subtree that are phases (no two sibling loops
/// below), with the loops above them.
void forEachPhase(const Loop &L, std::vector<const Loop *> &Outer,
                  const std::function<bool(const Loop &)> &Branchy,
                  const std::function<void(const Loop &,
                                           const std::vector<const Loop *> &)>
                      &F) {
  if (!Branchy(L)) {
    F(L, Outer);
    return;
  }
  Outer.push_back(&L);
  for (const Node &N : L.Body)
    if (N.isLoop())
      forEachPhase(N.loop(), Outer, Branchy, F);
  Outer.pop_back();
}

/// FunctionSim's per-cell arrays and scratch vectors, kept per thread from
/// function to function (refilled, their capacity kept): allocated afresh
/// for each function they were most of --format=json's page faults (the
/// heap grew and was trimmed again around every function).
struct SimBuffers {
  bool InUse = false;
  std::vector<Cell> Cells;
  std::vector<double> CellFull, Part, GroupSum, Largest;
  std::vector<int64_t> PartStamp, GroupStamp;
  /// The cells each step of a phase touches, and the cells a phase
  /// touches (phaseBytes).
  std::vector<std::vector<Touched>> StepCells;
  std::vector<std::pair<size_t, const std::string *>> CellList;
};

SimBuffers &threadBuffers() {
  static thread_local SimBuffers B;
  return B;
}

class FunctionSim {
public:
  FunctionSim(const CacheConfig &Cfg, const CacheLayout &Layout)
      : Cfg(Cfg), Layout(Layout), Buf(threadBuffers()), Cells(Buf.Cells),
        CellFull(Buf.CellFull), Part(Buf.Part), PartStamp(Buf.PartStamp),
        GroupSum(Buf.GroupSum), Largest(Buf.Largest),
        GroupStamp(Buf.GroupStamp) {
    assert(!Buf.InUse && "one FunctionSim per thread at a time");
    Buf.InUse = true;
    for (const auto &[Name, G] : Layout.Geoms)
      addArray(Name, G);
  }
  ~FunctionSim() { Buf.InUse = false; }
  FunctionSim(const FunctionSim &) = delete;
  FunctionSim &operator=(const FunctionSim &) = delete;

  /// Fills the per-cell arrays on first use: a function whose one phase
  /// needs neither steps nor a footprint (account) never touches a cell.
  void readyCells() {
    if (CellsReady)
      return;
    CellsReady = true;
    Cells.assign(NumCells, Cell());
    CellFull.assign(NumCells, 0);
    Part.assign(NumCells, 0);
    PartStamp.assign(NumCells, -1);
    GroupSum.assign(NumCells, 0);
    Largest.assign(NumCells, 0);
    GroupStamp.assign(NumCells, -1);
    for (const auto &[Name, A] : Arrays) {
      Box Whole;
      for (double E : A.G->Extent)
        Whole.push_back({0, std::max(0.0, E - 1), 1});
      forCells(Name, Whole, 1,
               [](llvm::ArrayRef<int64_t>, llvm::ArrayRef<int64_t>) {},
               [&](size_t Cell, double Bytes, size_t, double,
                   const std::string *) { CellFull[Cell] = Bytes; });
    }
  }

  void reset() {
    if (CellsReady)
      for (Cell &C : Cells)
        C = Cell();
    Tree.clear();
  }

  /// Declares that nothing reads the caches' state after the next phase
  /// (the function's one phase, in its one pass).
  void lastPhaseNext() { StateDead = true; }

  /// Describes the reuse each phase of \p S carries into \p Accesses (the
  /// loops above a phase at their first values). A nest that is one phase
  /// is described by the simulation's own run of it, kept for runNest: the
  /// inputs are the same (no loops above), and describing changes nothing
  /// in the result; it used to be run twice.
  void describeNest(NestState &S, std::vector<AccessCacheInfo> &Accesses,
                    const std::map<const Access *, unsigned> &Ids) {
    Cur = &S;
    const Loop &Root = S.N->Root;
    if (!branchy(Root)) {
      // Where account needs no steps (needsSteps) one step shows the
      // groups; the step count changes nothing else in the result.
      bool Few = !needsAnySteps();
      S.Model->setDescribe(&Accesses);
      PhaseResult R = S.Model->run(Root, {}, {}, Few ? 1 : PhaseSteps);
      S.Model->setDescribe(nullptr);
      if (Few && twoGroupsOfAnArray(R))
        R = S.Model->run(Root, {}, {}, PhaseSteps);
      PhaseMemo.emplace(PhaseKey{&Root, {}}, std::move(R));
      return;
    }
    PhaseModel Describer(*S.N, Cfg, Layout, paramValues(*S.N, S.C->Values),
                         &Accesses, &Ids);
    std::vector<const Loop *> Outer;
    forEachPhase(Root, Outer, [&](const Loop &L) { return branchy(L); },
                 [&](const Loop &P, const std::vector<const Loop *> &O) {
                   IVValues Env;
                   for (const Loop *L : O)
                     Env[L->IV] =
                         Describer.evalBound(L->First, Env).value_or(0);
                   Describer.run(P, O, Env, 1);
                 });
  }

  /// Simulates nest \p S once; measures into \p A when \p Measure.
  void runNest(NestState &S, bool Measure, Acc &A) {
    Cur = &S;
    NestStart = Now + 1;
    simNode(S.N->Root, {}, {}, Measure ? 1.0 : 0.0, A);
  }

private:
  const CacheConfig &Cfg;
  const CacheLayout &Layout;
  std::map<std::string, ArrayCells> Arrays;
  size_t NumCells = 0;
  SimBuffers &Buf;
  std::vector<Cell> &Cells;
  std::vector<double> &CellFull; ///< bytes of each whole cell
  /// What the current phase touches of each cell over all its steps (valid
  /// where PartStamp is the phase's start).
  std::vector<double> &Part;
  std::vector<int64_t> &PartStamp;
  /// phaseBytes' scratch per cell: one group's parts summed (valid where
  /// GroupStamp is the group's Generation), and the largest group part of
  /// the phase (valid where PartStamp is).
  std::vector<double> &GroupSum, &Largest;
  std::vector<int64_t> &GroupStamp;
  int64_t Generation = 0;
  bool CellsReady = false; ///< see readyCells
  StepTree Tree;
  int64_t Now = 0, NestStart = 0;
  bool StateDead = false; ///< see lastPhaseNext
  NestState *Cur = nullptr;
  struct PhaseKey {
    const void *Node;
    IVValues Env;
    bool operator<(const PhaseKey &O) const {
      return Node != O.Node ? Node < O.Node : Env < O.Env;
    }
  };
  std::map<PhaseKey, PhaseResult> PhaseMemo;
  std::map<PhaseKey, std::vector<Group>> BodyMemo;
  /// The sequencing loops being stepped through, innermost last: where
  /// the loop and its current iteration started, and per array and level
  /// the share of its lines one iteration's data leaves in their sets
  /// (SetOccupancy: conflicts of the arrays the body walks together).
  struct Sequence {
    int64_t LoopStart = 0, IterStart = 0;
    std::map<std::string, std::vector<double>> Keep;
  };
  std::vector<Sequence> Sequences;

  size_t levels() const { return Cfg.Levels.size(); }

  void addArray(const std::string &Name, const ArrayGeom &G) {
    ArrayCells A;
    A.G = &G;
    size_t Dims = G.Extent.size();
    A.Count.assign(Dims, 1);
    A.Width.assign(Dims, 1);
    A.First = NumCells;
    // Units: lines along the last dimension, indices along the others.
    std::vector<double> Units(Dims);
    for (size_t D = 0; D < Dims; ++D)
      Units[D] = D + 1 == Dims
                     ? std::max(1.0, std::ceil(G.Extent[D] * G.Elem / 64))
                     : std::max(1.0, G.Extent[D]);
    double Left = CellsPerArray;
    if (Dims > 0) {
      double Last = std::min(Units[Dims - 1],
                             Dims == 1 ? CellsPerArray : LastDimCells);
      A.Count[Dims - 1] = static_cast<int64_t>(Last);
      Left /= Last;
    }
    for (size_t D = 0; D + 1 < Dims; ++D) {
      double C = std::max(1.0, std::min(Units[D], std::floor(Left)));
      A.Count[D] = static_cast<int64_t>(C);
      Left = std::max(1.0, Left / C);
    }
    for (size_t D = 0; D < Dims; ++D) {
      double W = std::ceil(std::max(1.0, G.Extent[D]) /
                           static_cast<double>(A.Count[D]));
      if (D + 1 == Dims && G.Elem) { // whole lines
        double PerLine = std::max(1.0, std::floor(64.0 / G.Elem));
        W = std::ceil(W / PerLine) * PerLine;
      }
      A.Width[D] = W;
      A.Count[D] = static_cast<int64_t>(
          std::ceil(std::max(1.0, G.Extent[D]) / W));
    }
    int64_t N = 1;
    for (int64_t C : A.Count)
      N *= C;
    A.Bytes = G.Elem;
    for (double E : G.Extent)
      A.Bytes *= std::max(1.0, E);
    NumCells += static_cast<size_t>(N);
    Arrays[Name] = std::move(A);
  }

  //===--------------------------------------------------------------------===//
  // Touching cells
  //===--------------------------------------------------------------------===//


  /// The cells \p B covers and the bytes of each it covers.
  void cellsOf(const std::string &Array, const Box &B, double Density,
               std::vector<Touched> &Out, unsigned Group = 0,
               bool Write = false) {
    forCells(Array, B, Density,
             [&](llvm::ArrayRef<int64_t> Lo, llvm::ArrayRef<int64_t> Hi) {
               reserveFor(Out, Lo, Hi);
             },
             [&](size_t Cell, double N, size_t Index, double CellCount,
                 const std::string *Name) {
               Out.push_back({Cell, N,
                              (static_cast<double>(Index) + 0.5) / CellCount,
                              Name, Group, Write});
             });
  }

  /// cellsOf's walk: \p Room(Lo, Hi) with the blocks the box meets, then
  /// \p Emit(Cell, Bytes, Index, CellCount, Array) for each cell in order.
  template <typename RoomF, typename EmitF>
  void forCells(const std::string &Array, const Box &B, double Density,
                RoomF Room, EmitF Emit) {
    auto It = Arrays.find(Array);
    if (It == Arrays.end())
      return;
    const ArrayCells &A = It->second;
    size_t Dims = A.Count.size();
    if (Dims != B.size())
      return;
    unsigned Lb = Cfg.Levels.empty() ? 64 : Cfg.Levels.front().LineBytes;
    // Per dimension: the blocks the box meets and how many of its values
    // fall in each.
    llvm::SmallVector<int64_t, 4> Lo(Dims), Hi(Dims);
    llvm::SmallVector<llvm::SmallVector<double, 16>, 4> In(Dims);
    double Elements = 1;
    for (size_t D = 0; D < Dims; ++D) {
      const DimBox &X = B[D];
      double Step = X.single() ? 1 : static_cast<double>(X.Step);
      Elements *= X.values();
      Lo[D] = std::clamp<int64_t>(
          static_cast<int64_t>(std::floor(X.Lo / A.Width[D])), 0,
          A.Count[D] - 1);
      Hi[D] = std::clamp<int64_t>(
          static_cast<int64_t>(std::floor(X.Hi / A.Width[D])), 0,
          A.Count[D] - 1);
      for (int64_t K = Lo[D]; K <= Hi[D]; ++K) {
        double CLo = static_cast<double>(K) * A.Width[D];
        double CHi = CLo + A.Width[D] - 1;
        if (K == 0)
          CLo = -std::numeric_limits<double>::infinity();
        if (K == A.Count[D] - 1)
          CHi = std::numeric_limits<double>::infinity();
        double L = std::max(X.Lo, CLo), H = std::min(X.Hi, CHi);
        double N = 0;
        if (L <= H) {
          double First = X.Lo + std::ceil((L - X.Lo) / Step - 1e-9) * Step;
          N = First > H + 1e-9 ? 0 : std::floor((H - First) / Step + 1e-9) + 1;
        }
        In[D].push_back(X.single() ? (L <= H ? 1 : 0) : N);
      }
    }
    // Each cell's part counts its elements at the box's bytes per element
    // in whole lines: parts add up to the box's lines (a line two cells
    // share is not counted twice).
    double PerElement =
        linesOf(B, *A.G, Lb, true, true) * Lb / std::max(1.0, Elements);
    Room(Lo, Hi);
    int64_t Total = NumCellsOf(A);
    // The last dimension fastest: the outer dimensions' index and product
    // once per row of cells (the same operations, in the same order, as
    // per cell).
    double CellCount = static_cast<double>(std::max<int64_t>(1, Total));
    llvm::SmallVector<int64_t, 4> I = Lo;
    for (bool More = Dims > 0; More;) {
      size_t Last = Dims - 1, Row = 0;
      double Outer = Density * PerElement;
      for (size_t D = 0; D < Last; ++D) {
        Row = Row * static_cast<size_t>(A.Count[D]) + static_cast<size_t>(I[D]);
        Outer *= In[D][static_cast<size_t>(I[D] - Lo[D])];
      }
      Row *= static_cast<size_t>(A.Count[Last]);
      for (int64_t K = Lo[Last]; K <= Hi[Last]; ++K) {
        size_t Index = Row + static_cast<size_t>(K);
        double N = Outer * In[Last][static_cast<size_t>(K - Lo[Last])];
        if (N > 0)
          Emit(A.First + Index, N, Index, CellCount, &It->first);
      }
      // Next row.
      More = false;
      for (size_t D = Last; D-- > 0;) {
        if (++I[D] <= Hi[D]) {
          More = true;
          break;
        }
        I[D] = Lo[D];
      }
    }
  }

  /// Room in \p Out for the cells from \p Lo to \p Hi, growing it at
  /// least twofold: a step's vector collects several boxes, and growing it
  /// element by element copied each Touched a few times.
  static void reserveFor(std::vector<Touched> &Out,
                         llvm::ArrayRef<int64_t> Lo,
                         llvm::ArrayRef<int64_t> Hi) {
    size_t N = 1;
    for (size_t D = 0; D < Lo.size(); ++D)
      N *= static_cast<size_t>(std::max<int64_t>(0, Hi[D] - Lo[D] + 1));
    if (Out.size() + N > Out.capacity())
      Out.reserve(std::max(Out.size() + N, 2 * Out.capacity()));
  }

  static int64_t NumCellsOf(const ArrayCells &A) {
    int64_t N = 1;
    for (int64_t C : A.Count)
      N *= C;
    return N;
  }

  /// Per array, per level: bytes whose first touch in the phase hit, and
  /// of those the ones left by code before the nest.
  struct PhaseHits {
    /// Hits, those on data left before the nest, and those on data already
    /// written (a write there adds no write-back).
    std::map<std::string, std::vector<double>> Hit, Carried, DirtyHit;
  };

  /// The share of \p Bytes used again after \p D bytes of other data that
  /// level \p Lv still holds: fully associative, while D fits; with sets,
  /// data spread evenly over them fills some sets one line beyond their
  /// ways first (a ramp from the size to (ways + 1) / ways of it).
  double survives(size_t Lv, double D, double Bytes) const {
    const CacheLevelSpec &S = Cfg.Levels[Lv];
    if (!S.Ways)
      return std::clamp((S.SizeBytes - D) / Bytes, 0.0, 1.0);
    double Mid = D + Bytes / 2, Per = S.SizeBytes / S.Ways;
    return std::clamp((S.SizeBytes + Per - Mid) / Per, 0.0, 1.0);
  }

  /// Per array and level, the share of its lines that the data of one
  /// iteration of \p L (at the values \p Env) leaves in their sets.
  std::map<std::string, std::vector<double>>
  bodyKeep(const Loop &L, const std::vector<const Loop *> &Outer,
           const IVValues &Env) {
    PhaseKey K{&L, boundEnv(L, Env)};
    auto It = BodyMemo.find(K);
    if (It == BodyMemo.end())
      It = BodyMemo.emplace(K, Cur->Model->bodyGroups(L, Outer, Env)).first;
    const std::vector<Group> &Gs = It->second;
    std::map<std::string, std::vector<double>> Kept, Lines;
    for (size_t Lv = 0; Lv < levels(); ++Lv) {
      const CacheLevelSpec &S = Cfg.Levels[Lv];
      if (!S.Ways)
        continue;
      unsigned Sets = static_cast<unsigned>(std::max(
          1.0, std::floor(S.SizeBytes / (double(S.LineBytes) * S.Ways))));
      SetOccupancy O(Sets, S.Ways, S.LineBytes);
      std::vector<Box> Placed;
      for (size_t I = 0; I < Gs.size(); ++I) {
        Placed.push_back(Cur->Model->placed(Gs[I], Env));
        O.add(static_cast<unsigned>(I), Gs[I].Array, Placed.back(),
              Cur->Model->geom(Gs[I].Array));
      }
      std::vector<double> Share = O.keptShares();
      // Beyond the level the body's data is no cycle that could survive:
      // what reuse there is spans less than an iteration (the stack
      // distance decides it alone).
      double Total = 0;
      for (size_t I = 0; I < Gs.size(); ++I)
        Total += linesOf(Placed[I], Cur->Model->geom(Gs[I].Array),
                         S.LineBytes, true);
      if (Total * S.LineBytes > S.SizeBytes)
        std::fill(Share.begin(), Share.end(), 1.0);
      for (size_t I = 0; I < Gs.size(); ++I) {
        double N = linesOf(Placed[I], Cur->Model->geom(Gs[I].Array),
                           S.LineBytes, true);
        std::vector<double> &K = Kept[Gs[I].Array], &T = Lines[Gs[I].Array];
        K.resize(levels(), 0);
        T.resize(levels(), 0);
        K[Lv] += Share[I] * N;
        T[Lv] += N;
      }
    }
    for (auto &[Name, K] : Kept)
      for (size_t Lv = 0; Lv < levels(); ++Lv)
        K[Lv] = Lines[Name][Lv] > 0 ? K[Lv] / Lines[Name][Lv] : 1;
    return Kept;
  }

  /// What the current phase (started at \p PhaseStart) touches of cell
  /// \p C over all its steps, or \p Else when unknown.
  double partOf(size_t C, int64_t PhaseStart, double Else) const {
    return PartStamp[C] == PhaseStart ? Part[C] : Else;
  }

  /// \p T in order of rank, stably. cellsOf writes each box's cells in
  /// rank order, so a step is a few sorted runs: merging them is the
  /// stable sort's result at a fraction of its cost.
  static void sortByRank(std::vector<Touched> &T) {
    auto Less = [](const Touched &A, const Touched &B) {
      return A.Rank < B.Rank;
    };
    auto RunEnd = [&](std::vector<Touched>::iterator From) {
      return std::is_sorted_until(From, T.end(), Less);
    };
    auto End = RunEnd(T.begin());
    while (End != T.end()) {
      auto Next = RunEnd(End);
      std::inplace_merge(T.begin(), End, Next, Less);
      End = Next;
    }
  }

  /// One step: moves the cells to the top of the stack; with \p H, counts
  /// the first touches since \p PhaseStart that hit, each for the bytes of
  /// the cell the whole phase touches (partOf; the stack distance of its
  /// first line stands for the rest).
  void touchStep(std::vector<Touched> &T, int64_t PhaseStart, PhaseHits *H) {
    readyCells();
    ++Now;
    sortByRank(T);
    for (const Touched &X : T) {
      Cell &C = Cells[X.Cell];
      if (C.Last == Now) { // touched again in this step
        if (X.Bytes > C.Weight) {
          Tree.add(Now, X.Bytes - C.Weight);
          C.Weight = X.Bytes;
        }
        continue;
      }
      double Whole = partOf(X.Cell, PhaseStart, X.Bytes);
      if (H && C.Last < PhaseStart && C.Last >= 0) {
        // What the phase uses of the cell, of what was there before.
        double Bytes = std::min(Whole, C.Weight);
        double D = Tree.after(C.Last);
        std::vector<double> &Hit = H->Hit[*X.Array];
        std::vector<double> &Car = H->Carried[*X.Array];
        std::vector<double> &Dirt = H->DirtyHit[*X.Array];
        Hit.resize(levels(), 0);
        Car.resize(levels(), 0);
        Dirt.resize(levels(), 0);
        // Reuse from an earlier iteration of the sequencing loop around:
        // the sets that iteration's data overfills keep none of it.
        const std::vector<double> *Conflicts = nullptr;
        for (size_t Q = Sequences.size(); Q-- > 0 && !Conflicts;) {
          const Sequence &Sq = Sequences[Q];
          if (C.Last < Sq.LoopStart || C.Last >= Sq.IterStart)
            continue;
          auto It = Sq.Keep.find(*X.Array);
          if (It != Sq.Keep.end())
            Conflicts = &It->second;
          break;
        }
        for (size_t Lv = 0; Lv < levels() && Bytes > 0; ++Lv) {
          double Share = survives(Lv, D, Bytes);
          if (Conflicts && Lv < Conflicts->size())
            Share *= (*Conflicts)[Lv];
          Hit[Lv] += Bytes * Share;
          if (C.Last < NestStart)
            Car[Lv] += Bytes * Share;
          if (C.Dirty)
            Dirt[Lv] += Bytes * Share;
        }
      }
      if (C.Last >= 0)
        Tree.add(C.Last, -C.Weight);
      // Parts a phase's steps touch one after another add up to what the
      // whole phase touches of the cell.
      if (C.Last >= PhaseStart)
        C.Weight = std::max(C.Weight, std::min(C.Weight + X.Bytes, Whole));
      else
        C.Weight = std::max(C.Weight, X.Bytes);
      C.Last = Now;
      C.Dirty |= X.Write;
      Tree.add(Now, C.Weight);
    }
  }

  /// Sums per array by its name's address (a key of Arrays: cellsOf's
  /// Touched::Array), without comparing names; a function has few arrays.
  class ArraySums {
  public:
    double &operator[](const std::string *Array) {
      for (auto &[A, Sum] : Sums)
        if (A == Array)
          return Sum;
      Sums.push_back({Array, 0});
      return Sums.back().second;
    }
    void moveInto(std::map<std::string, double> &Out) const {
      for (const auto &[A, Sum] : Sums)
        Out[*A] = Sum;
    }

  private:
    std::vector<std::pair<const std::string *, double>> Sums;
  };

  /// What a phase touches over all its steps (the hull of each group's
  /// step boxes), per array summed over the groups and united; the
  /// united bytes of each cell go to Part.
  struct PhaseFootprint {
    std::map<std::string, double> Summed, United;
    double Total = 0;
  };
  /// Adds \p Bytes to group \p Generation's part of \p Cell (GroupSum).
  void addGroupPart(size_t Cell, double Bytes) {
    if (GroupStamp[Cell] != Generation) {
      GroupStamp[Cell] = Generation;
      GroupSum[Cell] = 0;
    }
    GroupSum[Cell] += Bytes;
  }

  /// Adds to the phase's part of \p Cell (Part, listed in Buf.CellList)
  /// the union of the current group's parts of it (GroupSum): their sum
  /// where they do not overlap, at most the group's hull's part \p Hull,
  /// at least the largest one. \p Summed: the array's sum, looked up
  /// on its first addition (one array per hull).
  void addHullPart(size_t Cell, double Hull, const std::string *Array,
                   int64_t PhaseStart, ArraySums &Sums, double *&Summed) {
    double Sum = GroupStamp[Cell] == Generation ? GroupSum[Cell] : 0;
    double B = std::min(Sum, Hull);
    if (B <= 0)
      return;
    if (PartStamp[Cell] != PhaseStart) {
      PartStamp[Cell] = PhaseStart;
      Part[Cell] = 0;
      Largest[Cell] = 0;
      Buf.CellList.push_back({Cell, Array});
    }
    Part[Cell] += B;
    if (!Summed)
      Summed = &Sums[Array];
    *Summed += B;
    Largest[Cell] = std::max(Largest[Cell], B);
  }

  /// Whether touch \p K of step \p S repeats the steps' before and after
  /// (data every step reuses): account lists it at the first and last step
  /// only.
  static bool repeats(const PhaseResult &R, size_t S, size_t K) {
    const std::vector<PhaseTouch> &Step = R.Steps[S];
    const PhaseTouch &X = Step[K];
    return S > 0 && S + 1 < R.Steps.size() &&
           R.Steps[S - 1].size() == Step.size() &&
           R.Steps[S - 1][K].Array == X.Array && R.Steps[S - 1][K].B == X.B &&
           R.Steps[S - 1][K].Coef == X.Coef;
  }

  /// Whether some array has two groups among \p R's touches. Where each
  /// array has one, phaseBytes sums each array's cells twice in the same
  /// order, Summed and United, and the two are equal to the last bit: no
  /// lines are fetched twice, and its numbers change nothing (account).
  static bool twoGroupsOfAnArray(const PhaseResult &R) {
    llvm::SmallVector<std::pair<const std::string *, unsigned>, 8> Seen;
    for (const std::vector<PhaseTouch> &Step : R.Steps)
      for (const PhaseTouch &X : Step) {
        auto It = llvm::find_if(Seen, [&](const auto &P) {
          return *P.first == X.Array;
        });
        if (It == Seen.end())
          Seen.push_back({&X.Array, X.Group});
        else if (It->second != X.Group)
          return true;
      }
    return false;
  }

  /// Whether account needs \p R's steps: the cells they touch (to step
  /// through them) or the phase's footprint (twoGroupsOfAnArray).
  bool needsSteps(const PhaseResult &R) const {
    return needsAnySteps() || twoGroupsOfAnArray(R);
  }
  /// Whether the next phase is stepped through: unless it is the function's
  /// one phase in its one pass (lastPhaseNext) and nothing ran before it.
  bool needsAnySteps() const { return !(StateDead && Now == 0); }

  /// \p Steps: the cells each step of the phase touches (a box every step
  /// touches listed at its first and last step only, repeats()); empty
  /// when account did not list them: each group's parts are then walked
  /// here, the same cells in the same order.
  PhaseFootprint phaseBytes(const PhaseResult &R, const IVValues &Env,
                            int64_t PhaseStart,
                            llvm::ArrayRef<std::vector<Touched>> Steps) {
    readyCells();
    // Per group: its steps' parts of each cell summed and their largest,
    // and its hull over all steps.
    struct PerGroup {
      const PhaseTouch *Key = nullptr;
      Box Hull;
      std::vector<const Touched *> Parts; ///< its steps' parts, in order
      /// Without \p Steps: its steps' boxes, placed, in order.
      std::vector<std::pair<const PhaseTouch *, Box>> Boxes;
    };
    std::map<unsigned, PerGroup> Groups;
    for (size_t S = 0; S < R.Steps.size(); ++S)
      for (size_t K = 0; K < R.Steps[S].size(); ++K) {
        const PhaseTouch &X = R.Steps[S][K];
        Box B = PhaseModel::placed(X.B, X.Coef, Env);
        PerGroup &G = Groups[X.Group];
        if (!G.Key) {
          G.Key = &X;
          G.Hull = B;
        } else {
          for (size_t D = 0; D < B.size() && D < G.Hull.size(); ++D) {
            G.Hull[D].Lo = std::min(G.Hull[D].Lo, B[D].Lo);
            G.Hull[D].Hi = std::max(G.Hull[D].Hi, B[D].Hi);
            G.Hull[D].Step = gcd64(G.Hull[D].Step, B[D].Step);
            if (G.Hull[D].Step == 0)
              G.Hull[D].Step = 1;
          }
        }
        if (Steps.empty() && !repeats(R, S, K))
          G.Boxes.push_back({&X, std::move(B)});
      }
    // Consecutive parts mostly belong to one group: its entry is kept.
    std::pair<unsigned, PerGroup *> Last{0, nullptr};
    for (const std::vector<Touched> &Step : Steps)
      for (const Touched &X : Step) {
        if (!Last.second || Last.first != X.Group)
          Last = {X.Group, &Groups[X.Group]};
        Last.second->Parts.push_back(&X);
      }
    PhaseFootprint Out;
    std::vector<std::pair<size_t, const std::string *>> &Cells = Buf.CellList;
    Cells.clear();
    ArraySums Summed, United;
    for (auto &[Id, G] : Groups) {
      if (!G.Key)
        continue;
      // Its steps' parts of each cell summed (GroupSum, where GroupStamp
      // is this group's).
      ++Generation;
      if (!Steps.empty()) {
        for (const Touched *X : G.Parts)
          addGroupPart(X->Cell, X->Bytes);
      } else {
        for (const auto &[X, B] : G.Boxes)
          forCells(
              X->Array, B, X->Density,
              [](llvm::ArrayRef<int64_t>, llvm::ArrayRef<int64_t>) {},
              [&](size_t Cell, double N, size_t, double,
                  const std::string *) { addGroupPart(Cell, N); });
      }
      double *Sum = nullptr;
      forCells(G.Key->Array, G.Hull, G.Key->Density,
               [](llvm::ArrayRef<int64_t>, llvm::ArrayRef<int64_t>) {},
               [&](size_t Cell, double Bytes, size_t, double,
                   const std::string *Array) {
                 addHullPart(Cell, Bytes, Array, PhaseStart, Summed, Sum);
               });
    }
    // Groups of one array overlap: a cell holds at most itself (and at
    // least what one group takes of it).
    // (A run of cells of one array shares its sum's slot: the slots move
    // only when an array is added.)
    std::pair<const std::string *, double *> Slot{nullptr, nullptr};
    for (const auto &[C, Name] : Cells) {
      double &B = Part[C];
      B = std::max(Largest[C], std::min(B, std::max(CellFull[C], 1.0)));
      if (Slot.first != Name)
        Slot = {Name, &United[Name]};
      *Slot.second += B;
      Out.Total += B;
    }
    Summed.moveInto(Out.Summed);
    United.moveInto(Out.United);
    return Out;
  }

  //===--------------------------------------------------------------------===//
  // Walking a nest
  //===--------------------------------------------------------------------===//

  /// Whether \p L's subtree has a loop with two loop children.
  bool branchy(const Loop &L) {
    auto It = Cur->Branchy.find(&L);
    if (It != Cur->Branchy.end())
      return It->second;
    unsigned Kids = 0;
    bool B = false;
    for (const Node &N : L.Body)
      if (N.isLoop()) {
        ++Kids;
        B |= branchy(N.loop());
      }
    B |= Kids >= 2;
    Cur->Branchy[&L] = B;
    return B;
  }

  /// \p Env restricted to the variables the bounds in \p L's subtree use.
  IVValues boundEnv(const Loop &L, const IVValues &Env) {
    IVValues Out;
    std::function<void(const Loop &)> Walk = [&](const Loop &X) {
      for (const auto &[Name, V] : Env)
        if (X.First.uses(Name) || X.Last.uses(Name))
          Out[Name] = V;
      for (const Node &N : X.Body)
        if (N.isLoop())
          Walk(N.loop());
    };
    Walk(L);
    return Out;
  }

  void simNode(const Loop &L, std::vector<const Loop *> Outer,
               const IVValues &Env, double W, Acc &A) {
    if (!A.Numeric)
      return;
    if (branchy(L))
      simSequence(L, Outer, Env, W, A);
    else
      simPhase(L, Outer, Env, W, A);
  }

  void account(const PhaseResult &R, const IVValues &Env, double W, Acc &A) {
    if (!R.Numeric) {
      A.Numeric = false;
      A.WhyNot = R.WhyNot;
      return;
    }
    int64_t PhaseStart = Now + 1;
    PhaseHits H;
    // Stepping through the phase counts hits on cells touched before it
    // (none when no step was taken yet) and leaves the stack for what runs
    // after it: with neither, it changes no number and is skipped (a
    // function of one single-phase nest, cold: most functions), and the
    // steps' cells are not listed (phaseBytes walks them itself).
    bool Stepped = needsAnySteps();
    std::vector<std::vector<Touched>> &StepCells = Buf.StepCells;
    if (StepCells.size() < R.Steps.size())
      StepCells.resize(R.Steps.size());
    llvm::MutableArrayRef<std::vector<Touched>> Steps(
        StepCells.data(), Stepped ? R.Steps.size() : 0);
    for (size_t S = 0; S < Steps.size(); ++S) {
      Steps[S].clear();
      const std::vector<PhaseTouch> &Step = R.Steps[S];
      std::vector<Touched> &T = Steps[S];
      for (size_t K = 0; K < Step.size(); ++K) {
        const PhaseTouch &X = Step[K];
        // A box the steps before and after touch too (data every step
        // reuses) moves up at its first and last step only: in between it
        // stays above everything the phase found before it.
        if (!repeats(R, S, K))
          cellsOf(X.Array, PhaseModel::placed(X.B, X.Coef, Env), X.Density,
                  T, X.Group, X.Write);
      }
    }
    PhaseFootprint Foot;
    if (needsSteps(R))
      Foot = phaseBytes(R, Env, PhaseStart, Steps);
    else
      LLVM_DEBUG(llvm::dbgs() << "  foot: one group per array, none twice\n");
    for (std::vector<Touched> &T : Steps)
      touchStep(T, PhaseStart, W > 0 ? &H : nullptr);
    // Two groups of one array fetching the same lines (A[i][k] and
    // A[j][k]): the second finds them in the levels that hold the phase's
    // data (in proportion where they hold part of it).
    for (const auto &[Name, Sum] : Foot.Summed) {
      double Twice = Sum - Foot.United[Name];
      LLVM_DEBUG(llvm::dbgs() << "  foot " << Name << " summed " << Sum
                              << " united " << Foot.United[Name] << "\n");
      if (Twice <= 0)
        continue;
      std::vector<double> &Hit = H.Hit[Name];
      Hit.resize(levels(), 0);
      for (size_t Lv = 0; Lv < levels(); ++Lv)
        Hit[Lv] += Twice * std::clamp(Cfg.Levels[Lv].SizeBytes /
                                          std::max(Foot.Total, 1.0),
                                      0.0, 1.0);
    }
    LLVM_DEBUG({
      llvm::dbgs() << "phase W=" << W << " steps=" << R.Steps.size()
                   << " groups=" << R.Groups.size() << "\n";
      for (auto &[A, V] : H.Hit)
        llvm::dbgs() << "  hit " << A << " " << (V.empty() ? 0 : V[0]) << " "
                     << (V.empty() ? 0 : V.back()) << "\n";
      for (auto &G : R.Groups)
        llvm::dbgs() << "  cold " << G.Array << " " << G.Lines[0] << "\n";
    });
    if (W <= 0)
      return;
    // Each array's hits shared among its groups by their cold misses.
    std::map<std::string, std::vector<double>> Cold;
    for (const GroupMisses &G : R.Groups) {
      std::vector<double> &C = Cold[G.Array];
      C.resize(levels(), 0);
      for (size_t Lv = 0; Lv < levels(); ++Lv)
        C[Lv] += G.Lines[Lv] * Cfg.Levels[Lv].LineBytes;
    }
    for (const GroupMisses &G : R.Groups) {
      const std::vector<double> &C = Cold[G.Array];
      auto HIt = H.Hit.find(G.Array);
      auto CIt = H.Carried.find(G.Array);
      auto DIt = H.DirtyHit.find(G.Array);
      for (size_t Lv = 0; Lv < levels(); ++Lv) {
        double Bytes = G.Lines[Lv] * Cfg.Levels[Lv].LineBytes;
        double Share = C[Lv] > 0 ? Bytes / C[Lv] : 0;
        double Hit = 0, Car = 0, Dirt = 0;
        if (HIt != H.Hit.end()) {
          double All = std::min(HIt->second[Lv], C[Lv]);
          Hit = All * Share;
          if (CIt != H.Carried.end() && HIt->second[Lv] > 0)
            Car = Hit * std::min(1.0, CIt->second[Lv] / HIt->second[Lv]);
          if (DIt != H.DirtyHit.end() && HIt->second[Lv] > 0)
            Dirt = Hit * std::min(1.0, DIt->second[Lv] / HIt->second[Lv]);
        }
        double Paid = std::max(0.0, Bytes - Hit);
        if (G.Read || Cfg.WriteAllocate)
          A.Fetch[Lv] += W * Paid;
        // A line found clean and written is written back once more.
        if (G.Write)
          A.Writeback[Lv] += W * std::max(0.0, Bytes - Dirt);
        if (G.Read || Cfg.WriteAllocate)
          A.Carried[Lv] += W * Car;
      }
    }
  }

  void simPhase(const Loop &P, const std::vector<const Loop *> &Outer,
                const IVValues &Env, double W, Acc &A) {
    PhaseKey K{&P, boundEnv(P, Env)};
    auto It = PhaseMemo.find(K);
    if (It == PhaseMemo.end())
      It = PhaseMemo
               .emplace(K, Cur->Model->run(P, Outer, Env, PhaseSteps))
               .first;
    account(It->second, Env, W, A);
  }

  void simStmt(const Stmt &S, const std::vector<const Loop *> &Outer,
               const IVValues &Env, double W, Acc &A) {
    PhaseKey K{&S, {}};
    auto It = PhaseMemo.find(K);
    if (It == PhaseMemo.end())
      It = PhaseMemo.emplace(K, Cur->Model->runStmt(S, Outer, Env)).first;
    account(It->second, Env, W, A);
  }

  /// Iterations [From, To] of \p L as one step: what they touch, moved to
  /// the top of the stack at once (unmeasured).
  void bulk(const Loop &L, const std::vector<const Loop *> &Outer,
            const IVValues &Env, int64_t From, int64_t To) {
    PhaseKey K{&L, boundEnv(L, Env)};
    auto It = BodyMemo.find(K);
    if (It == BodyMemo.end())
      It = BodyMemo.emplace(K, Cur->Model->bodyGroups(L, Outer, Env)).first;
    std::vector<Touched> T;
    for (const Group &G : It->second)
      cellsOf(G.Array, Cur->Model->swept(G, L.IV, From, To, L.Step, Env),
              G.Density, T);
    touchStep(T, Now + 1, nullptr);
  }

  void simSequence(const Loop &L, std::vector<const Loop *> Outer,
                   const IVValues &Env, double W, Acc &A) {
    std::optional<int64_t> F = Cur->Model->evalBound(L.First, Env),
                           Z = Cur->Model->evalBound(L.Last, Env);
    if (!F || !Z) {
      A.Numeric = false;
      A.WhyNot = "the trip count of loop '" + L.IV + "' is unknown";
      return;
    }
    int64_t S = L.Step > 0 ? L.Step : -L.Step;
    int64_t Span = L.Step > 0 ? *Z - *F : *F - *Z;
    int64_t Trip = Span < 0 ? 0 : Span / S + 1;
    auto ValueAt = [&](int64_t I) { return *F + L.Step * I; };
    Sequences.push_back({Now + 1, Now + 1, {}});
    auto Body = [&](int64_t I, double Weight) {
      IVValues E = Env;
      E[L.IV] = ValueAt(I);
      Sequences.back().IterStart = Now + 1;
      Sequences.back().Keep = bodyKeep(L, Outer, E);
      Outer.push_back(&L);
      for (const Node &N : L.Body) {
        if (N.isLoop())
          simNode(N.loop(), Outer, E, Weight, A);
        else
          simStmt(N.S, Outer, E, Weight, A);
      }
      Outer.pop_back();
    };
    struct Pop {
      std::vector<Sequence> &S;
      ~Pop() { S.pop_back(); }
    } Popper{Sequences};
    if (Trip <= FullLoop) {
      for (int64_t I = 0; I < Trip; ++I)
        Body(I, W);
      return;
    }
    for (int64_t I = 0; I < 3; ++I)
      Body(I, W);
    int64_t Left = Trip - 3;
    // A body that grows or shrinks with the variable (a triangle) is
    // measured in more strata, each at its middle iteration: the stratum's
    // average for a body growing linearly, and a reuse that stops fitting
    // part way (syrk's rows of A across i) is placed within a short range.
    bool Grows = Cur->Model->dependent(L);
    int64_t Parts = Grows ? TriangleStrata : Strata;
    for (int64_t P = 0; P < Parts; ++P) {
      int64_t From = 3 + Left * P / Parts, To = 3 + Left * (P + 1) / Parts - 1;
      if (To < From)
        continue;
      if (To - From + 1 <= 3) {
        for (int64_t I = From; I <= To; ++I)
          Body(I, W);
        continue;
      }
      int64_t At = Grows ? std::max(From + 2, (From + To) / 2) : To;
      if (At - 3 >= From)
        bulk(L, Outer, Env, ValueAt(From), ValueAt(At - 3));
      Body(At - 2, 0);
      Body(At - 1, 0);
      Body(At, W * static_cast<double>(To - From + 1));
      if (At < To)
        bulk(L, Outer, Env, ValueAt(At + 1), ValueAt(To));
    }
  }
};

std::string levelList(const CacheConfig &Cfg, bool WithWays) {
  std::string S;
  for (const CacheLevelSpec &L : Cfg.Levels) {
    if ((L.Ways != 0) != WithWays)
      continue;
    S += (S.empty() ? "" : ", ") + L.Name;
    if (WithWays)
      S += " " + std::to_string(L.Ways) + "-way";
  }
  return S;
}

} // namespace

void roofline::detail::simulateFunction(
    llvm::ArrayRef<FunctionNest> Nests, const CacheLayout &Layout,
    const CacheConfig &Cfg, CacheState State, std::vector<CacheAnalysis> &Out,
    const std::vector<std::map<const Access *, unsigned>> &Ids) {
  std::vector<NestState> States(Nests.size());
  for (size_t I = 0; I < Nests.size(); ++I) {
    NestState &S = States[I];
    S.N = Nests[I].N;
    S.C = Nests[I].C;
    S.AfterUnknown = Nests[I].AfterUnknown;
    S.Model = std::make_unique<PhaseModel>(*S.N, Cfg, Layout,
                                           paramValues(*S.N, S.C->Values),
                                           nullptr, &Ids[I]);
  }
  FunctionSim Sim(Cfg, Layout);
  unsigned Passes = State == CacheState::Warm ? 2 : 1;
  if (Passes == 1 && Nests.size() == 1 && !hasSiblingLoops(Nests[0].N->Root))
    Sim.lastPhaseNext();
  for (size_t I = 0; I < Nests.size(); ++I)
    Sim.describeNest(States[I], Out[I].Accesses, Ids[I]);
  std::vector<Acc> Accs(Nests.size());
  for (unsigned Pass = 0; Pass < Passes; ++Pass) {
    bool Measure = Pass + 1 == Passes;
    for (size_t I = 0; I < Nests.size(); ++I) {
      if (States[I].AfterUnknown)
        Sim.reset();
      Acc A;
      A.Fetch.assign(Cfg.Levels.size(), 0);
      A.Writeback.assign(Cfg.Levels.size(), 0);
      A.Carried.assign(Cfg.Levels.size(), 0);
      if (!Layout.WhyNot.empty()) {
        A.Numeric = false;
        A.WhyNot = Layout.WhyNot;
      } else {
        Sim.runNest(States[I], Measure, A);
      }
      if (!A.Numeric)
        Sim.reset(); // what it left is unknown
      if (Measure)
        Accs[I] = std::move(A);
    }
  }

  std::string Ways = levelList(Cfg, true), Full = levelList(Cfg, false);
  for (size_t I = 0; I < Nests.size(); ++I) {
    CacheAnalysis &R = Out[I];
    Acc &A = Accs[I];
    R.State = State;
    if (!A.Numeric) {
      R.WhyNot = A.WhyNot.empty() ? "a size has no value" : A.WhyNot;
      for (AccessCacheInfo &X : R.Accesses)
        for (ReuseInfo &U : X.Reuse) {
          U.DistanceBytes.reset();
          U.Fits.clear();
        }
      continue;
    }
    for (size_t Lv = 0; Lv < Cfg.Levels.size(); ++Lv) {
      CacheLevelTraffic T;
      T.Name = Cfg.Levels[Lv].Name;
      T.SizeBytes = Cfg.Levels[Lv].SizeBytes;
      T.LineBytes = Cfg.Levels[Lv].LineBytes;
      T.FetchBytes = A.Fetch[Lv];
      T.WritebackBytes = A.Writeback[Lv];
      R.Levels.push_back(T);
    }
    R.CarriedInBytes = A.Carried;
    if (!R.Levels.empty())
      R.MainMemoryBytes = R.Levels.back().bytes();
    std::string Note = "cache model: arrays start on a 4 KiB page, one after "
                       "another; ";
    if (!Ways.empty())
      Note += Ways + " set-associative LRU (conflict misses modelled)";
    if (!Full.empty())
      Note += std::string(Ways.empty() ? "" : "; ") + Full +
              " fully associative LRU (no conflict misses)";
    R.Notes.push_back(Note);
    if (State == CacheState::Warm)
      R.Notes.push_back("cache model: warm caches, the steady state of the "
                        "function run again and again");
  }
}
