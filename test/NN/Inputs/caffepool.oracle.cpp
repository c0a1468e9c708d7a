// Oracle driver for caffepool.cpp (scripts/nn-oracle.py runs it): 3x3
// windows, stride 2, padding 1, over a 7x6 plane (pooled 4x3).
#include "caffepool.cpp"

int main() {
  PoolParam p = {7, 6, 4, 3, 3, 2, 1};
  ORACLE_PARAM("p.height", p.height);
  ORACLE_PARAM("p.width", p.width);
  ORACLE_PARAM("p.pooled_height", p.pooled_height);
  ORACLE_PARAM("p.pooled_width", p.pooled_width);
  ORACLE_PARAM("p.kernel", p.kernel);
  ORACLE_PARAM("p.stride", p.stride);
  ORACLE_PARAM("p.pad", p.pad);
  oracle::Array<float> bottom("bottom", p.height * p.width),
      top("top", p.pooled_height * p.pooled_width);
  ORACLE_CALL(max_pool(p, bottom, top));
  ORACLE_CALL(ave_pool(p, bottom, top));
}
