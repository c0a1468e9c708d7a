// A padding test `0 <= r && r < H` with r = stride*r1 - pad + dr, where
// the stride is a struct field (a size): a loop variable times a size. With
// the stride's value given, the guard is affine and narrows the loop over
// dr exactly, the stride's value goes into the subscripts too, and a note
// says the counts hold for that value; without it, the nest is refused
// with the reason and what to give. A symbolic padding offset belongs to
// the row it is a multiple of (-pad*W to the row subscript).
// RUN: roofline-lint --no-source %s 2>&1 | FileCheck %s --check-prefix=SYM
// RUN: roofline-lint --dump-ir --param 'cfg->stride=2' %s | FileCheck %s
// RUN: roofline-lint --verbosity=normal --no-source --param 'cfg->stride=2' --param 'cfg->pad=1' --param 'cfg->k=3' --param H=5 --param W=5 --param OH=3 --param OW=3 %s | FileCheck %s --check-prefix=NUM

struct Cfg { int k, pad, stride; };

// SYM: padding.c:[[@LINE+12]]:3: note: loop nest not analyzed: condition on 'dr' is not affine: it multiplies a loop variable by the size 'cfg->stride', which has no value (give it one, --param cfg->stride=N, to count the guard)
// CHECK-LABEL: nest @conv2d
// CHECK: for dr = max(0, cfg->pad - 2*r1) to min(cfg->k - 1, H + cfg->pad - 2*r1 - 1)
// CHECK: for ds = max(0, cfg->pad - 2*s1) to min(cfg->k - 1, W + cfg->pad - 2*s1 - 1)
// CHECK: read in[-cfg->pad + dr + 2*r1][-cfg->pad + ds + 2*s1]
// CHECK-NEXT: read w[dr][ds]
// 3x3 outputs of a 5x5 input, kernel 3, padding 1, stride 2: the corner
// outputs see 4 inputs, the edges 6, the centre 9: 4*4 + 4*6 + 9 = 49 MACs;
// the whole input (25), the kernel (9), the output (9) = 172 bytes.
// NUM: padding.c:[[@LINE+3]]:3: note: 49 MACs, 98 FLOPs (f32: 98); 172 bytes compulsory
// NUM: padding.c:[[@LINE+2]]:3: note: a condition on 'dr' multiplies a loop variable by cfg->stride = 2: its counts hold for that value only
void conv2d(float *out, const float *in, const float *w, const struct Cfg *cfg, int H, int W, int OH, int OW) {
  for (int r1 = 0; r1 < OH; r1++) {
    int r0 = cfg->stride * r1 - cfg->pad;
    for (int s1 = 0; s1 < OW; s1++) {
      int s0 = cfg->stride * s1 - cfg->pad;
      float acc = 0.0f;
      for (int dr = 0; dr < cfg->k; dr++) {
        int r = r0 + dr;
        if (0 <= r && r < H) {
          for (int ds = 0; ds < cfg->k; ds++) {
            int s = s0 + ds;
            if (0 <= s && s < W)
              acc += in[r * W + s] * w[dr * cfg->k + ds];
          }
        }
      }
      out[r1 * OW + s1] = acc;
    }
  }
}
