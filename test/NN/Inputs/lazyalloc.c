// llm.c's AdamW step as train_gpt2.c writes it: the moments are float*
// fields of the model, allocated (calloc) by the first call, before the loop.
// A field only ever assigned a fresh allocation is its own array (the old
// one or a new one, distinct from the others); any other assignment is
// refused. Part of the test/NN corpus (docs/testing-nn-corpus.md).
#include <math.h>
#include <stdlib.h>

typedef struct {
  float *params_memory;
  float *grads_memory;
  float *m_memory;
  float *v_memory;
  size_t num_parameters;
} GPT2;

void gpt2_update(GPT2 *model, float learning_rate, float beta1, float beta2,
                 float eps, float weight_decay, int t) {
  // lazily allocate the memory for m_memory and v_memory
  if (model->m_memory == NULL) {
    model->m_memory = (float *)calloc(model->num_parameters, sizeof(float));
    model->v_memory = (float *)calloc(model->num_parameters, sizeof(float));
  }
  for (size_t i = 0; i < model->num_parameters; i++) {
    float param = model->params_memory[i];
    float grad = model->grads_memory[i];
    // update the first moment (momentum)
    float m = beta1 * model->m_memory[i] + (1.0f - beta1) * grad;
    // update the second moment (RMSprop)
    float v = beta2 * model->v_memory[i] + (1.0f - beta2) * grad * grad;
    // bias-correct both moments
    float m_hat = m / (1.0f - powf(beta1, t));
    float v_hat = v / (1.0f - powf(beta2, t));
    model->m_memory[i] = m;
    model->v_memory[i] = v;
    model->params_memory[i] -=
        learning_rate * (m_hat / (sqrtf(v_hat) + eps) + weight_decay * param);
  }
}

// --- Refused: the moment may be another array ---

// Shared with the gradients when there is no memory to spare.
void sgd_momentum(GPT2 *model, float lr, float mu, int spare) {
  if (spare)
    model->m_memory = (float *)malloc(model->num_parameters * sizeof(float));
  else
    model->m_memory = model->grads_memory;
  for (size_t i = 0; i < model->num_parameters; i++) {
    model->m_memory[i] = mu * model->m_memory[i] + model->grads_memory[i];
    model->params_memory[i] -= lr * model->m_memory[i];
  }
}

// realloc may return the block it was given.
void grow_moments(GPT2 *model, size_t n) {
  if (n > model->num_parameters)
    model->v_memory = (float *)realloc(model->v_memory, n * sizeof(float));
  for (size_t i = 0; i < n; i++)
    model->v_memory[i] = 0.0f;
}
