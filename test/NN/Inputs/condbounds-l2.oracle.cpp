// condbounds.oracle.cpp at two layers, the ragged rows all long.
#define CB_L 2
#define CB_K 4
#define CB_P 1
#include "condbounds.oracle.cpp"
