// Shapes bench of the f32 small gemm path (scripts/bench-small-gemm-shapes.sh):
// a generic row-major gemm variant (sizes at run time) built against two
// versions of kernels/runtime/roofline_gemm.h (a: base, b: new) and OpenBLAS
// on its native core, in one process, interleaved in rounds (the order
// rotating), a round's time the median of its calls, ratios per round
// against OpenBLAS. BUFFERS operand sets (C, A, B each, allocated back to
// back like the harness's) are rotated: 1 keeps them in L1, 256 at 64^3 is
// roofline-run's rotation (12 MB), 2048 reaches DRAM. ROT (env, a subset of
// "CAB") rotates only those operands.
//   bench ROUNDS CALLS BUFFERS OFFSET LETTERS [M N K]
// OFFSET: byte offset mod 64 of every operand (-1: as malloc places them).
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
typedef void (*fn_t)(void *const *, const int64_t *);
extern "C" {
void tiled_a(void *const *, const int64_t *) __attribute__((weak));
void tiled_b(void *const *, const int64_t *) __attribute__((weak));
void tiled_c(void *const *, const int64_t *) __attribute__((weak));
void tiled_d(void *const *, const int64_t *) __attribute__((weak));
}
static int64_t gM = 64, gN = 64, gK = 64;
static void blas(void *const *a, const int64_t *) {
  cblas_sgemm(CblasRowMajor, CblasNoTrans, CblasNoTrans, gM, gN, gK, 1.0f,
              (const float *)a[1], gK, (const float *)a[2], gN, 0.0f, (float *)a[0], gN);
}
int main(int argc, char **argv) {
  int rounds = atoi(argv[1]), calls = atoi(argv[2]), nbuf = atoi(argv[3]), off = atoi(argv[4]);
  std::string which = argv[5];
  if (argc > 8) { gM = atoll(argv[6]); gN = atoll(argv[7]); gK = atoll(argv[8]); }
  struct V { char l; const char *n; fn_t f; };
  V All[] = {{'a', "a", tiled_a}, {'b', "b", tiled_b}, {'c', "c", tiled_c}, {'d', "d", tiled_d}, {'o', "openblas", blas}};
  std::vector<V> F;
  for (char c : which) for (auto &v : All) if (v.l == c) { if (!v.f) { fprintf(stderr, "no %c\n", c); return 2; } F.push_back(v); }
  size_t sz[3] = {size_t(gM * gN), size_t(gM * gK), size_t(gK * gN)};
  std::vector<std::vector<unsigned char>> store;
  std::vector<std::vector<void *>> sets(nbuf);
  std::mt19937 rng(1);
  std::uniform_real_distribution<float> U(-1, 1);
  for (int i = 0; i < nbuf; ++i)
    for (int s = 0; s < 3; ++s) {
      store.emplace_back(sz[s] * 4 + 128);
      unsigned char *p = store.back().data();
      if (off >= 0) { p = (unsigned char *)(((uintptr_t)p + 63) / 64 * 64 + off); }
      float *f = (float *)p;
      for (size_t e = 0; e < sz[s]; ++e) f[e] = U(rng);
      sets[i].push_back(p);
    }
  int64_t sizes[3] = {gK, gM, gN};
  {
    std::vector<float> ref(sz[0]);
    void *r[3] = {ref.data(), sets[0][1], sets[0][2]};
    blas(r, sizes);
    for (auto &f : F) {
      f.f(sets[0].data(), sizes);
      double e = 0;
      for (size_t i = 0; i < sz[0]; ++i) e = std::max(e, (double)std::fabs(((float *)sets[0][0])[i] - ref[i]));
      if (e > 1e-3) { printf("%s WRONG max abs diff %.3g\n", f.n, e); return 1; }
    }
  }
  size_t n = F.size();
  const char *R = getenv("ROT"); bool rot[3] = {true, true, true};
  if (R) { rot[0] = strchr(R, 'C'); rot[1] = strchr(R, 'A'); rot[2] = strchr(R, 'B'); }
  std::vector<std::vector<double>> med(n);
  std::vector<double> t(calls);
  for (int r = 0; r < rounds; ++r)
    for (size_t k = 0; k < n; ++k) {
      size_t v = (k + r) % n;
      for (int c = 0; c < nbuf; ++c) F[v].f(sets[c].data(), sizes);
      F[v].f(sets[0].data(), sizes);
      for (int c = 0; c < calls; ++c) {
        auto s = sets[c % nbuf];
        for (int q = 0; q < 3; ++q) if (!rot[q]) s[q] = sets[0][q];
        auto t0 = std::chrono::steady_clock::now();
        F[v].f(s.data(), sizes);
        auto t1 = std::chrono::steady_clock::now();
        t[c] = std::chrono::duration<double>(t1 - t0).count();
      }
      std::sort(t.begin(), t.end());
      med[v].push_back(t[calls / 2]);
    }
  auto median = [](std::vector<double> x) { std::sort(x.begin(), x.end()); size_t h = x.size() / 2; return x.size() % 2 ? x[h] : 0.5 * (x[h - 1] + x[h]); };
  size_t ob = n;
  for (size_t v = 0; v < n; ++v) if (F[v].l == 'o') ob = v;
  double fl = 2.0 * gM * gN * gK;
  printf("buffers %d offset %d  ", nbuf, off);
  for (size_t v = 0; v < n; ++v) {
    auto mm = std::minmax_element(med[v].begin(), med[v].end());
    printf("| %s %.3f us [%.3f..%.3f] %.0fGF", F[v].n, median(med[v]) * 1e6, *mm.first * 1e6, *mm.second * 1e6, fl / median(med[v]) / 1e9);
    if (ob < n && v != ob) {
      std::vector<double> rat;
      for (int r = 0; r < rounds; ++r) rat.push_back(med[ob][r] / med[v][r]);
      auto rr = std::minmax_element(rat.begin(), rat.end());
      printf(" vsOB %.3f [%.3f..%.3f]", median(rat), *rr.first, *rr.second);
    }
    printf(" ");
  }
  printf("\n");
}
