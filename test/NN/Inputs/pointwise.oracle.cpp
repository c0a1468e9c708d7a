// Oracle driver for pointwise.c (scripts/nn-oracle.py runs it): each
// function has its own length, given to the tool as FUNCTION:N.
#include "pointwise.c"

int main() {
  const int NGelu = 40, NGrad = 36, NRes = 24, NAct = 30, NRows = 4, V = 9;
  ORACLE_PARAM("gelu_forward:N", NGelu);
  ORACLE_PARAM("gelu_backward:N", NGrad);
  ORACLE_PARAM("residual_forward:N", NRes);
  ORACLE_PARAM("relu_forward:N", NAct);
  ORACLE_PARAM("leaky_relu_forward:N", NAct);
  ORACLE_PARAM("clamp_forward:N", NAct);
  ORACLE_PARAM("softmax_online:N", NRows);
  ORACLE_PARAM("V", V);
  oracle::Array<float> gout("out", NGelu), ginp("inp", NGelu, -3.0, 3.0);
  ORACLE_CALL(gelu_forward(gout, ginp, NGelu));
  oracle::Array<float> dinp("dinp", NGrad), binp("inp", NGrad, -3.0, 3.0),
      dout("dout", NGrad);
  ORACLE_CALL(gelu_backward(dinp, binp, dout, NGrad));
  oracle::Array<float> rout("out", NRes), inp1("inp1", NRes),
      inp2("inp2", NRes);
  ORACLE_CALL(residual_forward(rout, inp1, inp2, NRes));
  oracle::Array<float> aout("out", NAct), ainp("inp", NAct);
  ORACLE_CALL(relu_forward(aout, ainp, NAct));
  ORACLE_CALL(leaky_relu_forward(aout, ainp, 0.01f, NAct));
  ORACLE_CALL(clamp_forward(aout, ainp, -0.5f, 0.5f, NAct));
  // logits with new maxima at varying places, so both branches run
  oracle::Array<float> probs("probs", NRows * V),
      logits("logits", NRows * V, -4.0, 4.0);
  ORACLE_CALL(softmax_online(probs, logits, NRows, V));
}
