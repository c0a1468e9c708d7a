// The AdamW optimizer step over a flat parameter vector: moments, bias
// corrections computed once before the loop, and a weight decay switched by
// a flag (a loop-invariant condition: one count per case).
// Part of the test/NN corpus (see docs/testing-nn-corpus.md).
#include <math.h>

void adamw_update(float *params, const float *grads, float *m_memory,
                  float *v_memory, long num_parameters, float learning_rate,
                  float beta1, float beta2, float eps, float weight_decay,
                  int decay, int t) {
  float beta1_correction = 1.0f - powf(beta1, t);
  float beta2_correction = 1.0f - powf(beta2, t);
#pragma omp parallel for
  for (long i = 0; i < num_parameters; i++) {
    float param = params[i];
    float grad = grads[i];
    float m = beta1 * m_memory[i] + (1.0f - beta1) * grad;
    float v = beta2 * v_memory[i] + (1.0f - beta2) * grad * grad;
    float m_hat = m / beta1_correction;
    float v_hat = v / beta2_correction;
    m_memory[i] = m;
    v_memory[i] = v;
    float update = m_hat / (sqrtf(v_hat) + eps);
    if (decay) {
      update += weight_decay * param;
    }
    params[i] -= learning_rate * update;
  }
}
