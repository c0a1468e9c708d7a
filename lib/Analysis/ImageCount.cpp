//===- ImageCount.cpp - Exact footprints by projected enumeration ---------===//

#include "ImageCount.h"

#include <algorithm>
#include <limits>

using namespace roofline;
using namespace roofline::detail;

namespace {

/// How a reference's walk treats one loop (ImageCount.h).
enum class Mode {
  All,   ///< every value
  Once,  ///< used by nothing below: any one value, when the loop runs
  AtMax, ///< the space inside grows with the value: only the largest
  AtMin, ///< ... shrinks with it: only the smallest
  Run    ///< the innermost loop walked: its values as one run of elements
};

/// One reference with its loops in walk order, compiled over slots.
struct Walker {
  std::vector<const Loop *> Order;
  std::vector<CBnd> First, Last;
  std::vector<Mode> Modes;
  std::vector<CAff> Subs;
  std::vector<Int128> RunCoef; ///< per subscript, the Run loop's coefficient
  bool Write = false;
};

bool boundsUse(const Loop &L, const std::string &IV) {
  return L.First.uses(IV) || L.Last.uses(IV);
}

/// Whether the space of the loops \p Inner (each loop's bounds over the
/// loops before it) only grows (\p Sign = 1) or only shrinks (-1) as \p IV
/// grows: then the union over IV's values is the space at its extreme.
bool nestedAlong(llvm::ArrayRef<const Loop *> Inner, const std::string &IV,
                 int Sign) {
  for (const Loop *L : Inner) {
    bool Up = L->Step > 0;
    bool Unit = L->Step == 1 || L->Step == -1;
    auto Monotone = [&](const Bound &B, bool IsLower, bool Anchors) {
      for (const BoundTerm &T : B.Terms) {
        int64_t K = T.Expr.coeff(IV) * Sign;
        if (K == 0)
          continue;
        // A strided loop's values are a lattice anchored at First: moving
        // First moves the lattice, and the spaces are not nested.
        if (Anchors && !Unit)
          return false;
        if (IsLower ? K > 0 : K < 0)
          return false;
      }
      return true;
    };
    // First is the lower bound of an upward loop, the upper of a downward.
    if (!Monotone(L->First, Up, true) || !Monotone(L->Last, !Up, false))
      return false;
  }
  return true;
}

/// Rank of walking \p IV innermost for the reference: runs of consecutive
/// elements first, then the smallest stride (the latest dimension).
std::pair<int, int64_t> runRank(const Access &A, const std::string &IV) {
  size_t Dims = A.Subscripts.size();
  size_t LastUsed = Dims;
  int64_t Coef = 0;
  bool Others = false;
  for (size_t D = 0; D < Dims; ++D) {
    int64_t K = A.Subscripts[D]->coeff(IV);
    if (K == 0)
      continue;
    if (LastUsed != Dims)
      Others = true;
    LastUsed = D;
    Coef = K < 0 ? -K : K;
  }
  bool Contiguous = !Others && LastUsed + 1 == Dims && Coef == 1;
  return {Contiguous ? 0 : 1 + static_cast<int>(Dims - LastUsed), Coef};
}

std::optional<Walker> makeWalker(const Access &A, const Chain &C,
                                 const Env &Known, bool Write) {
  for (const auto &S : A.Subscripts)
    if (!S)
      return std::nullopt;
  auto SubUses = [&](const std::string &IV) {
    for (const auto &S : A.Subscripts)
      if (S->uses(IV))
        return true;
    return false;
  };
  auto HasUsers = [&](const Loop *L) {
    for (const Loop *O : C)
      if (O != L && boundsUse(*O, L->IV))
        return true;
    return false;
  };
  // The loop walked innermost: one the subscripts use and no bound uses.
  const Loop *RunLoop = nullptr;
  std::pair<int, int64_t> Best;
  for (const Loop *L : C) {
    if (!SubUses(L->IV) || HasUsers(L))
      continue;
    std::pair<int, int64_t> R = runRank(A, L->IV);
    if (!RunLoop || R < Best) {
      RunLoop = L;
      Best = R;
    }
  }
  Walker W;
  W.Write = Write;
  for (const Loop *L : C)
    if (L != RunLoop)
      W.Order.push_back(L);
  if (RunLoop)
    W.Order.push_back(RunLoop);

  std::map<std::string, unsigned> Slots;
  size_t N = W.Order.size();
  W.First.resize(N);
  W.Last.resize(N);
  for (size_t P = 0; P < N; ++P) {
    const Loop &L = *W.Order[P];
    if (!compileBound(L.First, Slots, Known, W.First[P]) ||
        !compileBound(L.Last, Slots, Known, W.Last[P]))
      return std::nullopt;
    Slots[L.IV] = P;
  }
  W.Subs.resize(A.Subscripts.size());
  for (size_t D = 0; D < A.Subscripts.size(); ++D)
    if (!compileAffine(*A.Subscripts[D], Slots, Known, W.Subs[D]))
      return std::nullopt;

  for (size_t P = 0; P < N; ++P) {
    const Loop *L = W.Order[P];
    llvm::ArrayRef<const Loop *> Inner =
        llvm::ArrayRef<const Loop *>(W.Order).drop_front(P + 1);
    bool Used = false;
    for (const Loop *O : Inner)
      Used |= boundsUse(*O, L->IV);
    Mode M = Mode::All;
    if (L == RunLoop)
      M = Mode::Run;
    else if (SubUses(L->IV))
      M = Mode::All;
    else if (!Used)
      M = Mode::Once;
    else if (nestedAlong(Inner, L->IV, 1))
      M = Mode::AtMax;
    else if (nestedAlong(Inner, L->IV, -1))
      M = Mode::AtMin;
    W.Modes.push_back(M);
  }
  if (RunLoop) {
    unsigned Slot = N - 1;
    for (const CAff &S : W.Subs) {
      Int128 K = 0;
      for (const auto &[Sl, C] : S.T)
        if (Sl == Slot)
          K += C;
      W.RunCoef.push_back(K);
    }
  }
  return W;
}

/// Receives a run: Count elements from Start, Delta apart (Delta null: one).
using EmitFn = llvm::function_ref<bool(const std::vector<Int128> &Start,
                                       const std::vector<Int128> *Delta,
                                       Int128 Count)>;

class Walk {
public:
  Walk(const Walker &W, EmitFn Emit, int64_t &Steps, int64_t Budget)
      : W(W), Emit(Emit), Steps(Steps), Budget(Budget),
        Vals(W.Order.size(), 0), Key(W.Subs.size()),
        Delta(W.Subs.size()) {}

  /// False on overflow or when the budget is spent.
  bool run() { return visit(0); }

private:
  const Walker &W;
  EmitFn Emit;
  int64_t &Steps;
  int64_t Budget;
  std::vector<Int128> Vals, Key, Delta;

  bool evalKey() {
    for (size_t D = 0; D < W.Subs.size(); ++D)
      if (!W.Subs[D].eval(Vals.data(), Key[D]))
        return false;
    return true;
  }

  bool visit(size_t P) {
    if (++Steps > Budget)
      return false;
    if (P == W.Order.size())
      return evalKey() && Emit(Key, nullptr, 1);
    Int128 F, L;
    if (!W.First[P].eval(Vals.data(), F) || !W.Last[P].eval(Vals.data(), L))
      return false;
    int64_t Step = W.Order[P]->Step;
    std::optional<Int128> Trip = tripOf(F, L, Step);
    if (!Trip)
      return false;
    if (*Trip <= 0)
      return true;
    Int128 Span; // (Trip - 1) * Step
    if (__builtin_mul_overflow(*Trip - 1, static_cast<Int128>(Step), &Span))
      return false;
    switch (W.Modes[P]) {
    case Mode::Once:
      Vals[P] = F;
      return visit(P + 1);
    case Mode::AtMax:
    case Mode::AtMin: {
      bool Max = W.Modes[P] == Mode::AtMax;
      Vals[P] = (Max == (Step > 0)) ? F + Span : F;
      return visit(P + 1);
    }
    case Mode::Run:
      Vals[P] = F;
      if (!evalKey())
        return false;
      for (size_t D = 0; D < Delta.size(); ++D)
        if (__builtin_mul_overflow(W.RunCoef[D], static_cast<Int128>(Step),
                                   &Delta[D]))
          return false;
      return Emit(Key, &Delta, *Trip);
    case Mode::All:
      for (Int128 T = 0; T < *Trip; ++T) {
        Vals[P] = F + T * Step;
        if (!visit(P + 1))
          return false;
      }
      return true;
    }
    return false;
  }
};

using Interval = std::pair<Int128, Int128>;

std::optional<Interval> intervalOf(const CAff &A,
                                   const std::vector<Interval> &Slots) {
  Interval R{A.C, A.C};
  for (const auto &[Slot, K] : A.T) {
    Int128 X, Y;
    if (__builtin_mul_overflow(K, Slots[Slot].first, &X) ||
        __builtin_mul_overflow(K, Slots[Slot].second, &Y) ||
        __builtin_add_overflow(R.first, std::min(X, Y), &R.first) ||
        __builtin_add_overflow(R.second, std::max(X, Y), &R.second))
      return std::nullopt;
  }
  return R;
}

std::optional<Interval> intervalOf(const CBnd &B,
                                   const std::vector<Interval> &Slots) {
  std::optional<Interval> R;
  for (const auto &[A, Div] : B.Terms) {
    std::optional<Interval> T = intervalOf(A, Slots);
    if (!T)
      return std::nullopt;
    T = Interval{floorDiv(T->first, Div), floorDiv(T->second, Div)};
    if (!R)
      R = T;
    else if (B.Kind == Bound::Min)
      R = Interval{std::min(R->first, T->first), std::min(R->second, T->second)};
    else
      R = Interval{std::max(R->first, T->first), std::max(R->second, T->second)};
  }
  return R;
}

/// A box holding every element the walker can touch (interval arithmetic
/// over the loops' bounds): the bitmap's extent without a walk.
std::optional<std::vector<Interval>> boxOf(const Walker &W) {
  std::vector<Interval> Slots;
  for (size_t P = 0; P < W.Order.size(); ++P) {
    std::optional<Interval> F = intervalOf(W.First[P], Slots),
                            L = intervalOf(W.Last[P], Slots);
    if (!F || !L)
      return std::nullopt;
    Slots.push_back({std::min(F->first, L->first),
                     std::max(F->second, L->second)});
  }
  std::vector<Interval> Box;
  for (const CAff &S : W.Subs) {
    std::optional<Interval> I = intervalOf(S, Slots);
    if (!I)
      return std::nullopt;
    Box.push_back(*I);
  }
  return Box;
}

class Bitmap {
public:
  explicit Bitmap(size_t Bits) : Words((Bits + 63) / 64, 0) {}
  void set(uint64_t I) { Words[I / 64] |= 1ull << (I % 64); }
  /// Sets [Lo, Hi]; returns the words touched.
  int64_t setRange(uint64_t Lo, uint64_t Hi) {
    size_t A = Lo / 64, B = Hi / 64;
    uint64_t LoMask = ~0ull << (Lo % 64);
    uint64_t HiMask = ~0ull >> (63 - Hi % 64);
    if (A == B) {
      Words[A] |= LoMask & HiMask;
      return 1;
    }
    Words[A] |= LoMask;
    for (size_t K = A + 1; K < B; ++K)
      Words[K] = ~0ull;
    Words[B] |= HiMask;
    return static_cast<int64_t>(B - A + 1);
  }
  Int128 count() const {
    Int128 N = 0;
    for (uint64_t W : Words)
      N += __builtin_popcountll(W);
    return N;
  }

private:
  std::vector<uint64_t> Words;
};

/// Whether a write \p W is preceded, in its own statement, by a read of the
/// same element (reads precede writes within a statement).
bool coveredByRead(const Access &W, const Stmt &S) {
  if (W.IsRead)
    return true;
  for (const Access &R : S.Accesses)
    if (R.IsRead && R.ArrayName == W.ArrayName &&
        R.Subscripts == W.Subscripts)
      return true;
  return false;
}

//===----------------------------------------------------------------------===//
// In the order of the accesses: each element's first access (an array whose
// writes are not all covered by a read in their statement)
//===----------------------------------------------------------------------===//

/// The element box of the bitmaps: an element's bit is the sum over its
/// subscripts of (Key - Lo) * Stride, below Size.
struct ElementBox {
  std::vector<Int128> Lo, Hi, Stride;
  Int128 Size = 0;
};

/// One reference walked in execution order. Its statement instances are
/// ranked by their 2d+1 schedule (outermost loop value, position in that
/// loop's body, next loop value, ...), each value counted from the end its
/// loop starts at, in a mixed radix wide enough for every loop at that
/// depth: the rank orders the instances of all statements of the nest.
struct TimedRef {
  std::vector<CBnd> First, Last;
  std::vector<int64_t> Step;
  /// Nothing below uses the loop (no subscript of the reference, no bound):
  /// every iteration repeats the first one's accesses, later.
  std::vector<char> Once;
  std::vector<Int128> Weight, Origin; ///< rank += Weight * |value - Origin|
  Int128 Base = 0;                    ///< the positions' part of the rank
  std::vector<CAff> Subs;
  bool Write = false;
};

/// Position of each loop of \p C (after the first) and of \p S in the body
/// of the loop around it; false when one is not there.
bool schedulePositions(const Chain &C, const Stmt *S,
                       std::vector<size_t> &Pos) {
  for (size_t D = 0; D < C.size(); ++D) {
    const std::vector<Node> &Body = C[D]->Body;
    size_t P = 0;
    for (; P < Body.size(); ++P) {
      const Node &N = Body[P];
      if (D + 1 < C.size() ? N.isLoop() && &N.loop() == C[D + 1]
                           : !N.isLoop() && &N.S == S)
        break;
    }
    if (P == Body.size())
      return false;
    Pos.push_back(P);
  }
  return true;
}

/// Calls Emit(element bit, rank) for every statement instance of the
/// reference in execution order, except the repeats of Once loops.
class TimedWalk {
public:
  using EmitFn = llvm::function_ref<bool(uint64_t Bit, Int128 Rank)>;
  TimedWalk(const TimedRef &R, const ElementBox &Box, EmitFn Emit,
            int64_t &Steps, int64_t Budget)
      : R(R), Box(Box), Emit(Emit), Steps(Steps), Budget(Budget),
        Vals(R.First.size(), 0) {}

  /// False when the budget is spent or a value falls outside the box.
  bool run() { return visit(0, R.Base); }

private:
  const TimedRef &R;
  const ElementBox &Box;
  EmitFn Emit;
  int64_t &Steps;
  int64_t Budget;
  std::vector<Int128> Vals;

  bool visit(size_t P, Int128 Rank) {
    if (++Steps > Budget)
      return false;
    if (P == Vals.size()) {
      Int128 Bit = 0, K;
      for (size_t D = 0; D < R.Subs.size(); ++D) {
        if (!R.Subs[D].eval(Vals.data(), K) || K < Box.Lo[D] ||
            K > Box.Hi[D])
          return false;
        Bit += (K - Box.Lo[D]) * Box.Stride[D];
      }
      return Emit(static_cast<uint64_t>(Bit), Rank);
    }
    Int128 F, L;
    if (!R.First[P].eval(Vals.data(), F) || !R.Last[P].eval(Vals.data(), L))
      return false;
    std::optional<Int128> Trip = tripOf(F, L, R.Step[P]);
    if (!Trip)
      return false;
    for (Int128 T = 0; T < *Trip; ++T) {
      Vals[P] = F + T * R.Step[P];
      Int128 Off = R.Step[P] > 0 ? Vals[P] - R.Origin[P]
                                 : R.Origin[P] - Vals[P];
      if (!visit(P + 1, Rank + R.Weight[P] * Off))
        return false;
      if (R.Once[P])
        break;
    }
    return true;
  }
};

/// Compiles the references of \p Name with their ranks; false with \p Why.
bool makeTimedRefs(const std::string &Name, const std::vector<StmtSite> &Stmts,
                   const Env &Known, std::vector<TimedRef> &Refs,
                   std::string &Why) {
  struct Site {
    const Access *A;
    const Chain *C;
    std::vector<size_t> Pos;
  };
  std::vector<Site> Sites;
  for (const StmtSite &S : Stmts) {
    std::vector<size_t> Pos;
    for (const Access &A : S.S->Accesses) {
      if (A.ArrayName != Name)
        continue;
      if (Pos.empty() && !schedulePositions(S.Loops, S.S, Pos)) {
        Why = "a statement of " + Name + " is not found in its loops";
        return false;
      }
      Sites.push_back({&A, &S.Loops, Pos});
    }
  }
  // The hull of every loop's values (interval arithmetic over the loops
  // around it), and the radix of each depth: the widest loop there, and
  // the last position in a body there.
  std::vector<Int128> Width, Positions;
  std::vector<const Site *> RefSite;
  for (Site &S : Sites) {
    TimedRef R;
    std::map<std::string, unsigned> Slots;
    std::vector<Interval> SlotHull;
    const Chain &C = *S.C;
    for (size_t P = 0; P < C.size(); ++P) {
      CBnd F, L;
      if (!compileBound(C[P]->First, Slots, Known, F) ||
          !compileBound(C[P]->Last, Slots, Known, L)) {
        Why = "a bound of a loop around " + Name + " has no value";
        return false;
      }
      std::optional<Interval> FI = intervalOf(F, SlotHull),
                              LI = intervalOf(L, SlotHull);
      if (!FI || !LI) {
        Why = "the bounds of the loops around " + Name + " overflow";
        return false;
      }
      Interval H{std::min(FI->first, LI->first),
                 std::max(FI->second, LI->second)};
      SlotHull.push_back(H);
      Slots[C[P]->IV] = P;
      R.First.push_back(std::move(F));
      R.Last.push_back(std::move(L));
      R.Step.push_back(C[P]->Step);
      R.Origin.push_back(C[P]->Step > 0 ? H.first : H.second);
      if (Width.size() <= P) {
        Width.push_back(0);
        Positions.push_back(0);
      }
      Width[P] = std::max(Width[P], H.second - H.first + 1);
      Positions[P] = std::max(Positions[P], static_cast<Int128>(S.Pos[P] + 1));
    }
    for (const auto &Sub : S.A->Subscripts) {
      CAff A;
      if (!Sub || !compileAffine(*Sub, Slots, Known, A)) {
        Why = "a subscript of " + Name + " has no value";
        return false;
      }
      R.Subs.push_back(std::move(A));
    }
    for (size_t P = 0; P < C.size(); ++P) {
      bool Used = false;
      for (const auto &Sub : S.A->Subscripts)
        Used |= Sub->uses(C[P]->IV);
      for (size_t Q = P + 1; Q < C.size(); ++Q)
        Used |= boundsUse(*C[Q], C[P]->IV);
      R.Once.push_back(!Used);
    }
    // `C[i][j] += ...` is a read and a write at one rank: a tie between a
    // read and a write goes to the read (Footprint.h).
    for (bool Write : {false, true})
      if (Write ? S.A->IsWrite : S.A->IsRead) {
        R.Write = Write;
        Refs.push_back(R);
        RefSite.push_back(&S);
      }
  }
  // Weights, innermost first: position of the last depth, its value, ...
  std::vector<Int128> ValueWeight(Width.size()), PosWeight(Width.size());
  Int128 W = 1;
  const Int128 Limit = std::numeric_limits<uint64_t>::max();
  for (size_t D = Width.size(); D-- > 0;) {
    PosWeight[D] = W;
    W *= Positions[D];
    ValueWeight[D] = W;
    if (Width[D] > Limit || W > Limit / Width[D]) {
      Why = "the iterations around " + Name + " are too many to rank";
      return false;
    }
    W *= Width[D];
  }
  for (size_t I = 0; I < Refs.size(); ++I)
    for (size_t P = 0; P < Refs[I].First.size(); ++P) {
      Refs[I].Weight.push_back(ValueWeight[P]);
      Refs[I].Base += PosWeight[P] * static_cast<Int128>(RefSite[I]->Pos[P]);
    }
  return true;
}

/// Elements whose first access is a read, and elements written, of an
/// array whose first reads depend on the order of its accesses: the
/// earliest write of each element (its rank), then every read that comes
/// no later.
std::optional<ImageCountResult>
countInAccessOrder(const std::string &Name, const std::vector<StmtSite> &Stmts,
                   const Env &Known, const ElementBox &Box,
                   const ImageCountOptions &Opts, int64_t &Steps,
                   std::string &Why) {
  if (Box.Size > Opts.MaxOrderedElements) {
    Why = "the elements of " + Name + " span a box of more than " +
          std::to_string(Opts.MaxOrderedElements) +
          " elements (the order of its accesses needs a rank per element)";
    return std::nullopt;
  }
  std::vector<TimedRef> Refs;
  if (!makeTimedRefs(Name, Stmts, Known, Refs, Why))
    return std::nullopt;
  const uint64_t Never = std::numeric_limits<uint64_t>::max();
  std::vector<uint64_t> FirstWrite(static_cast<size_t>(Box.Size), Never);
  Bitmap ReadFirst(static_cast<size_t>(Box.Size));
  auto Write = [&](uint64_t Bit, Int128 Rank) {
    uint64_t &F = FirstWrite[Bit];
    F = std::min(F, static_cast<uint64_t>(Rank));
    return true;
  };
  auto Read = [&](uint64_t Bit, Int128 Rank) {
    if (static_cast<uint64_t>(Rank) <= FirstWrite[Bit])
      ReadFirst.set(Bit);
    return true;
  };
  for (int Pass = 0; Pass < 2; ++Pass)
    for (const TimedRef &R : Refs) {
      if (R.Write != (Pass == 0))
        continue;
      TimedWalk::EmitFn Emit = Pass == 0 ? TimedWalk::EmitFn(Write)
                                         : TimedWalk::EmitFn(Read);
      if (!TimedWalk(R, Box, Emit, Steps, Opts.StepBudget).run()) {
        if (Steps > Opts.StepBudget) {
          // Not OverBudget: walking each reference on its own can take
          // more steps than enumerating the nest once (heat-3d's seven
          // references to B), so the enumeration may still do.
          Why = "counting the elements of " + Name +
                " in the order of its accesses takes more than " +
                std::to_string(Opts.StepBudget) + " steps";
        } else {
          Why = "the subscripts of " + Name + " overflow";
        }
        return std::nullopt;
      }
    }
  ImageCountResult Out;
  Out.Read = ReadFirst.count();
  for (uint64_t F : FirstWrite)
    Out.Written += F != Never;
  return Out;
}

/// The references to one array, as walkers.
struct ArrayRefs {
  std::vector<Walker> Walkers;
  bool HasRead = false, HasWrite = false;
  /// A write no read of its statement covers: which element is first read
  /// then depends on the order of the accesses.
  bool Ordered = false;
};

bool collectRefs(const std::string &Name, const std::vector<StmtSite> &Stmts,
                 const Env &Known, ArrayRefs &Refs, std::string &Why) {
  for (const StmtSite &S : Stmts)
    for (const Access &A : S.S->Accesses) {
      if (A.ArrayName != Name)
        continue;
      Refs.HasRead |= A.IsRead;
      Refs.HasWrite |= A.IsWrite;
      if (A.IsWrite && !coveredByRead(A, *S.S))
        Refs.Ordered = true;
      std::optional<Walker> W = makeWalker(A, S.Loops, Known, A.IsWrite);
      if (!W) {
        Why = "a bound or subscript of " + Name + " has no value";
        return false;
      }
      Refs.Walkers.push_back(std::move(*W));
    }
  return true;
}

void tooCostly(const std::string &Name, const ImageCountOptions &Opts,
               std::string &Why, bool &OverBudget) {
  Why = "counting the elements of " + Name + " exactly takes more than " +
        std::to_string(Opts.StepBudget) + " steps";
  OverBudget = true;
}

enum class BoxFound { Yes, Empty, Failed };

/// The box of the elements \p Walkers touch into Box.Lo and Box.Hi: by
/// interval arithmetic, else (too large) by a walk. Empty where no
/// reference executes.
BoxFound elementBox(const std::string &Name, const std::vector<Walker> &Walkers,
                    const ImageCountOptions &Opts, ElementBox &Box,
                    int64_t &Steps, std::string &Why, bool &OverBudget) {
  size_t Dims = Walkers.front().Subs.size();
  for (const Walker &W : Walkers)
    if (W.Subs.size() != Dims) {
      Why = "the accesses of " + Name + " disagree on its dimensions";
      return BoxFound::Failed;
    }
  std::vector<Int128> &Lo = Box.Lo, &Hi = Box.Hi;
  bool Any = false;
  auto Grow = [&](const std::vector<Int128> &Start,
                  const std::vector<Int128> *Delta, Int128 Count) {
    if (!Any) {
      Lo = Hi = Start;
      Any = true;
    }
    for (size_t D = 0; D < Dims; ++D) {
      Int128 End = Start[D];
      if (Delta && __builtin_mul_overflow((*Delta)[D], Count - 1, &End))
        return false;
      if (Delta)
        End += Start[D];
      Lo[D] = std::min({Lo[D], Start[D], End});
      Hi[D] = std::max({Hi[D], Start[D], End});
    }
    return true;
  };
  auto BoxElements = [&] {
    Int128 Size = 1;
    for (size_t D = 0; D < Dims && Size <= Opts.MaxBoxElements; ++D)
      Size *= Hi[D] - Lo[D] + 1;
    return Size;
  };
  for (const Walker &W : Walkers) {
    std::optional<std::vector<Interval>> B = boxOf(W);
    if (!B) {
      Any = false;
      break;
    }
    for (size_t D = 0; D < Dims; ++D) {
      Lo.resize(Dims), Hi.resize(Dims);
      Lo[D] = Any ? std::min(Lo[D], (*B)[D].first) : (*B)[D].first;
      Hi[D] = Any ? std::max(Hi[D], (*B)[D].second) : (*B)[D].second;
    }
    Any = true;
  }
  if (!Any || BoxElements() > Opts.MaxBoxElements) {
    Any = false;
    for (const Walker &W : Walkers)
      if (!Walk(W, Grow, Steps, Opts.StepBudget).run()) {
        if (Steps > Opts.StepBudget)
          tooCostly(Name, Opts, Why, OverBudget);
        else
          Why = "the subscripts of " + Name + " overflow";
        return BoxFound::Failed;
      }
  }
  return Any ? BoxFound::Yes : BoxFound::Empty;
}

/// Box.Stride and Box.Size, row-major; false (with \p Why) where the box is
/// too large to count in.
bool sizeBox(const std::string &Name, const ImageCountOptions &Opts,
             ElementBox &Box, std::string &Why) {
  size_t Dims = Box.Lo.size();
  Box.Stride.assign(Dims, 0);
  Int128 Size = 1;
  for (size_t D = Dims; D-- > 0;) {
    Box.Stride[D] = Size;
    Size *= Box.Hi[D] - Box.Lo[D] + 1;
    if (Size > Opts.MaxBoxElements) {
      Why = "the elements of " + Name + " span a box of more than " +
            std::to_string(Opts.MaxBoxElements) + " elements";
      return false;
    }
  }
  Box.Size = Size;
  return true;
}

/// The union of the images, of all references and of the writes.
std::optional<ImageCountResult>
countImageUnion(const std::string &Name, const ArrayRefs &Refs,
                const ElementBox &Box, const ImageCountOptions &Opts,
                int64_t &Steps, std::string &Why, bool &OverBudget) {
  size_t Dims = Box.Lo.size();
  bool Mixed = Refs.HasRead && Refs.HasWrite;
  Bitmap All(static_cast<size_t>(Box.Size)), Written(Mixed ? Box.Size : 0);
  Bitmap *Target = &All;
  auto Mark = [&](const std::vector<Int128> &Start,
                  const std::vector<Int128> *Delta, Int128 Count) {
    Int128 Lin = 0, Step = 0;
    for (size_t D = 0; D < Dims; ++D) {
      Lin += (Start[D] - Box.Lo[D]) * Box.Stride[D];
      if (Delta)
        Step += (*Delta)[D] * Box.Stride[D];
    }
    if (!Delta || Step == 0 || Count == 1) {
      Target->set(static_cast<uint64_t>(Lin));
      return true;
    }
    Int128 End = Lin + Step * (Count - 1);
    if (Step == 1 || Step == -1) {
      // Whole words are cheap: 16 count as one step (a loop iteration of
      // the walk costs about as much).
      Steps += Target->setRange(static_cast<uint64_t>(std::min(Lin, End)),
                                static_cast<uint64_t>(std::max(Lin, End))) /
               16;
      return Steps <= Opts.StepBudget;
    }
    Steps += static_cast<int64_t>(Count / 16) + 1; // bits are cheap too
    if (Steps > Opts.StepBudget)
      return false;
    for (Int128 T = 0; T < Count; ++T, Lin += Step)
      Target->set(static_cast<uint64_t>(Lin));
    return true;
  };
  for (int Pass = 0; Pass < (Mixed ? 2 : 1); ++Pass) {
    Target = Pass == 0 ? &All : &Written;
    for (const Walker &W : Refs.Walkers) {
      if (Pass == 1 && !W.Write)
        continue;
      if (!Walk(W, Mark, Steps, Opts.StepBudget).run()) {
        tooCostly(Name, Opts, Why, OverBudget);
        return std::nullopt;
      }
    }
  }
  ImageCountResult R;
  Int128 Union = All.count();
  R.Read = Refs.HasRead ? Union : 0;
  R.Written = Mixed ? Written.count() : Refs.HasWrite ? Union : 0;
  return R;
}

} // namespace

std::optional<ImageCountResult>
detail::countArrayImages(const std::string &Name,
                         const std::vector<StmtSite> &Stmts, const Env &Known,
                         const ImageCountOptions &Opts, std::string &Why,
                         bool &OverBudget) {
  OverBudget = false;
  ArrayRefs Refs;
  if (!collectRefs(Name, Stmts, Known, Refs, Why))
    return std::nullopt;
  ImageCountResult R;
  if (Refs.Walkers.empty())
    return R;

  ElementBox Box;
  int64_t Steps = 0;
  switch (elementBox(Name, Refs.Walkers, Opts, Box, Steps, Why, OverBudget)) {
  case BoxFound::Failed:
    return std::nullopt;
  case BoxFound::Empty:
    return R; // no reference executes
  case BoxFound::Yes:
    break;
  }
  if (!sizeBox(Name, Opts, Box, Why))
    return std::nullopt;

  // Which element is first read depends on the order of the accesses.
  if (Refs.HasRead && Refs.Ordered)
    return countInAccessOrder(Name, Stmts, Known, Box, Opts, Steps, Why);
  return countImageUnion(Name, Refs, Box, Opts, Steps, Why, OverBudget);
}
