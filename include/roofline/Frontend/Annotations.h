//===- Annotations.h - `// roofline: N=4096` size annotations --------------===//
//
// A comment on the line before a loop nest pins sizes for that nest only,
// the way --param does for the whole run.
//
//===----------------------------------------------------------------------===//

#ifndef ROOFLINE_FRONTEND_ANNOTATIONS_H
#define ROOFLINE_FRONTEND_ANNOTATIONS_H

#include "llvm/ADT/StringRef.h"
#include "llvm/Support/Error.h"

#include <cstdint>
#include <map>
#include <optional>
#include <string>

namespace roofline {

using SizeMap = std::map<std::string, int64_t>;

/// Parses one source line. nullopt when it is not an annotation (no
/// `// roofline:` comment); an error when it is one but malformed.
llvm::Expected<std::optional<SizeMap>>
parseNestAnnotation(llvm::StringRef Line);

} // namespace roofline

#endif // ROOFLINE_FRONTEND_ANNOTATIONS_H
