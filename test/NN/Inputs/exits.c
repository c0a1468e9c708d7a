// Loops that stop early on the data (test/NN/exits.test, docs/design.md
// "Early exits"): the condition counts on every iteration that runs, and
// the work and the compulsory bytes are a range from the loop's first
// iteration per entry to all of its iterations.

// A row's running sum, stopped at a limit (a search): every row runs.
void capped_sums(float *out, const float *x, int R, int C, float lim) {
  for (int r = 0; r < R; r++) {
    float s = 0.0f;
    for (int i = 0; i < C; i++) {
      s += x[r * C + i];
      if (s > lim)
        break;
    }
    out[r] = s;
  }
}

// The first index of a key: integer compares only, no FLOPs.
int find_first(const int *keys, int n, int key) {
  for (int i = 0; i < n; i++)
    if (keys[i] == key)
      return i;
  return -1;
}

// The index of the largest cumulative weight below a threshold, scaled on
// the way (a top-p cut-off): a multiply and an add per element.
int cutoff(float *scaled, const float *w, int n, float scale, float top) {
  float acc = 0.0f;
  for (int i = 0; i < n; i++) {
    scaled[i] = w[i] * scale;
    acc += scaled[i];
    if (acc > top)
      return i;
  }
  return n - 1;
}
