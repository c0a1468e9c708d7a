// helperexits.oracle.cpp without padding: every window inside the image.
#define PAD 0
#include "helperexits.oracle.cpp"
