//===- Toolchain.h - Finding compilers and the CUDA runtime to link -------===//

#ifndef ROOFLINE_RUNNER_TOOLCHAIN_H
#define ROOFLINE_RUNNER_TOOLCHAIN_H

#include "llvm/ADT/ArrayRef.h"
#include "llvm/ADT/StringRef.h"

#include <string>
#include <vector>

namespace roofline {

/// \p Want as given when it names a path, else looked up on PATH and then
/// in \p Extra; "" when not found or not executable.
std::string findTool(const std::string &Want,
                     llvm::ArrayRef<llvm::StringRef> Extra = {});

/// The library directories in the LIBRARIES line of `nvcc --dryrun`
/// output, without the driver-stub directory (its libcuda.so only links).
std::vector<std::string> parseNvccLibraryDirs(llvm::StringRef DryRun);

/// The flags that link host objects against \p Nvcc's CUDA runtime:
/// -L and -rpath for each of its library directories, then -lcudart.
/// nvcc is asked where its libraries are, because the nvcc found on PATH
/// may be a wrapper script far from the toolkit (/usr/local/bin/nvcc).
std::vector<std::string> cudaLinkFlags(const std::string &Nvcc,
                                       unsigned TimeoutS);

} // namespace roofline

#endif
