// Held-out audit driver for euske/nn1 bnn.c (scripts/heldout-audit). Our
// code: it #includes the published file unchanged (its main() renamed away).
// Three layers of 4 nodes built with Layer_create: every layer and its
// predecessor have the same sizes, so one value per struct field holds for
// every call. Each function is called directly.
#include "../nn1.h"
#define main heldout_published_main
#include "bnn.c"
#undef main

namespace {
void registerLayer(Layer *L, const char *Prefix) {
  heldout::regLayer(Prefix, {{"outputs", L->outputs, L->nnodes},
                             {"gradients", L->gradients, L->nnodes},
                             {"errors", L->errors, L->nnodes},
                             {"biases", L->biases, L->nbiases},
                             {"u_biases", L->u_biases, L->nbiases},
                             {"weights", L->weights, L->nweights},
                             {"u_weights", L->u_weights, L->nweights}});
}
} // namespace

int main() {
  const int Nodes = 4;
  srand(1);
  Layer *In = Layer_create(NULL, Nodes);
  Layer *Hid = Layer_create(In, Nodes);
  Layer *Out = Layer_create(Hid, Nodes);
  registerLayer(In, "in");
  registerLayer(Hid, "hid");
  registerLayer(Out, "out");
  for (const char *Field : {"self->nnodes", "lprev->nnodes", "self->nbiases"})
    ORACLE_PARAM(Field, Nodes);
  ORACLE_PARAM("self->nweights", Nodes * Nodes);
  oracle::Array<float> Values("values@8", Nodes), Want("values@8", Nodes),
      Outputs("outputs@8", Nodes);

  ORACLE_CALL(Layer_setInputs(In, Values)); // the forward pass
  ORACLE_CALL(Layer_feedForw(Hid));
  ORACLE_CALL(Layer_getOutputs(Out, Outputs));
  ORACLE_CALL(Layer_learnOutputs(Out, Want)); // the backward pass
  ORACLE_CALL(Layer_getErrorTotal(Out));
  ORACLE_CALL(Layer_feedBack(Hid));
  // Layer_update recurses into lprev outside its loops: called on the last
  // layer cut from its predecessor, it updates that layer alone.
  Layer Last = *Out;
  Last.lprev = NULL;
  ORACLE_CALL(Layer_update(&Last, 0.1));
}
