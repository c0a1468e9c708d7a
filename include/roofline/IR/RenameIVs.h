//===- RenameIVs.h - Loop variables renamed apart --------------*- C++ -*-===//
//
// The one renaming of shadowing loop variables that the analyses share
// (they substitute by name, so a name must identify one variable along
// every chain of loops). Apart from LoopNest.h so that the files that only
// read nests do not depend on it.
//
//===----------------------------------------------------------------------===//

#ifndef ROOFLINE_IR_RENAMEIVS_H
#define ROOFLINE_IR_RENAMEIVS_H

#include "roofline/IR/LoopNest.h"

#include <set>
#include <string>
#include <vector>

namespace roofline {

/// Replaces the variable \p Old by \p New in the bounds and subscripts of
/// \p Body, except inside a loop that redeclares \p Old (it hides the
/// outer one there). Access text and statement values stay as written: the
/// analyses rename, the report quotes the source.
void renameUses(std::vector<Node> &Body, const std::string &Old,
                const std::string &New);

/// Renames every IV of \p L that shadows a name in \p Scope (an enclosing
/// IV or a size) to "IV.<n>", \p Counter numbering them, so that a name
/// identifies one variable along every chain of loops (the analyses
/// substitute by name).
void uniquifyIVs(Loop &L, std::set<std::string> &Scope, unsigned &Counter);

} // namespace roofline

#endif // ROOFLINE_IR_RENAMEIVS_H
