// condbounds.oracle.cpp at one layer (a part of each split of the loop over
// layers is empty), the ragged rows all short, no layer before the outputs
// (the other case of train_outputs).
#define CB_L 1
#define CB_K 0
#define CB_P 0
#include "condbounds.oracle.cpp"
