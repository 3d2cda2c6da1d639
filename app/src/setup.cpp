#include "flightrec/app/setup.h"

#include <charconv>

#include "flightrec/common/log.h"
#include "flightrec/config/listen_address.h"
#include "flightrec/config/loader.h"

namespace flightrec::app {
namespace {
constexpr uint32_t kMaxRequestsLimit = 10000;  // web.max_requests' range (schema_table.cpp)
}  // namespace

Setup load_setup(const Command& command) {
  Setup setup;
  std::optional<std::filesystem::path> explicit_path;
  if (command.config_file) explicit_path = *command.config_file;
  auto loaded = config::load_with_lookup(explicit_path);
  setup.config_origin = loaded.origin;
  if (!loaded.ok()) {
    setup.errors = std::move(loaded.errors);
    return setup;
  }
  config::Config cfg = std::move(*loaded.config);
  if (command.web_listen_address) {
    if (!config::parse_listen_address(*command.web_listen_address)) {
      setup.errors.push_back("--web.listen-address: \"" + *command.web_listen_address +
                             "\" is not host:port (examples: 127.0.0.1:9717, [::1]:9717)");
    }
    cfg.web.listen_address = *command.web_listen_address;
  }
  if (command.web_max_requests) {
    const std::string& text = *command.web_max_requests;
    uint32_t value = 0;
    const auto [end, ec] = std::from_chars(text.data(), text.data() + text.size(), value);
    if (ec != std::errc{} || end != text.data() + text.size() || value > kMaxRequestsLimit) {
      setup.errors.push_back("--web.max-requests: \"" + text + "\" is not a number from 0 to " +
                             std::to_string(kMaxRequestsLimit));
    }
    cfg.web.max_requests = value;
  }
  if (command.log_level) {
    if (!log::parse_level(*command.log_level)) {
      setup.errors.push_back("--log.level: \"" + *command.log_level +
                             "\" is not a level (debug, info, warn, error)");
    }
    cfg.log.level = *command.log_level;
  }
  if (setup.errors.empty()) {
    log::set_level(*log::parse_level(cfg.log.level));
    setup.config = std::move(cfg);
  }
  return setup;
}

sampler::ProcRoot proc_root_of(const Command& command) {
  return {.procfs = command.procfs, .sysfs = command.sysfs, .cgroupfs = command.cgroupfs};
}

}  // namespace flightrec::app
