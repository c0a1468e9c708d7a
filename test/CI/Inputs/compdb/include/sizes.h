#define COLS 64
