//===- Interchange.cpp - Reorder the loop band of a nest -------------------===//

#include "roofline/Transform/Interchange.h"
#include "roofline/Analysis/Dependence.h"

#include "llvm/ADT/StringExtras.h"

#include <algorithm>

using namespace roofline;

namespace {

Loop header(const Loop &L) {
  Loop H = L;
  H.Body.clear();
  return H;
}

/// \p Headers nested around \p Body, outermost first.
Node wrap(const std::vector<Loop> &Headers, std::vector<Node> Body) {
  for (size_t I = Headers.size(); I-- > 0;) {
    Loop L = Headers[I];
    L.Body = std::move(Body);
    Body.clear();
    Body.push_back(Node::loop(std::move(L)));
  }
  return std::move(Body.front());
}

struct Builder {
  const std::vector<const Loop *> &Band;
  const std::vector<size_t> &Perm;
  size_t Keep;
  std::vector<Node> Parts;

  /// Distributes the body of band loop \p K (index into Band); \p Outer
  /// holds the headers of the band loops Keep..K-1.
  void distribute(size_t K, std::vector<Loop> Outer) {
    const Loop &L = *Band[K];
    Outer.push_back(header(L));
    if (K + 1 == Band.size()) {
      std::vector<Loop> Hs;
      for (size_t I = Keep; I < Band.size(); ++I)
        Hs.push_back(header(*Band[Perm[I]]));
      Parts.push_back(wrap(Hs, L.Body));
      return;
    }
    std::vector<Node> Run; // consecutive statements beside the band
    auto Flush = [&] {
      if (!Run.empty())
        Parts.push_back(wrap(Outer, std::move(Run)));
      Run.clear();
    };
    for (const Node &X : L.Body) {
      if (X.isLoop() && &X.loop() == Band[K + 1]) {
        Flush();
        distribute(K + 1, Outer);
        continue;
      }
      Run.push_back(X);
    }
    Flush();
  }
};

} // namespace

llvm::Expected<std::vector<LoopNest>>
roofline::interchangeNest(const LoopNest &N,
                          const std::vector<std::string> &Order) {
  std::vector<const Loop *> Band = permutableBand(N);
  std::vector<size_t> Perm;
  for (const std::string &IV : Order) {
    auto It = std::find_if(Band.begin(), Band.end(),
                           [&](const Loop *L) { return L->IV == IV; });
    if (It == Band.end())
      return llvm::createStringError(llvm::inconvertibleErrorCode(),
                                     "'%s' is not a loop of the band",
                                     IV.c_str());
    Perm.push_back(It - Band.begin());
  }
  std::vector<size_t> Sorted = Perm;
  std::sort(Sorted.begin(), Sorted.end());
  for (size_t I = 0; I < Sorted.size(); ++I)
    if (Sorted[I] != I || Sorted.size() != Band.size())
      return llvm::createStringError(
          llvm::inconvertibleErrorCode(),
          "loop order %s is not a permutation of the band",
          llvm::join(Order, ", ").c_str());
  size_t Keep = 0;
  while (Keep < Perm.size() && Perm[Keep] == Keep)
    ++Keep;
  if (Keep == Perm.size())
    return std::vector<LoopNest>{N};

  Builder B{Band, Perm, Keep, {}};
  B.distribute(Keep, {});
  if (Keep == 0) {
    std::vector<LoopNest> Out;
    for (Node &P : B.Parts) {
      LoopNest X = N;
      X.Root = std::move(P.loop());
      Out.push_back(std::move(X));
    }
    return Out;
  }
  // Replace band loop Keep (inside band loop Keep-1) by the parts.
  LoopNest X = N;
  Loop *Parent = &X.Root;
  for (size_t K = 1; K < Keep; ++K)
    for (Node &C : Parent->Body)
      if (C.isLoop()) {
        Parent = &C.loop();
        break;
      }
  std::vector<Node> Body;
  for (Node &C : Parent->Body) {
    if (C.isLoop()) {
      for (Node &P : B.Parts)
        Body.push_back(std::move(P));
      continue;
    }
    Body.push_back(std::move(C));
  }
  Parent->Body = std::move(Body);
  return std::vector<LoopNest>{std::move(X)};
}
