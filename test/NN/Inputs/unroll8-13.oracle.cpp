// unroll8.oracle.cpp at n = 13: one unrolled step, a remainder of 5.
#define UNROLL8_N 13
#include "unroll8.oracle.cpp"
