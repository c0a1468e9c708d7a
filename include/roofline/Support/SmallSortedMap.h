//===- SmallSortedMap.h - A map as a sorted small vector --------*- C++ -*-===//
//
// The few-entry maps the IR copies all the time (an affine expression's
// terms, a loop's coefficients in the phase model): std::map allocated a
// node per entry on every copy (docs/results/speed.txt, issue 23). Iteration
// order, equality and ordering are std::map's: entries sorted by key with
// operator<.
//
//===----------------------------------------------------------------------===//

#ifndef ROOFLINE_SUPPORT_SMALLSORTEDMAP_H
#define ROOFLINE_SUPPORT_SMALLSORTEDMAP_H

#include "llvm/ADT/SmallVector.h"

#include <algorithm>
#include <iterator>
#include <utility>

namespace roofline {

/// Keys are unique and sorted; lookups are binary searches, inserts shift
/// the entries after. Up to \p N entries live inline.
template <typename KeyT, typename ValueT, unsigned N>
class SmallSortedMap {
public:
  using value_type = std::pair<KeyT, ValueT>;
  using iterator = value_type *;
  using const_iterator = const value_type *;
  using const_reverse_iterator = std::reverse_iterator<const_iterator>;

  iterator begin() { return Items.begin(); }
  iterator end() { return Items.end(); }
  const_iterator begin() const { return Items.begin(); }
  const_iterator end() const { return Items.end(); }
  const_reverse_iterator rbegin() const { return const_reverse_iterator(end()); }
  const_reverse_iterator rend() const { return const_reverse_iterator(begin()); }
  size_t size() const { return Items.size(); }
  bool empty() const { return Items.empty(); }

  iterator find(const KeyT &K) {
    iterator It = lowerBound(K);
    return It != end() && It->first == K ? It : end();
  }
  const_iterator find(const KeyT &K) const {
    return const_cast<SmallSortedMap *>(this)->find(K);
  }
  size_t count(const KeyT &K) const { return find(K) != end(); }

  /// The value of \p K, a default one inserted when absent (std::map's
  /// operator[]).
  ValueT &operator[](const KeyT &K) {
    iterator It = lowerBound(K);
    if (It == end() || It->first != K)
      It = Items.insert(It, value_type(K, ValueT()));
    return It->second;
  }
  /// Inserts (K, V) unless \p K is present (std::map's emplace).
  void emplace(const KeyT &K, ValueT V) {
    iterator It = lowerBound(K);
    if (It == end() || It->first != K)
      Items.insert(It, value_type(K, std::move(V)));
  }
  void erase(iterator It) { Items.erase(It); }
  void erase(const KeyT &K) {
    iterator It = find(K);
    if (It != end())
      Items.erase(It);
  }

  bool operator==(const SmallSortedMap &O) const { return Items == O.Items; }
  bool operator!=(const SmallSortedMap &O) const { return !(*this == O); }
  bool operator<(const SmallSortedMap &O) const { return Items < O.Items; }

private:
  iterator lowerBound(const KeyT &K) {
    return std::lower_bound(
        begin(), end(), K,
        [](const value_type &E, const KeyT &X) { return E.first < X; });
  }
  llvm::SmallVector<value_type, N> Items;
};

} // namespace roofline

#endif // ROOFLINE_SUPPORT_SMALLSORTEDMAP_H
