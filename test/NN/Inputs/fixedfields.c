// A forward pass written the way llm.c's gpt2_forward is: the activations
// struct inside the model is pointed into one fresh buffer on the first
// call, by a helper given its address (`malloc_and_point_activations(
// &model->acts, ...)`), then the nests read and write `model->acts.X[...]`.
// test/NN/fixedfields.test.
#include <stddef.h>
#include <stdlib.h>

typedef struct {
  float *logits;
  float *losses;
} Acts;
typedef struct {
  Acts acts;
  float *acts_memory;
  float mean_loss;
} Model;

static float *malloc_and_point(Acts *acts, int BT, int V) {
  float *memory = (float *)calloc(BT * V + BT, sizeof(float));
  acts->logits = memory;
  acts->losses = memory + BT * V;
  return memory;
}

void model_forward(Model *model, int B, int T, int V) {
  if (model->acts_memory == NULL)
    model->acts_memory = malloc_and_point(&model->acts, B * T, V);
  for (int bt = 0; bt < B * T; bt++) {
    float m = 0.0f;
    for (int v = 0; v < V; v++)
      m += model->acts.logits[bt * V + v];
    model->acts.losses[bt] = m / V;
  }
  // the mean loss, as gpt2_forward computes it
  float mean_loss = 0.0f;
  for (int i = 0; i < B * T; i++) {
    mean_loss += model->acts.losses[i];
  }
  mean_loss /= B * T;
  model->mean_loss = mean_loss;
}

// The activations are re-pointed after the nest: the next call's nest
// would see other arrays. Refused.
void model_repoint(Model *model, int B, int T, int V) {
  for (int i = 0; i < B * T; i++)
    model->acts.losses[i] = 0.0f;
  model->acts_memory = malloc_and_point(&model->acts, B * T, V);
}
