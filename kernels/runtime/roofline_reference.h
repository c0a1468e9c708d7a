// roofline_reference.h - what a unit's reference.cpp includes.
//
// The checker compares each variant with the source nest evaluated in double
// precision, within a tolerance scaled by the nest's *magnitude*: the same
// computation on absolute values, with a subtraction counted as an addition
// (rl::mv carries a value and its magnitude). For a sum of products that is
// sum |a||b|, the scale of the rounding error of any evaluation order; run
// on all-ones inputs it counts the terms each output accumulates.

#ifndef ROOFLINE_REFERENCE_H
#define ROOFLINE_REFERENCE_H

#include "roofline_kernel.h"

#include <cmath>
#include <limits>
#include <vector>

namespace rl {

struct mv {
  double v = 0, m = 0;
};

inline mv mv_of(double V) { return {V, std::fabs(V)}; }

inline mv operator+(mv A, mv B) { return {A.v + B.v, A.m + B.m}; }
inline mv operator-(mv A, mv B) { return {A.v - B.v, A.m + B.m}; }
inline mv operator*(mv A, mv B) { return {A.v * B.v, A.m * B.m}; }
inline mv operator/(mv A, mv B) {
  double D = std::fabs(B.v);
  return {A.v / B.v, D > 0 ? A.m / D + std::fabs(A.v / B.v) : A.m};
}
inline mv operator-(mv A) { return {-A.v, A.m}; }
inline mv operator+(mv A) { return A; }
inline mv &operator+=(mv &A, mv B) { return A = A + B; }
inline mv &operator-=(mv &A, mv B) { return A = A - B; }
inline mv &operator*=(mv &A, mv B) { return A = A * B; }
inline mv &operator/=(mv &A, mv B) { return A = A / B; }
inline bool operator<(mv A, mv B) { return A.v < B.v; }
inline bool operator<=(mv A, mv B) { return A.v <= B.v; }
inline bool operator>(mv A, mv B) { return A.v > B.v; }
inline bool operator>=(mv A, mv B) { return A.v >= B.v; }
inline bool operator==(mv A, mv B) { return A.v == B.v; }
inline bool operator!=(mv A, mv B) { return A.v != B.v; }

// A comparison decided within rounding (a ReLU's y > 0 at y ~ 0) may go the
// other way in a variant, which then returns the other branch: the
// magnitude is the larger of both, so the tolerance covers that flip.
inline mv m_select(bool C, mv T, mv F) { return {C ? T.v : F.v, std::fmax(T.m, F.m)}; }
template <typename T> inline mv m_cast(mv A) {
  return mv_of(static_cast<double>(static_cast<T>(A.v)));
}

// Functions: the value, and a magnitude that covers the argument's
// uncertainty carried through (|f(x)| plus the argument's magnitude).
#define RL_M_UNARY(NAME)                                                       \
  inline mv m_##NAME(mv A) {                                                   \
    double V = std::NAME(A.v);                                                 \
    return {V, std::fabs(V) + A.m};                                            \
  }
RL_M_UNARY(exp)
RL_M_UNARY(exp2)
RL_M_UNARY(expm1)
RL_M_UNARY(log)
RL_M_UNARY(log2)
RL_M_UNARY(log10)
RL_M_UNARY(log1p)
RL_M_UNARY(sqrt)
RL_M_UNARY(cbrt)
RL_M_UNARY(sin)
RL_M_UNARY(cos)
RL_M_UNARY(tan)
RL_M_UNARY(asin)
RL_M_UNARY(acos)
RL_M_UNARY(atan)
RL_M_UNARY(sinh)
RL_M_UNARY(cosh)
RL_M_UNARY(tanh)
RL_M_UNARY(erf)
RL_M_UNARY(erfc)
RL_M_UNARY(floor)
RL_M_UNARY(ceil)
RL_M_UNARY(round)
RL_M_UNARY(trunc)
RL_M_UNARY(rint)
#undef RL_M_UNARY
inline mv m_lrint(mv A) { return mv_of(std::rint(A.v)); }
inline mv m_fabs(mv A) { return {std::fabs(A.v), A.m}; }
inline mv m_abs(mv A) { return m_fabs(A); }
inline mv m_fmax(mv A, mv B) { return {std::fmax(A.v, B.v), std::fmax(A.m, B.m)}; }
inline mv m_fmin(mv A, mv B) { return {std::fmin(A.v, B.v), std::fmax(A.m, B.m)}; }
inline mv m_max(mv A, mv B) { return m_fmax(A, B); }
inline mv m_min(mv A, mv B) { return m_fmin(A, B); }
inline mv m_pow(mv A, mv B) {
  double V = std::pow(A.v, B.v);
  return {V, std::fabs(V) + A.m + B.m};
}
inline mv m_atan2(mv A, mv B) { return {std::atan2(A.v, B.v), A.m + B.m + 4}; }
inline mv m_hypot(mv A, mv B) { return {std::hypot(A.v, B.v), A.m + B.m}; }
inline mv m_fmod(mv A, mv B) { return {std::fmod(A.v, B.v), A.m + B.m}; }
inline mv m_copysign(mv A, mv B) { return {std::copysign(A.v, B.v), A.m}; }
inline mv m_fma(mv A, mv B, mv C) { return A * B + C; }

} // namespace rl

#endif // ROOFLINE_REFERENCE_H
