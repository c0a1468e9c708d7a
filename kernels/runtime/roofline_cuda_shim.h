// roofline_cuda_shim.h - the CUDA that roofline_cuda.h and the emitted
// variants use, on the CPU (docs/cuda.md, "Running the kernels without a
// GPU"). Compile an emitted .cu as C++ with -DRL_CUDA_SHIM (g++ -x c++) and
// its kernels run here: every block of a launch in turn, every thread of a
// block as a fiber (ucontext), switched only at __syncthreads, warp
// collectives (shuffles, ldmatrix, mma.sync) and the end of the thread.
//
// What it checks on the way, each an error (exit 3) rather than a guess:
//   - a __syncthreads that not every thread of the block reaches (divergent
//     barrier, or a thread that returned while others wait);
//   - a warp collective that not all 32 lanes of the warp reach;
//   - cp.async data read before its group was waited for: the copies of a
//     group land only at cp.async.wait_group (or wait_all), so a missing
//     wait reads stale shared memory and fails the check;
//   - shared-memory races across a barrier are exposed by running the
//     threads of a block in forward order in one phase and in reverse order
//     in the next.
// Tensor-core instructions (ldmatrix, mma.sync m16n8k16 bf16, m16n8k32 s8)
// are emulated from the fragment layouts of the PTX ISA, so a kernel's
// fragment index math is exercised; arithmetic is f32 (bf16) or exact
// (int8). The device's compute capability is RL_SHIM_CC (environment,
// default 80), so launchers that choose a kernel per architecture can be
// run down each path.

#ifndef ROOFLINE_CUDA_SHIM_H
#define ROOFLINE_CUDA_SHIM_H

#include <ucontext.h>

#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <functional>
#include <memory>
#include <vector>

// The device paths of roofline_cuda.h compile as for this architecture: all
// of them (the launchers pick one at run time from RL_SHIM_CC).
#define RL_SHIM_ARCH 900

#define __global__
#define __device__
#define __host__
#define __forceinline__ inline
#define __shared__ static
#define __align__(N) __attribute__((aligned(N)))
#define __launch_bounds__(...)

struct uint3 {
  unsigned x = 0, y = 0, z = 0;
};
struct dim3 {
  unsigned x, y, z;
  dim3(unsigned X = 1, unsigned Y = 1, unsigned Z = 1) : x(X), y(Y), z(Z) {}
};
struct alignas(16) float4 {
  float x, y, z, w;
};
struct alignas(8) float2 {
  float x, y;
};
struct alignas(16) int4 {
  int x, y, z, w;
};
struct alignas(16) uint4 {
  unsigned x, y, z, w;
};
struct alignas(8) uint2 {
  unsigned x, y;
};
inline float4 make_float4(float X, float Y, float Z, float W) { return {X, Y, Z, W}; }
inline float2 make_float2(float X, float Y) { return {X, Y}; }

/// bf16 as cuda_bf16.h names it: the upper half of a float, rounded to
/// nearest even (as the CPU side's rl::bf16).
struct __nv_bfloat16 {
  uint16_t __x = 0;
};
inline __nv_bfloat16 __float2bfloat16_rn(float F) {
  uint32_t U;
  std::memcpy(&U, &F, 4);
  __nv_bfloat16 B;
  if ((U & 0x7fffffffu) > 0x7f800000u) {
    B.__x = uint16_t((U >> 16) | 0x40);
    return B;
  }
  U += 0x7fffu + ((U >> 16) & 1u);
  B.__x = uint16_t(U >> 16);
  return B;
}
inline __nv_bfloat16 __float2bfloat16(float F) { return __float2bfloat16_rn(F); }
inline float __bfloat162float(__nv_bfloat16 B) {
  uint32_t U = uint32_t(B.__x) << 16;
  float F;
  std::memcpy(&F, &U, 4);
  return F;
}

inline int __float2int_rn(float F) { return int(std::nearbyint(F)); }
inline unsigned __float_as_uint(float F) {
  unsigned U;
  std::memcpy(&U, &F, 4);
  return U;
}
inline float __uint_as_float(unsigned U) {
  float F;
  std::memcpy(&F, &U, 4);
  return F;
}
/// Four signed bytes of A times those of B, plus C.
inline int __dp4a(int A, int B, int C) {
  for (int E = 0; E < 4; ++E)
    C += int(int8_t(unsigned(A) >> (8 * E))) * int(int8_t(unsigned(B) >> (8 * E)));
  return C;
}
[[noreturn]] inline void __trap() {
  std::fprintf(stderr, "rl-cuda-shim: __trap() (a device path this architecture does not have)\n");
  std::exit(3);
}

namespace rl {
namespace shim {

[[noreturn]] inline void fail(const char *What) {
  std::fprintf(stderr, "rl-cuda-shim: %s\n", What);
  std::exit(3);
}

/// One pending cp.async: lands at the wait that covers its group.
struct async_copy {
  void *Dst;
  const void *Src;
  int Bytes, SrcBytes;
};

#if defined(__x86_64__)
/// Saves the callee-saved registers and the stack pointer into *From and
/// resumes the context whose stack pointer is To (ucontext's swapcontext
/// costs a system call per switch; this keeps the shim's runs short).
__attribute__((naked, noinline)) static void switch_to(void **, void *) {
  asm volatile("pushq %rbp\n\tpushq %rbx\n\tpushq %r12\n\tpushq %r13\n\t"
               "pushq %r14\n\tpushq %r15\n\tmovq %rsp, (%rdi)\n\tmovq %rsi, %rsp\n\t"
               "popq %r15\n\tpopq %r14\n\tpopq %r13\n\tpopq %r12\n\tpopq %rbx\n\t"
               "popq %rbp\n\tret\n");
}
struct context {
  void *Sp = nullptr;
};
#else
struct context {
  ucontext_t Ctx;
};
#endif

struct fiber {
  enum state { Ready, AtBlockBarrier, AtWarpBarrier, Spinning, Done };
  context Ctx;
  state State = Ready;
  uint3 Tid;
  unsigned Linear = 0;
  std::vector<async_copy> Open;                  ///< not yet committed
  std::vector<std::vector<async_copy>> Groups;   ///< committed, oldest first
};

/// The block being run: its fibers and the scheduler's context.
struct block {
  std::vector<fiber> F;
  /// Fiber stacks, kept across blocks (not zeroed: only what is used is
  /// touched).
  std::vector<std::unique_ptr<char[]>> Stacks;
  static constexpr size_t StackBytes = 128 * 1024;
  context Sched;
  size_t Cur = 0;
  uint3 BlockIdx;
  dim3 BlockDim, GridDim;
  const std::function<void()> *Body = nullptr;
  bool LandEarly = false; ///< cp.async copies land at issue (cp_async)
  uint64_t Blocks = 0;    ///< blocks run so far, all launches
  /// Per warp: 32 slots the lanes of a collective exchange through.
  std::vector<unsigned char> Scratch;
  static constexpr size_t Slot = 64;
};

inline block &B() {
  static block S;
  return S;
}
inline fiber &self() { return B().F[B().Cur]; }

inline void resume(context &From, context &To) {
#if defined(__x86_64__)
  switch_to(&From.Sp, To.Sp);
#else
  swapcontext(&From.Ctx, &To.Ctx);
#endif
}
inline void yield() { resume(self().Ctx, B().Sched); }

inline void entry() {
  (*B().Body)();
  self().State = fiber::Done;
  yield(); // never resumed
  fail("a returned thread was resumed");
}

/// A fresh context that runs entry() on \p Stack.
inline void start(context &C, char *Stack, size_t Bytes) {
#if defined(__x86_64__)
  // switch_to pops six registers and returns into entry(); the stack is
  // then 8 off 16-byte alignment, as after a call.
  uintptr_t Top = (reinterpret_cast<uintptr_t>(Stack) + Bytes) & ~uintptr_t(15);
  void **Sp = reinterpret_cast<void **>(Top) - 8;
  for (int I = 0; I < 6; ++I)
    Sp[I] = nullptr;
  Sp[6] = reinterpret_cast<void *>(&entry);
  Sp[7] = nullptr;
  C.Sp = Sp;
#else
  getcontext(&C.Ctx);
  C.Ctx.uc_stack.ss_sp = Stack;
  C.Ctx.uc_stack.ss_size = Bytes;
  C.Ctx.uc_link = nullptr;
  makecontext(&C.Ctx, entry, 0);
#endif
}

inline void sync_block() {
  self().State = fiber::AtBlockBarrier;
  yield();
}
inline void sync_warp() {
  self().State = fiber::AtWarpBarrier;
  yield();
}
inline unsigned lane() { return self().Linear % 32; }
inline unsigned char *slot(unsigned Lane) {
  return &B().Scratch[((self().Linear / 32) * 32 + Lane) * block::Slot];
}

/// Every lane's \p Mine, in lane order (a warp collective).
template <class T> void gather(const T &Mine, T (&All)[32]) {
  static_assert(sizeof(T) <= block::Slot, "shim: a warp exchange slot is 64 bytes");
  std::memcpy(slot(lane()), &Mine, sizeof(T));
  sync_warp();
  for (unsigned L = 0; L < 32; ++L)
    std::memcpy(&All[L], slot(L), sizeof(T));
  sync_warp(); // nobody writes the slots again before all have read
}

inline const char *state_name(fiber::state S) {
  switch (S) {
  case fiber::Ready: return "running";
  case fiber::AtBlockBarrier: return "at __syncthreads";
  case fiber::AtWarpBarrier: return "at a warp collective";
  case fiber::Spinning: return "waiting on an mbarrier";
  case fiber::Done: return "returned";
  }
  return "?";
}

[[noreturn]] inline void stuck(const char *What, size_t A, size_t Bi) {
  const fiber &X = B().F[A], &Y = B().F[Bi];
  std::fprintf(stderr,
               "rl-cuda-shim: %s: block (%u,%u,%u): thread (%u,%u,%u) %s, thread "
               "(%u,%u,%u) %s\n",
               What, B().BlockIdx.x, B().BlockIdx.y, B().BlockIdx.z, X.Tid.x, X.Tid.y,
               X.Tid.z, state_name(X.State), Y.Tid.x, Y.Tid.y, Y.Tid.z,
               state_name(Y.State));
  std::exit(3);
}

/// Runs one block to completion, depth first: always the first runnable
/// thread (in this phase's order), and a warp collective is released as
/// soon as its 32nd lane arrives, so one warp runs ahead to the next
/// __syncthreads before the next warp starts. The order is reversed at
/// every __syncthreads. A warp running ahead writes what a missing barrier
/// should have protected while the other warps still read it.
inline void run_block() {
  block &S = B();
  size_t N = S.F.size();
  while (S.Stacks.size() < N)
    S.Stacks.emplace_back(new char[block::StackBytes]);
  for (size_t I = 0; I < N; ++I)
    start(S.F[I].Ctx, S.Stacks[I].get(), block::StackBytes);
  bool Reverse = false;
  for (;;) {
    size_t Next = N, Spin = N;
    for (size_t K = 0; K < N && Next == N; ++K) {
      size_t I = Reverse ? N - 1 - K : K;
      if (S.F[I].State == fiber::Ready)
        Next = I;
      else if (S.F[I].State == fiber::Spinning && Spin == N)
        Spin = I;
    }
    if (Next == N && Spin < N) {
      // Only threads waiting on an mbarrier can run: each looks again; if
      // none gets through, nothing can complete what they wait for.
      bool Through = false;
      for (size_t I = 0; I < N; ++I)
        if (S.F[I].State == fiber::Spinning) {
          S.F[I].State = fiber::Ready;
          S.Cur = I;
          resume(S.Sched, S.F[I].Ctx);
          Through |= S.F[I].State != fiber::Spinning;
        }
      if (!Through)
        stuck("an mbarrier wait that nothing completes", Spin, Spin);
      continue;
    }
    if (Next < N) {
      S.Cur = Next;
      resume(S.Sched, S.F[Next].Ctx);
      if (S.F[Next].State != fiber::AtWarpBarrier)
        continue;
      size_t Lo = Next / 32 * 32, Hi = std::min(N, Lo + 32), At = 0;
      for (size_t I = Lo; I < Hi; ++I)
        At += S.F[I].State == fiber::AtWarpBarrier;
      if (At == 32)
        for (size_t I = Lo; I < Hi; ++I)
          S.F[I].State = fiber::Ready;
      continue;
    }
    // Nobody can run: the end, a __syncthreads everyone reached, or a
    // barrier that cannot complete.
    size_t Done = 0, AtBlock = 0;
    for (const fiber &X : S.F) {
      Done += X.State == fiber::Done;
      AtBlock += X.State == fiber::AtBlockBarrier;
    }
    if (Done == N)
      return;
    if (AtBlock + Done == N) {
      if (Done) {
        size_t A = 0, D = 0;
        for (size_t I = 0; I < N; ++I)
          (S.F[I].State == fiber::Done ? D : A) = I;
        stuck("__syncthreads that not every thread reaches", A, D);
      }
      for (fiber &X : S.F)
        X.State = fiber::Ready;
      Reverse = !Reverse;
      continue;
    }
    for (size_t W = 0; W * 32 < N; ++W) {
      size_t Lo = W * 32, Hi = std::min(N, Lo + 32);
      for (size_t J = Lo; J < Hi; ++J)
        if (S.F[J].State == fiber::AtWarpBarrier) {
          if (Hi - Lo != 32)
            fail("a warp collective in a partial warp (the block is not a multiple of 32 "
                 "threads)");
          for (size_t I = Lo; I < Hi; ++I)
            if (S.F[I].State != fiber::AtWarpBarrier)
              stuck("a warp collective that not every lane reaches", J, I);
        }
    }
    fail("no thread can proceed (mismatched barriers)");
  }
}

/// Dynamic shared memory: as much as an SM of the largest kind offers.
inline unsigned char *dyn_smem() {
  alignas(16) static unsigned char Smem[232448];
  return Smem;
}

inline int device_cc() {
  static const int CC = [] {
    const char *E = std::getenv("RL_SHIM_CC");
    int V = E ? std::atoi(E) : 80;
    return V >= 30 ? V : 80;
  }();
  return CC;
}

/// A launch: every block in turn, its threads as fibers.
template <class... P, class... A>
void launch(dim3 Grid, dim3 Block, size_t DynamicSmem, void (*Kernel)(P...), A &&...Args) {
  size_t Threads = size_t(Block.x) * Block.y * Block.z;
  if (Threads == 0 || Threads > 1024 || Grid.x == 0 || Grid.y == 0 || Grid.z == 0)
    fail("invalid launch configuration");
  if (DynamicSmem > 232448)
    fail("more dynamic shared memory than an SM has");
  std::function<void()> Body = [&]() { Kernel(Args...); };
  block &S = B();
  S.Body = &Body;
  S.BlockDim = Block;
  S.GridDim = Grid;
  S.Scratch.assign(((Threads + 31) / 32) * 32 * block::Slot, 0);
  for (unsigned Z = 0; Z < Grid.z; ++Z)
    for (unsigned Y = 0; Y < Grid.y; ++Y)
      for (unsigned X = 0; X < Grid.x; ++X) {
        S.BlockIdx = {X, Y, Z};
        S.LandEarly = S.Blocks++ % 2 == 1;
        S.F.assign(Threads, fiber());
        for (size_t T = 0; T < Threads; ++T) {
          fiber &F = S.F[T];
          F.Linear = unsigned(T);
          F.Tid = {unsigned(T % Block.x), unsigned((T / Block.x) % Block.y),
                   unsigned(T / (size_t(Block.x) * Block.y))};
        }
        run_block();
      }
  S.Body = nullptr;
}

//===--------------------------------------------------------------------===//
// cp.async: copies land when their group is waited for
//===--------------------------------------------------------------------===//

inline void land(const async_copy &C) {
  std::memcpy(C.Dst, C.Src, size_t(C.SrcBytes));
  std::memset(static_cast<char *>(C.Dst) + C.SrcBytes, 0, size_t(C.Bytes - C.SrcBytes));
}
/// A copy lands at the earliest moment hardware may write it (at issue) in
/// every other block, and at the latest (the wait that covers it) in the
/// others: early landing exposes a stage overwritten while another thread
/// still reads it (a missing barrier), late landing a read before the wait.
inline void cp_async(void *Dst, const void *Src, int Bytes, int SrcBytes) {
  if (B().LandEarly)
    land({Dst, Src, Bytes, SrcBytes});
  else
    self().Open.push_back({Dst, Src, Bytes, SrcBytes});
}
inline void cp_async_commit() {
  self().Groups.push_back(std::move(self().Open));
  self().Open.clear();
}

/// Waits until at most \p Pending committed groups are outstanding.
inline void cp_async_wait(int Pending) {
  auto &G = self().Groups;
  while (int(G.size()) > Pending) {
    for (const async_copy &C : G.front())
      land(C);
    G.erase(G.begin());
  }
}

//===--------------------------------------------------------------------===//
// Tensor cores (PTX ISA: "Matrix fragments for mma.m16n8k16" and
// ".m16n8k32", "ldmatrix")
//===--------------------------------------------------------------------===//

inline float bf16_lo(unsigned R) { return __uint_as_float(R << 16); }
inline float bf16_hi(unsigned R) { return __uint_as_float(R & 0xffff0000u); }

/// ldmatrix.m8n8.x<Num>[.trans].b16: lane l gives the row address of row
/// l % 8 of matrix l / 8; register j of lane l receives, of matrix j, the
/// two 16-bit elements of row l / 4 at columns 2 (l % 4) and +1, or with
/// .trans the elements (row 2 (l % 4), col l / 4) and (row 2 (l % 4) + 1).
template <int Num> void ldmatrix(unsigned *R, const void *Row, bool Trans) {
  const void *All[32];
  gather(Row, All);
  unsigned L = lane();
  for (int J = 0; J < Num; ++J) {
    uint16_t E[2];
    for (int I = 0; I < 2; ++I) {
      if (!Trans)
        std::memcpy(&E[I], static_cast<const char *>(All[J * 8 + L / 4]) + 2 * (2 * (L % 4) + I), 2);
      else
        std::memcpy(&E[I], static_cast<const char *>(All[J * 8 + 2 * (L % 4) + I]) + 2 * (L / 4), 2);
    }
    R[J] = unsigned(E[0]) | (unsigned(E[1]) << 16);
  }
}

struct mma_frags {
  unsigned A[4], B[2];
};

/// mma.sync.m16n8k16.row.col.f32.bf16.bf16.f32, D += A B. groupID g = l/4,
/// t = l % 4. A (16x16): a0,a1 (reg 0) at row g, cols 2t, 2t+1; reg 1 row
/// g+8; reg 2 row g, cols 2t+8, +9; reg 3 row g+8, cols 2t+8, +9. B (16x8):
/// reg 0 rows 2t, 2t+1 of col g; reg 1 rows 2t+8, +9. C/D: c0,c1 at row g,
/// cols 2t, 2t+1; c2,c3 at row g+8.
inline void mma_bf16_16816(float *D, const unsigned *A, const unsigned *Bf) {
  mma_frags Mine, All[32];
  std::memcpy(Mine.A, A, sizeof(Mine.A));
  std::memcpy(Mine.B, Bf, sizeof(Mine.B));
  gather(Mine, All);
  float Am[16][16], Bm[16][8];
  for (unsigned L = 0; L < 32; ++L) {
    unsigned G = L / 4, T = L % 4;
    for (int Rg = 0; Rg < 4; ++Rg) {
      unsigned Row = G + 8 * (Rg % 2), Col = 2 * T + 8 * (Rg / 2);
      Am[Row][Col] = bf16_lo(All[L].A[Rg]);
      Am[Row][Col + 1] = bf16_hi(All[L].A[Rg]);
    }
    for (int Rg = 0; Rg < 2; ++Rg) {
      unsigned K = 2 * T + 8 * Rg;
      Bm[K][G] = bf16_lo(All[L].B[Rg]);
      Bm[K + 1][G] = bf16_hi(All[L].B[Rg]);
    }
  }
  unsigned L = lane(), G = L / 4, T = L % 4;
  for (int E = 0; E < 4; ++E) {
    unsigned Row = G + 8 * (E / 2), Col = 2 * T + (E % 2);
    float S = D[E];
    for (int K = 0; K < 16; ++K)
      S += Am[Row][K] * Bm[K][Col];
    D[E] = S;
  }
}

/// mma.sync.m16n8k32.row.col.s32.s8.s8.s32, D += A B. A (16x32): reg 0 row
/// g, cols 4t..4t+3; reg 1 row g+8; reg 2 row g, cols 16+4t..; reg 3 row
/// g+8, cols 16+4t... B (32x8): reg 0 rows 4t..4t+3 of col g; reg 1 rows
/// 16+4t... C/D as for m16n8k16.
inline void mma_s8_16832(int *D, const unsigned *A, const unsigned *Bf) {
  mma_frags Mine, All[32];
  std::memcpy(Mine.A, A, sizeof(Mine.A));
  std::memcpy(Mine.B, Bf, sizeof(Mine.B));
  gather(Mine, All);
  int Am[16][32], Bm[32][8];
  for (unsigned L = 0; L < 32; ++L) {
    unsigned G = L / 4, T = L % 4;
    for (int Rg = 0; Rg < 4; ++Rg)
      for (int Y = 0; Y < 4; ++Y)
        Am[G + 8 * (Rg % 2)][4 * T + 16 * (Rg / 2) + Y] = int8_t(All[L].A[Rg] >> (8 * Y));
    for (int Rg = 0; Rg < 2; ++Rg)
      for (int Y = 0; Y < 4; ++Y)
        Bm[4 * T + 16 * Rg + Y][G] = int8_t(All[L].B[Rg] >> (8 * Y));
  }
  unsigned L = lane(), G = L / 4, T = L % 4;
  for (int E = 0; E < 4; ++E) {
    unsigned Row = G + 8 * (E / 2), Col = 2 * T + (E % 2);
    int S = D[E];
    for (int K = 0; K < 32; ++K)
      S += Am[Row][K] * Bm[K][Col];
    D[E] = S;
  }
}

//===--------------------------------------------------------------------===//
// sm_90a (RL_SHIM_SM90A=1 at RL_SHIM_CC >= 90): mbarriers, TMA, wgmma
//===--------------------------------------------------------------------===//

inline bool sm90a() {
  static const bool On = [] {
    const char *E = std::getenv("RL_SHIM_SM90A");
    return E && *E == '1' && device_cc() >= 90;
  }();
  return On;
}

/// A shared-memory address as descriptors hold it: the offset in the
/// dynamic shared memory (the only shared memory wgmma reads here).
inline unsigned smem_offset(const void *P) {
  const unsigned char *C = static_cast<const unsigned char *>(P);
  if (C < dyn_smem() || C >= dyn_smem() + 232448)
    fail("a shared-memory address outside the dynamic shared memory");
  return unsigned(C - dyn_smem());
}
inline const unsigned char *smem_at(unsigned Offset) { return dyn_smem() + Offset; }

/// An mbarrier in its 64 bits: completed phases (24), pending transaction
/// bytes (24), arrivals still due (8), arrivals per phase (8).
struct mbar {
  uint64_t Phases, Tx, Due, Count;
  static mbar of(const uint64_t *B) {
    return {*B & 0xffffff, (*B >> 24) & 0xffffff, (*B >> 48) & 0xff, *B >> 56};
  }
  void to(uint64_t *B) const { *B = Phases | (Tx << 24) | (Due << 48) | (Count << 56); }
  void settle() {
    if (Due == 0 && Tx == 0) {
      ++Phases;
      Due = Count;
    }
  }
};
inline void mbar_init(uint64_t *B, unsigned Count) { mbar{0, 0, Count, Count}.to(B); }
inline void mbar_expect(uint64_t *B, unsigned Bytes) {
  mbar M = mbar::of(B);
  if (M.Due == 0)
    fail("an mbarrier arrival beyond its count");
  M.Tx += Bytes;
  --M.Due;
  M.settle();
  M.to(B);
}
inline void mbar_complete_tx(uint64_t *B, unsigned Bytes) {
  mbar M = mbar::of(B);
  if (M.Tx < Bytes)
    fail("more transaction bytes completed than an mbarrier expects");
  M.Tx -= Bytes;
  M.settle();
  M.to(B);
}
/// try_wait.parity: through once the phase of that parity has completed,
/// i.e. the phase now under way has the other parity.
inline void mbar_wait(uint64_t *B, unsigned Parity) {
  while ((mbar::of(B).Phases & 1) == (Parity & 1)) {
    self().State = fiber::Spinning;
    yield();
  }
}

/// The shim's tensor map: a 2-D bf16 tensor, row-major, and its box.
struct tensor_map {
  uint64_t Magic;
  const uint16_t *Base;
  int64_t Rows, Cols;
  int Box0, Box1;
};
constexpr uint64_t TmapMagic = 0x746d61702d73686dULL;
inline bool encode_tmap(unsigned char *Bytes, const void *Base, int64_t Rows, int64_t Cols,
                        int Box0, int Box1) {
  static_assert(sizeof(tensor_map) <= 128, "a CUtensorMap is 128 bytes");
  if (!sm90a())
    return false;
  tensor_map T{TmapMagic, static_cast<const uint16_t *>(Base), Rows, Cols, Box0, Box1};
  std::memcpy(Bytes, &T, sizeof T);
  return true;
}
/// The box at (inner C0, outer C1), zeros outside the tensor, written
/// row-major at Dst; its bytes complete on the mbarrier.
inline void tma_load_2d(void *Dst, const unsigned char *Map, int C0, int C1, uint64_t *Bar) {
  tensor_map T;
  std::memcpy(&T, Map, sizeof T);
  if (T.Magic != TmapMagic)
    fail("a TMA load through a tensor map that was not encoded");
  smem_offset(Dst);
  uint16_t *D = static_cast<uint16_t *>(Dst);
  for (int R = 0; R < T.Box1; ++R)
    for (int E = 0; E < T.Box0; ++E) {
      int64_t Row = int64_t(C1) + R, Col = int64_t(C0) + E;
      D[R * T.Box0 + E] = Row >= 0 && Row < T.Rows && Col >= 0 && Col < T.Cols
                              ? T.Base[Row * T.Cols + Col] : uint16_t(0);
    }
  mbar_complete_tx(Bar, unsigned(T.Box0 * T.Box1 * 2));
}

/// wgmma.mma_async m64nNk16 .f32.bf16.bf16, both operands K-major in shared
/// memory without swizzle: element (row r, k) of an operand at start +
/// (r / 8) SBO + (r % 8) 16 + (k / 8) LBO + (k % 8) 2 (core matrices of 8
/// rows x 16 bytes). The warpgroup's 4 warps hold rows 16 w ..; per 8
/// columns c a lane holds d[4c + e] at row l/4 + 8 (e/2), column 8c + 2
/// (l%4) + e%2. Done at once (the wait that follows is a no-op).
inline void wgmma_m64nNk16(float *D, int N, uint64_t A, uint64_t B) {
  auto Field = [](uint64_t Desc, int Shift) { return unsigned((Desc >> Shift) & 0x3fff) << 4; };
  auto At = [&](uint64_t Desc, int R, int K) {
    unsigned Off = Field(Desc, 0) + (R / 8) * Field(Desc, 32) + (R % 8) * 16 +
                   (K / 8) * Field(Desc, 16) + (K % 8) * 2;
    uint16_t V;
    std::memcpy(&V, smem_at(Off), 2);
    return __uint_as_float(unsigned(V) << 16);
  };
  unsigned T = self().Linear % 128, W = T / 32, L = T % 32;
  for (int C = 0; C < N / 8; ++C)
    for (int E = 0; E < 4; ++E) {
      int R = int(16 * W + L / 4 + 8 * (E / 2)), Col = int(8 * C + 2 * (L % 4) + E % 2);
      float S = D[4 * C + E];
      for (int K = 0; K < 16; ++K)
        S += At(A, R, K) * At(B, Col, K);
      D[4 * C + E] = S;
    }
}

} // namespace shim
} // namespace rl

#define threadIdx (::rl::shim::self().Tid)
#define blockIdx (::rl::shim::B().BlockIdx)
#define blockDim (::rl::shim::B().BlockDim)
#define gridDim (::rl::shim::B().GridDim)

inline void __syncthreads() { ::rl::shim::sync_block(); }
inline void __syncwarp(unsigned = 0xffffffffu) { ::rl::shim::sync_warp(); }

template <class T> T __shfl_xor_sync(unsigned Mask, T V, int LaneMask) {
  if (Mask != 0xffffffffu)
    ::rl::shim::fail("shuffles with a partial mask are not emulated");
  T All[32];
  ::rl::shim::gather(V, All);
  return All[(::rl::shim::lane() ^ unsigned(LaneMask)) & 31];
}
template <class T> T __shfl_sync(unsigned Mask, T V, int Src) {
  if (Mask != 0xffffffffu)
    ::rl::shim::fail("shuffles with a partial mask are not emulated");
  T All[32];
  ::rl::shim::gather(V, All);
  return All[unsigned(Src) & 31];
}
template <class T> T __shfl_down_sync(unsigned Mask, T V, unsigned Delta) {
  if (Mask != 0xffffffffu)
    ::rl::shim::fail("shuffles with a partial mask are not emulated");
  T All[32];
  ::rl::shim::gather(V, All);
  unsigned L = ::rl::shim::lane();
  return L + Delta < 32 ? All[L + Delta] : V;
}

//===----------------------------------------------------------------------===//
// The CUDA runtime API the host side uses (roofline_cuda_host.h, gpu-bench)
//===----------------------------------------------------------------------===//

enum cudaError_t { cudaSuccess = 0, cudaErrorMemoryAllocation = 2, cudaErrorInvalidValue = 1 };
enum cudaMemcpyKind {
  cudaMemcpyHostToHost = 0,
  cudaMemcpyHostToDevice = 1,
  cudaMemcpyDeviceToHost = 2,
  cudaMemcpyDeviceToDevice = 3,
  cudaMemcpyDefault = 4
};
enum cudaDeviceAttr {
  cudaDevAttrL2CacheSize = 38,
  cudaDevAttrComputeCapabilityMajor = 75,
  cudaDevAttrComputeCapabilityMinor = 76,
  cudaDevAttrMultiProcessorCount = 16
};
enum cudaFuncAttribute { cudaFuncAttributeMaxDynamicSharedMemorySize = 8 };
typedef struct rl_shim_event *cudaEvent_t;
typedef struct rl_shim_stream *cudaStream_t;
struct rl_shim_event {
  std::chrono::steady_clock::time_point T;
};
struct cudaDeviceProp {
  char name[256];
  int major, minor, multiProcessorCount, l2CacheSize;
  size_t totalGlobalMem;
};

inline const char *cudaGetErrorString(cudaError_t E) {
  return E == cudaSuccess ? "no error" : E == cudaErrorMemoryAllocation ? "out of memory" : "invalid value";
}
inline cudaError_t cudaGetLastError() { return cudaSuccess; }
inline cudaError_t cudaPeekAtLastError() { return cudaSuccess; }
inline cudaError_t cudaDeviceSynchronize() { return cudaSuccess; }
inline cudaError_t cudaGetDeviceCount(int *N) {
  *N = 1;
  return cudaSuccess;
}
inline cudaError_t cudaGetDevice(int *D) {
  *D = 0;
  return cudaSuccess;
}
/// L2: RL_SHIM_L2 bytes (default 1 MiB), so that buffer rotation is
/// exercised at test sizes.
inline int rl_shim_l2() {
  const char *E = std::getenv("RL_SHIM_L2");
  return E ? std::atoi(E) : (1 << 20);
}
inline cudaError_t cudaDeviceGetAttribute(int *V, cudaDeviceAttr A, int) {
  int CC = ::rl::shim::device_cc();
  switch (A) {
  case cudaDevAttrL2CacheSize: *V = rl_shim_l2(); break;
  case cudaDevAttrComputeCapabilityMajor: *V = CC / 10; break;
  case cudaDevAttrComputeCapabilityMinor: *V = CC % 10; break;
  case cudaDevAttrMultiProcessorCount: *V = 4; break;
  }
  return cudaSuccess;
}
inline cudaError_t cudaGetDeviceProperties(cudaDeviceProp *P, int) {
  std::memset(P, 0, sizeof(*P));
  std::snprintf(P->name, sizeof(P->name), "CPU shim (sm_%d)", ::rl::shim::device_cc());
  P->major = ::rl::shim::device_cc() / 10;
  P->minor = ::rl::shim::device_cc() % 10;
  P->multiProcessorCount = 4;
  P->l2CacheSize = rl_shim_l2();
  P->totalGlobalMem = size_t(8) << 30;
  return cudaSuccess;
}
inline cudaError_t cudaMemGetInfo(size_t *Free, size_t *Total) {
  *Free = size_t(4) << 30;
  *Total = size_t(8) << 30;
  return cudaSuccess;
}
template <class T> cudaError_t cudaMalloc(T **P, size_t Bytes) {
  void *X = std::aligned_alloc(256, (Bytes + 255) / 256 * 256);
  if (!X)
    return cudaErrorMemoryAllocation;
  std::memset(X, 0xA5, Bytes); // device memory is not zeroed
  *P = static_cast<T *>(X);
  return cudaSuccess;
}
inline cudaError_t cudaFree(void *P) {
  std::free(P);
  return cudaSuccess;
}
inline cudaError_t cudaMemcpy(void *D, const void *S, size_t N, cudaMemcpyKind) {
  if (N)
    std::memmove(D, S, N);
  return cudaSuccess;
}
inline cudaError_t cudaMemcpyAsync(void *D, const void *S, size_t N, cudaMemcpyKind K,
                                   cudaStream_t = nullptr) {
  return cudaMemcpy(D, S, N, K);
}
inline cudaError_t cudaMemset(void *D, int V, size_t N) {
  std::memset(D, V, N);
  return cudaSuccess;
}
inline cudaError_t cudaEventCreate(cudaEvent_t *E) {
  *E = new rl_shim_event();
  return cudaSuccess;
}
inline cudaError_t cudaEventDestroy(cudaEvent_t E) {
  delete E;
  return cudaSuccess;
}
inline cudaError_t cudaEventRecord(cudaEvent_t E, cudaStream_t = nullptr) {
  E->T = std::chrono::steady_clock::now();
  return cudaSuccess;
}
inline cudaError_t cudaEventSynchronize(cudaEvent_t) { return cudaSuccess; }
inline cudaError_t cudaEventElapsedTime(float *Ms, cudaEvent_t A, cudaEvent_t B) {
  *Ms = std::chrono::duration<float, std::milli>(B->T - A->T).count();
  return cudaSuccess;
}
template <class F> cudaError_t cudaFuncSetAttribute(F, cudaFuncAttribute, int) { return cudaSuccess; }
struct cudaFuncAttributes {
  int ptxVersion, binaryVersion, numRegs;
  size_t sharedSizeBytes, localSizeBytes;
};
/// Code compiled for, and run as, RL_SHIM_CC.
template <class F> cudaError_t cudaFuncGetAttributes(cudaFuncAttributes *A, F) {
  std::memset(A, 0, sizeof(*A));
  A->ptxVersion = A->binaryVersion = ::rl::shim::device_cc();
  return cudaSuccess;
}

//===----------------------------------------------------------------------===//
// cuBLAS, the calls gpu-bench makes (column-major, as cuBLAS): plain loops,
// so that gpu-bench's baselines run (slowly) and check their own shapes.
//===----------------------------------------------------------------------===//

#ifdef RL_SHIM_CUBLAS
typedef struct rl_shim_cublas *cublasHandle_t;
enum cublasStatus_t { CUBLAS_STATUS_SUCCESS = 0, CUBLAS_STATUS_NOT_SUPPORTED = 15 };
enum cublasOperation_t { CUBLAS_OP_N = 0, CUBLAS_OP_T = 1 };
enum cublasMath_t { CUBLAS_DEFAULT_MATH = 0, CUBLAS_PEDANTIC_MATH = 2 };
enum cudaDataType { CUDA_R_32F = 0, CUDA_R_8I = 3, CUDA_R_32I = 10, CUDA_R_16BF = 14 };
enum cublasComputeType_t { CUBLAS_COMPUTE_32F = 68, CUBLAS_COMPUTE_32I = 72 };
enum cublasGemmAlgo_t { CUBLAS_GEMM_DEFAULT = -1 };
struct rl_shim_cublas {};
inline cublasStatus_t cublasCreate(cublasHandle_t *H) {
  *H = new rl_shim_cublas();
  return CUBLAS_STATUS_SUCCESS;
}
inline cublasStatus_t cublasDestroy(cublasHandle_t H) {
  delete H;
  return CUBLAS_STATUS_SUCCESS;
}
inline cublasStatus_t cublasSetMathMode(cublasHandle_t, cublasMath_t) { return CUBLAS_STATUS_SUCCESS; }
namespace rl {
namespace shim {
inline double blas_load(cudaDataType T, const void *P, size_t I) {
  switch (T) {
  case CUDA_R_32F: return static_cast<const float *>(P)[I];
  case CUDA_R_8I: return static_cast<const int8_t *>(P)[I];
  case CUDA_R_32I: return static_cast<const int32_t *>(P)[I];
  case CUDA_R_16BF: return __bfloat162float(static_cast<const __nv_bfloat16 *>(P)[I]);
  }
  return 0;
}
inline void blas_store(cudaDataType T, void *P, size_t I, double V) {
  switch (T) {
  case CUDA_R_32F: static_cast<float *>(P)[I] = float(V); break;
  case CUDA_R_32I: static_cast<int32_t *>(P)[I] = int32_t(V); break;
  case CUDA_R_8I: static_cast<int8_t *>(P)[I] = int8_t(V); break;
  case CUDA_R_16BF: static_cast<__nv_bfloat16 *>(P)[I] = __float2bfloat16_rn(float(V)); break;
  }
}
/// C = alpha op(A) op(B) + beta C, column-major.
inline void gemm(cublasOperation_t Ta, cublasOperation_t Tb, int M, int N, int K, double Alpha,
                 cudaDataType TA, const void *A, int Lda, cudaDataType TB, const void *Bm,
                 int Ldb, double Beta, cudaDataType TC, void *C, int Ldc) {
  for (int J = 0; J < N; ++J)
    for (int I = 0; I < M; ++I) {
      double S = 0;
      for (int P = 0; P < K; ++P) {
        double X = blas_load(TA, A, Ta == CUBLAS_OP_N ? size_t(I) + size_t(P) * Lda
                                                      : size_t(P) + size_t(I) * Lda);
        double Y = blas_load(TB, Bm, Tb == CUBLAS_OP_N ? size_t(P) + size_t(J) * Ldb
                                                       : size_t(J) + size_t(P) * Ldb);
        S += X * Y;
      }
      size_t O = size_t(I) + size_t(J) * Ldc;
      blas_store(TC, C, O, Alpha * S + (Beta != 0 ? Beta * blas_load(TC, C, O) : 0));
    }
}
} // namespace shim
} // namespace rl
inline cublasStatus_t cublasSgemm(cublasHandle_t, cublasOperation_t Ta, cublasOperation_t Tb,
                                  int M, int N, int K, const float *Alpha, const float *A,
                                  int Lda, const float *Bm, int Ldb, const float *Beta, float *C,
                                  int Ldc) {
  rl::shim::gemm(Ta, Tb, M, N, K, *Alpha, CUDA_R_32F, A, Lda, CUDA_R_32F, Bm, Ldb, *Beta,
                 CUDA_R_32F, C, Ldc);
  return CUBLAS_STATUS_SUCCESS;
}
inline cublasStatus_t cublasGemmEx(cublasHandle_t, cublasOperation_t Ta, cublasOperation_t Tb,
                                   int M, int N, int K, const void *Alpha, const void *A,
                                   cudaDataType TA, int Lda, const void *Bm, cudaDataType TB,
                                   int Ldb, const void *Beta, void *C, cudaDataType TC, int Ldc,
                                   cublasComputeType_t CT, cublasGemmAlgo_t) {
  double Al = CT == CUBLAS_COMPUTE_32I ? *static_cast<const int *>(Alpha)
                                       : *static_cast<const float *>(Alpha);
  double Be = CT == CUBLAS_COMPUTE_32I ? *static_cast<const int *>(Beta)
                                       : *static_cast<const float *>(Beta);
  rl::shim::gemm(Ta, Tb, M, N, K, Al, TA, A, Lda, TB, Bm, Ldb, Be, TC, C, Ldc);
  return CUBLAS_STATUS_SUCCESS;
}
inline cublasStatus_t cublasSgemv(cublasHandle_t, cublasOperation_t T, int M, int N,
                                  const float *Alpha, const float *A, int Lda, const float *X,
                                  int Incx, const float *Beta, float *Y, int Incy) {
  int Rows = T == CUBLAS_OP_N ? M : N, Cols = T == CUBLAS_OP_N ? N : M;
  for (int I = 0; I < Rows; ++I) {
    double S = 0;
    for (int J = 0; J < Cols; ++J)
      S += double(T == CUBLAS_OP_N ? A[size_t(I) + size_t(J) * Lda]
                                   : A[size_t(J) + size_t(I) * Lda]) *
           X[size_t(J) * Incx];
    float &O = Y[size_t(I) * Incy];
    O = float(*Alpha * S + (*Beta != 0 ? *Beta * O : 0));
  }
  return CUBLAS_STATUS_SUCCESS;
}
#endif // RL_SHIM_CUBLAS

#endif // ROOFLINE_CUDA_SHIM_H
