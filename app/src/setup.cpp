#include "flightrec/app/setup.h"

#include "flightrec/common/log.h"
#include "flightrec/config/listen_address.h"
#include "flightrec/config/loader.h"

namespace flightrec::app {

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
