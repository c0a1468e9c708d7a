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
