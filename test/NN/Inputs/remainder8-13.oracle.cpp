// remainder8.oracle.cpp at n = 13: one unrolled step, a remainder of 5.
#define REMAINDER8_N 13
#include "remainder8.oracle.cpp"
