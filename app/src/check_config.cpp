#include <iostream>

#include "flightrec/app/commands.h"
#include "flightrec/common/printable.h"
#include "flightrec/config/loader.h"

namespace flightrec::app {

int run_check_config(const Command& command) {
  if (command.print_defaults) {
    std::cout << config::embedded_defaults_yaml();
    return 0;
  }
  config::LoadResult result;
  if (command.argument) {
    result = config::load_from_file(*command.argument);
  } else {
    std::optional<std::filesystem::path> explicit_path;
    if (command.config_file) explicit_path = *command.config_file;
    result = config::load_with_lookup(explicit_path);
  }
  // The file's name as given, which may hold any byte: the errors escape theirs already.
  const std::string origin = escape_unprintable(result.origin, Newlines::escape);
  if (!result.ok()) {
    for (const auto& error : result.errors) std::cerr << error << '\n';
    std::cerr << origin << ": " << result.errors.size() << " error"
              << (result.errors.size() == 1 ? "" : "s") << '\n';
    return 1;
  }
  std::cout << origin << ": OK\n";
  return 0;
}

}  // namespace flightrec::app
