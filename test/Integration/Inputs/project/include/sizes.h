#define AXPY_N (1 << 20)
