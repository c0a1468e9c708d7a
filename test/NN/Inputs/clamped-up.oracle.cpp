// clamped.oracle.cpp with the other side of every clamp.
#define CL_UP 1
#include "clamped.oracle.cpp"
