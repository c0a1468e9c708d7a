// Held-out audit driver for AndrewCarterUK/mnist-neural-network-plain-c
// neural_network.c (scripts/heldout-audit). Our code: it #includes the
// published file unchanged and calls the softmax, the forward pass
// (hypothesis: a 784 -> 10 dense layer on uint8 pixels, then the softmax),
// one example's gradient update, and one training step over a dataset of
// three images, on registered arrays laid out as the published structs (an
// image is its pixels; the network its bias, then its weights; the gradient
// likewise). gradient_update's nest reads `activations`, an array on its own
// stack (filled by hypothesis), and training_step's second nest reads the
// gradient it summed on its stack: run.py measures them with nn-oracle.py
// --stack-arrays (from the debug information; README.md).
#include "../shims.h"
#include "neural_network.c"

int main() {
  constexpr int Images = 3;
  constexpr int NetworkSize = MNIST_LABELS + MNIST_LABELS * MNIST_IMAGE_SIZE;
  oracle::Array<uint8_t> px("image->pixels", MNIST_IMAGE_SIZE, 0, 255);
  oracle::Array<float> net("network", NetworkSize, -0.01, 0.01);
  oracle::Array<float> grad("gradient", NetworkSize, -0.01, 0.01);
  oracle::Array<float> act("activations", MNIST_LABELS, -1.0, 1.0);
  oracle::Array<uint8_t> images("dataset->images", Images * MNIST_IMAGE_SIZE, 0, 255);
  oracle::Array<uint8_t> labels("dataset->labels", Images, 0, MNIST_LABELS);
  auto *Image = reinterpret_cast<mnist_image_t *>(static_cast<uint8_t *>(px));
  auto *Network = reinterpret_cast<neural_network_t *>(static_cast<float *>(net));
  auto *Gradient =
      reinterpret_cast<neural_network_gradient_t *>(static_cast<float *>(grad));
  mnist_dataset_t Dataset = {
      reinterpret_cast<mnist_image_t *>(static_cast<uint8_t *>(images)), labels,
      Images};
  ORACLE_PARAM("length", MNIST_LABELS);
  ORACLE_PARAM("dataset->size", Images);
  ORACLE_CALL(neural_network_softmax(act, MNIST_LABELS));
  ORACLE_CALL(neural_network_hypothesis(Image, Network, act));
  ORACLE_CALL(neural_network_gradient_update(Image, Network, Gradient, 3));
  ORACLE_CALL(neural_network_training_step(&Dataset, Network, 0.5f));
}
