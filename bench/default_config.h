#pragma once
// The built-in configuration, as one named object: GCC 12 at -O3 takes a std::string member of a
// temporary config::Config{} for "maybe uninitialized" (a false positive -Werror makes fatal).
#include "flightrec/config/config.h"

namespace flightrec::bench {

const config::Config& default_config();

}  // namespace flightrec::bench
