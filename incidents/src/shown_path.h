#pragma once
// A file's or directory's name as the incident commands print it. --dir or incidents.dir may hold
// any bytes but NUL, so the name is written as printable UTF-8 with every other byte as \xNN, on
// one line.
#include <filesystem>
#include <string>

#include "flightrec/common/printable.h"

namespace flightrec::incidents::detail {

inline std::string shown_path(const std::filesystem::path& path) {
  return escape_unprintable(path.string(), Newlines::escape);
}

}  // namespace flightrec::incidents::detail
