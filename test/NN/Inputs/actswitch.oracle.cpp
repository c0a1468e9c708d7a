// Oracle driver for actswitch.c (scripts/nn-oracle.py runs it): each nest
// runs once per case the tool reports, spelled as the tool spells it.
#include "actswitch.c"

int main() {
  const int N = 17;
  ORACLE_PARAM("n", N);
  oracle::Array<float> x("x", N, -3.0, 3.0), y("y", N, -1.0, 1.0),
      delta("delta", N, -1.0, 1.0), in("in", N, -2.0, 2.0), out("out", N);
  const char *Forward[] = {"k == K_IDENTITY", "k == K_SIGMOID", "k == K_RELU",
                           "k == K_LEAKY", "k == K_SOFTSIGN"};
  for (int K = 0; K < 5; ++K)
    ORACLE_CASE(Forward[K], act_forward(x, N, (kind_t)K));
  ORACLE_CASE("k: no case label", act_forward(x, N, (kind_t)7));
  const char *Backward[] = {"k: default", "k == K_SIGMOID", "k == K_RELU",
                            "k == K_LEAKY", "k: default"};
  for (int K = 0; K < 5; ++K)
    ORACLE_CASE(Backward[K], act_backward(y, N, (kind_t)K, delta));
  ORACLE_CASE("mode == 0", scale_mode(out, in, 1.5f, N, 0));
  ORACLE_CASE("mode == 1", scale_mode(out, in, 1.5f, N, 1));
  ORACLE_CASE("mode == 2", scale_mode(out, in, 1.5f, N, 2));
  ORACLE_CASE("mode: default", scale_mode(out, in, 1.5f, N, 5));
}
