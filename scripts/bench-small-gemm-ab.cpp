// A/B bench of the seed's 64^3 gemm (scripts/bench-small-gemm-ab.sh): two
// builds of the emitted `tiled` (tiled_a: a git revision's gemm runtime,
// tiled_b: the working tree's) and OpenBLAS on its native core, in one
// process, interleaved in rounds (the order rotating), a round's time the
// median of its calls, ratios per round against OpenBLAS of the same round.
//   bench ROUNDS CALLS BUFFERS [letters: a b o]
#include <algorithm>
#include <chrono>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <cmath>
#include <random>
#include <string>
#include <vector>
#include <cblas.h>
extern "C" char *openblas_get_corename(void);
typedef void (*fn_t)(void *const *, const int64_t *);
extern "C" {
void tiled_a(void *const *, const int64_t *);
void tiled_b(void *const *, const int64_t *);
}
static void blas(void *const *a, const int64_t *) {
  cblas_sgemm(CblasRowMajor, CblasNoTrans, CblasNoTrans, 64, 64, 64, 1.0f,
              (const float *)a[1], 64, (const float *)a[2], 64, 0.0f, (float *)a[0], 64);
}
int main(int argc, char **argv) {
  int rounds = argc > 1 ? atoi(argv[1]) : 15, calls = argc > 2 ? atoi(argv[2]) : 3000,
      nbuf = argc > 3 ? atoi(argv[3]) : 1;
  std::string which = argc > 4 ? argv[4] : "abo";
  std::printf("openblas core: %s; rounds %d, calls %d, buffers %d\n", openblas_get_corename(), rounds, calls, nbuf);
  std::mt19937 rng(1);
  std::uniform_real_distribution<float> U(-1, 1);
  std::vector<std::vector<float>> bufs(nbuf * 3, std::vector<float>(4096));
  for (auto &b : bufs) for (auto &x : b) x = U(rng);
  std::vector<std::vector<void *>> sets(nbuf);
  for (int i = 0; i < nbuf; ++i) sets[i] = {bufs[3 * i].data(), bufs[3 * i + 1].data(), bufs[3 * i + 2].data()};
  int64_t sizes[3] = {64, 64, 64};
  std::vector<std::pair<std::string, fn_t>> F;
  for (char c : which) {
    if (c == 'a') F.push_back({"base", tiled_a});
    if (c == 'b') F.push_back({"new", tiled_b});
    if (c == 'o') F.push_back({"openblas", blas});
  }
  // correctness vs blas
  {
    std::vector<float> ref(4096);
    void *r[3] = {ref.data(), sets[0][1], sets[0][2]};
    blas(r, sizes);
    for (auto &f : F) { f.second(sets[0].data(), sizes);
      double e = 0; for (int i = 0; i < 4096; ++i) e = std::max(e, (double)std::fabs(((float*)sets[0][0])[i] - ref[i]));
      std::printf("%s max abs diff vs openblas %.3g\n", f.first.c_str(), e); }
  }
  size_t n = F.size();
  std::vector<std::vector<double>> med(n);
  std::vector<double> t(calls);
  for (int r = 0; r < rounds; ++r)
    for (size_t k = 0; k < n; ++k) {
      size_t v = (k + r) % n;
      F[v].second(sets[0].data(), sizes);
      for (int c = 0; c < calls; ++c) {
        auto &s = sets[c % nbuf];
        auto t0 = std::chrono::steady_clock::now();
        F[v].second(s.data(), sizes);
        auto t1 = std::chrono::steady_clock::now();
        t[c] = std::chrono::duration<double>(t1 - t0).count();
      }
      std::sort(t.begin(), t.end());
      med[v].push_back(t[calls / 2]);
    }
  auto median = [](std::vector<double> x) { std::sort(x.begin(), x.end()); size_t h = x.size() / 2; return x.size() % 2 ? x[h] : 0.5 * (x[h - 1] + x[h]); };
  size_t ob = n - 1;
  for (size_t v = 0; v < n; ++v) {
    std::vector<double> rat;
    for (int r = 0; r < rounds; ++r) rat.push_back(med[ob][r] / med[v][r]);
    auto mm = std::minmax_element(med[v].begin(), med[v].end());
    auto rr = std::minmax_element(rat.begin(), rat.end());
    std::printf("%-9s median %.3f us [%.3f .. %.3f]  %.1f GFLOP/s  vs openblas %.3f [%.3f .. %.3f]\n", F[v].first.c_str(),
                median(med[v]) * 1e6, *mm.first * 1e6, *mm.second * 1e6, 524288 / median(med[v]) / 1e9, median(rat), *rr.first, *rr.second);
  }
}
