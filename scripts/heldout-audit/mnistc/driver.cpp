// Held-out audit driver for AndrewCarterUK/mnist-neural-network-plain-c
// neural_network.c (scripts/heldout-audit). Our code: it #includes the
// published file unchanged and calls the softmax, the forward pass
// (hypothesis: a 784 -> 10 dense layer on uint8 pixels, then the softmax)
// and one example's gradient update, on registered arrays laid out as the
// published structs (an image is its pixels; the network its bias, then its
// weights). gradient_update's nest reads `activations`, an array on its own
// stack (filled by hypothesis), and training_step sums into a gradient on
// its stack: the oracle registers neither (it would miss their bytes), so
// neither is called. The tool counts gradient_update's nest at 23,540 FLOPs
// (10 of them maybe) and 63,624 bytes, 40 of them those activations.
#include "../shims.h"
#include "neural_network.c"

int main() {
  oracle::Array<uint8_t> px("image->pixels", MNIST_IMAGE_SIZE, 0, 255);
  oracle::Array<float> net("network", MNIST_LABELS + MNIST_LABELS * MNIST_IMAGE_SIZE, -0.01, 0.01);
  oracle::Array<float> act("activations", MNIST_LABELS, -1.0, 1.0);
  auto *Image = reinterpret_cast<mnist_image_t *>(static_cast<uint8_t *>(px));
  auto *Network = reinterpret_cast<neural_network_t *>(static_cast<float *>(net));
  ORACLE_PARAM("length", MNIST_LABELS);
  ORACLE_CALL(neural_network_softmax(act, MNIST_LABELS));
  ORACLE_CALL(neural_network_hypothesis(Image, Network, act));
}
