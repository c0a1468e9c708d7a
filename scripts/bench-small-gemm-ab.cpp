// A/B bench of the seed's 64^3 gemm (scripts/bench-small-gemm-ab.sh): two
// builds of each emitted variant (base: a git revision's gemm runtime, new:
// the working tree's) and OpenBLAS on its native core, in one process,
// interleaved in rounds (the order rotating), a round's time the median of
// its calls, ratios per round against OpenBLAS and the new `tiled` of the
// same round.
//   bench ROUNDS CALLS BUFFERS [letters: a b (tiled base, new) c d (bf16)
//                               e f (int8) o (OpenBLAS)]
#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <random>
#include <string>
#include <vector>
#include <cblas.h>
extern "C" char *openblas_get_corename(void);
typedef void (*fn_t)(void *const *, const int64_t *);
// The variants the script built (weak: a letter whose variant is absent
// is refused).
extern "C" {
#define RL_BENCH_DECL(X) void X(void *const *, const int64_t *) __attribute__((weak));
RL_BENCH_DECL(tiled_a) RL_BENCH_DECL(tiled_b) RL_BENCH_DECL(bf16_a) RL_BENCH_DECL(bf16_b)
RL_BENCH_DECL(int8_a) RL_BENCH_DECL(int8_b) RL_BENCH_DECL(bf16_prepare_a)
RL_BENCH_DECL(bf16_prepare_b) RL_BENCH_DECL(int8_prepare_a) RL_BENCH_DECL(int8_prepare_b)
}
static void blas(void *const *a, const int64_t *) {
  cblas_sgemm(CblasRowMajor, CblasNoTrans, CblasNoTrans, 64, 64, 64, 1.0f,
              (const float *)a[1], 64, (const float *)a[2], 64, 0.0f, (float *)a[0], 64);
}
struct variant {
  char letter;
  std::string name;
  fn_t fn, prepare;
};
int main(int argc, char **argv) {
  int rounds = argc > 1 ? atoi(argv[1]) : 15, calls = argc > 2 ? atoi(argv[2]) : 3000,
      nbuf = argc > 3 ? atoi(argv[3]) : 1;
  std::string which = argc > 4 ? argv[4] : "abo";
  std::printf("openblas core: %s; rounds %d, calls %d, buffers %d\n", openblas_get_corename(), rounds, calls, nbuf);
  const variant All[] = {{'a', "tiled/base", tiled_a, nullptr}, {'b', "tiled/new", tiled_b, nullptr},
                         {'c', "bf16/base", bf16_a, bf16_prepare_a}, {'d', "bf16/new", bf16_b, bf16_prepare_b},
                         {'e', "int8/base", int8_a, int8_prepare_a}, {'f', "int8/new", int8_b, int8_prepare_b},
                         {'o', "openblas", blas, nullptr}};
  std::vector<variant> F;
  for (char c : which)
    for (const variant &V : All)
      if (V.letter == c) {
        if (!V.fn) {
          std::fprintf(stderr, "variant %c was not built\n", c);
          return 2;
        }
        F.push_back(V);
      }
  // Each set: C, A, B and room for every variant's own arrays (the bf16
  // and int8 copies of A, scales), as the emitted drivers index them.
  constexpr int Slots = 8;
  std::mt19937 rng(1);
  std::uniform_real_distribution<float> U(-1, 1);
  std::vector<std::vector<float>> bufs(size_t(nbuf) * Slots, std::vector<float>(4096));
  for (auto &b : bufs) for (auto &x : b) x = U(rng);
  std::vector<std::vector<void *>> sets(nbuf);
  for (int i = 0; i < nbuf; ++i)
    for (int s = 0; s < Slots; ++s) sets[i].push_back(bufs[size_t(i) * Slots + s].data());
  int64_t sizes[3] = {64, 64, 64};
  // Correctness against OpenBLAS (a bf16 or int8 variant is off by its
  // rounding: about 1e-2 of the sums' magnitude, 64 terms of |x| < 1).
  {
    std::vector<float> ref(4096);
    void *r[3] = {ref.data(), sets[0][1], sets[0][2]};
    blas(r, sizes);
    for (auto &f : F) {
      for (auto &s : sets)
        if (f.prepare) f.prepare(s.data(), sizes);
      f.fn(sets[0].data(), sizes);
      double e = 0;
      for (int i = 0; i < 4096; ++i) e = std::max(e, (double)std::fabs(((float *)sets[0][0])[i] - ref[i]));
      std::printf("%-10s max abs diff vs openblas %.3g\n", f.name.c_str(), e);
    }
  }
  size_t n = F.size();
  std::vector<std::vector<double>> med(n);
  std::vector<double> t(calls);
  for (int r = 0; r < rounds; ++r)
    for (size_t k = 0; k < n; ++k) {
      size_t v = (k + r) % n;
      F[v].fn(sets[0].data(), sizes);
      for (int c = 0; c < calls; ++c) {
        auto &s = sets[c % nbuf];
        auto t0 = std::chrono::steady_clock::now();
        F[v].fn(s.data(), sizes);
        auto t1 = std::chrono::steady_clock::now();
        t[c] = std::chrono::duration<double>(t1 - t0).count();
      }
      std::sort(t.begin(), t.end());
      med[v].push_back(t[calls / 2]);
    }
  auto median = [](std::vector<double> x) { std::sort(x.begin(), x.end()); size_t h = x.size() / 2; return x.size() % 2 ? x[h] : 0.5 * (x[h - 1] + x[h]); };
  auto ratios = [&](size_t base, size_t v) {
    std::vector<double> rat;
    for (int r = 0; r < rounds; ++r) rat.push_back(med[base][r] / med[v][r]);
    auto rr = std::minmax_element(rat.begin(), rat.end());
    char s[96];
    std::snprintf(s, sizeof s, "%.3f [%.3f .. %.3f]", median(rat), *rr.first, *rr.second);
    return std::string(s);
  };
  auto find = [&](char c) { for (size_t v = 0; v < n; ++v) if (F[v].letter == c) return v; return n; };
  const size_t ob = find('o'), tb = find('b');
  for (size_t v = 0; v < n; ++v) {
    auto mm = std::minmax_element(med[v].begin(), med[v].end());
    std::printf("%-10s median %.3f us [%.3f .. %.3f]  %.1f GFLOP/s", F[v].name.c_str(),
                median(med[v]) * 1e6, *mm.first * 1e6, *mm.second * 1e6, 524288 / median(med[v]) / 1e9);
    if (ob < n) std::printf("  vs openblas %s", ratios(ob, v).c_str());
    if (tb < n && v != tb) std::printf("  vs tiled/new %s", ratios(tb, v).c_str());
    std::printf("\n");
  }
}
