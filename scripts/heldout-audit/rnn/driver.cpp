// Held-out audit driver for euske/nn1 rnn.c (scripts/heldout-audit). Our
// code: it #includes the published file unchanged (its main() renamed away).
// Three layers of 4 nodes, 3 time steps, built with RNNLayer_create: every
// layer and its predecessor have the same sizes, so one value per struct
// field holds for every call. Each function is called directly.
#include "../nn1.h"
#define main heldout_published_main
#include "rnn.c"
#undef main

namespace {
void registerLayer(RNNLayer *L, const char *Prefix) {
  const int N = L->nnodes * L->ntimes;
  heldout::regLayer(Prefix, {{"outputs", L->outputs, N},
                             {"errors", L->errors, N},
                             {"temp", L->temp, L->nnodes},
                             {"xweights", L->xweights, L->nxweights},
                             {"u_xweights", L->u_xweights, L->nxweights},
                             {"hweights", L->hweights, L->nhweights},
                             {"u_hweights", L->u_hweights, L->nhweights},
                             {"biases", L->biases, L->nbiases},
                             {"u_biases", L->u_biases, L->nbiases}});
}
} // namespace

int main() {
  const int Nodes = 4, Times = 3;
  srand(1);
  RNNLayer *In = RNNLayer_create(NULL, Nodes, Times);
  RNNLayer *Hid = RNNLayer_create(In, Nodes, Times);
  RNNLayer *Out = RNNLayer_create(Hid, Nodes, Times);
  registerLayer(In, "in");
  registerLayer(Hid, "hid");
  registerLayer(Out, "out");
  for (const char *Field : {"self->nnodes", "lprev->nnodes", "self->nbiases"})
    ORACLE_PARAM(Field, Nodes);
  for (const char *Field : {"self->ntimes", "lprev->ntimes"})
    ORACLE_PARAM(Field, Times);
  for (const char *Field : {"self->nxweights", "self->nhweights"})
    ORACLE_PARAM(Field, Nodes * Nodes);
  oracle::Array<float> Values("values@8", Nodes), Want("values@8", Nodes),
      Outputs("outputs@8", Nodes);

  ORACLE_CALL(RNNLayer_reset(Hid));
  ORACLE_CALL(RNNLayer_setInputs(In, Values)); // the forward pass
  ORACLE_CALL(RNNLayer_feedForw(Hid));
  ORACLE_CALL(RNNLayer_getOutputs(Out, Outputs));
  ORACLE_CALL(RNNLayer_learnOutputs(Out, Want)); // the backward pass
  ORACLE_CALL(RNNLayer_getErrorTotal(Out));
  ORACLE_CALL(RNNLayer_feedBack(Hid));
  // RNNLayer_update recurses into lprev outside its loops: called on the
  // last layer cut from its predecessor, it updates that layer alone.
  RNNLayer Last = *Out;
  Last.lprev = NULL;
  ORACLE_CALL(RNNLayer_update(&Last, 0.1));
}
