// rowblocks.oracle.cpp at other sizes: wider rows, more layers, windows
// that do not overlap (K < S).
#define ROWBLOCKS_SIZES
static const int I = 7, H = 5, L = 4, Layer = 2, N = 4, S = 6, K = 2;
#include "rowblocks.oracle.cpp"
