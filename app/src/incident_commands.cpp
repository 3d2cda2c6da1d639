#include <iostream>

#include "flightrec/app/commands.h"
#include "flightrec/app/setup.h"
#include "flightrec/incidents/list_command.h"
#include "flightrec/recording/convert.h"

namespace flightrec::app {

int run_dump(const Command& command) {
  return recording::dump_file(*command.check_file, command.format, std::cout, std::cerr);
}

int run_incidents(const Command& command) {
  if (command.dir) return incidents::list_incidents_command(*command.dir, std::cout);
  const Setup setup = load_setup(command);
  if (!setup.config) {
    for (const auto& error : setup.errors) std::cerr << error << '\n';
    return 1;
  }
  return incidents::list_incidents_command(setup.config->incidents.dir, std::cout);
}

}  // namespace flightrec::app
