// Runtime of the test/NN brute-force oracle (see oracle.h and
// docs/testing-nn-corpus.md). Compiled without coverage instrumentation and
// with frame pointers; linked with a driver that includes oracle.h and the
// kernel file, compiled with -fsanitize-coverage=func,trace-loads,trace-stores.
//
// While the driver's ORACLE_CALL runs a kernel, every load and store inside a
// registered array and every FLOP is recorded with its call chain: the
// program counters of the frames from the called function (the frame below
// the driver's) down to the access, outermost first. scripts/nn-oracle.py
// attributes each to the outermost of those lines that lies in a loop nest
// (a helper the kernel calls inside a nest counts in the kernel's nest; a
// helper called outside any nest counts in its own nests). Printed on
// stdout, one record a line:
//   param NAME VALUE
//   array ID ELEMENT_BYTES COUNT NAME
//   call ID FUNCTION_TEXT|CASE           (CASE "-" when none)
//   R|W CALL ARRAY INDEX CHAIN           (first load/store of that element
//                                         with that chain in that call, in
//                                         order)
//   F CALL CHAIN COUNT                   (FLOPs with that chain in that call)
//   end CALL
// With ORACLE_STACK_ARRAYS=FILE in the environment (nn-oracle.py
// --stack-arrays), a load or store at a stack address of the called
// function's frames that lies in one of FILE's ranges is printed too: the
// arrays the debug information declares on the frames of the kernel's
// functions (an array on the stack of the published function, which no
// driver can register), one a line, "LOW HIGH FROM TO": a function's pc
// range [LOW, HIGH) in hex and the array's bytes [FROM, TO) relative to its
// frame pointer. nn-oracle.py maps each record back onto its array:
//   SR|SW CALL DEPTH PC OFFSET INNER_PC INNER_OFFSET BYTES CHAIN
// (first load/store of that address with that chain in that call). PC is a
// return address into the function owning the frame the address lies in,
// DEPTH that frame's place in CHAIN (0: the called function; -1: the
// driver's), OFFSET the address less that frame's frame pointer (negative:
// a local); INNER_PC and INNER_OFFSET the same for the frame below it, at
// DEPTH + 1 (0 0 if none; positive: an argument passed in memory).
// A CHAIN is program counters as offsets into the executable (for
// llvm-symbolizer), in hex, joined by ','.
#include <dlfcn.h>

#include <cinttypes>
#include <cstddef>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <map>
#include <set>
#include <string>
#include <tuple>
#include <vector>

namespace {
struct Registered {
  std::string Name;
  uintptr_t Begin, End;
  size_t Element, Guard;
  int Id;
};
std::vector<Registered> Arrays;
int NextArrayId = 0;
bool Active = false;
int CallId = -1;
void *DriverFrame = nullptr;
std::set<std::tuple<int, size_t, std::string, char>> Seen;
std::set<std::tuple<uintptr_t, std::string, char>> SeenOnStack;
struct StackRange {
  uintptr_t Low, High;
  long From, To;
};
int TrackStack = -1; // ORACLE_STACK_ARRAYS, read at the first access
std::vector<StackRange> StackRanges;
std::map<std::string, long long> FlopsAt;

[[noreturn]] void die(const char *What) {
  fprintf(stderr, "nn-oracle runtime: %s\n", What);
  fflush(stdout);
  abort();
}

uintptr_t relative(void *Pc) {
  Dl_info Info;
  if (!dladdr(Pc, &Info) || !Info.dli_fbase)
    die("cannot find the module of a program counter");
  return reinterpret_cast<uintptr_t>(Pc) -
         reinterpret_cast<uintptr_t>(Info.dli_fbase);
}

/// The call chain from the kernel function the driver called down to the
/// caller of the runtime: walk the frame-pointer chain up to the frame whose
/// caller is the driver's.
__attribute__((noinline)) std::string kernelChain() {
  uintptr_t Pcs[512];
  int N = 0;
  void **Frame = static_cast<void **>(__builtin_frame_address(0));
  while (N < 512 && Frame) {
    void **Caller = static_cast<void **>(Frame[0]);
    if (!Caller)
      break;
    Pcs[N++] = relative(Frame[1]);
    if (Caller[0] == DriverFrame) {
      std::string Chain;
      char Buffer[32];
      for (int I = N - 1; I >= 0; --I) {
        snprintf(Buffer, sizeof Buffer, "%s%" PRIxPTR, I == N - 1 ? "" : ",",
                 Pcs[I]);
        Chain += Buffer;
      }
      return Chain;
    }
    Frame = Caller;
  }
  die("no frame of the called kernel on the stack (is the kernel called "
      "directly by the driver, and everything built with frame pointers?)");
}

void readStackRanges() {
  const char *Path = getenv("ORACLE_STACK_ARRAYS");
  TrackStack = Path && *Path;
  if (!TrackStack)
    return;
  FILE *F = fopen(Path, "r");
  if (!F)
    die("cannot read the file ORACLE_STACK_ARRAYS names");
  StackRange R;
  while (fscanf(F, "%" SCNxPTR " %" SCNxPTR " %ld %ld", &R.Low, &R.High, &R.From,
                &R.To) == 4)
    StackRanges.push_back(R);
  fclose(F);
}

/// A load or store at a stack address of the called function's frames:
/// printed with the frame it lies in (see the header comment).
__attribute__((noinline)) void stackAccess(uintptr_t Address, size_t Bytes,
                                           char Kind) {
  // Frames[I]: a frame pointer; Pcs[I]: a return address into its function.
  // The walk ends at the driver's frame: Frames[N - 2] is the called
  // function's (depth 0), Frames[I] at depth N - 2 - I.
  uintptr_t Frames[512], Pcs[512];
  int N = 0;
  void **Frame = static_cast<void **>(__builtin_frame_address(0));
  if (Address < reinterpret_cast<uintptr_t>(Frame))
    return; // not on the stack above the runtime's frame: heap, globals
  while (N < 512 && Frame) {
    void **Caller = static_cast<void **>(Frame[0]);
    if (!Caller)
      return;
    Frames[N] = reinterpret_cast<uintptr_t>(Caller);
    Pcs[N++] = reinterpret_cast<uintptr_t>(Frame[1]);
    if (Caller == DriverFrame)
      break;
    Frame = Caller;
  }
  if (N < 2 || Frames[N - 1] != reinterpret_cast<uintptr_t>(DriverFrame))
    return;
  int J = 0;
  while (J < N && Address >= Frames[J])
    ++J;
  if (J == N)
    return; // above the driver's frame pointer
  // The kernel is linked into the executable: one base for its pcs.
  static uintptr_t Base = relative(reinterpret_cast<void *>(Pcs[0])) - Pcs[0];
  auto InRange = [](uintptr_t Pc, std::ptrdiff_t Offset) {
    uintptr_t Rel = Pc + Base - 1;
    for (const StackRange &R : StackRanges)
      if (R.Low <= Rel && Rel < R.High && R.From <= Offset && Offset < R.To)
        return true;
    return false;
  };
  std::ptrdiff_t Offset = Address - Frames[J];
  if (!InRange(Pcs[J], Offset) &&
      !(J && InRange(Pcs[J - 1], Address - Frames[J - 1])))
    return; // a scalar, a temporary, a frame of the driver or of oracle.h
  // Frames[J] holds the address (a local at a negative offset), or the
  // frame below it does (an argument in memory, at a positive offset).
  std::string Chain = kernelChain();
  if (!SeenOnStack.insert({Address, Chain, Kind}).second)
    return;
  printf("S%c %d %d %" PRIxPTR " %td %" PRIxPTR " %td %zu %s\n", Kind, CallId,
         N - 2 - J, relative(reinterpret_cast<void *>(Pcs[J])),
         (std::ptrdiff_t)(Address - Frames[J]),
         J ? relative(reinterpret_cast<void *>(Pcs[J - 1])) : 0,
         J ? (std::ptrdiff_t)(Address - Frames[J - 1]) : 0, Bytes,
         Chain.c_str());
}

void access(uintptr_t Address, size_t Bytes, char Kind) {
  if (!Active)
    return;
  for (const Registered &A : Arrays) {
    if (Address + A.Guard < A.Begin || Address >= A.End + A.Guard)
      continue;
    if (Address < A.Begin || Address >= A.End) {
      fprintf(stderr, "nn-oracle runtime: an access outside array '%s' "
              "(%td bytes from its start): the driver's array is too small\n",
              A.Name.c_str(), (std::ptrdiff_t)(Address - A.Begin));
      die("out of bounds");
    }
    if (Bytes != A.Element || (Address - A.Begin) % A.Element)
      die("an access that is not one whole element of a registered array");
    size_t Index = (Address - A.Begin) / A.Element;
    std::string Chain = kernelChain();
    if (Seen.insert({A.Id, Index, Chain, Kind}).second)
      printf("%c %d %d %zu %s\n", Kind, CallId, A.Id, Index, Chain.c_str());
    return;
  }
  if (TrackStack < 0)
    readStackRanges();
  // The runtime's own std::string and std::set code may be the driver's
  // instrumented copy of the template (one copy is linked): its stack
  // accesses come back here, and are not the kernel's.
  static bool InRuntime = false;
  if (TrackStack && !InRuntime) {
    InRuntime = true;
    stackAccess(Address, Bytes, Kind);
    InRuntime = false;
  }
}
} // namespace

extern "C" {
void oracle_flops(int N) {
  if (Active)
    FlopsAt[kernelChain()] += N;
}

void oracle_register(const char *Name, const void *Begin, size_t Count,
                     size_t ElementBytes, size_t GuardBytes) {
  uintptr_t B = reinterpret_cast<uintptr_t>(Begin);
  Arrays.push_back({Name, B, B + Count * ElementBytes, ElementBytes,
                    GuardBytes, NextArrayId});
  printf("array %d %zu %zu %s\n", NextArrayId++, ElementBytes, Count, Name);
}

void oracle_unregister(const void *Begin) {
  for (size_t I = 0; I < Arrays.size(); ++I)
    if (Arrays[I].Begin == reinterpret_cast<uintptr_t>(Begin)) {
      Arrays.erase(Arrays.begin() + I);
      return;
    }
}

void oracle_param(const char *Name, long Value) {
  printf("param %s %ld\n", Name, Value);
}

void oracle_call_begin(const char *Function, const char *Case, void *Frame) {
  if (Active)
    die("nested ORACLE_CALL");
  ++CallId;
  printf("call %d %s|%s\n", CallId, Function, Case ? Case : "-");
  DriverFrame = Frame;
  Seen.clear();
  SeenOnStack.clear();
  FlopsAt.clear();
  Active = true;
}

namespace {
/// Prints the FLOPs recorded since the last boundary and forgets which
/// accesses were seen: the events that follow belong to another execution.
void endSegment() {
  for (const auto &[Chain, N] : FlopsAt)
    printf("F %d %s %lld\n", CallId, Chain.c_str(), N);
  FlopsAt.clear();
  Seen.clear();
  SeenOnStack.clear();
}
} // namespace

void oracle_call_end(void) {
  Active = false;
  endSegment();
  printf("end %d\n", CallId);
  fflush(stdout);
}

// Function entries and exits inside a recorded call, for the whole-pass
// oracle (scripts/program-oracle.py puts an OracleScope at the top of every
// function body): each event between them belongs to the innermost one.
void oracle_enter(const char *Function) {
  if (!Active)
    return;
  endSegment();
  printf("enter %d %s\n", CallId, Function);
}

void oracle_exit(void) {
  if (!Active)
    return;
  endSegment();
  printf("exit %d\n", CallId);
}

#define ORACLE_TRACE(BYTES, TYPE)                                              \
  void __sanitizer_cov_load##BYTES(TYPE *Address) {                            \
    access(reinterpret_cast<uintptr_t>(Address), BYTES, 'R');                  \
  }                                                                            \
  void __sanitizer_cov_store##BYTES(TYPE *Address) {                           \
    access(reinterpret_cast<uintptr_t>(Address), BYTES, 'W');                  \
  }
ORACLE_TRACE(1, uint8_t)
ORACLE_TRACE(2, uint16_t)
ORACLE_TRACE(4, uint32_t)
ORACLE_TRACE(8, uint64_t)
ORACLE_TRACE(16, __int128)
#undef ORACLE_TRACE
}
