// Held-out audit driver for pjreddie/darknet src/convolutional_layer.c
// (scripts/heldout-audit). Our code: it #includes the published file
// unchanged and calls its plain CPU nests: binarize_weights, binarize_cpu,
// binarize_input (XNOR nets), add_bias and scale_bias (every conv layer's
// forward), denormalize_convolutional_layer (folds batch norm into the
// weights: 3 filters over 4 channels in 2 groups, 3x3). The convolution
// itself goes through gemm/im2col of other files (refused here as calls).
// blas.c and activations.c are included for the calls the file makes; the
// functions of image.c, utils.c, gemm.c, im2col.c, col2im.c and
// batchnorm_layer.c it references are stubbed below (not called).
#include "../shims.h"
#include "blas.c"
#include "activations.c"
#include "convolutional_layer.c"

void backward_batchnorm_layer(layer, network) { abort(); }
void forward_batchnorm_layer(layer, network) { abort(); }
void col2im_cpu(float *, int, int, int, int, int, int, float *) { abort(); }
void im2col_cpu(float *, int, int, int, int, int, int, float *) { abort(); }
void gemm(int, int, int, int, int, float, float *, int, float *, int, float,
          float *, int) {
  abort();
}
image collapse_image_layers(image, int) { abort(); }
image copy_image(image) { abort(); }
image float_to_image(int, int, int, float *) { abort(); }
void free_image(image) { abort(); }
void normalize_image(image) { abort(); }
float rand_normal() { abort(); }
void rgbgr_image(image) { abort(); }
void scale_image(image, float) { abort(); }
void show_images(image *, int, char *) { abort(); }
float sum_array(float *, int) { abort(); }

int main() {
  const int B = 2, N = 3, S = 5;
  ORACLE_PARAM("batch", B);
  ORACLE_PARAM("n", N);
  ORACLE_PARAM("size", S);
  {
    oracle::Array<float> w("weights", N * S), bin("binary", N * S);
    oracle::Array<float> in("input", N * S), out("output", B * N * S);
    oracle::Array<float> biases("biases", N), scales("scales", N);
    ORACLE_CALL(binarize_weights(w, N, S, bin));
    ORACLE_CALL(binarize_cpu(in, N, bin));
    ORACLE_CALL(binarize_input(in, N, S, bin));
    ORACLE_CALL(add_bias(out, biases, B, N, S));
    ORACLE_CALL(scale_bias(out, scales, B, N, S));
  }
  {
    const int Filters = 3, C = 4, Groups = 2, K = 3;
    const int PerFilter = C / Groups * K * K;
    oracle::Array<float> w("l.weights", Filters * PerFilter), b("l.biases", Filters);
    oracle::Array<float> sc("l.scales", Filters), rm("l.rolling_mean", Filters);
    oracle::Array<float> rv("l.rolling_variance", Filters, 0.5, 1.5);
    layer l = {};
    l.n = Filters;
    l.c = C;
    l.groups = Groups;
    l.size = K;
    l.weights = w;
    l.biases = b;
    l.scales = sc;
    l.rolling_mean = rm;
    l.rolling_variance = rv;
    ORACLE_PARAM("l.n", Filters);
    ORACLE_PARAM("l.c", C);
    ORACLE_PARAM("l.groups", Groups);
    ORACLE_PARAM("l.size", K);
    ORACLE_CALL(denormalize_convolutional_layer(l));
  }
}
