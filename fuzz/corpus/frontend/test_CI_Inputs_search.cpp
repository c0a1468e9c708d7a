// Unanalyzable: the trip count depends on the data.
int search(const float *a, int n) {
  int i = 0;
  while (i < n && a[i] > 0)
    ++i;
  return i;
}
