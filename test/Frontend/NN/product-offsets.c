// A product local as an offset, with a coefficient other than 1
// (`loff = 2*l*seq_len*kv_dim`: keys and values of a layer interleaved):
// where it is a multiple of the row (kv_dim) it joins the row subscript and
// the nest is exact; where it is not (`2*l` into rows of kv_dim) the rows
// would overlap, and the nest is refused.
// RUN: roofline-lint --verbosity=normal --no-source --param l=1 --param seq_len=4 --param kv_dim=8 --param pos=2 %s | FileCheck %s
// RUN: roofline-lint --dump-ir %s | FileCheck %s --check-prefix=IR

// IR-LABEL: nest @interleaved
// IR: condition 2*l*seq_len - pos - 1 >= 0 (rows of 'key_cache' do not overlap)
// IR: array key_cache : f32[?][2*l*seq_len][kv_dim] pointer
// IR: read key_cache[1][t][i]
// CHECK: product-offsets.c:[[@LINE+5]]:3: note: 0 MACs, 0 FLOPs; 192 bytes compulsory
// CHECK: as formulas: MACs = 0, FLOPs = 0, bytes compulsory = 8*kv_dim*pos + 8*kv_dim
void interleaved(float *out, const float *key_cache, int l, int seq_len,
                 int kv_dim, int pos) {
  int loff = 2 * l * seq_len * kv_dim;
  for (int t = 0; t <= pos; t++)
    for (int i = 0; i < kv_dim; i++)
      out[t * kv_dim + i] = key_cache[loff + t * kv_dim + i];
}

// IR-LABEL: nest @three_rows
// IR: array key_cache : f32[?][3*l][kv_dim] pointer
// CHECK: product-offsets.c:[[@LINE+3]]:3: note: 0 MACs, 0 FLOPs; 192 bytes compulsory
void three_rows(float *out, const float *key_cache, int l, int kv_dim, int pos) {
  int loff = 3 * l * kv_dim;
  for (int t = 0; t <= pos; t++)
    for (int i = 0; i < kv_dim; i++)
      out[t * kv_dim + i] = key_cache[loff + t * kv_dim + i];
}

// An offset inside a row (2*l, l = 1) is no row: one dimension at these
// sizes, key_cache[2 + 8*t + i] for t <= 2, i < 8: 24 elements, and 24 of out.
// CHECK: product-offsets.c:[[@LINE+4]]:3: note: 0 MACs, 0 FLOPs; 192 bytes compulsory
// CHECK: product-offsets.c:[[@LINE+3]]:3: note: 'key_cache' is indexed as one dimension (rows of 'key_cache' overlap at these sizes: 'i + 2*l' leaves its row of kv_dim elements, so its elements are not distinct rows); its strides are counted at kv_dim = 8: its counts hold for these values only
void skewed(float *out, const float *key_cache, int l, int kv_dim, int pos) {
  int loff = 2 * l;
  for (int t = 0; t <= pos; t++)
    for (int i = 0; i < kv_dim; i++)
      out[t * kv_dim + i] = key_cache[loff + t * kv_dim + i];
}
