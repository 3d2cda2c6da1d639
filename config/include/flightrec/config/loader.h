#pragma once
// Loading a Config from YAML: from text, from a file, or by the lookup order
//   --config.file (explicit) > /etc/flightrec/flightrec.yaml > ./flightrec.yaml > embedded
//   defaults.
// Bad input never throws: it yields errors naming the file, line, key path, the value written and
// what is allowed, e.g.
//   flightrec.yaml:3: sampler.rate: "1xs" is not a duration (examples: 500us, 1ms, 2s)
// Every error in the file is reported, in document order. Keys not written keep their defaults.
#include <filesystem>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "flightrec/config/config.h"

namespace flightrec::config {

// Not a Result<Config>: a load reports every error of the file, not the first, and says which
// file it read whether or not it succeeded.
struct LoadResult {
  std::optional<Config> config;     // set exactly when `errors` is empty
  std::vector<std::string> errors;  // complete lines, ready to print
  std::string origin;               // the file used, or kEmbeddedDefaultsOrigin

  [[nodiscard]] bool ok() const { return config.has_value(); }
};

inline constexpr std::string_view kEmbeddedDefaultsOrigin = "<embedded defaults>";

// Files larger than this are refused, so a mistaken --config.file=/dev/zero cannot hang start-up.
inline constexpr size_t kMaxConfigFileBytes = 1 << 20;

// `origin_name` prefixes every error ("flightrec.yaml:3: ..."). An empty document gives Config{}.
[[nodiscard]] LoadResult load_from_string(std::string_view yaml, std::string_view origin_name);

// A file that cannot be read is an error naming the path and the reason.
[[nodiscard]] LoadResult load_from_file(const std::filesystem::path& path);

// The implicit candidates, in order; injectable so tests can point them into a temp dir.
struct LookupPaths {
  std::filesystem::path system = "/etc/flightrec/flightrec.yaml";
  std::filesystem::path local = "flightrec.yaml";
};

// With an explicit path, that file must exist (a missing --config.file is an error naming it).
// Otherwise the first candidate that exists is loaded; one that exists but cannot be read is an
// error, never skipped. With no candidate, the embedded defaults are used. `origin` says which.
[[nodiscard]] LoadResult load_with_lookup(const std::optional<std::filesystem::path>& explicit_path,
                                          const LookupPaths& paths = {});

// config/defaults.yaml as compiled in: commented, and equal to Config{} when loaded.
[[nodiscard]] std::string_view embedded_defaults_yaml();

}  // namespace flightrec::config
