// A driver whose variant brings its own timer (as a CUDA variant's device
// timer does): `driver time` must report the timer's runs, not its own
// clock, with "clock": "device" and the copies the timer used.
#include "roofline_harness.h"

namespace {
int Calls = 0;
void copy(void *const *A, const int64_t *S) {
  for (int64_t I = 0; I < S[0]; ++I)
    static_cast<float *>(A[0])[I] = static_cast<const float *>(A[1])[I];
  ++Calls;
}
int fakeTimer(void *const *const *Sets, int NSets, const int64_t *S, int Reps,
              double MinTime, double *Times, int Cap, int *Copies) {
  (void)MinTime;
  int N = Reps < Cap ? Reps : Cap;
  for (int I = 0; I < N; ++I) {
    copy(Sets[I % NSets], S);
    Times[I] = 1e-3 * (I + 1); // 1, 2, ... ms: the median is known
  }
  *Copies = 3 * NSets;
  return N;
}
std::vector<int64_t> shape(const int64_t *S) { return {S[0]}; }
} // namespace

int main(int argc, char **argv) {
  rl::harness::unit_desc U;
  U.name = "copy";
  U.sizes.push_back({"N", 16, false});
  U.args.push_back({"y", rl::harness::f32, rl::harness::out, false, shape});
  U.args.push_back({"x", rl::harness::f32, rl::harness::in, false, shape});
  rl::harness::variant_desc V;
  V.name = "timed";
  V.fn = copy;
  V.prepare = nullptr;
  V.tol = {0, 0, 0};
  V.timer = fakeTimer;
  U.variants.push_back(V);
  V.name = "plain";
  V.timer = nullptr;
  U.variants.push_back(V);
  U.reference = [](void *const *A, const int64_t *S) {
    for (int64_t I = 0; I < S[0]; ++I)
      static_cast<double *>(A[0])[I] = static_cast<const double *>(A[1])[I];
  };
  U.magnitude = nullptr;
  int R = rl::harness::run(U, argc, argv);
  std::fprintf(stderr, "calls: %d\n", Calls);
  return R;
}
