#include "default_config.h"

namespace flightrec::bench {

const config::Config& default_config() {
  static const config::Config defaults;
  return defaults;
}

}  // namespace flightrec::bench
