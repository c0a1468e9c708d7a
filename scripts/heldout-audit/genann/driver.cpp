// Held-out audit driver for codeplea/genann genann.c (scripts/heldout-audit).
// Our code: it #includes the published file unchanged. genann computes in
// double; the oracle counts float, so `double` is the counting float here and
// every array is registered as NAME@8 (8 bytes an element, as the tool counts
// them). A network of 4 inputs, 2 hidden layers of 3, 2 outputs
// (genann_init), run and trained with its default activation
// (genann_act_sigmoid_cached), then run and trained once per activation the
// tool reports a case for, hidden and output layers each as their own case;
// then a network without hidden layers (genann_run's first branch).
#include "../shims.h"
#define double float
// isnan() of the counting float (genann_act_sigmoid_cached's assert) is
// oracle.h's: one compare, as the tool counts it.
#include "genann.c"

namespace {
void registerNet(genann *Ann) {
  oracle_register("ann->weight@8", Ann->weight, Ann->total_weights,
                  sizeof(Counted), 0);
  oracle_register("ann->output@8", Ann->output, Ann->total_neurons,
                  sizeof(Counted), 0);
  oracle_register("ann->delta@8", Ann->delta,
                  Ann->total_neurons - Ann->inputs, sizeof(Counted), 0);
}
} // namespace

int main() {
  const int Inputs = 4, HiddenLayers = 2, Hidden = 3, Outputs = 2;
  ORACLE_PARAM("ann->inputs", Inputs);
  ORACLE_PARAM("ann->hidden_layers", HiddenLayers);
  ORACLE_PARAM("ann->hidden", Hidden);
  ORACLE_PARAM("ann->outputs", Outputs);
  srand(1);
  genann *Ann = genann_init(Inputs, HiddenLayers, Hidden, Outputs);
  ORACLE_PARAM("ann->total_weights", Ann->total_weights);
  ORACLE_PARAM("ann->total_neurons", Ann->total_neurons);
  registerNet(Ann);
  oracle::Array<float> in("inputs@8", Inputs, -2.0, 2.0),
      want("desired_outputs@8", Outputs, 0.0, 1.0);

  // The sigmoid's table (set up by genann_init; not a compute kernel, but
  // its numbers are checked too).
  oracle_register("lookup@8", lookup, LOOKUP_SIZE, sizeof(Counted), 0);
  ORACLE_CALL(genann_init_sigmoid_lookup(Ann));

  // The tool reports the nests that call an activation once per function
  // genann.c makes an activation (its cases, spelled as here); each call
  // below is one case of the hidden and then of the output layer.
  const genann_actfun Acts[] = {genann_act_sigmoid_cached, genann_act_linear,
                                genann_act_tanh, genann_act_relu};
  const char *Names[] = {"genann_act_sigmoid_cached", "genann_act_linear",
                         "genann_act_tanh", "genann_act_relu"};
  char HiddenCase[4][96], OutputCase[4][96];
  for (int A = 0; A < 4; ++A) {
    snprintf(HiddenCase[A], sizeof HiddenCase[A], "ann->activation_hidden == %s",
             Names[A]);
    snprintf(OutputCase[A], sizeof OutputCase[A], "ann->activation_output == %s",
             Names[A]);
  }
  for (int A = 0; A < 4; ++A) {
    Ann->activation_hidden = Acts[A];
    Ann->activation_output = Acts[A];
    ORACLE_CASE(HiddenCase[A], genann_run(Ann, in));
    ORACLE_CASE(OutputCase[A], genann_run(Ann, in));
  }
  // Training: the output deltas are reported per output activation, the
  // hidden deltas per hidden activation; with a linear output the first
  // branch (genann_train#1) runs.
  for (int A = 0; A < 4; ++A) {
    Ann->activation_hidden = Acts[A];
    Ann->activation_output = Acts[A];
    ORACLE_CASE(OutputCase[A], genann_train(Ann, in, want, 0.5));
    ORACLE_CASE(HiddenCase[A], genann_train(Ann, in, want, 0.5));
  }
  genann_free(Ann);

  // No hidden layer: genann_run's first branch (genann_run#1), inputs
  // straight to the 2 outputs; the same sizes but ann->hidden_layers, which
  // only selects the branch.
  genann *Flat = genann_init(Inputs, 0, 0, Outputs);
  registerNet(Flat);
  for (int A = 0; A < 4; ++A) {
    Flat->activation_output = Acts[A];
    ORACLE_CASE(OutputCase[A], genann_run(Flat, in));
  }
  genann_free(Flat);
}
