// lru-sim.h - A set-associative LRU cache simulator for the lit oracles of
// the cache model (cache-triangle.cpp). Arrays are placed as the model
// assumes them (each on a 4 KiB page, one after another in the order
// registered; docs/cache-model.md, "Geometry"). A miss on any access
// counts: reads and write-allocates, what cachegrind counts and the model's
// fetch_bytes.
#include <cstdint>
#include <cstdio>
#include <vector>
struct Cache {
  uint64_t Sets, Ways, Line;
  std::vector<uint64_t> Tags; // per set, most recent first; 0 = empty
  uint64_t Misses = 0;
  Cache(uint64_t Size, uint64_t Ways, uint64_t Line)
      : Sets(Size / Ways / Line), Ways(Ways), Line(Line), Tags(Sets * Ways) {}
  void access(uint64_t Addr) {
    uint64_t L = Addr / Line, S = L % Sets, Tag = L + 1;
    uint64_t *T = &Tags[S * Ways];
    uint64_t W = 0;
    while (W < Ways && T[W] != Tag)
      ++W;
    if (W == Ways) {
      ++Misses;
      W = Ways - 1;
    }
    for (; W > 0; --W)
      T[W] = T[W - 1];
    T[0] = Tag;
  }
};
struct Layout {
  struct Arr { uintptr_t Lo, Hi; uint64_t Base; };
  std::vector<Arr> Arrays;
  uint64_t Next = 1 << 20;
  void add(const void *P, size_t Bytes) {
    uintptr_t Lo = reinterpret_cast<uintptr_t>(P);
    Arrays.push_back({Lo, Lo + Bytes, Next});
    Next += (Bytes + 4095) / 4096 * 4096;
  }
  uint64_t addr(const void *P) const {
    uintptr_t A = reinterpret_cast<uintptr_t>(P);
    for (const Arr &X : Arrays)
      if (A >= X.Lo && A < X.Hi)
        return X.Base + (A - X.Lo);
    std::fprintf(stderr, "address outside the registered arrays\n");
    return 0;
  }
};
