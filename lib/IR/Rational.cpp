//===- Rational.cpp - Exact, overflow-checked rational numbers ------------===//
//
// Invariant beyond the header's: Num is never INT128_MIN, so that neg() can
// never overflow. Results that would need it are reported as overflow.
//
//===----------------------------------------------------------------------===//

#include "roofline/IR/Rational.h"
#include "roofline/IR/AffineEval.h"

#include <algorithm>

using namespace roofline;

namespace {
using UInt128 = unsigned __int128;

constexpr Int128 Int128Min =
    static_cast<Int128>(static_cast<UInt128>(1) << 127);

UInt128 magnitude(Int128 V) {
  return V < 0 ? static_cast<UInt128>(0) - static_cast<UInt128>(V)
               : static_cast<UInt128>(V);
}

UInt128 gcdU(UInt128 A, UInt128 B) {
  // 64-bit division is far cheaper than the 128-bit library call.
  if ((A >> 64) == 0 && (B >> 64) == 0) {
    uint64_t X = static_cast<uint64_t>(A), Y = static_cast<uint64_t>(B);
    while (Y != 0) {
      uint64_t T = X % Y;
      X = Y;
      Y = T;
    }
    return X;
  }
  while (B != 0) {
    UInt128 T = A % B;
    A = B;
    B = T;
  }
  return A;
}

/// gcd of |A| and |B| as a signed value; fits because callers never pass
/// INT128_MIN for both.
Int128 gcdS(Int128 A, Int128 B) {
  return static_cast<Int128>(gcdU(magnitude(A), magnitude(B)));
}

/// Exact three-way comparison of A/B and C/D (B, D > 0) without forming
/// products that may overflow: compare the integer parts, then (equal parts)
/// the reciprocals of the fractional parts -- a continued-fraction walk.
int compareFractions(Int128 A, Int128 B, Int128 C, Int128 D) {
  while (true) {
    Int128 QA = floorDiv(A, B), QC = floorDiv(C, D);
    if (QA != QC)
      return QA < QC ? -1 : 1;
    Int128 RA = A - QA * B, RC = C - QC * D; // 0 <= R < denominator
    if (RA == 0 || RC == 0)
      return RA == RC ? 0 : (RA == 0 ? -1 : 1);
    // RA/B < RC/D  <=>  D/RC < B/RA.
    Int128 NA = D, NB = RC, NC = B, ND = RA;
    A = NA;
    B = NB;
    C = NC;
    D = ND;
  }
}
} // namespace

std::string roofline::int128ToString(Int128 V) {
  if (V == 0)
    return "0";
  UInt128 M = magnitude(V);
  std::string S;
  while (M != 0) {
    S.push_back(static_cast<char>('0' + static_cast<int>(M % 10)));
    M /= 10;
  }
  if (V < 0)
    S.push_back('-');
  std::reverse(S.begin(), S.end());
  return S;
}

std::optional<Rational> Rational::make(Int128 Num, Int128 Den) {
  if (Den == 0)
    return std::nullopt;
  if (Num == 0)
    return Rational();
  if (Den == 1) {
    if (Num == Int128Min)
      return std::nullopt;
    Rational R;
    R.Num = Num;
    return R;
  }
  Int128 G = static_cast<Int128>(gcdU(magnitude(Num), magnitude(Den)));
  // G can only be 2^127 (not representable) if both are INT128_MIN; then the
  // value is 1.
  if (G <= 0) {
    Rational R;
    R.Num = 1;
    return R;
  }
  Num /= G;
  Den /= G;
  if (Den < 0) {
    if (Num == Int128Min || Den == Int128Min)
      return std::nullopt;
    Num = -Num;
    Den = -Den;
  }
  if (Num == Int128Min)
    return std::nullopt;
  Rational R;
  R.Num = Num;
  R.Den = Den;
  return R;
}

std::optional<Rational> Rational::add(const Rational &O) const {
  if (Den == 1 && O.Den == 1) {
    // What the general path computes for integers, without the gcds.
    Rational R;
    if (__builtin_add_overflow(Num, O.Num, &R.Num) || R.Num == Int128Min)
      return std::nullopt;
    return R;
  }
  // a/b + c/d = (a*(d/g) + c*(b/g)) / (b*(d/g)) with g = gcd(b, d) keeps
  // intermediates small.
  Int128 G = gcdS(Den, O.Den);
  Int128 L, R, N, D;
  if (__builtin_mul_overflow(Num, O.Den / G, &L) ||
      __builtin_mul_overflow(O.Num, Den / G, &R) ||
      __builtin_add_overflow(L, R, &N) ||
      __builtin_mul_overflow(Den, O.Den / G, &D))
    return std::nullopt;
  return make(N, D);
}

std::optional<Rational> Rational::sub(const Rational &O) const {
  return add(O.neg());
}

std::optional<Rational> Rational::mul(const Rational &O) const {
  if (Num == 0 || O.Num == 0)
    return Rational();
  if (Den == 1 && O.Den == 1) {
    Rational R;
    if (__builtin_mul_overflow(Num, O.Num, &R.Num) || R.Num == Int128Min)
      return std::nullopt;
    return R;
  }
  // Cross-reduce first so that a product of normalized values only
  // overflows when the result does.
  Int128 G1 = gcdS(Num, O.Den), G2 = gcdS(O.Num, Den);
  Int128 N, D;
  if (__builtin_mul_overflow(Num / G1, O.Num / G2, &N) ||
      __builtin_mul_overflow(Den / G2, O.Den / G1, &D))
    return std::nullopt;
  return make(N, D);
}

std::optional<Rational> Rational::div(const Rational &O) const {
  if (O.Num == 0)
    return std::nullopt;
  Rational Inv;
  Inv.Num = O.Num < 0 ? -O.Den : O.Den;
  Inv.Den = O.Num < 0 ? -O.Num : O.Num;
  return mul(Inv);
}

Rational Rational::neg() const {
  Rational R = *this;
  R.Num = -Num; // cannot overflow: Num != INT128_MIN by invariant
  return R;
}

double Rational::toDouble() const {
  return static_cast<double>(Num) / static_cast<double>(Den);
}

std::string Rational::str() const {
  if (Den == 1)
    return int128ToString(Num);
  return int128ToString(Num) + "/" + int128ToString(Den);
}

bool Rational::operator<(const Rational &O) const {
  if (Den == 1 && O.Den == 1)
    return Num < O.Num;
  return compareFractions(Num, Den, O.Num, O.Den) < 0;
}
