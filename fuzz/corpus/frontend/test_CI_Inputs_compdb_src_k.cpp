// Needs its compile command: ROWS comes from -DROWS, sizes.h from -Iinclude.
#include "sizes.h"
float a[ROWS][COLS];

void fill() {
  for (int i = 0; i < ROWS; ++i)
    for (int j = 0; j < COLS; ++j)
      a[i][j] = 1.0f;
}

#ifdef WITH_SECOND
void second() {
  for (int i = 0; i < ROWS; ++i)
    a[i][0] = 2.0f;
}
#endif
