// darknet-col2im's driver at stride 2: the padding test's `h * stride` is a
// size times a loop variable, which the tool takes at the given stride.
#define STRIDE 2
#include "../darknet-col2im/driver.cpp"
