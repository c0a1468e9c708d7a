//===- Config.h - .roofline.yaml: per-directory settings -------------------===//
//
// A config file holds the settings a CI job would otherwise repeat on every
// command line. Like .clang-tidy, the nearest .roofline.yaml in a source
// file's directory or above governs it; `inherit-parent-config: true` lays
// it over the next one up. Parsed with YAMLIO: unknown keys and bad values
// are errors naming the file, line and column.
//
//===----------------------------------------------------------------------===//

#ifndef ROOFLINE_CONFIG_CONFIG_H
#define ROOFLINE_CONFIG_CONFIG_H

#include "llvm/ADT/ArrayRef.h"
#include "llvm/ADT/StringRef.h"
#include "llvm/Support/Error.h"

#include <cstdint>
#include <map>
#include <optional>
#include <string>
#include <vector>

namespace roofline {

/// What --fail-on / `fail-on` can name.
enum class FailOnPolicy { MemoryBound, Unanalyzable, Capacity, StridedAccess };
/// "memory-bound", "unanalyzable", "capacity", "strided-access".
const char *failOnPolicyName(FailOnPolicy P);
std::optional<FailOnPolicy> parseFailOnPolicy(llvm::StringRef Name);
/// "memory-bound, unanalyzable, capacity, strided-access".
std::string failOnPolicyList();
/// Parses "memory-bound,unanalyzable"; "none" drops the policies before it.
llvm::Expected<std::vector<FailOnPolicy>>
parseFailOnList(llvm::StringRef Spec);

/// One layer of settings; unset fields leave the layer below in force.
struct Config {
  /// Builtin machine name, or an absolute path to a machine file (a
  /// relative path in a file is resolved against the file's directory).
  std::optional<std::string> Machine;
  std::optional<std::string> Model; ///< a traffic model name
  std::map<std::string, int64_t> Params;
  std::optional<std::string> Checks;
  std::optional<std::string> HeaderFilter;
  std::optional<double> MinIntensity; ///< FLOP/byte
  std::optional<double> MaxTime;      ///< seconds
  std::optional<std::vector<FailOnPolicy>> FailOn;
  std::optional<std::string> WarningsAsErrors;
  std::optional<bool> InheritParentConfig;
  /// `compile-flags: {add, remove}`: appended to / removed from each file's
  /// compile command (docs/ci.md#gcc-built-projects).
  std::vector<std::string> AddFlags, RemoveFlags;
  /// The files this came from, nearest last ("" for none).
  std::vector<std::string> Sources;
};

struct ConfigParseOptions {
  /// Accepted `model` values (the --model names).
  std::vector<std::string> ModelNames = {"compulsory", "no-reuse"};
};

/// Parses YAML text. \p Path names it in messages; relative machine paths
/// resolve against its directory.
llvm::Expected<Config> parseConfig(llvm::StringRef Yaml, llvm::StringRef Path,
                                   const ConfigParseOptions &Opts = {});
llvm::Expected<Config> loadConfigFile(llvm::StringRef Path,
                                      const ConfigParseOptions &Opts = {});

/// \p Over's fields win over \p Base's; params merge name by name.
Config mergeConfig(Config Base, const Config &Over);

/// The YAML text of \p C (only the fields that are set), loadable again.
std::string dumpConfig(const Config &C);

/// "12us" style: seconds, or a number with s, ms, us or ns.
std::optional<double> parseSeconds(llvm::StringRef S);

/// Finds and caches the config governing each source file.
class ConfigFinder {
public:
  static constexpr const char *FileName = ".roofline.yaml";
  explicit ConfigFinder(ConfigParseOptions Opts = {}) : Opts(std::move(Opts)) {}

  /// The merged config for \p SourceFile (empty when no file governs it).
  llvm::Expected<Config> configFor(llvm::StringRef SourceFile);

private:
  llvm::Expected<Config> configForDir(const std::string &Dir);

  struct Entry {
    std::optional<Config> C;
    std::string Error;
  };
  ConfigParseOptions Opts;
  std::map<std::string, Entry> Cache;
};

} // namespace roofline

#endif // ROOFLINE_CONFIG_CONFIG_H
