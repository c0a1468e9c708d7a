// Held-out audit driver for euske/nn1 cnn.c (scripts/heldout-audit). Our
// code: it #includes the published file unchanged. A network built with the
// file's own constructors: input 1x5x5 (25 nodes) -> conv 2x3x3 (kernel 3,
// padding 1, stride 2; 18 nodes) -> full 18 (tanh) -> full 18 (softmax,
// the last layer), so that every full layer and its predecessor have 18
// nodes and one size per struct field holds for every call of a function.
// Each layer function is called directly, once per layer kind.
#include "../nn1.h"
#include "cnn.c"

namespace {
void registerLayer(Layer *L, const char *const Names[7]) {
  heldout::reg(Names[0], L->outputs, L->nnodes);
  heldout::reg(Names[1], L->gradients, L->nnodes);
  heldout::reg(Names[2], L->errors, L->nnodes);
  heldout::reg(Names[3], L->biases, L->nbiases);
  heldout::reg(Names[4], L->u_biases, L->nbiases);
  heldout::reg(Names[5], L->weights, L->nweights);
  heldout::reg(Names[6], L->u_weights, L->nweights);
}
} // namespace

int main() {
  srand(1);
  Layer *In = Layer_create_input(1, 5, 5);
  Layer *Conv = Layer_create_conv(In, 2, 3, 3, 3, 1, 2, 0.5);
  Layer *Full = Layer_create_full(Conv, 18, 0.5);
  Layer *Out = Layer_create_full(Full, 18, 0.5);
  const char *const InN[] = {"in.outputs@8", "in.gradients@8", "in.errors@8",
                             "", "", "", ""};
  const char *const ConvN[] = {"conv.outputs@8", "conv.gradients@8",
                               "conv.errors@8", "conv.biases@8",
                               "conv.u_biases@8", "conv.weights@8",
                               "conv.u_weights@8"};
  const char *const FullN[] = {"full.outputs@8", "full.gradients@8",
                               "full.errors@8", "full.biases@8",
                               "full.u_biases@8", "full.weights@8",
                               "full.u_weights@8"};
  const char *const OutN[] = {"out.outputs@8", "out.gradients@8",
                              "out.errors@8", "out.biases@8",
                              "out.u_biases@8", "out.weights@8",
                              "out.u_weights@8"};
  registerLayer(In, InN);
  registerLayer(Conv, ConvN);
  registerLayer(Full, FullN);
  registerLayer(Out, OutN);
  oracle::Array<float> Values("values@8", 25), Want("values@8", 18, 0.0, 1.0),
      Outputs("outputs@8", 18);

  // Sizes per function: the layer each is called on here.
  ORACLE_PARAM("Layer_setInputs:self->nnodes", 25);
  for (const char *F : {"Layer_feedForw_full", "Layer_feedBack_full"}) {
    char Name[80];
    snprintf(Name, sizeof Name, "%s:self->nnodes", F);
    ORACLE_PARAM(Name, 18);
    snprintf(Name, sizeof Name, "%s:lprev->nnodes", F);
    ORACLE_PARAM(Name, 18);
  }
  for (const char *F : {"Layer_feedForw_conv", "Layer_feedBack_conv"}) {
    const char *Fields[] = {"self->depth", "self->height", "self->width",
                            "lprev->depth", "lprev->height", "lprev->width",
                            "self->conv.kernsize", "self->conv.padding",
                            "self->conv.stride", "lprev->nnodes",
                            "self->nnodes"};
    const int Values_[] = {2, 3, 3, 1, 5, 5, 3, 1, 2, 25, 18};
    for (int I = 0; I < 11; ++I) {
      char Name[80];
      snprintf(Name, sizeof Name, "%s:%s", F, Fields[I]);
      ORACLE_PARAM(Name, Values_[I]);
    }
  }
  for (const char *F : {"Layer_getOutputs", "Layer_getErrorTotal",
                        "Layer_learnOutputs", "Layer_update", "Layer_dump"}) {
    char Name[80];
    snprintf(Name, sizeof Name, "%s:self->nnodes", F);
    ORACLE_PARAM(Name, 18);
  }
  ORACLE_PARAM("Layer_update:self->nbiases", 18);
  ORACLE_PARAM("Layer_update:self->nweights", 18 * 18);

  ORACLE_CALL(Layer_setInputs(In, Values)); // the forward pass of all layers
  ORACLE_CALL(Layer_feedForw_conv(Conv));
  ORACLE_CASE("self->lnext != NULL", Layer_feedForw_full(Full));
  ORACLE_CASE("self->lnext == NULL", Layer_feedForw_full(Out));
  ORACLE_CALL(Layer_getOutputs(Out, Outputs));
  ORACLE_CALL(Layer_learnOutputs(Out, Want)); // the backward pass
  ORACLE_CALL(Layer_getErrorTotal(Out));
  ORACLE_CALL(Layer_feedBack_full(Out));
  ORACLE_CALL(Layer_feedBack_conv(Conv));
  // Layer_update recurses into lprev outside its loops: called on the last
  // layer cut from its predecessor, it updates that layer alone.
  Layer Last = *Out;
  Last.lprev = NULL;
  ORACLE_CALL(Layer_update(&Last, 0.1));
}
