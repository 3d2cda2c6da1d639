#include <filesystem>
#include <iostream>
#include <string>

#include "flightrec/app/commands.h"
#include "flightrec/app/setup.h"
#include "flightrec/incidents/list_command.h"
#include "flightrec/incidents/show_command.h"
#include "flightrec/recording/convert.h"

namespace flightrec::app {

int run_dump(const Command& command) {
  return recording::dump_file(*command.argument, command.format, std::cout, std::cerr);
}

namespace {

// Where a directory taken from the config came from, and how to look elsewhere: the daemon that
// wrote the incident may run with another config (a systemd unit's --config.file, a container's
// volume) than this command found.
std::string where_to_look(const std::string& config_origin) {
  const std::string source = config_origin.starts_with('<') ? "the default incidents.dir"
                                                            : "incidents.dir of " + config_origin;
  return "(" + source +
         "; for a daemon run with another config, give its --config.file=PATH, or its incident "
         "directory with --dir=DIR)";
}

}  // namespace

int run_incidents(const Command& command) {
  std::filesystem::path dir;
  std::string hint;
  if (command.dir) {
    dir = *command.dir;
  } else {
    const Setup setup = load_setup(command);
    if (!setup.config) {
      for (const auto& error : setup.errors) std::cerr << error << '\n';
      return 1;
    }
    dir = setup.config->incidents.dir;
    hint = where_to_look(setup.config_origin);
  }
  if (command.argument) {
    return incidents::show_incident_command(dir, *command.argument, std::cout, hint);
  }
  const int status = incidents::list_incidents_command(dir, std::cout, std::cerr);
  // 1: the directory itself could not be read (2 is some files in it).
  if (status == 1 && !hint.empty()) std::cerr << hint << '\n';
  return status;
}

}  // namespace flightrec::app
