//===- Rational.h - Exact, overflow-checked rational numbers --------------===//
//
// Counts must be exact (docs/design.md): 1e7^3 iterations do not fit in int64, so
// numerator and denominator are 128-bit and every operation reports
// overflow instead of wrapping.
//
//===----------------------------------------------------------------------===//

#ifndef ROOFLINE_IR_RATIONAL_H
#define ROOFLINE_IR_RATIONAL_H

#include <cstdint>
#include <optional>
#include <string>

namespace roofline {

using Int128 = __int128;

/// Decimal text of a 128-bit integer ("-170141183460469231731687303715884105728").
std::string int128ToString(Int128 V);

/// Always normalized: Den > 0, gcd(|Num|, Den) == 1.
class Rational {
public:
  Rational() = default;
  Rational(int64_t V) : Num(V) {}
  /// Returns nullopt when Den == 0.
  static std::optional<Rational> make(Int128 Num, Int128 Den);

  Int128 num() const { return Num; }
  Int128 den() const { return Den; }
  bool isInteger() const { return Den == 1; }
  bool isZero() const { return Num == 0; }
  int sign() const { return Num > 0 ? 1 : (Num < 0 ? -1 : 0); }

  /// nullopt on 128-bit overflow (or division by zero).
  std::optional<Rational> add(const Rational &O) const;
  std::optional<Rational> sub(const Rational &O) const;
  std::optional<Rational> mul(const Rational &O) const;
  std::optional<Rational> div(const Rational &O) const;
  Rational neg() const;

  double toDouble() const;
  /// "3", "-1/2".
  std::string str() const;

  bool operator==(const Rational &O) const {
    return Num == O.Num && Den == O.Den;
  }
  bool operator!=(const Rational &O) const { return !(*this == O); }
  bool operator<(const Rational &O) const; ///< exact comparison

private:
  Int128 Num = 0;
  Int128 Den = 1;
};

} // namespace roofline

#endif // ROOFLINE_IR_RATIONAL_H
