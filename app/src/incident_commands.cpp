#include <filesystem>
#include <iostream>

#include "flightrec/app/commands.h"
#include "flightrec/app/setup.h"
#include "flightrec/incidents/list_command.h"
#include "flightrec/incidents/show_command.h"
#include "flightrec/recording/convert.h"

namespace flightrec::app {

int run_dump(const Command& command) {
  return recording::dump_file(*command.argument, command.format, std::cout, std::cerr);
}

int run_incidents(const Command& command) {
  std::filesystem::path dir;
  if (command.dir) {
    dir = *command.dir;
  } else {
    const Setup setup = load_setup(command);
    if (!setup.config) {
      for (const auto& error : setup.errors) std::cerr << error << '\n';
      return 1;
    }
    dir = setup.config->incidents.dir;
  }
  if (command.argument) return incidents::show_incident_command(dir, *command.argument, std::cout);
  return incidents::list_incidents_command(dir, std::cout, std::cerr);
}

}  // namespace flightrec::app
