#pragma once
// Loads YAML that must be refused with exactly one error, and returns that error.
#include <catch2/catch.hpp>
#include <string>

#include "flightrec/config/loader.h"

namespace flightrec::config::testing {

inline std::string only_error(const std::string& yaml) {
  LoadResult result = load_from_string(yaml, "flightrec.yaml");
  INFO("yaml:\n" << yaml);
  CHECK_FALSE(result.config.has_value());
  REQUIRE(result.errors.size() == 1);
  return result.errors[0];
}

}  // namespace flightrec::config::testing
