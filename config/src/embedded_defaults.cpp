#include "flightrec/config/defaults_yaml.h"
#include "flightrec/config/loader.h"

namespace flightrec::config {

std::string_view embedded_defaults_yaml() { return detail::kDefaultsYaml; }

}  // namespace flightrec::config
