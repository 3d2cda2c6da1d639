#pragma once
// What every command does first: load the configuration (flags override it) and build the
// sampler's view of the filesystem. Errors come back as printable lines, never exceptions.
#include <optional>
#include <string>
#include <vector>

#include "flightrec/app/cli.h"
#include "flightrec/config/config.h"
#include "flightrec/sampler/proc_root.h"

namespace flightrec::app {

// Not a Result: like config::LoadResult, every error of the file, and which file it was.
struct Setup {
  std::optional<config::Config> config;
  std::string config_origin;
  std::vector<std::string> errors;
};

// Loads the config by the lookup order and applies --web.listen-address, --web.max-requests and
// --log.level.
Setup load_setup(const Command& command);

sampler::ProcRoot proc_root_of(const Command& command);

}  // namespace flightrec::app
